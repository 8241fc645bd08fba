"""The Hi-Spot log builders of tests/support/hi_spot.py, checked."""

from __future__ import annotations

from tests.support.hi_spot import light_start, place, play, refused, state_json


def test_opening_builds_a_round_ready_for_play() -> None:
    f = play(light_start())
    s = state_json(f)
    assert s["phase"] == "play" and s["to_act"] == "ann" and s["bag"] == 0
    assert [p["rack"] for p in s["players"]] == [["C1", "C2", "C3", "C4", "C5"], ["D1", "D2", "D3", "D4", "D5"]]


def test_refused_reports_the_reason() -> None:
    lines = light_start()
    reason = refused(lines, place("bo", "D1", 1, [0, 1]), "it is Ann's turn, not Bo's")
    assert reason == "tile_placed: it is Ann's turn, not Bo's"
