"""Hi-Spot audit (RULES.md §3 and "For every game", FORMAT.md's Hi-Spot events): the checklist items the
other test files left open, each on a small hand-built log with hand-computed scores or a refusal with
its reason and an unchanged state; a fuzz of mutated events (every answer a state or IllegalEvent); and
(slow) an independent referee that must accept and refuse exactly what the reducer does."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hi_spot import GAME
from projections.games.hi_spot.player import random_match
from projections.timeline import Fold, fold_dicts
from tests.support.examples import example_names, load_example
from tests.support.hi_spot import (
    ANN_OUT,
    LIGHT,
    LIGHT22,
    PLAYERS,
    ROW2,
    SIX,
    blocked_round,
    bo_adds_three_and_two,
    check_accounting,
    draw,
    end,
    ev,
    light_start,
    nine_stacks,
    opening,
    place,
    play,
    refused,
    rounds,
    state_json,
    tile_set,
    totals,
)
from tests.support.paths import DATA, ROOT


def started(**data: Any) -> list[dict[str, Any]]:
    return [ev("match_started", game="hi-spot", **data)]


def refused_start(data: dict[str, Any], *words: str) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts(started(**data))
    for w in words:
        assert w in err.value.reason, f"{w!r} not in {err.value.reason!r}"


# ---------------------------------------------------------------- players and options (match_started)


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ([{"id": "ann"}, {"id": "ann"}], ["player id 'ann' appears twice"]),
        ([{"id": "ann"}, {"id": ""}], ["non-empty string id"]),
        ([{"id": "ann"}, {"id": 7}], ["non-empty string id"]),
        ([{"id": "ann"}, {"name": "Bo"}], ["non-empty string id"]),
        ([{"id": "ann"}, "bo"], ["non-empty string id"]),
        ([{"id": "ann"}, {"id": "bo", "name": 3}], ["bo's name must be a string"]),
        ({"ann": "Ann", "bo": "Bo"}, ["players must be a list"]),
        (None, ["players must be a list"]),
        ([], ["played by 2 to 4 players, not 0"]),
    ],
)
def test_players_are_two_to_four_unique_non_empty_string_ids(players: Any, words: list[str]) -> None:
    refused_start({"players": players}, *words)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_two_three_and_four_players_are_accepted(n: int) -> None:
    s = state_json(play(started(players=PLAYERS[:n])))
    assert [p["id"] for p in s["players"]] == [p["id"] for p in PLAYERS[:n]]
    assert s["options"]["rack_size"] == (4 if n == 4 else 5)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target_score": True}, ["option target_score must be a positive integer (got True)"]),
        ({"target_score": 200.0}, ["option target_score must be a positive integer (got 200.0)"]),
        ({"target_score": "200"}, ["option target_score must be a positive integer"]),
        ({"target_score": -50}, ["option target_score must be a positive integer"]),
        ({"target_score": None}, ["option target_score must be a positive integer"]),
        ({"allow_flip": 1}, ["option allow_flip must be true or false"]),
        ({"allow_flip": "true"}, ["option allow_flip must be true or false"]),
        ({"allow_flip": None}, ["option allow_flip must be true or false"]),
        ({"clear_full_stacks": "false"}, ["option clear_full_stacks must be true or false"]),
        ({"tile_set": {"id": "A", "dots": [0]}}, ["option tile_set must be \"default\" or a list"]),
        ({"tile_set": "Default"}, ["option tile_set must be \"default\" or a list"]),
        ({"tile_set": None}, ["option tile_set must be \"default\" or a list"]),
        ({"tile_set": []}, ["a tile set is a non-empty list"]),
        ({"tile_set": ["T01"]}, ["non-empty string id"]),
        ({"tile_set": [{"id": 1, "dots": [0]}]}, ["non-empty string id"]),
        ({"tile_set": [{"id": "A", "dots": [1.0]}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A", "dots": [True]}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A", "dots": ["0"]}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A", "dots": [-1]}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A", "dots": [0, 0]}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A"}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A", "dots": 0}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": "default", "rack_size": 4}, ["unknown option 'rack_size'"]),
    ],
)  # fmt: skip
def test_option_values_of_the_wrong_json_type_are_refused(options: dict[str, Any], words: list[str]) -> None:
    refused_start({"players": PLAYERS[:2], "options": options}, *words)


@pytest.mark.parametrize("options", [[], "fast", 3])
def test_options_must_be_an_object(options: Any) -> None:
    refused_start({"players": PLAYERS[:2], "options": options}, "options must be a JSON object")


def test_given_options_are_kept_and_the_rest_take_their_defaults() -> None:
    s = state_json(play(started(players=PLAYERS[:2], options={"target_score": 150, "allow_flip": False})))
    assert s["options"] == {"target_score": 150, "allow_flip": False, "clear_full_stacks": False,
                            "tile_set": "default", "rack_size": 5}  # fmt: skip


# ---------------------------------------------------------------- event shapes (FORMAT.md), one type at a time

DEFAULT_RACKS = {"ann": ["T41", "T22", "T14", "T03", "T01"], "bo": ["T52", "T29", "T24", "T10", "T12"]}
FIRST_DRAW = started(players=PLAYERS[:2]) + [ev("round_started")]
RACKS_PHASE = opening(DEFAULT_RACKS, [{"ann": "T53", "bo": "T01"}])[:-1]  # Bo still to draw a rack
PLAYING = opening(DEFAULT_RACKS, [{"ann": "T53", "bo": "T01"}])  # Ann to play, 46 tiles in the bag
MID_TURN = PLAYING + [place("ann", "T22", 1, [0, 1, 2])]  # Ann owes a refill of 1
REFILLED = MID_TURN + [draw("ann", "T30")]  # only turn_ended may follow


@pytest.mark.parametrize(
    ("lines", "type_", "data", "words"),
    [
        # first_player_drawn: draws {player: tile}
        (FIRST_DRAW, "first_player_drawn", {}, ["missing 'draws'"]),
        (FIRST_DRAW, "first_player_drawn", {"draws": None}, ["'draws' has the wrong type"]),
        (FIRST_DRAW, "first_player_drawn", {"draws": {"ann": "T53", "bo": "t01"}}, ["unknown tile 't01'"]),
        (FIRST_DRAW, "first_player_drawn", {"draws": {"ann": "T53", "bo": "T1"}}, ["unknown tile 'T1'"]),
        (FIRST_DRAW, "first_player_drawn", {"draws": {"ann": "T53", "bo": 1}}, ["unknown tile 1"]),
        (FIRST_DRAW, "first_player_drawn", {"draws": {"ann": "T53", "bo": ["T01"]}}, ["unknown tile ['T01']"]),
        (FIRST_DRAW, "first_player_drawn", {"draws": {"ann": "T53", "bo": True}}, ["unknown tile True"]),
        # tiles_drawn: player, tiles
        (RACKS_PHASE, "tiles_drawn", {"tiles": [None] * 5}, ["missing 'player'"]),
        (RACKS_PHASE, "tiles_drawn", {"player": "zed", "tiles": [None] * 5}, ["unknown player 'zed'"]),
        (RACKS_PHASE, "tiles_drawn", {"player": 1, "tiles": [None] * 5}, ["'player' has the wrong type"]),
        (RACKS_PHASE, "tiles_drawn", {"player": "bo"}, ["missing 'tiles'"]),
        (RACKS_PHASE, "tiles_drawn", {"player": "bo", "tiles": None}, ["'tiles' has the wrong type"]),
        (RACKS_PHASE, "tiles_drawn", {"player": "bo", "tiles": [1, None, None, None, None]}, ["unknown tile 1"]),
        (RACKS_PHASE, "tiles_drawn", {"player": "bo", "tiles": [None] * 4}, ["Bo draws a rack of 5 tiles, not 4"]),
        (RACKS_PHASE, "tiles_drawn", {"player": "bo", "tiles": [None] * 6}, ["Bo draws a rack of 5 tiles, not 6"]),
        (MID_TURN, "tiles_drawn", {"player": "ann", "tiles": ["T41"]}, ["T41 is not in the bag",
                                                                        "in Ann's rack"]),
        (MID_TURN, "tiles_drawn", {"player": "ann", "tiles": ["T22"]}, ["T22 is not in the bag",
                                                                        "on the tray in section 1"]),
        (MID_TURN, "tiles_drawn", {"player": "bo", "tiles": ["T30"]}, ["it is Ann's turn, not Bo's"]),
        # tile_placed: player, tile, section 1–9, dots 0–8
        (PLAYING, "tile_placed", {"player": "ann", "section": 1, "dots": [0, 1, 2]}, ["missing 'tile'"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "dots": [0, 1, 2]}, ["missing 'section'"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1}, ["missing 'dots'"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1.0, "dots": [0, 1, 2]},
         ["'section' has the wrong type (1.0)"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": -1, "dots": [0, 1, 2]},
         ["section must be 1–9, not -1"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 10**20, "dots": [0, 1, 2]},
         ["section must be 1–9"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": None, "dots": [0, 1, 2]},
         ["'section' has the wrong type"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1, "dots": [0.0, 1, 2]},
         ["dots must be positions 0–8"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1, "dots": ["0", "1", "2"]},
         ["dots must be positions 0–8"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1, "dots": [-1, 0, 1]},
         ["dots must be positions 0–8"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1, "dots": [0, 1, 10**20]},
         ["dots must be positions 0–8"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1, "dots": None},
         ["'dots' has the wrong type"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22", "section": 1, "dots": []}, ["T22 has 3 dots, not 0"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": "T22 ", "section": 1, "dots": [0, 1, 2]},
         ["unknown tile 'T22 '"]),
        (PLAYING, "tile_placed", {"player": "ann", "tile": 22, "section": 1, "dots": [0, 1, 2]}, ["unknown tile 22"]),
        (PLAYING, "tile_placed", {"player": ["ann"], "tile": "T22", "section": 1, "dots": [0, 1, 2]},
         ["'player' has the wrong type"]),
        # turn_ended: player
        (REFILLED, "turn_ended", {}, ["missing 'player'"]),
        (REFILLED, "turn_ended", {"player": "zed"}, ["unknown player 'zed'"]),
        (REFILLED, "turn_ended", {"player": None}, ["'player' has the wrong type"]),
        (REFILLED, "turn_ended", {"player": "bo"}, ["it is Ann's turn, not Bo's"]),
        (REFILLED, "tile_placed", {"player": "ann", "tile": "T14", "section": 2, "dots": [0, 4]},
         ["Ann has refilled the rack, so the turn is over"]),
        # round_ended: reason "blocked"
        (PLAYING, "round_ended", {"reason": 1}, ["'reason' has the wrong type"]),
        (PLAYING, "round_ended", {"reason": "Blocked"}, ["reason must be 'blocked'"]),
        (PLAYING, "round_ended", {"reason": "blocked"}, ["the round is not blocked: section 1 is empty"]),
    ],
)  # fmt: skip
def test_malformed_events_are_refused_with_the_state_unchanged(
    lines: list[dict[str, Any]], type_: str, data: dict[str, Any], words: list[str]
) -> None:
    refused(lines, ev(type_, **data), *words)


def test_the_shapes_above_are_refused_only_for_their_fault() -> None:
    # The valid versions of the events the table above breaks are accepted.
    play(FIRST_DRAW + [ev("first_player_drawn", draws={"ann": "T53", "bo": "T01"})])
    play(RACKS_PHASE + [draw("bo", *[None] * 5)])
    play(PLAYING + [ev("tile_placed", player="ann", tile="T22", section=1, dots=[0, 1, 2])])
    assert totals(play(REFILLED + [end("ann")])) == {"ann": 3, "bo": 0}


EXCHANGE_OK = {"player": "bo", "returned": ["F1"], "drawn": ["H05"]}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"player": "bo", "drawn": ["H05"]}, ["missing 'returned'"]),
        ({"player": "bo", "returned": ["F1"]}, ["missing 'drawn'"]),
        ({"returned": ["F1"], "drawn": ["H05"]}, ["missing 'player'"]),
        ({"player": "zed", "returned": ["F1"], "drawn": ["H05"]}, ["unknown player 'zed'"]),
        ({"player": "bo", "returned": "F1", "drawn": ["H05"]}, ["'returned' has the wrong type"]),
        ({"player": "bo", "returned": ["F1"], "drawn": "H05"}, ["'drawn' has the wrong type"]),
        ({"player": "bo", "returned": [1], "drawn": ["H05"]}, ["unknown tile 1"]),
        ({"player": "bo", "returned": [True], "drawn": ["H05"]}, ["unknown tile True"]),
        ({"player": "bo", "returned": ["f1"], "drawn": ["H05"]}, ["unknown tile 'f1'"]),
        ({"player": "bo", "returned": ["F1"], "drawn": ["X"]}, ["unknown tile 'X'"]),
        ({"player": "bo", "returned": ["F1", "F1"], "drawn": ["H05", None]}, ["tile F1 is listed twice"]),
        ({"player": "bo", "returned": ["F1", "F2"], "drawn": ["H05", "H05"]}, ["tile H05 is listed twice"]),
        ({"player": "bo", "returned": ["F1"], "drawn": ["H11"]}, ["H11 is not in the bag", "in Bo's rack"]),
        ({"player": "bo", "returned": ["F1"], "drawn": ["H05", None]}, ["draw as many tiles as returned (1), not 2"]),
        # H05 is in the bag and Bo's rack is fully known: no slot of his can hold it
        ({"player": "bo", "returned": ["H05"], "drawn": ["F1"]}, ["H05 is not in Bo's rack: it is in the bag"]),
    ],
)  # fmt: skip
def test_malformed_exchanges_are_refused(data: dict[str, Any], words: list[str]) -> None:
    refused(nine_stacks(), ev("tiles_exchanged", **data), *words)


def test_an_exchange_may_draw_back_a_tile_it_returned() -> None:
    f = play(nine_stacks() + [ev("tiles_exchanged", **EXCHANGE_OK)])
    assert state_json(f)["players"][1]["rack"] == ["H11", "H13", "H15", "F2", "H05"]
    f = play(nine_stacks() + [ev("tiles_exchanged", player="bo", returned=["F1"], drawn=["F1"])])
    assert state_json(f)["players"][1]["rack"] == ["H11", "H13", "H15", "F2", "F1"] and state_json(f)["bag"] == 1


BO_RACK = ["H11", "H13", "H15", "H05", "F1"]


@pytest.mark.parametrize(
    ("racks", "words"),
    [
        ([BO_RACK], ["'racks' has the wrong type"]),
        (None, ["'racks' has the wrong type"]),
        ({"bo": "H11"}, ["'bo' has the wrong type"]),
        ({"bo": ["H11", "H11", "H15", "H05", "F1"]}, ["tile H11 is listed twice"]),
        ({"bo": ["H11", "H13", "H15", "H05", "h01"]}, ["unknown tile 'h01'"]),
        ({"bo": ["H11", "H13", "H15", "H05", 1]}, ["unknown tile 1"]),
        ({"bo": BO_RACK, "ann": ["H12", "H14", "H16", "F3"]}, ["Ann holds 5 tiles, not 4"]),
    ],
)
def test_malformed_reveals_are_refused(racks: Any, words: list[str]) -> None:
    lines = blocked_round(bo_seen=False) + [ev("round_ended", reason="blocked")]
    refused(lines, ev("racks_revealed", racks=racks), *words)
    if racks is None:
        refused(lines, ev("racks_revealed"), "missing 'racks'")


def test_a_reveal_may_list_a_fully_known_rack_in_any_order() -> None:
    lines = blocked_round(bo_seen=False) + [ev("round_ended", reason="blocked")]
    f = play(lines + [ev("racks_revealed", racks={"bo": BO_RACK, "ann": ["F2", "F3", "H16", "H14", "H12"]})])
    assert totals(f) == {"ann": 37 - 28, "bo": 24 - 29}


# ---------------------------------------------------------------- tiles and dots


def test_dots_are_compared_as_a_set_in_any_order() -> None:
    f = play(PLAYING + [place("ann", "T41", 1, [5, 3, 1, 0])])
    assert state_json(f)["tray"][0]["stack"]["covered"] == [0, 1, 3, 5]
    # "compared as a set" is not "any multiset": a position written twice is a recording error
    refused(PLAYING, place("ann", "T14", 1, [0, 0]), "dots lists a position twice")


def test_allow_flip_false_still_allows_all_four_rotations() -> None:
    # T41 [0, 1, 3, 5] turned a quarter three times: [1, 2, 5, 7], [3, 5, 7, 8], [1, 3, 6, 7]
    for dots in ([0, 1, 3, 5], [1, 2, 5, 7], [3, 5, 7, 8], [1, 3, 6, 7]):
        play(opening(DEFAULT_RACKS, [{"ann": "T53", "bo": "T01"}], allow_flip=False) + [place("ann", "T41", 1, dots)])
    for dots in ([1, 2, 3, 5], [0, 1, 3, 7], [3, 5, 6, 7], [1, 5, 7, 8]):  # the four mirror images
        refused(opening(DEFAULT_RACKS, [{"ann": "T53", "bo": "T01"}], allow_flip=False), place("ann", "T41", 1, dots),
                "turning over is not allowed")  # fmt: skip
        play(PLAYING + [place("ann", "T41", 1, dots)])


# ---------------------------------------------------------------- first player, seats, rounds


def test_play_goes_clockwise_from_the_first_player_and_wraps_round_the_table() -> None:
    lines = started(players=PLAYERS[:3]) + [
        ev("round_started"),
        ev("first_player_drawn", draws={"ann": "T01", "bo": "T02", "cy": "T53"}),
    ]
    lines += [draw("ann", "T10", "T11", "T12", "T13", "T14"), draw("bo", "T15", "T16", "T17", "T18", "T19"),
              draw("cy", "T20", "T21", "T22", "T23", "T24")]  # fmt: skip
    assert state_json(play(lines))["to_act"] == "cy"
    lines += [place("cy", "T22", 1, [0, 1, 2]), draw("cy", "T25"), end("cy")]
    assert state_json(play(lines))["to_act"] == "ann"  # after the last seat comes the first
    lines += [place("ann", "T10", 2, [0, 1]), draw("ann", "T26"), end("ann")]
    assert state_json(play(lines))["to_act"] == "bo"
    lines += [place("bo", "T15", 1, [4, 7]), draw("bo", "T27"), end("bo")]
    f = play(lines)
    assert state_json(f)["to_act"] == "cy" and totals(f) == {"ann": 2, "bo": 5, "cy": 3}


def test_every_round_starts_with_a_first_player_draw() -> None:
    lines = light_start() + ANN_OUT + [end("ann"), ev("round_started")]
    refused(lines, draw("ann", "C1", "C2", "C3", "C4", "C5"), "the first-player draw is not finished")
    refused(lines, place("ann", "C1", 1, [0]), "the first-player draw is not finished (Ann and Bo to draw)")
    refused(lines, ev("round_ended", reason="blocked"), "the first-player draw is not finished")
    # Bo draws the heavier tile this time and opens round 2; the drawn tiles are back for the racks.
    lines += [ev("first_player_drawn", draws={"ann": "C1", "bo": "D1"})]
    lines += [draw("bo", "D1", "D2", "D3", "D4", "D5"), draw("ann", "C1", "C2", "C3", "C4", "C5")]
    f = play(lines)
    assert state_json(f)["to_act"] == "bo" and state_json(f)["tray"][4]["stack"] is None
    refused(f, place("ann", "C1", 1, [0]), "it is Bo's turn, not Ann's")
    f = play(lines + [place("bo", "D1", 1, [0, 1]), end("bo")])
    assert rounds(f) == [{"ann": 5, "bo": -10}, {"ann": 0, "bo": 2}]


def test_four_racks_of_four_and_the_refill_to_four() -> None:
    lines = started(players=PLAYERS) + [
        ev("round_started"),
        ev("first_player_drawn", draws={"ann": "T01", "bo": "T53", "cy": "T02", "di": "T03"}),
    ]
    lines += [draw("ann", "T10", "T11", "T12", "T13"), draw("bo", "T14", "T15", "T16", "T17"),
              draw("cy", "T18", "T19", "T20", "T21"), draw("di", "T22", "T23", "T24", "T25")]  # fmt: skip
    lines += [place("bo", "T14", 1, [0, 4]), place("bo", "T16", 1, [3, 5])]
    refused(lines, draw("bo", "T30", "T31", "T32"), "must draw 2 tiles (rack 2 of 4, 40 in the bag), not 3")
    f = play(lines + [draw("bo", "T30", "T31"), end("bo")])
    assert state_json(f)["players"][1]["rack_count"] == 4 and totals(f)["bo"] == 4 and state_json(f)["to_act"] == "cy"


# ---------------------------------------------------------------- segments


def test_after_a_nine_an_adding_segment_takes_existing_stacks_only() -> None:
    # bo_adds_three_and_two: section 1 holds 8 (3 + 3 + 2). Ann then starts section 2 with a 3.
    lines = bo_adds_three_and_two() + [place("ann", "TRI2", 2, [0, 1, 2]), draw("ann", "ONE5"), end("ann")]
    # Bo (TRI3 DUO2 ONE3 TRI4 DUO3) takes section 1 to 9: the segment ends; the next one adds DUO2 to
    # section 2, so it is an adding segment and no new stack may start, though none was started this turn.
    lines += [place("bo", "ONE3", 1, [8]), place("bo", "DUO2", 2, [6, 7])]
    refused(lines, place("bo", "TRI4", 3, [0, 1, 2]), "section 3 is empty, but this segment adds to existing stacks")
    lines += [place("bo", "DUO3", 2, [5, 8])]  # section 2: 3 + 2 + 2 = 7
    f = play(lines + [draw("bo", "MID2", "DUO4", "ONE6"), end("bo")])
    assert totals(f) == {"ann": 3 + 3, "bo": 8 + 9 + 7}


def test_a_new_stack_may_start_after_a_nine_only_in_a_fresh_segment() -> None:
    # A 9 ends the segment; a new stack then opens its own segment and takes the following tiles.
    lines = bo_adds_three_and_two() + [place("ann", "ONE1", 1, [8]), place("ann", "CEN1", 4, [4])]
    refused(lines, place("ann", "ONE2", 1, [0]), "section 1 is full")
    refused(lines, place("ann", "ONE2", 5, [0]), "already started a stack this turn (section 4)")
    f = play(lines + [place("ann", "ONE2", 4, [0]), draw("ann", "ONE5", "ONE6", "CEN2"), end("ann")])
    assert totals(f) == {"ann": 3 + 9 + 2, "bo": 8}


# ---------------------------------------------------------------- blocked, exchanges, the bag


def bag_holds_p1() -> list[dict[str, Any]]:
    """nine_stacks with P1 left in the bag instead of H05 (Ann starts with H05): every section holds a 6,
    Ann holds H05 H12 H14 H16 F3, Bo F1 H11 H13 H15 F2; only P1 (in the bag) fits anywhere."""
    lines = opening({"ann": ["H01", "H02", "H03", "H04", "H05"], "bo": ["H06", "H07", "H08", "H09", "F1"]},
                    [{"ann": "H01", "bo": "F1"}], tile_set=SIX)  # fmt: skip
    turns = [("ann", "H01", "H10"), ("bo", "H06", "H11"), ("ann", "H02", "H12"), ("bo", "H07", "H13"),
             ("ann", "H03", "H14"), ("bo", "H08", "H15"), ("ann", "H04", "H16"), ("bo", "H09", "F2"),
             ("ann", "H10", "F3")]  # fmt: skip
    for section, (who, tile, drawn) in enumerate(turns, start=1):
        lines += [place(who, tile, section, ROW2), draw(who, drawn), end(who)]
    return lines


def test_blocked_is_judged_over_the_bag_too() -> None:
    lines = bag_holds_p1()
    assert state_json(play(lines))["bag"] == 1
    refused(lines, ev("round_ended", reason="blocked"), "not blocked: P1 (in a rack or the bag) fits in section 1")
    # Bo cannot play but the round goes on: he exchanges and may draw P1.
    lines += [ev("tiles_exchanged", player="bo", returned=["F2"], drawn=["P1"])]
    refused(lines, ev("round_ended", reason="blocked"), "not blocked: P1 (in a rack or the bag) fits in section 1")
    lines += [ev("tiles_exchanged", player="ann", returned=["H05", "F3"], drawn=["F3", "F2"])]
    lines += [place("bo", "P1", 9, [6])]  # section 9: 6 + 1
    refused(lines, end("bo"), "must first refill the rack: draw 1 tile")  # H05 is the bag's last tile
    f = play(lines + [draw("bo", "H05"), end("bo")])
    assert totals(f) == {"ann": 30, "bo": 24 + 7} and state_json(f)["bag"] == 0


def test_nothing_but_round_ended_once_blocked() -> None:
    lines = blocked_round()
    refused(lines, ev("tiles_exchanged", player="bo", returned=["F1"], drawn=["F2"]), "the round is blocked")
    refused(lines, end("bo"), "Bo has placed no tile")
    refused(lines, draw("bo", "F2"), "Bo has placed no tile this turn")
    refused(lines, ev("round_started"), "a round is being played")
    f = play(lines + [ev("round_ended", reason="blocked")])
    refused(f, ev("round_ended", reason="blocked"), "no round is being played")


# ---------------------------------------------------------------- hidden slots


def test_a_rack_of_known_and_hidden_tiles() -> None:
    lines = light_start(bo=["D1", None, None, None, None]) + ANN_OUT[:1] + [end("ann")]
    s = state_json(play(lines))
    assert s["players"][1]["rack"] == ["D1"] and s["players"][1]["hidden"] == 4
    refused(lines, place("bo", "C2", 1, [0, 1]), "C2 is not in Bo's rack: it is in Ann's rack")
    refused(lines, place("bo", "C1", 1, [0]), "C1 is not in Bo's rack: it is on the tray in section 5")
    lines += [place("bo", "D2", 1, [0, 1])]  # a hidden slot named D2
    refused(lines, place("bo", "D2", 1, [6, 7]), "D2 is not in Bo's rack: it is on the tray in section 1")
    lines += [place("bo", "D1", 1, [6, 7]), place("bo", "D3", 1, [2, 5])]  # the known tile, then a hidden one
    f = play(lines + [end("bo")])
    assert state_json(f)["players"][1] == {"id": "bo", "name": "Bo", "score": 6, "rack": [], "hidden": 2,
                                           "rack_count": 2}  # fmt: skip
    # Ann (C2 C3 C4 C5) cannot hold D4: it can only be in one of Bo's two hidden slots.
    refused(f, place("ann", "D4", 1, [3, 4]), "D4 is not in Ann's rack")


def test_a_hidden_mid_turn_refill_is_played_by_name() -> None:
    tiles = LIGHT + tile_set(E1=[1], E2=[1])  # the bag holds E1 and E2 after the racks
    lines = light_start(tiles=tiles) + ANN_OUT + [draw("ann", None, None)]
    assert state_json(play(lines))["players"][0]["hidden"] == 2
    refused(lines, place("ann", "D1", 5, [1, 2]), "D1 is not in Ann's rack: it is in Bo's rack")
    lines += [place("ann", "E2", 5, [1])]
    refused(lines, place("ann", "E2", 5, [3]), "E2 is not in Ann's rack: it is on the tray in section 5")
    f = play(lines + [place("ann", "E1", 5, [3]), end("ann")])
    assert totals(f) == {"ann": 7, "bo": -10} and state_json(f)["phase"] == "between_rounds"


def test_hidden_exchanges_keep_the_count() -> None:
    lines = nine_stacks(bo_seen=False)
    refused(lines, ev("tiles_exchanged", player="bo", returned=[None, None], drawn=[None]),
            "draw as many tiles as returned (2), not 1")  # fmt: skip
    refused(lines, ev("tiles_exchanged", player="bo", returned=[None], drawn=["P1"]), "P1 is not in the bag")
    f = play(lines + [ev("tiles_exchanged", player="bo", returned=[None, "F2"], drawn=["H05", None])])
    bo = state_json(f)["players"][1]
    assert (bo["rack"], bo["hidden"], bo["rack_count"]) == (["H05"], 4, 5)


# ---------------------------------------------------------------- the end of the match


def test_after_the_finish_only_notes_and_rewinds() -> None:
    lines = light_start(target_score=5) + ANN_OUT + [end("ann")]
    f = play(lines)
    assert f.finished
    for event in (place("bo", "D1", 1, [0, 1]), end("bo"), ev("round_ended", reason="blocked"),
                  ev("racks_revealed", racks={"bo": ["D1", "D2", "D3", "D4", "D5"]}), draw("bo", "D1"),
                  ev("first_player_drawn", draws={"ann": "C1", "bo": "D1"})):  # fmt: skip
        refused(f, event, "the match is finished; only notes and rewinds are accepted")
    noted = f.apply(Event(f.seq + 1, "note", {"text": "Ann wins", "about_seq": f.seq}))
    assert noted.finished and noted.state is f.state
    reopened = noted.apply(Event(noted.seq + 1, "rewind", {"to_seq": f.seq - 1, "reason": "C5 was misread"}))
    assert not reopened.finished and state_json(reopened)["to_act"] == "ann"
    assert totals(reopened) == {"ann": 0, "bo": 0}


def test_the_target_is_reached_by_the_turn_total_not_a_running_total() -> None:
    # Section 1 goes 3 → 6 → 8 in Bo's turn: he scores 8 and reaches a target of 8, not 6 + 8.
    f = play(bo_adds_three_and_two(target_score=8))
    assert f.finished and totals(f) == {"ann": 3, "bo": 8} and GAME.scores(f.state).winners == ["bo"]
    f = play(bo_adds_three_and_two(target_score=9))
    assert not f.finished


# ---------------------------------------------------------------- fuzz: every answer is a state or IllegalEvent

JUNK: list[Any] = [None, True, False, 0, 1, -1, 1.0, 2.5, 10**20, "", "x", "1", [], [None], [1], {}, {"a": 1}]
KEYS = ["player", "tile", "section", "dots", "tiles", "returned", "drawn", "racks", "draws", "reason"]


def _mutate(rng: random.Random, data: dict[str, Any], ids: list[str], tiles: list[str]) -> dict[str, Any]:
    d = copy.deepcopy(data)
    if not d or rng.random() < 0.15:
        if d and rng.random() < 0.5:
            d.pop(rng.choice(sorted(d)))
        else:
            d[rng.choice(KEYS)] = rng.choice(JUNK + tiles[:3] + ids)
        return d
    key = rng.choice(sorted(d))
    v = d[key]
    loose = tiles + [None]
    if rng.random() < 0.3:
        d[key] = rng.choice(JUNK)
    elif key == "player":
        d[key] = rng.choice(ids)
    elif key == "tile":
        d[key] = rng.choice(tiles + [None, "t01", "T1"])
    elif key == "section":
        d[key] = rng.choice([0, 1, 5, 9, 10, -3, 1.0, True, "3"])
    elif key == "dots" and isinstance(v, list):
        d[key] = rng.choice([v[::-1], v + v[:1], v[:-1], [x + 1 for x in v], [float(x) for x in v], [True] + v[1:],
                             rng.sample(range(9), rng.randint(0, 9))])  # fmt: skip
    elif isinstance(v, list):
        v = list(v)
        op = rng.randrange(4)
        if op == 0 and v:
            v.pop(rng.randrange(len(v)))
        elif op == 1:
            v.append(rng.choice(loose))
        elif op == 2 and v:
            v[rng.randrange(len(v))] = rng.choice(loose + [1, True, ["T01"]])
        else:
            v = v + v
        d[key] = v
    elif isinstance(v, dict) and v:
        v = dict(v)
        op = rng.randrange(3)
        k = rng.choice(sorted(v))
        if op == 0:
            v.pop(k)
        elif op == 1:
            v[rng.choice(ids)] = rng.choice(loose + [[], ["T01"], 3])
        elif isinstance(v[k], list) and v[k]:
            v[k] = list(v[k])
            v[k][rng.randrange(len(v[k]))] = rng.choice(loose + [7])
        else:
            v[k] = rng.choice(loose + [[], 5])
        d[key] = v
    else:
        d[key] = rng.choice(JUNK + tiles[:5] + ids)
    return d


def fuzz_logs(extra_seeds: int) -> list[list[dict[str, Any]]]:
    logs = [load_example(n)[0] for n in example_names("hi-spot")]
    cases = [(2, {}, 0.0), (3, {"clear_full_stacks": True}, 0.6), (4, {"allow_flip": False}, 1.0),
             (2, {"tile_set": LIGHT22, "target_score": 60}, 0.5),
             (4, {"tile_set": LIGHT22, "target_score": 50, "clear_full_stacks": True}, 0.3)]  # fmt: skip
    for seed in range(extra_seeds):
        n, options, hidden = cases[seed % len(cases)]
        logs.append(random_match(random.Random(seed), PLAYERS[:n], options, hidden))
    return logs


def fuzz(logs: list[list[dict[str, Any]]], per_log: int, seed: int) -> int:
    """Mutate events of the logs and apply them to the state before them; returns how many were accepted."""
    rng = random.Random(seed)
    accepted = 0
    types = sorted(GAME.event_types)
    for log in logs:
        f = Fold.begin(Event(1, log[0]["type"], log[0]["data"]))
        folds = []
        for i, line in enumerate(log, start=1):
            if i > 1:
                f = f.apply(Event(i, line["type"], line["data"]))
            folds.append(f)
        for _ in range(per_log):
            at = rng.randrange(1, len(log))  # the state after event `at`, then a mutation of a nearby event
            state = folds[at - 1].state
            src = log[at] if rng.random() < 0.8 else log[rng.randrange(1, len(log))]
            type_ = src["type"] if rng.random() < 0.9 else rng.choice(types)
            ids = [p.id for p in state.players] + ["zed"]
            data = _mutate(rng, src["data"], ids, sorted(state.tiles.ids))
            before = GAME.to_json(state)
            event = Event(at + 1, type_, data)
            try:
                after = GAME.apply(state, event)
            except IllegalEvent as err:
                assert err.reason, (type_, data)
            else:
                accepted += 1
                check_accounting(after)
                GAME.to_json(after)
                GAME.scores(after)
                GAME.describe(state, event, after)
            assert GAME.to_json(state) == before, (type_, data)  # never mutated, accepted or refused
    return accepted


def test_fuzzed_events_give_a_state_or_an_illegal_event() -> None:
    assert fuzz(fuzz_logs(2), per_log=250, seed=1) > 50


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_many_fuzzed_events_give_a_state_or_an_illegal_event(seed: int) -> None:
    assert fuzz(fuzz_logs(10), per_log=2500, seed=seed) > 1000


# ---------------------------------------------------------------- an independent referee

# The rulebook's tile table, transcribed apart from the package's own copy.
SPEC_TILES = DATA / "hi-spot-tiles.json"
PACKAGED_TILES = ROOT / "projections" / "games" / "hi_spot" / "tilesets" / "default.json"


def _orientations(dots: frozenset[int], flip: bool) -> set[frozenset[int]]:
    """RULES.md: a quarter turn maps (row, col) to (col, 2 − row), turning over (row, col) to (row, 2 − col)."""
    found: set[frozenset[int]] = set()
    for side in [dots, frozenset(3 * (p // 3) + 2 - p % 3 for p in dots)][: 2 if flip else 1]:
        for _ in range(4):
            found.add(side)
            side = frozenset(3 * (p % 3) + 2 - p // 3 for p in side)
    return found


class Referee:
    """RULES.md §3 read again, independently of projections/games/hi_spot/: follows a legal log and says
    which placements, exchanges and round ends are legal next, and what the scores are."""

    def __init__(self, start: dict[str, Any]) -> None:
        self.ids = [p["id"] for p in start["players"]]
        options = start.get("options", {})
        self.target = options.get("target_score", 200)
        self.flip = options.get("allow_flip", True)
        self.clear = options.get("clear_full_stacks", False)
        raw = options.get("tile_set", "default")
        if raw == "default":
            raw = json.loads((SPEC_TILES if SPEC_TILES.is_file() else PACKAGED_TILES).read_text(encoding="utf-8"))
        self.dots = {t["id"]: frozenset(t["dots"]) for t in raw}
        self.rack_size = 4 if len(self.ids) == 4 else 5
        self.score = dict.fromkeys(self.ids, 0)
        self.serial = 0
        self.cur: str | None = None

    def round_started(self, d: dict[str, Any]) -> None:
        self.tray: list[tuple[int, set[int], list[str]] | None] = [None] * 9
        self.racks: dict[str, list[str]] = {p: [] for p in self.ids}
        self.bag, self.aside = set(self.dots), set()
        self.turn: dict[str, Any] | None = None

    def first_player_drawn(self, d: dict[str, Any]) -> None:
        drawn = d["draws"]
        if not set(drawn.values()) <= self.bag:  # the bag ran short: the set-aside tiles went back
            self.bag |= self.aside
            self.aside = set()
        self.bag -= set(drawn.values())
        self.aside |= set(drawn.values())
        best = max(len(self.dots[t]) for t in drawn.values())
        top = [p for p in self.ids if p in drawn and len(self.dots[drawn[p]]) == best]
        if len(top) == 1:
            self.first = top[0]
            self.bag |= self.aside

    def tiles_drawn(self, d: dict[str, Any]) -> None:
        was = len(self.racks[d["player"]])
        self.racks[d["player"]] += d["tiles"]
        self.bag -= set(d["tiles"])
        if self.turn is not None and was:  # the end-of-turn refill: only turn_ended follows
            self.turn["refilled"] = True
        elif self.turn is not None:  # a new rack after an emptied one: a new segment
            self.turn["segment"] = None
        elif all(self.racks.values()):
            self.cur = self.first

    def legal_place(self, p: str, tile: str, section: int, dots: list[int]) -> bool:
        t = self.turn or {"new": False, "segment": None, "refilled": False}
        if p != self.cur or t["refilled"] or tile not in self.racks[p]:
            return False
        if frozenset(dots) not in _orientations(self.dots[tile], self.flip):
            return False
        stack = self.tray[section - 1]
        if stack is None:  # a new stack: one a turn, and only as a segment's first placement
            return not t["new"] and t["segment"] is None
        if len(stack[1]) == 9 or stack[1] & set(dots):
            return False
        return t["segment"] != "new" or stack[0] == t["stack"]

    def tile_placed(self, d: dict[str, Any]) -> None:
        p, tile, section = d["player"], d["tile"], d["section"]
        assert self.legal_place(p, tile, section, d["dots"])
        t = self.turn = self.turn or {"new": False, "segment": None, "refilled": False, "touched": [], "nines": set()}
        stack = self.tray[section - 1]
        if stack is None:
            self.serial += 1
            stack = self.tray[section - 1] = (self.serial, set(), [])
            t.update(new=True, segment="new", stack=stack[0])
        elif t["segment"] is None:
            t["segment"] = "add"
        stack[1].update(d["dots"])
        stack[2].append(tile)
        self.racks[p].remove(tile)
        if stack[0] not in t["touched"]:
            t["touched"].append(stack[0])
        if len(stack[1]) == 9:
            t["nines"].add(stack[0])
            if self.clear:
                self.bag |= set(stack[2])
                self.tray[section - 1] = None
        if len(stack[1]) == 9 or not self.racks[p]:
            t["segment"] = None

    def turn_points(self) -> int:
        assert self.turn is not None
        dots = {s[0]: len(s[1]) for s in self.tray if s is not None}
        return sum(9 if uid in self.turn["nines"] else dots[uid] for uid in self.turn["touched"])

    def turn_ended(self, d: dict[str, Any]) -> None:
        p = d["player"]
        assert p == self.cur and self.turn is not None
        assert min(self.rack_size - len(self.racks[p]), len(self.bag)) == 0
        self.score[p] += self.turn_points()
        self.turn = None
        self.cur = self.ids[(self.ids.index(p) + 1) % len(self.ids)]
        if self.score[p] >= self.target:
            self.cur = None
        elif not self.racks[p] and not self.bag:
            self._end()

    def _fits(self, tile: str) -> bool:
        return None in self.tray or any(
            len(s[1]) < 9 and any(not o & s[1] for o in _orientations(self.dots[tile], self.flip))
            for s in self.tray
            if s is not None
        )

    def can_play(self, p: str) -> bool:
        return any(self._fits(t) for t in self.racks[p]) or None in self.tray

    def blocked(self) -> bool:
        return not any(self._fits(t) for t in self.bag | {t for r in self.racks.values() for t in r})

    def tiles_exchanged(self, d: dict[str, Any]) -> None:
        p = d["player"]
        assert p == self.cur and self.turn is None and not self.can_play(p) and not self.blocked()
        for t in d["returned"]:
            self.racks[p].remove(t)
        self.bag = (self.bag | set(d["returned"])) - set(d["drawn"])
        self.racks[p] += d["drawn"]
        self.cur = self.ids[(self.ids.index(p) + 1) % len(self.ids)]

    def round_ended(self, d: dict[str, Any]) -> None:
        assert self.turn is None and self.blocked()
        self._end()

    def _end(self) -> None:
        for p in self.ids:
            self.score[p] -= sum(len(self.dots[t]) for t in self.racks[p])
        self.cur = None


def referee_agrees(log: list[dict[str, Any]], rng: random.Random, probes: int = 25) -> None:
    """Before each event, probe placements (the player's rack and a few other tiles, every section and
    orientation), the exchange and round_ended: the reducer accepts exactly what the referee allows."""
    ref = Referee(log[0]["data"])
    f = Fold.begin(Event(1, "match_started", log[0]["data"]))

    def accepts(type_: str, data: dict[str, Any]) -> bool:
        try:
            GAME.apply(f.state, Event(f.seq + 1, type_, data))
        except IllegalEvent:
            return False
        return True

    for line in log[1:]:
        p = ref.cur
        if p is not None and f.state.phase == "play":
            tiles = ref.racks[p] + rng.sample(sorted(ref.dots), 3)
            spots = [(t, s, sorted(o)) for t in tiles for s in range(1, 10) for o in _orientations(ref.dots[t], True)]
            for tile, section, dots in rng.sample(spots, min(probes, len(spots))):
                data = {"player": p, "tile": tile, "section": section, "dots": dots}
                assert accepts("tile_placed", data) == ref.legal_place(p, tile, section, dots), (f.seq, data)
            if ref.turn is None:
                swap = {"player": p, "returned": ref.racks[p][:1], "drawn": ref.racks[p][:1]}
                assert accepts("tiles_exchanged", swap) == (not ref.can_play(p) and not ref.blocked()), f.seq
                assert accepts("round_ended", {"reason": "blocked"}) == ref.blocked(), f.seq
        getattr(ref, line["type"])(line["data"])
        f = f.apply(Event(f.seq + 1, line["type"], line["data"]))
        if line["type"] == "tile_placed":
            assert state_json(f)["turn"]["points"] == ref.turn_points(), f.seq
        assert totals(f) == ref.score, f.seq


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_an_independent_referee_agrees_on_random_matches(seed: int) -> None:
    rng = random.Random(seed)
    cases = [(2, {}), (3, {"clear_full_stacks": True}), (4, {"allow_flip": False}),
             (2, {"tile_set": LIGHT22, "target_score": 60, "clear_full_stacks": True, "allow_flip": False}),
             (4, {"tile_set": LIGHT22, "target_score": 50})]  # fmt: skip
    for n, options in cases:
        referee_agrees(random_match(random.Random(seed), PLAYERS[:n], options), rng)
