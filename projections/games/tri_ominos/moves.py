"""Tri-Ominos legal moves: every event a player may record next, with the points it would score.

The rules (what is legal, what scores) live in `rules.py`; this module only enumerates them, so
a suggested move is always one `GAME.apply` accepts.
"""

from __future__ import annotations

from typing import Any

from projections.games.tri_ominos.grid import Cell, corners
from projections.games.tri_ominos.rules import (
    DRAW_PENALTY,
    HANDLERS,
    Phase,
    State,
    fits,
    others_total,
    placement_bonuses,
    start_points,
    start_problem,
)
from projections.games.tri_ominos.tiles import TRIPLES, Corners, is_triple, rotations, tile_sum


def _placement_move(
    state: State, seat: int, tile: str, cell: Cell, numbers: Corners, items: list[tuple[str, int]], tags: list[str]
) -> dict[str, Any]:
    hand = state.hands[seat]
    assert hand is not None
    if hand.size == 1:  # this tile goes out: the bonus, and the opponents' tiles where they are known
        items = [*items, ("going out", state.options["going_out_bonus"])]
        tags = [*tags, "going_out"]
        left = others_total(state.hands, seat)
        if left is not None:
            items.append(("left in opponents' hands", left))
    return {
        "type": "tile_placed",
        "data": {"player": state.players[seat].id, "tile": tile, "cell": list(cell), "corners": list(numbers)},
        "points": sum(p for _, p in items),
        "tags": tags,
        "items": [[label, pts] for label, pts in items],
    }


def _start_moves(state: State, seat: int) -> list[dict[str, Any]]:
    hand = state.hands[seat]
    if hand is None:
        return []
    moves = []
    for tile in hand.known:
        shows: list[str | None] = [None]
        if tile == TRIPLES[0]:
            shows += [t for t in hand.known if is_triple(t) and t != tile]
        for shown in shows:
            if start_problem(state, seat, tile, shown) is not None:
                continue
            items = start_points(tile, shown)
            for rot in rotations(tile):
                move = _placement_move(state, seat, tile, (0, 0), rot, items, ["start_bonus"] if len(items) > 1 else [])
                if shown is not None:
                    move["data"]["shown"] = shown
                moves.append(move)
    return moves


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    """Every legal next event for `player` from what is known: placements (tile, cell, corners, points),
    and a draw or pass where those are allowed. A starting tile is offered at [0, 0]."""
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if seat is None:
        return []
    if state.phase is Phase.STARTING:
        return _start_moves(state, seat)
    if state.phase is not Phase.PLAYING or state.turn != seat:
        return []
    hand = state.hands[seat]
    assert hand is not None
    moves: list[dict[str, Any]] = []
    for cell in sorted(state.open_cells):
        pts = corners(cell)
        fitting = [(t, rot) for t in hand.known for rot in rotations(t) if fits(state.values, pts, rot)]
        if not fitting:
            continue
        bonus_items, tags, _ = placement_bonuses(state, cell)
        for tile, rot in fitting:
            items = [(tile, tile_sum(tile)), *bonus_items]
            moves.append(_placement_move(state, seat, tile, cell, rot, items, tags))
    if moves:
        return moves  # a player who can play may neither draw nor pass
    pid = state.players[seat].id
    opts = state.options
    if state.well and state.draws < opts["draw_limit"]:
        draw = {"player": pid, "tile": None}  # the tile is whatever comes out of the well
        moves.append({"type": "tile_drawn", "data": draw, "points": -DRAW_PENALTY, "tags": ["draw"]})
    else:
        data = {"player": pid}
        after = HANDLERS["turn_passed"](state, data)  # a pass may block the round: count its end too
        points = after.totals[seat] - state.totals[seat]
        tags = ["pass", "blocked"] if after.round_end is not None else ["pass"]
        moves.append({"type": "turn_passed", "data": data, "points": points, "tags": tags})
    return moves
