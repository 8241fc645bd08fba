"""Hi-Spot legal moves, event descriptions and the state JSON."""

from __future__ import annotations

import json
from typing import Any

from projections.events import Event
from projections.games.hi_spot import GAME
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.hi_spot import (
    ANN_OUT,
    PLAYERS,
    ROW2,
    blocked_round,
    bo_adds_three_and_two,
    draw,
    end,
    ev,
    light_start,
    lone_three,
    nine_stacks,
    opening,
    place,
    play,
    refused,
    start,
    state_json,
    tile_set,
    totals,
)


def moves(f: Fold, player: str) -> list[dict[str, Any]]:
    return GAME.legal_moves(f.state, player)


def all_accepted(f: Fold, player: str) -> None:
    for m in moves(f, player):
        f.apply(Event(f.seq + 1, m["type"], m["data"]))  # raises if a suggestion is illegal


def test_at_the_start_of_a_turn_every_tile_every_section_every_orientation() -> None:
    f = play(light_start())
    ms = moves(f, "ann")
    # C1–C4 (a corner dot: 4 orientations) and C5 (the centre: 1), each on any of the 9 empty sections.
    assert len(ms) == 4 * 4 * 9 + 9
    assert {m["type"] for m in ms} == {"tile_placed"}
    assert all(m["points"] == 1 and m["new_stack"] and m["turn_can_continue"] and not m["nine"] for m in ms)
    assert {"type": "tile_placed", "data": {"player": "ann", "tile": "C5", "section": 9, "dots": [4]}, "points": 1,
            "nine": False, "new_stack": True, "turn_can_continue": True} in ms  # fmt: skip
    assert moves(f, "bo") == [] and moves(f, "zed") == []
    all_accepted(f, "ann")


def test_placements_follow_the_segment_and_give_the_turn_score() -> None:
    lines = lone_three() + [place("bo", "ONE3", 2, [0]), draw("bo", "TRI4"), end("bo"), place("ann", "CEN1", 1, [4])]
    f = play(lines)
    ms = [m for m in moves(f, "ann") if m["type"] == "tile_placed"]
    assert {m["data"]["section"] for m in ms} == {1, 2}  # this segment adds to existing stacks only
    by_key = {(m["data"]["tile"], m["data"]["section"], tuple(m["data"]["dots"])): m for m in ms}
    assert by_key[("TRI2", 1, (6, 7, 8))]["points"] == 7  # section 1 becomes 7
    assert by_key[("ONE1", 2, (8,))]["points"] == 4 + 2
    assert ("TRI2", 1, (0, 1, 2)) not in by_key  # would cover dots 0, 1, 2
    assert moves(f, "ann")[-1] == {"type": "tiles_drawn", "data": {"player": "ann", "tiles": [None]}, "points": 4,
                                   "mid_turn": False}  # fmt: skip
    all_accepted(f, "ann")


def test_the_last_tile_with_the_bag_empty_ends_the_turn() -> None:
    f = play(light_start() + ANN_OUT[:4])
    last = [m for m in moves(f, "ann") if m["data"].get("tile") == "C5"]
    assert [(m["data"]["section"], m["points"], m["turn_can_continue"]) for m in last] == [(5, 5, False)]
    f = play(light_start() + ANN_OUT)
    assert moves(f, "ann") == [{"type": "turn_ended", "data": {"player": "ann"}, "points": 5, "round_ended": True}]


def test_a_nine_lets_the_turn_go_on() -> None:
    nine = [m for m in moves(play(bo_adds_three_and_two()), "ann") if m["nine"]]
    assert [(m["data"]["tile"], m["data"]["dots"], m["points"], m["turn_can_continue"]) for m in nine] == [
        ("ONE1", [8], 9, True), ("ONE2", [8], 9, True), ("ONE4", [8], 9, True)]  # fmt: skip


def test_turn_can_continue_after_a_nine_needs_a_place_for_a_remaining_tile() -> None:
    # Ann: a 6 and a 3 make a 9 on the one stack she starts; no other stack exists and she may not
    # start a second, so her three corner dots have nowhere to go.
    tiles = tile_set(S1=[0, 1, 2, 3, 4, 5], T1=[0, 1, 2], K1=[0], K2=[0], K3=[0], K4=[0], K5=[0], K6=[0], K7=[0],
                     K8=[0])  # fmt: skip
    lines = opening({"ann": ["S1", "T1", "K1", "K2", "K3"], "bo": ["K4", "K5", "K6", "K7", "K8"]},
                    [{"ann": "S1", "bo": "K4"}], tile_set=tiles) + [place("ann", "S1", 1, ROW2)]  # fmt: skip
    f = play(lines)
    nine = [m for m in GAME.legal_moves(f.state, "ann") if m.get("nine")]
    assert [(m["data"]["dots"], m["turn_can_continue"]) for m in nine] == [([6, 7, 8], False)]
    after = play(lines + [place("ann", "T1", 1, [6, 7, 8])])
    assert [m["type"] for m in GAME.legal_moves(after.state, "ann")] == ["turn_ended"]


def test_turn_can_continue_when_a_cleared_nine_refills_an_empty_bag() -> None:
    # clear_full_stacks, four racks of four and no bag. Ann opens section 1 with the centre; Bo's four
    # 2-dot tiles fill it, the last one makes the 9 and empties his rack. The five tiles go back into
    # the bag, so he draws a new rack and may go on: he has started no stack this turn.
    tiles = tile_set(A1=[4], B1=[0, 1], B2=[0, 1], B3=[0, 1], B4=[0, 1], **{f"C{i}": [0] for i in range(1, 12)})
    options = {"tile_set": tiles, "clear_full_stacks": True}
    lines = [ev("match_started", game="hi-spot", players=PLAYERS, options=options), ev("round_started"),
             ev("first_player_drawn", draws={"ann": "B1", "bo": "C1", "cy": "C2", "di": "C3"}),
             draw("ann", "A1", "C1", "C2", "C3"), draw("bo", "B1", "B2", "B3", "B4"),
             draw("cy", "C4", "C5", "C6", "C7"), draw("di", "C8", "C9", "C10", "C11")]  # fmt: skip
    lines += [place("ann", "A1", 1, [4]), end("ann")]
    lines += [place("bo", "B1", 1, [0, 1]), place("bo", "B2", 1, [2, 5]), place("bo", "B3", 1, [7, 8])]
    last = [m for m in GAME.legal_moves(play(lines).state, "bo") if m["type"] == "tile_placed"]
    assert [(m["data"]["dots"], m["nine"], m["turn_can_continue"]) for m in last] == [([3, 6], True, True)]
    lines += [place("bo", "B4", 1, [3, 6])]
    assert state_json(play(lines))["bag"] == 5
    refused(lines, end("bo"), "must first refill the rack: draw 4 tiles")
    lines += [draw("bo", "B1", "B2", "B3", "A1"), place("bo", "B1", 2, [0, 1])]
    refused(lines, place("bo", "B2", 3, [0, 1]), "already started a stack this turn (section 2)")
    f = play(lines + [draw("bo", "B4"), end("bo")])
    assert totals(f) == {"ann": 1, "bo": 9 + 2, "cy": 0, "di": 0} and state_json(f)["to_act"] == "cy"


def test_turn_cannot_continue_after_a_cleared_nine_on_the_turns_own_new_stack() -> None:
    # The same with Bo opening: his own new stack is the one cleared, so after the refill he may
    # neither start another nor add to a stack (none is left): the turn can only end.
    tiles = tile_set(A1=[4], B1=[0, 1], B2=[0, 1], B3=[0, 1], B4=[0, 1], **{f"C{i}": [0] for i in range(1, 11)})
    lines = opening({"ann": ["C1", "C2", "C3", "C4", "C5"], "bo": ["A1", "B1", "B2", "B3", "B4"]},
                    [{"ann": "C1", "bo": "B1"}], tile_set=tiles, clear_full_stacks=True)  # fmt: skip
    lines += [place("bo", "A1", 1, [4]), place("bo", "B1", 1, [0, 1]), place("bo", "B2", 1, [2, 5]),
              place("bo", "B3", 1, [7, 8])]  # fmt: skip
    last = [m for m in GAME.legal_moves(play(lines).state, "bo") if m["type"] == "tile_placed"]
    assert [(m["data"]["dots"], m["nine"], m["turn_can_continue"]) for m in last] == [([3, 6], True, False)]
    lines += [place("bo", "B4", 1, [3, 6]), draw("bo", "A1", "B1", "B2", "B3", "B4")]
    refused(lines, place("bo", "B1", 2, [0, 1]), "already started a stack this turn")
    f = play(lines + [end("bo")])
    assert totals(f) == {"ann": 0, "bo": 9}


def test_after_the_refill_only_turn_ended() -> None:
    f = play(start() + [place("ann", "TRI1", 1, [0, 1, 2]), draw("ann", "ONE4")])
    assert moves(f, "ann") == [{"type": "turn_ended", "data": {"player": "ann"}, "points": 3, "round_ended": False}]


def test_exchange_blocked_and_rack_draw_suggestions() -> None:
    f = play(nine_stacks())
    assert moves(f, "bo") == [
        {"type": "tiles_exchanged", "data": {"player": "bo", "returned": ["F1", "H11", "H13", "H15", "F2"],
                                             "drawn": [None] * 5}, "points": 0,
         "note": "any non-empty part of the rack may be returned, as many drawn"}]  # fmt: skip
    all_accepted(f, "bo")
    f = play(blocked_round())
    assert moves(f, "bo") == [{"type": "round_ended", "data": {"reason": "blocked"}, "points": -29}]
    all_accepted(f, "bo")
    f = play(light_start()[:-1])
    assert moves(f, "bo") == [{"type": "tiles_drawn", "data": {"player": "bo", "tiles": [None] * 5}, "points": 0}]
    assert moves(f, "ann") == []


def test_descriptions_and_tags() -> None:
    lines = bo_adds_three_and_two()
    lines += [place("ann", "ONE1", 1, [8]), place("ann", "TRI2", 2, [0, 1, 2]), place("ann", "CEN1", 2, [4])]
    lines += [draw("ann", "ONE5", "ONE6", "CEN2"), end("ann")]
    f = play(lines)
    texts = {i: f.describe(i) for i in range(2, f.seq + 1)}
    assert texts[3].text == "first-player draw: Ann SIX1 (6 dots), Bo ONE4 (1 dot); Ann starts"
    assert texts[6].text == "Ann placed TRI1 (3 dots) at [0, 1, 2] in section 1, starting a new stack: " \
                            "stack of 3; turn so far 3"  # fmt: skip
    assert (texts[6].player, texts[6].tags) == ("ann", ("new_stack",))
    assert texts[7].text == "Ann refilled the rack: 1 tile (ONE4)"
    nine = f.seq - 4
    assert texts[nine].tags == ("full_stack",) and "full stack, 9" in texts[nine].text
    assert texts[f.seq].text == "Ann ended the turn: 9 (section 1) + 4 (section 2) = 13 points, total 16"
    assert texts[f.seq].tags == ()
    f = play(blocked_round())
    exchange = next(i for i in range(1, f.seq + 1) if f.event(i).type == "tiles_exchanged")
    assert f.describe(exchange).tags == ("exchange",) and f.describe(exchange).player == "bo"
    assert f.describe(exchange).text == "Bo cannot play: returned 2 tiles, drew 2, misses the turn"
    f = play(blocked_round() + [ev("round_ended", reason="blocked")])
    assert f.describe(f.seq).text == "round 1 blocked: no tile fits the tray: Ann −28, Bo −29"


def test_the_state_is_plain_json_at_every_step_of_an_example() -> None:
    lines, _ = load_example("hi-spot-26")
    f = fold_dicts(lines)
    for seq in range(1, f.seq + 1):
        s = GAME.to_json(f.state_at(seq))
        assert json.loads(json.dumps(s)) == s
        f.describe(seq)
    s = GAME.to_json(f.state)
    assert s["finished"] and s["winners"] == ["bo"] and s["phase"] == "finished"
    assert sum(p["rack_count"] for p in s["players"]) + s["bag"] + sum(
        len(t["stack"]["tiles"]) for t in s["tray"] if t["stack"]) == 56  # fmt: skip
