"""Tri-Ominos: the triangles as placed, the number at every corner, the last tile highlighted; on the scorepad,
the cells a placement may go to as large clickable triangles (`targets`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.boards.drawing import (
    Coords,
    Path,
    add_path,
    board_layout,
    fill_trace,
    hover_trace,
    label,
    line_trace,
    text_trace,
)
from dashboard.boards.panels import Panel, player_panel, tile_count, tiles_shown, to_play
from dashboard.theme import HIGHLIGHT, INK, MONO, MUTED, seat_colours, seat_tints

SQRT3 = math.sqrt(3.0)
HEIGHT = 560
EMPTY = "No tile on the table yet"


def point_xy(p: Sequence[int]) -> tuple[float, float]:
    """Lattice point (x, y) of RULES.md's grid -> plane coordinates of equilateral triangles of side 2."""
    return float(p[0]), p[1] * SQRT3


def cell_points(cell: Sequence[int]) -> list[tuple[int, int]]:
    """The corner points of cell [q, r] (RULES.md §1 "Grid"): up (q + r even) top, bottom-right,
    bottom-left; down bottom, top-left, top-right — what the state JSON's `points_at` lists."""
    q, r = cell[0], cell[1]
    if (q + r) % 2 == 0:
        return [(q, r + 1), (q + 1, r), (q - 1, r)]
    return [(q, r), (q - 1, r + 1), (q + 1, r + 1)]


def cell_centre(cell: Sequence[int]) -> tuple[float, float]:
    """Where the figure draws the middle of cell [q, r] (the centroid of its triangle)."""
    pts = [point_xy(p) for p in cell_points(cell)]
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def _viewport(board: Mapping[str, Any]) -> tuple[float, float, float, float]:
    """(mid_x, mid_y, span_x, span_y) of the figure: every placed tile and the middle of every open cell (where
    the pad's targets go) with a unit's margin, never less than 8 units high, at about 1.45:1 (equal scales fill
    the graph); an empty table centres on the starting cell [0, 0]."""
    tiles = board.get("board") or []
    pts = [point_xy(p) for t in tiles for p in t["points_at"]] or [point_xy(p) for p in cell_points((0, 0))]
    pts += [cell_centre(c) for c in board.get("open_cells") or []]
    lo_x, hi_x = min(x for x, _ in pts) - 1.0, max(x for x, _ in pts) + 1.0
    lo_y, hi_y = min(y for _, y in pts) - 1.0, max(y for _, y in pts) + 1.0
    span_y = max(hi_y - lo_y, (hi_x - lo_x) / 1.45, 8.0)
    return (lo_x + hi_x) / 2, (lo_y + hi_y) / 2, span_y * 1.45, span_y


def _px_per_unit(span_y: float) -> float:
    return (HEIGHT - 20) / span_y


def figure(board: Mapping[str, Any], players: Sequence[tuple[str, str]], reveal: bool) -> dict[str, Any]:
    tiles = board.get("board") or []
    ids = [pid for pid, _ in players]
    colours, tints = seat_colours(ids), seat_tints(ids)
    if not tiles:  # the board's frame all the same, so the pad's target for the first tile lines up
        mid_x, mid_y, span_x, span_y = _viewport(board)
        layout = board_layout(
            HEIGHT,
            (mid_x - span_x / 2, mid_x + span_x / 2),
            (mid_y - span_y / 2, mid_y + span_y / 2),
            square=True,
            annotations=[label(mid_x, mid_y + 2.2, EMPTY, 16, MUTED)],
            meta={"tiles": 0, "last_cell": None},
        )
        return {"data": [], "layout": layout}
    last = board.get("last_placement") or {}
    last_cell = tuple(last.get("cell") or ())
    shapes_by_player: dict[str, tuple[Coords, Coords]] = {}
    bridge_x: Coords = []
    bridge_y: Coords = []
    num_x: list[float] = []
    num_y: list[float] = []
    num_t: list[str] = []
    hover_x: list[float] = []
    hover_y: list[float] = []
    hover_t: list[str] = []
    last_poly: Path | None = None
    names = dict(players)
    for t in tiles:
        pts = [point_xy(p) for p in t["points_at"]]
        cx = sum(p[0] for p in pts) / 3
        cy = sum(p[1] for p in pts) / 3
        ring = [*pts, pts[0]]
        path = ([px for px, _ in ring], [py for _, py in ring])
        xs, ys = shapes_by_player.setdefault(t["player"], ([], []))
        add_path(xs, ys, path)
        if t.get("bridge"):  # an inner outline marks a bridge
            add_path(bridge_x, bridge_y, ([cx + 0.72 * (px - cx) for px in path[0]],
                                          [cy + 0.72 * (py - cy) for py in path[1]]))
        for (px, py), n in zip(pts, t["corners"], strict=True):
            num_x.append(px + 0.36 * (cx - px))
            num_y.append(py + 0.36 * (cy - py))
            num_t.append(str(n))
        hover_x.append(cx)
        hover_y.append(cy)
        extra = " · bridge" if t.get("bridge") else ""
        hover_t.append(
            f"{t['tile']} by {names.get(t['player'], t['player'])}<br>tile #{t['order']} · {t['points']} points{extra}"
        )
        if tuple(t["cell"]) == last_cell:
            last_poly = path
    data: list[dict[str, Any]] = [
        fill_trace(xs, ys, tints.get(pid, "#EEEEEE"), colours.get(pid, INK), 1.5, names.get(pid, pid))
        for pid, (xs, ys) in shapes_by_player.items()
    ]
    if bridge_x:
        data.append(line_trace(bridge_x, bridge_y, MUTED, 1, "bridges", dash="dot"))
    if last_poly is not None:
        data.append(fill_trace(*last_poly, "rgba(242,183,5,0.35)", HIGHLIGHT, 5, "last tile"))
    mid_x, mid_y, span_x, span_y = _viewport(board)
    size = max(9, min(17, int(_px_per_unit(span_y) * 0.62)))  # the font follows the size of a triangle
    data.append(text_trace(num_x, num_y, num_t, "corners", size, INK, MONO))
    data.append(hover_trace(hover_x, hover_y, hover_t, max(8, size), "tiles"))
    layout = board_layout(
        HEIGHT,
        (mid_x - span_x / 2, mid_x + span_x / 2),
        (mid_y - span_y / 2, mid_y + span_y / 2),
        square=True,
        meta={"tiles": len(tiles), "last_cell": list(last_cell) if last_cell else None},
    )
    return {"data": data, "layout": layout}


def targets(board: Mapping[str, Any], values: Sequence[str]) -> list[dict[str, Any]]:
    """The scorepad's "board" choices (cells "q,r") as large triangles at the cells' centres, pointing the
    way the cell does, on top of `figure(board, …)`; a point's `customdata` is its value."""
    cells: list[tuple[str, tuple[int, int]]] = []
    for value in values:
        q, r = (int(part) for part in value.split(","))
        cells.append((value, (q, r)))
    if not cells:
        return []
    centres = [cell_centre(cell) for _, cell in cells]
    size = max(26, min(80, int(_px_per_unit(_viewport(board)[3]) * 1.5)))  # about 2/3 of a triangle's height
    return [
        {
            "type": "scatter",
            "mode": "markers",
            "x": [x for x, _ in centres],
            "y": [y for _, y in centres],
            "customdata": [value for value, _ in cells],
            "text": [f"@{value}" for value, _ in cells],
            "hovertemplate": "%{text}<extra></extra>",
            "marker": {
                "size": size,
                "symbol": ["triangle-up" if (q + r) % 2 == 0 else "triangle-down" for _, (q, r) in cells],
                "color": "rgba(31,36,48,0.14)",  # an empty place to click, unlike the last tile's highlight
                "line": {"color": INK, "width": 2.5},
            },
            "name": "targets",
        }
    ]


def panel(board: Mapping[str, Any], reveal: bool) -> Panel:
    def lines(p: Mapping[str, Any]) -> list[str]:
        if reveal and p.get("dealt"):
            return [tiles_shown("hand", p.get("hand", []), p.get("hidden", 0))]
        return [tile_count(p.get("tiles", 0), "in hand")]

    info = [f"round {board.get('round', 0)}", f"well {board.get('well', 0)}", *to_play(board, "turn")]
    return player_panel(board, lines, info)
