"""Property tests over whole random High Five matches from the seeded random legal player."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from projections.events import Event
from projections.games.high_five import GAME
from projections.games.high_five.tiles import TILES, VALUES
from projections.scores import scores_json
from projections.timeline import Fold, fold, fold_dicts
from tests.support.high_five import hide_hands


def players(n: int) -> list[dict[str, str]]:
    return [{"id": f"p{i}", "name": f"Player {i}"} for i in range(n)]


def check_match(log: list[dict[str, Any]], n: int, every_move: bool) -> Fold:
    # Fold event by event, keeping each state's JSON as it was then: no later event may change it.
    f: Fold = Fold.begin(Event(1, log[0]["type"], log[0]["data"]))
    snapshots = [json.dumps(GAME.to_json(f.state), sort_keys=True)]
    for i, line in enumerate(log[1:], start=2):
        f = f.apply(Event(i, line["type"], line["data"]))
        snapshots.append(json.dumps(GAME.to_json(f.state), sort_keys=True))
    assert snapshots == [json.dumps(GAME.to_json(f.state_at(i)), sort_keys=True) for i in range(1, f.seq + 1)]
    s = scores_json(f)
    ids = [p["id"] for p in players(n)]
    target = log[0]["data"]["options"].get("target_score", 100)

    # Finished by the target: exactly one winner, the one who reached it, on the last event.
    assert s["status"] == "finished" and len(s["winners"]) == 1
    score = {p["id"]: p["score"] for p in s["players"]}
    assert score[s["winners"][0]] >= target
    assert all(v < target for p, v in score.items() if p != s["winners"][0])
    assert not f.at(f.seq - 1).finished

    # Scores are the sum of per-event points, and of the rounds.
    gained = Counter[str]()
    for seq in range(2, f.seq + 1):
        gained.update(f.points(seq))
    assert {p: gained[p] for p in ids} == score
    assert {p: sum(r["scores"][p] for r in s["rounds"]) for p in ids} == score
    assert len(s["rounds"]) == GAME.to_json(f.state)["game_number"]

    for seq in range(2, f.seq + 1):
        state = GAME.to_json(f.state_at(seq))
        # Every tile accounted for exactly once.
        known = state["layout"] + [t for p in state["players"] for t in p["pile"] + p["hand"]["tiles"]]
        assert len(known) == len(set(known))
        assert len(known) + state["boneyard"] == len(TILES)
        # This game's points are the value of the captured tiles.
        assert [p["game_points"] for p in state["players"]] == [
            sum(VALUES[t] for t in p["pile"]) for p in state["players"]
        ]
        if every_move or seq % 7 == 0:
            for pid in ids:
                for m in GAME.legal_moves(f.state_at(seq), pid):
                    after = GAME.apply(f.state_at(seq), Event(seq + 1, m["type"], m["data"]))
                    assert GAME.scores(after).totals[pid] - GAME.scores(f.state_at(seq)).totals[pid] == m["points"]
        # Only the player to act and the player who just played may do anything.
        moving = {pid for pid in ids if GAME.legal_moves(f.state_at(seq), pid)}
        assert moving <= set(state["may_claim"]) | {state["to_play"]}

    # A replay of the events, and an export through JSON Lines, give the same scores.
    assert scores_json(fold(f.events)) == s
    exported = "\n".join(json.dumps({"type": e.type, "data": e.data}) for e in f.events)
    assert scores_json(fold_dicts(json.loads(line) for line in exported.splitlines())) == s
    # Recorded with every hand hidden, the match folds to the same scores.
    assert scores_json(fold_dicts(hide_hands(log))) == s
    return f


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_random_matches_keep_the_invariants(n: int) -> None:
    log = GAME.random_match(random.Random(100 + n), players(n), {"target_score": 30})
    check_match(log, n, every_move=n in (2, 8))


def test_a_full_match_to_100() -> None:
    # Its speed is `make bench`'s (bench/reducers.py), never a timed assertion here.
    log = GAME.random_match(random.Random(7), players(4))
    f = fold_dicts(log)
    assert scores_json(f)["status"] == "finished"
    assert len(log) > 300


def test_random_match_is_deterministic_and_uses_the_given_players() -> None:
    a = GAME.random_match(random.Random(3), players(5), {"first_player": "p2"})
    b = GAME.random_match(random.Random(3), players(5), {"first_player": "p2"})
    assert a == b
    assert a[0] == {
        "type": "match_started",
        "data": {"game": "high-five", "players": players(5), "options": {"first_player": "p2"}},
    }
    assert a != GAME.random_match(random.Random(4), players(5), {"first_player": "p2"})
    types = Counter(line["type"] for line in a)
    assert types["pair_claimed"] > 0 and types["game_started"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(150))
def test_many_random_matches(seed: int) -> None:
    n = 2 + seed % 7
    options: dict[str, Any] = {"target_score": 100 if seed % 3 else 40}
    if seed % 4 == 1:
        options["first_player"] = f"p{seed % n}"
    log = GAME.random_match(random.Random(seed), players(n), options)
    check_match(log, n, every_move=seed % 10 == 0)
