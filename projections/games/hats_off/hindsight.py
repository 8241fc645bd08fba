"""Hats Off hindsight (projections/hindsight.py): nothing to find. Hats Off is a dexterity game with
nothing hidden and no draw or pass: every hat lands in plain sight, so no play is flagged."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.hindsight import holding_unchanged as holding
from projections.hindsight import no_bonus as bonus_counts
from projections.hindsight import no_flow as flow

NO_PLAY: frozenset[str] = frozenset()
PLACED = "hat_launched"
BONUS_TAGS: tuple[str, ...] = ()
TAG_WORDS: Mapping[str, str] = {}
__all__ = ["BONUS_TAGS", "NO_PLAY", "PLACED", "TAG_WORDS", "as_table", "bonus_counts", "flow", "held", "holding"]


def held(state: Any, player: str) -> tuple[tuple[str, ...], int] | None:
    return None  # no hand: a player's hats are all in sight


def as_table(state: Any, sees: Callable[[str], bool]) -> Any:
    return state  # nothing is hidden
