"""Hi-Spot hidden draws (null tiles) and `racks_revealed` at a round's end."""

from __future__ import annotations

from typing import Any

from tests.support.hi_spot import (
    ANN_OUT,
    HIDDEN5,
    LIGHT,
    ROW2,
    blocked_round,
    bo_exchange,
    draw,
    end,
    ev,
    light_start,
    opening,
    place,
    play,
    refused,
    rounds,
    state_json,
    tile_set,
    totals,
)


def hidden_blocked_round() -> list[dict[str, Any]]:
    """blocked_round with every one of Bo's tiles drawn unseen, then round_ended."""
    return blocked_round(bo_seen=False) + [ev("round_ended", reason="blocked")]


def test_a_hidden_slot_plays_any_tile_whose_place_is_unknown() -> None:
    lines = hidden_blocked_round()[:8]  # Ann's first turn is over; Bo holds five hidden tiles
    assert state_json(play(lines))["players"][1] == {
        "id": "bo", "name": "Bo", "score": 0, "rack": [], "hidden": 5, "rack_count": 5}  # fmt: skip
    refused(lines, place("bo", "H01", 2, ROW2), "H01 is not in Bo's rack: it is on the tray in section 1")
    refused(lines, place("bo", "P1", 2, [0]), "P1 is not in Bo's rack: it is in Ann's rack")
    f = play(lines + [place("bo", "H06", 2, ROW2)])
    assert state_json(f)["players"][1]["hidden"] == 4
    # An empty section takes any tile, so a rack of unseen tiles can still be played.
    refused(
        lines, ev("tiles_exchanged", player="bo", returned=[None], drawn=[None]), "Bo can play (section 2 is empty)"
    )
    # Ann's rack is known: a tile of unknown place is not hers.
    refused(lines[:5], place("ann", "H05", 1, ROW2), "H05 is not in Ann's rack: it is in the bag or an unseen rack")


def test_a_known_tile_drawn_must_not_be_known_elsewhere_and_returns_check_the_hidden_count() -> None:
    lines = hidden_blocked_round()
    refused(lines[:6], draw("ann", "H01"), "H01 is not in the bag: it is on the tray in section 1")
    exchange = lines.index(bo_exchange(bo_seen=False))
    before = lines[:exchange]
    refused(before, ev("tiles_exchanged", player="bo", returned=[None] * 6, drawn=[None] * 6), "Bo holds 5 tiles")
    refused(before, ev("tiles_exchanged", player="bo", returned=["H01"], drawn=[None]), "H01 is not in Bo's rack")
    # A hidden tile may be named when it is returned, as long as its place is unknown.
    f = play(before + [ev("tiles_exchanged", player="bo", returned=["H05"], drawn=[None])])
    assert state_json(f)["players"][1]["hidden"] == 5


def test_a_round_ended_with_hidden_racks_waits_for_racks_revealed() -> None:
    lines = hidden_blocked_round()
    f = play(lines)
    s = state_json(f)
    assert s["phase"] == "reveal" and s["round_end"] == {"reason": "blocked", "awaiting_reveal": True,
                                                          "deductions": None}  # fmt: skip
    assert totals(f) == {"ann": 37, "bo": 24}  # nothing deducted yet
    refused(lines, ev("round_started"), "record racks_revealed first")
    refused(lines, place("bo", "H11", 2, [6]), "record racks_revealed first")
    bo_rack = ["H11", "H13", "H15", "H05", "F1"]
    refused(lines, ev("racks_revealed", racks={}), "Bo's rack holds 5 hidden tiles and must be listed")
    refused(lines, ev("racks_revealed", racks={"bo": bo_rack[:4]}), "Bo holds 5 tiles, not 4")
    refused(lines, ev("racks_revealed", racks={"bo": ["H01", *bo_rack[1:]]}), "H01 cannot be in Bo's rack",
            "on the tray in section 1")  # fmt: skip
    refused(lines, ev("racks_revealed", racks={"bo": ["F2", *bo_rack[1:]]}), "F2 cannot be in Bo's rack",
            "in Ann's rack")  # fmt: skip
    refused(lines, ev("racks_revealed", racks={"bo": [None, *bo_rack[1:]]}), "null is not allowed")
    refused(lines, ev("racks_revealed", racks={"bo": bo_rack, "zed": []}), "unknown player 'zed'")
    refused(lines, ev("racks_revealed", racks={"bo": bo_rack, "ann": ["H12", "H14", "H16", "F3", "H05"]}),
            "Ann's rack is known to hold F2")  # fmt: skip
    f = play(lines + [ev("racks_revealed", racks={"bo": bo_rack})])
    # The same round as the one recorded in full: Ann 37 − 28, Bo 24 − 29.
    assert totals(f) == {"ann": 9, "bo": -5} and rounds(f) == [{"ann": 9, "bo": -5}]
    assert state_json(f)["phase"] == "between_rounds"
    refused(f, ev("racks_revealed", racks={"bo": bo_rack}), "nothing to reveal")


def test_going_out_with_hidden_racks_deducts_at_the_reveal_and_the_player_out_lists_an_empty_rack() -> None:
    lines = light_start(bo=HIDDEN5) + ANN_OUT + [end("ann")]
    f = play(lines)
    assert state_json(f)["phase"] == "reveal" and f.describe(f.seq).tags == ("going_out",)
    f = play(lines + [ev("racks_revealed", racks={"ann": [], "bo": ["D1", "D2", "D3", "D4", "D5"]})])
    assert totals(f) == {"ann": 5, "bo": -10}


def test_a_winning_turn_needs_no_reveal() -> None:
    lines = light_start(bo=HIDDEN5, target_score=5) + ANN_OUT + [end("ann")]
    f = play(lines)
    assert f.finished and totals(f) == {"ann": 5, "bo": 0}


def test_a_revealed_tile_is_in_one_rack_only() -> None:
    tiles = LIGHT + tile_set(E1=[1], E2=[1], E3=[1], E4=[1], E5=[1])  # 15 tiles: the bag is empty after the racks
    lines = opening({"ann": ["C1", "C2", "C3", "C4", "C5"], "bo": HIDDEN5, "cy": HIDDEN5},
                    [{"ann": "D1", "bo": "C1", "cy": "E1"}], tile_set=tiles) + ANN_OUT + [end("ann")]  # fmt: skip
    bo, cy = ["D1", "D2", "D3", "D4", "D5"], ["E1", "E2", "E3", "E4", "E5"]
    refused(lines, ev("racks_revealed", racks={"bo": bo, "cy": ["D1", *cy[1:]]}), "D1 is listed in two racks")
    f = play(lines + [ev("racks_revealed", racks={"bo": bo, "cy": cy})])
    assert totals(f) == {"ann": 5, "bo": -10, "cy": -5}
