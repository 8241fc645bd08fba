"""High Five (RULES.md §2): the double-fifteen capture game, as a pure reducer.

A match is a series of games (passes through the set); a game is a series of hands played into a face-up
layout. The state is a frozen dataclass of tuples: a handler checks the event, then builds the next state
with an updater (projections/persistent.py), never touching the one it was given. The guards every game
shares (unknown type, data not an object, match finished) are `Game.apply`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from projections.errors import IllegalEvent
from projections.games.high_five import tiles as hf
from projections.options import Option, Player, parse_options, parse_players, positive_int, require
from projections.persistent import evolve, updater
from projections.protocol import Handler, ScoreSheet

NAME = "high-five"
MIN_PLAYERS = 2
MAX_PLAYERS = 8

LAYOUT_SIZE = 5
NO_GAME = f"no game is running; game_started with the {LAYOUT_SIZE} layout tiles comes first"

OPTIONS = {
    "target_score": Option(100, positive_int, "the first player whose score reaches it wins at once"),
    "first_player": Option(
        None,
        lambda v: None if isinstance(v, str) and v else "must be a player id",
        "the player who leads every hand (default: the first seat)",
        schema={"type": "string", "minLength": 1},
    ),
}


def hand_sizes(n_players: int) -> tuple[int, int]:
    """(first hand, later hands) per player, by player count."""
    if n_players <= 4:
        return 5, 5
    if n_players <= 6:
        return 4, 4
    return 4, 3


class Phase(StrEnum):
    BEFORE_GAME = "before_game"  # no game_started yet
    AWAITING_DEAL = "awaiting_deal"  # a game is running and every hand is empty: the next hand is dealt
    PLAYING = "playing"  # someone holds tiles: `to_play` plays next
    GAME_OVER = "game_over"  # the last hand of the game is played out: a new game starts
    FINISHED = "finished"  # a player reached the target score


# A seat's hand: (the tiles known, how many were dealt face down to the recorder as `null`); a plain tuple
# (docs/PERFORMANCE.md, "Reducers").
Hand = tuple[tuple[str, ...], int]
EMPTY_HAND: Hand = ((), 0)


def hand_size(hand: Hand) -> int:
    return len(hand[0]) + hand[1]


class MissedPair(NamedTuple):
    """A claimable pair: a tile played and left in the layout, with a layout tile it matched then."""

    played: str
    partner: str
    seat: int  # who left it
    turn: int  # the play (match-wide count) that left it

    def tiles(self) -> frozenset[str]:
        return frozenset((self.played, self.partner))

    @property
    def value(self) -> int:
        return hf.value(self.played) + hf.value(self.partner)


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    target_score: int
    leader: int  # seat leading every hand
    totals: tuple[int, ...]  # match score per seat
    phase: Phase = field(default_factory=lambda: Phase.BEFORE_GAME)
    rounds: tuple[tuple[int, ...], ...] = ()  # points per seat for each game, the running one last
    game: int = 0  # games started so far
    layout: tuple[str, ...] = ()
    boneyard: int = 0
    hands: tuple[Hand, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()  # this game's captured tiles per seat
    seen_bits: int = 0  # this game's tiles whose place is known (layout, piles, known hands), as `hf.BIT`s
    hand_number: int = 0  # hands dealt in this game
    last_hand: bool = False  # the boneyard's remainder went into the layout
    to_play: int | None = None  # seat whose play is next; None when every hand is empty
    claimer_after_play: int | None = None  # the seat that just played and may still claim
    plays: int = 0
    missed: tuple[MissedPair, ...] = ()
    # (seat, tile, capture) of the last play.
    last_play: tuple[int, str, str | None] | None = None
    winner: int | None = None
    # Each player's seat by id.
    seats: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def n(self) -> int:
        return len(self.players)

    def name(self, seat: int) -> str:
        return self.players[seat].name

    @property
    def seen(self) -> frozenset[str]:
        return hf.tiles_of(self.seen_bits)


# --- small helpers -----------------------------------------------------------------------------------


def _seat(state: State, player: Any, what: str) -> int:
    if not isinstance(player, str):
        raise IllegalEvent(f"{what}: player must be a player id string (got {player!r})")
    i = 0
    for p in state.players:
        if p.id == player:
            return i
        i += 1
    known = ", ".join(p.id for p in state.players)
    raise IllegalEvent(f"{what}: unknown player {player!r}; players are {known}")


def _tile(x: Any, what: str) -> str:
    if not (isinstance(x, str) and x in _VALUES):
        raise IllegalEvent(f'{what}: {x!r} is not a High Five tile (write "a-b" with a ≤ b, 0 to 15)')
    return str(x)


_VALUES = hf.VALUES
_ENDS = hf.ENDS
_BIT = hf.BIT


def _where(state: State, tile: str) -> str | None:
    """Where a tile of the running game is known to be, in words, or None."""
    if tile in state.layout:
        return "in the layout"
    for i, pile in enumerate(state.piles):
        if tile in pile:
            return f"in {state.name(i)}'s pile"
    for i, (known, _) in enumerate(state.hands):
        if tile in known:
            return f"in {state.name(i)}'s hand"
    return None


def _hand_text(hand: Hand) -> str:
    known, hidden = hand
    parts = list(known) + (["hidden"] * hidden if hidden else [])
    return ", ".join(parts) if parts else "nothing"


def _without(tiles: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    return tuple([t for t in tiles if t not in gone])


def _set_seat(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)
    changed[seat] = value
    return tuple(changed)


def _not_in_layout(state: State, tile: str, verb: str) -> str:
    where = _where(state, tile)
    return f"cannot {verb} {tile}: it is not in the layout" + (f" (it is {where})" if where else "")


def _no_match(t: str, u: str) -> str:
    return f"{t} does not match {u}: no end in common"


def _between_plays(last_hand: bool) -> Phase:
    """The phase once every hand is empty."""
    return Phase.GAME_OVER if last_hand else Phase.AWAITING_DEAL


# --- the match ---------------------------------------------------------------------------------------


def start(data: Mapping[str, Any]) -> State:
    players = parse_players(data, NAME, MIN_PLAYERS, MAX_PLAYERS)
    options = parse_options(data.get("options"), OPTIONS, NAME)
    ids = [p.id for p in players]
    first = options["first_player"]
    if first is not None and first not in ids:
        raise IllegalEvent(f"option first_player {first!r} is not a player; players are {', '.join(ids)}")
    return State(
        players=players,
        target_score=options["target_score"],
        leader=ids.index(first) if first is not None else 0,
        totals=(0,) * len(players),
        seats={p.id: i for i, p in enumerate(players)},
    )


# --- events ------------------------------------------------------------------------------------------


def game_started(state: State, data: Mapping[str, Any]) -> State:
    what = "game_started"
    if state.game and state.phase is not Phase.GAME_OVER:
        if not state.last_hand:
            left = f"{state.boneyard} tiles are still in the boneyard"
        else:
            left = f"the hands still hold {sum(hand_size(h) for h in state.hands)} tiles"
        raise IllegalEvent(f"game {state.game} is still running: {left}")
    layout = require(data, "layout", list, what)
    if len(layout) != LAYOUT_SIZE:
        raise IllegalEvent(f"{what}: the layout is {LAYOUT_SIZE} face-up tiles, not {len(layout)}")
    if None in layout:  # a committed bag's server writes them before the rules see the event
        raise IllegalEvent(f"{what}: the layout is face up: write each of its {LAYOUT_SIZE} tiles")
    tiles = tuple(_tile(t, f"{what} layout") for t in layout)
    dup = next((t for t in tiles if tiles.count(t) > 1), None)
    if dup is not None:
        raise IllegalEvent(f"{what}: {dup} is in the layout twice")
    return evolve(
        state,
        phase=Phase.AWAITING_DEAL,
        rounds=state.rounds + ((0,) * state.n,),
        game=state.game + 1,
        layout=tiles,
        boneyard=hf.SET_SIZE - LAYOUT_SIZE,
        hands=(EMPTY_HAND,) * state.n,
        piles=((),) * state.n,
        seen_bits=hf.bits_of(tiles),
        hand_number=0,
        last_hand=False,
        to_play=None,
        claimer_after_play=None,
        missed=(),
        last_play=None,
    )


def hand_dealt(state: State, data: Mapping[str, Any]) -> State:
    """Every hand empty, each player is dealt a hand; the game's last hand turns the boneyard's rest into
    layout tiles. The usual deal is checked in one pass over its tiles; anything else by `_hand_dealt_checked`,
    which names what is wrong (or accepts what this pass does not try: the same rules, step by step)."""
    hands = data.get("hands")
    n = len(state.players)
    if state.to_play is not None or not state.game or state.last_hand or type(hands) is not dict or len(hands) != n:
        return _hand_dealt_checked(state, data)
    first, later = hand_sizes(n)
    size = first if state.hand_number == 0 else later
    taken = state.seen_bits
    new_hands = []
    for p in state.players:
        raw = hands.get(p.id)
        if type(raw) is not list or len(raw) != size:
            return _hand_dealt_checked(state, data)
        bits = _new_tile_bits(raw, taken)
        if bits is None:
            return _hand_dealt_checked(state, data)
        taken |= bits
        known = tuple(raw) if None not in raw else tuple([t for t in raw if t is not None])
        new_hands.append((known, size - len(known)))
    remaining = state.boneyard - size * n
    last = remaining < later * n
    raw_layout: Any = data.get("to_layout")
    to_layout: tuple[str, ...] = ()
    if last:
        if type(raw_layout) is not list or len(raw_layout) != remaining or None in raw_layout:
            return _hand_dealt_checked(state, data)
        bits = _new_tile_bits(raw_layout, taken)
        if bits is None:
            return _hand_dealt_checked(state, data)
        taken |= bits
        to_layout = tuple(raw_layout)
    elif not (raw_layout is None or raw_layout == []):
        return _hand_dealt_checked(state, data)
    return _dealt(state, tuple(new_hands), to_layout, remaining, last, taken)


def _dealt(
    state: State, hands: tuple[Hand, ...], to_layout: tuple[str, ...], remaining: int, last: bool, seen_bits: int
) -> State:
    """The state once a checked hand is dealt: the leader plays first."""
    return _deal(
        state, phase=_PLAYING, layout=state.layout + to_layout, boneyard=0 if last else remaining, hands=hands,
        seen_bits=seen_bits, hand_number=state.hand_number + 1, last_hand=last, to_play=state.leader,
        claimer_after_play=None,
    )


def _new_tile_bits(tiles: list[Any], taken: int) -> int | None:
    """The bit set of the tiles listed (nulls skipped), or None unless each is a tile, outside `taken`, listed once."""
    bits = count = 0
    for t in tiles:
        if t is not None:
            bit = _BIT.get(t) if type(t) is str else None
            if bit is None:
                return None
            bits |= bit
            count += 1
    return bits if bits.bit_count() == count and not taken & bits else None


def _hand_dealt_checked(state: State, data: Mapping[str, Any]) -> State:
    """`hand_dealt` step by step: a deal is due (`_check_deal_due`), each player's hand (`_dealt_hands`), then the
    boneyard's rest into the layout with the game's last hand (`_last_hand_layout`)."""
    what = "hand_dealt"
    _check_deal_due(state, what)
    hands = require(data, "hands", dict, what)
    first, later = hand_sizes(state.n)
    size = first if state.hand_number == 0 else later
    dealt: set[str] = set()  # every tile dealt face up, hands and layout: each may be dealt once
    new_hands = _dealt_hands(state, hands, size, dealt, what)
    total = size * state.n
    if total > state.boneyard:  # cannot happen with the table's counts; kept as a guard
        raise IllegalEvent(f"{what}: the boneyard holds only {state.boneyard} tiles, not {total}")
    remaining = state.boneyard - total
    last = remaining < later * state.n  # too few left for another round of hands: this is the game's last
    to_layout = _last_hand_layout(state, data.get("to_layout"), remaining, last, dealt, what)
    return _dealt(state, new_hands, to_layout, remaining, last, state.seen_bits | hf.bits_of(dealt))


def _check_deal_due(state: State, what: str) -> None:
    """A hand is dealt only during a game, while the set lasts, once every hand is played out."""
    if state.game == 0:
        raise IllegalEvent(f"{what}: {NO_GAME}")
    if state.last_hand and state.to_play is None:
        raise IllegalEvent(
            f"{what}: the set is used up (the last hand of game {state.game} was dealt); "
            "start a new game with game_started"
        )
    if state.to_play is not None:
        holder = next(i for i, h in enumerate(state.hands) if hand_size(h))
        raise IllegalEvent(
            f"{what}: {state.name(holder)} still holds {hand_size(state.hands[holder])} tile(s); "
            "a new hand is dealt when every hand is empty"
        )


def _dealt_hands(state: State, hands: Mapping[str, Any], size: int, dealt: set[str], what: str) -> tuple[Hand, ...]:
    """Each player's new hand, in seat order: `size` tiles, face up or `null` (face down), none of them seen
    elsewhere or dealt twice. The tiles dealt face up are added to `dealt`."""
    kind = "first" if state.hand_number == 0 else "later"
    ids = [p.id for p in state.players]
    for pid in hands:
        if pid not in ids:
            raise IllegalEvent(f"{what}: unknown player {pid!r}; players are {', '.join(ids)}")
    new_hands = []
    for seat, pid in enumerate(ids):
        if pid not in hands:
            raise IllegalEvent(f"{what}: no hand for {state.name(seat)}")
        raw = hands[pid]
        if not isinstance(raw, list):
            raise IllegalEvent(f"{what}: {state.name(seat)}'s hand must be a list of tiles or nulls")
        if len(raw) != size:
            raise IllegalEvent(
                f"{what}: {state.name(seat)} is dealt {len(raw)} tiles; a {kind} hand for {state.n} players is {size}"
            )
        known = []
        for t in raw:
            if t is None:
                continue
            tile = t if isinstance(t, str) and t in _VALUES else _tile(t, f"{what} ({state.name(seat)})")
            _check_unseen(state, tile, dealt, what)
            dealt.add(tile)
            known.append(tile)
        new_hands.append((tuple(known), size - len(known)))
    return tuple(new_hands)


def _last_hand_layout(
    state: State, raw_layout: Any, remaining: int, last: bool, dealt: set[str], what: str
) -> tuple[str, ...]:
    """The tiles the game's last hand turns face up into the layout: every tile left in the boneyard, none seen
    elsewhere or dealt twice (added to `dealt`). Any other hand leaves the boneyard alone: none."""
    if raw_layout is not None and not isinstance(raw_layout, list):
        raise IllegalEvent(f"{what}: to_layout must be a list of face-up tiles (got {raw_layout!r})")
    if not last:
        if raw_layout:
            raise IllegalEvent(
                f"{what}: to_layout comes only with the game's last hand; {remaining} tiles stay in the boneyard"
            )
        return ()
    if raw_layout is None or len(raw_layout) != remaining:
        got = "none" if raw_layout is None else len(raw_layout)
        raise IllegalEvent(
            f"{what}: this is the game's last hand: the {remaining} tile(s) left in the "
            f"boneyard go face up into the layout as to_layout (got {got})"
        )
    for t in raw_layout:
        tile = _tile(t, f"{what} to_layout")
        _check_unseen(state, tile, dealt, what)
        dealt.add(tile)
    return tuple(raw_layout)


def _check_unseen(state: State, tile: str, dealt: set[str], what: str) -> None:
    if tile in dealt:
        raise IllegalEvent(f"{what}: {tile} is dealt twice")
    if state.seen_bits & _BIT[tile]:
        raise IllegalEvent(f"{what}: {tile} cannot be dealt, it is already {_where(state, tile)}")


def tile_played(state: State, data: Mapping[str, Any]) -> State:
    """The player to play plays a tile from the hand: it captures a matching layout tile (`capture`), or it
    joins the layout. Checked here; `_captures` and `_joins_layout` play it."""
    what = "tile_played"
    player = data.get("player")
    seat = state.seats.get(player) if type(player) is str else None
    if seat is None:
        seat = _seat(state, player, what)  # refuses
    if seat != state.to_play or not state.game:
        _check_can_play(state, seat)  # refuses
    tile = data.get("tile")
    if type(tile) is not str or tile not in _VALUES:
        tile = _tile(require(data, "tile", str, what), what)
    hand = state.hands[seat]
    known, hidden = hand
    if tile in known:
        i = known.index(tile)  # tiles of a set are unique: it is there once
        hand = (known[:i] + known[i + 1 :], hidden)
    elif state.seen_bits & _BIT[tile]:
        raise IllegalEvent(f"{state.name(seat)} cannot play {tile}: it is {_where(state, tile)}")
    elif hidden:
        hand = (known, hidden - 1)  # one of the face-down tiles turns out to be this one
    else:
        raise IllegalEvent(f"{state.name(seat)} does not hold {tile}; the hand is {_hand_text(hand)}")
    capture = data.get("capture")
    if capture is None:
        return _joins_layout(state, seat, tile, hand)
    if type(capture) is not str or capture not in state.layout:
        capture = _tile(capture, f"{what} capture")
        raise IllegalEvent(_not_in_layout(state, capture, "capture"))
    if capture not in _MATCHING[tile]:
        raise IllegalEvent(_no_match(tile, capture))
    return _captures(state, seat, tile, capture, hand)


def _joins_layout(state: State, seat: int, tile: str, hand: Hand) -> State:
    """The tile joins the layout; beside a layout tile it matches, it is a missed capture: a claimable pair
    with each. The next seat plays, unless its hand is empty (then every hand is)."""
    hands = list(state.hands)
    hands[seat] = hand
    nxt = seat + 1 if seat + 1 < len(hands) else 0
    to_play = nxt if hands[nxt][0] or hands[nxt][1] else None
    plays = state.plays + 1
    layout = state.layout
    matching = _MATCHING[tile]
    missed = state.missed
    for t in layout:
        if t in matching:
            missed += (_tuple(MissedPair, (tile, t, seat, plays)),)
    return _play(
        state,
        phase=_FINISHED if state.winner is not None else _PLAYING if to_play is not None
        else _between_plays(state.last_hand),
        hands=tuple(hands),
        seen_bits=state.seen_bits | _BIT[tile],
        plays=plays,
        to_play=to_play,
        claimer_after_play=seat,
        last_play=(seat, tile, None),
        layout=(*layout, tile),
        missed=missed,
    )


def _captures(state: State, seat: int, tile: str, capture: str, hand: Hand) -> State:
    """The tile takes `capture` out of the layout into the player's pile, scoring both; reaching the target
    wins the match at once. Pairs that needed the captured tile are gone with it."""
    hands = list(state.hands)
    hands[seat] = hand
    nxt = seat + 1 if seat + 1 < len(hands) else 0
    to_play = nxt if hands[nxt][0] or hands[nxt][1] else None
    missed = state.missed
    if missed:
        missed = tuple([p for p in missed if p.played != capture and p.partner != capture])
    points = _VALUES[capture] + _VALUES[tile]
    totals = list(state.totals)
    totals[seat] += points
    winner = seat if totals[seat] >= state.target_score else None
    running = list(state.rounds[-1])
    running[seat] += points
    piles = list(state.piles)
    piles[seat] += (capture, tile)
    layout = state.layout
    i = layout.index(capture)
    return _capture(
        state,
        phase=_FINISHED if winner is not None else _PLAYING if to_play is not None
        else _between_plays(state.last_hand),
        hands=tuple(hands),
        seen_bits=state.seen_bits | _BIT[tile],
        plays=state.plays + 1,
        to_play=to_play,
        claimer_after_play=seat,
        last_play=(seat, tile, capture),
        layout=layout[:i] + layout[i + 1 :],
        missed=missed,
        piles=tuple(piles),
        totals=tuple(totals),
        rounds=state.rounds[:-1] + (tuple(running),),
        winner=winner,
    )


_tuple = tuple.__new__  # a named tuple straight from a tuple (docs/PERFORMANCE.md, "Reducers")
# For each tile, the tiles it matches (an end in common), itself included.
_MATCHING: dict[str, frozenset[str]] = {t: frozenset(u for u in hf.TILES if hf.matches(t, u)) for t in hf.TILES}
_FINISHED, _PLAYING = Phase.FINISHED, Phase.PLAYING
# What a deal, a play into the layout and a capture change.
_deal = updater(
    State, "phase", "layout", "boneyard", "hands", "seen_bits", "hand_number", "last_hand", "to_play",
    "claimer_after_play",
)
_play = updater(
    State, "phase", "hands", "seen_bits", "plays", "to_play", "claimer_after_play", "last_play", "layout", "missed"
)
_capture = updater(
    State, "phase", "hands", "seen_bits", "plays", "to_play", "claimer_after_play", "last_play", "layout", "missed",
    "piles", "totals", "rounds", "winner",
)


def _check_can_play(state: State, seat: int) -> None:
    if state.game == 0:
        raise IllegalEvent(NO_GAME)
    if state.to_play is None:
        if state.last_hand:
            raise IllegalEvent(f"game {state.game} is over (the set is used up): start a new game")
        raise IllegalEvent("every hand is empty: the next hand must be dealt (hand_dealt) first")
    if seat != state.to_play:
        raise IllegalEvent(f"it is {state.name(state.to_play)}'s turn, not {state.name(seat)}'s")


def pair_claimed(state: State, data: Mapping[str, Any]) -> State:
    what = "pair_claimed"
    seat = _seat(state, data.get("player"), what)
    _check_can_claim(state, seat)
    raw = require(data, "tiles", list, what)
    if len(raw) != 2:
        raise IllegalEvent(f"a claim is exactly two matching tiles, not {len(raw)}")
    a, b = (_tile(t, what) for t in raw)
    if a == b:
        raise IllegalEvent(f"a claim is two different tiles, not {a} twice")
    for t in (a, b):
        if t not in state.layout:
            raise IllegalEvent(_not_in_layout(state, t, "claim"))
    if not hf.matches(a, b):
        raise IllegalEvent(_no_match(a, b))
    pair = frozenset((a, b))
    found = [p for p in state.missed if p.tiles() == pair]
    if not found:
        raise IllegalEvent(
            f"{a} and {b} are not a missed capture: only a tile played and left in the layout "
            "together with a layout tile it matched can be claimed"
        )
    allowed = [p for p in found if not (p.seat == seat and p.turn == state.plays)]
    if not allowed:
        p = found[0]
        raise IllegalEvent(
            f"{state.name(seat)} left {p.played} beside {p.partner} on this turn and may claim "
            "that pair only on a later turn"
        )
    changes: dict[str, Any] = {
        "layout": _without(state.layout, a, b),
        "missed": tuple(p for p in state.missed if a not in p.tiles() and b not in p.tiles()),
    }
    if seat == state.to_play:  # the next player has acted: the previous player's claims are over
        changes["claimer_after_play"] = None
    changes.update(_score(state, seat, (a, b)))
    if changes["winner"] is not None:
        changes["phase"] = Phase.FINISHED
    return evolve(state, **changes)


def _check_can_claim(state: State, seat: int) -> None:
    if state.game == 0:
        raise IllegalEvent(NO_GAME)
    if seat in (state.to_play, state.claimer_after_play):
        return
    name = state.name(seat)
    after = state.claimer_after_play
    also = f" ({state.name(after)} may still claim after their play)" if after is not None else ""
    if state.to_play is not None:
        raise IllegalEvent(f"it is {state.name(state.to_play)}'s turn, not {name}'s{also}")
    if state.hand_number == 0:
        raise IllegalEvent("no hand has been dealt yet: nobody may claim")
    if after is None:
        raise IllegalEvent(f"{name} may not claim now: claims are made on one's own turn")
    when = "the game is over" if state.last_hand else "every hand is empty"
    raise IllegalEvent(f"{when}: only {state.name(after)}, who played last, may still claim, not {name}")


def _score(state: State, seat: int, tiles: tuple[str, str]) -> dict[str, Any]:
    """The changes putting both tiles into the seat's pile; the match is won at once when the target is reached."""
    points = hf.value(tiles[0]) + hf.value(tiles[1])
    total = state.totals[seat] + points
    return {
        "piles": _set_seat(state.piles, seat, state.piles[seat] + tiles),
        "totals": _set_seat(state.totals, seat, total),
        "rounds": state.rounds[:-1] + (_set_seat(state.rounds[-1], seat, state.rounds[-1][seat] + points),),
        "winner": seat if total >= state.target_score else None,
    }


HANDLERS: dict[str, Handler[State]] = {
    "game_started": game_started,
    "hand_dealt": hand_dealt,
    "tile_played": tile_played,
    "pair_claimed": pair_claimed,
}


# --- read models -------------------------------------------------------------------------------------


def is_finished(state: State) -> bool:
    return state.phase is _FINISHED


def totals(state: State) -> dict[str, int]:
    """`scores(state).totals`, without the rounds (the statistics read the totals of every state)."""
    return dict(zip([p.id for p in state.players], state.totals, strict=True))


def scores(state: State) -> ScoreSheet:
    ids = [p.id for p in state.players]
    return ScoreSheet(
        totals=dict(zip(ids, state.totals, strict=True)),
        rounds=[dict(zip(ids, r, strict=True)) for r in state.rounds],
        finished=is_finished(state),
        winners=[ids[state.winner]] if state.winner is not None else [],
    )
