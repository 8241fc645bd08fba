"""What the open cells ask for, counted by what they ask, so that "does any tile of this hand fit
anywhere" (asked on every draw and pass) is a few dictionary lookups instead of a scan of every open
cell × tile × rotation.

A cell's *need* is what its covered corners read, clockwise from the apex, up to rotation:
- three covered corners: the three numbers, in their least rotation (a tile reads the same way);
- two (the usual open cell, sharing one edge): the ordered pair clockwise from the first covered
  corner after the uncovered one;
- one or none (never for an open cell, which shares an edge; kept so the index stays exact): the
  single number, or `()`.
A tile fits the cell in some rotation exactly when the cell's need is one of the tile's `offers`: its
least rotation, its three clockwise pairs, its numbers, and `()`.

`NeedCounts` maps a need to the number of open cells asking it (never 0). A state keeps one and
`after_placement` returns a new one: a returned mapping is never changed, so every kept state stays valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from projections.games.tri_ominos.grid import Cell, Point, cells_around, corners, edge_neighbours
from projections.games.tri_ominos.tiles import ALL_TILES, numbers

Need = tuple[int, ...]
NeedCounts = Mapping[Need, int]


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


@lru_cache(maxsize=64)
def offers(tile: str) -> tuple[Need, ...]:
    """Every need the tile meets in one of its rotations."""
    a, b, c = numbers(tile)
    found: list[Need] = []
    for need in (_least_rotation(a, b, c), (a, b), (b, c), (c, a), (a,), (b,), (c,), ()):
        if need not in found:
            found.append(need)
    return tuple(found)


_OFFERED = {tile: frozenset(offers(tile)) for tile in ALL_TILES}


def any_fits(counts: NeedCounts, tiles: Iterable[str]) -> bool:
    """Whether one of `tiles` fits some open cell."""
    needed = counts.keys()
    return any(not needed.isdisjoint(_OFFERED[tile]) for tile in tiles)


def count_needs(values: Mapping[Point, int], open_cells: Iterable[Cell]) -> dict[Need, int]:
    """The counts from scratch (what `after_placement` keeps up to date; the tests compare the two)."""
    counts: dict[Need, int] = {}
    for cell in open_cells:
        need = cell_need(values, cell)
        counts[need] = counts.get(need, 0) + 1
    return counts


def after_placement(
    counts: NeedCounts,
    cell: Cell,
    old_values: Mapping[Point, int],
    new_values: Mapping[Point, int],
    old_open: frozenset[Cell],
    new_open: frozenset[Cell],
) -> dict[Need, int]:
    """The counts once a tile is on `cell`. Only two kinds of cells can change: `cell` and its edge
    neighbours (whether they are open), and the cells around a corner whose number is new (their need)."""
    out = dict(counts)
    changed = {cell, *edge_neighbours(cell)}
    for point in corners(cell):
        if old_values.get(point) != new_values.get(point):
            changed.update(cells_around(point))
    for c in changed:
        was, now = c in old_open, c in new_open
        before = cell_need(old_values, c) if was else None
        after = cell_need(new_values, c) if now else None
        if before == after:
            continue
        if before is not None:
            left = out[before] - 1
            if left:
                out[before] = left
            else:
                del out[before]
        if after is not None:
            out[after] = out.get(after, 0) + 1
    return out
