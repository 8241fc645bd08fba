"""High Five's event models (projections/games/high_five/events.py): the examples fold, real logs validate
with no unknown field, and a misspelled field is named."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from projections.events import Event
from projections.games.high_five import DESCRIPTOR, GAME
from projections.games.high_five.events import EVENTS
from projections.games.high_five.tiles import TILES
from projections.schemas import game_schema, unknown_field_problem, unknown_fields
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.high_five import hide_hands, match

SPECS = {spec.type: spec for spec in EVENTS}


def example(type_: str) -> dict[str, Any]:
    return {"type": type_, "data": SPECS[type_].example}


def test_the_events_are_formats_in_its_order_and_the_handlers_match() -> None:
    assert [s.type for s in EVENTS] == ["game_started", "hand_dealt", "tile_played", "pair_claimed"]
    assert set(GAME.handlers) == DESCRIPTOR.event_types
    assert DESCRIPTOR.turn_events == {"tile_played", "pair_claimed"}
    assert [h.path for h in SPECS["hand_dealt"].hidden] == ["hands.*"]
    assert all(not SPECS[t].hidden for t in ("game_started", "tile_played", "pair_claimed"))


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.type)
def test_every_example_validates_against_its_model(spec: Any) -> None:
    spec.data.model_validate(spec.example)
    assert unknown_fields(spec, spec.example) == []


def test_the_examples_fold_as_one_small_legal_log() -> None:
    # Ann captures 0-5 with 5-5; Bo plays 3-7 from a hidden hand, missing 2-3 and 7-7; Ann claims 3-7 and 7-7.
    log = [
        match(2),
        example("game_started"),
        example("hand_dealt"),
        example("tile_played"),
        {"type": "tile_played", "data": {"player": "bo", "tile": "3-7", "capture": None}},
        example("pair_claimed"),
    ]
    f = fold_dicts(log)
    assert GAME.scores(f.state).totals == {"ann": 7, "bo": 0}  # 3 + 1, then 2 + 1
    assert [f.describe(s).tags for s in (4, 6)] == [("capture", "capture:4"), ("claim", "claim:3")]


def test_a_last_hand_with_to_layout_validates_and_folds() -> None:
    log = GAME.random_match(random.Random(2), [{"id": "ann"}, {"id": "bo"}, {"id": "cy"}])
    last = [line for line in log if line["type"] == "hand_dealt" and line["data"].get("to_layout")]
    assert last
    for line in last:
        SPECS["hand_dealt"].data.model_validate(line["data"])
    fold_dicts(log)


@pytest.mark.parametrize("name", ["high-five-01", "high-five-26"])
def test_every_event_of_the_example_logs_validates_with_no_unknown_field(name: str) -> None:
    log, _ = load_example(name)
    for line in hide_hands(log) + log:
        if line["type"] in SPECS:
            spec = SPECS[line["type"]]
            spec.data.model_validate(line["data"])
            assert unknown_fields(spec, line["data"]) == [], line
        assert unknown_field_problem(GAME, line["type"], line["data"]) is None, line


@pytest.mark.parametrize("n", [2, 5, 8])
def test_random_matches_validate_event_by_event(n: int) -> None:
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(n)]
    log = GAME.random_match(random.Random(n), players, {"target_score": 25})
    for line in log[1:] + hide_hands(log)[1:]:
        SPECS[line["type"]].data.model_validate(line["data"])


def test_the_tile_pattern_takes_every_tile_of_the_set() -> None:
    pattern = SPECS["tile_played"].data.model_json_schema()["properties"]["tile"]["pattern"]
    assert all(re.fullmatch(pattern, t) for t in TILES)
    assert not any(re.fullmatch(pattern, t) for t in ("16-1", "1-16", "01", "1--2", " 1-2"))


@pytest.mark.parametrize(
    ("type_", "data", "field"),
    [
        ("game_started", {"layuot": ["0-5", "1-4", "2-3", "6-9", "7-7"]}, "layuot"),
        ("hand_dealt", {"hands": {"ann": [None] * 5, "bo": [None] * 5}, "to_layuot": []}, "to_layuot"),
        ("tile_played", {"player": "ann", "tile": "5-5", "captured": "0-5"}, "captured"),
        ("pair_claimed", {"player": "ann", "tile": ["3-7", "7-7"]}, "tile"),
    ],
)
def test_a_misspelled_field_is_named(type_: str, data: dict[str, Any], field: str) -> None:
    assert unknown_fields(SPECS[type_], data) == [field]
    problem = unknown_field_problem(GAME, type_, data)
    assert problem is not None and repr(field) in problem


def test_a_type_error_is_not_an_unknown_field() -> None:
    # Wrong JSON types stay the reducer's to refuse, in its words.
    assert unknown_fields(SPECS["tile_played"], {"player": "ann", "tile": 55, "capture": 5}) == []
    assert unknown_fields(SPECS["hand_dealt"], {"hands": None}) == []


def test_the_schema_is_published_for_every_event() -> None:
    schema = game_schema(GAME)
    assert schema["title"] == "High Five events"
    assert {"game_started", "hand_dealt", "tile_played", "pair_claimed"} <= set(schema["events"])
    assert schema["events"]["hand_dealt"]["examples"] == [SPECS["hand_dealt"].example]


def test_the_descriptor_and_board_extras() -> None:
    assert DESCRIPTOR.name == "high-five" and DESCRIPTOR.title == "High Five"
    assert (DESCRIPTOR.min_players, DESCRIPTOR.max_players) == (2, 8)
    assert DESCRIPTOR.first_player_key == "leader"
    assert DESCRIPTOR.is_bonus(("capture", "capture:4")) and not DESCRIPTOR.is_bonus(("missed",))
    f: Fold = fold_dicts([match(2)])
    state = GAME.to_json(f.state)
    assert DESCRIPTOR.first_player_key in state
    for path in DESCRIPTOR.hidden_state:  # "players.*.hand.tiles"
        head, star, *rest = path.split(".")
        assert star == "*"
        for p in state[head]:
            value = p
            for key in rest:
                value = value[key]
            assert value == []
    values = GAME.board_extras(f.event(1).data)["values"]
    assert len(values) == 136 and values["5-5"] == 3 and values["15-15"] == 7
    assert GAME.is_finished(f.state) is False
    assert GAME.apply(f.state, Event(2, "game_started", SPECS["game_started"].example)).game == 1
