"""Hats Off scoring, hand-computed: the rulebook's seven pictured examples, every scoring rule, the bonus,
the end of the match and the tie rule, and both public example logs."""

from __future__ import annotations

import pytest

from projections.games.hats_off import GAME
from projections.scores import scores_json
from projections.timeline import fold_dicts
from tests.support.examples import load_example
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
    own_holes,
    round_ended,
    round_points,
    round_started,
    started,
)


def picture(*stack: Line, players: tuple[str, ...] = ("ann", "bo")) -> dict[str, int]:
    """A round in which the launches `stack` build one pictured stack in Ann's area; every other hat goes off
    the board and Bo calls HATS OFF with nothing scoring (so nobody has a bonus). Each player's points."""
    used = {(line["data"]["player"], line["data"]["hat"]) for line in stack}
    rest = [launch(p, h, "off") for p in players for h in range(1, 7) if (p, h) not in used]
    f = fold(started(*players), round_started("ann"), list(stack), rest, hats_off("bo"), round_ended())
    return GAME.scores(f.state).rounds[0]


# --- the seven pictured examples (solid V = Ann's own colour, dashed V = Bo's) ---------------------


def test_picture_1_two_own_hats_nested_15() -> None:
    assert picture(launch("ann", 1, hole("ann", 5)), launch("ann", 2, in_hat("ann", 1))) == {"ann": 15, "bo": 0}


def test_picture_2_own_hat_in_a_dashed_hat_10() -> None:
    assert picture(launch("bo", 1, hole("ann", 5)), launch("ann", 1, in_hat("bo", 1))) == {"ann": 10, "bo": 0}


def test_picture_3_dashed_hat_in_own_hat_5() -> None:
    assert picture(launch("ann", 1, hole("ann", 5)), launch("bo", 1, in_hat("ann", 1))) == {"ann": 5, "bo": 0}


def test_picture_4_two_dashed_hats_0() -> None:
    assert picture(launch("bo", 1, hole("ann", 5)), launch("bo", 2, in_hat("bo", 1))) == {"ann": 0, "bo": 0}


def test_picture_4_dashed_hats_of_two_other_players_0() -> None:
    stack = (launch("bo", 1, hole("ann", 5)), launch("cy", 1, in_hat("bo", 1)))
    assert picture(*stack, players=("ann", "bo", "cy")) == {"ann": 0, "bo": 0, "cy": 0}


def test_picture_5_three_own_hats_nested_25() -> None:
    stack = (launch("ann", 1, hole("ann", 5)), launch("ann", 2, in_hat("ann", 1)), launch("ann", 3, in_hat("ann", 2)))
    assert picture(*stack) == {"ann": 25, "bo": 0}


def test_picture_6_two_own_hats_on_a_dashed_hat_20() -> None:
    stack = (launch("bo", 1, hole("ann", 5)), launch("ann", 1, in_hat("bo", 1)), launch("ann", 2, in_hat("ann", 1)))
    assert picture(*stack) == {"ann": 20, "bo": 0}


def test_picture_7_dashed_hat_between_own_hats_15() -> None:
    stack = (launch("ann", 1, hole("ann", 5)), launch("bo", 1, in_hat("ann", 1)), launch("ann", 2, in_hat("bo", 1)))
    assert picture(*stack) == {"ann": 15, "bo": 0}


def test_picture_labels_per_hat() -> None:
    """The labels under each V: 5 for the hat in the hole, 10 for own nested hats, 0 for dashed ones."""
    f = fold(started(), round_started("ann"), launch("ann", 1, hole("ann", 5)), launch("bo", 1, in_hat("ann", 1)),
             launch("ann", 2, in_hat("bo", 1)))
    points = {(h["player"], h["hat"]): h["points"] for h in GAME.to_json(f.state)["hats"]}
    assert points == {("ann", 1): 5, ("bo", 1): 0, ("ann", 2): 10}


# --- where a hat ends ------------------------------------------------------------------------------


def test_hole_in_own_area_5_elsewhere_0() -> None:
    f = fold(
        started(), round_started("ann"),
        launch("ann", 1, hole("ann", 1)),  # 5
        launch("ann", 2, hole("bo", 1)),  # another player's area: 0
        launch("ann", 3, "board"),  # on the board, not in a hole: 0
        launch("ann", 4, "off"),  # off the board: 0
        launch("bo", 1, hole("ann", 2)),  # Bo's hat in Ann's area: 0 for both
        launch("bo", 2, hole("bo", 2)),  # 5
    )
    assert round_points(f) == {"ann": 5, "bo": 5}


def test_own_hat_nested_in_a_stack_in_another_area_scores_nothing() -> None:
    # Ann's hat 2 sits in Ann's hat 1, but the stack's bottom is in Bo's area.
    f = fold(started(), round_started("ann"), launch("ann", 1, hole("bo", 3)), launch("ann", 2, in_hat("ann", 1)))
    assert round_points(f) == {"ann": 0, "bo": 0}


def test_other_players_hat_nested_in_own_stack_scores_for_nobody() -> None:
    f = fold(started(), round_started("ann"), launch("ann", 1, hole("ann", 3)), launch("bo", 1, in_hat("ann", 1)))
    assert round_points(f) == {"ann": 5, "bo": 0}


def test_own_hat_on_a_stack_in_own_area_whose_bottom_is_anothers_hat() -> None:
    # Bo's hat in Bo's hole (Bo 5), Ann's hat nested in it: the stack is in Bo's area, Ann 0.
    f = fold(started(), round_started("ann"), launch("bo", 1, hole("bo", 3)), launch("ann", 1, in_hat("bo", 1)))
    assert round_points(f) == {"ann": 0, "bo": 5}


def test_deep_stack_belongs_to_the_area_of_its_bottom_hole() -> None:
    f = fold(
        started("ann", "bo", "cy"), round_started("ann"),
        launch("cy", 1, hole("bo", 9)),  # bottom in Bo's area: Cy 0
        launch("bo", 1, in_hat("cy", 1)),  # Bo 10
        launch("ann", 1, in_hat("bo", 1)),  # Ann 0
        launch("bo", 2, in_hat("ann", 1)),  # Bo 10
    )
    assert round_points(f) == {"ann": 0, "bo": 20, "cy": 0}


# --- knocked hats ---------------------------------------------------------------------------------


def test_only_where_a_hat_ends_counts() -> None:
    f = fold(started(), round_started("ann"), launch("ann", 1, hole("ann", 1)))
    f = more(f, moved("ann", 1, hole("bo", 1)))
    assert round_points(f) == {"ann": 0, "bo": 0}
    f = more(f, moved("ann", 1, hole("ann", 9)))
    assert round_points(f) == {"ann": 5, "bo": 0}
    f = more(f, moved("ann", 1, "board"))
    assert round_points(f) == {"ann": 0, "bo": 0}


def test_hats_nested_in_a_moved_hat_move_with_it() -> None:
    # Ann 1 in Ann's hole, Bo 1 in it, Ann 2 on top: Ann 15. Knock the whole stack into Bo's hole:
    # now the stack is in Bo's area, Bo's nested hat scores 10 and Ann nothing.
    base = [started(), round_started("ann"), launch("ann", 1, hole("ann", 4)), launch("bo", 1, in_hat("ann", 1)),
            launch("ann", 2, in_hat("bo", 1))]
    assert round_points(fold(base)) == {"ann": 15, "bo": 0}
    f = fold(base, moved("ann", 1, hole("bo", 4)))
    assert round_points(f) == {"ann": 0, "bo": 10}
    stack = GAME.to_json(f.state)["holes"]
    assert stack == [{"area": "bo", "number": 4,
                      "stack": [{"player": "ann", "hat": 1}, {"player": "bo", "hat": 1}, {"player": "ann", "hat": 2}]}]


def test_moving_a_hat_out_of_a_stack_leaves_the_hats_below() -> None:
    base = [started(), round_started("ann"), launch("ann", 1, hole("ann", 4)), launch("ann", 2, in_hat("ann", 1)),
            launch("ann", 3, in_hat("ann", 2))]
    assert round_points(fold(base)) == {"ann": 25, "bo": 0}
    # Knock Ann 2 (with Ann 3 in it) into a free hole of Ann's area: 5 (hole) + 10 (nested) + 5 (Ann 1 alone).
    assert round_points(fold(base, moved("ann", 2, hole("ann", 5)))) == {"ann": 20, "bo": 0}
    # Knock Ann 2 off the board: Ann 3 goes with it; only Ann 1 scores.
    assert round_points(fold(base, moved("ann", 2, "off"))) == {"ann": 5, "bo": 0}


def test_a_hat_knocked_in_from_off_the_board_counts() -> None:
    f = fold(started(), round_started("ann"), launch("ann", 1, "off"), moved("ann", 1, hole("ann", 2)))
    assert round_points(f) == {"ann": 5, "bo": 0}


def test_knocked_into_a_stack() -> None:
    f = fold(started(), round_started("ann"), launch("bo", 1, hole("ann", 4)), launch("ann", 1, "board"),
             moved("ann", 1, in_hat("bo", 1)))
    assert round_points(f) == {"ann": 10, "bo": 0}


# --- HATS OFF, in-flight and late launches ---------------------------------------------------------


def test_hats_off_bonus_needs_a_scoring_hat() -> None:
    f = fold(started(), round_started("ann"), all_six("ann"), hats_off("ann"), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 0}  # 5 + bonus 5
    f = fold(started(), round_started("ann"), misses("ann", 1, 2, 3, 4, 5, 6), hats_off("ann"), round_ended())
    assert round_points(f) == {"ann": 0, "bo": 0}  # no hat in own area: no bonus


def test_bonus_for_a_hat_that_is_only_in_another_area_is_not_given() -> None:
    f = fold(started(), round_started("ann"), [launch("ann", h, hole("bo", h)) for h in range(1, 7)], hats_off("ann"),
             round_ended())
    assert round_points(f) == {"ann": 0, "bo": 0}


def test_simultaneous_call_each_caller_gets_the_bonus() -> None:
    f = fold(started("ann", "bo", "cy"), round_started("ann"), all_six("ann"), all_six("bo"),
             misses("cy", 1, 2, 3), hats_off("ann", "bo"), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 10, "cy": 0}


def test_simultaneous_call_bonus_only_for_callers_with_a_scoring_hat() -> None:
    f = fold(started(), round_started("ann"), all_six("ann"), misses("bo", 1, 2, 3, 4, 5, 6),
             hats_off("bo", "ann"), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 0}


def test_bonus_is_judged_where_hats_end() -> None:
    # Ann's only scoring hat is knocked away after the call: no bonus; Bo's hat knocked in: Bo has none to
    # gain (not a caller).
    f = fold(started(), round_started("ann"), all_six("ann"), hats_off("ann"), moved("ann", 1, "off"), round_ended())
    assert round_points(f) == {"ann": 0, "bo": 0}
    # A caller whose hat is knocked into their area after the call gets it.
    f = fold(started(), round_started("ann"), misses("ann", 1, 2, 3, 4, 5, 6), hats_off("ann"),
             moved("ann", 3, hole("ann", 7)), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 0}


def test_in_flight_hat_counts_late_launch_does_not() -> None:
    f = fold(
        started(), round_started("ann"), all_six("ann"), launch("bo", 1, hole("bo", 1)), hats_off("ann"),
        launch("bo", 2, hole("bo", 2), in_flight=True),  # was flying at the call: 5
        launch("bo", 3, hole("bo", 3)),  # launched after the call: nothing
        launch("bo", 4, in_hat("bo", 1)),  # nothing, even nested
        launch("bo", 5, hole("bo", 4), in_flight=False),  # in_flight false is a late launch
        round_ended(),
    )
    assert round_points(f) == {"ann": 10, "bo": 10}
    hats = {(h["player"], h["hat"]): h for h in GAME.to_json(f.state)["hats"]}
    assert hats[("bo", 2)]["counts"] and hats[("bo", 2)]["in_flight"]
    assert not hats[("bo", 3)]["counts"] and hats[("bo", 3)]["points"] == 0
    assert GAME.to_json(f.state)["holes"][-1] == {"area": "bo", "number": 2, "stack": [{"player": "bo", "hat": 2}]}


def test_a_late_hat_does_not_occupy_its_hole() -> None:
    # Bo's late hat was written down in hole 2 of Bo's area; his in-flight hat landing there still counts.
    f = fold(started(), round_started("ann"), all_six("ann"), hats_off("ann"), launch("bo", 1, hole("bo", 2)),
             launch("bo", 2, hole("bo", 2), in_flight=True), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 5}


def test_in_flight_hat_may_nest_and_be_nested_into() -> None:
    f = fold(started("ann", "bo", "cy"), round_started("ann"), all_six("ann"), launch("bo", 1, hole("bo", 1)),
             hats_off("ann"), launch("bo", 2, in_hat("bo", 1), in_flight=True),
             launch("cy", 1, in_hat("bo", 2), in_flight=True), moved("bo", 1, hole("bo", 5)), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 15, "cy": 0}


# --- rounds, the target and the tie rule ------------------------------------------------------------


def scoring_round(caller: str, ann: int, bo: int, call: str = "ann") -> list[Line]:
    """A two-player round where Ann lands `ann` hats and Bo `bo` hats in their own holes, the rest off;
    `call` launches all six first and calls (bonus 5 if they landed one)."""
    lines = [round_started(caller)]
    for p, k in (("ann", ann), ("bo", bo)):
        lines += own_holes(p, *range(1, k + 1)) + misses(p, *range(k + 1, 7))
    return [*lines, hats_off(call), round_ended()]


def test_callers_go_clockwise_and_scores_accumulate_per_round() -> None:
    f = fold(started(), scoring_round("ann", 2, 1), scoring_round("bo", 0, 3, call="bo"), round_started("ann"),
             own_holes("bo", 1))
    sheet = scores_json(f)
    # Round 1: Ann 10 + 5 bonus, Bo 5; round 2: Bo 15 + 5; round 3 running: Bo 5 so far.
    assert sheet["rounds"] == [{"number": 1, "scores": {"ann": 15, "bo": 5}},
                               {"number": 2, "scores": {"ann": 0, "bo": 20}},
                               {"number": 3, "scores": {"ann": 0, "bo": 5}}]
    assert [p["score"] for p in sheet["players"]] == [15, 30]
    assert sheet["status"] == "in_progress" and sheet["winners"] == []
    state = GAME.to_json(f.state)
    assert state["round"] == 3 and state["caller"] == "ann" and state["round_in_progress"]


def test_caller_seat_rotates_with_three_players() -> None:
    f = fold(started("ann", "bo", "cy"))
    for k, caller in enumerate(["ann", "bo", "cy", "ann", "bo"], start=1):
        f = more(f, round_started(caller), misses(caller, 1, 2, 3, 4, 5, 6), hats_off(caller), round_ended())
        assert GAME.to_json(f.state)["round"] == k
    assert GAME.to_json(f.state)["next_caller"] == "cy"


def test_match_ends_in_the_round_the_target_is_reached() -> None:
    f = fold(started(target_score=20), scoring_round("ann", 2, 1))  # Ann 15, Bo 5
    assert not GAME.is_finished(f.state)
    f = more(f, scoring_round("bo", 1, 0))  # Ann 15 + 5 + 5 = 25
    sheet = scores_json(f)
    assert sheet["status"] == "finished" and sheet["winners"] == ["ann"]
    assert [p["score"] for p in sheet["players"]] == [25, 5]
    assert GAME.legal_moves(f.state, "ann") == [] and GAME.legal_moves(f.state, "bo") == []


def test_reaching_the_target_exactly_ends_the_match() -> None:
    f = fold(started(target_score=15), scoring_round("ann", 2, 0))  # Ann 10 + 5
    assert scores_json(f)["winners"] == ["ann"]


def test_both_past_the_target_the_highest_total_wins() -> None:
    f = fold(started(target_score=20), scoring_round("ann", 4, 5, call="bo"))  # Ann 20, Bo 25 + 5
    assert scores_json(f)["winners"] == ["bo"]
    assert [p["score"] for p in scores_json(f)["players"]] == [20, 30]


def test_exact_tie_at_the_top_plays_another_round() -> None:
    f = fold(started(target_score=20), scoring_round("ann", 4, 4))  # Ann 20 + 5 = 25, Bo 20
    assert scores_json(f)["winners"] == ["ann"]
    f = fold(started(target_score=20), scoring_round("ann", 3, 5))  # Ann 15 + 5 = 20, Bo 25 ... not a tie
    assert scores_json(f)["winners"] == ["bo"]
    # Ann 15 + 5 = 20, Bo 20: tied at the top past the target -> round 2, called by Bo.
    f = fold(started(target_score=20), scoring_round("ann", 3, 4))
    assert scores_json(f)["status"] == "in_progress"
    assert GAME.legal_moves(f.state, "bo") == [{"type": "round_started", "data": {"caller": "bo"}, "points": 0}]
    assert GAME.legal_moves(f.state, "ann") == []
    # Tied again (Ann 10, Bo 5 + 5 bonus): round 3, called by Ann again.
    f = more(f, scoring_round("bo", 2, 1, call="bo"))
    assert scores_json(f)["status"] == "in_progress"
    assert [p["score"] for p in scores_json(f)["players"]] == [30, 30]
    f = more(f, scoring_round("ann", 0, 1, call="ann"))
    assert scores_json(f)["winners"] == ["bo"] and len(scores_json(f)["rounds"]) == 3


def test_a_tie_below_the_top_does_not_matter() -> None:
    f = fold(started("ann", "bo", "cy", target_score=10), round_started("ann"), own_holes("ann", 1, 2),
             misses("ann", 3, 4, 5, 6), misses("bo", 1, 2, 3, 4, 5, 6), misses("cy", 1, 2, 3, 4, 5, 6), hats_off("ann"),
             round_ended())
    assert scores_json(f)["winners"] == ["ann"]


def test_default_target_is_75() -> None:
    assert GAME.to_json(fold(started()).state)["target_score"] == 75
    f = fold(started(), *[scoring_round(c, 6, 0) for c in ("ann", "bo")])  # Ann 35 + 35 = 70
    assert not GAME.is_finished(f.state)
    f = more(f, scoring_round("ann", 2, 0))  # + 15 = 85
    assert scores_json(f)["winners"] == ["ann"]


# --- the public example logs ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["hats-off-01", "hats-off-26"])
def test_example_logs_give_their_expected_scores(name: str) -> None:
    lines, expected = load_example(name)
    assert scores_json(fold_dicts(lines)) == expected


def test_example_26_ties_after_round_3_and_plays_a_fourth() -> None:
    lines, _ = load_example("hats-off-26")
    ends = [i for i, line in enumerate(lines, start=1) if line["type"] == "round_ended"]
    f = fold_dicts(lines[: ends[2]])
    sheet = scores_json(f)
    assert [p["score"] for p in sheet["players"]] == [40, 60, 60] and sheet["status"] == "in_progress"

