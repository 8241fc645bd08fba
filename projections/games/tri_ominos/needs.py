"""What the open cells ask for, so that "does any tile of this hand fit anywhere" (asked on every draw
and pass) is one pass over the open cells and a few set lookups per tile, instead of a scan of every
open cell × tile × rotation.

A cell's *need* is what its covered corners read, clockwise from the apex, up to rotation:
- three covered corners: the three numbers, in their least rotation (a tile reads the same way);
- two (the usual open cell, sharing one edge): the ordered pair clockwise from the first covered
  corner after the uncovered one;
- one or none (never for an open cell, which shares an edge; kept so the answer stays exact): the
  single number, or `()`.
A tile fits the cell in some rotation exactly when the cell's need is one of the tile's `offers`: its
least rotation, its three clockwise pairs, its numbers, and `()`.

A set of needs is kept as an int with one bit per possible need (`bit`): small to keep, and "does this
tile meet one of them" is one `&`. The rules keep the needs of a board in the state from the first draw
or pass on it until the next placement, so a turn's draws and the passes after them ask the board once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from projections.games.tri_ominos.grid import Cell, Point, corners
from projections.games.tri_ominos.tiles import ALL_TILES, numbers

Need = tuple[int, ...]
Needs = int  # a set of needs, one bit each (see `bit`)


def _least_rotation(a: int, b: int, c: int) -> Need:
    return min((a, b, c), (b, c, a), (c, a, b))


def cell_need(values: Mapping[Point, int], cell: Cell) -> Need:
    """What a tile on `cell` must read at its covered corners (see the module's docstring)."""
    p0, p1, p2 = corners(cell)
    get = values.get
    v0, v1, v2 = get(p0), get(p1), get(p2)
    if v0 is None:
        if v1 is None:
            return () if v2 is None else (v2,)
        return (v1,) if v2 is None else (v1, v2)
    if v1 is None:
        return (v0,) if v2 is None else (v2, v0)
    if v2 is None:
        return (v0, v1)
    return _least_rotation(v0, v1, v2)


# Every need there can be, numbered: (), the six numbers, the 36 ordered pairs, the least rotations.
_ALL_NEEDS = sorted(
    {(), *((a,) for a in range(6)), *((a, b) for a in range(6) for b in range(6))}
    | {_least_rotation(a, b, c) for a in range(6) for b in range(6) for c in range(6)},
    key=lambda need: (len(need), need),
)
_BIT = {need: 1 << i for i, need in enumerate(_ALL_NEEDS)}


def bit(need: Need) -> Needs:
    """The bit that stands for `need` in a set of needs."""
    return _BIT[need]


def open_needs(values: Mapping[Point, int], open_cells: Iterable[Cell]) -> Needs:
    """The needs of the open cells: `cell_need` of each, spelled out here."""
    get = values.get
    found = 0
    for cell in open_cells:
        p0, p1, p2 = corners(cell)
        v0, v1, v2 = get(p0), get(p1), get(p2)
        if v0 is not None and v1 is not None and v2 is not None:
            found |= _BIT[min((v0, v1, v2), (v1, v2, v0), (v2, v0, v1))]
        elif v0 is None and v1 is not None and v2 is not None:
            found |= _BIT[(v1, v2)]
        elif v1 is None and v2 is not None and v0 is not None:
            found |= _BIT[(v2, v0)]
        elif v2 is None and v0 is not None and v1 is not None:
            found |= _BIT[(v0, v1)]
        else:
            found |= _BIT[cell_need(values, cell)]  # one covered corner or none: not an open cell's case
    return found


@lru_cache(maxsize=64)
def offers(tile: str) -> tuple[Need, ...]:
    """Every need the tile meets in one of its rotations."""
    a, b, c = numbers(tile)
    found: list[Need] = []
    for need in (_least_rotation(a, b, c), (a, b), (b, c), (c, a), (a,), (b,), (c,), ()):
        if need not in found:
            found.append(need)
    return tuple(found)


_OFFERED = {tile: sum(bit(need) for need in offers(tile)) for tile in ALL_TILES}


def any_fits(needs: Needs, tiles: Iterable[str]) -> bool:
    """Whether one of `tiles` meets one of `needs`."""
    return any(needs & _OFFERED[tile] for tile in tiles)
