"""The log as a timeline: every game's states, with `note` and `rewind` handled once for all games.

`Fold` keeps the state after every seq, so a replay step or a "state at seq k" is a lookup. It is a
persistent value: `apply` returns a new Fold and leaves the old one valid (the lists are shared
append-only, copied only when an old Fold is extended a second way).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from projections.options import is_int
from projections.protocol import Annotation, Game, S
from projections.registry import get_game


class Fold(Generic[S]):
    """A started match: its game, its players, and the state after every event so far.

    Made from a `match_started` event by `Fold.begin` (or `fold`/`fold_dicts`); `apply` extends it.
    """

    __slots__ = ("game", "players", "_events", "_states", "_n", "superseded_by")

    def __init__(
        self,
        game: Game[S],
        players: tuple[tuple[str, str], ...],
        events: list[Event],
        states: list[S],
        n: int,
        superseded_by: Mapping[int, int] | None = None,
    ) -> None:
        self.game = game
        self.players = players  # (id, name) in seat order
        self._events = events
        self._states = states
        self._n = n
        self.superseded_by: Mapping[int, int] = superseded_by or {}  # seq -> seq of the rewind

    @staticmethod
    def begin(event: Event) -> Fold[Any]:
        """The fold of a log whose first event is `event`, which must be match_started."""
        _check_envelope(event, 0)
        if event.type != "match_started":
            raise IllegalEvent(f"the first event must be match_started, not {event.type}")
        game = get_game(event.data.get("game"))
        if not isinstance(event.data.get("meta", {}), dict):
            raise IllegalEvent("match_started: meta must be a JSON object (tournament, round, table, date…)")
        state = game.start(event.data)
        players = tuple((p["id"], p.get("name") or p["id"]) for p in event.data["players"])
        return Fold(game, players, [event], [state], 1)

    @property
    def seq(self) -> int:
        return self._n

    @property
    def events(self) -> list[Event]:
        return self._events[: self._n]

    @property
    def state(self) -> S:
        return self._states[self._n - 1]

    def event(self, seq: int) -> Event:
        self._check_seq(seq)
        return self._events[seq - 1]

    def state_at(self, seq: int) -> S:
        """The effective state right after event `seq` was recorded."""
        self._check_seq(seq)
        return self._states[seq - 1]

    def _check_seq(self, seq: int) -> None:
        if not 1 <= seq <= self._n:
            raise IllegalEvent(f"seq {seq} is outside this match (1..{self._n})")

    @property
    def finished(self) -> bool:
        return self.game.is_finished(self.state)

    def apply(self, event: Event) -> Fold[S]:
        """The fold with `event` appended, or IllegalEvent; `self` is never changed."""
        _check_envelope(event, self._n)
        superseded = self.superseded_by
        if event.type == "match_started":
            raise IllegalEvent("the match has already started; match_started comes only once, first")
        if event.type == "note":
            _check_note(event, self._n)
            state = self.state
        elif event.type == "rewind":
            to_seq = _check_rewind(event, self._n, superseded)
            state = self._states[to_seq - 1]
            superseded = dict(superseded)
            for s in range(to_seq + 1, event.seq):
                superseded.setdefault(s, event.seq)
        else:
            state = self.game.apply(self.state, event)  # the shared guards, then the game's handler
        events, states = self._events, self._states
        if len(events) != self._n:  # an older fold is being extended a second way: stop sharing
            events, states = events[: self._n], states[: self._n]
        events.append(event)
        states.append(state)
        return Fold(self.game, self.players, events, states, self._n + 1, superseded)

    def extend(self, events: Iterable[Event]) -> Fold[S]:
        fold = self
        for e in events:
            fold = fold.apply(e)
        return fold

    def at(self, seq: int) -> Fold[S]:
        """The fold as it was when event `seq` had just been recorded."""
        self._check_seq(seq)
        superseded = {s: r for s, r in self.superseded_by.items() if r <= seq}
        return Fold(self.game, self.players, self._events, self._states, seq, superseded)

    def describe(self, seq: int) -> Annotation:
        e = self.event(seq)
        if e.type == "match_started":
            names = ", ".join(name for _, name in self.players)
            return Annotation(f"{self.game.descriptor.title} match started: {names}")
        if e.type == "note":
            about = e.data.get("about_seq")
            return Annotation(f"note{f' on #{about}' if about else ''}: {e.data.get('text', '')}")
        if e.type == "rewind":
            return Annotation(f"rewind to #{e.data['to_seq']}: {e.data.get('reason', '')}", tags=("rewind",))
        return self.game.describe(self._states[seq - 2], e, self._states[seq - 1])

    def points(self, seq: int) -> dict[str, int]:
        """Points each player gained (or lost) with event `seq`."""
        after = self.game.scores(self.state_at(seq)).totals
        if seq == 1:
            return {p: v for p, v in after.items() if v}
        before = self.game.scores(self.state_at(seq - 1)).totals
        return {p: after[p] - before.get(p, 0) for p in after if after[p] != before.get(p, 0)}


def _check_envelope(event: Event, last_seq: int) -> None:
    if event.seq != last_seq + 1:
        raise IllegalEvent(f"event seq {event.seq} does not follow seq {last_seq}")
    if not isinstance(event.type, str) or not event.type:
        raise UnknownEventType(f"an event type must be a non-empty string, not {event.type!r}")
    if not isinstance(event.data, dict):
        raise IllegalEvent(f"{event.type}: data must be a JSON object")


def _check_note(event: Event, last_seq: int) -> None:
    if not isinstance(event.data.get("text"), str):
        raise IllegalEvent("note: text must be a string")
    about = event.data.get("about_seq")
    if about is not None and not (is_int(about) and 1 <= about <= last_seq):
        raise IllegalEvent(f"note: about_seq must be an earlier seq, 1..{last_seq}")


def _check_rewind(event: Event, last_seq: int, superseded: Mapping[int, int]) -> int:
    to_seq = event.data.get("to_seq")
    if not is_int(to_seq) or not 1 <= to_seq <= last_seq:
        raise IllegalEvent(f"rewind: to_seq must be an earlier seq, 1..{last_seq}")
    if not isinstance(event.data.get("reason"), str):
        raise IllegalEvent("rewind: reason must be a string")
    if to_seq in superseded:
        raise IllegalEvent(f"rewind: seq {to_seq} was already superseded by the rewind at seq {superseded[to_seq]}")
    return to_seq


def fold(events: Iterable[Event]) -> Fold[Any]:
    """The fold of a whole log; the first event must be match_started."""
    it = iter(events)
    first = next(it, None)
    if first is None:
        raise IllegalEvent("the log is empty; the first event must be match_started")
    return Fold.begin(first).extend(it)


def fold_dicts(lines: Iterable[Mapping[str, Any]]) -> Fold[Any]:
    """Fold import-form events ({type, data}), numbering them 1, 2, 3 …"""
    # A missing type or data reads as empty, which the fold refuses with its reason.
    return fold(Event(i, line.get("type", ""), line.get("data", {})) for i, line in enumerate(lines, start=1))
