"""High Five: the face-up layout and each player's capture pile, every tile with its value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.theme import HIGHLIGHT, INK, MUTED, base_layout, hidden_axis, seat_colours, seat_tints

PER_ROW = 14
TILE_W, TILE_H = 2.0, 1.0
STEP_X = 2.35
ROW_H = 1.75  # a tile, its value underneath, and air
TITLE_H = 0.9
PX_PER_UNIT = 30


def tile_value(tile: str, values: Mapping[str, int]) -> int:
    return values.get(tile, 0)


def figure(
    board: Mapping[str, Any],
    players: Sequence[tuple[str, str]],
    reveal: bool,
    values: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """`values`: tile -> points; by default the projection's own tile values (never computed here)."""
    if values is None:
        from projections.high_five_tiles import TILES, value

        values = {t: value(t) for t in TILES}
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
    rects: dict[str, tuple[list[float | None], list[float | None]]] = {}
    dividers_x: list[float | None] = []
    dividers_y: list[float | None] = []
    text_x: list[float] = []
    text_y: list[float] = []
    text_t: list[str] = []
    val_x: list[float] = []
    val_y: list[float] = []
    val_t: list[str] = []
    hover_x: list[float] = []
    hover_y: list[float] = []
    hover_t: list[str] = []
    annotations: list[dict[str, Any]] = []
    marks: list[tuple[list[float], list[float], str, str]] = []  # outlines: x, y, colour, dash
    y = 0.0
    for title, colour, tiles, fill, owner in sections:
        annotations.append({
            "x": 0, "y": y - 0.05, "xanchor": "left", "yanchor": "top", "text": f"<b>{title}</b>",
            "showarrow": False, "font": {"size": 14, "color": colour},
        })
        y -= TITLE_H
        rows = max(1, -(-len(tiles) // PER_ROW))
        if not tiles:
            annotations.append({
                "x": 0, "y": y - 0.2, "xanchor": "left", "yanchor": "top", "showarrow": False,
                "text": "empty" if owner == "" else "no captures yet", "font": {"size": 12, "color": MUTED},
            })
        for i, tile in enumerate(tiles):
            col, row = i % PER_ROW, i // PER_ROW
            x0 = col * STEP_X
            y1 = y - row * ROW_H
            y0 = y1 - TILE_H
            xs, ys = rects.setdefault(fill, ([], []))
            xs.extend([x0, x0 + TILE_W, x0 + TILE_W, x0, x0, None])
            ys.extend([y0, y0, y1, y1, y0, None])
            dividers_x.extend([x0 + TILE_W / 2, x0 + TILE_W / 2, None])
            dividers_y.extend([y0 + 0.12, y1 - 0.12, None])
            a, b = tile.split("-")
            for k, n in enumerate((a, b)):
                text_x.append(x0 + TILE_W / 4 + k * TILE_W / 2)
                text_y.append((y0 + y1) / 2)
                text_t.append(n)
            v = tile_value(tile, values)
            val_x.append(x0 + TILE_W / 2)
            val_y.append(y0 - 0.3)
            val_t.append(f"+{v}" if v else "·")
            hover_x.append(x0 + TILE_W / 2)
            hover_y.append((y0 + y1) / 2)
            hover_t.append(f"{tile} · worth {v}")
            outline_x = [x0 - 0.08, x0 + TILE_W + 0.08, x0 + TILE_W + 0.08, x0 - 0.08, x0 - 0.08]
            outline_y = [y0 - 0.08, y0 - 0.08, y1 + 0.08, y1 + 0.08, y0 - 0.08]
            is_last = owner == "" and tile == last.get("tile") and last.get("capture") is None
            is_last = is_last or bool(owner and owner == last.get("player") and last.get("capture") is not None
                                  and tile in (last.get("tile"), last.get("capture")) and i >= len(tiles) - 2)
            if is_last:
                marks.append((outline_x, outline_y, HIGHLIGHT, "solid"))
            elif owner == "" and tile in claimable:
                marks.append((outline_x, outline_y, "#D55E00", "dash"))
        y -= rows * ROW_H + 0.35
    data: list[dict[str, Any]] = []
    for fill, (xs, ys) in rects.items():
        data.append({"type": "scatter", "mode": "lines", "x": xs, "y": ys, "fill": "toself", "fillcolor": fill,
                     "line": {"color": INK, "width": 1.2}, "hoverinfo": "skip", "name": "tiles"})
    data.append({"type": "scatter", "mode": "lines", "x": dividers_x, "y": dividers_y, "hoverinfo": "skip",
                 "line": {"color": MUTED, "width": 1}, "name": "dividers"})
    for xs2, ys2, colour, dash in marks:
        data.append({"type": "scatter", "mode": "lines", "x": xs2, "y": ys2, "hoverinfo": "skip",
                     "line": {"color": colour, "width": 4, "dash": dash}, "name": "mark"})
    data.append({"type": "scatter", "mode": "text", "x": text_x, "y": text_y, "text": text_t, "hoverinfo": "skip",
                 "textfont": {"size": 14, "color": INK, "family": "DejaVu Sans Mono, monospace"}, "name": "ends"})
    data.append({"type": "scatter", "mode": "text", "x": val_x, "y": val_y, "text": val_t, "hoverinfo": "skip",
                 "textfont": {"size": 11, "color": "#0B6E4F"}, "name": "values"})
    data.append({"type": "scatter", "mode": "markers", "x": hover_x, "y": hover_y, "text": hover_t,
                 "hovertemplate": "%{text}<extra></extra>", "marker": {"size": 22, "opacity": 0}, "name": "hover"})
    width_units = PER_ROW * STEP_X
    height_units = -y + 0.3
    layout = base_layout(
        height=int(height_units * PX_PER_UNIT) + 20,
        xaxis=hidden_axis(-0.3, width_units),
        yaxis=hidden_axis(y - 0.1, 0.2),
        annotations=annotations,
    )
    return {"data": data, "layout": layout}


def panel(board: Mapping[str, Any], reveal: bool) -> dict[str, list[str]]:
    names = {p["id"]: p["name"] for p in board.get("players", [])}
    out: dict[str, list[str]] = {}
    for p in board.get("players", []):
        hand = p.get("hand", {})
        n = hand.get("count", 0)
        lines = [f"{n} tile{'s' if n != 1 else ''} in hand", f"this game: {p.get('game_points', 0)}"]
        if reveal:
            shown = list(hand.get("tiles", [])) + ["?"] * int(hand.get("hidden", 0))
            lines[0] = f"hand: {' '.join(shown) if shown else '(empty)'}"
        out[p["id"]] = lines
    info = [f"game {board.get('game_number', 0)}", f"hand {board.get('hand_number', 0)}"]
    if board.get("to_play"):
        info.append(f"to play: {names.get(board['to_play'], board['to_play'])}")
    if board.get("claimable"):
        info.append("claimable: " + ", ".join("+".join(c["tiles"]) for c in board["claimable"]))
    out[""] = info
    return out
