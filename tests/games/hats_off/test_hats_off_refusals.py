"""Every Hats Off refusal: the reason names what is wrong, and the state is left exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from projections.games.hats_off import GAME
from projections.scores import scores_json
from projections.timeline import Fold
from tests.support.hats_off import (
    Line,
    all_six,
    fold,
    hats_off,
    hole,
    in_hat,
    launch,
    misses,
    more,
    moved,
    push,
    refused,
    round_ended,
    round_started,
    started,
)


def in_round(*lines: Line | list[Line], players: tuple[str, ...] = ("ann", "bo")) -> Fold:
    return fold(started(*players), round_started("ann"), *lines)


def after_call(*lines: Line | list[Line]) -> Fold:
    """Ann has launched all 6 (hat 1 in her hole 1) and called HATS OFF; Bo has launched hat 1 into his hole 1."""
    return in_round(all_six("ann"), launch("bo", 1, hole("bo", 1)), hats_off("ann"), *lines)


# --- match_started --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "needle"),
    [
        (["ann"], {}, "2 to 4 players, not 1"),
        (["ann", "bo", "cy", "di", "ed"], {}, "2 to 4 players, not 5"),
        (["ann", "ann"], {}, "'ann' appears twice"),
        (["ann", "bo"], {"target": 50}, "unknown option 'target'"),
        (["ann", "bo"], {"target_score": 0}, "target_score must be a positive integer"),
        (["ann", "bo"], {"target_score": "75"}, "target_score must be a positive integer"),
        (["ann", "bo"], {"target_score": True}, "target_score must be a positive integer"),
    ],
)
def test_match_started_refusals(players: list[str], options: dict[str, Any], needle: str) -> None:
    line = started(*players, **options)
    with pytest.raises(IllegalEvent, match=needle):
        fold(line)


# --- round_started --------------------------------------------------------------------------------


def test_round_started_by_the_wrong_caller() -> None:
    f = fold(started("ann", "bo", "cy"))
    assert "called by Ann" in refused(f, round_started("bo"))
    f = more(f, round_started("ann"), misses("ann", 1, 2, 3, 4, 5, 6), hats_off("ann"), round_ended())
    reason = refused(f, round_started("cy"))
    assert "round 2" in reason and "called by Bo" in reason and "not Cy" in reason


def test_round_started_while_a_round_is_running() -> None:
    reason = refused(in_round(), round_started("bo"))
    assert "round 1 is still in progress" in reason


@pytest.mark.parametrize(
    ("data", "needle"),
    [({}, "missing 'caller'"), ({"caller": 3}, "caller"), ({"caller": "zed"}, "unknown player 'zed'")],
)
def test_round_started_malformed(data: dict[str, Any], needle: str) -> None:
    assert needle in refused(fold(started()), {"type": "round_started", "data": data})


# --- hat_launched ---------------------------------------------------------------------------------


def test_launch_outside_a_round() -> None:
    reason = refused(fold(started()), launch("ann", 1, hole("ann", 1)))
    assert "no round is in progress" in reason and "Ann calls READY-SET-GO" in reason
    f = in_round(misses("ann", 1, 2, 3, 4, 5, 6), hats_off("ann"), round_ended())
    assert "no round is in progress" in refused(f, launch("bo", 1, "off"))


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"hat": 1, "to": "off"}, "missing 'player'"),
        ({"player": "zed", "hat": 1, "to": "off"}, "unknown player 'zed'"),
        ({"player": "ann", "to": "off"}, "hat_launched: missing 'hat'"),
        ({"player": "ann", "hat": 0, "to": "off"}, "1–6, not 0"),
        ({"player": "ann", "hat": 7, "to": "off"}, "1–6, not 7"),
        ({"player": "ann", "hat": "3", "to": "off"}, "1–6, not '3'"),
        ({"player": "ann", "hat": True, "to": "off"}, "1–6, not True"),
        ({"player": "ann", "hat": 1}, "missing 'to'"),
        ({"player": "ann", "hat": 1, "to": "floor"}, "not 'floor'"),
        ({"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "number": 10}}}, "hole number"),
        ({"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "number": 0}}}, "1–9, not 0"),
        ({"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "number": 2.0}}}, "1–9, not 2.0"),
        ({"player": "ann", "hat": 1, "to": {"hole": {"area": "zed", "number": 1}}}, "unknown player 'zed'"),
        ({"player": "ann", "hat": 1, "to": {"hole": {"number": 1}}}, "hole area"),
        ({"player": "ann", "hat": 1, "to": {"in_hat": {"player": "bo", "hat": 9}}}, "1–6, not 9"),
        ({"player": "ann", "hat": 1, "to": {"in_hat": {"player": "zed", "hat": 1}}}, "unknown player 'zed'"),
        ({"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "number": 1}, "board": 1}}, "to must be"),
        ({"player": "ann", "hat": 1, "to": ["board"]}, "to must be"),
        ({"player": "ann", "hat": 1, "to": "off", "in_flight": "yes"}, "in_flight must be true or false"),
    ],
)
def test_launch_malformed(data: dict[str, Any], needle: str) -> None:
    assert needle in refused(in_round(), {"type": "hat_launched", "data": data})


def test_a_hat_is_launched_once_a_round() -> None:
    reason = refused(in_round(launch("ann", 3, hole("bo", 2))), launch("ann", 3, hole("ann", 1)))
    assert "Ann's hat 3 was already launched this round (in hole 2 of Bo's area)" in reason
    # ... also after the call, where a sixth launch is impossible.
    assert "Ann's hat 2 was already launched" in refused(after_call(), launch("ann", 2, "off", in_flight=True))


def test_a_hole_holds_one_hat() -> None:
    f = in_round(launch("bo", 2, hole("ann", 4)), launch("ann", 1, in_hat("bo", 2)))
    reason = refused(f, launch("ann", 2, hole("ann", 4)))
    assert "hole 4 of Ann's area already holds Bo's hat 2" in reason and "nested in Ann's hat 1" in reason


def test_a_hat_holds_one_hat() -> None:
    f = in_round(launch("bo", 2, hole("ann", 4)), launch("ann", 1, in_hat("bo", 2)))
    reason = refused(f, launch("ann", 2, in_hat("bo", 2)))
    assert "Bo's hat 2 already holds Ann's hat 1" in reason and "top of that stack" in reason


def test_nesting_into_itself() -> None:
    assert "Ann's hat 1 cannot be nested inside itself" in refused(in_round(), launch("ann", 1, in_hat("ann", 1)))


def test_nesting_into_a_hat_not_launched() -> None:
    reason = refused(in_round(), launch("ann", 1, in_hat("bo", 5)))
    assert "Bo's hat 5 has not been launched this round" in reason


@pytest.mark.parametrize(("where", "needle"), [("board", "on the board, not in a hole"), ("off", "off the board")])
def test_nesting_into_a_hat_on_the_board_or_off_it(where: str, needle: str) -> None:
    reason = refused(in_round(launch("bo", 5, where)), launch("ann", 1, in_hat("bo", 5)))
    assert f"Bo's hat 5 is {needle}" in reason


def test_nesting_into_a_stack_knocked_onto_the_board() -> None:
    # Bo 5 in a hole with Bo 6 in it; the stack is knocked onto the board: Bo 6 is no longer in a hole.
    f = in_round(launch("bo", 5, hole("bo", 1)), launch("bo", 6, in_hat("bo", 5)), moved("bo", 5, "board"))
    assert "Bo's hat 6 is on the board" in refused(f, launch("ann", 1, in_hat("bo", 6)))


def test_nesting_into_a_late_hat() -> None:
    f = after_call(launch("bo", 2, hole("ann", 5)))
    reason = refused(f, launch("bo", 3, in_hat("bo", 2), in_flight=True))
    assert "Bo's hat 2 was launched after HATS OFF and counts for nothing" in reason


def test_late_launch_into_itself() -> None:
    assert "cannot be nested inside itself" in refused(after_call(), launch("bo", 2, in_hat("bo", 2)))


def test_in_flight_before_any_call() -> None:
    reason = refused(in_round(), launch("bo", 1, hole("bo", 1), in_flight=True))
    assert "nobody has called HATS OFF yet" in reason


def test_one_hat_in_flight_per_player() -> None:
    f = after_call(launch("bo", 2, hole("bo", 2), in_flight=True))
    reason = refused(f, launch("bo", 3, hole("bo", 3), in_flight=True))
    assert "Bo already has a hat recorded as in flight" in reason


def test_in_flight_landing_in_an_occupied_hole() -> None:
    assert "already holds Bo's hat 1" in refused(after_call(), launch("bo", 2, hole("bo", 1), in_flight=True))


# --- hats_off_called ------------------------------------------------------------------------------


def test_caller_must_have_launched_all_six() -> None:
    f = in_round(misses("ann", 1, 2, 4, 6))
    reason = refused(f, hats_off("ann"))
    assert "Ann cannot call HATS OFF: 4 of 6 hats launched (still to launch: 3, 5)" in reason
    assert "Bo cannot call HATS OFF: 0 of 6" in refused(f, hats_off("bo"))


def test_every_simultaneous_caller_must_have_launched_all_six() -> None:
    f = in_round(misses("ann", 1, 2, 3, 4, 5, 6), misses("bo", 1, 2, 3, 4, 5))
    assert "Bo cannot call HATS OFF: 5 of 6 hats launched (still to launch: 6)" in refused(f, hats_off("ann", "bo"))


def test_one_call_a_round() -> None:
    f = in_round(misses("ann", 1, 2, 3, 4, 5, 6), misses("bo", 1, 2, 3, 4, 5, 6), hats_off("ann"))
    assert "HATS OFF was already called this round by Ann" in refused(f, hats_off("bo"))


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({}, "missing 'players'"),
        ({"players": "ann"}, "'players' has the wrong type"),
        ({"players": []}, "at least one caller"),
        ({"players": ["zed"]}, "unknown player 'zed'"),
        ({"players": ["ann", "ann"]}, "Ann is listed twice"),
    ],
)
def test_hats_off_malformed(data: dict[str, Any], needle: str) -> None:
    f = in_round(misses("ann", 1, 2, 3, 4, 5, 6))
    assert needle in refused(f, {"type": "hats_off_called", "data": data})


def test_hats_off_outside_a_round() -> None:
    assert "no round is in progress" in refused(fold(started()), hats_off("ann"))


# --- hat_moved ------------------------------------------------------------------------------------


def test_moving_a_hat_not_launched() -> None:
    reason = refused(in_round(), moved("bo", 4, hole("bo", 1)))
    assert "Bo's hat 4 has not been launched this round, so it cannot be moved" in reason


def test_moving_a_late_hat() -> None:
    reason = refused(after_call(launch("bo", 2, "board")), moved("bo", 2, hole("bo", 2)))
    assert "Bo's hat 2 was launched after HATS OFF and counts for nothing; it cannot be moved" in reason


def test_moving_a_hat_into_its_own_stack() -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), launch("bo", 1, in_hat("ann", 1)), launch("ann", 2, in_hat("bo", 1)))
    reason = refused(f, moved("ann", 1, in_hat("ann", 2)))
    assert "Ann's hat 2 sits in Ann's hat 1's stack" in reason and "its own stack" in reason
    assert "cannot be nested inside itself" in refused(f, moved("ann", 1, in_hat("ann", 1)))


def test_moving_a_hat_into_the_hat_below_that_holds_another() -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), launch("bo", 1, in_hat("ann", 1)), launch("ann", 2, in_hat("bo", 1)))
    reason = refused(f, moved("ann", 2, in_hat("ann", 1)))
    assert reason == ("Ann's hat 2 is already in Ann's hat 1's stack (nested in Bo's hat 1); "
                      "Ann's hat 1 holds Bo's hat 1")
    # Into the hole at the bottom of its own stack: it is already there, nested.
    reason = refused(f, moved("ann", 2, hole("ann", 1)))
    assert reason == "Ann's hat 2 is already in the stack standing in hole 1 of Ann's area (nested in Bo's hat 1)"


def test_moving_a_hat_where_it_already_is() -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)))
    assert "Ann's hat 1 is already in hole 1 of Ann's area" in refused(f, moved("ann", 1, hole("ann", 1)))


def test_moving_into_an_occupied_hole_or_a_hat_on_the_board() -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), launch("bo", 1, "board"), launch("bo", 2, hole("bo", 2)))
    assert "hole 2 of Bo's area already holds Bo's hat 2" in refused(f, moved("ann", 1, hole("bo", 2)))
    assert "Bo's hat 1 is on the board" in refused(f, moved("ann", 1, in_hat("bo", 1)))


def test_moving_someone_elses_hat_names_the_owner() -> None:
    # hat_moved.player is the owner: "Bo's hat 1" is Bo's, not Ann's; Ann has no hat 2 launched.
    f = in_round(launch("bo", 1, hole("bo", 1)))
    assert "Ann's hat 1 has not been launched" in refused(f, moved("ann", 1, "off"))


@pytest.mark.parametrize(
    ("data", "needle"),
    [({"player": "ann", "hat": 1}, "missing 'to'"), ({"player": "ann", "hat": 1, "to": "floor"}, "not 'floor'")],
)
def test_hat_moved_malformed(data: dict[str, Any], needle: str) -> None:
    assert needle in refused(in_round(launch("ann", 1, hole("ann", 1))), {"type": "hat_moved", "data": data})


def test_moving_after_the_round_ended() -> None:
    f = in_round(all_six("ann"), hats_off("ann"), round_ended())
    assert "hat_moved: no round is in progress" in refused(f, moved("ann", 1, hole("ann", 2)))


# --- round_ended ----------------------------------------------------------------------------------


def test_round_ends_only_after_the_call() -> None:
    reason = refused(in_round(misses("ann", 1, 2, 3)), round_ended())
    assert "round 1 cannot end before HATS OFF is called" in reason
    assert "no round is in progress" in refused(fold(started()), round_ended())


# --- the finished match, and events that are not Hats Off's ----------------------------------------


def finished_match() -> Fold:
    return fold(started(target_score=5), round_started("ann"), all_six("ann"), hats_off("ann"), round_ended())


def test_a_finished_match_takes_only_notes_and_rewinds() -> None:
    f = finished_match()
    assert scores_json(f)["winners"] == ["ann"]
    assert "finished" in refused(f, round_started("bo"))
    f = push(f, {"type": "note", "data": {"text": "well played"}})
    # A referee reopens it: rewind to before round_ended, and the round goes on.
    f = push(f, {"type": "rewind", "data": {"to_seq": 9, "reason": "Bo's hat was still flying"}})
    f = push(f, launch("bo", 1, hole("bo", 1), in_flight=True))
    assert scores_json(f)["status"] == "in_progress"


def test_reducer_itself_refuses_after_the_end() -> None:
    state = finished_match().state
    for line in (round_started("bo"), launch("bo", 1, "off"), round_ended()):
        with pytest.raises(IllegalEvent, match="finished"):
            GAME.apply(state, Event(99, line["type"], line["data"]))


def test_unknown_event_type() -> None:
    with pytest.raises(UnknownEventType, match="hat_launched"):
        push(in_round(), {"type": "tile_placed", "data": {}})
