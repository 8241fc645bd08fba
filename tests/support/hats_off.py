"""Small builders for hand-written Hats Off logs, shared by the Hats Off tests (tests/games/hats_off/), and the
check that legal_moves lists exactly the events apply accepts."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hats_off import GAME, State
from projections.timeline import Fold, fold_dicts

Line = dict[str, Any]

PLAYERS = {"ann": "Ann", "bo": "Bo", "cy": "Cy", "di": "Di"}


def started(*ids: str, **options: Any) -> Line:
    ids = ids or ("ann", "bo")
    players = [{"id": i, "name": PLAYERS.get(i, i)} for i in ids]
    return {"type": "match_started", "data": {"game": "hats-off", "players": players, "options": options}}


def hole(area: str, number: int) -> dict[str, Any]:
    return {"hole": {"area": area, "number": number}}


def in_hat(player: str, hat: int) -> dict[str, Any]:
    return {"in_hat": {"player": player, "hat": hat}}


def launch(player: str, hat: int, to: Any, in_flight: bool | None = None) -> Line:
    data: dict[str, Any] = {"player": player, "hat": hat, "to": to}
    if in_flight is not None:
        data["in_flight"] = in_flight
    return {"type": "hat_launched", "data": data}


def moved(player: str, hat: int, to: Any) -> Line:
    return {"type": "hat_moved", "data": {"player": player, "hat": hat, "to": to}}


def round_started(caller: str) -> Line:
    return {"type": "round_started", "data": {"caller": caller}}


def hats_off(*players: str) -> Line:
    return {"type": "hats_off_called", "data": {"players": list(players)}}


def round_ended() -> Line:
    return {"type": "round_ended", "data": {}}


def misses(player: str, *hats: int, to: Any = "off") -> list[Line]:
    """Launches that land nowhere that scores (off the board by default)."""
    return [launch(player, h, to) for h in hats]


def own_holes(player: str, *hats: int, first_hole: int = 1) -> list[Line]:
    """Each hat point down in its own hole of the player's area: 5 points apiece."""
    return [launch(player, h, hole(player, first_hole + i)) for i, h in enumerate(hats)]


def all_six(player: str) -> list[Line]:
    """All six of the player's hats launched: hat 1 into their own hole 1 (5 points), the rest off the board."""
    return [*own_holes(player, 1), *misses(player, 2, 3, 4, 5, 6)]


def fold(*lines: Line | list[Line]) -> Fold:
    flat: list[Line] = []
    for x in lines:
        flat.extend(x if isinstance(x, list) else [x])
    return fold_dicts(flat)


def push(f: Fold, line: Line) -> Fold:
    return f.apply(Event(f.seq + 1, line["type"], line["data"]))


def more(f: Fold, *lines: Line | list[Line]) -> Fold:
    """`f` extended with more lines."""
    for x in lines:
        for line in x if isinstance(x, list) else [x]:
            f = push(f, line)
    return f


def round_points(f: Fold) -> dict[str, int]:
    """The running (or last finished) round's points."""
    return GAME.scores(f.state).rounds[-1]


def refused(f: Fold, line: Line) -> str:
    """Apply an illegal event: it must be refused and leave the state exactly as it was; gives the reason."""
    before_json, before_state = GAME.to_json(f.state), f.state
    with pytest.raises(IllegalEvent) as info:
        GAME.apply(f.state, Event(f.seq + 1, line["type"], line["data"]))
    assert GAME.to_json(f.state) == before_json
    assert f.state == before_state
    with pytest.raises(IllegalEvent):  # the timeline refuses it too
        push(f, line)
    return info.value.reason


def candidates(state: State) -> list[dict[str, Any]]:
    """Every well-formed Hats Off event for this match's players: the haystack legal_moves is checked against."""
    ids = [p.id for p in state.players]
    places: list[Any] = ["board", "off"]
    places += [hole(a, n) for a in ids for n in range(1, 10)]
    places += [in_hat(p, h) for p in ids for h in range(1, 7)]
    out: list[dict[str, Any]] = [round_started(p) for p in ids]
    out.append(round_ended())
    for k in range(1, len(ids) + 1):
        out += [hats_off(*c) for c in combinations(ids, k)]
    for p in ids:
        for h in range(1, 7):
            for to in places:
                out.append(launch(p, h, to))
                out.append(launch(p, h, to, in_flight=True))
                out.append(moved(p, h, to))
    return out


def concerns(event: dict[str, Any], player: str) -> bool:
    data = event["data"]
    if event["type"] == "round_started":
        return bool(data["caller"] == player)
    if event["type"] == "hats_off_called":
        return player in data["players"]
    if event["type"] == "round_ended":
        return True
    return bool(data["player"] == player)


def key(event: dict[str, Any]) -> str:
    return json.dumps([event["type"], event["data"]], sort_keys=True)


def check_legal_moves(state: State) -> None:
    """legal_moves lists exactly the accepted events concerning each player, each with its true points."""
    accepted: dict[str, tuple[dict[str, Any], State]] = {}
    for event in candidates(state):
        try:
            accepted[key(event)] = event, GAME.apply(state, Event(2, event["type"], event["data"]))
        except IllegalEvent:
            pass
    before = GAME.scores(state).totals
    for p in state.players:
        moves = GAME.legal_moves(state, p.id)
        listed = {key(m): m for m in moves}
        assert len(listed) == len(moves), "a move is listed twice"
        assert set(listed) == {k for k, (event, _) in accepted.items() if concerns(event, p.id)}
        for k, m in listed.items():
            after = GAME.scores(accepted[k][1]).totals
            if m["type"] in ("hat_launched", "hat_moved", "hats_off_called"):
                assert m["points"] == after[p.id] - before[p.id], m
            else:
                assert m["points"] == 0
