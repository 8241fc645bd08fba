"""The typed Hats Off event models: the examples, the real logs, and misspelled fields."""

from __future__ import annotations

from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hats_off import DESCRIPTOR, GAME
from projections.games.hats_off.events import EVENTS
from projections.schemas import game_schema, unknown_field_problem, unknown_fields
from tests.support.examples import load_example
from tests.support.hats_off import all_six, fold, hole, in_hat, launch, misses, push, round_started, started

SPECS = {spec.type: spec for spec in EVENTS}


def test_events_in_format_order_with_turns_and_nothing_hidden() -> None:
    assert [s.type for s in EVENTS] == ["round_started", "hat_launched", "hats_off_called", "hat_moved", "round_ended"]
    assert DESCRIPTOR.turn_events == {"hat_launched", "hat_moved", "hats_off_called"}
    assert not DESCRIPTOR.has_hidden_information
    assert GAME.event_types == set(SPECS)


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.type)
def test_every_example_validates(spec: Any) -> None:
    spec.data.model_validate(spec.example)
    assert unknown_fields(spec, spec.example) == []


def test_the_examples_fold_as_a_small_legal_log() -> None:
    # Ann's hat 1 in her hole 1; Bo's hat 3 nests in it (the hat_launched example); Ann knocks her hat 1
    # (and Bo's on it) into her hole 5 (the hat_moved example); she launches the rest and calls HATS OFF.
    f = fold(started(), {"type": "round_started", "data": SPECS["round_started"].example},
             launch("ann", 1, hole("ann", 1)))
    for kind in ("hat_launched", "hat_moved"):
        f = push(f, {"type": kind, "data": SPECS[kind].example})
    for line in misses("ann", 2, 3, 4, 5, 6):
        f = push(f, line)
    for kind in ("hats_off_called", "round_ended"):
        f = push(f, {"type": kind, "data": SPECS[kind].example})
    assert GAME.scores(f.state).rounds == [{"ann": 5 + 5, "bo": 0}]
    assert GAME.to_json(f.state)["holes"] == [
        {"area": "ann", "number": 5, "stack": [{"player": "ann", "hat": 1}, {"player": "bo", "hat": 3}]}
    ]


@pytest.mark.parametrize("name", ["hats-off-01", "hats-off-26"])
def test_every_event_of_the_example_logs_validates(name: str) -> None:
    lines, _ = load_example(name)
    game_lines = [line for line in lines if line["type"] in SPECS]
    assert game_lines
    for line in game_lines:
        spec = SPECS[line["type"]]
        spec.data.model_validate(line["data"])
        assert unknown_fields(spec, line["data"]) == [], line


@pytest.mark.parametrize(
    ("kind", "data", "path"),
    [
        ("round_started", {"calller": "ann"}, "calller"),
        ("hat_launched", {"player": "ann", "hat": 1, "to": "off", "inflight": True}, "inflight"),
        ("hat_launched", {"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "numbr": 1}}}, "to.hole.numbr"),
        ("hat_launched", {"player": "ann", "hat": 1, "to": {"hol": {"area": "ann", "number": 1}}}, "to.hol"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": {"in_hat": {"player": "bo", "hats": 1}}}, "to.in_hat.hats"),
        ("hats_off_called", {"player": ["ann"]}, "player"),
        ("round_ended", {"why": "time"}, "why"),
    ],
)
def test_a_misspelled_field_is_named(kind: str, data: dict[str, Any], path: str) -> None:
    assert unknown_fields(SPECS[kind], data) == [path]
    problem = unknown_field_problem(GAME, kind, data)
    assert problem is not None and repr(path) in problem


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("hat_launched", {"player": "ann", "hat": 7, "to": {"hole": {"area": "ann", "number": 10}}}),
        ("hat_launched", {"player": "ann", "hat": 1, "to": {"in_hat": {"player": 3, "hat": "x"}}}),
        ("hat_launched", {"player": "ann", "hat": 1, "to": "floor", "in_flight": "yes"}),
        ("hat_moved", {"player": "ann", "hat": 1, "to": None}),
        ("hat_moved", {"player": "ann", "hat": 1, "to": 3}),
        ("hats_off_called", {"players": []}),
    ],
)
def test_wrong_values_are_left_to_the_reducer(kind: str, data: dict[str, Any]) -> None:
    """Only unknown field names are reported; a wrong value gets the reducer's reason."""
    assert unknown_fields(SPECS[kind], data) == []
    state = fold(started(), round_started("ann"), all_six("ann")).state
    with pytest.raises(IllegalEvent):
        GAME.apply(state, Event(9, kind, data))


def test_schema_describes_to_precisely() -> None:
    schema = game_schema(GAME)["events"]["hat_launched"]
    text = str(schema)
    for needle in ("HoleSpot", "HatSpot", "'board'", "'off'", "in_flight"):
        assert needle in text
    assert schema["additionalProperties"] is False
    assert SPECS["hat_launched"].example["to"] == in_hat("ann", 1)
