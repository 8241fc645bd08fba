"""The faster reducers stay persistent: a state the fold returned never changes afterwards.

High Five, Hi-Spot and Hats Off build each new state with `evolve` (a dict copy) and share tuples, bit
sets and (Hats Off) a board memo with the state before; these tests branch folds and apply every legal
move from many states, then check that every older state still reads exactly as it did.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from projections.events import Event
from projections.games.hats_off import rules as hats_rules
from projections.games.hats_off.board import Board
from projections.persistent import evolve, updater
from projections.registry import get_game
from projections.timeline import fold_dicts

GAMES = ["high-five", "hi-spot", "hats-off"]
PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]


def frozen_json(game: Any, state: Any) -> str:
    return json.dumps([game.to_json(state), game.scores(state).totals], sort_keys=True, default=str)


@pytest.mark.parametrize("name", GAMES)
def test_extending_an_older_fold_a_second_way_leaves_every_state_as_it_was(name: str) -> None:
    game = get_game(name)
    log = game.random_match(random.Random(12), PLAYERS)
    full = fold_dicts(log)
    before = [frozen_json(game, full.state_at(seq)) for seq in range(1, full.seq + 1)]
    for k in (2, len(log) // 3, len(log) // 2, len(log) - 1):
        branch = full.at(k).extend(Event(i, e["type"], e["data"]) for i, e in enumerate(log[k:], start=k + 1))
        assert [frozen_json(game, branch.state_at(seq)) for seq in range(1, branch.seq + 1)] == before
    assert [frozen_json(game, full.state_at(seq)) for seq in range(1, full.seq + 1)] == before


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_from_a_state_leaves_that_state_unchanged(name: str) -> None:
    game = get_game(name)
    log = game.random_match(random.Random(5), PLAYERS)
    fold = fold_dicts(log)
    tried = 0
    for seq in range(2, fold.seq + 1, max(3, fold.seq // 40)):  # about 40 states per match
        state = fold.state_at(seq)
        if game.is_finished(state):
            continue
        then = frozen_json(game, state)
        results = []
        for p in PLAYERS:
            moves = game.legal_moves(state, p["id"])
            for move in moves[:: max(1, len(moves) // 12)]:  # a dozen of them, spread out
                after = game.apply(state, Event(seq + 1, move["type"], move["data"]))
                results.append((after, frozen_json(game, after)))
                tried += 1
        assert frozen_json(game, state) == then, seq
        # Siblings built from the same state do not see each other's changes.
        assert all(frozen_json(game, after) == was for after, was in results), seq
    assert tried > 100


def test_the_hats_off_board_memo_follows_the_hats() -> None:
    game = get_game("hats-off")
    fold = fold_dicts(game.random_match(random.Random(3), PLAYERS))
    for seq in range(1, fold.seq + 1):
        state = fold.state_at(seq)
        fresh = Board(state.hats)
        board = hats_rules.board_of(state)
        assert board.hats is state.hats
        assert fresh.holder == board.holder and fresh.in_hole == board.in_hole
        assert {h: fresh.bottom(h) for h in state.hats} == {h: board.bottom(h) for h in state.hats}
    # A copy with other hats does not reuse the memo it carries along.
    state = fold.state_at(fold.seq)
    emptied = evolve(state, hats={})
    assert hats_rules.board_of(emptied).hats == {}
    assert hats_rules.board_of(state).hats is state.hats


@dataclass(frozen=True)
class _Pair:
    a: int
    b: tuple[int, ...] = ()


def test_evolve_copies_and_leaves_the_original() -> None:
    one = _Pair(1)
    two = evolve(one, b=(2,))
    assert one == _Pair(1) and two == _Pair(1, (2,)) and hash(two) == hash(_Pair(1, (2,)))
    with pytest.raises(AttributeError):
        two.a = 3  # type: ignore[misc]


def test_evolve_copies_refuses_a_misspelled_field_and_accepts_remembered_values() -> None:
    game = get_game("high-five")
    state = fold_dicts(game.random_match(random.Random(4), PLAYERS)[:3]).state
    moved = evolve(state, plays=state.plays + 1)
    assert moved.plays == state.plays + 1 and moved.layout is state.layout and type(moved) is type(state)
    assert state.plays == moved.plays - 1  # the original is left as it was
    with pytest.raises(AssertionError, match="playz"):
        evolve(state, playz=1)
    for _ in range(2):  # the second time through the remembered names' fast check
        memo = evolve(state, _memo=1)
        assert memo.__dict__["_memo"] == 1 and "_memo" not in state.__dict__
    with pytest.raises(AssertionError, match="playz"):
        evolve(state, _memo=2, playz=1)  # a remembered name accepted before does not let a misspelling through


def test_an_updater_is_evolve_bound_to_its_fields() -> None:
    game = get_game("high-five")
    state = fold_dicts(game.random_match(random.Random(4), PLAYERS)[:3]).state
    moved = updater(type(state), "plays")(state, plays=state.plays + 1)
    assert moved == evolve(state, plays=state.plays + 1) and moved.plays == state.plays + 1
    assert type(moved) is type(state) and state.plays == moved.plays - 1
    with pytest.raises(AssertionError, match="playz"):
        updater(type(state), "playz")
