"""Hats Off legal moves.

Hats Off is a dexterity game: these are the events `player` may record now. A launch or move lists
every spot the board allows; "points" is what it changes in the player's running round (bonus
included), "area" whose target area the hat would be in, "counts" whether it counts at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

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
    Place,
    place_json,
)
from projections.games.hats_off.rules import State, in_flight_recorded, launched, next_caller


def hats_off_choices(state: State, player: str) -> list[tuple[str, ...]]:
    """The caller lists `player` may record: alone or with others who have also launched all 6."""
    ready = [p.id for p in state.players if len(launched(state, p.id)) == len(HAT_NUMBERS)]
    if player not in ready:
        return []
    others = [p for p in ready if p != player]
    seat = [p.id for p in state.players]
    return [
        tuple(sorted((player, *extra), key=seat.index))
        for k in range(len(others) + 1)
        for extra in combinations(others, k)
    ]


def _destinations(state: State, board: Board, hid: HatId) -> Iterator[Place]:
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


def _launches(state: State, board: Board, player: str, in_flight: bool) -> list[dict[str, Any]]:
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


def _void_launches(state: State, player: str) -> list[dict[str, Any]]:
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


def _knocks(state: State, board: Board, player: str) -> list[dict[str, Any]]:
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


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    if state.finished or player not in {p.id for p in state.players}:
        return []
    if not state.in_round:
        if next_caller(state).id != player:
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
        if not in_flight_recorded(state, player):
            moves += _launches(state, board, player, in_flight=True)
        moves += _void_launches(state, player)
    moves += _knocks(state, board, player)
    if state.called:
        moves.append({"type": "round_ended", "data": {}, "points": 0})
    return moves
