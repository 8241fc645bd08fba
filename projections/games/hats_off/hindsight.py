"""Hats Off hindsight (projections/hindsight.py): nothing to find. Hats Off is a dexterity game with
nothing hidden and no draw or pass: every hat lands in plain sight, so no play is flagged."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.events import Event
from projections.hindsight import NOTHING, Flow

NO_PLAY: frozenset[str] = frozenset()
PLACED = "hat_launched"
BONUS_TAGS: tuple[str, ...] = ()
TAG_WORDS: Mapping[str, str] = {}


def held(state: Any, player: str) -> tuple[tuple[str, ...], int] | None:
    return None  # no hand: a player's hats are all in sight


def holding(state: Any, player: str, tiles: tuple[str, ...]) -> Any:
    return state


def bonus_counts(state: Any) -> bool:
    return False


def flow(before: Any, event: Event, player: str) -> Flow:
    return NOTHING


def as_table(state: Any, sees: Callable[[str], bool]) -> Any:
    return state  # nothing is hidden
