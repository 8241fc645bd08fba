"""A committed digital bag (docs/FORMAT.md, "A committed bag"): the pure part.

A match started with `bag: "committed"` is dealt by the server from shuffles of the set that a secret
seed determines; match_started records only `bag_commitment`, the SHA-256 of the seed, and the seed is
revealed (`bag_revealed`) when the match ends, so anyone can re-derive every draw. This module is what
both sides need and another implementation can redo from FORMAT.md:

- the shuffle: Fisher–Yates driven by SHA-256(seed ‖ shuffle number ‖ block number), `shuffled`;
- which events draw how many tiles from which tiles, per game (`_RULES`), with each game's set taken from
  its tiles module (Hi-Spot: the match's tile set);
- the bag as a value (`Bag`): the current shuffle and how much of it is drawn. Before each draw, when the
  tiles the rules have in the bag are not exactly those left in the shuffle (a new round or game put every
  tile back, an exchange or a cleared stack returned some), the bag's tiles are shuffled again with the
  next shuffle number. A rewind puts the bag back as it was after the event rewound to, so the tiles drawn
  in the superseded events come out again in the same order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hi_spot import rules as hs
from projections.games.high_five import rules as hf
from projections.games.high_five import tiles as hf_tiles
from projections.games.tri_ominos import rules as tri
from projections.games.tri_ominos.tiles import ALL_TILES as TRI_TILES

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
    if game not in _RULES:
        with_bag = ", ".join(sorted(_RULES))
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


class Draw(NamedTuple):
    """What an event takes from the bag: `n` tiles, with `in_bag` tiles in it at that moment (after
    any that go back first); `content` lists those tiles in the set's order (asked only to reshuffle)."""

    n: int
    in_bag: int
    content: Callable[[], list[str]]


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


class _Rule(NamedTuple):
    draw: Callable[[Any, Mapping[str, Any]], Draw | None]  # None: this event cannot draw in this state
    written: Callable[[Any, Mapping[str, Any], int], list[Any] | None]  # the tiles written (None: left out)
    filled: Callable[[Any, Mapping[str, Any], tuple[str | None, ...]], dict[str, Any]]


def _list(value: Any, count: int) -> list[Any] | None:
    """A draw's list as written: absent is `count` tiles left out; a list must have `count` places."""
    if value is None:
        return [None] * count
    return list(value) if type(value) is list and len(value) == count else None


def _minus(tiles: Sequence[str], out: set[str]) -> list[str]:
    return [t for t in tiles if t not in out]


# Tri-Ominos: every tile goes back at round_started; each tiles_dealt takes the deal, each tile_drawn one.
def _tri_content(state: tri.State) -> Callable[[], list[str]]:
    def content() -> list[str]:
        out = {t for h in state.hands if h is not None for t in h.known} | set(state.placed_at)
        return _minus(TRI_TILES, out)

    return content


def _tri_dealt(state: tri.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not tri.Phase.DEALING:
        return None
    return Draw(tri.deal_size(len(state.players)), state.well, _tri_content(state))


def _tri_drawn(state: tri.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not tri.Phase.PLAYING:
        return None
    return Draw(1, state.well, _tri_content(state))


# High Five: game_started is a new pass through the set (its layout the first 5 tiles); hand_dealt gives
# each player a hand, seat by seat from the first seat, and the last hand turns the rest into the layout.
def _hf_game(state: hf.State, data: Mapping[str, Any]) -> Draw | None:
    return Draw(hf.LAYOUT_SIZE, hf_tiles.SET_SIZE, lambda: list(hf_tiles.TILES))


def _hf_sizes(state: hf.State) -> tuple[int, int, bool]:
    """(each hand, the tiles turned into the layout, whether it is the game's last hand) of the next hand_dealt."""
    first, later = hf.hand_sizes(state.n)
    size = first if state.hand_number == 0 else later
    remaining = state.boneyard - size * state.n
    last = remaining < later * state.n
    return size, remaining if last else 0, last


def _hf_deal(state: hf.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not hf.Phase.AWAITING_DEAL:
        return None
    size, to_layout, _ = _hf_sizes(state)
    seen = state.seen_bits
    return Draw(size * state.n + to_layout, state.boneyard,
                lambda: [t for t in hf_tiles.TILES if not seen & hf_tiles.BIT[t]])


def _hf_deal_written(state: hf.State, data: Mapping[str, Any], count: int) -> list[Any] | None:
    size, to_layout, last = _hf_sizes(state)
    hands = data.get("hands")
    if hands is None:
        hands = {}
    if type(hands) is not dict or not set(hands) <= {p.id for p in state.players}:
        return None
    out: list[Any] = []
    for p in state.players:
        hand = _list(hands.get(p.id), size)
        if hand is None:
            return None
        out += hand
    if last:
        rest = _list(data.get("to_layout"), to_layout)
    else:
        rest = [] if data.get("to_layout") in (None, []) else None
    return None if rest is None else out + rest


def _hf_deal_filled(state: hf.State, data: Mapping[str, Any], tiles: tuple[str | None, ...]) -> dict[str, Any]:
    size, _, last = _hf_sizes(state)
    out = {**data, "hands": {p.id: list(tiles[i * size : (i + 1) * size]) for i, p in enumerate(state.players)}}
    if last:
        out["to_layout"] = list(tiles[size * state.n :])
    return out


# Hi-Spot: round_started puts every tile back; first_player_drawn draws one tile for each player still
# drawing, in seat order (a bag too short for a tie-break takes the tiles set aside back first); tiles_drawn
# draws a rack or a refill; tiles_exchanged returns tiles to the bag, then draws as many.
def _hs_content(state: hs.State, back: Sequence[str] = ()) -> Callable[[], list[str]]:
    def content() -> list[str]:
        return _minus(list(state.tiles.masks), set(state.located) - set(back))

    return content


def _hs_first(state: hs.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not hs.Phase.FIRST_DRAW:
        return None
    count = len(state.to_draw)
    back = state.aside if state.bag < count else ()
    return Draw(count, state.bag + len(back), _hs_content(state, back))


def _hs_first_written(state: hs.State, data: Mapping[str, Any], count: int) -> list[Any] | None:
    draws = data.get("draws")
    if draws is None:
        draws = {}
    ids = [state.players[s].id for s in state.to_draw]
    if type(draws) is not dict or not set(draws) <= set(ids):
        return None
    return [draws.get(pid) for pid in ids]


def _hs_first_filled(state: hs.State, data: Mapping[str, Any], tiles: tuple[str | None, ...]) -> dict[str, Any]:
    return {**data, "draws": {state.players[s].id: t for s, t in zip(state.to_draw, tiles, strict=True)}}


def _hs_drawn(state: hs.State, data: Mapping[str, Any]) -> Draw | None:
    player = data.get("player")
    seat = state.seats.get(player) if type(player) is str else None
    if seat is None:
        return None
    if state.phase is hs.Phase.RACKS and seat not in state.racks_drawn:
        count = min(state.rack_size, state.bag)
    elif state.phase is hs.Phase.PLAY and state.current == seat and state.turn is not None:
        count = hs.refill_needed(state, seat)
    else:
        return None
    return Draw(count, state.bag, _hs_content(state)) if count else None


def _hs_exchange(state: hs.State, data: Mapping[str, Any]) -> Draw | None:
    returned = data.get("returned")
    if state.phase is not hs.Phase.PLAY or type(returned) is not list or not returned:
        return None
    back = [t for t in returned if isinstance(t, str) and t in state.tiles]
    return Draw(len(returned), state.bag + len(back), _hs_content(state, back))


_RULES: dict[str, dict[str, _Rule]] = {
    tri.NAME: {
        "tiles_dealt": _Rule(_tri_dealt, lambda s, d, n: _list(d.get("tiles"), n),
                             lambda s, d, t: {**d, "tiles": list(t)}),
        "tile_drawn": _Rule(_tri_drawn, lambda s, d, n: [d.get("tile")], lambda s, d, t: {**d, "tile": t[0]}),
    },
    hf.NAME: {
        "game_started": _Rule(_hf_game, lambda s, d, n: _list(d.get("layout"), n),
                              lambda s, d, t: {**d, "layout": list(t)}),
        "hand_dealt": _Rule(_hf_deal, _hf_deal_written, _hf_deal_filled),
    },
    hs.NAME: {
        "first_player_drawn": _Rule(_hs_first, _hs_first_written, _hs_first_filled),
        "tiles_drawn": _Rule(_hs_drawn, lambda s, d, n: _list(d.get("tiles"), n),
                             lambda s, d, t: {**d, "tiles": list(t)}),
        "tiles_exchanged": _Rule(_hs_exchange, lambda s, d, n: _list(d.get("drawn"), n),
                                 lambda s, d, t: {**d, "drawn": list(t)}),
    },
}
GAMES_WITH_A_BAG = frozenset(_RULES)
DRAWING_TYPES = frozenset(t for rules in _RULES.values() for t in rules)


def draws(game: str, type: str) -> bool:
    """Whether events of `type` draw from the bag in `game`."""
    return type in _RULES.get(game, {})


def deal(game: str, state: Any, type: str, data: Mapping[str, Any], bag: Bag, seed: bytes) -> Dealt | None:
    """The event `type`/`data`, recorded in `state`, dealt from `bag`: its data with the tiles it draws
    written in (where the data left them out or null), or None when it draws nothing (in this state).

    NotFromBag for a tile written that is not the bag's; IllegalEvent when the data has no place for the
    tiles (a list of another length)."""
    rule = _RULES.get(game, {}).get(type)
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
    rule = _RULES.get(game, {}).get(type)
    draw = rule.draw(state, data) if rule is not None else None
    if rule is None or draw is None:
        return []
    return [t for t in rule.written(state, data, draw.n) or () if t is not None]


def retried_as(type: str, asked: Any, stored: Any) -> bool:
    """Whether an event the client sent (`asked`) is the one stored once the server dealt its draws: equal, or
    equal but for tiles the client left out or wrote null."""
    if asked == stored:
        return True
    if type not in DRAWING_TYPES or not isinstance(asked, dict) or not isinstance(stored, dict):
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
