"""A tournament: entries, rounds of tables, the matches played at them and their results.

A round is paired (by `pairings.pair_next_round` or by hand), each table gets the match recorded at it, and
the store takes the table's result from that match once it is finished (`result_taken`: never typed in). A
table is settled by its result, or by forfeits that leave at most one player (who then wins without a
match). The next round is paired only once every table of the last one is settled.

Late entries are allowed until the tournament is closed: a late entrant starts with 0 points and is seated
from the next round paired. A withdrawn player keeps their results and is seated in no later round.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from projections.clubs.players import check_fields, player_id, text
from projections.clubs.protocol import StreamKind
from projections.errors import IllegalEvent
from projections.options import is_int
from projections.registry import get_game

FORMATS = ("swiss", "tables")
MAX_ROUNDS = 50
TABLES_SIZES = range(3, 9)  # a "tables" tournament seats 3 to 8 a table (within the game's own limits)
SWISS_SIZE = 2


@dataclass(frozen=True)
class Scoring:
    """Match points: a table's win (shared equally by joint winners) and a bye."""

    win: float = 1
    bye: float = 1


@dataclass(frozen=True)
class Entrant:
    player: str
    name: str
    entered_after: int = 0  # rounds already paired when they entered (0: before round 1)
    withdrawn_after: int | None = None  # rounds already paired when they withdrew

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None


@dataclass(frozen=True)
class Result:
    match_id: str
    totals: Mapping[str, int]  # the players who played (the seats that did not forfeit)
    winners: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    number: int
    seats: tuple[str, ...]  # clockwise, seat 0 first
    match_id: str | None = None  # the match assigned to it (the latest assignment)
    forfeits: tuple[str, ...] = ()
    result: Result | None = None

    @property
    def present(self) -> tuple[str, ...]:
        """The seats that did not forfeit."""
        return tuple(p for p in self.seats if p not in self.forfeits)

    @property
    def settled(self) -> bool:
        """Its result is in, or forfeits left at most one player: nothing more is played at it."""
        return self.result is not None or len(self.present) <= 1

    @property
    def winners(self) -> tuple[str, ...]:
        """Who won it: the result's winners, or the one player the forfeits left (nobody while unsettled)."""
        if self.result is not None:
            return self.result.winners
        present = self.present
        return present if len(present) == 1 else ()


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    by_hand: bool = False

    @property
    def complete(self) -> bool:
        return all(t.settled for t in self.tables)

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(p for t in self.tables for p in t.seats)


@dataclass(frozen=True)
class Tournament:
    name: str
    game: str
    format: str  # "swiss" or "tables"
    rounds: int  # how many rounds it has
    table_size: int
    min_players: int  # the game's: no table seats fewer
    scoring: Scoring = Scoring()
    date: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    entrants: Mapping[str, Entrant] = field(default_factory=dict)  # in the order they entered
    paired: tuple[Round, ...] = ()  # the rounds paired so far, round 1 first
    assigned: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # match id -> (round, table)
    closed: bool = False

    @property
    def current_round(self) -> int:
        """The last round paired (0 before round 1)."""
        return len(self.paired)

    def round(self, number: int) -> Round:
        return self.paired[number - 1]

    def complete(self, number: int) -> bool:
        """Whether every table of round `number` is settled (round 0, before the first, always is)."""
        return number == 0 or self.round(number).complete

    @property
    def active(self) -> tuple[str, ...]:
        """The entrants still playing, in the order they entered."""
        return tuple(p for p, e in self.entrants.items() if not e.withdrawn)


def missing_results(state: Tournament) -> list[tuple[int, int, tuple[str, ...]]]:
    """(round, table, seats) of every table not settled yet."""
    return [(r.number, t.number, t.seats) for r in state.paired for t in r.tables if not t.settled]


# --- JSON ----------------------------------------------------------------------------------------------


def table_json(t: Table) -> dict[str, Any]:
    result = t.result
    return {
        "table": t.number,
        "seats": list(t.seats),
        "match_id": t.match_id,
        "forfeits": list(t.forfeits),
        "result": None if result is None else {
            "match_id": result.match_id, "totals": dict(result.totals), "winners": list(result.winners)},
        "settled": t.settled,
        "winners": list(t.winners),
    }


def to_json(state: Tournament) -> dict[str, Any]:
    return {
        "name": state.name,
        "game": state.game,
        "format": state.format,
        "rounds": state.rounds,
        "table_size": state.table_size,
        "scoring": {"win": state.scoring.win, "bye": state.scoring.bye},
        "date": state.date,
        "meta": copy.deepcopy(dict(state.meta)),
        "closed": state.closed,
        "current_round": state.current_round,
        "entrants": [
            {"player": e.player, "name": e.name, "entered_after": e.entered_after, "withdrawn": e.withdrawn,
             "withdrawn_after": e.withdrawn_after}
            for e in state.entrants.values()
        ],
        "paired_rounds": [
            {"round": r.number, "by_hand": r.by_hand, "complete": r.complete, "byes": list(r.byes),
             "tables": [table_json(t) for t in r.tables]}
            for r in state.paired
        ],
        "missing_results": [{"round": r, "table": t, "seats": list(s)} for r, t, s in missing_results(state)],
    }


# --- checks --------------------------------------------------------------------------------------------


def _int(data: Mapping[str, Any], key: str, what: str) -> int:
    value = data[key]
    if not is_int(value):
        raise IllegalEvent(f"{what}: {key} must be an integer (got {value!r})")
    return value


def _number(value: Any, what: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0 or value != value:
        raise IllegalEvent(f"{what}: {key} must be a number ≥ 0 (got {value!r})")
    return value


def _id_list(value: Any, what: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise IllegalEvent(f"{what}: {key} must be a list of player ids (got {value!r})")
    return tuple(player_id(p, what, key) for p in value)


def _open(state: Tournament, what: str) -> None:
    if state.closed:
        raise IllegalEvent(f"{what}: the tournament is closed; nothing more can be recorded")


def _who(state: Tournament, pid: str) -> str:
    entrant = state.entrants.get(pid)
    return f"{pid} ({entrant.name})" if entrant is not None and entrant.name != pid else pid


def _table(state: Tournament, data: Mapping[str, Any], what: str) -> tuple[Round, Table]:
    """The round and table the event names, refusing one that was never paired."""
    number = _int(data, "round", what)
    if not 1 <= number <= state.current_round:
        paired = f"rounds 1 to {state.current_round} are paired" if state.current_round else "no round is paired"
        raise IllegalEvent(f"{what}: there is no round {number} ({paired})")
    rnd = state.round(number)
    table = _int(data, "table", what)
    if not 1 <= table <= len(rnd.tables):
        raise IllegalEvent(f"{what}: round {number} has tables 1 to {len(rnd.tables)}, not {table}")
    return rnd, rnd.tables[table - 1]


def _unsettled(t: Table, rnd: Round, what: str) -> None:
    where = f"round {rnd.number} table {t.number}"
    if t.result is not None:
        raise IllegalEvent(f"{what}: {where} already has its result (match {t.result.match_id})")
    if t.settled:
        raise IllegalEvent(f"{what}: {where} is settled by forfeits; no match is played there")


def _with_table(state: Tournament, rnd: Round, table: Table, **changes: Any) -> Tournament:
    tables = tuple(replace(t, **changes) if t is table else t for t in rnd.tables)
    paired = tuple(replace(r, tables=tables) if r is rnd else r for r in state.paired)
    return replace(state, paired=paired)


# --- events --------------------------------------------------------------------------------------------


def _start(data: Mapping[str, Any]) -> Tournament:
    what = "tournament_created"
    check_fields(data, what, ("name", "game", "format", "rounds", "table_size"), ("scoring", "date", "meta"))
    name = text(data["name"], what, "name")
    game = get_game(data["game"]).descriptor  # refuses an unknown game, naming the known ones
    fmt = data["format"]
    if fmt not in FORMATS:
        raise IllegalEvent(f"{what}: format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    rounds = _int(data, "rounds", what)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise IllegalEvent(f"{what}: rounds must be 1 to {MAX_ROUNDS} (got {rounds})")
    size = _int(data, "table_size", what)
    if fmt == "swiss" and size != SWISS_SIZE:
        raise IllegalEvent(f"{what}: a Swiss tournament seats 2 a table, not {size}")
    if fmt == "tables" and size not in TABLES_SIZES:
        raise IllegalEvent(f"{what}: table_size must be {TABLES_SIZES[0]} to {TABLES_SIZES[-1]} (got {size})")
    if not game.min_players <= size <= game.max_players:
        raise IllegalEvent(
            f"{what}: {game.title} is played by {game.min_players} to {game.max_players}, not {size} a table")
    scoring = _scoring(data.get("scoring"), what)
    day = data.get("date")
    if day is not None:
        try:
            ok = isinstance(day, str) and len(day) == 10 and date.fromisoformat(day).isoformat() == day
        except ValueError:
            ok = False
        if not ok:
            raise IllegalEvent(f"{what}: date must be a day written YYYY-MM-DD (got {day!r})")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise IllegalEvent(f"{what}: meta must be a JSON object (got {meta!r})")
    return Tournament(name=name, game=game.name, format=fmt, rounds=rounds, table_size=size,
                      min_players=game.min_players, scoring=scoring, date=day, meta=copy.deepcopy(meta))


def _scoring(given: Any, what: str) -> Scoring:
    if given is None:
        return Scoring()
    if not isinstance(given, dict):
        raise IllegalEvent(f"{what}: scoring must be a JSON object like {{\"win\": 1, \"bye\": 1}}")
    check_fields(given, f"{what} scoring", (), ("win", "bye"))
    default = Scoring()
    return Scoring(win=_number(given.get("win", default.win), what, "scoring.win"),
                   bye=_number(given.get("bye", default.bye), what, "scoring.bye"))


def _player_entered(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "player_entered"
    _open(state, what)
    check_fields(data, what, ("player", "name"))
    pid = player_id(data["player"], what)
    name = text(data["name"], what, "name")
    if pid in state.entrants:
        withdrawn = " and has withdrawn" if state.entrants[pid].withdrawn else ""
        raise IllegalEvent(f"{what}: {_who(state, pid)} has already entered{withdrawn}; a player enters once")
    entrant = Entrant(pid, name, entered_after=state.current_round)
    return replace(state, entrants={**state.entrants, pid: entrant})


def _player_withdrawn(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "player_withdrawn"
    _open(state, what)
    check_fields(data, what, ("player",))
    pid = player_id(data["player"], what)
    entrant = state.entrants.get(pid)
    if entrant is None:
        raise IllegalEvent(f"{what}: {pid!r} has not entered this tournament")
    if entrant.withdrawn:
        raise IllegalEvent(f"{what}: {_who(state, pid)} has already withdrawn (after round {entrant.withdrawn_after})")
    withdrawn = replace(entrant, withdrawn_after=state.current_round)
    return replace(state, entrants={**state.entrants, pid: withdrawn})


def _round_paired(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "round_paired"
    _open(state, what)
    check_fields(data, what, ("round", "tables"), ("byes", "by_hand"))
    number = _int(data, "round", what)
    if number > state.rounds:
        raise IllegalEvent(f"{what}: the tournament has {state.rounds} rounds; there is no round {number}")
    if number != state.current_round + 1:
        raise IllegalEvent(f"{what}: the next round is {state.current_round + 1}, not {number}")
    missing = [f"table {t} ({', '.join(seats)})" for r, t, seats in missing_results(state) if r == number - 1]
    if missing:
        raise IllegalEvent(f"{what}: round {number - 1} is not complete; no result yet at {'; '.join(missing)}")
    by_hand = data.get("by_hand", False)
    if not isinstance(by_hand, bool):
        raise IllegalEvent(f"{what}: by_hand must be true or false (got {by_hand!r})")
    tables = _tables(state, data["tables"], what)
    byes = _id_list(data.get("byes", []), what, "byes")
    placed: dict[str, str] = {}
    for where, pids in [*((f"table {t.number}", t.seats) for t in tables), ("the byes", byes)]:
        for pid in pids:
            if pid in placed:
                raise IllegalEvent(f"{what}: {_who(state, pid)} appears twice ({placed[pid]} and {where})")
            placed[pid] = where
            entrant = state.entrants.get(pid)
            if entrant is None:
                raise IllegalEvent(f"{what}: {pid!r} at {where} has not entered this tournament")
            if entrant.withdrawn:
                raise IllegalEvent(f"{what}: {_who(state, pid)} at {where} has withdrawn")
    left_out = [_who(state, p) for p in state.active if p not in placed]
    if left_out:
        raise IllegalEvent(f"{what}: every player still in is seated or given a bye; missing: {', '.join(left_out)}")
    return replace(state, paired=(*state.paired, Round(number, tables, byes, by_hand)))


def _tables(state: Tournament, given: Any, what: str) -> tuple[Table, ...]:
    if not isinstance(given, list) or not given:
        raise IllegalEvent(f"{what}: tables must be a non-empty list of {{\"table\": n, \"seats\": [ids]}}")
    low, high = (SWISS_SIZE, SWISS_SIZE) if state.format == "swiss" else (state.min_players, state.table_size)
    tables = []
    for n, raw in enumerate(given, start=1):
        if not isinstance(raw, dict):
            raise IllegalEvent(f"{what}: table {n} must be a JSON object {{\"table\": {n}, \"seats\": [ids]}}")
        check_fields(raw, f"{what} table {n}", ("table", "seats"))
        if not is_int(raw["table"]) or raw["table"] != n:
            raise IllegalEvent(f"{what}: tables are numbered 1, 2, … in order; table {n} is numbered {raw['table']!r}")
        seats = _id_list(raw["seats"], what, f"table {n} seats")
        if not low <= len(seats) <= high:
            seat = "exactly 2" if low == high else f"{low} to {high}"
            raise IllegalEvent(f"{what}: table {n} seats {len(seats)} players; a table seats {seat}")
        tables.append(Table(n, seats))
    return tuple(tables)


def _match_assigned(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "match_assigned"
    _open(state, what)
    check_fields(data, what, ("round", "table", "match_id"))
    rnd, table = _table(state, data, what)
    _unsettled(table, rnd, what)
    match_id = text(data["match_id"], what, "match_id", limit=200)
    elsewhere = state.assigned.get(match_id)
    if elsewhere is not None and elsewhere != (rnd.number, table.number):
        raise IllegalEvent(f"{what}: match {match_id} is already assigned to round {elsewhere[0]} "
                           f"table {elsewhere[1]}; a match is played at one table")
    assigned = {m: rt for m, rt in state.assigned.items() if m != table.match_id}  # the latest assignment counts
    assigned[match_id] = (rnd.number, table.number)
    return replace(_with_table(state, rnd, table, match_id=match_id), assigned=assigned)


def _forfeit_recorded(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "forfeit_recorded"
    _open(state, what)
    check_fields(data, what, ("round", "table", "players"))
    rnd, table = _table(state, data, what)
    _unsettled(table, rnd, what)
    forfeiting = _id_list(data["players"], what, "players")
    if not forfeiting:
        raise IllegalEvent(f"{what}: name at least one player who forfeits")
    for i, pid in enumerate(forfeiting):
        if pid not in table.seats:
            raise IllegalEvent(f"{what}: {_who(state, pid)} is not seated at round {rnd.number} table {table.number}")
        if pid in table.forfeits or pid in forfeiting[:i]:
            raise IllegalEvent(f"{what}: {_who(state, pid)} has already forfeited at this table")
    return _with_table(state, rnd, table, forfeits=(*table.forfeits, *forfeiting))


def _result_taken(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "result_taken"
    _open(state, what)
    check_fields(data, what, ("round", "table", "match_id", "totals", "winners"))
    rnd, table = _table(state, data, what)
    _unsettled(table, rnd, what)
    where = f"round {rnd.number} table {table.number}"
    match_id = data["match_id"]
    if table.match_id is None:
        raise IllegalEvent(f"{what}: no match is assigned to {where}")
    if match_id != table.match_id:
        raise IllegalEvent(f"{what}: {where} plays match {table.match_id}, not {match_id!r}")
    totals = data["totals"]
    if not isinstance(totals, dict) or not all(is_int(v) for v in totals.values()):
        raise IllegalEvent(f"{what}: totals must map each player to an integer (got {totals!r})")
    present = table.present
    if set(totals) != set(present):
        raise IllegalEvent(f"{what}: totals must name the players who played at {where} ({', '.join(present)}), "
                           f"not {', '.join(map(str, totals)) or 'nobody'}")
    winners = _id_list(data["winners"], what, "winners")
    if not winners or len(set(winners)) != len(winners) or not set(winners) <= set(present):
        raise IllegalEvent(f"{what}: winners must be some of the players who played at {where} "
                           f"({', '.join(present)}), each once (got {list(winners)})")
    result = Result(match_id, {p: totals[p] for p in present}, winners)
    return _with_table(state, rnd, table, result=result)


def _tournament_closed(state: Tournament, data: Mapping[str, Any]) -> Tournament:
    what = "tournament_closed"
    _open(state, what)
    check_fields(data, what, ())
    return replace(state, closed=True)


TOURNAMENT: StreamKind[Tournament] = StreamKind(
    name="tournament",
    start_type="tournament_created",
    start=_start,
    handlers={
        "player_entered": _player_entered,
        "player_withdrawn": _player_withdrawn,
        "round_paired": _round_paired,
        "match_assigned": _match_assigned,
        "forfeit_recorded": _forfeit_recorded,
        "result_taken": _result_taken,
        "tournament_closed": _tournament_closed,
    },
    to_json=to_json,
)
