"""What every game's reducer provides. The log machinery (`timeline.py`) only talks to this."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from projections.events import Event


@dataclass(frozen=True)
class ScoreSheet:
    """A game's view of the scores; `scores.py` turns it into FORMAT.md's JSON."""

    totals: dict[str, int]
    rounds: list[dict[str, int]]  # points gained per round, the running round included
    finished: bool
    winners: list[str] = field(default_factory=list)  # seat order


@dataclass(frozen=True)
class Annotation:
    """What one event did, in words, for the event list and the statistics."""

    text: str
    player: str | None = None
    # Bonus and capture markers the dashboard jumps to and the statistics count,
    # e.g. "hexagon", "bridge", "capture", "capture:3", "full_stack", "nested".
    tags: tuple[str, ...] = ()


class Game(Protocol):
    name: str
    min_players: int
    max_players: int
    event_types: frozenset[str]  # the game's own types, besides match_started/note/rewind

    def start(self, data: Mapping[str, Any]) -> Any:
        """State from `match_started` data; players and options are checked here."""

    def apply(self, state: Any, event: Event) -> Any:
        """The state after `event`, or IllegalEvent. Never mutates `state`."""

    def is_finished(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> ScoreSheet: ...

    def to_json(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON (GET /state, the dashboard's boards)."""

    def legal_moves(self, state: Any, player: str) -> list[dict[str, Any]]:
        """Every legal next event for `player`'s known tiles; [] where the game has none."""

    def describe(self, before: Any, event: Event, after: Any) -> Annotation: ...

    def random_match(
        self, rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """A complete legal match log (import form: type and data), played by a seeded random player."""
