"""The open-cell index (`needs.py`) against the brute-force scan it replaces on every draw and pass."""

from __future__ import annotations

import itertools
import random

import pytest

from projections.events import Event
from projections.games.tri_ominos import GAME
from projections.games.tri_ominos.grid import corners
from projections.games.tri_ominos.needs import any_fits, cell_need, count_needs, offers
from projections.games.tri_ominos.player import random_match
from projections.games.tri_ominos.rules import Phase, State, _has_playable, first_playable, fits
from projections.games.tri_ominos.tiles import ALL_TILES, rotations
from projections.timeline import Fold, fold_dicts

PLAYERS = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(6)]


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (-3, 2), (2, -5)])
def test_a_tile_meets_a_cells_need_exactly_when_one_of_its_rotations_fits(cell: tuple[int, int]) -> None:
    points = corners(cell)
    for readings in itertools.product([None, 0, 1, 2, 3, 4, 5], repeat=3):
        values = {p: v for p, v in zip(points, readings, strict=True) if v is not None}
        need = cell_need(values, cell)
        for tile in ALL_TILES:
            scan = any(fits(values, points, rot) for rot in rotations(tile))
            assert (need in offers(tile)) == scan, (cell, readings, tile)


def _check_index(state: State) -> None:
    assert state.needs == count_needs(state.values, state.open_cells)
    assert 0 not in state.needs.values()
    for seat, hand in enumerate(state.hands):
        if hand is None:
            continue
        scan = first_playable(state, hand)
        assert any_fits(state.needs, hand.known) == (scan is not None)
        assert _has_playable(state, seat) == (scan if hand.known else None)


@pytest.mark.parametrize(("seed", "players", "hidden"), [(1, 2, False), (2, 3, False), (3, 4, True), (4, 6, False)])
def test_the_index_agrees_with_a_scan_at_every_state_of_random_matches(seed: int, players: int, hidden: bool) -> None:
    log = random_match(random.Random(seed), PLAYERS[:players], {"target_score": 250}, hidden=hidden)
    f = fold_dicts(log)
    assert f.finished
    placed = 0
    for seq in range(1, f.seq + 1):
        state = f.state_at(seq)
        _check_index(state)
        placed += state.phase is Phase.PLAYING and bool(state.board)
    assert placed > 100


def test_old_states_keep_their_index_when_a_fold_is_extended_two_ways() -> None:
    """A Fold keeps every state: extending an old fold a second way must not touch the first branch."""
    log = random_match(random.Random(5), PLAYERS[:3], {"target_score": 150})
    events = [Event(i, e["type"], e["data"]) for i, e in enumerate(log, start=1)]
    whole = Fold.begin(events[0]).extend(events[1:])
    snapshot = [dict(whole.state_at(s).needs) for s in range(1, whole.seq + 1)]
    # Branch off at every placement during play: the same placements, so the same index, built again.
    for seq in range(2, whole.seq):
        if events[seq].type == "tile_placed" and whole.state_at(seq).phase is Phase.PLAYING:
            branch = whole.at(seq).apply(events[seq])
            assert branch.state.needs == snapshot[seq]
    assert [dict(whole.state_at(s).needs) for s in range(1, whole.seq + 1)] == snapshot
    assert GAME.scores(whole.state).finished
