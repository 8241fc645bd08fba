"""Tri-Ominos: the triangles as placed, the number at every corner, the last tile highlighted."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.theme import HIGHLIGHT, INK, MUTED, base_layout, hidden_axis, seat_colours, seat_tints

SQRT3 = math.sqrt(3.0)
HEIGHT = 560


def point_xy(p: Sequence[int]) -> tuple[float, float]:
    """Lattice point (x, y) of RULES.md's grid -> plane coordinates of equilateral triangles of side 2."""
    return float(p[0]), p[1] * SQRT3


def figure(board: Mapping[str, Any], players: Sequence[tuple[str, str]], reveal: bool) -> dict[str, Any]:
    tiles = board.get("board") or []
    ids = [pid for pid, _ in players]
    colours, tints = seat_colours(ids), seat_tints(ids)
    if not tiles:
        from dashboard.boards import empty_figure

        return empty_figure("No tile on the table yet", HEIGHT)
    last = board.get("last_placement") or {}
    last_cell = tuple(last.get("cell") or ())
    xs_all: list[float] = []
    ys_all: list[float] = []
    shapes_by_player: dict[str, tuple[list[float | None], list[float | None]]] = {}
    num_x: list[float] = []
    num_y: list[float] = []
    num_t: list[str] = []
    hover_x: list[float] = []
    hover_y: list[float] = []
    hover_t: list[str] = []
    last_poly: tuple[list[float], list[float]] | None = None
    names = dict(players)
    for t in tiles:
        pts = [point_xy(p) for p in t["points_at"]]
        cx = sum(p[0] for p in pts) / 3
        cy = sum(p[1] for p in pts) / 3
        xs, ys = shapes_by_player.setdefault(t["player"], ([], []))
        for px, py in [*pts, pts[0]]:
            xs.append(px)
            ys.append(py)
            xs_all.append(px)
            ys_all.append(py)
        xs.append(None)
        ys.append(None)
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
            last_poly = ([p[0] for p in [*pts, pts[0]]], [p[1] for p in [*pts, pts[0]]])
    data: list[dict[str, Any]] = []
    for pid, (xs, ys) in shapes_by_player.items():
        data.append({
            "type": "scatter", "mode": "lines", "x": xs, "y": ys, "fill": "toself",
            "fillcolor": tints.get(pid, "#EEEEEE"), "line": {"color": colours.get(pid, INK), "width": 1.5},
            "hoverinfo": "skip", "name": names.get(pid, pid),
        })
    bridges = [t for t in tiles if t.get("bridge")]
    if bridges:
        bx: list[float | None] = []
        by: list[float | None] = []
        for t in bridges:
            pts = [point_xy(p) for p in t["points_at"]]
            cx = sum(p[0] for p in pts) / 3
            cy = sum(p[1] for p in pts) / 3
            for px, py in [*pts, pts[0]]:  # an inner outline marks a bridge
                bx.append(cx + 0.72 * (px - cx))
                by.append(cy + 0.72 * (py - cy))
            bx.append(None)
            by.append(None)
        data.append({"type": "scatter", "mode": "lines", "x": bx, "y": by, "hoverinfo": "skip",
                     "line": {"color": MUTED, "width": 1, "dash": "dot"}, "name": "bridges"})
    if last_poly is not None:
        data.append({
            "type": "scatter", "mode": "lines", "x": last_poly[0], "y": last_poly[1], "fill": "toself",
            "fillcolor": "rgba(242,183,5,0.35)", "line": {"color": HIGHLIGHT, "width": 5},
            "hoverinfo": "skip", "name": "last tile",
        })
    lo_x, hi_x = min(xs_all), max(xs_all)
    lo_y, hi_y = min(ys_all), max(ys_all)
    # Equal scales: a range of about 1.45:1 fills the graph; the font follows the size of a triangle.
    span_y = max(hi_y - lo_y + 2.0, (hi_x - lo_x + 2.0) / 1.45, 8.0)
    span_x = span_y * 1.45
    mid_x, mid_y = (lo_x + hi_x) / 2, (lo_y + hi_y) / 2
    px_per_unit = (HEIGHT - 20) / span_y
    size = max(9, min(17, int(px_per_unit * 0.62)))
    data.append({
        "type": "scatter", "mode": "text", "x": num_x, "y": num_y, "text": num_t, "hoverinfo": "skip",
        "textfont": {"size": size, "color": INK, "family": "DejaVu Sans Mono, monospace"}, "name": "corners",
    })
    data.append({
        "type": "scatter", "mode": "markers", "x": hover_x, "y": hover_y, "text": hover_t,
        "hovertemplate": "%{text}<extra></extra>", "marker": {"size": max(8, size), "opacity": 0},
        "name": "tiles",
    })
    layout = base_layout(
        height=HEIGHT,
        xaxis=hidden_axis(mid_x - span_x / 2, mid_x + span_x / 2),
        yaxis=hidden_axis(mid_y - span_y / 2, mid_y + span_y / 2, scaleanchor="x", scaleratio=1),
        meta={"tiles": len(tiles), "last_cell": list(last_cell) if last_cell else None},
    )
    return {"data": data, "layout": layout}


def panel(board: Mapping[str, Any], reveal: bool) -> dict[str, list[str]]:
    names = {p["id"]: p["name"] for p in board.get("players", [])}
    out: dict[str, list[str]] = {}
    for p in board.get("players", []):
        n = p.get("tiles", 0)
        lines = [f"{n} tile{'s' if n != 1 else ''} in hand"]
        if reveal and p.get("dealt"):
            shown = list(p.get("hand", [])) + ["?"] * int(p.get("hidden", 0))
            lines = [f"hand: {' '.join(shown) if shown else '(empty)'}"]
        out[p["id"]] = lines
    info = [f"round {board.get('round', 0)}", f"well {board.get('well', 0)}"]
    if board.get("turn"):
        info.append(f"to play: {names.get(board['turn'], board['turn'])}")
    out[""] = info
    return out
