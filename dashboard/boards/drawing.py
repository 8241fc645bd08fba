"""The pieces every board figure is drawn with: closed paths, the plain scatter traces of a drawing, text labels
and a layout of hidden, fixed axes. Plain dicts, as the boards hand them to plotly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboard.theme import MUTED, base_layout, hidden_axis

Figure = dict[str, Any]
Trace = dict[str, Any]
Path = tuple[list[float], list[float]]
Coords = list[float | None]  # the points of many shapes in one trace; None lifts the pen between shapes


def rect_path(x0: float, y0: float, x1: float, y1: float) -> Path:
    """The closed outline of a rectangle, from its bottom-left corner."""
    return [x0, x1, x1, x0, x0], [y0, y0, y1, y1, y0]


def add_path(xs: Coords, ys: Coords, path: Path) -> None:
    """Append `path` to the points of a trace that draws many shapes (one trace draws faster than many)."""
    xs.extend([*path[0], None])
    ys.extend([*path[1], None])


def fill_trace(xs: Sequence[Any], ys: Sequence[Any], fill: str, colour: str, width: float, name: str) -> Trace:
    """Filled closed shapes with an edge; no hover."""
    return {"type": "scatter", "mode": "lines", "x": xs, "y": ys, "fill": "toself", "fillcolor": fill,
            "line": {"color": colour, "width": width}, "hoverinfo": "skip", "name": name}


def line_trace(
    xs: Sequence[Any], ys: Sequence[Any], colour: str, width: float, name: str, dash: str | None = None
) -> Trace:
    """Lines and outlines; no hover."""
    line: dict[str, Any] = {"color": colour, "width": width}
    if dash is not None:
        line["dash"] = dash
    return {"type": "scatter", "mode": "lines", "x": xs, "y": ys, "hoverinfo": "skip", "line": line, "name": name}


def marker_trace(xs: Sequence[Any], ys: Sequence[Any], marker: dict[str, Any], name: str) -> Trace:
    """Markers (holes, dots, rings); no hover."""
    return {"type": "scatter", "mode": "markers", "x": xs, "y": ys, "hoverinfo": "skip", "marker": marker,
            "name": name}


def text_trace(
    xs: Sequence[Any], ys: Sequence[Any], text: Sequence[str], name: str, size: int, colour: str,
    family: str | None = None,
) -> Trace:
    """Text drawn on the board (numbers, values); no hover."""
    font: dict[str, Any] = {"size": size, "color": colour}
    if family is not None:
        font["family"] = family
    return {"type": "scatter", "mode": "text", "x": xs, "y": ys, "text": text, "hoverinfo": "skip",
            "textfont": font, "name": name}


def hover_trace(xs: Sequence[Any], ys: Sequence[Any], text: Sequence[str], size: int, name: str) -> Trace:
    """Invisible markers that carry the hover text of shapes (plotly does not hover filled areas well)."""
    return {"type": "scatter", "mode": "markers", "x": xs, "y": ys, "text": text,
            "hovertemplate": "%{text}<extra></extra>", "marker": {"size": size, "opacity": 0}, "name": name}


# An annotation's anchor as a text trace's position: text anchored at its left edge lies right of the point.
_ACROSS = {"left": "right", "center": "center", "right": "left"}
_UP = {"bottom": "top", "middle": "middle", "top": "bottom"}


class Labels:
    """The words of a board (titles, numbers, totals) as one text trace. Plotly lays out and measures every
    annotation on its own, each time the figure is drawn: 30 annotations took longer than the rest of a
    board; the same words as the points of a text trace cost about what any point does."""

    def __init__(self, name: str = "labels") -> None:
        self.name = name
        self.x: list[float] = []
        self.y: list[float] = []
        self.text: list[str] = []
        self.size: list[int] = []
        self.colour: list[str] = []
        self.position: list[str] = []

    def add(self, x: float, y: float, text: str, size: int, colour: str, xanchor: str = "center",
            yanchor: str = "middle") -> None:
        """`text` at (x, y), the point being the side or corner of the text that `xanchor`/`yanchor` name, as
        for an annotation (`label`)."""
        self.x.append(x)
        self.y.append(y)
        self.text.append(text)
        self.size.append(size)
        self.colour.append(colour)
        self.position.append(f"{_UP[yanchor]} {_ACROSS[xanchor]}")

    def trace(self) -> Trace:
        """The text trace (drawn over the axes' edges, as annotations are; no hover)."""
        return {"type": "scatter", "mode": "text", "x": self.x, "y": self.y, "text": self.text,
                "textposition": self.position, "textfont": {"size": self.size, "color": self.colour},
                "cliponaxis": False, "hoverinfo": "skip", "name": self.name}


def label(
    x: float, y: float, text: str, size: int, colour: str, xanchor: str | None = None, yanchor: str | None = None
) -> dict[str, Any]:
    """A text annotation at a point of the board, with no arrow (a few at most: see `Labels`)."""
    note: dict[str, Any] = {"x": x, "y": y}
    if xanchor is not None:
        note["xanchor"] = xanchor
    if yanchor is not None:
        note["yanchor"] = yanchor
    note.update({"text": text, "showarrow": False, "font": {"size": size, "color": colour}})
    return note


def board_layout(
    height: int, x: tuple[float, float], y: tuple[float, float], square: bool = False, **extra: Any
) -> dict[str, object]:
    """Hidden, fixed axes over the ranges `x` and `y`; `square`: a unit as long up as across, so shapes keep
    their proportions, and the ranges drawn are kept in `meta.board` too (plotly widens an axis's range in
    place to fill a frame of another shape; assets/phone.js fits the frame to the board's own)."""
    if not square:
        return base_layout(height=height, xaxis=hidden_axis(*x), yaxis=hidden_axis(*y), **extra)
    meta = {**extra.pop("meta", {}), "board": [list(x), list(y)]}
    yaxis = hidden_axis(*y, scaleanchor="x", scaleratio=1)
    return base_layout(height=height, xaxis=hidden_axis(*x), yaxis=yaxis, meta=meta, **extra)


def empty_figure(message: str, height: int = 420) -> Figure:
    return {
        "data": [],
        "layout": board_layout(height, (0, 1), (0, 1), annotations=[label(0.5, 0.5, message, 16, MUTED)]),
    }
