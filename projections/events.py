"""The event as the reducers see it: a position in the log, a type and its data."""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """Immutable like the frozen dataclass it was, and built in C: a fold builds one per event, and a named
    tuple costs a third of a frozen dataclass's `__init__` (three `object.__setattr__` calls)."""

    seq: int
    type: str
    data: dict[str, Any]


COMMON_EVENT_TYPES = frozenset({"match_started", "note", "rewind", "bag_revealed"})
