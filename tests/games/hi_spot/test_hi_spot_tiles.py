"""Hi-Spot tile patterns, orientations and tile sets."""

from __future__ import annotations

import json

import pytest

from projections.errors import IllegalEvent
from projections.games.hi_spot.tiles import (
    FULL,
    default_tile_set,
    load_tile_set,
    mask_of,
    orientations,
    positions_of,
    quarter_turn,
    turned_over,
)
from tests.support.paths import DATA

# The rulebook's tile table, transcribed apart from the package's own copy.
SPEC_TILES = DATA / "hi-spot-tiles.json"


def turn(*positions: int) -> list[int]:
    return positions_of(quarter_turn(mask_of(positions)))


def test_a_quarter_turn_maps_row_col_to_col_two_minus_row() -> None:
    assert turn(0) == [2]  # (0, 0) → (0, 2)
    assert turn(2) == [8]  # (0, 2) → (2, 2)
    assert turn(4) == [4]  # the centre stays the centre
    assert turn(0, 1) == [2, 5]
    assert turn(3) == [1]  # (1, 0) → (0, 1)


def test_turning_over_maps_row_col_to_row_two_minus_col() -> None:
    assert positions_of(turned_over(mask_of([0, 3]))) == [2, 5]
    assert positions_of(turned_over(mask_of([1, 4, 7]))) == [1, 4, 7]


@pytest.mark.parametrize(
    ("dots", "with_flip", "rotations_only"),
    [
        ([4], 1, 1),
        ([0], 4, 4),
        ([0, 8], 2, 2),
        ([3, 4, 5], 2, 2),
        ([0, 1, 3], 4, 4),  # symmetric about its diagonal: turning over gives a rotation
        ([0, 1, 3, 5], 8, 4),  # no symmetry: 8 orientations, 4 without flipping
        ([0, 1], 8, 4),
    ],
)
def test_the_number_of_distinct_orientations(dots: list[int], with_flip: int, rotations_only: int) -> None:
    assert len(orientations(mask_of(dots), True)) == with_flip
    assert len(orientations(mask_of(dots), False)) == rotations_only


def test_orientations_keep_the_dot_count() -> None:
    for tile in default_tile_set().masks.values():
        assert {bin(o).count("1") for o in orientations(tile, True)} == {bin(tile).count("1")}


def test_the_default_set_is_the_spec_file() -> None:
    ts = default_tile_set()
    assert len(ts) == 56 and ts.name == "default"
    if SPEC_TILES.is_file():
        spec = json.loads(SPEC_TILES.read_text(encoding="utf-8"))
        assert {t["id"]: mask_of(t["dots"]) for t in spec} == ts.masks
    assert ts.dots("T01") == 1 and ts.dots("T56") == 6
    # With the default set the bag cannot empty: the 40 lightest tiles carry more than 81 dots.
    assert sum(sorted(ts.dots(t) for t in ts.ids)[:40]) > 81


def test_fitting_tiles_leave_the_stack_dots_uncovered() -> None:
    ts = default_tile_set()
    only_corner_8_free = FULL & ~mask_of([8])
    assert ts.fitting(only_corner_8_free, True) == {"T01", "T04", "T07"}  # the corner tiles
    assert ts.fitting(FULL, True) == frozenset()
    assert ts.fitting(0, False) == ts.ids


def test_inline_sets() -> None:
    ts = load_tile_set([{"id": "A", "dots": [0, 4]}, {"id": "B", "dots": [8]}])
    assert ts.name == "inline" and ts.dots("A") == 2 and "B" in ts and "C" not in ts
    with pytest.raises(IllegalEvent, match="non-empty list"):
        load_tile_set([])
