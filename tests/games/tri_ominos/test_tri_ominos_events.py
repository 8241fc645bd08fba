"""Tri-Ominos event data models (`projections/games/tri_ominos/events.py`): the examples are legal, every
event of the example logs and of random matches fits its model exactly, and a misspelled field is named."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.events import Event
from projections.games.tri_ominos import DESCRIPTOR, GAME
from projections.games.tri_ominos.events import EVENTS
from projections.games.tri_ominos.player import random_match
from projections.schemas import event_spec, game_schema, unknown_field_problem, unknown_fields
from projections.timeline import fold_dicts
from tests.support.examples import load_example
from tests.support.tri_ominos import deal, draw, place, started

EXAMPLES = {spec.type: spec.example for spec in EVENTS}


def example(type: str) -> dict[str, Any]:
    return {"type": type, "data": EXAMPLES[type]}


def test_the_events_are_formats_in_its_order() -> None:
    assert [spec.type for spec in EVENTS] == [
        "round_started",
        "tiles_dealt",
        "tile_placed",
        "tile_drawn",
        "turn_passed",
        "hands_revealed",
    ]
    assert DESCRIPTOR.turn_events == {"tile_placed", "turn_passed"}
    assert set(GAME.handlers) == DESCRIPTOR.event_types


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.type)
def test_every_example_validates_against_its_model(spec: Any) -> None:
    spec.data.model_validate(spec.example)
    assert unknown_fields(spec, spec.example) == []
    assert spec.summary.endswith(".")


def test_the_examples_fold_in_a_small_legal_log() -> None:
    # Ann is dealt the example deal (5-5-5 and two more seen), Bo 2-5-5; Ann starts with 5-5-5, Bo places
    # the example 2-5-5 beside it, Ann cannot play (no 5 on her known tiles) and draws three times, then passes.
    log = [
        *started()[:1],
        example("round_started"),
        example("tiles_dealt"),
        deal("bo", "2-5-5"),
        place("ann", "5-5-5", (0, 0), (5, 5, 5)),
        example("tile_placed"),
        example("tile_drawn"),
        draw("ann"),
        draw("ann"),
        example("turn_passed"),
    ]
    fold = fold_dicts(log)
    assert GAME.scores(fold.state).totals == {"ann": 25 - 15 - 10, "bo": 12}
    assert fold.describe(6).text == "Bo placed 2-5-5 at [1, 0]: 12"
    assert fold.describe(7).text.startswith("Ann drew 1-3-4: −5")
    assert fold.describe(10).tags == ("pass",)


def test_the_hands_revealed_example_ends_example_26() -> None:
    lines, _ = load_example("tri-ominos-26")
    assert lines[-1] == example("hands_revealed")
    before = fold_dicts(lines[:-1])
    assert before.state.phase == "revealing"
    after = GAME.apply(before.state, Event(before.seq + 1, "hands_revealed", EXAMPLES["hands_revealed"]))
    assert GAME.is_finished(after)


def _check_log(lines: list[dict[str, Any]]) -> set[str]:
    seen = set()
    for line in lines:
        spec = event_spec(GAME, line["type"])
        assert spec is not None, line["type"]
        spec.data.model_validate(line["data"])  # the right types, not only the right field names
        assert unknown_fields(spec, line["data"]) == [], line
        assert unknown_field_problem(GAME, line["type"], line["data"]) is None
        seen.add(line["type"])
    return seen


@pytest.mark.parametrize("name", ["tri-ominos-01", "tri-ominos-26"])
def test_every_event_of_the_example_logs_fits_its_model(name: str) -> None:
    lines, _ = load_example(name)
    assert _check_log(lines) >= {"tiles_dealt", "tile_placed", "tile_drawn"}


def test_every_event_of_random_matches_fits_its_model() -> None:
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(6)]
    seen: set[str] = set()
    for seed in range(8):
        log = random_match(random.Random(seed), players[: 2 + seed % 5], {"target_score": 150}, hidden=seed % 2 == 1)
        seen |= _check_log(log)
    assert seen == DESCRIPTOR.event_types | {"match_started"}


def test_the_optional_and_null_fields_are_accepted() -> None:
    placed = DESCRIPTOR.event("tile_placed").data
    placed.model_validate({"player": "ann", "tile": "0-0-0", "cell": [0, 0], "corners": [0, 0, 0], "shown": "4-4-4"})
    placed.model_validate({"player": "ann", "tile": "0-0-0", "cell": [0, 0], "corners": [0, 0, 0], "shown": None})
    DESCRIPTOR.event("tile_drawn").data.model_validate({"player": "ann", "tile": None})
    DESCRIPTOR.event("tiles_dealt").data.model_validate({"player": "ann", "tiles": [None] * 6})
    DESCRIPTOR.event("hands_revealed").data.model_validate({"hands": {"ann": [], "bo": ["0-0-0"]}})


def test_a_misspelled_field_is_named() -> None:
    spec = DESCRIPTOR.event("tile_placed")
    data = {"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corner": [5, 5, 2]}
    assert unknown_fields(spec, data) == ["corner"]
    problem = unknown_field_problem(GAME, "tile_placed", data)
    assert problem is not None and problem.startswith("tile_placed: unknown field 'corner'")
    assert "player, tile, cell, corners, shown" in problem
    assert unknown_fields(DESCRIPTOR.event("round_started"), {"round": 2}) == ["round"]
    assert unknown_fields(DESCRIPTOR.event("tile_drawn"), {"player": "ann", "tiles": None}) == ["tiles"]
    assert unknown_fields(DESCRIPTOR.event("hands_revealed"), {"hand": {"ann": []}}) == ["hand"]


def test_a_wrong_type_is_left_to_the_rules_to_refuse() -> None:
    # Only unknown fields are the model's to report; a wrong value is the reducer's, in the table's words.
    spec = DESCRIPTOR.event("tile_placed")
    assert unknown_fields(spec, {"player": "bo", "tile": "5-2-5", "cell": [1, 0], "corners": [5, 5, 9]}) == []


def test_hidden_fields_and_hidden_state() -> None:
    assert [h.path for h in DESCRIPTOR.event("tiles_dealt").hidden] == ["tiles"]
    assert [h.path for h in DESCRIPTOR.event("tile_drawn").hidden] == ["tile"]
    assert all(h.owner == "player" for spec in EVENTS for h in spec.hidden)
    assert not DESCRIPTOR.event("hands_revealed").hidden and not DESCRIPTOR.event("tile_placed").hidden
    assert DESCRIPTOR.hidden_state == ("players.*.hand",)
    lines, _ = load_example("tri-ominos-01")
    state = GAME.to_json(fold_dicts(lines[:6]).state)
    assert all(isinstance(p["hand"], list) for p in state["players"])
    assert state["starter"] is not None  # the first_player_key
    assert DESCRIPTOR.first_player_key == "starter"


def test_the_schema_documents_the_corner_convention() -> None:
    schema = game_schema(GAME)["events"]["tile_placed"]
    corners = schema["properties"]["corners"]
    assert corners["minItems"] == corners["maxItems"] == 3
    assert "clockwise" in corners["description"] and "apex" in corners["description"]
    assert "q + r is even" in schema["properties"]["cell"]["description"]
    assert schema["examples"] == [EXAMPLES["tile_placed"]]
