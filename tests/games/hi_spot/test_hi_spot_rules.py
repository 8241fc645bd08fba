"""Hi-Spot turn rules and scoring (RULES.md §3), each on a small hand-built log with hand-computed scores."""

from __future__ import annotations

from tests.support.hi_spot import (
    bo_adds_three_and_two,
    draw,
    end,
    lone_three,
    opening,
    place,
    play,
    refused,
    rounds,
    start,
    state_json,
    tile_set,
    totals,
)


def test_first_play_three_and_three_scores_six() -> None:
    # The rulebook's example of a first play: two 3-dot tiles on one new stack, 3 + 3 = 6.
    lines = start() + [place("ann", "TRI1", 5, [0, 1, 2]), place("ann", "TRI2", 5, [6, 7, 8])]
    assert totals(play(lines)) == {"ann": 0, "bo": 0}  # a turn is scored at turn_ended
    f = play(lines + [draw("ann", "ONE4", "ONE5"), end("ann")])
    assert totals(f) == {"ann": 6, "bo": 0}
    assert rounds(f) == [{"ann": 6, "bo": 0}]
    assert state_json(f)["to_act"] == "bo"


def test_adding_a_three_and_a_two_to_a_lone_three_scores_eight_not_six_plus_eight() -> None:
    f = play(bo_adds_three_and_two())
    assert totals(f) == {"ann": 3, "bo": 8}


def test_adding_to_several_stacks_scores_each_stack_once_at_its_end_total() -> None:
    # Bo starts section 2 with a corner dot. Ann then adds the centre (section 1: 4), a corner to
    # section 2 (2) and a row to section 1 (7): the turn scores 7 + 2 = 9, not 4 + 2 + 7.
    lines = lone_three() + [place("bo", "ONE3", 2, [0]), draw("bo", "TRI4"), end("bo")]
    lines += [place("ann", "CEN1", 1, [4]), place("ann", "ONE1", 2, [8]), place("ann", "TRI2", 1, [6, 7, 8])]
    refused(lines, place("ann", "ONE2", 3, [0]), "section 3 is empty", "adds to existing stacks")
    f = play(lines + [draw("ann", "ONE5", "ONE6", "CEN2"), end("ann")])
    assert totals(f) == {"ann": 3 + 9, "bo": 1}


def test_a_nine_scores_nine_and_the_player_may_start_a_new_stack() -> None:
    lines = bo_adds_three_and_two()
    lines += [place("ann", "ONE1", 1, [8])]  # section 1 reaches 9
    assert state_json(play(lines))["tray"][0]["stack"]["full"] is True
    lines += [place("ann", "TRI2", 2, [0, 1, 2]), place("ann", "CEN1", 2, [4])]
    refused(lines, place("ann", "ONE2", 3, [0]), "already started a stack this turn (section 2)")
    refused(lines, place("ann", "ONE2", 1, [0]), "section 1 is full (9 dots)")
    f = play(lines + [draw("ann", "ONE5", "ONE6", "CEN2"), end("ann")])
    assert totals(f) == {"ann": 3 + 9 + 4, "bo": 8}
    assert state_json(f)["tray"][0]["stack"]["dots"] == 9  # the full stack stays
    # every layer says who placed it (the board colours and hover text use it)
    assert [t["player"] for t in state_json(f)["tray"][0]["stack"]["tiles"]][-1] == "ann"
    assert {t["player"] for t in state_json(f)["tray"][0]["stack"]["tiles"]} == {"ann", "bo"}


def test_a_new_stack_segment_takes_no_tile_elsewhere() -> None:
    lines = lone_three() + [place("bo", "MID1", 1, [3, 4, 5]), draw("bo", "TRI4"), end("bo")]
    lines += [place("ann", "TRI2", 2, [0, 1, 2])]
    refused(lines, place("ann", "ONE1", 1, [6]), "this segment started a new stack", "not section 1")


def test_a_stack_added_to_and_then_brought_to_nine_scores_nine_once() -> None:
    # Bo takes section 1 from 3 to 6, 8 and 9 (9, not 6 + 8 + 9), starts section 2 with 3 + 2, empties
    # the rack, draws five, takes section 2 to 8 and 9, and can go no further: 9 + 9 = 18.
    lines = lone_three() + [place("bo", "MID1", 1, [3, 4, 5]), place("bo", "DUO1", 1, [6, 7]),
                            place("bo", "ONE3", 1, [8])]  # fmt: skip
    lines += [place("bo", "TRI3", 2, [0, 1, 2]), place("bo", "DUO2", 2, [6, 7])]
    assert state_json(play(lines))["players"][1]["rack_count"] == 0
    lines += [draw("bo", "TRI4", "MID2", "DUO3", "DUO4", "ONE5")]  # the mid-turn refill
    refused(lines, draw("bo", "ONE6"), "nothing to draw: Bo's rack is full")
    refused(lines, place("bo", "TRI4", 3, [0, 1, 2]), "already started a stack this turn (section 2)")
    lines += [place("bo", "MID2", 2, [3, 4, 5]), place("bo", "ONE5", 2, [8])]
    f = play(lines)
    assert state_json(f)["turn"]["points"] == 18
    assert f.game.legal_moves(f.state, "bo") == [
        {"type": "tiles_drawn", "data": {"player": "bo", "tiles": [None, None]}, "points": 18, "mid_turn": False}
    ]
    f = play(lines + [draw("bo", "ONE6", "CEN2"), end("bo")])
    assert totals(f) == {"ann": 3, "bo": 18}


def test_two_nines_and_a_new_stack_in_one_turn() -> None:
    six = tile_set(X1=[0, 1, 2, 3, 4, 5], X2=[0, 1, 2, 3, 4, 5], Y1=[0, 1, 2], Y2=[0, 1, 2], Y3=[0, 1, 2],
                   Y4=[0, 1, 2], Z1=[0], Z2=[0], Z3=[0], Z4=[0], Z5=[0], Z6=[0])  # fmt: skip
    lines = opening({"ann": ["X1", "Y1", "Y2", "Y3", "Z1"], "bo": ["X2", "Z2", "Z3", "Z4", "Z5"]},
                    [{"ann": "X1", "bo": "Z1"}], tile_set=six)  # fmt: skip
    lines += [place("ann", "X1", 1, [0, 1, 2, 3, 4, 5]), draw("ann", "Y4"), end("ann")]
    lines += [place("bo", "X2", 2, [3, 4, 5, 6, 7, 8]), draw("bo", "Z6"), end("bo")]
    lines += [place("ann", "Y1", 1, [6, 7, 8]), place("ann", "Y2", 2, [0, 1, 2]), place("ann", "Y3", 3, [0, 3, 6])]
    f = play(lines + [end("ann")])  # the bag is empty: no refill to draw
    assert totals(f) == {"ann": 6 + 9 + 9 + 3, "bo": 6}


def test_clear_full_stacks_sends_a_nine_back_to_the_bag_and_empties_the_section() -> None:
    lines = bo_adds_three_and_two(clear_full_stacks=True)
    before = state_json(play(lines))
    old_id = before["tray"][0]["stack"]["id"]
    lines += [place("ann", "ONE1", 1, [8])]  # 9: TRI1 MID1 DUO1 ONE1 go back into the bag
    after = state_json(play(lines))
    assert after["tray"][0]["stack"] is None
    assert after["bag"] == before["bag"] + 4 == 6 + 4
    # The emptied section takes this turn's one new stack, a different stack from the cleared one.
    lines += [place("ann", "TRI2", 1, [0, 1, 2]), place("ann", "CEN1", 1, [4])]
    refused(lines, place("ann", "ONE2", 2, [0]), "already started a stack this turn (section 1)")
    f = play(lines + [draw("ann", "TRI1", "MID1", "ONE1"), end("ann")])  # cleared tiles can be drawn again
    assert state_json(f)["tray"][0]["stack"]["id"] != old_id
    assert totals(f) == {"ann": 3 + 9 + 4, "bo": 8}


def test_without_clear_full_stacks_the_nine_stays_on_the_tray() -> None:
    lines = bo_adds_three_and_two() + [place("ann", "ONE1", 1, [8])]
    refused(lines + [place("ann", "TRI2", 2, [0, 1, 2])], draw("ann", "TRI1", "ONE5"), "TRI1 is not in the bag",
            "on the tray in section 1")  # fmt: skip
