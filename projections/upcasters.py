"""Named upcasters: each turns a stored event's data from an old shape into the shape the code reads now.

A stored event is never rewritten (its hash is over what is stored); an upcaster is applied when the event is
read for folding, so the reducers, the descriptions and the state JSON see one shape only. Each upcaster is a
pure, documented function keyed by (game or "*" for every game, event type, schema version it reads); it
returns the data of the next schema version. The chain of a type runs in version order.

The format has no schema-version field: a version is recognised by its shape (`reads`), which is why a
changed event keeps its shapes distinguishable — a new field name, never a new meaning for an old one.
docs/FORMAT.md, "Versions and upcasters", lists every upcaster registered here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from projections.events import Event

Data = Mapping[str, Any]


@dataclass(frozen=True)
class Upcaster:
    name: str
    game: str  # a game's name, or "*": every game
    type: str  # the event type
    version: int  # the schema version it reads; it returns version + 1
    reads: Callable[[Data], bool]  # whether data has this version's shape
    upcast: Callable[[Data], dict[str, Any]]  # the data in the next version's shape; never changes its argument
    doc: str  # what changed, for FORMAT.md's table


def _without_rules_version(data: Data) -> bool:
    return "rules_version" not in data


def match_started_rules_version_1(data: Data) -> dict[str, Any]:
    """match_started recorded without a rules version played the first published rules."""
    return {**data, "rules_version": 1}


UPCASTERS: tuple[Upcaster, ...] = (
    Upcaster(
        "match_started_rules_version_1", "*", "match_started", 1, _without_rules_version,
        match_started_rules_version_1,
        "match_started without `rules_version` (every match recorded before rules versions) → `rules_version: 1`",
    ),
)

# (game or "*", type) -> its upcasters in version order; changed only by `registered` (tests)
_chains: dict[tuple[str, str], tuple[Upcaster, ...]] = {}
# game -> (type -> its whole chain, the "*" ones first): what a fold asks once per batch of events
_by_game: dict[str, dict[str, tuple[Upcaster, ...]]] = {}
_after_start: dict[str, dict[str, tuple[Upcaster, ...]]] = {}


def _index(upcasters: tuple[Upcaster, ...]) -> None:
    _chains.clear()
    _by_game.clear()
    _after_start.clear()
    for u in sorted(upcasters, key=lambda u: u.version):
        _chains[u.game, u.type] = (*_chains.get((u.game, u.type), ()), u)


_index(UPCASTERS)
_registered: tuple[Upcaster, ...] = UPCASTERS


def chains_of(game: str) -> Mapping[str, tuple[Upcaster, ...]]:
    """Type -> the upcasters that may apply to `game`'s events of that type."""
    found = _by_game.get(game)
    if found is None:
        found = {}
        for (g, t), chain in _chains.items():
            if g in ("*", game):
                found[t] = tuple(sorted((*found.get(t, ()), *chain), key=lambda u: u.version))
        _by_game[game] = found
    return found


def after_start(game: str) -> Mapping[str, tuple[Upcaster, ...]]:
    """`chains_of(game)` without match_started's (which `Fold.begin` upcasts): empty for every game today, so a
    fold asks once per batch and leaves its events alone."""
    found = _after_start.get(game)
    if found is None:
        found = {t: c for t, c in chains_of(game).items() if t != "match_started"}
        _after_start[game] = found
    return found


def upcast_data(chain: tuple[Upcaster, ...], data: Data) -> Data:
    """`data` through every upcaster of `chain` whose version it has, in order."""
    for u in chain:
        if u.reads(data):
            data = u.upcast(data)
    return data


def upcast(game: str, event: Event) -> Event:
    """`event` in the current shape of its type (itself when no upcaster applies). `game` may be "*"."""
    chain = chains_of(game).get(event.type)
    if not chain or type(event.data) is not dict:
        return event
    data = upcast_data(chain, event.data)
    return event if data is event.data else Event(event.seq, event.type, dict(data))


def upcast_all(game: str, events: Iterable[Event]) -> Iterator[Event]:
    """`events` after match_started, each upcast; the caller asks `after_start(game)` first and skips this
    when it is empty."""
    chains = after_start(game)
    for event in events:
        chain = chains.get(event.type)
        if chain and type(event.data) is dict:
            data = upcast_data(chain, event.data)
            if data is not event.data:
                event = Event(event.seq, event.type, dict(data))
        yield event


@contextlib.contextmanager
def registered(*upcasters: Upcaster) -> Iterator[None]:
    """`upcasters` registered beside the published ones while the block runs (a test's own upcasters)."""
    global _registered
    before = _registered
    _registered = (*before, *upcasters)
    _index(_registered)
    try:
        yield
    finally:
        _registered = before
        _index(before)
