"""The event as the reducers see it: a position in the log, a type and its data."""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """One event of a match's log; immutable (a named tuple: docs/PERFORMANCE.md, "Reducers")."""

    seq: int
    type: str
    data: dict[str, Any]


COMMON_EVENT_TYPES = frozenset({"match_started", "note", "rewind", "bag_revealed", "match_abandoned"})
"""The events every game shares, handled once by `projections.timeline.Fold` (docs/FORMAT.md)."""
