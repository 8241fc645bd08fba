"""The event as the reducers see it: a position in the log, a type and its data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    seq: int
    type: str
    data: dict[str, Any] = field(default_factory=dict)


COMMON_EVENT_TYPES = frozenset({"match_started", "note", "rewind"})
