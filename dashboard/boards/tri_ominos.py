"""Tri-Ominos: the triangles as placed, the number at every corner, the last tile highlighted."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.boards.drawing import (
    Coords,
    Path,
    add_path,
    board_layout,
    empty_figure,
    fill_trace,
    hover_trace,
    line_trace,
    text_trace,
)
from dashboard.boards.panels import Panel, player_panel, tile_count, tiles_shown, to_play
from dashboard.theme import HIGHLIGHT, INK, MONO, MUTED, seat_colours, seat_tints

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
        return empty_figure("No tile on the table yet", HEIGHT)
    last = board.get("last_placement") or {}
    last_cell = tuple(last.get("cell") or ())
    xs_all: list[float] = []
    ys_all: list[float] = []
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
        xs_all.extend(path[0])
        ys_all.extend(path[1])
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
    lo_x, hi_x = min(xs_all), max(xs_all)
    lo_y, hi_y = min(ys_all), max(ys_all)
    # Equal scales: a range of about 1.45:1 fills the graph; the font follows the size of a triangle.
    span_y = max(hi_y - lo_y + 2.0, (hi_x - lo_x + 2.0) / 1.45, 8.0)
    span_x = span_y * 1.45
    mid_x, mid_y = (lo_x + hi_x) / 2, (lo_y + hi_y) / 2
    px_per_unit = (HEIGHT - 20) / span_y
    size = max(9, min(17, int(px_per_unit * 0.62)))
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


def panel(board: Mapping[str, Any], reveal: bool) -> Panel:
    def lines(p: Mapping[str, Any]) -> list[str]:
        if reveal and p.get("dealt"):
            return [tiles_shown("hand", p.get("hand", []), p.get("hidden", 0))]
        return [tile_count(p.get("tiles", 0), "in hand")]

    info = [f"round {board.get('round', 0)}", f"well {board.get('well', 0)}", *to_play(board, "turn")]
    return player_panel(board, lines, info)
