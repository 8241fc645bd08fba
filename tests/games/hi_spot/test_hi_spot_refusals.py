"""Hi-Spot refusals of malformed events and options: the reason names the thing, the state is unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from projections.errors import IllegalEvent, UnknownEventType
from projections.timeline import fold_dicts
from tests.support.hi_spot import PLAYERS, draw, ev, opening, place, play, refused, state_json

RACKS = {"ann": ["T41", "T22", "T14", "T03", "T01"], "bo": ["T52", "T29", "T24", "T10", "T12"]}


def start(**options: Any) -> list[dict[str, Any]]:
    return opening(RACKS, [{"ann": "T53", "bo": "T01"}], **options)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"player": "zed", "tile": "T22", "section": 1, "dots": [0, 1, 2]}, ["unknown player 'zed'"]),
        ({"tile": "T22", "section": 1, "dots": [0, 1, 2]}, ["missing 'player'"]),
        ({"player": "ann", "tile": "T99", "section": 1, "dots": [0, 1, 2]}, ["unknown tile 'T99'"]),
        ({"player": "ann", "tile": "t22", "section": 1, "dots": [0, 1, 2]}, ["unknown tile 't22'"]),
        ({"player": "ann", "tile": None, "section": 1, "dots": [0, 1, 2]}, ["unknown tile None"]),
        ({"player": "ann", "tile": "T22", "section": 0, "dots": [0, 1, 2]}, ["section must be 1–9, not 0"]),
        ({"player": "ann", "tile": "T22", "section": 10, "dots": [0, 1, 2]}, ["section must be 1–9, not 10"]),
        ({"player": "ann", "tile": "T22", "section": "5", "dots": [0, 1, 2]}, ["'section' has the wrong type"]),
        ({"player": "ann", "tile": "T22", "section": True, "dots": [0, 1, 2]}, ["section must be an integer"]),
        ({"player": "ann", "tile": "T22", "section": 1, "dots": [0, 1, 9]}, ["dots must be positions 0–8"]),
        ({"player": "ann", "tile": "T22", "section": 1, "dots": [0, 1, True]}, ["dots must be positions 0–8"]),
        ({"player": "ann", "tile": "T22", "section": 1, "dots": "012"}, ["'dots' has the wrong type"]),
        ({"player": "ann", "tile": "T22", "section": 1, "dots": [0, 1, 1]}, ["lists a position twice"]),
        ({"player": "ann", "tile": "T22", "section": 1, "dots": [0, 1]}, ["T22 has 3 dots, not 2"]),
        ({"player": "ann", "tile": "T22", "section": 1, "dots": [0, 1, 3]}, ["[0, 1, 3] is not T22 [0, 1, 2] rotated"]),
        ({"player": "bo", "tile": "T52", "section": 1, "dots": [0, 1, 2, 4, 6]}, ["it is Ann's turn, not Bo's"]),
        ({"player": "ann", "tile": "T52", "section": 1, "dots": [0, 1, 2, 4, 6]}, ["T52 is not in Ann's rack",
                                                                                   "in Bo's rack"]),
    ],
)  # fmt: skip
def test_malformed_placements_are_refused(data: dict[str, Any], words: list[str]) -> None:
    refused(start(), ev("tile_placed", **data), *words)


def test_a_dot_may_not_cover_a_dot_of_the_stack() -> None:
    lines = start() + [place("ann", "T03", 5, [4])]  # the centre tile
    refused(lines, place("ann", "T14", 5, [0, 4]), "dot 4 is already covered in section 5")
    refused(lines, place("ann", "T14", 5, [4, 8]), "dot 4 is already covered in section 5")
    assert state_json(play(lines + [place("ann", "T01", 5, [8])]))["tray"][4]["stack"]["covered"] == [4, 8]


def test_a_mirror_image_needs_allow_flip() -> None:
    mirror = place("ann", "T41", 1, [1, 2, 3, 5])  # T41 [0, 1, 3, 5] turned over
    refused(start(allow_flip=False), mirror, "is not T41 [0, 1, 3, 5] rotated (turning over is not allowed)")
    assert state_json(play(start() + [mirror]))["tray"][0]["stack"]["covered"] == [1, 2, 3, 5]
    turned = place("ann", "T41", 1, [1, 2, 5, 7])  # a quarter turn is always allowed
    assert state_json(play(start(allow_flip=False) + [turned]))["tray"][0]["stack"]["dots"] == 4


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 100}, ["unknown option 'target'"]),
        ({"target_score": 0}, ["option target_score must be a positive integer"]),
        ({"allow_flip": "yes"}, ["option allow_flip must be true or false"]),
        ({"clear_full_stacks": 1}, ["option clear_full_stacks must be true or false"]),
        ({"tile_set": "spear"}, ["option tile_set must be \"default\" or a list"]),
        ({"tile_set": [{"id": "A", "dots": [0]}, {"id": "A", "dots": [1]}]}, ["tile id 'A' appears twice"]),
        ({"tile_set": [{"id": "A", "dots": [0, 9]}]}, ["tile A's dots must be distinct positions 0–8"]),
        ({"tile_set": [{"id": "A", "dots": []}]}, ["tile A has 0 dots; tiles carry 1–6"]),
        ({"tile_set": [{"id": "A", "dots": [0, 1, 2, 3, 4, 5, 6]}]}, ["tile A has 7 dots"]),
        ({"tile_set": [{"id": "", "dots": [0]}]}, ["non-empty string id"]),
        ({"tile_set": [{"id": f"A{i}", "dots": [0] if i else [1, 2]} for i in range(9)]},
         ["9 tiles cannot fill 2 racks of 5"]),
        ({"tile_set": [{"id": f"A{i}", "dots": [0]} for i in range(10)]}, ["every tile has the same dots"]),
    ],
)  # fmt: skip
def test_bad_options_are_refused_at_match_started(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts([ev("match_started", game="hi-spot", players=PLAYERS[:2], options=options)])
    for w in words:
        assert w in err.value.reason


@pytest.mark.parametrize("n", [1, 5])
def test_two_to_four_players(n: int) -> None:
    with pytest.raises(IllegalEvent, match=f"hi-spot is played by 2 to 4 players, not {n}"):
        fold_dicts([ev("match_started", game="hi-spot", players=[{"id": f"p{i}"} for i in range(n)])])


def test_defaults() -> None:
    s = state_json(play([ev("match_started", game="hi-spot", players=PLAYERS[:3])]))
    assert s["options"] == {"target_score": 200, "allow_flip": True, "clear_full_stacks": False,
                            "tile_set": "default", "rack_size": 5}  # fmt: skip
    assert s["phase"] == "between_rounds" and s["round"] == 0 and s["rounds"] == []


def test_events_out_of_place_are_refused() -> None:
    begun = [ev("match_started", game="hi-spot", players=PLAYERS[:2])]
    refused(begun, place("ann", "T22", 1, [0, 1, 2]), "no round is being played; record round_started")
    refused(begun, ev("first_player_drawn", draws={"ann": "T01", "bo": "T02"}), "no round is being played")
    refused(begun, ev("racks_revealed", racks={}), "only after a round has ended with hidden tiles")
    refused(begun + [ev("round_started")], ev("round_started"), "the first-player draw is not finished")
    refused(start(), ev("round_started"), "a round is being played")
    refused(start(), ev("first_player_drawn", draws={"ann": "T05", "bo": "T06"}), "a round is being played")
    refused(start()[:-1], draw("ann", "T30"), "Ann has already drawn a rack this round")
    refused(start(), draw("ann", "T30"), "Ann has placed no tile this turn")
    with pytest.raises(UnknownEventType, match="tile_drawn"):
        play(start() + [ev("tile_drawn", player="ann", tile=None)])


def test_drawn_tiles_are_checked() -> None:
    refused(start()[:-1], draw("bo", "T41", "T29", "T24", "T10", "T12"), "T41 is not in the bag: it is in Ann's rack")
    refused(start()[:-1], draw("bo", "T52", "T52", "T24", "T10", "T12"), "tile T52 is listed twice")
    refused(start()[:-1], draw("bo", "T52", "X", "T24", "T10", "T12"), "unknown tile 'X'")
    refused(start()[:-1], ev("tiles_drawn", player="bo", tiles="T52"), "'tiles' has the wrong type")
