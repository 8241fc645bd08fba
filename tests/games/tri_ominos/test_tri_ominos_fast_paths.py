"""The Tri-Ominos fold's fast paths against what they replace: what the open cells need (`needs.py`)
against the scan of every open cell × tile × rotation, `evolve` against `dataclasses.replace`."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.tri_ominos import GAME
from projections.games.tri_ominos.grid import corners
from projections.games.tri_ominos.needs import any_fits, bit, cell_need, offers, open_needs
from projections.games.tri_ominos.player import random_match
from projections.games.tri_ominos.rules import (
    Phase,
    State,
    _has_playable,
    board_needs,
    corner_mismatch,
    evolve,
    first_playable,
    fits,
)
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
            for rot in rotations(tile):
                assert fits(values, points, rot) == (corner_mismatch(values, points, rot) is None)
            scan = any(fits(values, points, rot) for rot in rotations(tile))
            assert (need in offers(tile)) == scan, (cell, readings, tile)
            assert any_fits(open_needs(values, [cell]), [tile]) == scan
        assert open_needs(values, [cell]) == bit(need)


def _check_needs(state: State) -> None:
    """The needs a state keeps are its board's, and every hand's answer is the scan's."""
    needs = 0
    for cell in state.open_cells:
        needs |= bit(cell_need(state.values, cell))
    assert open_needs(state.values, state.open_cells) == needs
    if state.needs is not None:
        assert state.needs == needs
    for seat, hand in enumerate(state.hands):
        if hand is None:
            continue
        scan = first_playable(state, hand)
        assert any_fits(board_needs(state), hand.known) == (scan is not None)
        assert _has_playable(state, seat) == scan


@pytest.mark.parametrize(("seed", "players", "hidden"), [(1, 2, False), (2, 3, False), (3, 4, True), (4, 6, False)])
def test_the_needs_agree_with_a_scan_at_every_state_of_random_matches(seed: int, players: int, hidden: bool) -> None:
    log = random_match(random.Random(seed), PLAYERS[:players], {"target_score": 250}, hidden=hidden)
    f = fold_dicts(log)
    assert f.finished
    kept = 0
    for seq in range(1, f.seq + 1):
        state = f.state_at(seq)
        _check_needs(state)
        kept += state.needs is not None
    assert hidden or kept > 20  # a scorekeeper who sees no tiles never needs them


def test_a_draw_is_refused_on_a_board_whose_needs_were_kept_before_the_tile_that_fits_was_drawn() -> None:
    """The needs kept since the turn's first draw still show a drawn tile that fits: the next draw is refused."""
    for seed in range(40):
        log = random_match(random.Random(seed), PLAYERS[:2], {"target_score": 150})
        f = fold_dicts(log)
        for seq in range(2, f.seq):
            before, after = f.state_at(seq - 1), f.state_at(seq)
            event = f.event(seq)
            if event.type != "tile_drawn" or before.needs is None or f.event(seq + 1).type != "tile_placed":
                continue
            if after.draws >= after.options["draw_limit"] or not after.well:
                continue  # another draw would be refused for another reason
            assert after.needs is before.needs  # the same board: kept, not worked out again
            again = Event(seq + 1, "tile_drawn", {"player": event.data["player"], "tile": None})
            with pytest.raises(IllegalEvent, match="which fits at"):
                f.at(seq).apply(again)
            return
    pytest.fail("no second draw after a drawn tile that fits in 40 matches")


def test_old_states_keep_their_needs_when_a_fold_is_extended_two_ways() -> None:
    """A Fold keeps every state: extending an old fold a second way leaves the first branch as it was."""
    log = random_match(random.Random(5), PLAYERS[:3], {"target_score": 150})
    events = [Event(i, e["type"], e["data"]) for i, e in enumerate(log, start=1)]
    whole = Fold.begin(events[0]).extend(events[1:])
    snapshot = [whole.state_at(s).needs for s in range(1, whole.seq + 1)]
    for seq in range(2, whole.seq):
        if events[seq].type in ("tile_drawn", "turn_passed", "tile_placed"):
            branch = whole.at(seq).apply(events[seq])
            assert branch.state.needs == snapshot[seq]
    assert [whole.state_at(s).needs for s in range(1, whole.seq + 1)] == snapshot
    assert GAME.scores(whole.state).finished


def test_evolve_makes_the_state_replace_makes_and_leaves_the_old_one_as_it_was() -> None:
    log = random_match(random.Random(6), PLAYERS[:2], {"target_score": 100})
    state = fold_dicts(log[:40]).state
    before = repr(state), state.needs
    changes = {"draws": state.draws + 1, "turn": 1, "phase": Phase.REVEALING, "board": {}, "needs": frozenset()}
    new = evolve(state, **changes)
    assert new == replace(state, **changes) and new is not state
    assert all(getattr(new, name) is value for name, value in changes.items())
    assert (repr(state), state.needs) == before
    with pytest.raises(AssertionError, match="draw"):
        evolve(state, draw=1)  # a misspelled field is refused, as replace refuses it
