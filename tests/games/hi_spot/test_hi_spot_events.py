"""Hi-Spot event models: the examples are legal, the example logs validate, a misspelled field is named."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hi_spot import DESCRIPTOR, GAME
from projections.games.hi_spot.events import EVENTS
from projections.games.hi_spot.player import random_match
from projections.games.hi_spot.tiles import orientations
from projections.schemas import game_schema, unknown_field_problem, unknown_fields
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.hi_spot import PLAYERS

EXAMPLE_LOGS = ("hi-spot-01", "hi-spot-26")


def _logs() -> list[list[dict[str, Any]]]:
    return [load_example(name)[0] for name in EXAMPLE_LOGS]


def test_the_events_are_formats_in_its_order_with_a_handler_each() -> None:
    assert [spec.type for spec in EVENTS] == [
        "round_started", "first_player_drawn", "tiles_drawn", "tile_placed",
        "tiles_exchanged", "turn_ended", "racks_revealed", "round_ended",
    ]  # fmt: skip
    assert set(GAME.handlers) == DESCRIPTOR.event_types
    assert DESCRIPTOR.turn_events == {"turn_ended", "tiles_exchanged"}
    hidden = {spec.type: [(h.path, h.owner) for h in spec.hidden] for spec in EVENTS if spec.hidden}
    assert hidden == {"tiles_drawn": [("tiles", "player")],
                      "tiles_exchanged": [("returned", "player"), ("drawn", "player")]}  # fmt: skip


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.type)
def test_every_example_validates_and_is_accepted_where_an_example_log_records_it(spec: Any) -> None:
    spec.data.model_validate(spec.example)
    assert unknown_fields(spec, spec.example) == []
    for log in _logs():
        line = {"type": spec.type, "data": spec.example}
        if line not in log:
            continue
        at = log.index(line)
        before = fold_dicts(log[:at])  # the example, applied to the state the log had just before it
        after = GAME.apply(before.state, Event(at + 1, spec.type, spec.example))
        assert GAME.to_json(after) == GAME.to_json(fold_dicts(log[: at + 1]).state)
        return
    pytest.fail(f"{spec.type}'s example is in neither example log, so it is not shown to fold")


def test_every_event_of_the_example_logs_validates_with_no_unknown_field() -> None:
    for log in _logs():
        for line in log[1:]:
            spec = DESCRIPTOR.event(line["type"])
            spec.data.model_validate(line["data"])
            assert unknown_fields(spec, line["data"]) == [], line


def test_random_matches_validate_too() -> None:
    """Hidden draws (nulls), cleared stacks and inline sets: every event the random player writes."""
    cases = [(3, {"clear_full_stacks": True}, 0.6), (4, {"allow_flip": False}, 1.0)]
    for seed, (n, options, hidden) in enumerate(cases):
        for line in random_match(random.Random(seed), PLAYERS[:n], options, hidden)[1:]:
            spec = DESCRIPTOR.event(line["type"])
            spec.data.model_validate(line["data"])


def test_a_misspelled_field_is_named() -> None:
    placed = DESCRIPTOR.event("tile_placed")
    data = {"player": "ann", "tile": "T08", "sektion": 9, "dots": [7]}
    assert unknown_fields(placed, data) == ["sektion"]
    problem = unknown_field_problem(GAME, "tile_placed", data)
    assert problem == (
        "tile_placed: unknown field 'sektion' (the fields of tile_placed are: player, tile, section, dots)"
    )
    assert unknown_fields(DESCRIPTOR.event("round_started"), {"round": 2}) == ["round"]
    exchanged = {"player": "bo", "returned": [None], "drawn": [None], "drwan": [None]}
    assert unknown_fields(DESCRIPTOR.event("tiles_exchanged"), exchanged) == ["drwan"]
    # A wrong type is not an unknown field: the reducer refuses it with its own reason.
    assert unknown_fields(placed, {"player": "ann", "tile": "T08", "section": "9", "dots": [7]}) == []


def test_the_schema_publishes_every_event_with_its_example() -> None:
    schema = game_schema(GAME)
    placed = schema["events"]["tile_placed"]
    assert placed["examples"] == [DESCRIPTOR.event("tile_placed").example]
    assert placed["additionalProperties"] is False
    assert placed["properties"]["section"]["minimum"] == 1 and placed["properties"]["section"]["maximum"] == 9
    assert placed["properties"]["dots"]["items"]["maximum"] == 8
    assert schema["events"]["round_ended"]["properties"]["reason"]["const"] == "blocked"


def test_the_documented_orientation_convention() -> None:
    """events.py's words: a quarter turn p → 3·(p % 3) + 2 − p // 3, turning over p → 3·(p // 3) + 2 − p % 3."""
    pattern = (1 << 0) | (1 << 1)  # printed [0, 1]
    as_lists = {tuple(p for p in range(9) if m >> p & 1) for m in orientations(pattern, True)}
    assert as_lists == {(0, 1), (2, 5), (7, 8), (3, 6), (1, 2), (5, 8), (6, 7), (0, 3)}
    assert {tuple(p for p in range(9) if m >> p & 1) for m in orientations(pattern, False)} == {
        (0, 1), (2, 5), (7, 8), (3, 6)}  # fmt: skip


def test_the_descriptor_values() -> None:
    d = DESCRIPTOR
    assert (d.name, d.title, d.min_players, d.max_players) == ("hi-spot", "Hi-Spot", 2, 4)
    assert d.bonus_tags == ("full_stack", "going_out") and d.penalty_tags == ("blocked",)
    assert d.counted_tags == ("full_stack", "new_stack", "going_out", "exchange") and d.valued_tags == ()
    assert d.first_player_key == "first_player" and d.hidden_state == ("players.*.rack", "patterns")
    f = fold_dicts(load_example("hi-spot-26")[0])
    board = GAME.to_json(f.state)
    assert board["first_player"] in {p["id"] for p in board["players"]}
    assert all(isinstance(p["rack"], list) for p in board["players"])  # hidden_state names a real path
    tags = {t for seq in range(2, f.seq + 1) for t in f.describe(seq).tags}
    assert set(d.bonus_tags + d.penalty_tags + d.counted_tags) - {"going_out"} <= tags


def test_board_extras_gives_the_set_patterns() -> None:
    extras = GAME.board_extras({"game": "hi-spot", "players": PLAYERS[:2], "options": {}})
    # T08 is printed with its dot at the top (1); the examples place it turned twice, at the bottom (7).
    assert len(extras["patterns"]) == 56 and extras["patterns"]["T08"] == [1]
    inline = {"tile_set": [{"id": "A", "dots": [0, 4]}, {"id": "B", "dots": [8]}]}
    assert GAME.board_extras({"options": inline}) == {"patterns": {"A": [0, 4], "B": [8]}}
    assert GAME.board_extras({"options": {"tile_set": []}}) == {"patterns": {}}
    assert GAME.board_extras({}) == GAME.board_extras({"options": {"tile_set": "default"}})


def test_the_shared_guards_answer_in_the_shared_words() -> None:
    log = load_example("hi-spot-01")[0]
    f = fold_dicts(log)
    assert f.finished
    with pytest.raises(IllegalEvent, match="the match is finished; only notes and rewinds are accepted"):
        GAME.apply(f.state, Event(f.seq + 1, "turn_ended", {"player": "ann"}))
    start = Fold.begin(Event(1, "match_started", log[0]["data"]))
    with pytest.raises(IllegalEvent, match="unknown event type 'tile_drawn' for hi-spot"):
        GAME.apply(start.state, Event(2, "tile_drawn", {}))
