"""The log as a timeline: every game's states, with `note`, `rewind` and `match_abandoned` handled once for all games.

`Fold` keeps the state after every seq, so a replay step or a "state at seq k" is a lookup. It is a
persistent value: `apply` returns a new Fold and leaves the old one valid (the lists are shared
append-only, copied only when an old Fold is extended a second way). `extend` is `apply` event by event
without building the Folds in between; both take a game's event by a short path (the envelope, note and
rewind checks only when the event is not a plain game event). `run` is `extend` for a log that is only
checked and stored (an import): it keeps the last state and the few states asked for, not every one.

A fold may also start part-way (`Fold.resume`, from a stored snapshot of the state at seq b): it then holds
the events and states from b on, plus the match_started event. An earlier seq (`state_at`, `event`,
`describe`, `points`, `at`, `events`, a rewind to before b) asks its `earlier` loader once for the fold of
seqs 1..b, shared by every fold extended from it; without a loader it raises EarlierNotHeld.

A `match_abandoned` (a referee's decision: the match stops here, docs/FORMAT.md) leaves the state as it is
and refuses every later game event; notes and rewinds are still taken, and a rewind to before it supersedes it
(the match goes on). `abandons` keeps the seq of every match_abandoned applied, so `at` and a resumed fold
know it without the events; `abandoned` is the one in force (0: none).

A fold plays the rules version its match_started names (none: 1), chosen once at the start (`_rules_of`),
and reads stored events through the named upcasters of `projections/upcasters.py` (docs/FORMAT.md,
"Versions and upcasters").
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import Any, Generic

from projections.bag import reveal_problem, start_problem
from projections.errors import IllegalEvent, UnknownEventType
from projections.events import COMMON_EVENT_TYPES, Event
from projections.options import is_int
from projections.persistent import unshared
from projections.protocol import Annotation, Game, Mark, S
from projections.registry import get_game
from projections.upcasters import after_start, upcast, upcast_all

_new = object.__new__
_tuple = tuple.__new__


class EarlierNotHeld(LookupError):
    """A seq before the one a resumed fold starts at was asked for, and the fold has no way to refold it."""


class _Earlier:
    """The fold of seqs 1..b behind a fold resumed at b: loaded once, when first needed, and shared."""

    __slots__ = ("_load", "_fold", "_lock")

    def __init__(self, load: Callable[[], Fold[Any]]) -> None:
        self._load = load
        self._fold: Fold[Any] | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> Fold[Any] | None:
        return self._fold

    def get(self) -> Fold[Any]:
        with self._lock:
            if self._fold is None:
                self._fold = self._load()
            return self._fold


class Fold(Generic[S]):
    """A started match: its game, its players, and the state after every event so far.

    Made from a `match_started` event by `Fold.begin` (or `fold`/`fold_dicts`), or from a snapshot by
    `Fold.resume`; `apply` extends it.
    """

    __slots__ = ("game", "players", "_events", "_states", "_n", "superseded_by", "_base", "_start", "_earlier",
                 "abandons")

    def __init__(
        self,
        game: Game[S],
        players: tuple[tuple[str, str], ...],
        events: list[Event],
        states: list[S],
        n: int,
        superseded_by: Mapping[int, int] | None = None,
        *,
        base: int = 1,
        start: Event | None = None,
        earlier: _Earlier | None = None,
        abandons: tuple[int, ...] = (),
    ) -> None:
        self.game = game
        self.players = players  # (id, name) in seat order
        self._events = events  # _events[i] and _states[i] are seq base + i
        self._states = states
        self._n = n
        self.superseded_by: Mapping[int, int] = superseded_by or {}  # seq -> seq of the rewind
        self._base = base
        self._start = start if start is not None else events[0]  # match_started, always held
        self._earlier = earlier
        self.abandons = abandons  # the seq of every match_abandoned applied, superseded or not

    @staticmethod
    def begin(event: Event) -> Fold[Any]:
        """The fold of a log whose first event is `event`, which must be match_started."""
        _check_envelope(event, 0)
        if event.type != "match_started":
            raise IllegalEvent(f"the first event must be match_started, not {event.type}")
        game = _rules_of(event)
        if "bag" in event.data or "bag_commitment" in event.data:  # a committed bag (projections/bag.py)
            _refuse(start_problem(game.name, event.data))
        if not isinstance(event.data.get("meta", {}), dict):
            raise IllegalEvent("match_started: meta must be a JSON object (tournament, round, table, date…)")
        state = unshared(game.start(event.data))  # the fold's states are copies of this one
        players = tuple((p["id"], p.get("name") or p["id"]) for p in event.data["players"])
        return Fold(game, players, [event], [state], 1)

    @staticmethod
    def resume(
        start: Event,
        event: Event,
        state: Any,
        superseded_by: Mapping[int, int],
        earlier: Callable[[], Fold[Any]] | None = None,
        abandons: tuple[int, ...] = (),
    ) -> Fold[Any]:
        """The fold as it was right after `event` (seq b), whose state was `state`, without the events and
        states before b. `start` is the match's match_started event; `earlier`, when given, returns the
        fold of seqs 1..b, and is called (once) only if an earlier seq is asked for; `abandons`: the fold's
        `abandons` at b."""
        if start.seq != 1 or start.type != "match_started":
            raise IllegalEvent("a resumed fold needs the match's match_started event (seq 1)")
        if event.seq == 1:
            return Fold.begin(start)
        game = _rules_of(start)
        if after_start(game.name):
            event = upcast(game.name, event)
        players = tuple((p["id"], p.get("name") or p["id"]) for p in start.data["players"])
        return Fold(game, players, [event], [unshared(state)], event.seq, dict(superseded_by), base=event.seq,
                    start=start, earlier=_Earlier(earlier) if earlier is not None else None,
                    abandons=tuple(a for a in abandons if a <= event.seq))

    @property
    def seq(self) -> int:
        return self._n

    @property
    def held_from(self) -> int:
        """The first seq whose state this fold holds itself (1 unless resumed from a snapshot)."""
        return self._base

    @property
    def held_states(self) -> int:
        """How many states this fold's lists hold, with those of an earlier fold it has loaded (a size
        estimate for caches)."""
        loaded = self._earlier.loaded if self._earlier is not None else None
        return len(self._states) + (loaded.held_states if loaded is not None else 0)

    def holds(self, seq: int) -> bool:
        """Whether the state at `seq` is at hand, without refolding (any seq of a fold that was not resumed)."""
        if seq >= self._base:
            return True
        loaded = self._earlier.loaded if self._earlier is not None else None
        return loaded is not None and loaded.holds(seq)

    @property
    def events(self) -> list[Event]:
        own = self._events[: self._n - self._base + 1]
        return own if self._base == 1 else self._before().events[: self._base - 1] + own

    @property
    def state(self) -> S:
        return self._states[self._n - self._base]

    def event(self, seq: int) -> Event:
        self._check_seq(seq)
        if seq >= self._base:
            return self._events[seq - self._base]
        return self._start if seq == 1 else self._before().event(seq)

    def state_at(self, seq: int) -> S:
        """The effective state right after event `seq` was recorded."""
        self._check_seq(seq)
        return self._state(seq)

    def _state(self, seq: int) -> S:
        if seq >= self._base:
            return self._states[seq - self._base]
        return self._before().state_at(seq)  # type: ignore[no-any-return]

    def _before(self) -> Fold[Any]:
        """The fold of seqs 1..base, for a resumed fold asked about an earlier seq."""
        if self._earlier is None:
            raise EarlierNotHeld(
                f"this fold was resumed at seq {self._base} and holds no earlier state; refold the match from its log"
            )
        return self._earlier.get()

    def _check_seq(self, seq: int) -> None:
        if not 1 <= seq <= self._n:
            raise IllegalEvent(f"seq {seq} is outside this match (1..{self._n})")

    @property
    def finished(self) -> bool:
        return self.game.is_finished(self.state)

    @property
    def abandoned(self) -> int:
        """The seq of the match_abandoned in force (not superseded by a rewind), or 0: the match goes on."""
        for seq in reversed(self.abandons):
            if seq <= self._n and seq not in self.superseded_by:
                return seq
        return 0

    def apply(self, event: Event) -> Fold[S]:
        """The fold with `event` appended, or IllegalEvent; `self` is never changed."""
        n = self._n
        if after_start(self.game.name):
            event = upcast(self.game.name, event)
        t = event.type
        if (event.seq != n + 1 or type(t) is not str or not t or t in COMMON_EVENT_TYPES or type(event.data) is not dict
                or self.abandons):
            return self._apply_other(event)  # every refusal of the envelope, and the shared events
        state = self.game.apply(self._states[n - self._base], event)  # the shared guards, then the game's handler
        events, states = self._held_lists()
        events.append(event)
        states.append(state)
        return self._with(events, states, n + 1, self.superseded_by)

    def _apply_other(self, event: Event) -> Fold[S]:
        """`apply` for an envelope to refuse, match_started, a note, a rewind, match_abandoned, or any event of a
        match abandoned once (or data of a dict subclass)."""
        _check_envelope(event, self._n)
        superseded, abandons = self.superseded_by, self.abandons
        if event.type == "match_started":
            raise IllegalEvent("the match has already started; match_started comes only once, first")
        if event.type == "note":
            _check_note(event, self._n)
            if "resolves" in event.data:
                self._check_resolves(event.data["resolves"])
            state = self.state
        elif event.type == "bag_revealed":  # the committed bag's seed, recorded by the server at the end
            _refuse(reveal_problem(self._start.data, event.data))
            state = self.state
        elif event.type == "rewind":
            to_seq = _check_rewind(event, self._n, superseded)
            state = self._state(to_seq)
            superseded = dict(superseded)
            for s in range(to_seq + 1, event.seq):
                superseded.setdefault(s, event.seq)
        elif event.type == "match_abandoned":
            self._check_abandon(event)
            state = self.state
            abandons = (*abandons, event.seq)
        else:
            if self.abandoned:
                try:
                    why = f" ({self.event(self.abandoned).data.get('reason', '')})"
                except EarlierNotHeld:  # resumed after it with no loader: the refusal without its reason
                    why = ""
                raise IllegalEvent(f"the match was abandoned at #{self.abandoned}{why}; only notes and a "
                                   "referee's rewind are accepted")
            state = self.game.apply(self.state, event)
        events, states = self._held_lists()
        events.append(event)
        states.append(state)
        return self._with(events, states, self._n + 1, superseded, abandons)

    def _check_resolves(self, seq: Any) -> None:
        """A note's `resolves`: the seq of an earlier note that asked for a correction."""
        if not (is_int(seq) and 1 <= seq <= self._n):
            raise IllegalEvent(f"note: resolves must be the seq of an earlier correction request, 1..{self._n}")
        asked = self.event(seq)
        if asked.type != "note" or asked.data.get("correction") is not True:
            raise IllegalEvent(f"note: resolves names #{seq}, which is not a correction request")

    def _check_abandon(self, event: Event) -> None:
        reason = event.data.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise IllegalEvent("match_abandoned: give the reason (a string): the players left, the hall closed…")
        if self.abandoned:
            raise IllegalEvent(f"match_abandoned: the match was abandoned already, at #{self.abandoned}")
        if self.finished:
            raise IllegalEvent("match_abandoned: the match is finished; a finished match keeps its result")

    def _held_lists(self) -> tuple[list[Event], list[S]]:
        """The lists to append this fold's next event and state to: its own, unless an older fold is being
        extended a second way (the lists then hold later seqs of another branch), when they are copied."""
        events, states = self._events, self._states
        held = self._n - self._base + 1
        if len(events) != held:
            return events[:held], states[:held]
        return events, states

    def _with(self, events: list[Event], states: list[S], n: int, superseded: Mapping[int, int],
              abandons: tuple[int, ...] | None = None) -> Fold[S]:
        """This match's fold holding `events` and `states` up to seq `n`."""
        new: Fold[S] = _new(Fold)
        new.game, new.players, new._base, new._start, new._earlier = (
            self.game, self.players, self._base, self._start, self._earlier)
        new.abandons = self.abandons if abandons is None else abandons
        new._events, new._states, new._n, new.superseded_by = events, states, n, superseded
        return new

    def extend(self, events: Iterable[Event]) -> Fold[S]:
        """The fold with `events` appended in order, or the first one's IllegalEvent; `self` is never changed.

        The same as `apply` event by event, with no Fold built for the states in between."""
        own, states = self._held_lists()
        n, superseded, state, abandons = self._n, self.superseded_by, states[-1], self.abandons
        game = self.game
        if after_start(game.name):  # asked once per batch: no game has an upcaster after match_started today
            events = upcast_all(game.name, events)
        handlers, finished = game.handlers, game.is_finished
        for event in events:
            seq, t, data = event
            # `apply`'s test and `Game.apply`'s guards: the usual game event is applied here, anything else by
            # `apply` itself, which refuses it or takes a shared event. A handler is found only for a game's
            # own types (never a shared one: tests/games/test_game_contract.py), so `t` is then a non-empty string.
            handler = handlers.get(t) if type(t) is str else None
            if handler is not None and seq == n + 1 and type(data) is dict and not finished(state) and not abandons:
                state = handler(state, data)
                own.append(event)
                states.append(state)
                n += 1
            else:
                fold = self._with(own, states, n, superseded, abandons).apply(event)
                own, states, n, superseded = fold._events, fold._states, fold._n, fold.superseded_by
                abandons, state = fold.abandons, states[-1]
        return self._with(own, states, n, superseded, abandons)

    def run(self, events: Sequence[Event], marks: Container[int] = ()) -> tuple[Fold[S], dict[int, Fold[S]]]:
        """`extend` for a log that is checked once and stored (an import): the fold after the last event, and
        the fold at each seq in `marks` that it reaches, each holding only its own state, as if resumed there
        from a snapshot (with no `earlier` loader). The states in between are not kept: nobody replays them
        before the log is stored. A log holding more than the game's own events in order (a note, a rewind) is
        folded by `extend` instead, which keeps every state; the marks are then that fold's."""
        game = self.game
        todo = list(upcast_all(game.name, events)) if after_start(game.name) else events
        handlers, finished = game.handlers, game.is_finished
        n, state, last = self._n, self.state, self.event(self._n)
        kept: dict[int, Fold[S]] = {n: self} if n in marks else {}
        for event in todo:
            seq, t, data = event  # `extend`'s short path, with nothing kept but the marks
            handler = handlers.get(t) if type(t) is str else None
            if handler is None or seq != n + 1 or type(data) is not dict or finished(state):
                whole = self.extend(events)
                return whole, {m: whole.at(m) for m in range(self._n, whole.seq + 1) if m in marks}
            state = handler(state, data)
            n, last = seq, event
            if n in marks:
                kept[n] = self._alone(last, state)
        return (self if n == self._n else self._alone(last, state)), kept

    def _alone(self, event: Event, state: S) -> Fold[S]:
        """This match's fold right after `event`, holding only `state` (`resume`'s shape, without a loader)."""
        return Fold(self.game, self.players, [event], [state], event.seq, dict(self.superseded_by), base=event.seq,
                    start=self._start, abandons=self.abandons)

    def at(self, seq: int) -> Fold[S]:
        """The fold as it was when event `seq` had just been recorded."""
        self._check_seq(seq)
        if seq < self._base:
            return self._before().at(seq)
        superseded = {s: r for s, r in self.superseded_by.items() if r <= seq}
        return Fold(self.game, self.players, self._events, self._states, seq, superseded, base=self._base,
                    start=self._start, earlier=self._earlier, abandons=tuple(a for a in self.abandons if a <= seq))

    def describe(self, seq: int) -> Annotation:
        e = self.event(seq)
        if e.type == "match_started":
            names = ", ".join(name for _, name in self.players)
            return Annotation(f"{self.game.descriptor.title} match started: {names}")
        if e.type == "note":
            about = e.data.get("about_seq")
            return Annotation(f"note{f' on #{about}' if about else ''}: {e.data.get('text', '')}")
        if e.type == "bag_revealed":
            return Annotation(f"the bag's seed revealed: {str(e.data.get('seed'))[:12]}… (every draw can be checked)")
        if e.type == "rewind":
            return Annotation(f"rewind to #{e.data['to_seq']}: {e.data.get('reason', '')}", tags=("rewind",))
        if e.type == "match_abandoned":
            return Annotation(f"match abandoned: {e.data.get('reason', '')}", tags=("abandoned",))
        return self.game.describe(self._state(seq - 1), e, self._state(seq))

    def marks(self, seq: int) -> Mark:
        """`describe(seq)`'s player and tags, without its words (what the statistics count)."""
        e = self.event(seq)
        if e.type in COMMON_EVENT_TYPES:
            note = self.describe(seq)
            return note.player, note.tags
        return self.game.marks_of(self._state(seq - 1), e, self._state(seq))

    def points(self, seq: int) -> dict[str, int]:
        """Points each player gained (or lost) with event `seq`."""
        after = self.game.scores(self.state_at(seq)).totals
        if seq == 1:
            return {p: v for p, v in after.items() if v}
        before = self.game.scores(self.state_at(seq - 1)).totals
        return {p: after[p] - before.get(p, 0) for p in after if after[p] != before.get(p, 0)}


def _rules_of(start: Event) -> Game[Any]:
    """The Game of the rules version `start` (match_started) names, read through its upcasters (no version: 1).

    Chosen once per match: the fold then calls that version's handlers with no lookup per event. The fold
    keeps match_started as stored (what the statistics fingerprint and the event lists show): its version is
    `fold.game.rules_version`."""
    game = get_game(start.data.get("game"))
    return game.version(upcast(game.name, start).data.get("rules_version"))


def _refuse(problem: str | None) -> None:
    if problem is not None:
        raise IllegalEvent(problem)


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
    if "correction" in event.data and type(event.data["correction"]) is not bool:
        raise IllegalEvent("note: correction must be true or false")


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
    return fold(_tuple(Event, (i, line.get("type", ""), line.get("data", {}))) for i, line in enumerate(lines, start=1))
