"""Hats Off (RULES.md §4, FORMAT.md "Hats Off"): rounds of launches, nesting, knocked hats, HATS OFF.

The state is a frozen dataclass whose mappings are built once and never changed: `apply` checks the
event against the state, then builds a new state sharing everything it did not touch, so every state
the fold keeps stays valid and a refused event leaves the state exactly as it was.

A round's points are a function of where the counting hats are *now* (a knocked hat changes them), so
the running round's points are recomputed from the board rather than accumulated per event.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from projections.errors import IllegalEvent
from projections.events import Event
from projections.options import Option, Player, is_int, parse_options, parse_players, positive_int, require
from projections.protocol import Annotation, ScoreSheet

NAME = "hats-off"
HAT_NUMBERS = range(1, 7)
HOLE_NUMBERS = range(1, 10)
HOLE_POINTS = 5
NESTED_POINTS = 10
HATS_OFF_BONUS = 5

OPTIONS = {
    "target_score": Option(75, positive_int, "the round in which anyone reaches it is the last (ties play on)"),
}

HatId = tuple[str, int]  # (owner, hat number 1–6)


@dataclass(frozen=True)
class Hole:
    area: str  # the player whose target area it is
    number: int


@dataclass(frozen=True)
class InHat:
    hat: HatId


# Where a hat is: a hole, nested in a hat, or one of the strings "board" / "off".
Place = Hole | InHat | str


@dataclass(frozen=True)
class Landing:
    place: Place
    counts: bool  # False: launched after HATS OFF without being in flight — recorded, worth nothing
    in_flight: bool = False


@dataclass(frozen=True)
class HatsOffState:
    players: tuple[Player, ...]
    target: int
    round: int = 0  # the running round, or the last one played
    in_round: bool = False
    caller: str | None = None  # who called READY-SET-GO for `round`
    called: tuple[str, ...] = ()  # who called HATS OFF this round, seat order
    # This round's launched hats in launch order (kept after round_ended so the final board can be drawn).
    hats: Mapping[HatId, Landing] = field(default_factory=dict)
    past: tuple[Mapping[str, int], ...] = ()  # points per finished round
    finished: bool = False
    winners: tuple[str, ...] = ()
    last: tuple[str, HatId, Place, bool] | None = None  # the last launch/move: type, hat, place, counts


# --- reading the board -------------------------------------------------------------------------


class Board:
    """The counting hats of a round, with who holds whom and where each stack stands."""

    def __init__(self, hats: Mapping[HatId, Landing]) -> None:
        self.hats = hats
        self.holder: dict[HatId, HatId] = {}  # hat -> the hat nested directly in it
        self.in_hole: dict[Hole, HatId] = {}
        for hid, landing in hats.items():
            if not landing.counts:
                continue
            if isinstance(landing.place, InHat):
                self.holder[landing.place.hat] = hid
            elif isinstance(landing.place, Hole):
                self.in_hole[landing.place] = hid
        self._bottom: dict[HatId, Place] = {}

    def counting(self) -> Iterator[HatId]:
        return (hid for hid, landing in self.hats.items() if landing.counts)

    def bottom(self, hid: HatId) -> Place:
        """Where the stack `hid` belongs to stands: a hole, "board" or "off"."""
        if hid not in self._bottom:
            place = self.hats[hid].place
            self._bottom[hid] = self.bottom(place.hat) if isinstance(place, InHat) else place
        return self._bottom[hid]

    def area(self, hid: HatId) -> str | None:
        """The target area a hat's stack is in (a nested stack is in the area of the hole at its bottom)."""
        bottom = self.bottom(hid)
        return bottom.area if isinstance(bottom, Hole) else None

    def below(self, hid: HatId) -> Iterator[HatId]:
        """The hats under `hid` in its stack, nearest first."""
        place = self.hats[hid].place
        while isinstance(place, InHat):
            yield place.hat
            place = self.hats[place.hat].place

    def above(self, hid: HatId) -> list[HatId]:
        """The hats nested on `hid` (they move with it), nearest first."""
        out = []
        while hid in self.holder:
            hid = self.holder[hid]
            out.append(hid)
        return out

    def top(self, hid: HatId) -> HatId:
        above = self.above(hid)
        return above[-1] if above else hid

    def hat_points(self, hid: HatId) -> int:
        landing = self.hats[hid]
        if not landing.counts or self.area(hid) != hid[0]:
            return 0
        return NESTED_POINTS if isinstance(landing.place, InHat) else HOLE_POINTS

    def scoring_hats(self, player: str) -> int:
        return sum(1 for hid in self.counting() if hid[0] == player and self.hat_points(hid))


def round_points(state: HatsOffState) -> dict[str, int]:
    """Each player's points for the round on the board now: own hats in own area, plus the bonus."""
    board = Board(state.hats)
    points = {p.id: 0 for p in state.players}
    for hid in board.counting():
        points[hid[0]] += board.hat_points(hid)
    for caller in state.called:
        if board.scoring_hats(caller):
            points[caller] += HATS_OFF_BONUS
    return points


# --- names for the people at the table -----------------------------------------------------------


def _name(state: HatsOffState, pid: str) -> str:
    return next((p.name for p in state.players if p.id == pid), pid)


def _hat(state: HatsOffState, hid: HatId) -> str:
    return f"{_name(state, hid[0])}'s hat {hid[1]}"


def _hole(state: HatsOffState, hole: Hole) -> str:
    return f"hole {hole.number} of {_name(state, hole.area)}'s area"


def _place(state: HatsOffState, place: Place) -> str:
    """Where a hat is, as the tail of "Ann's hat 3 is ..."."""
    if isinstance(place, Hole):
        return f"in {_hole(state, place)}"
    if isinstance(place, InHat):
        return f"nested in {_hat(state, place.hat)}"
    return "on the board (not in a hole)" if place == "board" else "off the board"


def _to(state: HatsOffState, place: Place) -> str:
    """Where a hat went, as the tail of "Ann's hat 3 launched ..."."""
    if isinstance(place, Hole):
        return f"into {_hole(state, place)}"
    if isinstance(place, InHat):
        return f"into {_hat(state, place.hat)}"
    return "onto the board, not in a hole" if place == "board" else "off the board"


def place_json(place: Place) -> Any:
    if isinstance(place, Hole):
        return {"hole": {"area": place.area, "number": place.number}}
    if isinstance(place, InHat):
        return {"in_hat": {"player": place.hat[0], "hat": place.hat[1]}}
    return place


# --- parsing event data --------------------------------------------------------------------------


def _player(state: HatsOffState, value: Any, what: str) -> str:
    ids = [p.id for p in state.players]
    if not isinstance(value, str) or value not in ids:
        raise IllegalEvent(f"{what}: unknown player {value!r}; the players are {', '.join(ids)}")
    return value


def _number(value: Any, allowed: range, what: str) -> int:
    if not is_int(value) or value not in allowed:
        raise IllegalEvent(f"{what} must be a whole number {allowed.start}–{allowed.stop - 1}, not {value!r}")
    return value


def _hat_id(state: HatsOffState, data: Mapping[str, Any], what: str) -> HatId:
    player = _player(state, require(data, "player", str, what), what)
    if "hat" not in data:
        raise IllegalEvent(f"{what}: missing 'hat'")
    return player, _number(data["hat"], HAT_NUMBERS, f"{what}: hat")


def _parse_place(state: HatsOffState, raw: Any, what: str) -> Place:
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


def _check_destination(state: HatsOffState, board: Board, hid: HatId, place: Place) -> None:
    """Refuse a counting hat's landing spot that the board cannot give it; `hid` may already be on it."""
    if isinstance(place, Hole):
        occupant = board.in_hole.get(place)
        if occupant is not None and occupant != hid:
            if hid in board.above(occupant):
                raise IllegalEvent(
                    f"{_hat(state, hid)} is already in the stack standing in {_hole(state, place)} "
                    f"({_place(state, state.hats[hid].place)})"
                )
            top = board.top(occupant)
            raise IllegalEvent(
                f"{_hole(state, place)} already holds {_hat(state, occupant)}; a hat landing there is nested "
                f"in {_hat(state, top)}, the top of that stack"
            )
        return
    if not isinstance(place, InHat):
        return
    target = place.hat
    if target == hid:
        raise IllegalEvent(f"{_hat(state, hid)} cannot be nested inside itself")
    landing = state.hats.get(target)
    if landing is None:
        raise IllegalEvent(f"{_hat(state, target)} has not been launched this round; nothing can be nested in it")
    if not landing.counts:
        raise IllegalEvent(
            f"{_hat(state, target)} was launched after HATS OFF and counts for nothing; nothing can be nested in it"
        )
    if hid in board.below(target):
        raise IllegalEvent(
            f"{_hat(state, target)} sits in {_hat(state, hid)}'s stack and moves with it; "
            "a hat cannot be nested inside its own stack"
        )
    bottom = board.bottom(target)
    if not isinstance(bottom, Hole):
        where = "on the board, not in a hole" if bottom == "board" else "off the board"
        raise IllegalEvent(f"{_hat(state, target)} is {where}; a hat nests only into a hat standing in a hole")
    held = board.holder.get(target)
    if held is not None and held != hid:
        if hid in board.above(target):
            raise IllegalEvent(
                f"{_hat(state, hid)} is already in {_hat(state, target)}'s stack "
                f"({_place(state, state.hats[hid].place)}); {_hat(state, target)} holds {_hat(state, held)}"
            )
        raise IllegalEvent(
            f"{_hat(state, target)} already holds {_hat(state, held)}; a hat landing there is nested in "
            f"{_hat(state, board.top(held))}, the top of that stack"
        )


def _launched(state: HatsOffState, player: str) -> list[int]:
    return sorted(n for (owner, n) in state.hats if owner == player)


def _in_flight_recorded(state: HatsOffState, player: str) -> bool:
    return any(hid[0] == player and landing.in_flight for hid, landing in state.hats.items())


def _next_caller(state: HatsOffState) -> Player:
    # Round k's caller is seat (k − 1) mod n, tie-break rounds included; the next round is state.round + 1.
    return state.players[state.round % len(state.players)]


def _require_round(state: HatsOffState, what: str) -> None:
    if state.finished:
        raise IllegalEvent("the match is finished")
    if not state.in_round:
        raise IllegalEvent(
            f"{what}: no round is in progress; {_next_caller(state).name} calls READY-SET-GO (round_started) first"
        )


# --- the reducer ---------------------------------------------------------------------------------


class HatsOff:
    name = NAME
    min_players = 2
    max_players = 4
    event_types = frozenset({"round_started", "hat_launched", "hats_off_called", "hat_moved", "round_ended"})

    def start(self, data: Mapping[str, Any]) -> HatsOffState:
        if not isinstance(data, Mapping):
            raise IllegalEvent("match_started: data must be a JSON object")
        players = parse_players(data, NAME, self.min_players, self.max_players)
        options = parse_options(data.get("options"), OPTIONS, NAME)
        return HatsOffState(players=players, target=options["target_score"])

    def apply(self, state: HatsOffState, event: Event) -> HatsOffState:
        handler = {
            "round_started": self._round_started,
            "hat_launched": self._hat_launched,
            "hats_off_called": self._hats_off_called,
            "hat_moved": self._hat_moved,
            "round_ended": self._round_ended,
        }.get(event.type)
        if handler is None:
            raise IllegalEvent(f"{event.type} is not a Hats Off event")
        if not isinstance(event.data, Mapping):
            raise IllegalEvent(f"{event.type}: data must be a JSON object")
        return handler(state, event.data)

    def _round_started(self, state: HatsOffState, data: Mapping[str, Any]) -> HatsOffState:
        what = "round_started"
        if state.finished:
            raise IllegalEvent("the match is finished")
        if state.in_round:
            raise IllegalEvent(f"{what}: round {state.round} is still in progress; record round_ended first")
        caller = _player(state, require(data, "caller", str, what), f"{what}: caller")
        due = _next_caller(state)
        if caller != due.id:
            raise IllegalEvent(
                f"round {state.round + 1}'s READY-SET-GO is called by {due.name} (callers go clockwise), "
                f"not {_name(state, caller)}"
            )
        return HatsOffState(
            players=state.players, target=state.target, round=state.round + 1, in_round=True,
            caller=caller, past=state.past,
        )

    def _hat_launched(self, state: HatsOffState, data: Mapping[str, Any]) -> HatsOffState:
        what = "hat_launched"
        _require_round(state, what)
        hid = _hat_id(state, data, what)
        in_flight = data.get("in_flight", False)
        if not isinstance(in_flight, bool):
            raise IllegalEvent(f"{what}: in_flight must be true or false, not {in_flight!r}")
        if "to" not in data:
            raise IllegalEvent(f"{what}: missing 'to'")
        place = _parse_place(state, data["to"], what)
        earlier = state.hats.get(hid)
        if earlier is not None:
            raise IllegalEvent(
                f"{_hat(state, hid)} was already launched this round ({_place(state, earlier.place)}); "
                "record a knocked hat as hat_moved"
            )
        if in_flight and not state.called:
            raise IllegalEvent(
                f"{what}: in_flight is only for a hat already flying when HATS OFF was called, "
                "and nobody has called HATS OFF yet this round"
            )
        if in_flight and _in_flight_recorded(state, hid[0]):
            raise IllegalEvent(
                f"{_name(state, hid[0])} already has a hat recorded as in flight at the HATS OFF call; "
                "hats are launched one at a time"
            )
        counts = in_flight or not state.called
        if counts:
            _check_destination(state, Board(state.hats), hid, place)
        elif place == InHat(hid):
            raise IllegalEvent(f"{_hat(state, hid)} cannot be nested inside itself")
        landing = Landing(place, counts, in_flight)
        return replace(state, hats={**state.hats, hid: landing}, last=(what, hid, place, counts))

    def _hats_off_called(self, state: HatsOffState, data: Mapping[str, Any]) -> HatsOffState:
        what = "hats_off_called"
        _require_round(state, what)
        raw = require(data, "players", list, what)
        if not raw:
            raise IllegalEvent(f"{what}: players must name at least one caller")
        callers = [_player(state, p, what) for p in raw]
        dup = next((p for p in callers if callers.count(p) > 1), None)
        if dup is not None:
            raise IllegalEvent(f"{what}: {_name(state, dup)} is listed twice")
        if state.called:
            names = " and ".join(_name(state, p) for p in state.called)
            raise IllegalEvent(f"HATS OFF was already called this round by {names}")
        for p in callers:
            launched = _launched(state, p)
            if len(launched) < len(HAT_NUMBERS):
                missing = ", ".join(str(n) for n in HAT_NUMBERS if n not in launched)
                raise IllegalEvent(
                    f"{_name(state, p)} cannot call HATS OFF: {len(launched)} of 6 hats launched "
                    f"(still to launch: {missing})"
                )
        seat = [pl.id for pl in state.players]
        return replace(state, called=tuple(sorted(callers, key=seat.index)))

    def _hat_moved(self, state: HatsOffState, data: Mapping[str, Any]) -> HatsOffState:
        what = "hat_moved"
        _require_round(state, what)
        hid = _hat_id(state, data, what)
        if "to" not in data:
            raise IllegalEvent(f"{what}: missing 'to'")
        place = _parse_place(state, data["to"], what)
        landing = state.hats.get(hid)
        if landing is None:
            raise IllegalEvent(f"{_hat(state, hid)} has not been launched this round, so it cannot be moved")
        if not landing.counts:
            raise IllegalEvent(
                f"{_hat(state, hid)} was launched after HATS OFF and counts for nothing; it cannot be moved"
            )
        if landing.place == place:
            raise IllegalEvent(f"{_hat(state, hid)} is already {_place(state, place)}")
        _check_destination(state, Board(state.hats), hid, place)
        # Hats nested in the moved hat reference it, so they move with it unchanged.
        return replace(state, hats={**state.hats, hid: replace(landing, place=place)}, last=(what, hid, place, True))

    def _round_ended(self, state: HatsOffState, data: Mapping[str, Any]) -> HatsOffState:
        _require_round(state, "round_ended")
        if not state.called:
            raise IllegalEvent(
                f"round {state.round} cannot end before HATS OFF is called "
                "(the first player to launch all 6 hats calls it)"
            )
        past = (*state.past, round_points(state))
        totals = _sum_rounds(state.players, past)
        top = max(totals.values())
        leaders = tuple(p for p, t in totals.items() if t == top)
        # The round in which anyone reaches the target is the last, unless the top is an exact tie.
        finished = top >= state.target and len(leaders) == 1
        return replace(state, in_round=False, past=past, finished=finished, winners=leaders if finished else ())

    # --- reading -------------------------------------------------------------------------------

    def is_finished(self, state: HatsOffState) -> bool:
        return state.finished

    def scores(self, state: HatsOffState) -> ScoreSheet:
        rounds = [dict(r) for r in state.past]
        if state.in_round:
            rounds.append(round_points(state))
        return ScoreSheet(_sum_rounds(state.players, rounds), rounds, state.finished, list(state.winners))

    def to_json(self, state: HatsOffState) -> dict[str, Any]:
        board = Board(state.hats)
        sheet = self.scores(state)
        seat = [p.id for p in state.players]
        running = round_points(state) if state.hats else {p.id: 0 for p in state.players}
        hats = []
        for hid, landing in state.hats.items():
            hats.append({
                "player": hid[0], "hat": hid[1], "to": place_json(landing.place), "counts": landing.counts,
                "in_flight": landing.in_flight,
                "area": board.area(hid) if landing.counts else None,
                "points": board.hat_points(hid),
            })
        holes = [
            {"area": hole.area, "number": hole.number,
             "stack": [{"player": h[0], "hat": h[1]} for h in (bottom, *board.above(bottom))]}
            for hole, bottom in sorted(board.in_hole.items(), key=lambda kv: (seat.index(kv[0].area), kv[0].number))
        ]
        return {
            "game": NAME,
            "target_score": state.target,
            "round": state.round,
            "round_in_progress": state.in_round,
            "caller": state.caller,
            "next_caller": None if state.in_round or state.finished else _next_caller(state).id,
            "hats_off_called_by": list(state.called),
            "players": [
                {"id": p.id, "name": p.name, "score": sheet.totals[p.id], "round_points": running[p.id],
                 "hats_launched": len(_launched(state, p.id)),
                 "hats_in_hand": [n for n in HAT_NUMBERS if (p.id, n) not in state.hats]}
                for p in state.players
            ],
            "hats": hats,
            "holes": holes,
            "last": _last_json(state.last),
            "rounds": sheet.rounds,
            "finished": state.finished,
            "winners": list(state.winners),
        }

    def legal_moves(self, state: HatsOffState, player: str) -> list[dict[str, Any]]:
        return legal_moves(state, player)

    def describe(self, before: HatsOffState, event: Event, after: HatsOffState) -> Annotation:
        data = event.data
        gained = _gains(self, before, after)
        if event.type == "round_started":
            return Annotation(f"Round {after.round}: {_name(after, after.caller or '')} calls READY-SET-GO",
                              after.caller)
        if event.type in ("hat_launched", "hat_moved"):
            hid = (data["player"], data["hat"])
            landing = after.hats[hid]
            verb = "launched" if event.type == "hat_launched" else "knocked"
            text = f"{_hat(after, hid)} {verb} {_to(after, landing.place)}"
            area = Board(after.hats).area(hid) if landing.counts else None
            if isinstance(landing.place, InHat) and area:
                text += f" ({_name(after, area)}'s area)"
            tags: list[str] = []
            if not landing.counts:
                text += " after HATS OFF: does not count"
            else:
                if landing.in_flight and event.type == "hat_launched":
                    text += " (in flight at the call)"
                    tags.append("in_flight")
                if isinstance(landing.place, InHat):
                    tags.append("nested")
                elif isinstance(landing.place, Hole):
                    tags.append("hole")
                text += _gain_text(after, gained)
            return Annotation(text, hid[0], tuple(tags))
        if event.type == "hats_off_called":
            names = " and ".join(_name(after, p) for p in after.called)
            together = " together" if len(after.called) > 1 else ""
            board = Board(after.hats)
            bonus = [
                f"{_name(after, p)} +{HATS_OFF_BONUS} bonus" if board.scoring_hats(p)
                else f"no bonus for {_name(after, p)} (no scoring hat in own area)"
                for p in after.called
            ]
            return Annotation(f"{names} call{'' if together else 's'} HATS OFF{together}: " + ", ".join(bonus),
                              after.called[0], ("hats_off",))
        if event.type == "round_ended":
            pts = after.past[-1]
            totals = _sum_rounds(after.players, after.past)
            text = f"Round {after.round} ends: " + ", ".join(f"{p.name} {pts[p.id]}" for p in after.players)
            text += " (totals " + ", ".join(f"{p.name} {totals[p.id]}" for p in after.players) + ")"
            if after.finished:
                text += f"; {_name(after, after.winners[0])} wins"
            elif max(totals.values()) >= after.target:
                top = max(totals.values())
                tied = " and ".join(p.name for p in after.players if totals[p.id] == top)
                text += f"; {tied} tie at {top}: another round"
            return Annotation(text, None, ("round_end",))
        return Annotation(event.type)

    def random_match(
        self, rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        from projections.hats_off_player import random_match

        return random_match(rng, players, options)


def _last_json(last: tuple[str, HatId, Place, bool] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    kind, hid, place, counts = last
    return {"type": kind, "player": hid[0], "hat": hid[1], "to": place_json(place), "counts": counts}


def _sum_rounds(players: tuple[Player, ...], rounds: Any) -> dict[str, int]:
    return {p.id: sum(r[p.id] for r in rounds) for p in players}


def _gains(game: HatsOff, before: HatsOffState, after: HatsOffState) -> dict[str, int]:
    b, a = game.scores(before).totals, game.scores(after).totals
    return {p: a[p] - b[p] for p in a if a[p] != b[p]}


def _gain_text(state: HatsOffState, gained: Mapping[str, int]) -> str:
    if not gained:
        return ": 0"
    return ": " + ", ".join(f"{_name(state, p)} {v:+d}" for p, v in gained.items())


def hats_off_choices(state: HatsOffState, player: str) -> list[tuple[str, ...]]:
    """The caller lists `player` may record: alone or with others who have also launched all 6."""
    ready = [p.id for p in state.players if len(_launched(state, p.id)) == len(HAT_NUMBERS)]
    if player not in ready:
        return []
    others = [p for p in ready if p != player]
    seat = [p.id for p in state.players]
    return [
        tuple(sorted((player, *extra), key=seat.index))
        for k in range(len(others) + 1)
        for extra in combinations(others, k)
    ]


# --- legal moves ---------------------------------------------------------------------------------
# Hats Off is a dexterity game: these are the events `player` may record now. A launch or move lists
# every spot the board allows; "points" is what it changes in the player's running round (bonus
# included), "area" whose target area the hat would be in, "counts" whether it counts at all.


def _destinations(state: HatsOffState, board: Board, hid: HatId) -> Iterator[Place]:
    """Every spot a counting hat `hid` may land on now (its current spot included)."""
    yield "board"
    yield "off"
    for p in state.players:
        for number in HOLE_NUMBERS:
            hole = Hole(p.id, number)
            if board.in_hole.get(hole, hid) == hid:
                yield hole
    for target in list(board.counting()):
        if (
            target != hid
            and board.holder.get(target, hid) == hid
            and isinstance(board.bottom(target), Hole)
            and hid not in board.below(target)
        ):
            yield InHat(target)


def _area_of(board: Board, place: Place) -> str | None:
    if isinstance(place, Hole):
        return place.area
    if isinstance(place, InHat):
        return board.area(place.hat)
    return None


def _own_points(place: Place, area: str | None, owner: str) -> int:
    if area != owner:
        return 0
    return NESTED_POINTS if isinstance(place, InHat) else HOLE_POINTS


def _move(kind: str, hid: HatId, place: Place, points: int, area: str | None, counts: bool = True,
          in_flight: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {"player": hid[0], "hat": hid[1], "to": place_json(place)}
    if in_flight:
        data["in_flight"] = True
    return {"type": kind, "data": data, "points": points, "area": area, "counts": counts}


def _launches(state: HatsOffState, board: Board, player: str, in_flight: bool) -> list[dict[str, Any]]:
    moves = []
    for n in HAT_NUMBERS:
        hid = (player, n)
        if hid in state.hats:
            continue
        for place in _destinations(state, board, hid):
            area = _area_of(board, place)
            moves.append(_move("hat_launched", hid, place, _own_points(place, area, player), area,
                               in_flight=in_flight))
    return moves


def _void_launches(state: HatsOffState, player: str) -> list[dict[str, Any]]:
    """Launches after the call that count for nothing: any well-formed spot may be written down."""
    places: list[Place] = ["board", "off"]
    places += [Hole(p.id, number) for p in state.players for number in HOLE_NUMBERS]
    places += [InHat((p.id, n)) for p in state.players for n in HAT_NUMBERS]
    return [
        _move("hat_launched", (player, n), place, 0, None, counts=False)
        for n in HAT_NUMBERS
        if (player, n) not in state.hats
        for place in places
        if place != InHat((player, n))
    ]


def _knocks(state: HatsOffState, board: Board, player: str) -> list[dict[str, Any]]:
    moves = []
    scoring = board.scoring_hats(player)
    bonus_now = HATS_OFF_BONUS if player in state.called and scoring else 0
    for hid in list(board.counting()):
        if hid[0] != player:
            continue
        current = state.hats[hid].place
        own_carried = [h for h in board.above(hid) if h[0] == player]  # nested on it: move with it
        old = board.hat_points(hid) + sum(board.hat_points(h) for h in own_carried)
        old_scoring = (board.hat_points(hid) > 0) + sum(board.hat_points(h) > 0 for h in own_carried)
        for place in _destinations(state, board, hid):
            if place == current:
                continue
            area = _area_of(board, place)
            new_hat = _own_points(place, area, player)
            new = new_hat + (NESTED_POINTS * len(own_carried) if area == player else 0)
            new_scoring = (new_hat > 0) + (len(own_carried) if area == player else 0)
            bonus = HATS_OFF_BONUS if player in state.called and scoring - old_scoring + new_scoring else 0
            moves.append(_move("hat_moved", hid, place, new - old + bonus - bonus_now, area))
    return moves


def legal_moves(state: HatsOffState, player: str) -> list[dict[str, Any]]:
    if state.finished or player not in {p.id for p in state.players}:
        return []
    if not state.in_round:
        if _next_caller(state).id != player:
            return []
        return [{"type": "round_started", "data": {"caller": player}, "points": 0}]
    board = Board(state.hats)
    if not state.called:
        moves = _launches(state, board, player, in_flight=False)
        bonus = HATS_OFF_BONUS if board.scoring_hats(player) else 0
        moves += [
            {"type": "hats_off_called", "data": {"players": list(callers)}, "points": bonus}
            for callers in hats_off_choices(state, player)
        ]
    else:
        moves = []
        if not _in_flight_recorded(state, player):
            moves += _launches(state, board, player, in_flight=True)
        moves += _void_launches(state, player)
    moves += _knocks(state, board, player)
    if state.called:
        moves.append({"type": "round_ended", "data": {}, "points": 0})
    return moves


GAME = HatsOff()
