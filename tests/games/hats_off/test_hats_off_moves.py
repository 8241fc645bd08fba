"""Hats Off legal moves (exactly the events apply accepts, with the points they change), describe and to_json."""

from __future__ import annotations

import json
import random

import pytest

from projections.games.hats_off import GAME, State
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.hats_off import (
    all_six,
    check_legal_moves,
    fold,
    hats_off,
    hole,
    in_hat,
    launch,
    misses,
    more,
    moved,
    own_holes,
    round_ended,
    round_started,
    started,
)


def states_of(f: Fold) -> list[State]:
    return [f.state_at(s) for s in range(1, f.seq + 1)]


def test_legal_moves_are_exactly_what_apply_accepts_in_example_01() -> None:
    lines, _ = load_example("hats-off-01")
    f = fold_dicts(lines)
    for state in states_of(f)[:-1]:  # the finished state has no moves: checked below
        check_legal_moves(state)
    assert all(GAME.legal_moves(f.state, p.id) == [] for p in f.state.players)


def test_legal_moves_in_random_three_and_four_player_rounds() -> None:
    for seed, n in ((1, 3), (2, 4)):
        players = [{"id": i, "name": i.title()} for i in ("ann", "bo", "cy", "di")[:n]]
        f = fold_dicts(GAME.random_match(random.Random(seed), players))
        for state in states_of(f)[:40:3]:
            check_legal_moves(state)


def test_legal_moves_with_stacks_and_a_simultaneous_call_possible() -> None:
    f = fold(started("ann", "bo", "cy"), round_started("ann"), launch("ann", 1, hole("ann", 1)),
             launch("bo", 1, in_hat("ann", 1)), launch("ann", 2, in_hat("bo", 1)), launch("cy", 1, "board"),
             misses("ann", 3, 4, 5, 6), misses("bo", 2, 3, 4, 5, 6))
    check_legal_moves(f.state)
    calls = [m["data"]["players"] for m in GAME.legal_moves(f.state, "ann") if m["type"] == "hats_off_called"]
    assert calls == [["ann"], ["ann", "bo"]]
    # Ann's knock of her hat 1 into Cy's area loses 15 (5 + 10 on top), nothing in own area.
    knocks = [m for m in GAME.legal_moves(f.state, "ann")
              if m["type"] == "hat_moved" and m["data"]["hat"] == 1 and m["data"]["to"] == hole("cy", 3)]
    assert [(m["points"], m["area"]) for m in knocks] == [(-15, "cy")]


def test_legal_moves_before_and_between_rounds() -> None:
    f = fold(started())
    assert GAME.legal_moves(f.state, "ann") == [{"type": "round_started", "data": {"caller": "ann"}, "points": 0}]
    assert GAME.legal_moves(f.state, "bo") == [] and GAME.legal_moves(f.state, "zed") == []


def test_legal_moves_after_the_call() -> None:
    f = fold(started(), round_started("ann"), all_six("ann"), launch("bo", 1, hole("bo", 1)), hats_off("ann"))
    bo = GAME.legal_moves(f.state, "bo")
    flying = [m for m in bo if m["data"].get("in_flight")]
    late = [m for m in bo if m["type"] == "hat_launched" and not m["counts"]]
    assert {m["data"]["hat"] for m in flying} == {2, 3, 4, 5, 6}
    own = [m for m in flying if m["data"]["hat"] == 2 and m["area"] == "bo" and "hole" in m["data"]["to"]]
    assert len(own) == 8 and all(m["points"] == 5 for m in own)  # 8 free holes in Bo's area
    assert late and all(m["points"] == 0 and "in_flight" not in m["data"] for m in late)
    assert {"type": "round_ended", "data": {}, "points": 0} in bo
    ann = GAME.legal_moves(f.state, "ann")
    assert not [m for m in ann if m["type"] == "hat_launched"]  # all six are out
    # Knocking her only scoring hat out costs Ann 5 and the bonus.
    assert [m["points"] for m in ann if m["type"] == "hat_moved" and m["data"]["to"] == "off"
            and m["data"]["hat"] == 1] == [-10]
    f = more(f, launch("bo", 2, "off", in_flight=True))
    assert not [m for m in GAME.legal_moves(f.state, "bo") if m["data"].get("in_flight")]


# --- describe -------------------------------------------------------------------------------------


def describe_all(f: Fold) -> list[tuple[str, str | None, tuple[str, ...]]]:
    return [(a.text, a.player, a.tags) for a in (f.describe(s) for s in range(2, f.seq + 1))]


def test_describe_a_round() -> None:
    f = fold(started("ann", "bo", "cy"), round_started("ann"), launch("ann", 1, hole("ann", 4)),
             launch("bo", 1, in_hat("ann", 1)), launch("ann", 2, in_hat("bo", 1)), launch("cy", 1, "board"),
             misses("ann", 3, 4, 5, 6), hats_off("ann"), launch("cy", 2, hole("cy", 1), in_flight=True),
             launch("bo", 2, hole("bo", 1)), moved("ann", 1, hole("bo", 2)), round_ended())
    lines = describe_all(f)
    assert lines[0] == ("Round 1: Ann calls READY-SET-GO", "ann", ())
    assert lines[1] == ("Ann's hat 1 launched into hole 4 of Ann's area: Ann +5", "ann", ("hole",))
    assert lines[2] == ("Bo's hat 1 launched into Ann's hat 1 (Ann's area): 0", "bo", ("nested",))
    assert lines[3] == ("Ann's hat 2 launched into Bo's hat 1 (Ann's area): Ann +10", "ann", ("nested",))
    assert lines[4] == ("Cy's hat 1 launched onto the board, not in a hole: 0", "cy", ())
    assert lines[9] == ("Ann calls HATS OFF: Ann +5 bonus", "ann", ("hats_off",))
    assert lines[10] == ("Cy's hat 2 launched into hole 1 of Cy's area (in flight at the call): Cy +5", "cy",
                         ("in_flight", "hole"))
    assert lines[11] == ("Bo's hat 2 launched into hole 1 of Bo's area after HATS OFF: does not count", "bo", ())
    assert lines[12] == ("Ann's hat 1 knocked into hole 2 of Bo's area: Ann -20, Bo +10", "ann", ("hole",))
    assert lines[13] == ("Round 1 ends: Ann 0, Bo 10, Cy 5 (totals Ann 0, Bo 10, Cy 5)", None, ("round_end",))


def test_describe_simultaneous_call_and_the_end() -> None:
    f = fold(started(target_score=5), round_started("ann"), misses("ann", 1, 2, 3, 4, 5, 6), own_holes("bo", 1),
             misses("bo", 2, 3, 4, 5, 6), hats_off("ann", "bo"), round_ended())
    text, player, tags = describe_all(f)[-2]
    assert text == "Ann and Bo call HATS OFF together: no bonus for Ann (no scoring hat in own area), Bo +5 bonus"
    assert (player, tags) == ("ann", ("hats_off",))
    assert describe_all(f)[-1][0] == "Round 1 ends: Ann 0, Bo 10 (totals Ann 0, Bo 10); Bo wins"


def test_describe_a_tie() -> None:
    f = fold(started(target_score=5), round_started("ann"), all_six("ann"), own_holes("bo", 1, 2),
             misses("bo", 3, 4, 5, 6), hats_off("ann"), round_ended())
    assert describe_all(f)[-1][0].endswith("; Ann and Bo tie at 10: another round")


def test_describe_a_knock_into_a_hat() -> None:
    f = fold(started(), round_started("ann"), launch("bo", 1, hole("ann", 3)), launch("ann", 1, "board"),
             moved("ann", 1, in_hat("bo", 1)))
    assert describe_all(f)[-1] == ("Ann's hat 1 knocked into Bo's hat 1 (Ann's area): Ann +10", "ann", ("nested",))


# --- to_json --------------------------------------------------------------------------------------


def test_to_json_has_what_a_board_drawing_needs() -> None:
    f = fold(started(), round_started("ann"), launch("ann", 1, hole("ann", 4)), launch("bo", 1, in_hat("ann", 1)),
             launch("bo", 2, "off"))
    state = GAME.to_json(f.state)
    assert json.loads(json.dumps(state)) == state
    assert state == {
        "game": "hats-off", "target_score": 75, "round": 1, "round_in_progress": True, "caller": "ann",
        "next_caller": None, "hats_off_called_by": [],
        "players": [
            {"id": "ann", "name": "Ann", "score": 5, "round_points": 5, "hats_launched": 1,
             "hats_in_hand": [2, 3, 4, 5, 6]},
            {"id": "bo", "name": "Bo", "score": 0, "round_points": 0, "hats_launched": 2,
             "hats_in_hand": [3, 4, 5, 6]},
        ],
        "hats": [
            {"player": "ann", "hat": 1, "to": hole("ann", 4), "counts": True, "in_flight": False, "area": "ann",
             "points": 5},
            {"player": "bo", "hat": 1, "to": in_hat("ann", 1), "counts": True, "in_flight": False, "area": "ann",
             "points": 0},
            {"player": "bo", "hat": 2, "to": "off", "counts": True, "in_flight": False, "area": None, "points": 0},
        ],
        "holes": [{"area": "ann", "number": 4, "stack": [{"player": "ann", "hat": 1}, {"player": "bo", "hat": 1}]}],
        "last": {"type": "hat_launched", "player": "bo", "hat": 2, "to": "off", "counts": True},
        "rounds": [{"ann": 5, "bo": 0}],
        "finished": False, "winners": [],
    }


def test_to_json_keeps_the_last_board_between_rounds() -> None:
    f = fold(started(), round_started("ann"), all_six("ann"), hats_off("ann"), round_ended())
    state = GAME.to_json(f.state)
    assert state["round_in_progress"] is False and state["next_caller"] == "bo"
    assert state["holes"] and state["players"][0]["round_points"] == 10 and state["rounds"] == [{"ann": 10, "bo": 0}]
    f2 = more(f, round_started("bo"))
    assert GAME.to_json(f2.state)["hats"] == [] and GAME.to_json(f2.state)["players"][0]["round_points"] == 0


@pytest.mark.parametrize("name", ["hats-off-01", "hats-off-26"])
def test_to_json_is_plain_json_at_every_seq(name: str) -> None:
    lines, _ = load_example(name)
    f = fold_dicts(lines)
    for state in states_of(f):
        as_json = GAME.to_json(state)
        assert json.loads(json.dumps(as_json)) == as_json
