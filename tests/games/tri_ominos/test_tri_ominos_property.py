"""Whole random Tri-Ominos matches from the seeded random legal player, checked for invariants."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.tri_ominos import GAME
from projections.games.tri_ominos.player import random_match
from projections.games.tri_ominos.rules import Phase
from projections.timeline import Fold, fold, fold_dicts
from tests.support.examples import load_example
from tests.support.tri_ominos import check_tiles

PLAYERS = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(6)]


def _check_match(log: list[dict[str, Any]], players: list[dict[str, str]], legal_every: int = 1) -> Fold:
    assert log[0]["type"] == "match_started" and log[0]["data"]["players"] == players
    f = fold_dicts(log)
    assert f.finished
    sheet = GAME.scores(f.state)
    target = f.state.options["target_score"]
    best = max(sheet.totals.values())
    assert best >= target
    assert sheet.winners == [p["id"] for p in players if sheet.totals[p["id"]] == best]
    running = {p["id"]: 0 for p in players}
    for seq in range(1, f.seq + 1):
        state = f.state_at(seq)
        check_tiles(state)
        for pid, pts in f.points(seq).items():
            running[pid] += pts
        if state.phase is Phase.PLAYING and seq % legal_every == 0:
            _check_legal_moves(f.at(seq))
    assert running == sheet.totals
    for pid in sheet.totals:  # round points add up to the totals
        assert sum(r[pid] for r in sheet.rounds) == sheet.totals[pid]
    replay = fold(f.events)
    assert GAME.scores(replay.state) == sheet
    return f


def _check_legal_moves(f: Fold) -> None:
    state = f.state
    before = GAME.to_json(state)
    for p in state.players:
        moves = GAME.legal_moves(state, p.id)
        if state.turn is None or p.id != state.players[state.turn].id:
            assert moves == []
            continue
        assert moves, "the player to move always has a legal event"
        for move in moves:
            after = f.apply(Event(f.seq + 1, move["type"], move["data"]))
            assert after.points(after.seq).get(p.id, 0) == move["points"]
        # a wrong-turn event is refused and changes nothing
        other = state.players[(state.turn + 1) % len(state.players)].id
        with pytest.raises(IllegalEvent):
            GAME.apply(state, Event(f.seq + 1, "turn_passed", {"player": other}))
    assert GAME.to_json(state) == before


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_random_matches_keep_every_invariant(count: int) -> None:
    players = PLAYERS[:count]
    log = GAME.random_match(random.Random(count), players)
    _check_match(log, players, legal_every=3)


def test_random_match_is_deterministic_and_honours_options() -> None:
    players = PLAYERS[:3]
    a = GAME.random_match(random.Random(7), players, {"target_score": 150})
    b = GAME.random_match(random.Random(7), players, {"target_score": 150})
    assert a == b
    assert a[0]["data"]["options"] == {"target_score": 150}
    f = fold_dicts(a)
    assert f.finished and max(GAME.scores(f.state).totals.values()) >= 150


@pytest.mark.parametrize("count", [2, 4, 6])
def test_hidden_recording_gives_the_same_scores(count: int) -> None:
    players = PLAYERS[:count]
    known = random_match(random.Random(100 + count), players)
    hidden = random_match(random.Random(100 + count), players, hidden=True)
    assert any(e["type"] == "hands_revealed" for e in hidden) or count == 2
    assert all(t is None for e in hidden if e["type"] == "tiles_dealt" for t in e["data"]["tiles"])
    f_known, f_hidden = fold_dicts(known), _check_match(hidden, players, legal_every=5)
    assert GAME.scores(f_known.state) == GAME.scores(f_hidden.state)


def test_an_example_and_a_long_random_match_fold_to_their_end() -> None:
    # Their speed is `make bench`'s (bench/reducers.py), never a timed assertion here.
    lines, _ = load_example("tri-ominos-01")  # 261 events
    assert fold_dicts(lines).seq == len(lines)
    log = GAME.random_match(random.Random(1), PLAYERS[:4])
    assert fold_dicts(log).finished


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_many_random_matches(seed: int) -> None:
    rng = random.Random(seed)
    players = PLAYERS[: rng.randint(2, 6)]
    options: dict[str, Any] = rng.choice(
        [
            {},
            {"blocked_winner": "lowest_total", "target_score": 250},
            {"draw_limit": 1, "bridge_extension_bonus": 0, "hexagon_bonuses": [45, 55, 65]},
        ]
    )
    hidden = seed % 2 == 1
    log = random_match(rng, players, options or None, hidden=hidden)
    _check_match(log, players)
