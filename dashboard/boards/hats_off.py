"""Hats Off: one target area per player with its 9 holes, hats in holes and nested hats in the owners'
colours, and the hats lying on the board or off it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.boards.drawing import Labels, board_layout, fill_trace, marker_trace, rect_path
from dashboard.boards.panels import Panel, player_names, player_panel
from dashboard.theme import HIGHLIGHT, INK, MUTED, seat_colours, seat_tints

AREA_W, AREA_H = 4.2, 4.2
AREA_GAP = 0.5
ROW_GAP = 1.4  # between two rows of areas: the lower area's title, two lines
COLUMNS = 2  # areas side by side: two fit a phone's width with holes a finger can tap
HOLE_STEP = 1.3
NEST_RISE = 0.3
HEIGHT = 540
MIN_TAP = 44
PHONE_WIDTH = 350  # the board's width in pixels on a 390 px phone: marker sizes follow the scale it gives
STRIP_STEP, LINE_H, STRIP_INDENT = 0.85, 0.8, 0.4  # the rows of hats under the areas


def _columns(n: int) -> int:
    return max(1, min(n, COLUMNS))


def _area_origin(area_index: int, n: int) -> tuple[float, float]:
    """Bottom-left corner of the `area_index`-th of `n` areas: two a row, the first row on top, the rows of
    hats under the last row (below y = 0)."""
    cols = _columns(n)
    rows = -(-n // cols)
    row, col = divmod(area_index, cols)
    return col * (AREA_W + AREA_GAP), (rows - 1 - row) * (AREA_H + ROW_GAP)


def _hole_xy(area_index: int, number: int, n: int) -> tuple[float, float]:
    row, col = divmod(number - 1, 3)
    x0, y0 = _area_origin(area_index, n)
    return x0 + 0.8 + col * HOLE_STEP, y0 + 3.4 - row * HOLE_STEP


def _width(n: int) -> float:
    cols = _columns(n)
    return cols * (AREA_W + AREA_GAP) - AREA_GAP


def _per_line(n: int) -> int:
    return max(1, int((_width(n) - STRIP_INDENT) / STRIP_STEP))


def _top(n: int) -> float:
    return _area_origin(0, n)[1] + AREA_H + ROW_GAP - 0.1


def _scale(board: Mapping[str, Any], ids: Sequence[str]) -> tuple[float, float]:
    """The figure's width in board units and its pixels per unit (the smaller of a phone's and the frame's)."""
    n = len(ids)
    span_x = _width(n) + 0.6
    span_y = _top(n) - _bottom(board, n)
    return span_x, min(PHONE_WIDTH / span_x, (HEIGHT - 20) / span_y)


def _strips(board: Mapping[str, Any], n: int) -> list[tuple[str, list[tuple[str, int]], float]]:
    """The rows of hats under the areas: (title, hats, y of the title), each row's hats on the lines under its
    title (`_strip_xy`); the row of late hats only when there are some."""
    strips: list[tuple[str, list[tuple[str, int]]]] = [
        ("On the board", []), ("Off the board", []), ("Launched after HATS OFF (no points)", [])]
    for h in board.get("hats", []):
        key = (h["player"], h["hat"])
        if not h.get("counts", True):
            strips[2][1].append(key)
        elif h["to"] == "board":
            strips[0][1].append(key)
        elif h["to"] == "off":
            strips[1][1].append(key)
    rows = []
    y = -0.6
    for title, hats in strips:
        if not hats and title.startswith("Launched"):
            continue
        rows.append((title, hats, y))
        y -= LINE_H * (1 + -(-len(hats) // _per_line(n)))
    return rows


def _bottom(board: Mapping[str, Any], n: int) -> float:
    title, hats, y = _strips(board, n)[-1]
    return y - LINE_H * (-(-len(hats) // _per_line(n))) - 0.2


def _stack_xy(hx: float, hy: float, level: int) -> tuple[float, float]:
    return hx, hy - 0.12 + level * NEST_RISE


def _strip_xy(k: int, y: float, n: int) -> tuple[float, float]:
    line, col = divmod(k, _per_line(n))
    return STRIP_INDENT + col * STRIP_STEP, y - LINE_H * (line + 1) + 0.05


def figure(board: Mapping[str, Any], players: Sequence[tuple[str, str]], reveal: bool) -> dict[str, Any]:
    ids = [pid for pid, _ in players]
    colours, tints = seat_colours(ids), seat_tints(ids)
    names = dict(players)
    info = {p["id"]: p for p in board.get("players", [])}
    last = board.get("last") or {}
    last_hat = (last.get("player"), last.get("hat")) if last.get("hat") else None
    data: list[dict[str, Any]] = []
    labels = Labels()
    span_x, ppu = _scale(board, ids)  # ppu: pixels per unit
    hole_size = int(0.8 * HOLE_STEP * ppu)
    hat_size = int(0.55 * HOLE_STEP * ppu)
    hole_x: list[float] = []
    hole_y: list[float] = []
    n = len(ids)
    for i, pid in enumerate(ids):
        x0, y0 = _area_origin(i, n)
        data.append(fill_trace(*rect_path(x0, y0, x0 + AREA_W, y0 + AREA_H), tints[pid], colours[pid], 2,
                               f"{names[pid]}'s area"))
        p = info.get(pid, {})
        title = f"<b>{names[pid]}</b><br>this round {p.get('round_points', 0)} · total {p.get('score', 0)}"
        labels.add(x0 + AREA_W / 2, y0 + AREA_H + 0.1, title, 12, colours[pid], yanchor="bottom")
        for number in range(1, 10):
            hx, hy = _hole_xy(i, number, n)
            hole_x.append(hx)
            hole_y.append(hy)
            labels.add(hx - 0.5, hy + 0.5, str(number), 10, MUTED)
    data.append(marker_trace(hole_x, hole_y, {"size": hole_size, "color": "#FFFFFF",
                                              "line": {"color": "#7A8494", "width": 2}}, "holes"))
    hats_x: list[float] = []
    hats_y: list[float] = []
    hats_c: list[str] = []
    hats_s: list[int] = []
    hats_t: list[str] = []
    hats_h: list[str] = []
    highlight: tuple[float, float, int] | None = None

    def add_hat(owner: str, hat: int, x: float, y: float, size: int, where: str) -> None:
        nonlocal highlight
        hats_x.append(x)
        hats_y.append(y)
        hats_c.append(colours.get(owner, INK))
        hats_s.append(size)
        hats_t.append(str(hat))
        hats_h.append(f"{names.get(owner, owner)}'s hat {hat}: {where}")
        if last_hat == (owner, hat):
            highlight = (x, y, size)

    for hole in board.get("holes", []):
        area = hole["area"]
        if area not in ids:
            continue
        hx, hy = _hole_xy(ids.index(area), hole["number"], n)
        for level, h in enumerate(hole.get("stack", [])):
            where = f"in hole {hole['number']} of {names[area]}'s area" + (f", nested {level} deep" if level else "")
            add_hat(h["player"], h["hat"], *_stack_xy(hx, hy, level), max(14, hat_size - 5 * level), where)
    for title, hats, y in _strips(board, n):
        labels.add(0, y, f"{title}:" + ("" if hats else " none"), 12, INK, "left", "middle")
        for k, (owner, hat) in enumerate(hats):
            add_hat(owner, hat, *_strip_xy(k, y, n), int(hat_size * 0.85), title.lower())
    if highlight is not None:
        hx, hy, size = highlight
        data.append(marker_trace([hx], [hy], {"symbol": "circle", "size": size + 22, "color": "rgba(242,183,5,0.30)",
                                              "line": {"color": HIGHLIGHT, "width": 3}}, "last hat"))
    data.append({
        "type": "scatter", "mode": "markers+text", "x": hats_x, "y": hats_y, "text": hats_t, "customdata": hats_h,
        "hovertemplate": "%{customdata}<extra></extra>", "textposition": "middle center",
        "textfont": {"size": max(10, hat_size // 3), "color": "#FFFFFF"}, "name": "hats",
        "marker": {"symbol": "triangle-up", "size": hats_s, "color": hats_c,
                   "line": {"color": "#FFFFFF", "width": 1.5}},
    })
    data.append(labels.trace())
    layout = board_layout(HEIGHT, (-0.3, span_x - 0.3), (_bottom(board, n), _top(n)), square=True)
    return {"data": data, "layout": layout}


def _hat_spots(board: Mapping[str, Any], ids: Sequence[str]) -> dict[tuple[str, int], tuple[float, float]]:
    """Where figure() draws each launched hat: in its hole's stack, or in a row under the areas."""
    spots: dict[tuple[str, int], tuple[float, float]] = {}
    n = len(ids)
    for hole in board.get("holes", []):
        if hole["area"] not in ids:
            continue
        hx, hy = _hole_xy(ids.index(hole["area"]), hole["number"], n)
        for level, h in enumerate(hole.get("stack", [])):
            spots[(h["player"], h["hat"])] = _stack_xy(hx, hy, level)
    for _, hats, y in _strips(board, n):
        for k, key in enumerate(hats):
            spots[key] = _strip_xy(k, y, n)
    return spots


def _hat_key(text: str, ids: Sequence[str]) -> tuple[str, int] | None:
    """`bo4` (after `in`) or `bo 4` (a hat to move) -> ("bo", 4)."""
    owner, _, number = text.rpartition(" ")
    if not owner:
        owner, number = text[:-1], text[-1:]
    return (owner, int(number)) if owner in ids and number.isdigit() else None


def targets(board: Mapping[str, Any], values: Sequence[str]) -> list[dict[str, Any]]:
    """The scorepad's "board" choices drawn on the figure as gold rings, each tap point's customdata its value: a
    hole (`ann9`), a hat to nest in (`in bo4`) or a knocked hat to move (`bo 4`), where figure() draws it."""
    players = board.get("players", [])
    ids = [p["id"] for p in players]
    names = {p["id"]: p.get("name") or p["id"] for p in players}
    _, ppu = _scale(board, ids)
    spots = _hat_spots(board, ids)
    xs: list[float] = []
    ys: list[float] = []
    sizes: list[int] = []
    custom: list[str] = []
    hover: list[str] = []
    for value in values:
        # `in bo4` (a hat to nest in), else `bo 4` (a hat to move; `in 4` when a player's id is "in").
        nest = _hat_key(value[3:], ids) if value.startswith("in ") else None
        hat = nest or (_hat_key(value, ids) if " " in value else None)
        area, number = value[:-1], value[-1:]
        if hat is not None and hat in spots:
            x, y = spots[hat]
            size = int(0.75 * HOLE_STEP * ppu)
            text = f"{'into' if nest else 'move'} {names[hat[0]]}'s hat {hat[1]}"
        elif hat is None and area in ids and number.isdigit() and number != "0":
            x, y = _hole_xy(ids.index(area), int(number), len(ids))
            size = int(0.8 * HOLE_STEP * ppu)
            text = f"hole {number} of {names[area]}'s area"
        else:
            continue  # not a place of the figure ("board", "off", a hat it does not draw)
        xs.append(x)
        ys.append(y)
        sizes.append(size)
        custom.append(value)
        hover.append(text)
    if not xs:
        return []
    # A gold ring a little larger than the hole or hat (its number stays in sight), and over it an invisible
    # marker of at least MIN_TAP pixels that takes the tap (rings of that size would cover the holes' numbers).
    return [
        marker_trace(xs, ys, {"symbol": "circle", "size": sizes, "color": "rgba(242,183,5,0.35)",
                              "line": {"color": HIGHLIGHT, "width": 3}}, "target rings"),
        {"type": "scatter", "mode": "markers", "x": xs, "y": ys, "customdata": custom, "text": hover,
         "hovertemplate": "%{text}<extra></extra>", "name": "targets", "showlegend": False,
         "marker": {"symbol": "circle", "size": [max(MIN_TAP, int(HOLE_STEP * ppu)) for _ in xs], "opacity": 0}},
    ]


def panel(board: Mapping[str, Any], reveal: bool) -> Panel:
    def lines(p: Mapping[str, Any]) -> list[str]:
        in_hand = p.get("hats_in_hand", [])
        out = [f"{p.get('hats_launched', 0)} of 6 hats launched"]
        if board.get("round"):  # "this round": the points, never to be read as the round's number
            out.append(f"this round {p.get('round_points', 0)}")
        if in_hand and board.get("round_in_progress"):
            out.append("still to launch: " + " ".join(str(n) for n in in_hand))
        return out

    names = player_names(board)
    info = [f"round {board['round']}"] if board.get("round") else []  # none before the first round
    if board.get("caller"):
        info.append(f"READY-SET-GO: {names.get(board['caller'], board['caller'])}")
    if board.get("hats_off_called_by"):
        info.append("HATS OFF: " + " and ".join(names.get(p, p) for p in board["hats_off_called_by"]))
    return player_panel(board, lines, info)
