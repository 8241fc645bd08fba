"""High Five: the face-up layout and each player's capture pile, every tile with its value; on the scorepad,
the layout tiles a play may capture as large clickable targets (`targets`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.boards.drawing import (
    Coords,
    Labels,
    add_path,
    board_layout,
    fill_trace,
    line_trace,
    rect_path,
    text_trace,
)
from dashboard.boards.panels import Panel, player_panel, tile_count, tiles_shown, to_play
from dashboard.theme import HIGHLIGHT, INK, MONO, MUTED, seat_colours, seat_tints

PER_ROW = 7  # tiles a row: a pile wraps, and a row fits a phone's width with its numbers readable
TILE_W, TILE_H = 2.0, 1.0
STEP_X = 2.35
ROW_H = 1.75  # a tile, its value underneath, and air
TITLE_H = 0.9
PX_PER_UNIT = 30  # the frame's height at most (a laptop's); on a phone it is fitted to the width
MIN_TAP = 44
NIL_DOT = 0.04  # half the side of the dot under a tile worth nothing (about 2 px on a laptop)


def tile_value(tile: str, values: Mapping[str, int]) -> int:
    return values.get(tile, 0)


def _tile_box(i: int, top: float) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the `i`-th tile of a section whose tiles start at height `top`."""
    col, row = i % PER_ROW, i // PER_ROW
    x0 = col * STEP_X
    y1 = top - row * ROW_H
    return x0, y1 - TILE_H, x0 + TILE_W, y1


def figure(
    board: Mapping[str, Any],
    players: Sequence[tuple[str, str]],
    reveal: bool,
    values: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """`values`: tile -> points; by default the game's own (its `board_extras`; never computed here)."""
    if values is None:
        from projections.registry import get_game

        values = get_game("high-five").board_extras({})["values"]
    ids = [pid for pid, _ in players]
    colours, tints = seat_colours(ids), seat_tints(ids)
    last = board.get("last_play") or {}
    claimable = {t for pair in board.get("claimable", []) for t in pair["tiles"]}
    sections: list[tuple[str, str, list[str], str, str]] = []  # title, colour, tiles, fill, owner
    layout_title = f"Layout · boneyard {board.get('boneyard', 0)}"
    if board.get("last_hand"):
        layout_title += " · last hand"
    sections.append((layout_title, INK, list(board.get("layout", [])), "#FFFFFF", ""))
    for p in board.get("players", []):
        title = f"{p['name']} · pile worth {p.get('pile_value', 0)} · match score {p.get('score', 0)}"
        sections.append((title, colours.get(p["id"], INK), list(p.get("pile", [])), tints.get(p["id"], "#EEE"),
                         p["id"]))
    rects: dict[str, tuple[Coords, Coords]] = {}
    dividers_x: Coords = []
    dividers_y: Coords = []
    ends_x: list[float] = []
    ends_y: list[float] = []
    ends_t: list[str] = []
    ends_h: list[str] = []
    ends_c: list[str | None] = []
    val_x: list[float] = []
    val_y: list[float] = []
    val_t: list[str] = []
    nil_x: Coords = []
    nil_y: Coords = []
    labels = Labels()
    marks: list[tuple[list[float], list[float], str, str]] = []  # outlines: x, y, colour, dash
    y = 0.0
    for title, colour, tiles, fill, owner in sections:
        labels.add(0, y - 0.05, f"<b>{title}</b>", 14, colour, "left", "top")
        y -= TITLE_H
        rows = max(1, -(-len(tiles) // PER_ROW))
        if not tiles:
            words = "empty" if owner == "" else "no captures yet"
            labels.add(0, y - 0.2, words, 12, MUTED, "left", "top")
        for i, tile in enumerate(tiles):
            x0, y0, _, y1 = _tile_box(i, y)
            xs, ys = rects.setdefault(fill, ([], []))
            add_path(xs, ys, rect_path(x0, y0, x0 + TILE_W, y1))
            add_path(dividers_x, dividers_y, ([x0 + TILE_W / 2, x0 + TILE_W / 2], [y0 + 0.12, y1 - 0.12]))
            a, b = tile.split("-")
            ends_x.append(x0 + TILE_W / 2)
            ends_y.append((y0 + y1) / 2)
            ends_t.append(f"{a:>2} {b:<2}")  # a text a tile (plotly's cost is per text): the divider in its middle
            v = tile_value(tile, values)
            ends_h.append(f"{tile} · worth {v}")
            ends_c.append(tile if owner == "" else None)  # a tap on a layout tile picks it on the pad
            if v:
                val_x.append(x0 + TILE_W / 2)
                val_y.append(y0 - 0.3)
                val_t.append(f"+{v}")
            else:  # worth nothing: a dot, a tiny square of one path for them all (markers cost plotly per point)
                cx, cy = x0 + TILE_W / 2, y0 - 0.3
                add_path(nil_x, nil_y, rect_path(cx - NIL_DOT, cy - NIL_DOT, cx + NIL_DOT, cy + NIL_DOT))
            outline_x, outline_y = rect_path(x0 - 0.08, y0 - 0.08, x0 + TILE_W + 0.08, y1 + 0.08)
            is_last = owner == "" and tile == last.get("tile") and last.get("capture") is None
            is_last = is_last or bool(owner and owner == last.get("player") and last.get("capture") is not None
                                  and tile in (last.get("tile"), last.get("capture")) and i >= len(tiles) - 2)
            if is_last:
                marks.append((outline_x, outline_y, HIGHLIGHT, "solid"))
            elif owner == "" and tile in claimable:
                marks.append((outline_x, outline_y, "#D55E00", "dash"))
        y -= rows * ROW_H + 0.35
    data: list[dict[str, Any]] = [fill_trace(xs, ys, fill, INK, 1.2, "tiles") for fill, (xs, ys) in rects.items()]
    data.append(line_trace(dividers_x, dividers_y, MUTED, 1, "dividers"))
    data.extend(line_trace(xs2, ys2, colour, 4, "mark", dash=dash) for xs2, ys2, colour, dash in marks)
    data.append(text_trace(val_x, val_y, val_t, "values", 11, "#0B6E4F"))
    data.append(fill_trace(nil_x, nil_y, "#0B6E4F", "#0B6E4F", 0.5, "no value"))
    # The numbers carry the tile's hover, and its value for a tap on the pad.
    ends = text_trace(ends_x, ends_y, ends_t, "ends", 13, INK, MONO)
    ends.pop("hoverinfo")
    data.append({**ends, "hovertext": ends_h, "hovertemplate": "%{hovertext}<extra></extra>", "customdata": ends_c})
    data.append(labels.trace())
    width_units = PER_ROW * STEP_X
    height_units = -y + 0.3
    # To scale (a unit as long up as across): on a phone the frame is fitted to the width, the tiles keep their shape.
    layout = board_layout(int(height_units * PX_PER_UNIT) + 20, (-0.3, width_units), (y - 0.1, 0.2), square=True)
    return {"data": data, "layout": layout}


def panel(board: Mapping[str, Any], reveal: bool) -> Panel:
    def lines(p: Mapping[str, Any]) -> list[str]:
        hand = p.get("hand", {})
        if reveal:
            held = tiles_shown("hand", hand.get("tiles", []), hand.get("hidden", 0))
        else:
            held = tile_count(hand.get("count", 0), "in hand")
        return [held, f"this game: {p.get('game_points', 0)}"]

    # Before the first game or hand is dealt: no "game 0 · hand 0".
    info = [f"game {board['game_number']}"] if board.get("game_number") else []
    info += [f"hand {board['hand_number']}"] if board.get("hand_number") else []
    info += to_play(board, "to_play")
    if board.get("claimable"):
        info.append("claimable: " + ", ".join("+".join(c["tiles"]) for c in board["claimable"]))
    return player_panel(board, lines, info)


def targets(board: Mapping[str, Any], values: Sequence[str]) -> list[dict[str, Any]]:
    """The scorepad's "board" choices, the layout tiles a play may capture, drawn on top of `figure(board, …)`:
    a thick gold outline around each tile and an invisible marker of at least MIN_TAP pixels on it that takes
    the tap, whose `customdata` is the tile (values not in the layout are skipped)."""
    layout = list(board.get("layout", []))
    xs: list[float] = []
    ys: list[float] = []
    keep: list[str] = []
    outline_x: Coords = []
    outline_y: Coords = []
    for value in values:
        if value not in layout:
            continue
        x0, y0, x1, y1 = _tile_box(layout.index(value), -TITLE_H)  # the layout is the first section
        add_path(outline_x, outline_y, rect_path(x0 - 0.14, y0 - 0.14, x1 + 0.14, y1 + 0.14))
        xs.append((x0 + x1) / 2)
        ys.append((y0 + y1) / 2)
        keep.append(value)
    if not keep:
        return []
    return [
        line_trace(outline_x, outline_y, HIGHLIGHT, 5, "capture outlines", dash="dot"),  # the last play's is solid
        {
            "type": "scatter",
            "mode": "markers",
            "x": xs,
            "y": ys,
            "customdata": keep,
            "text": [f"capture {v}" for v in keep],
            "hovertemplate": "%{text}<extra></extra>",
            "name": "choose the capture",
            "showlegend": False,
            # Invisible: the tile's numbers stay readable under it; as wide as a tile on a laptop.
            "marker": {"symbol": "square", "size": max(MIN_TAP, int(TILE_W * PX_PER_UNIT * 1.2)), "opacity": 0},
        },
    ]
