"""Hi-Spot: the 3×3 tray, each stack's dots (one colour per tile of the stack) and its total."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.boards.drawing import (
    Coords,
    Labels,
    Path,
    add_path,
    board_layout,
    fill_trace,
    label,
    line_trace,
    marker_trace,
    rect_path,
)
from dashboard.boards.panels import Panel, player_panel, tile_count, tiles_shown, to_play
from dashboard.theme import HIGHLIGHT, INK, MUTED, seat_colours

# One colour per layer of a stack, bottom first: the tiles of a stack stay told apart.
LAYER_COLOURS = ("#264653", "#2A9D8F", "#8E5BB5", "#E76F51", "#C9A227", "#1D70A2", "#B5446E", "#5C946E", "#7A7A7A")
SECTION = 3.0
GAP = 0.45
HEIGHT_TRAY = 560
RACK_TILE = 1.2  # a rack tile drawn small: 3×3 cells of 0.4


def _section_origin(section: int) -> tuple[float, float]:
    """Bottom-left corner of section 1..9 (numbered row by row from the top left)."""
    row, col = divmod(section - 1, 3)
    return col * (SECTION + GAP), (2 - row) * (SECTION + GAP)


def _dot_xy(x0: float, y0: float, pos: int, cell: float = 1.0) -> tuple[float, float]:
    row, col = divmod(pos, 3)
    return x0 + cell * (col + 0.5), y0 + cell * (2.5 - row)


def figure(
    board: Mapping[str, Any],
    players: Sequence[tuple[str, str]],
    reveal: bool,
    patterns: Mapping[str, Sequence[int]] | None = None,
) -> dict[str, Any]:
    """`patterns`: tile id -> dot positions as printed (from the match's tile set), for the racks."""
    ids = [pid for pid, _ in players]
    colours = seat_colours(ids)
    names = dict(players)
    last = board.get("last_placement") or {}
    frames_x: Coords = []
    frames_y: Coords = []
    full_x: Coords = []
    full_y: Coords = []
    holes_x: list[float] = []
    holes_y: list[float] = []
    layer_pts: dict[int, tuple[list[float], list[float], list[str]]] = {}
    labels = Labels()
    last_frame: Path | None = None
    last_dots: tuple[list[float], list[float]] = ([], [])
    for entry in board.get("tray", []):
        section = entry["section"]
        x0, y0 = _section_origin(section)
        stack = entry.get("stack")
        target_x, target_y = (full_x, full_y) if stack and stack.get("full") else (frames_x, frames_y)
        add_path(target_x, target_y, rect_path(x0, y0, x0 + SECTION, y0 + SECTION))
        for pos in range(9):
            hx, hy = _dot_xy(x0, y0, pos)
            holes_x.append(hx)
            holes_y.append(hy)
        # "#5" and "9 · full", not "section 5" and "9 dots · full": on a phone a section is about 100 px wide.
        labels.add(x0, y0 + SECTION + 0.02, f"#{section}", 11, MUTED, "left", "bottom")
        if stack:
            for layer, t in enumerate(stack.get("tiles", [])):
                xs, ys, hover = layer_pts.setdefault(layer, ([], [], []))
                for pos in t["dots"]:
                    dx, dy = _dot_xy(x0, y0, pos)
                    xs.append(dx)
                    ys.append(dy)
                    who = names.get(t.get("player", ""), "?")
                    hover.append(f"section {section}: {t['tile']} by {who} (tile {layer + 1} of the stack)")
            total = stack.get("dots", 0)
            words = f"<b>{total}</b> · full" if stack.get("full") else f"<b>{total}</b> dot{'s' if total != 1 else ''}"
            colour = "#0B6E4F" if stack.get("full") else INK
            labels.add(x0 + SECTION, y0 + SECTION, words, 14, colour, "right", "bottom")
        else:
            labels.add(x0 + SECTION, y0 + SECTION, "empty", 11, MUTED, "right", "bottom")
        if last and last.get("section") == section:
            last_frame = rect_path(x0 - 0.1, y0 - 0.1, x0 + SECTION + 0.1, y0 + SECTION + 0.1)
            for pos in last.get("dots", []):
                dx, dy = _dot_xy(x0, y0, pos)
                last_dots[0].append(dx)
                last_dots[1].append(dy)
    data: list[dict[str, Any]] = [
        fill_trace(frames_x, frames_y, "#F4F6F8", "#9AA3AE", 1.5, "sections"),
        fill_trace(full_x, full_y, "#DDF3E8", "#0B6E4F", 2, "full"),
        marker_trace(holes_x, holes_y, {"size": 9, "color": "#D5DAE0"}, "positions"),
    ]
    if last_frame is not None:
        data.append(line_trace(*last_frame, HIGHLIGHT, 5, "last placement"))
    for layer, (xs, ys, hover) in sorted(layer_pts.items()):
        data.append({"type": "scatter", "mode": "markers", "x": xs, "y": ys, "text": hover,
                     "hovertemplate": "%{text}<extra></extra>", "name": f"tile {layer + 1}",
                     "marker": {"size": 24, "color": LAYER_COLOURS[layer % len(LAYER_COLOURS)],
                                "line": {"color": "#FFFFFF", "width": 1.5}}})
    if last_dots[0]:
        data.append(marker_trace(*last_dots, {"size": 31, "color": "rgba(0,0,0,0)",
                                              "line": {"color": HIGHLIGHT, "width": 3}}, "last tile"))
    tray_w = 3 * SECTION + 2 * GAP
    lo_y, hi_x = -0.4, tray_w + 0.4
    height = HEIGHT_TRAY
    top = tray_w + 0.45
    annotations: list[dict[str, Any]] = []  # the legend, pinned to the figure's corner
    if layer_pts:
        annotations.append(legend(max(layer_pts) + 1))
        top += 1.1
    if reveal and patterns is not None:
        lo_y, height, hi_x = _racks(board, colours, patterns, data, labels, tray_w)
    data.append(labels.trace())
    layout = board_layout(height, (-0.4, hi_x), (lo_y, top), square=True, annotations=annotations)
    return {"data": data, "layout": layout}


def legend(layers: int) -> dict[str, Any]:
    """What the dot colours mean: a tile's place in its stack, tile 1 at the bottom (the places drawn only);
    the words match the dots' hover text ("tile 2 of the stack"). Two lines pinned to the figure's top-left
    corner rather than to a point of the tray: on a phone the tray's units shrink and the words do not, so a
    legend placed in tray units ran into the section labels."""
    keys = "  ".join(
        f"<span style='color:{LAYER_COLOURS[i % len(LAYER_COLOURS)]}'>●</span> tile {i + 1}"
        + (" (bottom)" if i == 0 else "")
        for i in range(layers)
    )
    return {**label(0, 1, f"Dot colour: the tile of the stack —<br>{keys}", 12, INK, "left", "top"),
            "xref": "paper", "yref": "paper", "align": "left", "name": "dot-legend"}


def _racks(
    board: Mapping[str, Any],
    colours: Mapping[str, str],
    patterns: Mapping[str, Sequence[int]],
    data: list[dict[str, Any]],
    labels: Labels,
    tray_w: float,
) -> tuple[float, int, float]:
    """The racks under the tray (finished matches only); returns the lowest y, the height and the widest x."""
    y = -0.9
    hi_x = tray_w + 0.4
    cell = RACK_TILE / 3
    box_x: Coords = []
    box_y: Coords = []
    dot_x: list[float] = []
    dot_y: list[float] = []
    dot_c: list[str] = []
    for p in board.get("players", []):
        labels.add(-0.3, y, f"<b>{p['name']}</b>", 13, colours.get(p["id"], INK), "left", "middle")
        rack = list(p.get("rack", []))
        if not rack:
            labels.add(2.6, y, "rack empty", 12, MUTED, "left", "middle")
        for i, tile in enumerate(rack):
            x0 = 2.6 + i * (RACK_TILE + 0.5)
            y0 = y - RACK_TILE / 2
            hi_x = max(hi_x, x0 + RACK_TILE + 0.3)
            add_path(box_x, box_y, rect_path(x0, y0, x0 + RACK_TILE, y0 + RACK_TILE))
            for pos in patterns.get(tile, []):
                dx, dy = _dot_xy(x0, y0, pos, cell)
                dot_x.append(dx)
                dot_y.append(dy)
                dot_c.append(colours.get(p["id"], INK))
        y -= RACK_TILE + 0.5
    data.append(fill_trace(box_x, box_y, "#FFFFFF", "#9AA3AE", 1, "racks"))
    data.append(marker_trace(dot_x, dot_y, {"size": 7, "color": dot_c}, "rack dots"))
    lo = y + RACK_TILE / 2 - 0.1
    span = tray_w + 0.2 - lo
    return lo, int(HEIGHT_TRAY * span / (tray_w + 0.6)), hi_x


def panel(board: Mapping[str, Any], reveal: bool) -> Panel:
    def lines(p: Mapping[str, Any]) -> list[str]:
        if reveal:
            return [tiles_shown("rack", p.get("rack", []), p.get("hidden", 0))]
        return [tile_count(p.get("rack_count", 0), "on the rack")]

    # Before the first round nothing is drawn: no "round 0 · bag 0".
    info = [f"round {board['round']}", f"bag {board.get('bag', 0)}"] if board.get("round") else []
    info += to_play(board, "to_act")
    turn = board.get("turn")
    if turn:
        info.append(f"this turn so far: {turn.get('points', 0)}")
    return player_panel(board, lines, info)


def targets(board: Mapping[str, Any], values: Sequence[str]) -> list[dict[str, Any]]:
    """The sections the scorepad's current step offers ("1".."9") on top of the figure: a thick dashed gold
    frame just inside each section's edge, clear of its dots and of the labels above it, and an invisible
    marker as large as the section at its middle that takes the tap, whose customdata is the section's value
    (values that name no section are skipped)."""
    xs: list[float] = []
    ys: list[float] = []
    keep: list[str] = []
    frame_x: Coords = []
    frame_y: Coords = []
    for value in values:
        if not (value.isdigit() and 1 <= int(value) <= 9):
            continue
        x0, y0 = _section_origin(int(value))
        add_path(frame_x, frame_y, rect_path(x0 + 0.07, y0 + 0.07, x0 + SECTION - 0.07, y0 + SECTION - 0.07))
        xs.append(x0 + SECTION / 2)
        ys.append(y0 + SECTION / 2)
        keep.append(value)
    if not keep:
        return []
    return [
        line_trace(frame_x, frame_y, HIGHLIGHT, 5, "target frames", dash="dash"),  # the last move's is solid
        {
            "type": "scatter",
            "mode": "markers",
            "x": xs,
            "y": ys,
            "customdata": keep,
            "hovertemplate": "place in section %{customdata}<extra></extra>",
            "name": "choose a section",
            "showlegend": False,
            "marker": {"size": 90, "symbol": "square", "opacity": 0},
        },
    ]
