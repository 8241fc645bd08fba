"""The 56 Tri-Ominos tiles, their rotations and how they are written."""

from __future__ import annotations

import itertools

import pytest

from projections.errors import IllegalEvent
from projections.games.tri_ominos.tiles import (
    ALL_TILES,
    TRIPLES,
    hand_total,
    is_triple,
    numbers,
    parse_tile,
    rotations,
    tile_of,
    tile_sum,
    triple_rank,
)


def test_one_tile_for_every_multiset_of_0_to_5() -> None:
    assert len(ALL_TILES) == 56 == len(set(ALL_TILES))
    multisets = {tuple(sorted(m)) for m in itertools.combinations_with_replacement(range(6), 3)}
    assert {numbers(t) for t in ALL_TILES} == multisets
    assert all(a <= b <= c for a, b, c in map(numbers, ALL_TILES))


def test_the_whole_set_adds_up_to_420() -> None:
    # every number 0..5 appears equally often (28 times): 28 * (0+1+2+3+4+5) = 420
    assert hand_total(ALL_TILES) == 420


def test_rotations_read_clockwise_and_never_flip() -> None:
    assert rotations("0-1-2") == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    assert (0, 2, 1) not in rotations("0-1-2")  # that would be the tile flipped over
    assert rotations("2-5-5") == ((2, 5, 5), (5, 5, 2), (5, 2, 5))
    assert rotations("3-3-3") == ((3, 3, 3),)


def test_triples_rank_from_0_0_0_to_5_5_5() -> None:
    assert TRIPLES == ("0-0-0", "1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5")
    assert [triple_rank(t) for t in TRIPLES] == [0, 1, 2, 3, 4, 5]
    assert triple_rank("4-5-5") == -1 and not is_triple("4-5-5")
    assert tile_sum("1-3-4") == 8


def test_tile_of_sorts_numbers() -> None:
    assert tile_of((5, 2, 5)) == "2-5-5"


def test_parse_accepts_exact_spelling() -> None:
    assert parse_tile("0-1-2") == "0-1-2"


@pytest.mark.parametrize(
    "value, words",
    [
        ("0-2-1", "smallest first (0-1-2)"),
        ("2-1-0", "smallest first (0-1-2)"),
        ("6-1-1", "from 0 to 5"),
        ("5-3", "three numbers"),
        ("0-1-2-3", "three numbers"),
        ("1 - 2 - 3", "three numbers"),
        (12, "a-b-c"),
        (None, "a-b-c"),
    ],
)
def test_parse_refuses_everything_else(value: object, words: str) -> None:
    with pytest.raises(IllegalEvent) as err:
        parse_tile(value)
    assert words in err.value.reason
