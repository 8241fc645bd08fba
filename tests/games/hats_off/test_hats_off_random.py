"""Property tests over complete random Hats Off matches from the seeded random table."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.events import Event
from projections.games.hats_off import GAME, State
from projections.games.hats_off.board import HAT_NUMBERS, Board, Hole, InHat
from projections.games.hats_off.rules import sum_rounds
from projections.scores import scores_json
from projections.timeline import Fold, fold, fold_dicts
from tests.support.hats_off import check_legal_moves

NAMES = ["ann", "bo", "cy", "di"]


def players(n: int) -> list[dict[str, str]]:
    return [{"id": i, "name": i.title()} for i in NAMES[:n]]


def check_hats_accounted_for(state: State) -> None:
    """Each player's 6 hats: in hand, or launched exactly once; every counting hat stands in exactly one stack,
    resting on a hole, the board or the floor; a hole or a hat holds at most one hat."""
    board = Board(state.hats)
    as_json = GAME.to_json(state)
    for p in as_json["players"]:
        launched = [h["hat"] for h in as_json["hats"] if h["player"] == p["id"]]
        assert sorted(launched + p["hats_in_hand"]) == list(HAT_NUMBERS)
    in_holes = [(h["player"], h["hat"]) for hole in as_json["holes"] for h in hole["stack"]]
    assert len(in_holes) == len(set(in_holes))
    counting = set(board.counting())
    assert set(in_holes) == {h for h in counting if board.area(h) is not None}
    assert all(board.bottom(h) in ("board", "off") for h in counting - set(in_holes))
    places = [state.hats[h].place for h in counting]
    assert sum(isinstance(p, InHat) for p in places) == len(board.holder)
    assert sum(isinstance(p, Hole) for p in places) == len(board.in_hole)
    # The totals kept as rounds end are the finished rounds' sums.
    assert dict(state.past_totals) == (sum_rounds(state.players, state.past) if state.past else {})


def check_match(
    log: list[dict[str, Any]], n: int, options: dict[str, Any] | None = None, thorough: bool = False
) -> Fold:
    header = {"game": "hats-off", "players": players(n), "options": options or {}}
    assert log[0] == {"type": "match_started", "data": header}
    f = fold_dicts(log)  # never raises
    sheet = GAME.scores(f.state)
    assert sheet.finished and f.finished
    # The winner is the unique top at or past the target; the match ended at the first round that allowed it.
    top = max(sheet.totals.values())
    assert top >= f.state.target and [p for p, t in sheet.totals.items() if t == top] == sheet.winners
    ends = [s for s in range(1, f.seq + 1) if f.event(s).type == "round_ended"]
    for s in ends[:-1]:
        totals = GAME.scores(f.state_at(s)).totals
        best = max(totals.values())
        assert best < f.state.target or list(totals.values()).count(best) > 1
    # Scores are the sum of every event's points, and of the rounds.
    summed = Counter[str]()
    for s in range(1, f.seq + 1):
        summed.update(f.points(s))
    assert {p: summed[p] for p in sheet.totals} == sheet.totals
    assert {p: sum(r[p] for r in sheet.rounds) for p in sheet.totals} == sheet.totals
    # Round k is called by seat (k - 1) mod n.
    callers = [e.data["caller"] for e in f.events if e.type == "round_started"]
    assert callers == [NAMES[k % n] for k in range(len(callers))]
    # Replaying the stored events gives the same scores.
    assert scores_json(fold(f.events)) == scores_json(f)
    for s in range(2, f.seq + 1):
        state = f.state_at(s)
        check_hats_accounted_for(state)
        f.describe(s)
        if thorough:
            # apply never changes the state it was given
            before = f.state_at(s - 1)
            snapshot = json.dumps(GAME.to_json(before), sort_keys=True)
            GAME.apply(before, f.event(s))
            assert json.dumps(GAME.to_json(before), sort_keys=True) == snapshot
            for p in state.players:  # every suggestion is accepted
                for m in GAME.legal_moves(state, p.id):
                    GAME.apply(state, Event(s + 1, m["type"], m["data"]))
    return f


@pytest.mark.parametrize("seed", range(12))
def test_random_matches(seed: int) -> None:
    n = 2 + seed % 3
    check_match(GAME.random_match(random.Random(seed), players(n)), n, thorough=seed < 3)


def test_random_matches_with_other_targets() -> None:
    for seed, target in ((20, 5), (21, 40), (22, 150)):
        options = {"target_score": target}
        check_match(GAME.random_match(random.Random(seed), players(3), options), 3, options)


def test_random_match_is_deterministic_per_seed() -> None:
    a = GAME.random_match(random.Random(7), players(3))
    assert a == GAME.random_match(random.Random(7), players(3))
    assert a != GAME.random_match(random.Random(8), players(3))


def test_random_legal_moves_match_apply_exactly() -> None:
    f = fold_dicts(GAME.random_match(random.Random(11), players(2)))
    for s in range(2, f.seq, 5):
        check_legal_moves(f.state_at(s))


def test_random_table_plays_realistic_varied_rounds() -> None:
    tags: Counter[str] = Counter()
    together = moves = late = 0
    for seed in range(30):
        log = GAME.random_match(random.Random(seed), players(2 + seed % 3))
        f = fold_dicts(log)
        for s in range(2, f.seq + 1):
            tags.update(f.describe(s).tags)
        together += sum(1 for e in log if e["type"] == "hats_off_called" and len(e["data"]["players"]) > 1)
        moves += sum(1 for e in log if e["type"] == "hat_moved")
        late += sum(1 for s in range(2, f.seq + 1) if "does not count" in f.describe(s).text)
    assert tags["hole"] > tags["nested"] > 0  # mostly holes, some nesting
    assert tags["in_flight"] and tags["hats_off"] == tags["round_end"] and moves and late and together


def test_a_long_match_folds_to_its_end() -> None:
    # Its speed is `make bench`'s (bench/reducers.py), never a timed assertion here.
    log = GAME.random_match(random.Random(1), players(4), {"target_score": 600})
    assert len(log) >= 500
    f = fold_dicts(log)
    assert f.finished and scores_json(f)["status"] == "finished"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), target=st.sampled_from([None, 5, 30, 75, 150]))
def test_many_random_matches(seed: int, n: int, target: int | None) -> None:
    options = None if target is None else {"target_score": target}
    check_match(GAME.random_match(random.Random(seed), players(n), options), n, options, thorough=seed % 10 == 0)
