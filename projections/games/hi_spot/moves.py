"""Hi-Spot legal moves: every placement, draw, exchange or turn end a player may record next, with the
turn's score it would give.

The rules (what is legal, what scores) live in `rules.py`; this module only enumerates them, so a
suggested move is always one `GAME.apply` accepts.
"""

from __future__ import annotations

from typing import Any

from projections.games.hi_spot.rules import (
    Phase,
    Stack,
    State,
    Turn,
    blocking_reason,
    can_play,
    fresh_turn,
    refill_needed,
    tiles_held,
    turn_points,
)
from projections.games.hi_spot.tiles import FULL, dot_count, positions_of


def placements(state: State, seat: int, tiles: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """Every legal placement of `tiles` (the player's rack, as far as the caller knows it) right now."""
    if state.phase is not Phase.PLAY or state.current != seat:
        return []
    turn = state.turn or fresh_turn(seat)
    _, _, added, nines, new_stack, seg, _, refilled = turn
    if refilled or tiles_held(state.racks[seat]) == 0:
        return []
    flip = state.allow_flip
    may_start = new_stack is None and seg is None
    base = turn_points(state, turn)
    left = tiles_held(state.racks[seat]) - 1
    out: list[dict[str, Any]] = []
    for tile in sorted(set(tiles)):
        rest = [t for t in tiles if t != tile]
        for i, stack in enumerate(state.tray):
            if stack is None:
                if not may_start:
                    continue
                masks, gain, old_mask = state.tiles.orientations(tile, flip), 0, 0
            else:
                uid, stack_mask = stack[0], stack[1]
                if stack_mask == FULL or (seg == "new_stack" and uid != new_stack):
                    continue
                masks = tuple(o for o in state.tiles.orientations(tile, flip) if not o & stack_mask)
                was = (9 if uid in nines else dot_count(stack_mask)) if uid in added else 0
                gain, old_mask = -was, stack_mask
            for o in masks:
                dots = dot_count(old_mask | o)
                nine = dots == 9
                after = old_mask | o
                if nine or left == 0:  # the segment ends; can the next one place anything?
                    goes_on = _next_segment(state, turn, i, stack, after, rest, left)
                elif stack is None or seg == "new_stack":  # the segment builds this stack: only it takes more
                    goes_on = any(r in state.tiles.fitting(after, flip) for r in rest)
                else:
                    goes_on = _can_add_more(state, stack[0], after, rest)
                out.append(
                    {
                        "type": "tile_placed",
                        "data": {
                            "player": state.players[seat].id,
                            "tile": tile,
                            "section": i + 1,
                            "dots": positions_of(o),
                        },
                        "points": base + gain + (9 if nine else dots),
                        "nine": nine,
                        "new_stack": stack is None,
                        "turn_can_continue": goes_on,
                    }
                )
    return out


def _next_segment(
    state: State, turn: Turn, section: int, stack: Stack | None, after: int, rest: list[str], left: int
) -> bool:
    """After a placement that ends the segment (a 9 or the last rack tile) on `section`, now covering
    `after`: could a new segment place a tile? With an emptied rack it first needs tiles in the bag
    (a cleared 9 puts its tiles back), and then any tile drawn may start a stack or go on one that is
    not full; with tiles left, they start a stack or one of the known ones fits a stack."""
    cleared = after == FULL and bool(state.options["clear_full_stacks"])
    may_start = turn[4] is None and stack is not None  # turn[4]: its new stack (an empty section starts one)
    tray = [s[1] if s is not None else None for s in state.tray]  # the stacks' masks
    tray[section] = None if cleared else after
    open_stacks = [m for m in tray if m is not None and m != FULL]
    if may_start and None in tray:
        return left > 0 or state.bag > 0 or cleared
    if left == 0:
        return bool(open_stacks) and (state.bag > 0 or cleared)
    return any(r in state.tiles.fitting(m, state.allow_flip) for m in open_stacks for r in rest)


def _can_add_more(state: State, uid: int, after: int, rest: list[str]) -> bool:
    """After adding to stack `uid` (now `after`), could one of `rest` go on a stack of the tray?"""
    for s in state.tray:
        if s is None:
            continue
        mask = after if s[0] == uid else s[1]
        if mask != FULL and any(r in state.tiles.fitting(mask, state.allow_flip) for r in rest):
            return True
    return False


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if seat is None:
        return []
    pid = state.players[seat].id
    if state.phase is Phase.RACKS and seat not in state.racks_drawn:
        n = min(state.rack_size, state.bag)
        return [{"type": "tiles_drawn", "data": {"player": pid, "tiles": [None] * n}, "points": 0}]
    if state.phase is not Phase.PLAY or state.current != seat:
        return []
    rack, turn = state.racks[seat], state.turn
    if turn is None:
        if blocking_reason(state) is None:
            lost = -sum(state.tiles.dots(t) for t in rack[0]) if not rack[1] else 0
            return [{"type": "round_ended", "data": {"reason": "blocked"}, "points": lost}]
        moves = placements(state, seat, rack[0])
        if can_play(state, rack) is None:
            data = {"player": pid, "returned": list(rack[0]) + [None] * rack[1], "drawn": [None] * tiles_held(rack)}
            moves.append(
                {
                    "type": "tiles_exchanged",
                    "data": data,
                    "points": 0,
                    "note": "any non-empty part of the rack may be returned, as many drawn",
                }
            )
        return moves
    moves = placements(state, seat, rack[0])
    points = turn_points(state, turn)
    need = refill_needed(state, seat)
    if need:
        moves.append(
            {
                "type": "tiles_drawn",
                "data": {"player": pid, "tiles": [None] * need},
                "points": points,
                "mid_turn": tiles_held(rack) == 0,
            }
        )
    else:
        going_out = tiles_held(rack) == 0 and state.bag == 0
        moves.append({"type": "turn_ended", "data": {"player": pid}, "points": points, "round_ended": going_out})
    return moves
