"""The 56 Tri-Ominos tiles: names `a-b-c`, numbers, rotations and the starting order of triples.

A tile `a-b-c` (a ≤ b ≤ c) reads a→b→c clockwise; it rotates but is never flipped, so its three
possible corner readings (clockwise from the apex of its cell) are (a, b, c), (b, c, a), (c, a, b).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from projections.errors import IllegalEvent

Corners = tuple[int, int, int]

ALL_TILES: tuple[str, ...] = tuple(f"{a}-{b}-{c}" for a in range(6) for b in range(a, 6) for c in range(b, 6))
TILE_SET = frozenset(ALL_TILES)
TRIPLES: tuple[str, ...] = tuple(f"{n}-{n}-{n}" for n in range(6))  # 0-0-0 lowest … 5-5-5 highest

_SPELLING = re.compile(r"([0-9])-([0-9])-([0-9])")


@lru_cache(maxsize=64)
def numbers(tile: str) -> Corners:
    a, b, c = (int(part) for part in tile.split("-"))
    return (a, b, c)


def tile_sum(tile: str) -> int:
    return sum(numbers(tile))


def is_triple(tile: str) -> bool:
    a, _, c = numbers(tile)
    return a == c


def triple_rank(tile: str) -> int:
    """0 for 0-0-0 up to 5 for 5-5-5; -1 for a tile that is not a triple."""
    a, _, c = numbers(tile)
    return a if a == c else -1


@lru_cache(maxsize=64)
def rotations(tile: str) -> tuple[Corners, ...]:
    """The distinct clockwise readings of the tile (1 for a triple, else 3)."""
    a, b, c = numbers(tile)
    seen: list[Corners] = []
    for rot in ((a, b, c), (b, c, a), (c, a, b)):
        if rot not in seen:
            seen.append(rot)
    return tuple(seen)


def tile_of(corner_numbers: Corners) -> str:
    """The tile name for numbers read in any order (sorted a ≤ b ≤ c)."""
    a, b, c = sorted(corner_numbers)
    return f"{a}-{b}-{c}"


def parse_tile(value: Any, what: str = "tile") -> str:
    """A tile name exactly as FORMAT.md writes it, or a refusal that says what is wrong."""
    if not isinstance(value, str):
        raise IllegalEvent(f"{what} must be written a-b-c, e.g. 0-1-2 (got {value!r})")
    if value in TILE_SET:
        return value
    m = _SPELLING.fullmatch(value)
    if not m:
        raise IllegalEvent(f"{value!r} is not a Tri-Ominos tile: write three numbers a-b-c, e.g. 0-1-2")
    nums = [int(g) for g in m.groups()]
    if max(nums) > 5:
        raise IllegalEvent(f"{value} is not a Tri-Ominos tile: the numbers run from 0 to 5")
    raise IllegalEvent(
        f"{value} is not a Tri-Ominos tile: write the numbers smallest first ({tile_of((nums[0], nums[1], nums[2]))})"
    )


def hand_total(tiles: Any) -> int:
    """The sum of all numbers on the given tiles (what a hand is worth at the end of a round)."""
    return sum(tile_sum(t) for t in tiles)
