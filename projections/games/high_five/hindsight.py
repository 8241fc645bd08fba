"""High Five hindsight (projections/hindsight.py): nothing to find. High Five has no draw and no pass —
every turn plays a tile — and a play that leaves a capturable pair is the game's own business: the pair
stays claimable by the next players (`pair_claimed`, docs/rules/high-five.md). So no play is flagged."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.games.high_five.rules import hand_size
from projections.games.high_five.tiles import bits_of
from projections.hindsight import holding_unchanged as holding
from projections.hindsight import no_bonus as bonus_counts
from projections.hindsight import no_flow as flow
from projections.persistent import evolve

NO_PLAY: frozenset[str] = frozenset()
PLACED = "tile_played"
BONUS_TAGS: tuple[str, ...] = ()
TAG_WORDS: Mapping[str, str] = {}
__all__ = ["BONUS_TAGS", "NO_PLAY", "PLACED", "TAG_WORDS", "as_table", "bonus_counts", "flow", "held", "holding"]


def held(state: Any, player: str) -> tuple[tuple[str, ...], int] | None:
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if seat is None or seat >= len(state.hands):
        return None
    known, hidden = state.hands[seat]
    return known, hidden


def as_table(state: Any, sees: Callable[[str], bool]) -> Any:
    """`state` with the hands of the players `sees` refuses turned face down: their tiles become hidden slots
    and no longer count as seen (recorder/legal.py)."""
    hands, unseen = [], 0
    for p, hand in zip(state.players, state.hands, strict=False):
        if sees(p.id):
            hands.append(hand)
            continue
        unseen |= bits_of(hand[0])
        hands.append(((), hand_size(hand)))
    return evolve(state, hands=tuple(hands), seen_bits=state.seen_bits & ~unseen)
