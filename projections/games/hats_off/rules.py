"""Hats Off (RULES.md §4, FORMAT.md "Hats Off"): rounds of launches, nesting, knocked hats, HATS OFF.

The state is a frozen dataclass whose mappings are built once and never changed: a handler checks the
event against the state, then builds a new state sharing everything it did not touch, so every state
the fold keeps stays valid and a refused event leaves the state exactly as it was. Each state's `Board`
(a pure function of its `hats`) is built once, and a launch's board from the one before it (`board_of`).

A round's points are a function of where the counting hats are *now* (a knocked hat changes them), so
the running round's points are recomputed from the board rather than accumulated per event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from operator import itemgetter
from typing import Any

from projections.errors import IllegalEvent
from projections.games.hats_off.board import (
    HAT_NUMBERS,
    HATS_OFF_BONUS,
    HOLE_NUMBERS,
    HOLE_POINTS,
    NESTED_POINTS,
    Board,
    HatId,
    Hole,
    InHat,
    Landing,
    Place,
)
from projections.options import Option, Player, is_int, parse_options, parse_players, positive_int, require
from projections.persistent import evolve, unshared, updater
from projections.protocol import Handler, ScoreSheet

NAME = "hats-off"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

OPTIONS = {
    "target_score": Option(75, positive_int, "the round in which anyone reaches it is the last (ties play on)"),
}


class Phase(StrEnum):
    BETWEEN_ROUNDS = "between_rounds"  # before round 1, or after a round_ended that did not end the match
    IN_ROUND = "in_round"  # from round_started to round_ended
    FINISHED = "finished"


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    target: int
    # A factory, not a plain default (docs/PERFORMANCE.md, "Reducers").
    phase: Phase = field(default_factory=lambda: Phase.BETWEEN_ROUNDS)
    round: int = 0  # the running round, or the last one played
    caller: str | None = None  # who called READY-SET-GO for `round`
    called: tuple[str, ...] = ()  # who called HATS OFF this round, seat order
    # This round's launched hats in launch order (kept after round_ended so the final board can be drawn).
    hats: Mapping[HatId, Landing] = field(default_factory=dict)
    past: tuple[Mapping[str, int], ...] = ()  # points per finished round
    past_totals: Mapping[str, int] = field(default_factory=dict)  # `sum_rounds` of `past`, kept as rounds end
    winners: tuple[str, ...] = ()
    last: tuple[str, HatId, Place, bool] | None = None  # the last launch/move: type, hat, place, counts
    # Each player's seat by id: a launch's player checked with one dict probe instead of a walk of `players`.
    seats: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def in_round(self) -> bool:
        return self.phase is _IN_ROUND

    @property
    def finished(self) -> bool:
        return self.phase is _FINISHED


_IN_ROUND, _FINISHED = Phase.IN_ROUND, Phase.FINISHED  # (docs/PERFORMANCE.md, "Reducers")
_tuple = tuple.__new__  # named tuples straight from a tuple


def board_of(state: State) -> Board:
    """The board of `state.hats`, kept with the state: `hats` is never changed, so it stays right.

    The memo sits in the instance dict, outside the dataclass fields (equality and repr ignore it); a copy
    made by an updater carries it along, so it is used only while it was built from these very `hats`.
    """
    board = state.__dict__.get("_board")
    if board is None or board.hats is not state.hats:
        board = Board(state.hats)
        state.__dict__["_board"] = board
    return board


# --- scoring -------------------------------------------------------------------------------------


def round_points(state: State) -> dict[str, int]:
    """Each player's points for the round on the board now: own hats in own area, plus the bonus."""
    hats = state.hats
    points = {p.id: 0 for p in state.players}
    scoring = set()  # players with a hat that scores (`board.scoring_hats(p) > 0`)
    for hid, landing in hats.items():  # `board.hat_points` of each counting hat, in one pass
        if landing.counts:
            under = landing.place  # `board.bottom(hid)`, without a board: down the stack to where it stands
            while type(under) is InHat:
                under = hats[under.hat].place
            if type(under) is Hole and under.area == hid[0]:
                points[hid[0]] += NESTED_POINTS if type(landing.place) is InHat else HOLE_POINTS
                scoring.add(hid[0])
    for caller in state.called:
        if caller in scoring:
            points[caller] += HATS_OFF_BONUS
    return points


def sum_rounds(players: tuple[Player, ...], rounds: Any) -> dict[str, int]:
    return {p.id: sum(map(itemgetter(p.id), rounds)) for p in players}


def is_finished(state: State) -> bool:
    return state.phase is _FINISHED


def scores(state: State) -> ScoreSheet:
    """The score sheet, kept with the state as `board_of` keeps the board: the statistics and the event words
    ask for the same state's scores several times, and the round's points walk every hat. The memo is used
    only while every field it was read from is the very same object (a copy made by an updater carries it along).
    Callers get a copy of its lists and dicts, so none can change what the next caller reads."""
    sheet = _kept_sheet(state)
    return ScoreSheet(dict(sheet.totals), [dict(r) for r in sheet.rounds], sheet.finished, list(sheet.winners))


def totals(state: State) -> dict[str, int]:
    """`scores(state).totals`, without copying every round's points (the statistics and the event words
    ask for the totals of each state, a long match's sheet holds dozens of rounds)."""
    return dict(_kept_sheet(state).totals)


def _kept_sheet(state: State) -> ScoreSheet:
    """The sheet kept with the state (see `scores`); never handed out as it is."""
    memo = state.__dict__.get("_sheet")
    if memo is None or not _same_inputs(memo[0], state):  # memo[0]: the inputs it was read from, not the state
        rounds = [dict(r) for r in state.past]
        if state.in_round:
            rounds.append(round_points(state))
        sheet = ScoreSheet(sum_rounds(state.players, rounds), rounds, state.finished, list(state.winners))
        memo = (_inputs(state), sheet)
        state.__dict__["_sheet"] = memo
    kept: ScoreSheet = memo[1]
    return kept


def _inputs(state: State) -> tuple[Any, ...]:
    return state.past, state.hats, state.called, state.phase, state.winners, state.players


def _same_inputs(inputs: tuple[Any, ...], state: State) -> bool:
    """Whether `state` holds the very objects `inputs` (what a kept sheet was read from) holds."""
    past, hats, called, phase, winners, players = inputs
    return (past is state.past and hats is state.hats and called is state.called and phase is state.phase
            and winners is state.winners and players is state.players)


# --- names for the people at the table -----------------------------------------------------------


def player_name(state: State, pid: str) -> str:
    return next((p.name for p in state.players if p.id == pid), pid)


def hat_name(state: State, hid: HatId) -> str:
    return f"{player_name(state, hid[0])}'s hat {hid[1]}"


def hole_name(state: State, hole: Hole) -> str:
    return f"hole {hole.number} of {player_name(state, hole.area)}'s area"


def place_text(state: State, place: Place) -> str:
    """Where a hat is, as the tail of "Ann's hat 3 is ..."."""
    if isinstance(place, Hole):
        return f"in {hole_name(state, place)}"
    if isinstance(place, InHat):
        return f"nested in {hat_name(state, place.hat)}"
    return "on the board (not in a hole)" if place == "board" else "off the board"


# --- reading the state ---------------------------------------------------------------------------


def launched(state: State, player: str) -> list[int]:
    """The numbers of the player's hats launched this round."""
    return sorted(n for (owner, n) in state.hats if owner == player)


def in_flight_recorded(state: State, player: str) -> bool:
    return any(hid[0] == player and landing.in_flight for hid, landing in state.hats.items())


def next_caller(state: State) -> Player:
    # Round k's caller is seat (k − 1) mod n, tie-break rounds included; the next round is state.round + 1.
    return state.players[state.round % len(state.players)]


# --- parsing event data --------------------------------------------------------------------------


def _player(state: State, value: Any, what: str) -> str:
    if type(value) is str:
        for p in state.players:
            if p.id == value:
                return value
    ids = [p.id for p in state.players]
    if not isinstance(value, str) or value not in ids:
        raise IllegalEvent(f"{what}: unknown player {value!r}; the players are {', '.join(ids)}")
    return value


def _number(value: Any, allowed: range, what: str) -> int:
    if type(value) is int and value in allowed:
        return value
    if not is_int(value) or value not in allowed:
        raise IllegalEvent(f"{what} must be a whole number {allowed.start}–{allowed.stop - 1}, not {value!r}")
    return value


def _hat_id(state: State, data: Mapping[str, Any], what: str) -> HatId:
    player, hat = data.get("player"), data.get("hat")
    if type(player) is str and type(hat) is int and 0 < hat < 7 and player in state.seats:
        return player, hat  # the usual case; anything else is checked (and refused) step by step below
    if type(player) is not str:
        player = require(data, "player", str, what)
    player = _player(state, player, what)
    if "hat" not in data:
        raise IllegalEvent(f"{what}: missing 'hat'")
    return player, _number(data["hat"], HAT_NUMBERS, f"{what}: hat")


def _parse_place(state: State, raw: Any, what: str) -> Place:
    if type(raw) is dict and len(raw) == 1:  # the usual hole or hat; anything else is checked step by step below
        inner = raw.get("hole")
        if type(inner) is dict:
            area, number = inner.get("area"), inner.get("number")
            if type(area) is str and type(number) is int and 0 < number < 10 and area in state.seats:
                return _tuple(Hole, (area, number))
        else:
            inner = raw.get("in_hat")
            if type(inner) is dict:
                player, hat = inner.get("player"), inner.get("hat")
                if type(player) is str and type(hat) is int and 0 < hat < 7 and player in state.seats:
                    return _tuple(InHat, ((player, hat),))
    if raw == "board" or raw == "off":
        return str(raw)
    if isinstance(raw, dict) and len(raw) == 1:
        ((kind, inner),) = raw.items()
        if kind == "hole" and isinstance(inner, dict):
            area = _player(state, inner.get("area"), f"{what}: hole area")
            return Hole(area, _number(inner.get("number"), HOLE_NUMBERS, f"{what}: hole number"))
        if kind == "in_hat" and isinstance(inner, dict):
            return InHat(_hat_id(state, inner, f"{what}: in_hat"))
    raise IllegalEvent(
        f'{what}: to must be {{"hole": {{"area", "number"}}}}, {{"in_hat": {{"player", "hat"}}}}, '
        f'"board" or "off", not {raw!r}'
    )


def _check_destination(state: State, board: Board, hid: HatId, place: Place) -> None:
    """Refuse a counting hat's landing spot that the board cannot give it; `hid` may already be on it. A hole
    holds one stack: a hat landing on it nests in its top (`_hole_taken`); a hat nests only in a counting hat
    standing in a hole, outside its own stack, one hat in each (`_check_nest`). The board and off the board
    take any hat."""
    if isinstance(place, Hole):
        occupant = board.in_hole.get(place)
        if occupant is not None and occupant != hid:
            raise IllegalEvent(_hole_taken(state, board, hid, place, occupant))
    elif isinstance(place, InHat):
        _check_nest(state, board, hid, place.hat)


def _hole_taken(state: State, board: Board, hid: HatId, hole: Hole, occupant: HatId) -> str:
    """Why `hid` cannot land in `hole`, where `occupant`'s stack stands."""
    if hid in board.hats and hid in board.above(occupant):
        return (
            f"{hat_name(state, hid)} is already in the stack standing in {hole_name(state, hole)} "
            f"({place_text(state, state.hats[hid].place)})"
        )
    top = board.top(occupant)
    return (
        f"{hole_name(state, hole)} already holds {hat_name(state, occupant)}; a hat landing there is "
        f"nested in {hat_name(state, top)}, the top of that stack"
    )


def _check_nest(state: State, board: Board, hid: HatId, target: HatId) -> None:
    """Refuse nesting `hid` in `target` unless `target` is a counting hat of this round standing in a hole,
    outside `hid`'s own stack, and holds no other hat."""
    if target == hid:
        raise IllegalEvent(f"{hat_name(state, hid)} cannot be nested inside itself")
    landing = state.hats.get(target)
    if landing is None:
        raise IllegalEvent(f"{hat_name(state, target)} has not been launched this round; nothing can be nested in it")
    if not landing.counts:
        raise IllegalEvent(
            f"{hat_name(state, target)} was launched after HATS OFF and counts for nothing; "
            "nothing can be nested in it"
        )
    on_board = hid in board.hats  # a hat being launched is on no stack yet: nothing below or above to look for
    if on_board and hid in board.below(target):
        raise IllegalEvent(
            f"{hat_name(state, target)} sits in {hat_name(state, hid)}'s stack and moves with it; "
            "a hat cannot be nested inside its own stack"
        )
    bottom = board.bottom(target)
    if not isinstance(bottom, Hole):
        where = "on the board, not in a hole" if bottom == "board" else "off the board"
        raise IllegalEvent(f"{hat_name(state, target)} is {where}; a hat nests only into a hat standing in a hole")
    held = board.holder.get(target)
    if held is not None and held != hid:
        if on_board and hid in board.above(target):
            raise IllegalEvent(
                f"{hat_name(state, hid)} is already in {hat_name(state, target)}'s stack "
                f"({place_text(state, state.hats[hid].place)}); {hat_name(state, target)} holds "
                f"{hat_name(state, held)}"
            )
        raise IllegalEvent(
            f"{hat_name(state, target)} already holds {hat_name(state, held)}; a hat landing there is nested in "
            f"{hat_name(state, board.top(held))}, the top of that stack"
        )


def _require_round(state: State, what: str) -> None:
    if not state.in_round:
        raise IllegalEvent(
            f"{what}: no round is in progress; {next_caller(state).name} calls READY-SET-GO (round_started) first"
        )


# --- the reducer ---------------------------------------------------------------------------------
# Game.apply has already refused an unknown type, data that is not an object and a finished match.


def start(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping):
        raise IllegalEvent("match_started: data must be a JSON object")
    players = parse_players(data, NAME, MIN_PLAYERS, MAX_PLAYERS)
    options = parse_options(data.get("options"), OPTIONS, NAME)
    return State(players=players, target=options["target_score"], seats={p.id: i for i, p in enumerate(players)})


def round_started(state: State, data: Mapping[str, Any]) -> State:
    what = "round_started"
    if state.in_round:
        raise IllegalEvent(f"{what}: round {state.round} is still in progress; record round_ended first")
    caller = _player(state, require(data, "caller", str, what), f"{what}: caller")
    due = next_caller(state)
    if caller != due.id:
        raise IllegalEvent(
            f"round {state.round + 1}'s READY-SET-GO is called by {due.name} (callers go clockwise), "
            f"not {player_name(state, caller)}"
        )
    return unshared(State(  # the round's states are copies of this one
        players=state.players, target=state.target, phase=Phase.IN_ROUND, round=state.round + 1,
        caller=caller, past=state.past, past_totals=state.past_totals, seats=state.seats,
    ))


def hat_launched(state: State, data: Mapping[str, Any]) -> State:
    """A player launches a hat: checked here (the round, the hat, where it landed), then `_check_may_launch`
    (each hat once a round; in flight only at the HATS OFF call, one per player) and, for a hat that counts,
    `_check_destination` (the board can give it that spot). The round's points follow from the board
    (`round_points`), so a launch only puts the hat there."""
    what = "hat_launched"
    if state.phase is not _IN_ROUND:
        _require_round(state, what)  # refuses
    hid = _hat_id(state, data, what)
    in_flight = data.get("in_flight", False)
    if type(in_flight) is not bool:
        raise IllegalEvent(f"{what}: in_flight must be true or false, not {in_flight!r}")
    if "to" not in data:
        raise IllegalEvent(f"{what}: missing 'to'")
    place = _parse_place(state, data["to"], what)
    if in_flight or hid in state.hats:
        _check_may_launch(state, hid, in_flight, what)  # refuses a second launch; checks a hat in flight
    # A hat launched after HATS OFF counts for nothing, unless it was already flying at the call.
    counts = in_flight or not state.called
    board = board_of(state)
    if counts:
        _check_destination(state, board, hid, place)
    elif place == InHat(hid):
        raise IllegalEvent(f"{hat_name(state, hid)} cannot be nested inside itself")
    board = board.with_launch(hid, _tuple(Landing, (place, counts, in_flight)))
    return _launch(state, hats=board.hats, last=(what, hid, place, counts), _board=board)


def _check_may_launch(state: State, hid: HatId, in_flight: bool, what: str) -> None:
    """Each hat is launched once a round (a knocked hat is moved, not launched again); a hat recorded as in
    flight was flying when HATS OFF was called, and a player launches one hat at a time."""
    earlier = state.hats.get(hid)
    if earlier is not None:
        raise IllegalEvent(
            f"{hat_name(state, hid)} was already launched this round ({place_text(state, earlier.place)}); "
            "record a knocked hat as hat_moved"
        )
    if in_flight and not state.called:
        raise IllegalEvent(
            f"{what}: in_flight is only for a hat already flying when HATS OFF was called, "
            "and nobody has called HATS OFF yet this round"
        )
    if in_flight and in_flight_recorded(state, hid[0]):
        raise IllegalEvent(
            f"{player_name(state, hid[0])} already has a hat recorded as in flight at the HATS OFF call; "
            "hats are launched one at a time"
        )


def hats_off_called(state: State, data: Mapping[str, Any]) -> State:
    what = "hats_off_called"
    raw, seats, hats = data.get("players"), state.seats, state.hats
    if (  # the usual call, checked in one pass; anything else step by step below, in the order of the refusals
        state.phase is _IN_ROUND and not state.called and type(raw) is list and raw
        and all(type(p) is str and p in seats for p in raw) and len(set(raw)) == len(raw)
        and all((p, n) in hats for p in raw for n in HAT_NUMBERS)
    ):
        return evolve(state, called=tuple(sorted(raw, key=seats.__getitem__)))
    _require_round(state, what)
    raw = require(data, "players", list, what)
    if not raw:
        raise IllegalEvent(f"{what}: players must name at least one caller")
    callers = [_player(state, p, what) for p in raw]
    dup = next((p for p in callers if callers.count(p) > 1), None)
    if dup is not None:
        raise IllegalEvent(f"{what}: {player_name(state, dup)} is listed twice")
    if state.called:
        names = " and ".join(player_name(state, p) for p in state.called)
        raise IllegalEvent(f"HATS OFF was already called this round by {names}")
    for p in callers:
        done = launched(state, p)
        if len(done) < len(HAT_NUMBERS):
            missing = ", ".join(str(n) for n in HAT_NUMBERS if n not in done)
            raise IllegalEvent(
                f"{player_name(state, p)} cannot call HATS OFF: {len(done)} of 6 hats launched "
                f"(still to launch: {missing})"
            )
    seat = [pl.id for pl in state.players]
    return evolve(state, called=tuple(sorted(callers, key=seat.index)))


def hat_moved(state: State, data: Mapping[str, Any]) -> State:
    what = "hat_moved"
    _require_round(state, what)
    hid = _hat_id(state, data, what)
    if "to" not in data:
        raise IllegalEvent(f"{what}: missing 'to'")
    place = _parse_place(state, data["to"], what)
    landing = state.hats.get(hid)
    if landing is None:
        raise IllegalEvent(f"{hat_name(state, hid)} has not been launched this round, so it cannot be moved")
    if not landing.counts:
        raise IllegalEvent(
            f"{hat_name(state, hid)} was launched after HATS OFF and counts for nothing; it cannot be moved"
        )
    if landing.place == place:
        raise IllegalEvent(f"{hat_name(state, hid)} is already {place_text(state, place)}")
    _check_destination(state, board_of(state), hid, place)
    # Hats nested in the moved hat reference it, so they move with it unchanged.
    return evolve(state, hats={**state.hats, hid: landing._replace(place=place)}, last=(what, hid, place, True))


def round_ended(state: State, data: Mapping[str, Any]) -> State:
    _require_round(state, "round_ended")
    if not state.called:
        raise IllegalEvent(
            f"round {state.round} cannot end before HATS OFF is called "
            "(the first player to launch all 6 hats calls it)"
        )
    points = round_points(state)
    past = (*state.past, points)
    before = state.past_totals
    totals = {p.id: before.get(p.id, 0) + points[p.id] for p in state.players}  # `sum_rounds(players, past)`
    top = max(totals.values())
    leaders = tuple(p for p, t in totals.items() if t == top)
    # The round in which anyone reaches the target is the last, unless the top is an exact tie.
    finished = top >= state.target and len(leaders) == 1
    return evolve(
        state, phase=Phase.FINISHED if finished else Phase.BETWEEN_ROUNDS, past=past, past_totals=totals,
        winners=leaders if finished else (),
    )


# What a launch changes: the hats, and the board they make (kept with the state, `board_of`).
_launch = updater(State, "hats", "last", "_board")


HANDLERS: dict[str, Handler[State]] = {
    "round_started": round_started,
    "hat_launched": hat_launched,
    "hats_off_called": hats_off_called,
    "hat_moved": hat_moved,
    "round_ended": round_ended,
}
