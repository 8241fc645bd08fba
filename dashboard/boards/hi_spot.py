"""Hi-Spot: the 3×3 tray, each stack's dots (one colour per tile of the stack) and its total."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.theme import HIGHLIGHT, INK, MUTED, base_layout, hidden_axis, seat_colours

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
    frames_x: list[float | None] = []
    frames_y: list[float | None] = []
    full_x: list[float | None] = []
    full_y: list[float | None] = []
    holes_x: list[float] = []
    holes_y: list[float] = []
    layer_pts: dict[int, tuple[list[float], list[float], list[str]]] = {}
    annotations: list[dict[str, Any]] = []
    last_frame: tuple[list[float], list[float]] | None = None
    last_dots: tuple[list[float], list[float]] = ([], [])
    for entry in board.get("tray", []):
        section = entry["section"]
        x0, y0 = _section_origin(section)
        box_x = [x0, x0 + SECTION, x0 + SECTION, x0, x0]
        box_y = [y0, y0, y0 + SECTION, y0 + SECTION, y0]
        stack = entry.get("stack")
        target_x, target_y = (full_x, full_y) if stack and stack.get("full") else (frames_x, frames_y)
        target_x.extend([*box_x, None])
        target_y.extend([*box_y, None])
        for pos in range(9):
            hx, hy = _dot_xy(x0, y0, pos)
            holes_x.append(hx)
            holes_y.append(hy)
        annotations.append({"x": x0, "y": y0 + SECTION + 0.02, "xanchor": "left", "yanchor": "bottom",
                            "text": f"section {section}", "showarrow": False, "font": {"size": 11, "color": MUTED}})
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
            label = f"<b>{total}</b> dot{'s' if total != 1 else ''}" + (" · full" if stack.get("full") else "")
            annotations.append({
                "x": x0 + SECTION, "y": y0 + SECTION + 0.0, "xanchor": "right", "yanchor": "bottom",
                "text": label, "showarrow": False,
                "font": {"size": 14, "color": "#0B6E4F" if stack.get("full") else INK},
            })
        else:
            annotations.append({"x": x0 + SECTION, "y": y0 + SECTION, "xanchor": "right", "yanchor": "bottom",
                                "text": "empty",
                                "showarrow": False, "font": {"size": 11, "color": MUTED}})
        if last and last.get("section") == section:
            last_frame = ([x0 - 0.1, x0 + SECTION + 0.1, x0 + SECTION + 0.1, x0 - 0.1, x0 - 0.1],
                          [y0 - 0.1, y0 - 0.1, y0 + SECTION + 0.1, y0 + SECTION + 0.1, y0 - 0.1])
            for pos in last.get("dots", []):
                dx, dy = _dot_xy(x0, y0, pos)
                last_dots[0].append(dx)
                last_dots[1].append(dy)
    data: list[dict[str, Any]] = [
        {"type": "scatter", "mode": "lines", "x": frames_x, "y": frames_y, "fill": "toself",
         "fillcolor": "#F4F6F8", "line": {"color": "#9AA3AE", "width": 1.5}, "hoverinfo": "skip", "name": "sections"},
        {"type": "scatter", "mode": "lines", "x": full_x, "y": full_y, "fill": "toself",
         "fillcolor": "#DDF3E8", "line": {"color": "#0B6E4F", "width": 2}, "hoverinfo": "skip", "name": "full"},
        {"type": "scatter", "mode": "markers", "x": holes_x, "y": holes_y, "hoverinfo": "skip",
         "marker": {"size": 9, "color": "#D5DAE0"}, "name": "positions"},
    ]
    if last_frame is not None:
        data.append({"type": "scatter", "mode": "lines", "x": last_frame[0], "y": last_frame[1], "hoverinfo": "skip",
                     "line": {"color": HIGHLIGHT, "width": 5}, "name": "last placement"})
    for layer, (xs, ys, hover) in sorted(layer_pts.items()):
        data.append({"type": "scatter", "mode": "markers", "x": xs, "y": ys, "text": hover,
                     "hovertemplate": "%{text}<extra></extra>", "name": f"tile {layer + 1}",
                     "marker": {"size": 24, "color": LAYER_COLOURS[layer % len(LAYER_COLOURS)],
                                "line": {"color": "#FFFFFF", "width": 1.5}}})
    if last_dots[0]:
        data.append({"type": "scatter", "mode": "markers", "x": last_dots[0], "y": last_dots[1], "hoverinfo": "skip",
                     "marker": {"size": 31, "color": "rgba(0,0,0,0)", "line": {"color": HIGHLIGHT, "width": 3}},
                     "name": "last tile"})
    tray_w = 3 * SECTION + 2 * GAP
    lo_y, hi_x = -0.4, tray_w + 0.4
    height = HEIGHT_TRAY
    if reveal and patterns is not None:
        lo_y, height, hi_x = _racks(board, colours, patterns, data, annotations, tray_w)
    layout = base_layout(
        height=height,
        xaxis=hidden_axis(-0.4, hi_x),
        yaxis=hidden_axis(lo_y, tray_w + 0.45, scaleanchor="x", scaleratio=1),
        annotations=annotations,
    )
    return {"data": data, "layout": layout}


def _racks(
    board: Mapping[str, Any],
    colours: Mapping[str, str],
    patterns: Mapping[str, Sequence[int]],
    data: list[dict[str, Any]],
    annotations: list[dict[str, Any]],
    tray_w: float,
) -> tuple[float, int, float]:
    """The racks under the tray (finished matches only); returns the lowest y, the height and the widest x."""
    y = -0.9
    hi_x = tray_w + 0.4
    cell = RACK_TILE / 3
    box_x: list[float | None] = []
    box_y: list[float | None] = []
    dot_x: list[float] = []
    dot_y: list[float] = []
    dot_c: list[str] = []
    for p in board.get("players", []):
        annotations.append({"x": -0.3, "y": y, "xanchor": "left", "yanchor": "middle", "showarrow": False,
                            "text": f"<b>{p['name']}</b>", "font": {"size": 13, "color": colours.get(p["id"], INK)}})
        rack = list(p.get("rack", []))
        if not rack:
            annotations.append({"x": 2.6, "y": y, "xanchor": "left", "yanchor": "middle", "showarrow": False,
                                "text": "rack empty", "font": {"size": 12, "color": MUTED}})
        for i, tile in enumerate(rack):
            x0 = 2.6 + i * (RACK_TILE + 0.5)
            y0 = y - RACK_TILE / 2
            hi_x = max(hi_x, x0 + RACK_TILE + 0.3)
            box_x.extend([x0, x0 + RACK_TILE, x0 + RACK_TILE, x0, x0, None])
            box_y.extend([y0, y0, y0 + RACK_TILE, y0 + RACK_TILE, y0, None])
            for pos in patterns.get(tile, []):
                dx, dy = _dot_xy(x0, y0, pos, cell)
                dot_x.append(dx)
                dot_y.append(dy)
                dot_c.append(colours.get(p["id"], INK))
        y -= RACK_TILE + 0.5
    data.append({"type": "scatter", "mode": "lines", "x": box_x, "y": box_y, "fill": "toself", "fillcolor": "#FFFFFF",
                 "line": {"color": "#9AA3AE", "width": 1}, "hoverinfo": "skip", "name": "racks"})
    data.append({"type": "scatter", "mode": "markers", "x": dot_x, "y": dot_y, "hoverinfo": "skip",
                 "marker": {"size": 7, "color": dot_c}, "name": "rack dots"})
    lo = y + RACK_TILE / 2 - 0.1
    span = tray_w + 0.2 - lo
    return lo, int(HEIGHT_TRAY * span / (tray_w + 0.6)), hi_x


def panel(board: Mapping[str, Any], reveal: bool) -> dict[str, list[str]]:
    names = {p["id"]: p["name"] for p in board.get("players", [])}
    out: dict[str, list[str]] = {}
    for p in board.get("players", []):
        n = p.get("rack_count", 0)
        lines = [f"{n} tile{'s' if n != 1 else ''} on the rack"]
        if reveal:
            shown = list(p.get("rack", [])) + ["?"] * int(p.get("hidden", 0))
            lines = [f"rack: {' '.join(shown) if shown else '(empty)'}"]
        out[p["id"]] = lines
    info = [f"round {board.get('round', 0)}", f"bag {board.get('bag', 0)}"]
    if board.get("to_act"):
        info.append(f"to play: {names.get(board['to_act'], board['to_act'])}")
    turn = board.get("turn")
    if turn:
        info.append(f"this turn so far: {turn.get('points', 0)}")
    out[""] = info
    return out
