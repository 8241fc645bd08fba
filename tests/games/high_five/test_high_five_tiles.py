"""The double-fifteen set and its tile values (RULES.md §2, "Tiles" and "Tile value")."""

from __future__ import annotations

import pytest

from projections.games.high_five.tiles import SET_SIZE, TILES, VALUES, is_tile, matches, value


def test_the_set_is_136_distinct_tiles_written_low_high() -> None:
    assert SET_SIZE == len(TILES) == len(set(TILES)) == 136
    assert TILES[0] == "0-0" and TILES[-1] == "15-15"
    for t in TILES:
        a, b = map(int, t.split("-"))
        assert 0 <= a <= b <= 15


@pytest.mark.parametrize(
    ("tile", "points"),
    [
        ("0-0", 1),  # a double; 0 pips is no positive multiple of 5
        ("1-1", 1),
        ("14-14", 1),
        ("1-4", 1),
        ("0-5", 1),
        ("3-7", 2),
        ("0-15", 3),
        ("5-15", 4),
        ("12-13", 5),
        ("5-5", 3),  # double 1 + 10 pips 2
        ("10-10", 5),  # 1 + 4
        ("15-15", 7),  # 1 + 6
        ("1-2", 0),
        ("7-9", 0),
    ],
)
def test_tile_values(tile: str, points: int) -> None:
    assert value(tile) == points


def test_the_whole_set_is_worth_100() -> None:
    assert sum(VALUES.values()) == 100
    # The rulebook's split: 16 doubles worth 1 each, and 84 points for pip totals of 5, 10, ... 30.
    doubles = [t for t in TILES if t.split("-")[0] == t.split("-")[1]]
    assert len(doubles) == 16
    assert sum(VALUES.values()) - len(doubles) == 84


def test_spelling_is_strict() -> None:
    assert is_tile("3-5") and is_tile("15-15")
    for bad in ["5-3", "3-16", "03-5", "3 - 5", "3-5-", 35, None, ["3", "5"]]:
        assert not is_tile(bad)


def test_two_tiles_match_when_they_share_an_end() -> None:
    assert matches("3-7", "7-9") and matches("3-7", "3-3") and matches("0-0", "0-15")
    assert not matches("3-7", "4-9")
    assert matches("6-6", "6-6")
