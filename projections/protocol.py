"""What a game is: one `Game` object, a descriptor (everything the rest of the project needs to know about
it) and the functions the log machinery (`timeline.py`), the committed bag (`bag.py`) and hindsight
(`hindsight.py`) call.

A game package (`projections/games/<game>/`) builds its `Game` from its modules with `Game.from_modules`:
`rules` provides `start`, the event handlers and the scores, `moves` the legal moves, `view` the
descriptions and the state JSON, `player` the seeded random player, `notation` the scorepad's lines, `bag`
the draws from a committed bag, `hindsight` what the game's hands hide. `Game.apply` applies the guards
every game shares (the match is finished, the type is unknown, the data is not an object) once, then
dispatches to the game's handler for the event type, the way boardgame.io dispatches through its `moves` map.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import ModuleType
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from pydantic import BaseModel

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import COMMON_EVENT_TYPES, Event
from projections.options import Option

S = TypeVar("S")
DataModel = type[BaseModel]  # spelled once here: inside EventSpec, `type` is a field


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


# What `describe` says of an event without its words: who acted and its tags (what the statistics count).
Mark = tuple[str | None, tuple[str, ...]]


@dataclass(frozen=True)
class Hidden:
    """A field of an event's data that not everyone at the table sees (a drawn tile, a dealt hand).

    `path` names the field; `"hands.*"` means every value of the mapping `hands`. `owner` says who
    sees it: `"player"` — the player the event's `player` field names; `"key"` — for a mapping, the
    player whose id is the key. Everyone else sees it only once the match is finished.
    """

    path: str
    owner: str = "player"


@dataclass(frozen=True)
class EventSpec:
    """One event type of a game: the typed model of its `data`, in words, with an example."""

    type: str
    data: DataModel  # extra="forbid": a misspelled field is named, not ignored
    summary: str
    example: dict[str, Any]
    hidden: tuple[Hidden, ...] = ()
    turn: bool = False  # the event makes a turn for the statistics (a placement, a play, a pass …)


@dataclass(frozen=True)
class Descriptor:
    """Everything the store, the API, the statistics and the dashboard need to know about a game."""

    name: str  # as recorded in match_started: "tri-ominos"
    title: str  # as people write it: "Tri-Ominos"
    min_players: int
    max_players: int
    options: Mapping[str, Option]
    events: tuple[EventSpec, ...]
    # Bytes one held state of a fold takes (the event and the state, with what persistent states share): the
    # fold cache's bound counts each of a fold's states at this (recorder/store/fold_cache.py). Measured with
    # tracemalloc over folds of long random matches and rounded up; bench/cache.py measures it again.
    state_bytes: int
    # Annotation tags: bonuses and captures (the replay's "next bonus", the statistics), penalties,
    # and every tag the statistics page counts per player, with its label.
    bonus_tags: tuple[str, ...] = ()
    penalty_tags: tuple[str, ...] = ()
    counted_tags: tuple[str, ...] = ()
    tag_labels: Mapping[str, str] = field(default_factory=dict)
    # Tags whose value (`capture:3`) the statistics chart by points instead of counting.
    valued_tags: tuple[str, ...] = ()
    # The key of the state JSON that names the player who began the match, and the one who acts next.
    first_player_key: str | None = None
    to_move_key: str | None = None
    # Paths in the state JSON private to one player ("players.*.hand": each player's own hand).
    hidden_state: tuple[str, ...] = ()

    @cached_property  # asked for by every event an append checks: worked out once (the descriptor is frozen)
    def event_types(self) -> frozenset[str]:
        return frozenset(spec.type for spec in self.events)

    def event(self, type: str) -> EventSpec:
        for spec in self.events:
            if spec.type == type:
                return spec
        raise KeyError(type)

    @property
    def turn_events(self) -> frozenset[str]:
        return frozenset(spec.type for spec in self.events if spec.turn)

    @property
    def has_hidden_information(self) -> bool:
        return bool(self.hidden_state) or any(spec.hidden for spec in self.events)

    def is_bonus(self, tags: tuple[str, ...] | list[str]) -> bool:
        return any(t.split(":", 1)[0] in self.bonus_tags for t in tags)


@dataclass(frozen=True)
class PadStep:
    """One choice on the scorepad's point-and-click path to a legal move (docs/scorepad.md).

    The pad shows the choices of the first step of every legal move, then, once one is picked, those
    of the next step among the moves that remain, until one move is left.
    """

    kind: str  # "action" (a button), "hand" (a tile or hat in hand), "board" (a place: clickable on the board too),
    # "option" (a rotation, an orientation, a capture …)
    value: str  # what is chosen, unique among the choices of its step ("-1,0", "T08", "ann9")
    label: str  # what the button says


Handler = Callable[[S, Mapping[str, Any]], S]  # (state, event data) -> the new state, or IllegalEvent


@dataclass(frozen=True)
class RulesVersion:
    """One published version of a game's rules (docs/FORMAT.md, "Versions and upcasters").

    A match plays the version its match_started names (`rules_version`; none means 1) for ever: a rule
    change is a new version beside the old ones, so replaying an old match never changes its result."""

    number: int  # 1, 2, 3 … in the order published
    summary: str  # what this version changed, in the table's words


FIRST_RULES = RulesVersion(1, "the rules as first published")


class Draw(NamedTuple):
    """What an event takes from a committed bag (projections/bag.py): `n` tiles, with `in_bag` tiles in it at that
    moment (after any that go back first); `content` lists those tiles in the set's order (asked only to reshuffle)."""

    n: int
    in_bag: int
    content: Callable[[], list[str]]


class Rule(NamedTuple):
    """How one event type draws from a committed bag: how many tiles in a state (`draw`), the tiles its data
    writes, the data filled."""

    draw: Callable[[Any, Mapping[str, Any]], Draw | None]  # None: this event cannot draw in this state
    written: Callable[[Any, Mapping[str, Any], int], list[Any] | None]  # the tiles written (None: left out)
    filled: Callable[[Any, Mapping[str, Any], tuple[str | None, ...]], dict[str, Any]]


class Flow(NamedTuple):
    """What one event does to a player's hidden slots: tiles it reveals from them (placed, returned, shown),
    hidden tiles it adds (drawn unseen, after any reveal of the same event), and whether it starts a round."""

    revealed: tuple[str, ...] = ()
    entered: int = 0
    new_round: bool = False


class Hindsight(Protocol):
    """What "could they have played?" (projections/hindsight.py) needs to know of a game's hands: a game's
    `hindsight` module (docs/ADDING_A_GAME.md)."""

    @property
    def NO_PLAY(self) -> frozenset[str]:
        """The events of a player who did not place: a draw, a pass, an exchange."""

    @property
    def PLACED(self) -> str:
        """The placement's event type."""

    @property
    def BONUS_TAGS(self) -> tuple[str, ...]:
        """Placement bonuses a player can miss."""

    @property
    def TAG_WORDS(self) -> Mapping[str, str]:
        """Each of `BONUS_TAGS` in words."""

    def held(self, state: Any, player: str) -> tuple[tuple[str, ...], int] | None:
        """The player's known tiles and hidden slots (None: no hand)."""

    def holding(self, state: Any, player: str, tiles: tuple[str, ...]) -> Any:
        """`state` with `tiles` taken out of the player's hidden slots."""

    def flow(self, before: Any, event: Event, player: str) -> Flow:
        """What `event` reveals of the player's hidden slots and adds to them."""

    def bonus_counts(self, state: Any) -> bool:
        """Whether a placement in `state` may score a placement bonus."""

    def as_table(self, state: Any, sees: Callable[[str], bool]) -> Any:
        """`state` with the hands of the players `sees` refuses turned face down."""


class RandomMatch(Protocol):
    def __call__(
        self, rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]: ...


def _no_extras(_: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def _no_notation(event: Mapping[str, Any]) -> str:
    raise NotImplementedError("this game has no scorepad notation yet")


def _no_parse(state: Any, text: str) -> dict[str, Any]:
    raise IllegalEvent("this game has no scorepad notation yet")


def _no_path(move: Mapping[str, Any]) -> tuple[PadStep, ...]:
    return ()


def _no_templates(state: Any) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True, eq=False)
class Game(Generic[S]):
    descriptor: Descriptor
    start: Callable[[Mapping[str, Any]], S]  # state from match_started data; players and options checked
    handlers: Mapping[str, Handler[S]]  # event type -> handler; never mutates the state it is given
    is_finished: Callable[[S], bool]
    scores: Callable[[S], ScoreSheet]
    to_json: Callable[[S], dict[str, Any]]  # the state as plain JSON (GET /state, the boards)
    legal_moves: Callable[[S, str], list[dict[str, Any]]]  # every legal next event for a player's known tiles
    describe: Callable[[S, Event, S], Annotation]  # (before, event, after)
    # A complete legal match log (import form: type and data), played by a seeded random player.
    random_match: RandomMatch
    # The events that draw from a committed bag, by type (projections/bag.py); none for a game without a bag.
    draws: Mapping[str, Rule]
    # What the game's hands hide, for "could they have played?" (projections/hindsight.py).
    hindsight: Hindsight
    # What a board needs besides the state JSON, from match_started's data (tile values, dot patterns).
    board_extras: Callable[[Mapping[str, Any]], dict[str, Any]] = _no_extras
    # The scorepad's one-line notation (docs/scorepad.md): an event ({type, data}) as a line, and a line
    # typed at the table read back into the event, in the state it is typed in (IllegalEvent with what
    # was not understood). parse_notation(s, notation(e)) == e for every event of the game.
    notation: Callable[[Mapping[str, Any]], str] = _no_notation
    parse_notation: Callable[[S, str], dict[str, Any]] = _no_parse
    # The point-and-click path to a legal move (as legal_moves gives it).
    pad_path: Callable[[Mapping[str, Any]], tuple[PadStep, ...]] = _no_path
    # The pad's line templates in a state: (label, line prefix) for events typed with tiles read off the table.
    pad_templates: Callable[[S], list[tuple[str, str]]] = _no_templates
    # `scores(state).totals` without the rounds, where the game has its own way to them (None: read off `scores`).
    totals: Callable[[S], Mapping[str, int]] | None = None
    # `describe`'s player and tags without its words, where the game has its own way to them (None: read
    # off `describe`). The statistics read only these, for every move of every match.
    marks: Callable[[S, Event, S], Mark] | None = None
    # The rules version this Game plays, and every version published before it (each a whole Game, oldest
    # first): the registry holds the current version, and a fold takes the one its match_started names.
    rules: RulesVersion = FIRST_RULES
    earlier_versions: tuple[Game[S], ...] = ()

    @classmethod
    def from_modules(
        cls,
        *,
        rules: ModuleType,
        events: ModuleType,
        moves: ModuleType,
        view: ModuleType,
        player: ModuleType,
        bag: ModuleType,
        hindsight: Hindsight,
        notation: ModuleType | None = None,
        **about: Any,
    ) -> Game[Any]:
        """The game a package's modules make (docs/ADDING_A_GAME.md).

        `rules`: NAME, MIN_PLAYERS, MAX_PLAYERS, OPTIONS, `start`, HANDLERS, `is_finished`, `scores` (and `totals`
        where it has its own way to them); `events`: EVENTS; `moves`: `legal_moves`; `view`: `to_json`, `describe`
        (and `marks`, `board_extras` where it has them); `player`: `random_match`; `bag`: DRAWS; `hindsight`: the
        `Hindsight` names; `notation`: `to_notation`, `parse`, `pad_path`, `templates`. `about`: the rest of the
        descriptor (title, tags, state keys, hidden state, state_bytes).
        """
        descriptor = Descriptor(
            name=rules.NAME, min_players=rules.MIN_PLAYERS, max_players=rules.MAX_PLAYERS, options=rules.OPTIONS,
            events=events.EVENTS, **about,
        )
        pad: dict[str, Any] = {}
        if notation is not None:
            pad = {"notation": notation.to_notation, "parse_notation": notation.parse,
                   "pad_path": notation.pad_path, "pad_templates": notation.templates}
        return cls(
            descriptor=descriptor,
            start=rules.start,
            handlers=rules.HANDLERS,
            is_finished=rules.is_finished,
            scores=rules.scores,
            totals=getattr(rules, "totals", None),
            to_json=view.to_json,
            describe=view.describe,
            marks=getattr(view, "marks", None),
            board_extras=getattr(view, "board_extras", _no_extras),
            legal_moves=moves.legal_moves,
            random_match=player.random_match,
            draws=bag.DRAWS,
            hindsight=hindsight,
            **pad,
        )

    def totals_of(self, state: S) -> Mapping[str, int]:
        """Each player's total in `state`."""
        return self.totals(state) if self.totals is not None else self.scores(state).totals

    def marks_of(self, before: S, event: Event, after: S) -> Mark:
        """Who acted in `event` and its tags: what `describe` says, without the words."""
        if self.marks is not None:
            return self.marks(before, event, after)
        note = self.describe(before, event, after)
        return note.player, note.tags

    def __post_init__(self) -> None:
        if set(self.handlers) != self.descriptor.event_types:
            raise ValueError(f"{self.descriptor.name}: handlers and event schemas name different event types")
        numbers = [g.rules.number for g in self.earlier_versions] + [self.rules.number]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"{self.descriptor.name}: rules versions must be published as 1, 2, 3 …, not {numbers}")

    @property
    def rules_version(self) -> int:
        """The number of the rules version this Game plays (the registry's Game: the current one)."""
        return self.rules.number

    @property
    def published(self) -> dict[int, Game[S]]:
        """Every published rules version up to this one: number -> the Game that plays it."""
        return {**{g.rules.number: g for g in self.earlier_versions}, self.rules.number: self}

    def version(self, number: object) -> Game[S]:
        """The Game that plays rules version `number`, or IllegalEvent naming the published ones."""
        for g in (self, *self.earlier_versions):
            if g.rules.number == number and type(number) is int:
                return g
        published = ", ".join(str(n) for n in self.published)
        raise IllegalEvent(
            f"match_started: {self.name} has no rules version {number!r}; published: {published} "
            f"(current {self.rules.number})"
        )

    def next_version(self, summary: str, **changes: Any) -> Game[S]:
        """This game with a new rules version published after this one: `changes` are the Game's fields the
        new version replaces (handlers, scores …); this version stays playable as an earlier one."""
        number = self.rules.number + 1
        return replace(self, rules=RulesVersion(number, summary), earlier_versions=(*self.earlier_versions, self),
                       **changes)

    @property
    def name(self) -> str:
        return self.descriptor.name

    @property
    def event_types(self) -> frozenset[str]:
        return self.descriptor.event_types

    def apply(self, state: S, event: Event) -> S:
        """The state after `event`, or IllegalEvent; `state` is never changed.

        The guards every game shares live here, once: the game's handlers may assume an unfinished
        match, a type they handle and data that is a JSON object.
        """
        handler = self.handlers.get(event.type)
        if handler is None:
            raise UnknownEventType(
                f"unknown event type {event.type!r} for {self.name}; known: "
                + ", ".join(sorted(COMMON_EVENT_TYPES | self.event_types))
            )
        data = event.data
        if type(data) is not dict and not isinstance(data, Mapping):
            raise IllegalEvent(f"{event.type}: data must be a JSON object")
        if self.is_finished(state):
            raise IllegalEvent("the match is finished; only notes and rewinds are accepted")
        return handler(state, data)
