"""Hi-Spot properties over whole random matches from the seeded random legal player."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hi_spot import GAME
from projections.games.hi_spot.player import random_match
from projections.games.hi_spot.rules import State, turn_points
from projections.scores import scores_json
from projections.timeline import Fold, fold, fold_dicts
from tests.support.games import assert_states_hold_only_their_fields
from tests.support.hi_spot import LIGHT22, PLAYERS, check_accounting


def check_moves(f: Fold) -> None:
    """Every suggestion for the player to act is accepted, and a placement's points are the turn's score."""
    s: State = f.state
    for p in s.players:
        for m in GAME.legal_moves(s, p.id):
            after = GAME.apply(s, Event(f.seq + 1, m["type"], m["data"]))
            if m["type"] == "tile_placed":
                assert turn_points(after, after.turn) == m["points"]


def check_refusal_keeps_state(f: Fold) -> None:
    s: State = f.state
    before = GAME.to_json(s)
    idle = next((p.id for i, p in enumerate(s.players) if i != s.current), s.players[0].id)
    with pytest.raises(IllegalEvent):
        GAME.apply(s, Event(f.seq + 1, "turn_ended", {"player": idle}))
    assert GAME.to_json(s) == before


def check_match(log: list[dict[str, Any]], every: int) -> Fold:
    snapshots = []
    f = Fold.begin(Event(1, log[0]["type"], log[0]["data"]))
    for i, line in enumerate(log, start=1):
        if i > 1:
            f = f.apply(Event(i, line["type"], line["data"]))
        snapshots.append(GAME.to_json(f.state))
        check_accounting(f.state)
        if i % every == 0:
            check_moves(f)
            check_refusal_keeps_state(f)
    # No later event changed an earlier state.
    assert [GAME.to_json(f.state_at(i)) for i in range(1, f.seq + 1)] == snapshots
    sheet = GAME.scores(f.state)
    assert sheet.finished and len(sheet.winners) == 1
    assert sheet.totals[sheet.winners[0]] >= f.state.options["target_score"]
    for pid, total in sheet.totals.items():
        assert total == sum(f.points(seq).get(pid, 0) for seq in range(1, f.seq + 1))
        assert total == sum(r[pid] for r in sheet.rounds)
    assert scores_json(fold(f.events)) == scores_json(f)  # replaying the events gives the same scores
    for seq in range(2, f.seq + 1):
        f.describe(seq)
    return f


CASES = [
    (2, {}, 0.0), (3, {}, 0.5), (4, {"allow_flip": False}, 1.0),
    (2, {"tile_set": LIGHT22, "target_score": 60}, 0.0), (3, {"tile_set": LIGHT22, "target_score": 60}, 0.5),
    (4, {"tile_set": LIGHT22, "target_score": 50, "clear_full_stacks": True}, 0.3),
    (3, {"clear_full_stacks": True}, 0.0),
]  # fmt: skip


@pytest.mark.parametrize(("n", "options", "hidden"), CASES)
def test_random_matches_keep_every_invariant(n: int, options: dict[str, Any], hidden: float) -> None:
    log = random_match(random.Random(n * 7 + len(options)), PLAYERS[:n], options, hidden)
    check_match(log, every=5)


def test_going_out_and_blocked_both_happen() -> None:
    tags: set[str] = set()
    for seed in range(3):
        for options in ({}, {"tile_set": LIGHT22, "target_score": 60}):
            f = fold_dicts(GAME.random_match(random.Random(seed), PLAYERS[:2], options))
            tags.update(t for seq in range(2, f.seq + 1) for t in f.describe(seq).tags)
    assert {"full_stack", "new_stack", "exchange", "blocked", "going_out"} <= tags


def test_random_match_is_deterministic_for_a_seed() -> None:
    a = GAME.random_match(random.Random(5), PLAYERS[:3])
    assert a == GAME.random_match(random.Random(5), PLAYERS[:3])
    assert a != GAME.random_match(random.Random(6), PLAYERS[:3])
    assert a[0] == {"type": "match_started", "data": {"game": "hi-spot", "players": PLAYERS[:3], "options": {}}}


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 4),
    hidden=st.sampled_from([0.0, 0.5, 1.0]),
    light=st.booleans(),
    flip=st.booleans(),
    clear=st.booleans(),
)
def test_many_random_matches(seed: int, n: int, hidden: float, light: bool, flip: bool, clear: bool) -> None:
    options: dict[str, Any] = {"allow_flip": flip, "clear_full_stacks": clear}
    if light:
        options |= {"tile_set": LIGHT22, "target_score": 50}
    check_match(random_match(random.Random(seed), PLAYERS[:n], options, hidden), every=3)


@pytest.mark.slow
def test_a_long_match_folds_to_its_end() -> None:
    # Its speed is `make bench`'s (bench/reducers.py), never a timed assertion here.
    log = max((GAME.random_match(random.Random(s), PLAYERS) for s in range(5)), key=len)
    assert len(log) >= 500
    assert fold_dicts(log).finished


def test_every_state_holds_only_its_fields_with_hidden_draws_and_cleared_stacks() -> None:
    """The contract's check (tests/games/test_game_contract.py) over the handlers its plain random matches miss."""
    options = {"target_score": 120, "clear_full_stacks": True}
    for seed, hidden in ((1, 0.0), (2, 0.3), (3, 0.0)):
        assert_states_hold_only_their_fields(fold_dicts(random_match(random.Random(seed), PLAYERS[:3], options,
                                                                     hidden=hidden)))
