"""Hi-Spot hindsight (projections/hindsight.py): how a rack's hidden slots come to light, for the missed
placements — an exchange (`tiles_exchanged`, the game's "cannot play") while a held tile fitted a stack.

A rack is its known tiles and a count of hidden ones (`rules.Rack`). A hidden slot is revealed when its
player places a tile not known in the rack, returns one by name in an exchange, or `racks_revealed` lists
the rack; a tile drawn unseen adds a hidden slot (an exchange's draw comes after its returns);
`round_started` begins new racks. Ending a turn while a tile could still be placed is the player's choice
(docs/rules/hi-spot.md), not a miss; Hi-Spot has no bonus to miss.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.events import Event
from projections.games.hi_spot.rules import State, tiles_held
from projections.hindsight import NOTHING
from projections.persistent import evolve
from projections.protocol import Flow

NO_PLAY = frozenset({"tiles_exchanged"})
PLACED = "tile_placed"
BONUS_TAGS: tuple[str, ...] = ()
TAG_WORDS: Mapping[str, str] = {}


def _seat(state: State, player: str) -> int | None:
    return next((i for i, p in enumerate(state.players) if p.id == player), None)


def held(state: State, player: str) -> tuple[tuple[str, ...], int] | None:
    seat = _seat(state, player)
    if seat is None or seat >= len(state.racks):
        return None
    rack = state.racks[seat]
    return rack[0], rack[1]


def holding(state: State, player: str, tiles: tuple[str, ...]) -> State:
    """`state` with `tiles` (as many hidden slots) known in the player's rack."""
    seat = _seat(state, player)
    assert seat is not None
    rack = state.racks[seat]
    assert rack[1] >= len(tiles)
    racks = list(state.racks)
    racks[seat] = (rack[0] + tiles, rack[1] - len(tiles))
    return evolve(state, racks=tuple(racks))


def bonus_counts(state: State) -> bool:
    return False


def _named(values: Any, known: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(t for t in values or () if isinstance(t, str) and t not in known)


def flow(before: State, event: Event, player: str) -> Flow:
    data: Mapping[str, Any] = event.data
    if event.type == "round_started":
        return Flow(new_round=True)
    own = data.get("player") == player
    hand = held(before, player)
    known = hand[0] if hand is not None else ()
    if own and event.type == "tiles_drawn":
        return Flow(entered=sum(1 for t in data.get("tiles") or () if t is None))
    if own and event.type == "tile_placed":
        return Flow(revealed=_named([data.get("tile")], known))
    if own and event.type == "tiles_exchanged":
        return Flow(revealed=_named(data.get("returned"), known),
                    entered=sum(1 for t in data.get("drawn") or () if t is None))
    if event.type == "racks_revealed":
        return Flow(revealed=_named((data.get("racks") or {}).get(player), known))
    return NOTHING


def as_table(state: State, sees: Callable[[str], bool]) -> State:
    """`state` with the racks of the players `sees` refuses turned face down: their tiles become hidden slots
    and no longer count as located (recorder/legal.py)."""
    racks, unlocated = [], 0
    for p, rack in zip(state.players, state.racks, strict=False):
        if sees(p.id):
            racks.append(rack)
            continue
        for t in rack[0]:
            unlocated |= state.tiles.bits[t]
        racks.append(((), tiles_held(rack)))
    return evolve(state, racks=tuple(racks), located_bits=state.located_bits & ~unlocated)
