"""A committed digital bag (docs/FORMAT.md, "A committed bag"): the pure part.

A match started with `bag: "committed"` is dealt by the server from shuffles of the set that a secret
seed determines; match_started records only `bag_commitment`, the SHA-256 of the seed, and the seed is
revealed (`bag_revealed`) when the match ends, so anyone can re-derive every draw. This module is what
both sides need and another implementation can redo from FORMAT.md:

- the shuffle: Fisher–Yates driven by SHA-256(seed ‖ shuffle number ‖ block number), `shuffled`;
- which events draw how many tiles from which tiles: each game's `draws` (its package's bag.py, `DRAWS`), with
  its set taken from its tiles module (Hi-Spot: the match's tile set);
- the bag as a value (`Bag`): the current shuffle and how much of it is drawn. Before each draw, when the
  tiles the rules have in the bag are not exactly those left in the shuffle (a new round or game put every
  tile back, an exchange or a cleared stack returned some), the bag's tiles are shuffled again with the
  next shuffle number. A rewind puts the bag back as it was after the event rewound to, so the tiles drawn
  in the superseded events come out again in the same order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from projections.errors import IllegalEvent
from projections.events import Event
from projections.protocol import Rule
from projections.registry import GAME_NAMES, all_games, get_game

COMMITTED = "committed"
SEED_BYTES = 32
_HEX64 = re.compile(r"[0-9a-f]{64}")


def commitment(seed: bytes) -> str:
    """What match_started records of a seed: its SHA-256, lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def is_committed(start: Mapping[str, Any]) -> bool:
    """Whether match_started's data commits the match to a bag."""
    return "bag_commitment" in start


def start_problem(game: str, start: Mapping[str, Any]) -> str | None:
    """Why match_started's `bag` and `bag_commitment` cannot stand, or None."""
    bag, commit = start.get("bag"), start.get("bag_commitment")
    if bag is None:
        return None if commit is None else "match_started: bag_commitment comes only with bag \"committed\""
    if bag != COMMITTED:
        return f"match_started: bag must be \"committed\" (the server deals from a committed shuffle), not {bag!r}"
    if game not in games_with_a_bag():
        with_bag = ", ".join(sorted(games_with_a_bag()))
        return f"match_started: {game} draws nothing from a bag, so bag \"committed\" does not apply ({with_bag} do)"
    if not (isinstance(commit, str) and _HEX64.fullmatch(commit)):
        return "match_started: bag_commitment must be the SHA-256 of the bag's seed, 64 lowercase hex digits"
    return None


def reveal_problem(start: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    """Why a `bag_revealed` event cannot follow this match_started, or None: the seed must be the one
    the match committed to."""
    if not is_committed(start):
        return "bag_revealed: this match was not started with a committed bag"
    seed = data.get("seed")
    if not (isinstance(seed, str) and _HEX64.fullmatch(seed)):
        return "bag_revealed: seed must be the bag's 32-byte seed, 64 lowercase hex digits"
    got = commitment(bytes.fromhex(seed))
    if got != start["bag_commitment"]:
        return f"bag_revealed: the seed's SHA-256 is {got}, not the bag_commitment recorded at match_started"
    return None


# -- the shuffle ---------------------------------------------------------------------------------------


def _numbers(seed: bytes, number: int) -> Iterator[int]:
    """Shuffle `number`'s random stream: SHA-256(seed ‖ number ‖ block), number and block as 4-byte
    big-endian, block 0, 1, 2 …, each digest read as four 8-byte big-endian unsigned integers."""
    block = 0
    while True:
        digest = hashlib.sha256(seed + number.to_bytes(4, "big") + block.to_bytes(4, "big")).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(digest[i : i + 8], "big")
        block += 1


def _below(m: int, numbers: Iterator[int]) -> int:
    """A uniform integer in 0..m-1: the next number below the largest multiple of m under 2^64, mod m."""
    limit = (1 << 64) - (1 << 64) % m
    for x in numbers:
        if x < limit:
            return x % m
    raise AssertionError("the stream is endless")


def shuffled(tiles: Sequence[str], seed: bytes, number: int) -> tuple[str, ...]:
    """`tiles` (in the set's order) shuffled by Fisher–Yates: for i from n-1 down to 1, swap i with a
    uniform j in 0..i. The draw order is the result's, first to last."""
    out = list(tiles)
    numbers = _numbers(seed, number)
    for i in range(len(out) - 1, 0, -1):
        j = _below(i + 1, numbers)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


# -- the bag -------------------------------------------------------------------------------------------


class Bag(NamedTuple):
    """The bag as a value: the current shuffle, how many of it are drawn, how many shuffles were made."""

    order: tuple[str, ...] = ()
    taken: int = 0
    shuffles: int = 0

    @property
    def left(self) -> int:
        return len(self.order) - self.taken


class Dealt(NamedTuple):
    """An event dealt from the bag: its data with the drawn tiles written in, the tiles in the order
    drawn, and the bag after it."""

    data: dict[str, Any]
    tiles: tuple[str, ...]
    bag: Bag


class NotFromBag(IllegalEvent):
    """A tile in a draw that is not the one the committed bag deals there (`place`: its place in the draw)."""

    def __init__(self, type: str, found: Any, expected: str | None, place: int) -> None:
        super().__init__(f"{type} draws {found} where the committed bag deals {expected}")
        self.expected, self.found, self.place = expected, found, place


def list_of(value: Any, count: int) -> list[Any] | None:
    """A draw's list as written: absent is `count` tiles left out; a list must have `count` places."""
    if value is None:
        return [None] * count
    return list(value) if type(value) is list and len(value) == count else None


def minus(tiles: Sequence[str], out: set[str]) -> list[str]:
    return [t for t in tiles if t not in out]


def _draws(game: str) -> Mapping[str, Rule]:
    """The events of `game` that draw from the bag (none for a game Scorebook does not know)."""
    return get_game(game).draws if game in GAME_NAMES else {}


def games_with_a_bag() -> frozenset[str]:
    return frozenset(g.name for g in all_games() if g.draws)


def drawing_types() -> frozenset[str]:
    """Every event type that draws from the bag in some game."""
    return frozenset(t for g in all_games() for t in g.draws)


def draws(game: str, type: str) -> bool:
    """Whether events of `type` draw from the bag in `game`."""
    return type in _draws(game)


def deal(game: str, state: Any, type: str, data: Mapping[str, Any], bag: Bag, seed: bytes) -> Dealt | None:
    """The event `type`/`data`, recorded in `state`, dealt from `bag`: its data with the tiles it draws
    written in (where the data left them out or null), or None when it draws nothing (in this state).

    NotFromBag for a tile written that is not the bag's; IllegalEvent when the data has no place for the
    tiles (a list of another length)."""
    rule = _draws(game).get(type)
    draw = rule.draw(state, data) if rule is not None else None
    if rule is None or draw is None:
        return None
    written = rule.written(state, data, draw.n)
    if written is None or len(written) != draw.n:
        raise IllegalEvent(
            f"{type}: the server deals this match's draws from its committed bag: leave the tiles out or write "
            f"null for each of the {draw.n} drawn"
        )
    if draw.in_bag != bag.left:  # tiles went back into the bag (or a new pass began): shuffle what is in it
        content = draw.content()
        if len(content) != draw.in_bag:
            raise IllegalEvent(f"{type}: the bag holds {draw.in_bag} tiles, but the rules place all but {len(content)}")
        bag = Bag(shuffled(content, seed, bag.shuffles), 0, bag.shuffles + 1)
    take = min(draw.n, bag.left)
    tiles = bag.order[bag.taken : bag.taken + take]
    for place, (found, expected) in enumerate(zip(written, (*tiles, *[None] * (draw.n - take)), strict=True)):
        if found is not None and found != expected:
            raise NotFromBag(type, found, expected, place)
    dealt: tuple[str | None, ...] = (*tiles, *[None] * (draw.n - take))  # an empty bag: the rules refuse
    return Dealt(rule.filled(state, data, dealt), tiles, Bag(bag.order, bag.taken + take, bag.shuffles))


def written(game: str, state: Any, type: str, data: Mapping[str, Any]) -> list[Any]:
    """The tiles `data` writes in the places of the draw it makes in `state` (none when it draws nothing)."""
    rule = _draws(game).get(type)
    draw = rule.draw(state, data) if rule is not None else None
    if rule is None or draw is None:
        return []
    return [t for t in rule.written(state, data, draw.n) or () if t is not None]


def retried_as(type: str, asked: Any, stored: Any) -> bool:
    """Whether an event the client sent (`asked`) is the one stored once the server dealt its draws: equal, or
    equal but for tiles the client left out or wrote null."""
    if asked == stored:
        return True
    if type not in drawing_types() or not isinstance(asked, dict) or not isinstance(stored, dict):
        return False
    return _within(asked, stored)


def _within(asked: Any, stored: Any) -> bool:
    if asked is None:
        return True
    if isinstance(asked, dict) and isinstance(stored, dict):
        return set(asked) <= set(stored) and all(_within(v, stored[k]) for k, v in asked.items())
    if isinstance(asked, list) and isinstance(stored, list):
        return len(asked) == len(stored) and all(_within(a, b) for a, b in zip(asked, stored, strict=True))
    return bool(asked == stored)


# -- checking a whole log ------------------------------------------------------------------------------


class Folded(Protocol):
    """What the check needs of a match's fold (projections.timeline.Fold)."""

    @property
    def seq(self) -> int: ...

    def event(self, seq: int) -> Event: ...

    def state_at(self, seq: int) -> Any: ...


def after(bags: Sequence[Bag], event: Event) -> Bag | None:
    """The bag after `event` when it draws nothing: `bags[s]` is the bag after seq s (`bags[0]` empty).
    A rewind puts back the bag of the seq it rewinds to. None for an event that may draw."""
    if event.type == "rewind":
        to = event.data.get("to_seq")
        return bags[to] if type(to) is int and 1 <= to < len(bags) else bags[-1]
    return None


class BagCheck(NamedTuple):
    """A committed match's draws checked against its revealed seed: ok, or the first seq that was not
    dealt from the bag and why; how many draws and tiles were checked."""

    ok: bool
    draws: int
    tiles: int
    seq: int | None = None
    reason: str | None = None


def check(fold: Folded, seed: bytes) -> BagCheck:
    """Every draw of the log dealt again from `seed`: each must hold exactly the tiles the bag deals."""
    game = fold.event(1).data["game"]
    bags = [Bag(), Bag()]
    n_draws = n_tiles = 0
    for seq in range(2, fold.seq + 1):
        event = fold.event(seq)
        bag = after(bags, event)
        if bag is None:
            state = fold.state_at(seq - 1)
            try:
                dealt = deal(game, state, event.type, event.data, bags[-1], seed)
            except IllegalEvent as e:  # NotFromBag among them
                return BagCheck(False, n_draws, n_tiles, seq, f"seq {seq}: {e.reason}")
            if dealt is None:
                if draws(game, event.type):
                    return BagCheck(False, n_draws, n_tiles, seq, f"seq {seq}: {event.type} could not be dealt here")
                bag = bags[-1]
            else:
                if dealt.data != event.data:
                    return BagCheck(False, n_draws, n_tiles, seq,
                                    f"seq {seq}: {event.type} leaves out tiles the committed bag deals "
                                    f"({', '.join(dealt.tiles)})")
                bag = dealt.bag
                n_draws, n_tiles = n_draws + 1, n_tiles + len(dealt.tiles)
        bags.append(bag)
    return BagCheck(True, n_draws, n_tiles)
