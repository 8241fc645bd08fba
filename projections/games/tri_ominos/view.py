"""Tri-Ominos in words and JSON: the annotation of each event and the state JSON (docs/rules/tri-ominos.md).

Both only read a state the rules in `rules.py` have built; nothing here decides a rule. The board needs
nothing besides the state JSON, so there is no `board_extras`.
"""

from __future__ import annotations

from typing import Any

from projections.events import Event
from projections.games.tri_ominos.grid import corners, is_up
from projections.games.tri_ominos.rules import DRAW_PENALTY, NAME, TILE_COUNT, Phase, State, fmt_cell
from projections.protocol import Annotation, Mark

# ---- annotations -----------------------------------------------------------------------------------


def _items_text(items: tuple[tuple[str, int], ...]) -> str:
    text = ""
    for i, (label, pts) in enumerate(items):
        if i == 0:
            text = f"{pts}" if label[0].isdigit() else f"{label} {pts}"
        else:
            text += f" + {label} {pts}" if pts >= 0 else f" − {label} {-pts}"
    return text


def describe(before: State, event: Event, after: State) -> Annotation:
    data = event.data
    seat = after.last.seat
    pid = after.players[seat].id if seat is not None else None
    who = after.players[seat].name if seat is not None else ""
    tags = after.last.tags
    if event.type == "round_started":
        return Annotation(f"round {after.round} started: all {TILE_COUNT} tiles back in the well")
    if event.type == "tiles_dealt":
        hand = after.hands[seat] if seat is not None else None
        hidden = f" ({hand.hidden} unseen)" if hand and hand.hidden else ""
        return Annotation(f"{who} was dealt {len(data['tiles'])} tiles{hidden}", pid)
    if event.type == "tile_placed":
        verb = "started with" if before.phase is Phase.STARTING else "placed"
        shown = f", showing {data['shown']}" if data.get("shown") else ""
        where = fmt_cell((data["cell"][0], data["cell"][1]))
        text = f"{who} {verb} {data['tile']} at {where}{shown}: {_items_text(after.last.items)}"
        return Annotation(text + _round_end_text(after, False), pid, tags)
    if event.type == "tile_drawn":
        tile = data.get("tile") or "a tile (unseen)"
        left = after.options["draw_limit"] - after.draws
        draws = f"{left} draw{'' if left == 1 else 's'} left"
        return Annotation(f"{who} drew {tile}: −{DRAW_PENALTY}; {draws}, {after.well} in the well", pid, tags)
    if event.type == "turn_passed":
        label, pts = after.last.items[0]
        text = f"{who} passed ({label}): −{-pts}"
        return Annotation(text + _round_end_text(after, True), pid, tags)
    if event.type == "hands_revealed":
        given = data["hands"]
        shown = "; ".join(f"{p.name} {', '.join(given[p.id]) or 'nothing'}" for p in after.players if p.id in given)
        end = after.round_end
        pid = after.players[end.seat].id if end and end.seat is not None else None
        return Annotation(f"hands revealed: {shown}" + _round_end_text(after, True), pid, tags)
    return Annotation(event.type)


def _round_end_text(after: State, with_points: bool) -> str:
    """How the round ended, when this event ended it; `with_points` adds the end points in words."""
    end = after.round_end
    if end is None or after.phase in (Phase.PLAYING, Phase.STARTING):
        return ""
    if not end.settled:
        return f"; round {after.round} is over, hands to be revealed"
    if end.kind == "going_out":
        assert end.seat is not None
        text = f"; round {after.round} over"
        if with_points:
            text += f": {after.players[end.seat].name} went out, +{end.points[end.seat]} from the hands left"
    elif end.seat is None:
        text = f"; round {after.round} blocked: a tie, nobody wins it"
    else:
        gain = end.points[end.seat]
        text = f"; round {after.round} blocked: {after.players[end.seat].name} wins it, {gain:+d}"
    if after.phase is Phase.FINISHED:
        names = " and ".join(after.players[i].name for i in after.winners)
        text += f"; match over, {names} {'win' if len(after.winners) > 1 else 'wins'} with {max(after.totals)}"
    return text


# ---- state JSON ------------------------------------------------------------------------------------


def to_json(state: State) -> dict[str, Any]:
    limit = state.options["draw_limit"]
    end = state.round_end
    last = state.board.get(state.last_cell) if state.last_cell is not None else None
    return {
        "game": NAME,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in state.options.items()},
        "round": state.round,
        "phase": state.phase.value,
        "turn": state.players[state.turn].id if state.turn is not None else None,
        "starter": state.players[state.starter].id if state.starter is not None else None,
        "draws_this_turn": state.draws,
        "draws_left": limit - state.draws if state.phase is Phase.PLAYING else None,
        "well": state.well,
        "passes_in_row": state.passes,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "score": state.totals[i],
                "round_score": state.round_points[-1][i] if state.round_points else 0,
                "dealt": state.hands[i] is not None,
                "hand": list(h.known) if (h := state.hands[i]) else [],
                "hidden": h.hidden if h else 0,
                "tiles": h.size if h else 0,
            }
            for i, p in enumerate(state.players)
        ],
        "board": [
            {
                "cell": list(cell),
                "up": is_up(cell),
                "tile": placed.tile,
                "corners": list(placed.corners),
                "points_at": [list(pt) for pt in corners(cell)],
                "player": state.players[placed.seat].id,
                "order": placed.order,
                "bridge": placed.bridge,
                "points": placed.points,
            }
            for cell, placed in sorted(state.board.items(), key=lambda kv: kv[1].order)
        ],
        "open_cells": [list(c) for c in sorted(state.open_cells)],
        "last_placement": None
        if last is None or state.last_cell is None
        else {
            "cell": list(state.last_cell),
            "tile": last.tile,
            "corners": list(last.corners),
            "player": state.players[last.seat].id,
            "points": last.points,
        },
        "round_end": None
        if end is None
        else {
            "kind": end.kind,
            "player": state.players[end.seat].id if end.seat is not None else None,
            "settled": end.settled,
            "points": {p.id: end.points[i] for i, p in enumerate(state.players)} if end.settled else None,
        },
        "finished": state.phase is Phase.FINISHED,
        "winners": [state.players[i].id for i in state.winners],
    }


def marks(before: State, event: Event, after: State) -> Mark:
    """`describe`'s player and tags without its words (the statistics read these for every move)."""
    t = event.type
    if t == "round_started":
        return None, ()
    seat = after.last.seat
    if t == "hands_revealed":
        end = after.round_end
        seat = end.seat if end else None
    pid = after.players[seat].id if seat is not None else None
    if t == "tiles_dealt":
        return pid, ()
    if t in ("tile_placed", "tile_drawn", "turn_passed", "hands_revealed"):
        return pid, after.last.tags
    return None, ()
