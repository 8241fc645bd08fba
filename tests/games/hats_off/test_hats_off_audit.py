"""An audit of the Hats Off reducer against RULES.md §4, "For every game" and FORMAT.md "Hats Off": the points
the other test files left open, hand-built logs with hand-computed scores, and a fuzz over mutated events."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hats_off import GAME
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.hats_off import (
    Line,
    all_six,
    fold,
    hats_off,
    hole,
    in_hat,
    launch,
    misses,
    more,
    moved,
    refused,
    round_ended,
    round_points,
    round_started,
    started,
)


def in_round(*lines: Line | list[Line], players: tuple[str, ...] = ("ann", "bo")) -> Fold:
    return fold(started(*players), round_started(players[0]), *lines)


# --- match_started: players and options ("For every game") ------------------------------------------


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"players": "ann,bo"}, "players must be a list"),
        ({}, "players must be a list"),
        ({"players": [{"id": "ann"}, {"id": ""}]}, "non-empty string id"),
        ({"players": [{"id": "ann"}, {"id": 2}]}, "non-empty string id"),
        ({"players": [{"id": "ann"}, {"name": "Bo"}]}, "non-empty string id"),
        ({"players": [{"id": "ann"}, "bo"]}, "non-empty string id"),
        ({"players": [{"id": "ann"}, {"id": "bo", "name": 7}]}, "name must be a string"),
        ({"players": [{"id": "ann"}, {"id": "bo"}], "options": []}, "options must be a JSON object"),
        ({"players": [{"id": "ann"}, {"id": "bo"}], "options": {"target_score": 75.0}}, "positive integer"),
        ({"players": [{"id": "ann"}, {"id": "bo"}], "options": {"target_score": -5}}, "positive integer"),
        ({"players": [{"id": "ann"}, {"id": "bo"}], "options": {"target_score": None}}, "positive integer"),
        ({"players": [{"id": "ann"}, {"id": "bo"}], "options": {"target_score": [75]}}, "positive integer"),
        ({"players": [{"id": "ann"}, {"id": "bo"}], "options": {"Target_Score": 75}}, "unknown option"),
    ],
)
def test_match_started_malformed(data: dict[str, Any], needle: str) -> None:
    with pytest.raises(IllegalEvent, match=needle):
        fold_dicts([{"type": "match_started", "data": {"game": "hats-off", **data}}])


def test_options_default_and_four_players() -> None:
    players = [{"id": i} for i in ("ann", "bo", "cy", "di")]
    no_options: list[dict[str, Any] | None] = [None, {}]
    for options in no_options:
        f = fold_dicts([{"type": "match_started", "data": {"game": "hats-off", "players": players,
                                                           "options": options}}])
        assert f.state.target == 75 and [p.name for p in f.state.players] == ["ann", "bo", "cy", "di"]
    big = fold(started(target_score=10**6))
    assert big.state.target == 10**6


# --- JSON integers, unknown players and missing fields in every event --------------------------------

NOT_INTS = [True, False, 1.0, "1", None, -1, 0, 10**30, [1], {"n": 1}]


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    inner = data
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return data


INT_FIELDS = [
    ("hat_launched", {"player": "ann", "hat": 2, "to": "off"}, ("hat",)),
    ("hat_launched", {"player": "ann", "hat": 2, "to": hole("ann", 2)}, ("to", "hole", "number")),
    ("hat_launched", {"player": "ann", "hat": 2, "to": in_hat("ann", 1)}, ("to", "in_hat", "hat")),
    ("hat_moved", {"player": "ann", "hat": 1, "to": "off"}, ("hat",)),
    ("hat_moved", {"player": "ann", "hat": 1, "to": hole("ann", 2)}, ("to", "hole", "number")),
    ("hat_moved", {"player": "bo", "hat": 1, "to": in_hat("ann", 1)}, ("to", "in_hat", "hat")),
]


@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
@pytest.mark.parametrize(("kind", "data", "path"), INT_FIELDS, ids=lambda x: x if isinstance(x, str) else None)
def test_hats_and_hole_numbers_are_json_integers(kind: str, data: dict[str, Any], path: tuple[str, ...],
                                                 value: Any) -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), launch("bo", 1, "board"))
    push_ok = GAME.apply(f.state, Event(f.seq + 1, kind, data))  # the well-formed event is accepted
    assert push_ok is not f.state
    reason = refused(f, {"type": kind, "data": _set(data, path, value)})
    assert "whole number" in reason and repr(value) in reason


@pytest.mark.parametrize(
    ("kind", "data", "needle"),
    [
        ("hat_moved", {"hat": 1, "to": "off"}, "hat_moved: missing 'player'"),
        ("hat_moved", {"player": "ann", "to": "off"}, "hat_moved: missing 'hat'"),
        ("hat_moved", {"player": "zed", "hat": 1, "to": "off"}, "unknown player 'zed'"),
        ("hat_moved", {"player": "Ann", "hat": 1, "to": "off"}, "unknown player 'Ann'"),  # ids, not names
        ("hat_moved", {"player": 1, "hat": 1, "to": "off"}, "'player' has the wrong type"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": hole("zed", 1)}, "hole area: unknown player 'zed'"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": in_hat("zed", 1)}, "in_hat: unknown player 'zed'"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": {"in_hat": {"hat": 1}}}, "in_hat: missing 'player'"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": {"in_hat": {"player": "bo"}}}, "in_hat: missing 'hat'"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": None}, "to must be"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": "Board"}, "to must be"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": {"hole": [1]}}, "to must be"),
        ("hat_moved", {"player": "ann", "hat": 1, "to": {}}, "to must be"),
        ("hat_launched", {"player": "ann", "hat": 2, "to": "off", "in_flight": None}, "in_flight must be"),
        ("hat_launched", {"player": "ann", "hat": 2, "to": "off", "in_flight": 1}, "in_flight must be"),
        ("hat_launched", {"player": "ann", "hat": 2, "to": "off", "in_flight": "true"}, "in_flight must be"),
        ("hat_launched", {"player": ["ann"], "hat": 2, "to": "off"}, "'player' has the wrong type"),
        ("hats_off_called", {"players": [1]}, "unknown player 1"),
        ("hats_off_called", {"players": [None]}, "unknown player None"),
        ("hats_off_called", {"players": [["ann"]]}, "unknown player ['ann']"),
        ("hats_off_called", {"players": {"ann": True}}, "'players' has the wrong type"),
        ("hats_off_called", {"players": None}, "'players' has the wrong type"),
    ],
)
def test_malformed_events_in_a_round(kind: str, data: dict[str, Any], needle: str) -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), launch("bo", 1, "board"))
    assert needle in refused(f, {"type": kind, "data": data})


@pytest.mark.parametrize("data", [[], None, "ann", 3, ["ann", 1, "off"]])
@pytest.mark.parametrize("kind", sorted(GAME.event_types))
def test_data_that_is_not_an_object_is_refused_by_the_reducer_itself(kind: str, data: Any) -> None:
    """The timeline refuses it first; the reducer must too (never an AttributeError or TypeError)."""
    state = in_round(all_six("ann")).state
    with pytest.raises(IllegalEvent, match="data must be a JSON object"):
        GAME.apply(state, Event(9, kind, data))
    with pytest.raises(IllegalEvent, match="data must be a JSON object"):
        GAME.start(data)


@pytest.mark.parametrize("caller", [True, None, ["ann"], {"id": "ann"}, "", "Ann"])
def test_round_started_caller_malformed(caller: Any) -> None:
    reason = refused(fold(started()), {"type": "round_started", "data": {"caller": caller}})
    assert "caller" in reason


def test_late_launches_are_checked_for_form() -> None:
    """A launch after the call counts for nothing, but its `to` must still name a real spot."""
    f = in_round(all_six("ann"), hats_off("ann"))
    assert "unknown player 'zed'" in refused(f, launch("bo", 1, hole("zed", 1)))
    assert "1–9, not 10" in refused(f, launch("bo", 1, hole("bo", 10)))
    assert "1–6, not 7" in refused(f, launch("bo", 1, in_hat("ann", 7)))
    assert "1–6, not 7" in refused(f, launch("bo", 7, "off"))
    # A well-formed late launch is written down, worth nothing, and occupies nothing.
    f = more(f, launch("bo", 1, hole("ann", 2)))
    assert round_points(f) == {"ann": 10, "bo": 0}


# --- edges that must be accepted --------------------------------------------------------------------


def test_four_players_hat_6_and_hole_9_with_two_callers() -> None:
    """A hand-computed 4-player round: Di's area and the last hat/hole numbers are real spots."""
    f = fold(
        started("ann", "bo", "cy", "di"), round_started("ann"),
        launch("di", 6, hole("di", 9)),  # Di 5
        launch("ann", 6, in_hat("di", 6)),  # in Di's area: Ann 0
        launch("di", 5, in_hat("ann", 6)),  # Di 10
        misses("di", 1, 2, 3, 4),  # Di is out first
        launch("cy", 6, hole("cy", 9)),  # Cy 5
        launch("cy", 5, hole("ann", 9)),  # Ann's area: 0
        misses("cy", 1, 2, 3, 4),  # Cy out second
        launch("bo", 1, hole("bo", 1)),  # Bo 5
        hats_off("cy", "di"),  # Cy +5, Di +5
        launch("bo", 2, in_hat("bo", 1), in_flight=True),  # Bo 10
        launch("ann", 1, hole("ann", 1)),  # late: nothing
        round_ended(),
    )
    assert round_points(f) == {"ann": 0, "bo": 15, "cy": 10, "di": 20}
    assert GAME.to_json(f.state)["next_caller"] == "bo"


def test_a_knocked_hat_frees_its_hole() -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), moved("ann", 1, "board"), launch("bo", 1, hole("ann", 1)))
    assert round_points(f) == {"ann": 0, "bo": 0}
    f = more(f, moved("ann", 1, in_hat("bo", 1)))  # knocked back, onto Bo's hat now in the hole: Ann 10
    assert round_points(f) == {"ann": 10, "bo": 0}


def test_an_in_flight_hat_can_be_knocked_and_still_counts() -> None:
    f = in_round(all_six("ann"), hats_off("ann"), launch("bo", 4, "board", in_flight=True))
    f = more(f, moved("bo", 4, hole("bo", 6)), round_ended())
    assert round_points(f) == {"ann": 10, "bo": 5}


def test_bonus_from_a_nested_hat_alone() -> None:
    # Ann's only scoring hat is nested on Bo's hat in Ann's area (10): it is a scoring hat, bonus 5.
    f = in_round(launch("bo", 1, hole("ann", 3)), launch("ann", 1, in_hat("bo", 1)), misses("ann", 2, 3, 4, 5, 6),
                 hats_off("ann"), round_ended())
    assert round_points(f) == {"ann": 15, "bo": 0}


def test_bonus_not_given_for_own_hat_in_a_stack_standing_in_another_area() -> None:
    f = in_round(launch("bo", 1, hole("bo", 3)), launch("ann", 1, in_hat("bo", 1)), misses("ann", 2, 3, 4, 5, 6),
                 hats_off("ann"), round_ended())
    assert round_points(f) == {"ann": 0, "bo": 5}


def test_a_stack_moved_off_the_board_can_be_knocked_back_piece_by_piece() -> None:
    f = in_round(launch("ann", 1, hole("ann", 1)), launch("ann", 2, in_hat("ann", 1)), moved("ann", 1, "off"))
    assert round_points(f) == {"ann": 0, "bo": 0}
    assert "Ann's hat 2 is off the board" in refused(f, launch("bo", 1, in_hat("ann", 2)))
    f = more(f, moved("ann", 2, hole("ann", 5)))  # the top hat lands back in a hole: 5; hat 1 still off
    assert round_points(f) == {"ann": 5, "bo": 0}


def test_tie_break_round_callers_keep_rotating_in_example_26() -> None:
    lines, expected = load_example("hats-off-26")
    callers = [line["data"]["caller"] for line in lines if line["type"] == "round_started"]
    assert callers == ["ann", "bo", "cy", "ann"]  # round 4 (the tie-break) is seat (4 - 1) mod 3
    assert scores_json(fold_dicts(lines), match_id=None) == expected


def test_finished_match_refuses_every_hats_off_event_through_the_timeline() -> None:
    f = fold(started(target_score=5), round_started("ann"), all_six("ann"), hats_off("ann"), round_ended())
    assert f.finished
    for line in (round_started("bo"), launch("bo", 1, "off"), moved("ann", 1, "off"), hats_off("ann"), round_ended()):
        assert "finished" in refused(f, line)


# --- fuzz: mutated events are accepted or refused with IllegalEvent, never anything else ---------------

WEIRD: list[Any] = [
    None, True, False, 0, -1, 1, 2, 6, 7, 9, 10, 1.0, 2.5, 10**30, -(10**30), "", "1", "ann", "bo", "cy", "zed",
    "board", "off", [], [1], ["ann"], ["ann", "ann"], {}, {"ann": 1}, {"hole": {}}, {"hole": None}, {"in_hat": []},
    {"hole": {"area": "ann", "number": 1}}, {"in_hat": {"player": "bo", "hat": 1}}, {"in_hat": {"player": "ann"}},
    float("nan"), float("inf"),
]
KEYS = ["player", "players", "hat", "to", "in_flight", "caller", "extra"]


def mutate(rng: random.Random, data: Any) -> Any:
    if rng.random() < 0.03:
        return rng.choice(WEIRD)
    data = copy.deepcopy(data)
    node = data
    for _ in range(4):
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
            roll = rng.random()
            if roll < 0.2:
                del node[key]
            elif roll < 0.6 or not isinstance(node[key], (dict, list)):
                node[key] = rng.choice(WEIRD)
            else:
                node = node[key]
                continue
            if rng.random() < 0.15:
                node[rng.choice(KEYS)] = rng.choice(WEIRD)
        elif isinstance(node, list) and node:
            node[rng.randrange(len(node))] = rng.choice(WEIRD)
        break
    return data


def fuzz(logs: list[list[Line]], tries_per_state: int, seed: int) -> int:
    rng = random.Random(seed)
    types = sorted(GAME.event_types)
    accepted = 0
    for log in logs:
        f = fold_dicts(log)
        for s in range(1, f.seq + 1):
            state = f.state_at(s)
            snapshot = json.dumps(GAME.to_json(state), sort_keys=True)
            for _ in range(tries_per_state):
                source = rng.choice(log[1:])
                kind = source["type"] if rng.random() < 0.8 else rng.choice(types)
                event = Event(s + 1, kind, mutate(rng, source["data"]))
                try:
                    after = GAME.apply(state, event)
                except IllegalEvent as e:
                    assert e.reason
                    continue
                # An accepted event leaves a state every reader can use.
                accepted += 1
                json.dumps(GAME.to_json(after))
                GAME.scores(after)
                GAME.describe(state, event, after)
                for p in after.players:
                    GAME.legal_moves(after, p.id)
            assert json.dumps(GAME.to_json(state), sort_keys=True) == snapshot, "apply changed its input"
    return accepted


def _logs(random_seeds: range) -> list[list[Line]]:
    logs = [load_example(name)[0] for name in ("hats-off-01", "hats-off-26")]
    names = ["ann", "bo", "cy", "di"]
    for seed in random_seeds:
        players = [{"id": i, "name": i.title()} for i in names[: 2 + seed % 3]]
        logs.append(GAME.random_match(random.Random(seed), players, {"target_score": 30}))
    return logs


def test_fuzz_mutated_events_quick() -> None:
    assert fuzz(_logs(range(2)), tries_per_state=4, seed=1) > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_fuzz_mutated_events_long(seed: int) -> None:
    assert fuzz(_logs(range(seed * 10, seed * 10 + 10)), tries_per_state=50, seed=seed) > 0


def test_start_fuzz() -> None:
    rng = random.Random(3)
    base = {"game": "hats-off", "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}],
            "options": {"target_score": 50}}
    for _ in range(500):
        data = mutate(rng, mutate(rng, base))
        try:
            GAME.start(data)
        except IllegalEvent:
            pass
