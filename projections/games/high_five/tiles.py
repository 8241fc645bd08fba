"""The double-fifteen domino set of High Five and what each tile is worth (RULES.md §2, "Tile value")."""

from __future__ import annotations

from typing import Any

HIGHEST_PIP = 15


def _value(a: int, b: int) -> int:
    # A double scores 1 and a positive multiple of 5 scores 1 per 5 pips; both can apply (5-5 = 1 + 2).
    double = 1 if a == b else 0
    total = a + b
    fives = total // 5 if total > 0 and total % 5 == 0 else 0
    return double + fives


# Tiles are spelled exactly "a-b" with a <= b (FORMAT.md); set order is by (a, b).
TILES: tuple[str, ...] = tuple(f"{a}-{b}" for a in range(HIGHEST_PIP + 1) for b in range(a, HIGHEST_PIP + 1))
ENDS: dict[str, tuple[int, int]] = {
    f"{a}-{b}": (a, b) for a in range(HIGHEST_PIP + 1) for b in range(a, HIGHEST_PIP + 1)
}
VALUES: dict[str, int] = {t: _value(*ENDS[t]) for t in TILES}
# One bit per tile, so a set of tiles is an int (`seen_bits`: the tiles of a game whose place is known).
BIT: dict[str, int] = {t: 1 << i for i, t in enumerate(TILES)}
SET_SIZE = len(TILES)  # 136
SET_VALUE = sum(VALUES.values())  # 100


def is_tile(x: Any) -> bool:
    """True for a correctly spelled tile of the set ("5-3" and "3-16" are not tiles)."""
    return isinstance(x, str) and x in VALUES


def tiles_of(bits: int) -> frozenset[str]:
    """The tiles of a bit set."""
    return frozenset(t for t, bit in BIT.items() if bits & bit)


def bits_of(tiles: Any) -> int:
    """The bit set of some tiles."""
    out = 0
    for t in tiles:
        out |= BIT[t]
    return out


def value(tile: str) -> int:
    return VALUES[tile]


def matches(t: str, u: str) -> bool:
    """Two tiles match when they share at least one end number."""
    a, b = ENDS[t]
    c, d = ENDS[u]
    return a == c or a == d or b == c or b == d


def sort_key(tile: str) -> tuple[int, int]:
    return ENDS[tile]
