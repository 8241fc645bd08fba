"""Hi-Spot in words and JSON: the description of each event and the state JSON (docs/rules/hi-spot.md).

Both only read a state the rules in `rules.py` have built; nothing here decides a rule. `board_extras`
gives the board the printed pattern of every tile of the match's set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.events import Event
from projections.games.hi_spot.rules import (
    Phase,
    Placement,
    Stack,
    State,
    is_blocked,
    names_of,
    plural,
    refill_needed,
    stack_points,
    tiles_held,
    turn_points,
)
from projections.games.hi_spot.tiles import FULL, dot_count, load_tile_set, positions_of
from projections.protocol import Annotation, Mark

# ---------------------------------------------------------------- state JSON


def _stack_json(state: State, stack: Stack | None, section: int) -> dict[str, Any]:
    if stack is None:
        return {"section": section, "stack": None}
    uid, mask, layers, placed_by = stack
    return {
        "section": section,
        "stack": {
            "id": uid,
            "dots": dot_count(mask),
            "covered": positions_of(mask),
            "full": mask == FULL,
            "tiles": [
                {"tile": t, "dots": positions_of(m), "player": state.players[seat].id}
                for (t, m), seat in zip(layers, placed_by, strict=True)
            ],
        },
    }


def _placement_json(state: State, p: Placement) -> dict[str, Any]:
    seat, tile, section, mask, _, stack_dots, new_stack, nine, cleared = p
    return {
        "player": state.players[seat].id,
        "tile": tile,
        "section": section,
        "dots": positions_of(mask),
        "stack_dots": stack_dots,
        "new_stack": new_stack,
        "nine": nine,
        "cleared": cleared,
    }


def to_json(state: State) -> dict[str, Any]:
    turn = state.turn
    ids = [p.id for p in state.players]
    return {
        "game": "hi-spot",
        "round": state.round_no,
        "phase": state.phase.value,
        "options": {k: v for k, v in state.options.items() if k != "tile_set"}
        | {"tile_set": state.tiles.name, "rack_size": state.rack_size},
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "score": state.totals[i],
                "rack": list(state.racks[i][0]) if state.racks else [],
                "hidden": state.racks[i][1] if state.racks else 0,
                "rack_count": tiles_held(state.racks[i]) if state.racks else 0,
            }
            for i, p in enumerate(state.players)
        ],
        "to_act": ids[state.current] if state.current is not None else None,
        "first_player": ids[state.first] if state.first is not None else None,
        "first_draws": [{ids[s]: t for s, t in d} for d in state.draws],
        "to_draw": [ids[s] for s in state.to_draw],  # the first-player draw still running
        "racks_to_draw": [ids[s] for s in range(len(ids)) if state.phase is Phase.RACKS and s not in state.racks_drawn],
        "tray": [_stack_json(state, s, i) for i, s in enumerate(state.tray, start=1)],
        "bag": state.bag,
        "set_aside": list(state.aside),
        # The printed pattern of every tile shown off the tray (racks, draws), for drawing them.
        "patterns": {
            t: positions_of(state.tiles.masks[t])
            for t in sorted(
                {t for r in state.racks for t in r[0]} | {t for d in state.draws for _, t in d} | set(state.aside)
            )
        },
        "turn": None
        if turn is None
        else {
            "player": ids[turn[0]],
            "placements": [_placement_json(state, p) for p in turn[1]],
            "points": turn_points(state, turn),
            "nines": len(turn[3]),
            "new_stack_started": turn[4] is not None,
            "segment": turn[5],
            "refilled": turn[7],
            "refill_needed": refill_needed(state, turn[0]),
        },
        "blocked": is_blocked(state) and turn is None,
        "last_placement": _placement_json(state, state.last) if state.last else None,
        "round_end": None
        if state.end_reason is None
        else {
            "reason": state.end_reason,
            "awaiting_reveal": state.phase is Phase.REVEAL,
            "deductions": dict(zip(ids, state.deductions, strict=True)) if state.deductions is not None else None,
        },
        "rounds": [dict(zip(ids, r, strict=True)) for r in state.rounds],
        "finished": state.phase is Phase.FINISHED,
        "winners": list(state.winners),
    }


def board_extras(match_started: Mapping[str, Any]) -> dict[str, Any]:
    """The printed pattern of every tile in the match's set, for drawing racks and draws by their dots."""
    options = match_started.get("options")
    option = (options if isinstance(options, Mapping) else {}).get("tile_set", "default")
    try:
        tiles = load_tile_set(option)
    except Exception:  # an unreadable tile set was refused at match_started; draw racks as ids only
        return {"patterns": {}}
    return {"patterns": {t: positions_of(m) for t, m in tiles.masks.items()}}


# ---------------------------------------------------------------- descriptions


def _tile_words(state: State, tile: str) -> str:
    n = state.tiles.dots(tile)
    return f"{tile} ({n} dot{'s' if n != 1 else ''})"


def _tiles_words(tiles: list[Any]) -> str:
    hidden = sum(t is None for t in tiles)
    shown = [t for t in tiles if t is not None]
    parts = shown + ([f"{hidden} hidden"] if hidden else [])
    return f"{plural(len(tiles))} ({', '.join(parts)})" if tiles else "no tiles"


def _deduction_words(state: State) -> str:
    assert state.deductions is not None
    return ", ".join(f"{state.name(i)} −{d}" for i, d in enumerate(state.deductions) if d) or "no rack dots left"


def describe(before: State, event: Event, after: State) -> Annotation:
    d, t = event.data, event.type
    pid = d.get("player") if isinstance(d.get("player"), str) else None
    seat = next((i for i, p in enumerate(after.players) if p.id == pid), None)
    who = after.name(seat) if seat is not None else ""
    if t == "round_started":
        return Annotation(f"round {after.round_no} started: all tiles in the bag")
    if t == "first_player_drawn":
        drawn = ", ".join(f"{after.name(s)} {_tile_words(after, tile)}" for s, tile in after.draws[-1])
        if after.first is None:
            return Annotation(f"first-player draw: {drawn}; {names_of(after, after.to_draw)} tie and draw again")
        return Annotation(f"first-player draw: {drawn}; {after.name(after.first)} starts")
    if t == "tiles_drawn":
        tiles = d["tiles"]
        if before.phase is Phase.RACKS:
            return Annotation(f"{who} drew a rack of {_tiles_words(tiles)}", pid)
        if tiles_held(before.racks[seat or 0]) == 0:
            return Annotation(f"{who} emptied the rack and drew {_tiles_words(tiles)} to go on", pid)
        return Annotation(f"{who} refilled the rack: {_tiles_words(tiles)}", pid)
    if t == "tile_placed":
        assert after.last is not None
        _, tile, section, mask, _, stack_dots, new_stack, nine, cleared = after.last
        text = f"{who} placed {_tile_words(after, tile)} at {positions_of(mask)} in section {section}"
        tags: list[str] = []
        if new_stack:
            text += ", starting a new stack"
            tags.append("new_stack")
        if nine:
            text += ": full stack, 9" + (" (back into the bag)" if cleared else "")
            tags.append("full_stack")
        else:
            text += f": stack of {stack_dots}"
        text += f"; turn so far {turn_points(after, after.turn)}"
        return Annotation(text, pid, tuple(tags))
    if t == "tiles_exchanged":
        n = len(d["returned"])
        return Annotation(f"{who} cannot play: returned {plural(n)}, drew {n}, misses the turn", pid, ("exchange",))
    if t == "turn_ended":
        assert before.turn is not None and seat is not None
        turn = before.turn
        section_of = {p[4]: p[2] for p in turn[1]}  # a placement's stack uid, and its section
        scored = stack_points(before, turn)
        words = [f"{pts} (section {section_of[uid]})" for uid, pts in scored.items()]
        points = sum(scored.values())
        text = f"{who} ended the turn: {' + '.join(words)} = {points} points, total {after.totals[seat]}"
        tags = []
        if after.phase is Phase.FINISHED:
            text += f"; {who} reaches {after.options['target_score']} and wins"
        elif after.end_reason == "going_out":  # reset at every round_started, so set by this turn
            text += f"; {who} went out, round {after.round_no} over"
            text += f" ({_deduction_words(after)})" if after.deductions is not None else " (racks to reveal)"
            tags.append("going_out")
        return Annotation(text, pid, tuple(tags))
    if t == "round_ended":
        tail = f": {_deduction_words(after)}" if after.deductions is not None else "; racks to reveal"
        return Annotation(f"round {after.round_no} blocked: no tile fits the tray{tail}", tags=("blocked",))
    if t == "racks_revealed":
        return Annotation(f"racks revealed, round {after.round_no} over: {_deduction_words(after)}")
    return Annotation(t, pid)


def marks(before: State, event: Event, after: State) -> Mark:
    """`describe`'s player and tags without its words (the statistics read these for every move)."""
    d, t = event.data, event.type
    pid = d.get("player") if isinstance(d.get("player"), str) else None
    if t in ("round_started", "first_player_drawn", "racks_revealed"):
        return None, ()
    if t == "round_ended":
        return None, ("blocked",)
    if t == "tile_placed":
        p = after.last
        assert p is not None
        return pid, (("new_stack",) if p[6] else ()) + (("full_stack",) if p[7] else ())  # new stack, nine
    if t == "tiles_exchanged":
        return pid, ("exchange",)
    if t == "turn_ended" and after.phase is not Phase.FINISHED and after.end_reason == "going_out":
        return pid, ("going_out",)
    return pid, ()
