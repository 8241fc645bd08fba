"""High Five hindsight (projections/hindsight.py): nothing to find. High Five has no draw and no pass —
every turn plays a tile — and a play that leaves a capturable pair is the game's own business: the pair
stays claimable by the next players (`pair_claimed`, docs/rules/high-five.md). So no play is flagged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.events import Event
from projections.hindsight import NOTHING, Flow

NO_PLAY: frozenset[str] = frozenset()
PLACED = "tile_played"
BONUS_TAGS: tuple[str, ...] = ()
TAG_WORDS: Mapping[str, str] = {}


def held(state: Any, player: str) -> tuple[tuple[str, ...], int] | None:
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if seat is None or seat >= len(state.hands):
        return None
    hand = state.hands[seat]
    return hand.known, hand.hidden


def holding(state: Any, player: str, tiles: tuple[str, ...]) -> Any:
    return state


def bonus_counts(state: Any) -> bool:
    return False


def flow(before: Any, event: Event, player: str) -> Flow:
    return NOTHING
