"""Hi-Spot / Stack-Ominos (RULES.md §3): the rules. Legal moves are in `moves.py`, event
descriptions and the state JSON in `view.py`; the package's `__init__` assembles `GAME`.

Each event is checked against the state, then a new state is built with an updater (persistent.py); the
tray, racks and turn are tuples and frozensets, so the state passed in is never changed and every
intermediate state the fold keeps stays valid. The guards every game shares (an unknown type, data
that is not an object, a finished match) are `Game.apply`'s: the handlers here may assume them.

Turn scoring follows the rule "9 for each stack brought to 9, plus, for every other stack added to
during the turn, its total dots at the end of the turn": the turn records the stacks it touched (by
identity) and is scored once, at `turn_ended`.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, Literal

from projections.errors import IllegalEvent
from projections.games.hi_spot.tiles import (
    FULL,
    TILE_SET_SCHEMA,
    TileSet,
    check_tile_set_option,
    dot_count,
    load_tile_set,
    mask_of,
    positions_of,
)
from projections.options import (
    Option,
    Player,
    boolean,
    is_int,
    parse_options,
    parse_players,
    player_seat,
    positive_int,
    require,
)
from projections.persistent import evolve, updater
from projections.protocol import Handler, ScoreSheet

NAME = "hi-spot"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
SECTIONS = 9

OPTIONS: dict[str, Option] = {
    "target_score": Option(200, positive_int, "the first player to reach it at the end of a turn wins"),
    "allow_flip": Option(True, boolean, "tiles may be turned over (8 orientations); false: 4 rotations"),
    "clear_full_stacks": Option(False, boolean, "a stack of 9 goes back into the bag (Spear edition)"),
    "tile_set": Option(
        "default", check_tile_set_option, '"default" or an inline list of {id, dots}', schema=TILE_SET_SCHEMA
    ),
}


class Phase(StrEnum):
    BETWEEN_ROUNDS = "between_rounds"  # before the first round, and after each round's deductions
    FIRST_DRAW = "first_draw"  # the first-player draw (and its tie-breaks)
    RACKS = "racks"  # the racks are being drawn
    PLAY = "play"
    REVEAL = "reveal"  # a round ended with hidden tiles: racks_revealed comes next
    FINISHED = "finished"


# A stack: (uid, mask, layers, placed_by). uid: its identity within the match (a stack cleared by a 9 and a later
# one in that section differ); mask: the positions its dots cover; layers: (tile, covered positions) bottom to top;
# placed_by: the seat that placed each layer, for the board drawing. A plain tuple, like a rack.
Stack = tuple[int, int, tuple[tuple[str, int], ...], tuple[int, ...]]


# A seat's rack: (the tiles known, how many were drawn unseen by the recorder); a plain tuple
# (docs/PERFORMANCE.md, "Reducers").
Rack = tuple[tuple[str, ...], int]
EMPTY_RACK: Rack = ((), 0)


def tiles_held(rack: Rack) -> int:
    return len(rack[0]) + rack[1]


# A placement: (seat, tile, section 1–9, mask, uid of the stack it went on, the stack's dots after it, new stack,
# nine, cleared: the full stack went back into the bag). A plain tuple, like a rack.
Placement = tuple[int, str, int, int, int, int, bool, bool, bool]


# A segment either starts one new stack and builds it (a), or adds to stacks already on the tray (b).
# Only kind (a) starts a stack, so the stacks on the tray during a (b) segment are exactly those that
# existed when it began.
SegmentKind = Literal["new_stack", "add_to_existing"]


# A turn: (seat, placed, added, nines, new_stack, segment, points, refilled). placed: its placements; added: the
# stacks added to, in first-touch order; nines: the stacks brought to 9 (each once); new_stack: the one stack it
# may start; segment: None when the next placement begins a segment; points: `turn_points`, kept up to date by each
# placement (the stacks added to only grow during the turn, so a placement adds the stack's dots after it, less
# those it counted already: 9 for a 9, a full stack's dots); refilled: the end-of-turn refill is drawn, only
# turn_ended may follow (the last field). A plain tuple of plain tuples, like a rack.
Turn = tuple[int, tuple[Placement, ...], tuple[int, ...], tuple[int, ...], int | None, SegmentKind | None, int, bool]


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    options: Mapping[str, Any]
    tiles: TileSet
    rack_size: int
    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...] = ()  # points per round, seat order, the running round included
    round_no: int = 0
    # A factory, not a plain default (docs/PERFORMANCE.md, "Reducers").
    phase: Phase = field(default_factory=lambda: Phase.BETWEEN_ROUNDS)
    tray: tuple[Stack | None, ...] = (None,) * SECTIONS
    racks: tuple[Rack, ...] = ()
    located_bits: int = 0  # tiles whose place is known (tray, known rack slots, set aside), as `tiles.bits`
    bag: int = 0
    aside: tuple[str, ...] = ()  # first-player draws, out of the bag until the first player is known
    to_draw: tuple[int, ...] = ()  # seats still drawing for first player
    draws: tuple[tuple[tuple[int, str], ...], ...] = ()  # this round's first-player draws, for the record
    first: int | None = None
    racks_drawn: frozenset[int] = frozenset()
    current: int | None = None
    turn: Turn | None = None
    next_uid: int = 1
    last: Placement | None = None
    end_reason: str | None = None  # "blocked" | "going_out" for the last round that ended
    deductions: tuple[int, ...] | None = None  # rack dots lost at that round's end
    winners: tuple[str, ...] = ()
    # From the options, read on most events.
    allow_flip: bool = True
    clear_full_stacks: bool = False
    target_score: int = 200
    # Each player's seat by id: one dict probe instead of a walk of `players`.
    seats: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def located(self) -> frozenset[str]:
        """The tiles whose place is known, by id."""
        return self.tiles.tiles_of(self.located_bits)

    def name(self, seat: int) -> str:
        return self.players[seat].name


# ---------------------------------------------------------------- derived facts


def stack_points(state: State, turn: Turn) -> dict[int, int]:
    """What each stack added to this turn scores if the turn ended now (first-touch order): 9 when
    brought to 9 (even if cleared from the tray since), else its current dots."""
    dots = {s[0]: dot_count(s[1]) for s in state.tray if s is not None}  # uid: dots
    _, _, added, nines, *_ = turn
    return {uid: 9 if uid in nines else dots[uid] for uid in added}


def turn_points(state: State, turn: Turn | None) -> int:
    """The turn's score if it ended now: the sum of its `stack_points`, kept with the turn."""
    return turn[6] if turn is not None else 0  # its points


def refill_needed(state: State, seat: int) -> int:
    rack = state.racks[seat]
    return min(state.rack_size - len(rack[0]) - rack[1], state.bag)


def _first_place(state: State, tiles: AbstractSet[str]) -> tuple[int, str | None] | None:
    """Where one of `tiles` could go now: the first empty section (tile None: any tile, seen or not,
    starts a stack there), else the first section one of them fits, with the lowest such tile."""
    for i, stack in enumerate(state.tray, start=1):
        if stack is None:
            return i, None
    for i, stack in enumerate(state.tray, start=1):
        assert stack is not None
        fits = tiles & state.tiles.fitting(stack[1], state.allow_flip)  # the stack's mask
        if fits:
            return i, min(fits)
    return None


def blocking_reason(state: State) -> str | None:
    """Why the round is *not* blocked (None when it is): an empty section, or a loose tile that fits."""
    on_tray = {t for s in state.tray if s is not None for t, _ in s[2]}  # the stacks' layers
    place = _first_place(state, state.tiles.ids - on_tray)
    if place is None:
        return None
    section, tile = place
    return f"section {section} is empty" if tile is None else f"{tile} (in a rack or the bag) fits in section {section}"


def _blocked(state: State) -> bool:
    """`blocking_reason(state) is None`, without building the reason: no empty section, no loose tile fits."""
    if None in state.tray:
        return False
    fits, on_tray = _tray_facts(state)
    return not fits & ~on_tray


def _playable(state: State, rack: Rack) -> bool:
    """`can_play(state, rack) is not None`, without building the reason."""
    if None in state.tray:
        return True
    fits, _ = _tray_facts(state)
    bits = state.tiles.bits
    for t in rack[0]:  # a loop, not `any` over a generator: a rack holds a handful of tiles
        if fits & bits[t]:
            return True
    return False


def _tray_facts(state: State) -> tuple[int, int]:
    """For a tray without an empty section: the tiles that fit one of its stacks, and the tiles on it (bit sets).

    A pure function of the tray (the tile set and the options never change), kept with the state while
    the tray is the very same tuple: players exchanging one after another share one tray.
    """
    memo = state.__dict__.get("_tray_facts")
    if memo is not None and memo[0] is state.tray:
        return memo[1]  # type: ignore[no-any-return]
    allow_flip, tiles = state.allow_flip, state.tiles
    bits, known_fits = tiles.bits, tiles.fitting_bits_memo(allow_flip)
    fits = on_tray = 0
    for stack in state.tray:
        assert stack is not None
        _, mask, layers, _ = stack
        found = known_fits.get(mask)
        fits |= found if found is not None else tiles.fitting_bits(mask, allow_flip)
        for t, _ in layers:
            on_tray |= bits[t]
    state.__dict__["_tray_facts"] = (state.tray, (fits, on_tray))
    return fits, on_tray


def is_blocked(state: State) -> bool:
    return state.phase is Phase.PLAY and _blocked(state)


def can_play(state: State, rack: Rack) -> str | None:
    """Why the rack can be played at the start of a turn, as far as it is known (None: it cannot)."""
    place = _first_place(state, frozenset(rack[0]))
    if place is None:
        return None
    section, tile = place
    return f"section {section} is empty" if tile is None else f"section {section} takes {tile}"


def _where(state: State, tile: str) -> str:
    for i, stack in enumerate(state.tray, start=1):
        if stack is not None and any(t == tile for t, _ in stack[2]):  # the stack's layers
            return f"on the tray in section {i}"
    for seat, rack in enumerate(state.racks):
        if tile in rack[0]:
            return f"in {state.name(seat)}'s rack"
    if tile in state.aside:
        return "set aside in the first-player draw"
    return "in the bag or an unseen rack" if any(r[1] for r in state.racks) else "in the bag"


def plural(n: int, what: str = "tile") -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def names_of(state: State, seats: tuple[int, ...] | list[int]) -> str:
    names = [state.name(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------- field checks


def _seat(state: State, data: Mapping[str, Any], what: str) -> int:
    """`player_seat`, with its refusals, looking the usual case up without them."""
    pid = data.get("player")
    seat = state.seats.get(pid) if type(pid) is str else None
    return seat if seat is not None else player_seat(state.players, data, what)


def _tile(state: State, value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in state.tiles:
        raise IllegalEvent(f"{what}: unknown tile {value!r} (this set has {len(state.tiles)} tiles)")
    return value


def _tile_list(state: State, data: Mapping[str, Any], key: str, what: str, hidden_ok: bool = True) -> list[str | None]:
    raw = data.get(key)
    if type(raw) is list:  # the usual case in one pass; anything odd is refused by the checks below
        bits, listed = state.tiles.bits, 0
        for v in raw:
            if v is None:
                if hidden_ok:
                    continue
                break
            bit = bits.get(v) if type(v) is str else None
            if bit is None or listed & bit:  # not a tile of the set, or listed twice
                break
            listed |= bit
        else:
            return list(raw)
    return _tile_list_checked(state, data, key, what, hidden_ok)


def _tile_list_checked(
    state: State, data: Mapping[str, Any], key: str, what: str, hidden_ok: bool = True
) -> list[str | None]:
    raw = require(data, key, list, what)
    tiles: list[str | None] = []
    for v in raw:
        if v is None:
            if not hidden_ok:
                raise IllegalEvent(f"{what}: every tile must be written (null is not allowed here)")
            tiles.append(None)
        else:
            tiles.append(_tile(state, v, what))
    known = [t for t in tiles if t is not None]
    dup = next((t for t in known if known.count(t) > 1), None)
    if dup is not None:
        raise IllegalEvent(f"{what}: tile {dup} is listed twice")
    return tiles


def _check_in_bag(state: State, tiles: list[str | None], what: str, back: int = 0) -> int:
    """Known tiles drawn must not be known to be elsewhere; `back` (bits) went into the bag just before.
    The bits of the known tiles drawn."""
    located, bits, drawn = state.located_bits & ~back, state.tiles.bits, 0
    for t in tiles:
        if t is not None:
            bit = bits[t]
            if located & bit:
                raise IllegalEvent(f"{what}: {t} is not in the bag: it is {_where(state, t)}")
            drawn |= bit
    return drawn


_PLAY, _RACKS, _FINISHED = Phase.PLAY, Phase.RACKS, Phase.FINISHED  # (docs/PERFORMANCE.md, "Reducers")


def _expect_turn(state: State, seat: int, what: str) -> None:
    """The round is being played and it is `seat`'s turn."""
    if state.phase is Phase.PLAY:
        if state.current != seat:
            assert state.current is not None
            raise IllegalEvent(f"{what}: it is {state.name(state.current)}'s turn, not {state.name(seat)}'s")
        return
    raise IllegalEvent(f"{what}: {_phase_words(state)}")


def _phase_words(state: State) -> str:
    if state.phase is Phase.BETWEEN_ROUNDS:
        return "no round is being played; record round_started"
    if state.phase is Phase.FIRST_DRAW:
        return f"the first-player draw is not finished ({names_of(state, state.to_draw)} to draw)"
    if state.phase is Phase.RACKS:
        missing = [s for s in range(len(state.players)) if s not in state.racks_drawn]
        return f"the racks are still being drawn ({names_of(state, missing)} to draw)"
    if state.phase is Phase.REVEAL:
        return f"round {state.round_no} has ended with hidden tiles; record racks_revealed first"
    return "a round is being played"


# ---------------------------------------------------------------- event handlers


def _round_started(state: State, data: Mapping[str, Any]) -> State:
    if state.phase is not Phase.BETWEEN_ROUNDS:
        raise IllegalEvent(f"round_started: {_phase_words(state)}")
    n = len(state.players)
    return evolve(
        state,
        rounds=state.rounds + ((0,) * n,),
        round_no=state.round_no + 1,
        phase=Phase.FIRST_DRAW,
        tray=(None,) * SECTIONS,
        racks=(EMPTY_RACK,) * n,
        located_bits=0,
        bag=len(state.tiles),
        aside=(),
        to_draw=tuple(range(n)),
        draws=(),
        first=None,
        racks_drawn=frozenset(),
        current=None,
        turn=None,
        last=None,
        end_reason=None,
        deductions=None,
    )


def _first_player_drawn(state: State, data: Mapping[str, Any]) -> State:
    """Each player in the tie draws a tile for first player: the most dots starts, a tie among the best draws
    again. Checked by `_first_draws` (who drew which tile) and `_bag_for_first_draw` (the tiles were in the bag)."""
    what = "first_player_drawn"
    if state.phase is not Phase.FIRST_DRAW:
        raise IllegalEvent(f"{what}: {_phase_words(state)}")
    drawn = _first_draws(state, require(data, "draws", dict, what), what)
    tiles = list(drawn.values())
    aside, located, bag = _bag_for_first_draw(state, tiles, what)
    record = tuple(sorted(drawn.items()))
    best = max(state.tiles.dots(t) for t in tiles)
    tied = tuple(s for s in sorted(drawn) if state.tiles.dots(drawn[s]) == best)
    if len(tied) > 1:  # a tie for the most dots: the drawn tiles are set aside and the tied players draw again
        return evolve(
            state,
            aside=aside + tuple(tiles),
            located_bits=located | _bits_of(state.tiles.bits, tiles),
            bag=bag - len(tiles),
            to_draw=tied,
            draws=state.draws + (record,),
        )
    # The first player is known: every drawn tile goes back before the racks are drawn.
    return evolve(
        state,
        aside=(),
        located_bits=located & ~_bits_of(state.tiles.bits, aside),
        bag=bag + len(aside),
        to_draw=(),
        draws=state.draws + (record,),
        first=tied[0],
        phase=Phase.RACKS,
    )


def _first_draws(state: State, draws: Mapping[str, Any], what: str) -> dict[int, str]:
    """The tile each player in the tie drew, by seat: every one of them draws, nobody else, each a tile written
    (its dots decide), no tile twice."""
    ids = {p.id: i for i, p in enumerate(state.players)}
    for pid in draws:
        if pid not in ids:
            raise IllegalEvent(f"{what}: unknown player {pid!r}")
        if ids[pid] not in state.to_draw:
            raise IllegalEvent(
                f"{what}: {state.name(ids[pid])} is not in the tie; only {names_of(state, state.to_draw)} draw"
            )
    missing = [s for s in state.to_draw if state.players[s].id not in draws]
    if missing:
        raise IllegalEvent(f"{what}: {names_of(state, missing)} must draw too ({names_of(state, state.to_draw)} draw)")
    drawn: dict[int, str] = {}
    for pid, value in draws.items():
        if value is None:
            raise IllegalEvent(f"{what}: {state.name(ids[pid])}'s tile must be written: the dots decide who starts")
        drawn[ids[pid]] = _tile(state, value, what)
    tiles = list(drawn.values())
    dup = next((t for t in tiles if tiles.count(t) > 1), None)
    if dup is not None:
        raise IllegalEvent(f"{what}: tile {dup} was drawn twice")
    return drawn


def _bag_for_first_draw(state: State, tiles: list[str], what: str) -> tuple[tuple[str, ...], int, int]:
    """The bag the draw came from (the tiles set aside, the located bits, the tiles in the bag), each drawn tile
    checked to be in it. A bag too short for the tie-break takes the set-aside tiles back first
    (docs/rules/hi-spot.md)."""
    bits = state.tiles.bits
    aside, located, bag = state.aside, state.located_bits, state.bag
    if bag < len(tiles):
        located, bag, aside = located & ~_bits_of(bits, aside), bag + len(aside), ()
    for t in tiles:
        if located & bits[t]:
            raise IllegalEvent(f"{what}: {t} is not in the bag: it is {_where(state, t)}")
    return aside, located, bag


def _tiles_drawn(state: State, data: Mapping[str, Any]) -> State:
    """A refill during a turn, the usual draw, checked in one pass over its tiles (in order: its player, the
    turn, the count, then each tile known, listed once, in the bag); anything else by `_tiles_drawn_checked`,
    which words the refusal or draws a rack."""
    pid, raw = data.get("player"), data.get("tiles")
    seat = state.seats.get(pid) if type(pid) is str else None
    turn = state.turn
    if seat is None or type(raw) is not list or state.phase is not _PLAY or state.current != seat or turn is None:
        return _tiles_drawn_checked(state, data)
    racks, bag = state.racks, state.bag
    held, hidden = racks[seat]
    want = min(state.rack_size - len(held) - hidden, bag)
    if not turn[1] or turn[7] or not want or len(raw) != want:  # nothing placed, or refilled
        return _tiles_drawn_checked(state, data)
    bits, taken, drawn = state.tiles.bits, state.located_bits, 0
    for t in raw:
        if t is not None:
            bit = bits.get(t) if type(t) is str else None
            if bit is None or (taken | drawn) & bit:  # not a tile, listed twice, or known to be elsewhere
                return _tiles_drawn_checked(state, data)
            drawn |= bit
    known = tuple(raw) if None not in raw else tuple([t for t in raw if t is not None])
    new_racks = list(racks)
    new_racks[seat] = (held + known, hidden + want - len(known))
    # A draw into an emptied rack is the mid-turn refill: the player may go on with a new segment.
    return _refilled(
        state, racks=tuple(new_racks), located_bits=taken | drawn, bag=bag - want,
        turn=(*turn[:-1], bool(held or hidden)),  # `refilled` is the last field
    )


def _tiles_drawn_checked(state: State, data: Mapping[str, Any]) -> State:
    """`_tiles_drawn` step by step: a player's rack while the racks are being drawn (`_check_rack_draw`), else
    the refill of the player's turn (`_check_refill`); each known tile drawn must be in the bag. The tiles then
    join the rack: the last rack drawn starts play; a refill leaves only turn_ended to come, unless it fills an
    emptied rack mid-turn."""
    what = "tiles_drawn"
    seat = _seat(state, data, what)
    tiles = _tile_list(state, data, "tiles", what)
    phase = state.phase
    if phase is _RACKS:
        _check_rack_draw(state, seat, tiles, what)
    else:
        _check_refill(state, seat, tiles, what)
    drawn = _check_in_bag(state, tiles, what)
    rack = state.racks[seat]
    known = tuple([t for t in tiles if t is not None])
    new_rack = (rack[0] + known, rack[1] + len(tiles) - len(known))
    racks = _set(state.racks, seat, new_rack)
    located = state.located_bits | drawn
    bag = state.bag - len(tiles)
    if phase is _RACKS:
        drawn_by = state.racks_drawn | {seat}
        if len(drawn_by) == len(state.players):
            return evolve(
                state, racks=racks, located_bits=located, bag=bag, racks_drawn=drawn_by, phase=_PLAY,
                current=state.first,
            )
        return evolve(state, racks=racks, located_bits=located, bag=bag, racks_drawn=drawn_by)
    # A draw into an emptied rack is the mid-turn refill: the player may go on with a new segment.
    assert state.turn is not None
    turn = (*state.turn[:-1], bool(rack[0] or rack[1]))  # `refilled` is the last field
    return evolve(state, racks=racks, located_bits=located, bag=bag, turn=turn)


def _check_rack_draw(state: State, seat: int, tiles: list[str | None], what: str) -> None:
    """Each player draws one rack a round: as many tiles as a rack holds, or what is left in the bag."""
    if seat in state.racks_drawn:
        raise IllegalEvent(f"{what}: {state.name(seat)} has already drawn a rack this round")
    want = min(state.rack_size, state.bag)
    if len(tiles) != want:
        raise IllegalEvent(f"{what}: {state.name(seat)} draws a rack of {plural(want)}, not {len(tiles)}")


def _check_refill(state: State, seat: int, tiles: list[str | None], what: str) -> None:
    """The player whose turn it is refills the rack once, after placing: up to a full rack, as far as the bag
    goes (`refill_needed`)."""
    if state.phase is not _PLAY or state.current != seat:
        _expect_turn(state, seat, what)  # refuses
    turn = state.turn
    if turn is None or not turn[1]:  # nothing placed
        raise IllegalEvent(
            f"{what}: {state.name(seat)} has placed no tile this turn; a turn needs a placement first "
            "(or tiles_exchanged when nothing fits)"
        )
    if turn[7]:  # refilled
        raise IllegalEvent(f"{what}: {state.name(seat)} has already refilled the rack; record turn_ended")
    want = refill_needed(state, seat)
    if want == 0:
        why = "the bag is empty" if state.bag == 0 else f"{state.name(seat)}'s rack is full"
        raise IllegalEvent(f"{what}: nothing to draw: {why}")
    if len(tiles) != want:
        held = tiles_held(state.racks[seat])
        raise IllegalEvent(
            f"{what}: {state.name(seat)} must draw {plural(want)} (rack {held} of {state.rack_size}, "
            f"{state.bag} in the bag), not {len(tiles)}"
        )


def _dots_field(state: State, data: Mapping[str, Any], tile: str, what: str) -> int:
    """The placed pattern's mask; checked in one pass, and again step by step to name what is wrong."""
    dots = data.get("dots")
    if type(dots) is list:
        mask = 0
        for p in dots:
            if type(p) is not int or not 0 <= p <= 8:
                break
            mask |= 1 << p
        else:  # a pattern the tile can cover has its dots, so only a position listed twice is left to see
            if mask in state.tiles.placements(state.allow_flip)[tile] and mask.bit_count() == len(dots):
                return mask
    return _dots_field_checked(state, data, tile, what)


def _dots_field_checked(state: State, data: Mapping[str, Any], tile: str, what: str) -> int:
    dots = require(data, "dots", list, what)
    if not all(is_int(p) and 0 <= p <= 8 for p in dots):
        raise IllegalEvent(f"{what}: dots must be positions 0–8 (got {dots!r})")
    if len(set(dots)) != len(dots):
        raise IllegalEvent(f"{what}: dots lists a position twice ({dots!r})")
    mask = mask_of(dots)
    want = state.tiles.dots(tile)
    if len(dots) != want:
        raise IllegalEvent(f"{what}: {tile} has {want} dots, not {len(dots)}")
    if mask not in state.tiles.orientations(tile, state.allow_flip):
        turned = " or turned over" if state.allow_flip else " (turning over is not allowed)"
        printed = positions_of(state.tiles.masks[tile])
        raise IllegalEvent(f"{what}: {sorted(dots)} is not {tile} {printed} rotated{turned}")
    return mask


@cache
def fresh_turn(seat: int) -> Turn:
    """A turn with nothing placed yet (immutable, so one per seat serves every turn)."""
    return (seat, (), (), (), None, None, 0, False)


def _tile_placed(state: State, data: Mapping[str, Any]) -> State:
    """The player whose turn it is places a tile from the rack on a section of the tray. Checked here (whose
    turn, which tile, which section, which dots), then `_stack_taking` checks the stack takes it, `_place` puts
    it there and `_turn_with` counts what the turn scores."""
    what = "tile_placed"
    pid = data.get("player")
    seat = state.seats.get(pid) if type(pid) is str else None
    if seat is None:
        seat = _seat(state, data, what)
    if state.phase is not _PLAY or state.current != seat:
        _expect_turn(state, seat, what)  # refuses
    turn = state.turn or fresh_turn(seat)
    known, hidden = state.racks[seat]
    if turn[7]:  # refilled
        who = state.name(seat)
        raise IllegalEvent(f"{what}: {who} has refilled the rack, so the turn is over; record turn_ended")
    if not known and not hidden:
        who = state.name(seat)
        raise IllegalEvent(f"{what}: {who}'s rack is empty; draw a new rack (tiles_drawn) to go on, or end the turn")
    tiles = state.tiles
    tile = data.get("tile")
    if type(tile) is not str or tile not in tiles.masks:
        tile = _tile(state, require(data, "tile", object, what), what)
    if tile not in known and (hidden == 0 or state.located_bits & tiles.bits[tile]):
        who = state.name(seat)
        raise IllegalEvent(f"{what}: {tile} is not in {who}'s rack: it is {_where(state, tile)}")
    section = data.get("section")
    if type(section) is not int:
        section = require(data, "section", int, what)
    if not 1 <= section <= SECTIONS:
        raise IllegalEvent(f"{what}: section must be 1–9, not {section}")
    # The usual pattern in one pass, anything else checked (and refused) step by step by `_dots_field_checked`.
    dots = data.get("dots")
    mask = -1
    if type(dots) is list:
        mask = 0
        for p in dots:
            if type(p) is not int or not 0 <= p <= 8:
                mask = -1
                break
            mask |= 1 << p
        # A pattern the tile can cover has its dots, so only a position listed twice is left to see.
        if mask not in tiles.patterns[state.allow_flip][tile] or mask.bit_count() != len(dots):
            mask = -1
    if mask < 0:
        mask = _dots_field_checked(state, data, tile, what)
    stack = _stack_taking(state, turn, section, mask)
    return _place(state, seat, turn, tile, section, mask, stack)


def _stack_taking(state: State, turn: Turn, section: int, mask: int) -> Stack:
    """The stack on `section` that takes a tile covering `mask`: the one there, or a new one (uid 0 until it is
    placed) on an empty section, which a turn may start once, at the start of a segment."""
    what = "tile_placed"
    stack = state.tray[section - 1]
    new_stack, segment = turn[4], turn[5]
    if stack is None:
        if new_stack is not None:
            where = next((i for i, s in enumerate(state.tray, 1) if s and s[0] == new_stack), None)
            started = f" (section {where})" if where else ""
            raise IllegalEvent(f"{what}: section {section} is empty and you already started a stack this turn{started}")
        if segment is not None:
            raise IllegalEvent(
                f"{what}: section {section} is empty, but this segment adds to existing stacks; "
                "a new stack may start only at the start of a turn or after a 9 or an emptied rack"
            )
        return _NO_STACK
    uid, stack_mask, _, _ = stack
    if stack_mask == FULL:
        raise IllegalEvent(f"{what}: section {section} is full (9 dots) and takes nothing more")
    if mask & stack_mask:
        covered = positions_of(mask & stack_mask)
        listed = ", ".join(map(str, covered))
        raise IllegalEvent(
            f"{what}: {'dots' if len(covered) > 1 else 'dot'} {listed} {'are' if len(covered) > 1 else 'is'} "
            f"already covered in section {section}"
        )
    if segment == "new_stack" and uid != new_stack:
        raise IllegalEvent(
            f"{what}: this segment started a new stack; its tiles go on that stack, "
            f"not section {section}, until a 9 or an emptied rack"
        )
    return stack


_NO_STACK: Stack = (0, 0, (), ())  # an empty section: the stack a tile placed there starts


def _place(state: State, seat: int, turn: Turn, tile: str, section: int, mask: int, stack: Stack) -> State:
    """The checked tile on its stack, out of the player's rack. A new stack takes the next uid; a stack brought to
    9 goes back into the bag with the Spear edition, leaving the section empty. `_turn_with` counts what the turn
    scores."""
    uid, stack_mask, layers, placed_by = stack
    next_uid = state.next_uid
    is_new = uid == 0
    if is_new:
        uid = next_uid
        next_uid += 1
    grown_mask = stack_mask | mask
    layers += ((tile, mask),)
    nine = grown_mask == FULL
    cleared = nine and state.clear_full_stacks
    bits = state.tiles.bits
    located = state.located_bits | bits[tile]
    bag = state.bag
    if cleared:  # Spear edition: the full stack goes back into the bag and the section is empty again
        for t, _ in layers:
            located &= ~bits[t]
        bag += len(layers)
    known, hidden = state.racks[seat]
    if tile in known:
        i = known.index(tile)  # a tile is in one rack slot at most
        known = known[:i] + known[i + 1 :]
    else:
        hidden -= 1  # one of the unseen tiles turns out to be this one
    placement = (seat, tile, section, mask, uid, grown_mask.bit_count(), is_new, nine, cleared)
    tray = list(state.tray)
    tray[section - 1] = None if cleared else (uid, grown_mask, layers, placed_by + (seat,))
    racks = list(state.racks)
    racks[seat] = (known, hidden)
    return _placed(
        state,
        tray=tuple(tray),
        racks=tuple(racks),
        located_bits=located,
        bag=bag,
        turn=_turn_with(turn, placement, stack_mask.bit_count(), bool(known or hidden)),
        next_uid=next_uid,
        last=placement,
    )


def _turn_with(turn: Turn, placement: Placement, dots_before: int, rack_left: bool) -> Turn:
    """The turn once `placement` is made, and what it scores if it ended now (`turn_points`): each stack it added
    to counts the dots it holds, 9 for a 9, so a stack added to again counts only its new dots. A 9 or an emptied
    rack ends the segment; the player may go on with another."""
    turn_seat, placed, added, nines, new_stack, segment, points, refilled = turn
    _, _, _, _, uid, dots, is_new, nine, _ = placement
    if nine or not rack_left:
        segment = None
    else:
        segment = segment or ("new_stack" if is_new else "add_to_existing")
    if uid in added:
        points += dots - dots_before
    else:
        added += (uid,)
        points += dots
    return (
        turn_seat,
        placed + (placement,),
        added,
        nines + (uid,) if nine else nines,
        uid if is_new else new_stack,
        segment,
        points,
        refilled,
    )


def _turn_ended(state: State, data: Mapping[str, Any]) -> State:
    what = "turn_ended"
    pid = data.get("player")
    seat = state.seats.get(pid) if type(pid) is str else None
    if seat is None:
        seat = _seat(state, data, what)
    if state.phase is not _PLAY or state.current != seat:
        _expect_turn(state, seat, what)  # refuses
    turn = state.turn
    if turn is None or not turn[1]:  # nothing placed
        raise IllegalEvent(
            f"{what}: {state.name(seat)} has placed no tile; a turn needs a placement (or tiles_exchanged when "
            "nothing fits)"
        )
    known, hidden = state.racks[seat]
    bag = state.bag
    need = min(state.rack_size - len(known) - hidden, bag)  # `refill_needed`
    if need:
        raise IllegalEvent(f"{what}: {state.name(seat)} must first refill the rack: draw {plural(need)}")
    points = turn[6]  # `turn_points`
    added = list(state.totals)  # the turn's points, on the totals and the running round
    added[seat] += points
    totals = tuple(added)
    rounds = state.rounds
    added = list(rounds[-1])
    added[seat] += points
    rounds = rounds[:-1] + (tuple(added),)
    if totals[seat] >= state.target_score:
        # The target is checked first: a winning turn ends the match without rack deductions.
        return evolve(
            state, totals=totals, rounds=rounds, turn=None,
            phase=_FINISHED, current=None, winners=(state.players[seat].id,),
        )
    if not known and not hidden and bag == 0:
        return _end_round(evolve(state, totals=totals, rounds=rounds, turn=None), "going_out")
    return _next_turn(state, totals=totals, rounds=rounds, turn=None, current=(seat + 1) % len(state.players))


def _tiles_exchanged(state: State, data: Mapping[str, Any]) -> State:
    """A player who cannot place returns tiles to the bag and draws as many, instead of a turn. Checked here
    (whose turn, nothing placed yet), then `_check_may_exchange` (the round goes on and nothing the player is
    known to hold fits), then the tiles: the usual exchange by `_known_exchange` in one pass, anything else by
    `_exchange_checked`. The turn passes."""
    what = "tiles_exchanged"
    pid = data.get("player")
    seat = state.seats.get(pid) if type(pid) is str else None
    if seat is None:
        seat = _seat(state, data, what)
    if state.phase is not _PLAY or state.current != seat:
        _expect_turn(state, seat, what)  # refuses
    if state.turn is not None:
        raise IllegalEvent(
            f"{what}: {state.name(seat)} has already placed this turn; an exchange replaces a whole turn"
        )
    rack = state.racks[seat]
    _check_may_exchange(state, seat, rack, what)
    exchanged = _known_exchange(state, rack, data)
    if exchanged is None:
        exchanged = _exchange_checked(state, seat, rack, data, what)
    new_rack, returned_bits, drawn_bits = exchanged
    return _exchange(
        state, racks=_set(state.racks, seat, new_rack),
        located_bits=(state.located_bits & ~returned_bits) | drawn_bits, current=(seat + 1) % len(state.players),
    )


def _check_may_exchange(state: State, seat: int, rack: Rack, what: str) -> None:
    """An exchange is for a player who cannot place: refused when the round is blocked (it ends instead) and
    when a tile of the rack fits, or a section is empty (`_blocked`, `_playable`)."""
    playable = True
    if None not in state.tray:
        fits, on_tray = _tray_facts(state)
        if not fits & ~on_tray:
            raise IllegalEvent(f"{what}: the round is blocked (no tile in a rack or the bag fits); record round_ended")
        bits = state.tiles.bits
        playable = False
        for tile in rack[0]:
            if fits & bits[tile]:
                playable = True
                break
    if playable:
        why = can_play(state, rack)
        if why is not None:
            raise IllegalEvent(f"{what}: {state.name(seat)} can play ({why}), so may not exchange")


def _known_exchange(state: State, rack: Rack, data: Mapping[str, Any]) -> tuple[Rack, int, int] | None:
    """The usual exchange, every tile written: tiles of the rack returned, each once, and as many drawn, each a
    tile once, in the bag or just returned. (The rack, the bits returned and the bits drawn.) None for anything
    else, which `_exchange_checked` checks step by step (accepting hidden tiles, or wording the refusal)."""
    returned, drawn = data.get("returned"), data.get("drawn")
    known = rack[0]
    if type(returned) is not list or type(drawn) is not list or not 0 < len(returned) == len(drawn) <= len(known):
        return None
    bits = state.tiles.bits
    back = gained = 0
    for t in returned:
        if type(t) is not str or t not in known or back & bits[t]:
            return None
        back |= bits[t]
    taken = state.located_bits & ~back
    for t in drawn:
        bit = bits.get(t) if type(t) is str else None
        if bit is None or (taken | gained) & bit:
            return None
        gained |= bit
    kept = tuple([t for t in known if not bits[t] & back])
    return (kept + tuple(drawn), rack[1]), back, gained


def _exchange_checked(
    state: State, seat: int, rack: Rack, data: Mapping[str, Any], what: str
) -> tuple[Rack, int, int]:
    """The exchange step by step, hidden tiles accepted: at least one tile returned, no more than the rack holds,
    each from the rack (a hidden slot for a tile of unknown place), and as many drawn from the bag (a tile just
    returned may come straight back). The rack after it, the bits returned and the bits drawn."""
    returned = _tile_list(state, data, "returned", what)
    drawn = _tile_list(state, data, "drawn", what)
    if not returned:
        raise IllegalEvent(f"{what}: return at least one tile")
    known = rack[0]
    held = len(known) + rack[1]
    if len(returned) > held:
        raise IllegalEvent(f"{what}: {state.name(seat)} holds {plural(held)}, cannot return {len(returned)}")
    if len(drawn) != len(returned):
        raise IllegalEvent(f"{what}: draw as many tiles as returned ({len(returned)}), not {len(drawn)}")
    bits, located = state.tiles.bits, state.located_bits
    from_hidden = back = 0
    for t in returned:
        if t is None or t not in known:
            if t is not None and (located & bits[t] or not rack[1]):
                raise IllegalEvent(f"{what}: {t} is not in {state.name(seat)}'s rack: it is {_where(state, t)}")
            from_hidden += 1
        if t is not None:
            back |= bits[t]
    if from_hidden > rack[1]:
        raise IllegalEvent(
            f"{what}: {state.name(seat)} holds only {plural(rack[1], 'hidden tile')}, cannot return "
            f"{from_hidden} unseen"
        )
    gained_bits = _check_in_bag(state, drawn, what, back)
    gained = tuple([t for t in drawn if t is not None])
    kept = tuple([t for t in known if not bits[t] & back])
    return (kept + gained, rack[1] - from_hidden + len(drawn) - len(gained)), back, gained_bits


def _round_ended(state: State, data: Mapping[str, Any]) -> State:
    what = "round_ended"
    reason = require(data, "reason", str, what)
    if reason != "blocked":
        raise IllegalEvent(f"{what}: reason must be 'blocked' (a round ended by going out ends by itself)")
    if state.phase is not Phase.PLAY:
        raise IllegalEvent(f"{what}: {_phase_words(state)}")
    if state.turn is not None:
        raise IllegalEvent(f"{what}: {state.name(state.turn[0])}'s turn is running; round_ended comes between turns")
    why_not = None if _blocked(state) else blocking_reason(state)
    if why_not is not None:
        raise IllegalEvent(f"{what}: the round is not blocked: {why_not}")
    return _end_round(state, "blocked")


def _racks_revealed(state: State, data: Mapping[str, Any]) -> State:
    what = "racks_revealed"
    if state.phase is not Phase.REVEAL:
        if state.phase is Phase.BETWEEN_ROUNDS and state.end_reason:
            raise IllegalEvent(f"{what}: no rack holds hidden tiles; there is nothing to reveal")
        raise IllegalEvent(f"{what}: racks are revealed only after a round has ended with hidden tiles")
    racks = require(data, "racks", dict, what)
    ids = {p.id: i for i, p in enumerate(state.players)}
    for pid in racks:
        if pid not in ids:
            raise IllegalEvent(f"{what}: unknown player {pid!r}")
    new_racks = list(state.racks)
    seen: set[str] = set()
    for seat, rack in enumerate(state.racks):
        who, pid = state.name(seat), state.players[seat].id
        if pid not in racks:
            if rack[1]:
                raise IllegalEvent(
                    f"{what}: {who}'s rack holds {plural(rack[1], 'hidden tile')} and must be listed"
                )
            continue
        tiles = _tile_list(state, racks, pid, what, hidden_ok=False)
        if len(tiles) != tiles_held(rack):
            raise IllegalEvent(f"{what}: {who} holds {plural(tiles_held(rack))}, not {len(tiles)}")
        missing = [t for t in rack[0] if t not in tiles]
        if missing:
            raise IllegalEvent(f"{what}: {who}'s rack is known to hold {', '.join(missing)}")
        for t in tiles:
            assert t is not None
            if t in seen:
                raise IllegalEvent(f"{what}: {t} is listed in two racks")
            seen.add(t)
            if t not in rack[0] and state.located_bits & state.tiles.bits[t]:
                raise IllegalEvent(f"{what}: {t} cannot be in {who}'s rack: it is {_where(state, t)}")
        new_racks[seat] = (tuple(t for t in tiles if t is not None), 0)
    revealed = evolve(state, racks=tuple(new_racks), located_bits=state.located_bits | _bits_of(state.tiles.bits, seen))
    return _deduct(revealed)


def _end_round(state: State, reason: str) -> State:
    ended = evolve(state, end_reason=reason, current=None, turn=None)
    if any(r[1] for r in state.racks):
        return evolve(ended, phase=Phase.REVEAL)
    return _deduct(ended)


def _deduct(state: State) -> State:
    """Every player loses the dots left on their rack; the round is over."""
    lost = tuple(sum(state.tiles.dots(t) for t in r[0]) for r in state.racks)
    totals = tuple(t - d for t, d in zip(state.totals, lost, strict=True))
    row = tuple(p - d for p, d in zip(state.rounds[-1], lost, strict=True))
    return evolve(state, totals=totals, rounds=state.rounds[:-1] + (row,), deductions=lost, phase=Phase.BETWEEN_ROUNDS)


# What a placement, a refill, a turn's end and an exchange change.
_placed = updater(State, "tray", "racks", "located_bits", "bag", "turn", "next_uid", "last")
_refilled = updater(State, "racks", "located_bits", "bag", "turn")
_next_turn = updater(State, "totals", "rounds", "turn", "current")
_exchange = updater(State, "racks", "located_bits", "current")


def _bits_of(bits: Mapping[str, int], tiles: Any) -> int:
    out = 0
    for t in tiles:
        out |= bits[t]
    return out


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    changed = list(items)
    changed[i] = value
    return tuple(changed)


def _add(items: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return _set(items, i, items[i] + n)


HANDLERS: dict[str, Handler[State]] = {
    "round_started": _round_started,
    "first_player_drawn": _first_player_drawn,
    "tiles_drawn": _tiles_drawn,
    "tile_placed": _tile_placed,
    "tiles_exchanged": _tiles_exchanged,
    "turn_ended": _turn_ended,
    "racks_revealed": _racks_revealed,
    "round_ended": _round_ended,
}


# ---------------------------------------------------------------- the game


def start(data: Mapping[str, Any]) -> State:
    """The state before the first round, from match_started's data (players and options checked)."""
    players = parse_players(data, NAME, MIN_PLAYERS, MAX_PLAYERS)
    options = parse_options(data.get("options"), OPTIONS, NAME)
    tiles = load_tile_set(options["tile_set"])
    rack_size = 4 if len(players) == 4 else 5
    if len(tiles) < rack_size * len(players):
        raise IllegalEvent(f"option tile_set: {len(tiles)} tiles cannot fill {len(players)} racks of {rack_size}")
    if len({tiles.dots(t) for t in tiles.ids}) < 2:
        raise IllegalEvent("option tile_set: every tile has the same dots, so no first-player draw can end")
    return State(
        players, options, tiles, rack_size, totals=(0,) * len(players),
        allow_flip=bool(options["allow_flip"]), clear_full_stacks=bool(options["clear_full_stacks"]),
        target_score=options["target_score"], seats={p.id: i for i, p in enumerate(players)},
    )


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
        finished=state.phase is Phase.FINISHED,
        winners=list(state.winners),
    )
