"""The statistics read model (projections/stats.py) on small hand-written logs with known numbers."""

from __future__ import annotations

import pytest

from projections import stats
from projections.timeline import fold_dicts
from tests.support.stats import ANN_BO, FINISHED, REWOUND


def test_turns_skip_superseded_events_notes_and_rewinds() -> None:
    fold = fold_dicts(REWOUND)
    assert stats.effective_moves(fold) == [2, 3, 4, 5, 6, 10]
    assert [(t.player, t.seqs, t.points) for t in stats.turns(fold)] == [
        ("ann", (2, 3), 5),  # the caller's READY-SET-GO and her first launch
        ("bo", (4,), 5),
        ("ann", (5,), 10),
        ("bo", (6, 10), 0),  # the rewind and the note between them do not split Bo's turn
    ]


def test_match_facts_of_a_rewound_match() -> None:
    facts = stats.match_facts(fold_dicts(REWOUND), "m1", "2026-09-05")
    assert facts.game == "hats-off" and facts.date == "2026-09-05"
    assert not facts.finished and facts.winners == ()
    assert dict(facts.totals) == {"ann": 15, "bo": 5}
    assert facts.first_player == "ann"
    assert facts.moves == 6 and facts.events == 10 and facts.rounds == 1
    assert dict(facts.tags["ann"]) == {"hole": 1, "nested": 1}
    assert dict(facts.tags["bo"]) == {"hole": 1}  # the undone hole at seq 7 does not count


def test_match_facts_of_a_finished_match() -> None:
    facts = stats.match_facts(fold_dicts(FINISHED), "m2", "2026-09-12")
    assert facts.finished and facts.winners == ("ann",)
    assert dict(facts.totals) == {"ann": 10, "bo": 5}
    assert facts.tags["ann"]["hats_off"] == 1
    # Ann's six launches are one run of hers: 5 for the hole; her call is her next turn: +5.
    assert facts.turn_points == {"ann": (5, 5), "bo": (5,)}  # per player (the facts keep no turn seqs)


@pytest.fixture
def both() -> list[stats.MatchFacts]:
    return [
        stats.match_facts(fold_dicts(REWOUND), "m1", "2026-09-05"),
        stats.match_facts(fold_dicts(FINISHED), "m2", "2026-09-12"),
    ]


def test_across_matches(both: list[stats.MatchFacts]) -> None:
    assert stats.score_trend(both) == {"ann": [("2026-09-12", 10, "m2")], "bo": [("2026-09-12", 5, "m2")]}
    assert stats.points_per_turn(both) == {"ann": [5, 10, 5, 5], "bo": [5, 0, 5]}
    assert stats.points_per_turn(both, "bo") == {"bo": [5, 0, 5]}
    assert dict(stats.tag_counts(both)["ann"]) == {"hole": 2, "nested": 1, "hats_off": 1}
    assert stats.match_lengths(both) == [("m1", "2026-09-05", 6, 1), ("m2", "2026-09-12", 10, 1)]
    rate = stats.first_player_win_rate(both)["hats-off"]
    assert (rate.matches, rate.first_player_wins, rate.rate, rate.fair_share) == (1, 1, 1.0, 0.5)
    assert stats.player_names(both) == {"ann": "Ann", "bo": "Bo"}


def test_filters(both: list[stats.MatchFacts]) -> None:
    assert [f.match_id for f in stats.filter_facts(both, date_from="2026-09-06")] == ["m2"]
    assert [f.match_id for f in stats.filter_facts(both, date_to="2026-09-05T23:00:00")] == ["m1"]
    assert [f.match_id for f in stats.filter_facts(both, game="hats-off", player="bo")] == ["m1", "m2"]
    assert stats.filter_facts(both, game="tri-ominos") == []
    assert stats.filter_facts(both, player="cy") == []


def test_high_five_captures_are_counted_by_value() -> None:
    log = [
        {"type": "match_started", "data": {"game": "high-five", "players": ANN_BO}},
        {"type": "game_started", "data": {"layout": ["0-5", "1-2", "3-3", "7-9", "10-10"]}},
        {"type": "hand_dealt", "data": {"hands": {"ann": ["5-5", "1-4", "2-8", "6-6", "0-1"],
                                                  "bo": ["10-15", "2-2", "11-12", "13-14", "3-4"]}}},
        {"type": "tile_played", "data": {"player": "ann", "tile": "5-5", "capture": "0-5"}},  # 3 + 1 = 4
        {"type": "tile_played", "data": {"player": "bo", "tile": "10-15", "capture": "10-10"}},  # 5 + 5 = 10
        {"type": "tile_played", "data": {"player": "ann", "tile": "1-4", "capture": "1-2"}},  # 1 + 0 = 1
    ]
    facts = stats.match_facts(fold_dicts(log), "hf")
    assert dict(facts.values["ann"]) == {4: 1, 1: 1}
    assert dict(facts.values["bo"]) == {10: 1}
    assert facts.tags["ann"]["capture"] == 2
    assert facts.first_player == "ann"
    assert stats.points_per_turn([facts]) == {"ann": [4, 1], "bo": [10]}
    assert stats.is_bonus("high-five", ("capture", "capture:4"))
    assert not stats.is_bonus("high-five", ("missed",))
