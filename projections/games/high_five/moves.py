"""High Five legal moves: every claim and every play (with each capture it allows) open to a player."""

from __future__ import annotations

from typing import Any

from projections.games.high_five import tiles as hf
from projections.games.high_five.rules import Phase, State


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if seat is None or state.phase in (Phase.FINISHED, Phase.BEFORE_GAME):
        return []
    moves: list[dict[str, Any]] = []
    if seat in (state.to_play, state.claimer_after_play):
        for p in state.missed:
            if p.seat == seat and p.turn == state.plays:
                continue  # left on this very turn
            tiles = sorted((p.played, p.partner), key=hf.sort_key)
            moves.append(
                {
                    "type": "pair_claimed",
                    "data": {"player": player, "tiles": tiles},
                    "points": p.value,
                }
            )
    if seat == state.to_play:
        moves.extend(_plays(state, seat))
    return moves


def _plays(state: State, seat: int) -> list[dict[str, Any]]:
    known, hidden_slots = state.hands[seat]
    pid = state.players[seat].id
    # A hidden slot may be any tile whose place is not known.
    candidates = list(dict.fromkeys(known))
    if hidden_slots:
        seen = state.seen_bits
        candidates += [t for t in hf.TILES if not seen & hf.BIT[t]]
    moves = []
    for tile in candidates:
        hidden = tile not in known
        matching = [t for t in state.layout if hf.matches(tile, t)]
        for capture in matching:
            moves.append(
                {
                    "type": "tile_played",
                    "data": {"player": pid, "tile": tile, "capture": capture},
                    "points": hf.value(tile) + hf.value(capture),
                    "hidden": hidden,
                }
            )
        moves.append(
            {
                "type": "tile_played",
                "data": {"player": pid, "tile": tile, "capture": None},
                "points": 0,
                "hidden": hidden,
                "misses": matching,  # layout tiles it would leave a claimable pair with
            }
        )
    return moves
