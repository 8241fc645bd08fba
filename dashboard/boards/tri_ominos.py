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
HEIGHT = 560  # the frame's height at most; on a phone the frame is fitted to the board's width (assets/boards.js)
PHONE_WIDTH = 350  # the board's width in pixels on a 390 px phone
MARGIN = 0.7  # around the outermost tiles and open cells, in units of the lattice (a triangle's side is 2)
MIN_SPAN = 7.0
# The corner numbers are drawn half way from the corner to the tile's middle: the numbers of the up to six tiles
# meeting at a point stay 0.58 units apart (a side is 2), those of one tile 1 unit apart.
NUMBER_PULL = 0.5
TARGET_SHRINK = 0.82  # a target is its cell's triangle, a little smaller: it never reaches a placed tile
TARGET_EDGE = "#8A5A00"
MIN_TAP = 44  # pixels: a finger's touch target
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
    the pad's targets go) with a small margin, at least MIN_SPAN units across, and no taller than 5:3 nor wider
    than 2:1 (on a phone the frame is fitted to the board's width, so a board's shape is its frame's); an empty
    table centres on the starting cell [0, 0]."""
    tiles = board.get("board") or []
    pts = [point_xy(p) for t in tiles for p in t["points_at"]] or [point_xy(p) for p in cell_points((0, 0))]
    pts += [cell_centre(c) for c in board.get("open_cells") or []]
    lo_x, hi_x = min(x for x, _ in pts) - MARGIN, max(x for x, _ in pts) + MARGIN
    lo_y, hi_y = min(y for _, y in pts) - MARGIN, max(y for _, y in pts) + MARGIN
    span_x = max(hi_x - lo_x, MIN_SPAN)
    span_y = hi_y - lo_y
    span_x = max(span_x, span_y * 0.6)
    span_y = max(span_y, span_x / 2)
    return (lo_x + hi_x) / 2, (lo_y + hi_y) / 2, span_x, span_y


def px_per_unit(span_x: float, span_y: float) -> float:
    """The board's scale on a phone (PHONE_WIDTH across), or in the full frame when that is smaller."""
    return min(PHONE_WIDTH / span_x, (HEIGHT - 20) / span_y)


def number_size(span_x: float, span_y: float) -> int:
    """The corner numbers' font size: under a quarter of a triangle's side at the phone's scale, so that the
    numbers of tiles meeting at a corner stay apart, with a digit's room between them (NUMBER_PULL)."""
    return max(8, min(17, int(px_per_unit(span_x, span_y) * 0.45)))


def number_xy(corner: tuple[float, float], centre: tuple[float, float]) -> tuple[float, float]:
    """Where a corner's number is drawn: inside the tile, NUMBER_PULL of the way from the corner to the middle,
    as printed on the real tiles."""
    return (corner[0] + NUMBER_PULL * (centre[0] - corner[0]), corner[1] + NUMBER_PULL * (centre[1] - corner[1]))


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
        for corner, n in zip(pts, t["corners"], strict=True):
            nx, ny = number_xy(corner, (cx, cy))
            num_x.append(nx)
            num_y.append(ny)
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
    size = number_size(span_x, span_y)
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


def target_path(cell: Sequence[int]) -> Path:
    """The outline of a target: cell's triangle shrunk about its middle (TARGET_SHRINK), inside the empty cell."""
    cx, cy = cell_centre(cell)
    pts = [point_xy(p) for p in cell_points(cell)]
    ring = [*pts, pts[0]]
    return ([cx + TARGET_SHRINK * (x - cx) for x, _ in ring], [cy + TARGET_SHRINK * (y - cy) for _, y in ring])


def targets(board: Mapping[str, Any], values: Sequence[str]) -> list[dict[str, Any]]:
    """The scorepad's "board" choices (cells "q,r", all empty) on top of `figure(board, …)`: each cell's triangle
    filled gold, inside the cell so that no placed tile is covered, and an invisible marker at least MIN_TAP
    pixels wide at its middle that takes the tap (plotly finds a filled shape's point poorly), whose
    `customdata` is the value."""
    cells: list[tuple[str, tuple[int, int]]] = []
    for value in values:
        q, r = (int(part) for part in value.split(","))
        cells.append((value, (q, r)))
    if not cells:
        return []
    xs: Coords = []
    ys: Coords = []
    for _, cell in cells:
        add_path(xs, ys, target_path(cell))
    centres = [cell_centre(cell) for _, cell in cells]
    _, _, span_x, span_y = _viewport(board)
    size = max(MIN_TAP, int(px_per_unit(span_x, span_y) * 1.6))  # about a triangle's height
    return [
        {**fill_trace(xs, ys, "rgba(242,183,5,0.55)", TARGET_EDGE, 2, "target cells"),
         "line": {"color": TARGET_EDGE, "width": 2, "dash": "dot"}},  # dotted: the last tile's edge is solid
        {
            "type": "scatter",
            "mode": "markers",
            "x": [x for x, _ in centres],
            "y": [y for _, y in centres],
            "customdata": [value for value, _ in cells],
            "text": [f"@{value}" for value, _ in cells],
            "hovertemplate": "%{text}<extra></extra>",
            "marker": {"size": size, "symbol": "circle", "opacity": 0},
            "name": "targets",
        },
    ]


def panel(board: Mapping[str, Any], reveal: bool) -> Panel:
    def lines(p: Mapping[str, Any]) -> list[str]:
        if reveal and p.get("dealt"):
            return [tiles_shown("hand", p.get("hand", []), p.get("hidden", 0))]
        return [tile_count(p.get("tiles", 0), "in hand")]

    rnd = board.get("round", 0)
    # Before the first round nothing is dealt: no "round 0 · well 0".
    info = [f"round {rnd}", f"well {board.get('well', 0)}"] if rnd else []
    info += to_play(board, "turn")
    return player_panel(board, lines, info)
