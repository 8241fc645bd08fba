"""Tri-Ominos (RULES.md §1): the rules — the state, `start`, one handler per event type (`HANDLERS`),
the scores. Legal moves are in `moves.py`, annotations and the state JSON in `view.py`; the package's
`__init__` assembles them into `GAME`.

A match is rounds of: `round_started`, one `tiles_dealt` per player, a starting placement, then turns
(0..draw_limit `tile_drawn`, then one `tile_placed` or `turn_passed`) until a player goes out or the
round is blocked; `hands_revealed` completes a round that ended with hidden tiles in a hand.

The state is a frozen dataclass; each handler checks everything first and then builds a new state,
copying only the containers it changes, so every state a fold keeps stays valid. The guards every game
shares (unknown type, data not an object, match finished) are `Game.apply`'s, applied before a handler.

Placement bonuses (see `placement_bonuses`):
- hexagon: the six cells around one of the new tile's corners are all occupied;
- BRIDGE RULE: the new cell has exactly one occupied edge-neighbour and its corner opposite that edge
  touches an occupied cell (the tile spans a gap); the cell stays a bridge for the rest of the round;
- bridge extension: the new cell shares edges with two or more placed tiles, one of them a bridge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from projections.errors import IllegalEvent
from projections.games.tri_ominos.grid import (
    Cell,
    Point,
    cells_around,
    corners,
    edge_neighbours,
    opposite_corner,
)
from projections.games.tri_ominos.needs import Needs, any_fits, open_needs
from projections.games.tri_ominos.tiles import (
    ALL_TILES,
    TRIPLES,
    Corners,
    hand_total,
    is_triple,
    parse_tile,
    rotations,
    tile_sum,
    triple_rank,
)
from projections.options import (
    Option,
    Player,
    int_list,
    is_int,
    non_negative_int,
    one_of,
    parse_options,
    parse_players,
    player_seat,
    positive_int,
    require,
)
from projections.persistent import evolve, updater
from projections.protocol import Handler, ScoreSheet

NAME = "tri-ominos"
MIN_PLAYERS = 2
MAX_PLAYERS = 6

OPTIONS: dict[str, Option] = {
    "target_score": Option(400, positive_int, "the match ends with the round in which a total reaches this"),
    "hexagon_bonuses": Option([50, 60, 70], int_list(3), "bonus in all for one, two, three hexagons at once"),
    "bridge_bonus": Option(40, non_negative_int, "bonus for a bridge"),
    "bridge_extension_bonus": Option(40, non_negative_int, "bonus for extending a bridge; 0 turns it off"),
    "draw_limit": Option(3, positive_int, "draws per turn before the turn passes"),
    "failed_draw_penalty": Option(10, positive_int, "subtracted when a turn passes after draw_limit draws"),
    "empty_well_penalty": Option(10, positive_int, "subtracted when a turn passes with the well empty"),
    "going_out_bonus": Option(25, non_negative_int, "bonus for playing the last tile"),
    "blocked_winner": Option("fewest_tiles", one_of("fewest_tiles", "lowest_total"), "who wins a blocked round"),
}

DRAW_PENALTY = 5  # RULES.md §1 "Cannot play": −5 per tile drawn (not an option)
START_TRIPLE_BONUS = 10
ZERO_TRIPLE_BONUS = 30  # 0-0-0 start: +30 on top of the +10 every triple start earns
SHOWN_TRIPLE_BONUS = 10
TILE_COUNT = len(ALL_TILES)


def deal_size(players: int) -> int:
    return 9 if players == 2 else 7 if players <= 4 else 6


class Phase(StrEnum):
    """The phases of a match, in the order a round goes through them."""

    WAITING = "waiting"  # before a round: round_started comes next
    DEALING = "dealing"
    STARTING = "starting"  # every hand dealt; the starting tile comes next
    PLAYING = "playing"
    REVEALING = "revealing"  # the round has ended with hidden tiles: hands_revealed comes next
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Hand:
    known: tuple[str, ...] = ()
    hidden: int = 0

    @property
    def size(self) -> int:
        return len(self.known) + self.hidden

    def without(self, tile: str) -> Hand:
        """The hand after `tile` leaves it (a known tile, or else one of the hidden slots)."""
        if tile in self.known:
            return Hand(tuple([t for t in self.known if t != tile]), self.hidden)
        return Hand(self.known, self.hidden - 1)


# Named tuples, built with `_tuple` (docs/PERFORMANCE.md, "Reducers").
class Placed(NamedTuple):
    tile: str
    corners: Corners
    seat: int
    order: int  # 1 = the round's starting tile
    bridge: bool
    points: int


class Scored(NamedTuple):
    """What the last event did, for `describe`: who, the point items, tags."""

    seat: int | None
    items: tuple[tuple[str, int], ...] = ()
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundEnd:
    kind: str  # "going_out" or "blocked"
    seat: int | None  # who went out / won the blocked round (None: nobody, or not yet known)
    settled: bool  # the end points are in (False while hands still have to be revealed)
    points: tuple[int, ...] = ()  # end points per seat, once settled


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    options: Mapping[str, Any]
    phase: Phase = Phase.WAITING
    round: int = 0
    totals: tuple[int, ...] = ()
    round_points: tuple[tuple[int, ...], ...] = ()  # per round, per seat; the last is the running round
    hands: tuple[Hand | None, ...] = ()  # None: not dealt yet this round
    board: Mapping[Cell, Placed] = field(default_factory=dict)
    values: Mapping[Point, int] = field(default_factory=dict)  # the number at every covered point
    placed_at: Mapping[str, Cell] = field(default_factory=dict)  # tile -> its cell
    open_cells: frozenset[Cell] = frozenset()  # empty cells sharing an edge with the board
    # What the open cells need (needs.py), kept from the first draw or pass on this board until the
    # next placement (None until then): "can this hand play?" without a scan. Derived: not compared.
    needs: Needs | None = field(default=None, compare=False, repr=False)
    well: int = 0
    turn: int | None = None
    draws: int = 0  # tiles drawn in the current turn
    passes: int = 0  # passes in a row, each made with the well empty
    starter: int | None = None
    last_cell: Cell | None = None
    round_end: RoundEnd | None = None
    winners: tuple[int, ...] = ()
    last: Scored = Scored(None)


# Read on every event (docs/PERFORMANCE.md, "Reducers").
_PLAYING, _STARTING, _FINISHED = Phase.PLAYING, Phase.STARTING, Phase.FINISHED
_tuple = tuple.__new__  # a named tuple straight from a tuple
_DRAWN = tuple(Scored(seat, (("draw", -DRAW_PENALTY),), ("draw",)) for seat in range(MAX_PLAYERS))  # immutable: shared


# ---- small helpers -------------------------------------------------------------------------------


def _name(state: State, seat: int) -> str:
    return state.players[seat].name


def fmt_cell(cell: Cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def _fmt_point(point: Point) -> str:
    return f"({point[0]}, {point[1]})"


def _hand_text(hand: Hand) -> str:
    parts = list(hand.known) + (["?"] * hand.hidden)
    return ", ".join(parts) if parts else "no tiles"


def _parse_cell(data: Mapping[str, Any], what: str) -> Cell:
    cell = require(data, "cell", list, what)
    if len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int:
        return (cell[0], cell[1])  # the usual case; anything else is checked (and refused) below
    if len(cell) != 2 or not all(is_int(v) for v in cell):
        raise IllegalEvent(f"{what}: cell must be [q, r], two integers (got {cell!r})")
    return (cell[0], cell[1])


def _parse_corners(data: Mapping[str, Any], what: str) -> Corners:
    c = require(data, "corners", list, what)
    if len(c) == 3 and type(c[0]) is int and type(c[1]) is int and type(c[2]) is int:
        if 0 <= c[0] <= 5 and 0 <= c[1] <= 5 and 0 <= c[2] <= 5:
            return (c[0], c[1], c[2])  # the usual case; anything else is checked (and refused) below
    if len(c) != 3 or not all(is_int(v) for v in c):
        raise IllegalEvent(f"{what}: corners must be three integers, clockwise from the apex (got {c!r})")
    if not all(0 <= v <= 5 for v in c):
        raise IllegalEvent(f"{what}: corner numbers run from 0 to 5 (got {c!r})")
    return (c[0], c[1], c[2])


def locate(state: State, tile: str) -> str | None:
    """Where `tile` is known to be (in words), or None when its place is unknown (well or hidden slot)."""
    cell = state.placed_at.get(tile)
    if cell is not None:
        return f"on the board at {fmt_cell(cell)}"
    for seat, hand in enumerate(state.hands):
        if hand is not None and tile in hand.known:
            return f"in {_name(state, seat)}'s hand"
    return None


def _take(state: State, seat: int, tile: str) -> Hand:
    """The player's hand without `tile`, or a refusal when the player cannot be holding it."""
    hand = state.hands[seat]
    assert hand is not None
    if tile in hand.known:
        return hand.without(tile)
    where = locate(state, tile)
    if where is not None:
        raise IllegalEvent(f"{tile} is {where}, not {_name(state, seat)}'s to play")
    if not hand.hidden:
        raise IllegalEvent(
            f"{_name(state, seat)} does not hold {tile} ({_name(state, seat)}'s hand: {_hand_text(hand)})"
        )
    return hand.without(tile)  # one of the hidden slots turns out to be this tile


# ---- placement rules -----------------------------------------------------------------------------


def rotation_problem(tile: str, corner_numbers: Corners) -> str | None:
    if corner_numbers in rotations(tile):
        return None
    readings = ", ".join("-".join(map(str, r)) for r in rotations(tile))
    shown = "-".join(map(str, corner_numbers))
    return f"corners {shown} are not a rotation of {tile} (clockwise from the apex it reads {readings})"


def fit_problem(state: State, cell: Cell, corner_numbers: Corners) -> str | None:
    """Why the numbers cannot go on `cell` (taken, not touching, a corner mismatch), or None."""
    taken = state.board.get(cell)
    if taken is not None:
        return f"cell {fmt_cell(cell)} already holds {taken.tile}"
    if cell not in state.open_cells:
        return f"cell {fmt_cell(cell)} shares no edge with a placed tile"
    points = corners(cell)
    if fits(state.values, points, corner_numbers):
        return None
    mismatch = corner_mismatch(state.values, points, corner_numbers)
    assert mismatch is not None  # `fits` is `corner_mismatch(...) is None`
    point, there, number = mismatch
    return f"corner {_fmt_point(point)} is {there} on the board, {number} on the tile"


def corner_mismatch(
    values: Mapping[Point, int], points: tuple[Point, Point, Point], numbers: Corners
) -> tuple[Point, int, int] | None:
    """The first corner where the tile's number differs from the board's: (point, board, tile), or None."""
    for point, number in zip(points, numbers, strict=True):
        there = values.get(point)
        if there is not None and there != number:
            return point, there, number
    return None


def fits(values: Mapping[Point, int], points: tuple[Point, Point, Point], numbers: Corners) -> bool:
    """`corner_mismatch(...) is None`, spelled out: the legal moves and the refusals' scan call it a lot."""
    get = values.get
    there = get(points[0])
    if there is not None and there != numbers[0]:
        return False
    there = get(points[1])
    if there is not None and there != numbers[1]:
        return False
    there = get(points[2])
    return there is None or there == numbers[2]


def is_bridge(board: Mapping[Cell, Placed], cell: Cell) -> bool:
    """BRIDGE RULE (RULES.md §1): exactly one occupied edge-neighbour, and the corner opposite that
    edge touches an occupied cell — the new tile spans the gap between two tiles."""
    return _spans_gap(board, cell, [n for n in edge_neighbours(cell) if n in board])


def _spans_gap(board: Mapping[Cell, Placed], cell: Cell, touching: list[Cell]) -> bool:
    """`is_bridge` given the occupied edge-neighbours of `cell`."""
    if len(touching) != 1:
        return False
    for c in cells_around(opposite_corner(cell, touching[0])):
        if c != cell and c in board:
            return True
    return False


def placement_bonuses(state: State, cell: Cell) -> tuple[list[tuple[str, int]], list[str], bool]:
    """The bonus items, tags and bridge flag of a (checked) placement on `cell` during play."""
    board, opts = state.board, state.options
    items: list[tuple[str, int]] = []
    tags: list[str] = []
    hexagons = 0
    for p in corners(cell):
        for c in cells_around(p):
            if c not in board and c != cell:
                break
        else:
            hexagons += 1
    if hexagons:
        label = "hexagon" if hexagons == 1 else f"{hexagons} hexagons"
        items.append((label, opts["hexagon_bonuses"][hexagons - 1]))
        tags.append("hexagon" if hexagons == 1 else f"hexagon:{hexagons}")
    touching = [n for n in edge_neighbours(cell) if n in board]
    bridge = _spans_gap(board, cell, touching)
    if bridge:
        items.append(("bridge", opts["bridge_bonus"]))
        tags.append("bridge")
    else:
        extension = opts["bridge_extension_bonus"]
        if extension and len(touching) >= 2 and any(board[n].bridge for n in touching):
            items.append(("bridge extension", extension))
            tags.append("bridge_extension")
    return items, tags, bridge


def others_total(hands: tuple[Hand | None, ...], seat: int) -> int | None:
    """The numbers left in every opponent's hand, or None while one of them holds hidden tiles."""
    total = 0
    for i, h in enumerate(hands):
        if i == seat or h is None:
            continue
        if h.hidden:
            return None
        total += hand_total(h.known)
    return total


def board_needs(state: State) -> Needs:
    """What the open cells need: kept in the state since the last draw or pass, or worked out now."""
    return state.needs if state.needs is not None else open_needs(state.values, state.open_cells)


def _has_playable(state: State, seat: int) -> tuple[str, Cell] | None:
    """A known tile of the player that fits somewhere, with the cell (the first found)."""
    hand = state.hands[seat]
    if hand is None or not hand.known or not any_fits(board_needs(state), hand.known):
        return None  # the common case, from the needs; the scan below only names the tile and cell
    return first_playable(state, hand)


def first_playable(state: State, hand: Hand) -> tuple[str, Cell] | None:
    """The first known tile of `hand` that fits an open cell (cells in order), by a scan of them all."""
    for cell in sorted(state.open_cells):
        pts = corners(cell)
        for tile in hand.known:
            for rot in rotations(tile):
                if fits(state.values, pts, rot):
                    return tile, cell
    return None


# ---- starting a round ----------------------------------------------------------------------------


def _known_holders(state: State, tile: str) -> list[int]:
    return [i for i, h in enumerate(state.hands) if h is not None and tile in h.known]


def _rest_of_hand(state: State, seat: int, tile: str) -> Hand | None:
    """The player's hand once `tile` has left it: a tile played from a hidden slot uses that slot up."""
    hand = state.hands[seat]
    if hand is None or (tile not in hand.known and not hand.hidden):
        return hand
    return hand.without(tile)


def _could_hold(state: State, hand: Hand | None, tile: str) -> bool:
    """Whether `hand` may hold `tile`: a known tile of it, or a hidden slot and a tile of unknown place."""
    if hand is None:
        return False
    return tile in hand.known or (hand.hidden > 0 and locate(state, tile) is None)


def start_problem(state: State, seat: int, tile: str, shown: str | None) -> str | None:
    """Why `tile` (with `shown`) cannot start the round for this player, judged on the known tiles. The highest
    triple starts (`_triple_start_problem`); 0-0-0 starts only in the hand holding the highest triple, or with a
    higher triple shown (`_zero_start_problem`); without a triple, the highest-sum tile (`_sum_start_problem`)."""
    if shown is not None and tile != TRIPLES[0]:
        return "shown is only for a 0-0-0 start: it shows the highest triple held with it"
    if tile == TRIPLES[0]:
        return _zero_start_problem(state, seat, tile, shown)
    if is_triple(tile):
        return _triple_start_problem(state, seat, tile)
    return _sum_start_problem(state, seat, tile)


def _holder_text(state: State, seat: int, holder: int) -> str:
    """`holder` holding a tile, in a refusal of `seat`'s start: "Ann also holds", "Bo holds"."""
    return f"{_name(state, seat)} also holds" if holder == seat else f"{_name(state, holder)} holds"


def _first_known_holder(state: State, tiles: Iterable[str]) -> tuple[int, str] | None:
    """The first of `tiles` known to be in a hand, with the first seat holding it, or None."""
    for t in tiles:
        for holder in _known_holders(state, t):
            return holder, t
    return None


def _triple_start_problem(state: State, seat: int, tile: str) -> str | None:
    """A triple other than 0-0-0 starts unless a higher triple is known to be held."""
    higher = _first_known_holder(state, TRIPLES[triple_rank(tile) + 1 :])
    if higher is not None:
        holder, t = higher
        return f"{_holder_text(state, seat, holder)} {t}: the round starts with the highest triple"
    return None


def _zero_start_problem(state: State, seat: int, tile: str, shown: str | None) -> str | None:
    """0-0-0 starts with a triple shown beside it, one the player may hold besides 0-0-0 and no triple higher
    than it known to be held; without one, only in the hand holding the highest triple dealt (as far as the
    known tiles tell)."""
    who = _name(state, seat)
    rest = _rest_of_hand(state, seat, tile)  # what else the starter may hold besides the starting tile
    if shown is not None:
        if not is_triple(shown) or shown == TRIPLES[0]:
            return f"shown {shown} must be a triple higher than 0-0-0"
        if not _could_hold(state, rest, shown):
            where = locate(state, shown)
            return f"{who} cannot show {shown}: it is {where}" if where else f"{who} does not hold {shown}"
        higher = _first_known_holder(state, TRIPLES[triple_rank(shown) + 1 :])
        if higher is not None:
            holder, t = higher
            return f"{_holder_text(state, seat, holder)} {t}, higher than the shown {shown}"
        return None
    # Without a shown triple, the 0-0-0 starter must still hold the highest triple dealt: the highest one known
    # held by another player refuses it, unless the starter may hold a higher one unseen.
    for higher_triple in reversed(TRIPLES[1:]):
        holders = _known_holders(state, higher_triple)
        if holders and holders[0] != seat:
            if any(_could_hold(state, rest, t) for t in TRIPLES[triple_rank(higher_triple) + 1 :]):
                return None
            return (
                f"{_name(state, holders[0])} holds {higher_triple}: 0-0-0 may start only in the hand "
                "holding the highest triple"
            )
        if holders:
            return None
    return None


def _sum_start_problem(state: State, seat: int, tile: str) -> str | None:
    """Without a triple known to be held, the tile with the highest sum starts."""
    triple = _first_known_holder(state, reversed(TRIPLES))
    if triple is not None:
        holder, t = triple
        return f"{_holder_text(state, seat, holder)} {t}: the round starts with the highest triple"
    best = tile_sum(tile)
    for i, h in enumerate(state.hands):
        if h is None:
            continue
        for t in h.known:
            if tile_sum(t) > best:
                return (
                    f"{_holder_text(state, seat, i)} {t} (sum {tile_sum(t)}), higher than {tile} ({best}): "
                    "without a triple the highest-sum tile starts"
                )
    return None


def start_points(tile: str, shown: str | None) -> list[tuple[str, int]]:
    items = [(tile, tile_sum(tile))]
    if is_triple(tile):
        if tile == TRIPLES[0]:
            items.append(("0-0-0 start", ZERO_TRIPLE_BONUS))
        items.append(("start bonus", START_TRIPLE_BONUS))
        if shown is not None:
            items.append((f"shown {shown}", SHOWN_TRIPLE_BONUS))
    return items


# ---- the game: start, one handler per event type ------------------------------------------------


def start(data: Mapping[str, Any]) -> State:
    """The state of a match from its match_started data: players and options checked."""
    players = parse_players(data, NAME, MIN_PLAYERS, MAX_PLAYERS)
    options = parse_options(data.get("options"), OPTIONS, NAME)
    options["hexagon_bonuses"] = tuple(options["hexagon_bonuses"])  # never share the default list
    n = len(players)
    return State(
        players=players,
        options=options,
        totals=(0,) * n,
        hands=(None,) * n,
    )


def _phase_problem(state: State, wanted: Phase, what: str) -> str | None:
    """Why `what` cannot come now (the match is in another phase), in the table's words."""
    if state.phase == wanted:
        return None
    if state.phase == Phase.WAITING:
        if not state.round:
            return f"{what}: no round has started yet; record round_started first"
        return f"{what}: round {state.round} is over; record round_started for the next round"
    if state.phase == Phase.DEALING:
        missing = [_name(state, i) for i, h in enumerate(state.hands) if h is None]
        return f"{what}: round {state.round} is being dealt; still to deal: {', '.join(missing)}"
    if state.phase == Phase.REVEALING:
        hidden = [f"{_name(state, i)} ({h.hidden})" for i, h in enumerate(state.hands) if h and h.hidden]
        return (
            f"{what}: round {state.round} has ended with hidden tiles; record hands_revealed first "
            f"(hidden: {', '.join(hidden)})"
        )
    if state.phase == Phase.STARTING:
        return (
            f"{what}: every hand of round {state.round} is dealt; the round starts with a placement "
            "of the highest triple (or, without triples, the highest-sum tile)"
        )
    return f"{what}: round {state.round} is being played"


def _check_phase(state: State, wanted: Phase, what: str) -> None:
    problem = _phase_problem(state, wanted, what)
    if problem:
        raise IllegalEvent(problem)


def _round_started(state: State, data: Mapping[str, Any]) -> State:
    _check_phase(state, Phase.WAITING, "round_started")
    n = len(state.players)
    return evolve(
        state,
        phase=Phase.DEALING,
        round=state.round + 1,
        round_points=state.round_points + ((0,) * n,),
        hands=(None,) * n,
        board={},
        values={},
        placed_at={},
        open_cells=frozenset(),
        needs=None,
        well=TILE_COUNT,
        turn=None,
        draws=0,
        passes=0,
        starter=None,
        last_cell=None,
        round_end=None,
        last=Scored(None),
    )


def _tiles_dealt(state: State, data: Mapping[str, Any]) -> State:
    _check_phase(state, Phase.DEALING, "tiles_dealt")
    seat = player_seat(state.players, data, "tiles_dealt")
    who = _name(state, seat)
    if state.hands[seat] is not None:
        raise IllegalEvent(f"{who} has already been dealt this round")
    raw = require(data, "tiles", list, "tiles_dealt")
    size = deal_size(len(state.players))
    if len(raw) != size:
        raise IllegalEvent(f"{who} must be dealt {size} tiles with {len(state.players)} players, not {len(raw)}")
    known: list[str] = []
    for value in raw:
        if value is None:
            continue
        tile = parse_tile(value)
        if tile in known:
            raise IllegalEvent(f"{tile} is dealt twice to {who}")
        where = locate(state, tile)
        if where is not None:
            raise IllegalEvent(f"{tile} cannot be dealt to {who}: it is {where}")
        known.append(tile)
    hands = list(state.hands)
    hands[seat] = Hand(tuple(known), size - len(known))
    all_dealt = all(h is not None for h in hands)
    return evolve(
        state,
        hands=tuple(hands),
        well=state.well - size,
        phase=Phase.STARTING if all_dealt else Phase.DEALING,
        last=Scored(seat),
    )


def _tile_placed(state: State, data: Mapping[str, Any]) -> State:
    what = "tile_placed"
    if state.phase is not _PLAYING and state.phase is not _STARTING:
        _check_phase(state, Phase.PLAYING, what)
    seat = player_seat(state.players, data, what)
    tile = parse_tile(require(data, "tile", str, what))
    cell = _parse_cell(data, what)
    numbers = _parse_corners(data, what)
    shown_raw = data.get("shown")
    shown = None if shown_raw is None else parse_tile(shown_raw, "shown")
    if state.phase is _STARTING:
        return _start_placement(state, seat, tile, cell, numbers, shown)
    _check_turn(state, seat)
    if shown is not None:
        raise IllegalEvent("shown is only for a 0-0-0 start: it shows the highest triple held with it")
    hand = _take(state, seat, tile)
    problem = rotation_problem(tile, numbers) or fit_problem(state, cell, numbers)
    if problem:
        raise IllegalEvent(problem)
    bonus_items, tags, bridge = placement_bonuses(state, cell)
    items = [(tile, tile_sum(tile)), *bonus_items]
    return _place(state, seat, tile, cell, numbers, hand, items, tags, bridge)


def _start_placement(state: State, seat: int, tile: str, cell: Cell, numbers: Corners, shown: str | None) -> State:
    hand = _take(state, seat, tile)
    problem = rotation_problem(tile, numbers) or start_problem(state, seat, tile, shown)
    if problem:
        raise IllegalEvent(problem)
    if shown is not None and shown not in hand.known:  # start_problem has checked a hidden slot is left
        hand = Hand(hand.known + (shown,), hand.hidden - 1)  # the shown triple was a hidden slot
    items = start_points(tile, shown)
    tags = ["start_bonus"] if len(items) > 1 else []
    state = evolve(state, starter=seat, turn=seat)
    return _place(state, seat, tile, cell, numbers, hand, items, tags, False)


def _place(
    state: State,
    seat: int,
    tile: str,
    cell: Cell,
    numbers: Corners,
    hand: Hand,
    items: list[tuple[str, int]],
    tags: list[str],
    bridge: bool,
) -> State:
    """The state after a checked placement: board, hand, points, next turn, maybe the round's end."""
    points = sum([p for _, p in items])
    board = dict(state.board)
    board[cell] = _tuple(Placed, (tile, numbers, seat, len(board) + 1, bridge, points))
    values = dict(state.values)
    p0, p1, p2 = corners(cell)
    values[p0], values[p1], values[p2] = numbers
    placed_at = dict(state.placed_at)
    placed_at[tile] = cell
    opened = [n for n in edge_neighbours(cell) if n not in board]
    open_cells = state.open_cells.difference((cell,)).union(opened)
    going_out = hand.size == 0
    if going_out:
        items = [*items, ("going out", state.options["going_out_bonus"])]
        tags = [*tags, "going_out"]
        points = sum([p for _, p in items])
    totals, round_points = _add_one(state, seat, points)
    state = _placed(
        state,
        phase=Phase.PLAYING,
        hands=state.hands[:seat] + (hand,) + state.hands[seat + 1 :],
        board=board,
        values=values,
        placed_at=placed_at,
        open_cells=open_cells,
        needs=None,  # worked out again on the first draw or pass on the new board
        totals=totals,
        round_points=round_points,
        turn=(seat + 1) % len(state.players),
        draws=0,
        passes=0,
        last_cell=cell,
        last=_tuple(Scored, (seat, tuple(items), tuple(tags))),
    )
    if going_out:
        return _end_round(state, "going_out", seat)
    return state


def _check_turn(state: State, seat: int) -> None:
    if seat != state.turn:
        assert state.turn is not None
        raise IllegalEvent(f"it is {_name(state, state.turn)}'s turn, not {_name(state, seat)}'s")


def _check_cannot_play(state: State, seat: int, doing: str) -> Needs | None:
    """A player who holds a tile that fits must place it: no draw, no pass (as `_has_playable` says).
    Returns the board's needs for the next state to keep (not worked out when no tile is known)."""
    hand = state.hands[seat]
    if hand is None or not hand.known:
        return state.needs
    needs = board_needs(state)
    if any_fits(needs, hand.known):
        playable = first_playable(state, hand)
        if playable is not None:
            raise IllegalEvent(
                f"{_name(state, seat)} holds {playable[0]}, which fits at {fmt_cell(playable[1])}: "
                f"a player who can play may not {doing}"
            )
    return needs


def _tile_drawn(state: State, data: Mapping[str, Any]) -> State:
    what = "tile_drawn"
    if state.phase is not _PLAYING:
        _check_phase(state, Phase.PLAYING, what)
    seat = player_seat(state.players, data, what)
    _check_turn(state, seat)
    who = _name(state, seat)
    if "tile" not in data:
        raise IllegalEvent(f"{what}: missing 'tile' (write null for a tile drawn unseen)")
    tile = None if data["tile"] is None else parse_tile(data["tile"])
    limit = state.options["draw_limit"]
    if state.draws >= limit:
        raise IllegalEvent(f"{who} has made all {limit} draws this turn: place a tile or pass")
    if state.well == 0:
        raise IllegalEvent(f"the well is empty: {who} cannot draw; place a tile or pass")
    needs = _check_cannot_play(state, seat, "draw")
    hand = state.hands[seat]
    assert hand is not None
    if tile is not None:
        where = locate(state, tile)
        if where is not None:
            raise IllegalEvent(f"{tile} cannot come from the well: it is {where}")
        hand = Hand(hand.known + (tile,), hand.hidden)
    else:
        hand = Hand(hand.known, hand.hidden + 1)
    totals, round_points = _add_one(state, seat, -DRAW_PENALTY)
    return _drawn(
        state,
        hands=state.hands[:seat] + (hand,) + state.hands[seat + 1 :],
        well=state.well - 1,
        draws=state.draws + 1,
        totals=totals,
        round_points=round_points,
        needs=needs,
        last=_DRAWN[seat],
    )


def _turn_passed(state: State, data: Mapping[str, Any]) -> State:
    what = "turn_passed"
    if state.phase is not _PLAYING:
        _check_phase(state, Phase.PLAYING, what)
    seat = player_seat(state.players, data, what)
    _check_turn(state, seat)
    needs = _check_cannot_play(state, seat, "pass")
    penalty_item = _pass_penalty(state, seat)
    totals, round_points = _add_one(state, seat, penalty_item[1])
    # Only passes made with the well empty count towards a blocked round; any other pass
    # (after failed draws with tiles left in the well) starts the count again.
    passes = state.passes + 1 if state.well == 0 else 0
    state = _passed(
        state,
        totals=totals,
        round_points=round_points,
        turn=(seat + 1) % len(state.players),
        draws=0,
        passes=passes,
        needs=needs,
        last=_tuple(Scored, (seat, (penalty_item,), ("pass",))),
    )
    if passes >= len(state.players):
        return _end_round(state, "blocked", None)
    return state


def _pass_penalty(state: State, seat: int) -> tuple[str, int]:
    """The penalty a pass costs now (the player cannot play), or a refusal while draws are left."""
    who = _name(state, seat)
    opts = state.options
    if state.draws >= opts["draw_limit"]:
        return (f"no play after {state.draws} draws", -opts["failed_draw_penalty"])
    if state.well == 0:
        return ("no play, well empty", -opts["empty_well_penalty"])
    left = opts["draw_limit"] - state.draws
    raise IllegalEvent(
        f"{who} may not pass yet: {left} of {opts['draw_limit']} draws left and {state.well} tiles in the well"
    )


def _hands_revealed(state: State, data: Mapping[str, Any]) -> State:
    what = "hands_revealed"
    if state.phase != Phase.REVEALING:
        raise IllegalEvent(f"{what} comes only when a round has ended with hidden tiles in a hand")
    given = require(data, "hands", dict, what)
    ids = {p.id: i for i, p in enumerate(state.players)}
    hands = list(state.hands)
    claimed: set[str] = set()
    for pid, raw in given.items():
        if pid not in ids:
            raise IllegalEvent(f"{what}: unknown player {pid!r}; players: {', '.join(ids)}")
        seat = ids[pid]
        who = _name(state, seat)
        hand = state.hands[seat]
        assert hand is not None
        if not isinstance(raw, list):
            raise IllegalEvent(f"{what}: {who}'s hand must be a list of tiles")
        if len(raw) != hand.size:
            raise IllegalEvent(f"{who} holds {hand.size} tiles, but {len(raw)} are revealed")
        tiles = [parse_tile(t) for t in raw]
        missing = [t for t in hand.known if t not in tiles]
        if missing:
            raise IllegalEvent(f"{who}'s revealed hand lacks {', '.join(missing)}, known to be in it")
        for t in tiles:
            if t in claimed or tiles.count(t) > 1:
                raise IllegalEvent(f"{t} is revealed twice")
            claimed.add(t)
            if t not in hand.known:
                where = locate(state, t)
                if where is not None:
                    raise IllegalEvent(f"{t} cannot be in {who}'s hand: it is {where}")
        hands[seat] = Hand(tuple(tiles), 0)
    still = [_name(state, i) for i, h in enumerate(hands) if h is not None and h.hidden]
    if still:
        raise IllegalEvent(f"{what} must list every hand with hidden tiles; missing: {', '.join(still)}")
    end = state.round_end
    assert end is not None
    return _settle(evolve(state, hands=tuple(hands), last=Scored(None)), end.kind, end.seat)


# ---- points and the end of a round -----------------------------------------------------------------


def _add_one(state: State, seat: int, points: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """`_add` for one player (every turn's event)."""
    totals = list(state.totals)
    totals[seat] += points
    running = list(state.round_points[-1])
    running[seat] += points
    return tuple(totals), state.round_points[:-1] + (tuple(running),)


def _add(state: State, gains: Mapping[int, int]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Totals and round points with `gains` (seat -> points) added to the running round."""
    totals = list(state.totals)
    running = list(state.round_points[-1])
    for seat, pts in gains.items():
        totals[seat] += pts
        running[seat] += pts
    return tuple(totals), state.round_points[:-1] + (tuple(running),)


def _end_round(state: State, kind: str, seat: int | None) -> State:
    """The round is over; its end points need every remaining hand, so wait for them if hidden."""
    state = evolve(state, turn=None, round_end=RoundEnd(kind, seat, settled=False))
    if kind == "blocked":  # tagged on the pass that blocked the round, never on the reveal
        state = evolve(state, last=state.last._replace(tags=(*state.last.tags, "blocked")))
    needed = [h for i, h in enumerate(state.hands) if h is not None and (kind == "blocked" or i != seat)]
    if any(h.hidden for h in needed):
        return evolve(state, phase=Phase.REVEALING)
    return _settle(state, kind, seat)


def blocked_winner(state: State, hands: tuple[Hand | None, ...]) -> int | None:
    """The winner of a blocked round by the `blocked_winner` option, or None on a full tie."""
    sizes = [h.size if h else 0 for h in hands]
    totals = [hand_total(h.known) if h else 0 for h in hands]
    seats = list(range(len(hands)))
    if state.options["blocked_winner"] == "fewest_tiles":
        fewest = min(sizes)
        seats = [i for i in seats if sizes[i] == fewest]  # a tie on count goes to the lower total
    lowest = min(totals[i] for i in seats)
    best = [i for i in seats if totals[i] == lowest]
    return best[0] if len(best) == 1 else None


def _settle(state: State, kind: str, seat: int | None) -> State:
    """Add the round's end points (all hands known now) and see whether the match is over."""
    n = len(state.players)
    end_points = [0] * n
    items: list[tuple[str, int]] = list(state.last.items)
    tags = list(state.last.tags)
    if kind == "going_out":
        assert seat is not None
        left = others_total(state.hands, seat)
        assert left is not None
        end_points[seat] = left
        items.append(("left in opponents' hands", left))
    else:
        seat = blocked_winner(state, state.hands)
        if seat is not None:
            own = hand_total(state.hands[seat].known)  # type: ignore[union-attr]
            others = others_total(state.hands, seat)
            assert others is not None
            end_points[seat] = others - own
            items.append(("blocked round won", others - own))
    totals, round_points = _add(state, dict(enumerate(end_points)))
    last = Scored(state.last.seat, tuple(items), tuple(tags))
    state = evolve(
        state,
        totals=totals,
        round_points=round_points,
        round_end=RoundEnd(kind, seat, True, tuple(end_points)),
        phase=Phase.WAITING,
        last=last,
    )
    if max(totals) >= state.options["target_score"]:
        best = max(totals)
        return evolve(state, phase=Phase.FINISHED, winners=tuple(i for i in range(n) if totals[i] == best))
    return state


# What a placement, a draw and a pass change.
_placed = updater(
    State, "phase", "hands", "board", "values", "placed_at", "open_cells", "needs", "totals", "round_points", "turn",
    "draws", "passes", "last_cell", "last",
)
_drawn = updater(State, "hands", "well", "draws", "totals", "round_points", "needs", "last")
_passed = updater(State, "totals", "round_points", "turn", "draws", "passes", "needs", "last")


HANDLERS: dict[str, Handler[State]] = {
    "round_started": _round_started,
    "tiles_dealt": _tiles_dealt,
    "tile_placed": _tile_placed,
    "tile_drawn": _tile_drawn,
    "turn_passed": _turn_passed,
    "hands_revealed": _hands_revealed,
}


# ---- reading the state -----------------------------------------------------------------------------




def is_finished(state: State) -> bool:
    return state.phase is _FINISHED


def totals(state: State) -> dict[str, int]:
    """`scores(state).totals`, without the rounds (the statistics read the totals of every state)."""
    return dict(zip([p.id for p in state.players], state.totals, strict=True))


def scores(state: State) -> ScoreSheet:
    ids = [p.id for p in state.players]
    return ScoreSheet(
        totals=dict(zip(ids, state.totals, strict=True)),
        rounds=[dict(zip(ids, r, strict=True)) for r in state.round_points],
        finished=state.phase is Phase.FINISHED,
        winners=[ids[i] for i in state.winners],
    )
