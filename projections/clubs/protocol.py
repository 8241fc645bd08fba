"""What a kind of club stream provides, and the one fold every kind shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event

S = TypeVar("S")
Handler = Callable[[S, Mapping[str, Any]], S]  # (state, event data) -> the new state, or IllegalEvent


@dataclass(frozen=True, eq=False)
class StreamKind(Generic[S]):
    """A kind of stream: the player registry ("players") or a tournament ("tournament").

    `start` builds the state from the first event's data (its type is `start_type`); `handlers` take every
    later event type, checking then building a new state (never changing the one they are given);
    `to_json` is the state as plain JSON (what the API answers)."""

    name: str
    start_type: str
    start: Callable[[Mapping[str, Any]], S]
    handlers: Mapping[str, Handler[S]]
    to_json: Callable[[S], dict[str, Any]]

    @property
    def event_types(self) -> frozenset[str]:
        return frozenset({self.start_type, *self.handlers})

    def begin(self, event: Event) -> S:
        """The state after the stream's first event."""
        if event.seq != 1 or event.type != self.start_type:
            raise IllegalEvent(f"a {self.name} stream begins with {self.start_type} at seq 1, not {event.type}")
        return self.start(_data(event))

    def apply(self, state: S, event: Event) -> S:
        """The state after `event` (seq 2 on), or IllegalEvent naming why not."""
        handler = self.handlers.get(event.type)
        if handler is None:
            known = ", ".join(sorted(self.handlers))
            raise UnknownEventType(f"unknown event type {event.type!r} for a {self.name} stream; known: {known}")
        return handler(state, _data(event))

    def fold(self, events: Iterable[Event]) -> S:
        """The state after every one of `events` (seqs 1, 2, … in order)."""
        it = iter(events)
        first = next(it, None)
        if first is None:
            raise IllegalEvent(f"a {self.name} stream needs its {self.start_type} event")
        state = self.begin(first)
        for n, event in enumerate(it, start=2):
            if event.seq != n:
                raise IllegalEvent(f"event seq {event.seq} does not follow seq {n - 1}")
            state = self.apply(state, event)
        return state


def _data(event: Event) -> Mapping[str, Any]:
    if not isinstance(event.data, Mapping):
        raise IllegalEvent(f"{event.type}: data must be a JSON object")
    return event.data
