"""Hi-Spot legal moves, event descriptions and the state JSON."""

from __future__ import annotations

import json
from typing import Any

from projections.events import Event
from projections.hi_spot import GAME
from projections.timeline import Fold, fold_dicts
from tests.examples import load_example
from tests.test_hi_spot_helpers import ANN_OUT, blocked_round, draw, end, ev, light_start, nine_stacks, place, play
from tests.test_hi_spot_rules import bo_adds_three_and_two, lone_three, start


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
