r"""The triangular grid of Tri-Ominos, exactly as RULES.md §1 "Grid" defines it.

Cells are `(q, r)` with r growing upward; a cell points up when q + r is even. Lattice points are
`(x, y)` with x + y odd. The cells around [0, 0] (up ▲ / down ▼) and their corner points:

    y=2       (-1,2)-------(1,2)
               /  \        /  \
              /    \[0,1] /    \
             /[-1,1]\  ▼ / [1,1]\
            /   ▲    \  /   ▲    \
    y=1 (-2,1)-------(0,1)-------(2,1)
             \ [-1,0] / \ [1,0]  /
              \  ▼   /   \  ▼   /
               \    /[0,0]\    /
                \  /   ▲   \  /
    y=0        (-1,0)-------(1,0)

    up [0, 0]:   corners top (0, 1), bottom-right (1, 0), bottom-left (-1, 0)
    down [1, 0]: corners bottom (1, 0), top-left (0, 1), top-right (2, 1)

Corner order is always clockwise from the apex (the top of an up cell, the bottom of a down cell),
the order a placement's `corners` list uses.
"""

from __future__ import annotations

from functools import lru_cache

Cell = tuple[int, int]
Point = tuple[int, int]


def is_up(cell: Cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


@lru_cache(maxsize=8192)
def corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The cell's corner points clockwise from the apex: up = top, bottom-right, bottom-left;
    down = bottom, top-left, top-right."""
    q, r = cell
    if is_up(cell):
        return ((q, r + 1), (q + 1, r), (q - 1, r))
    return ((q, r), (q - 1, r + 1), (q + 1, r + 1))


@lru_cache(maxsize=8192)
def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing an edge (two corners) with `cell`."""
    q, r = cell
    return ((q - 1, r), (q + 1, r), (q, r - 1) if is_up(cell) else (q, r + 1))


@lru_cache(maxsize=8192)
def cells_around(point: Point) -> tuple[Cell, ...]:
    """The six cells that meet at `point` (a hexagon when all are occupied)."""
    x, y = point
    return ((x - 1, y), (x, y), (x + 1, y), (x - 1, y - 1), (x, y - 1), (x + 1, y - 1))


@lru_cache(maxsize=8192)
def touching_cells(cell: Cell) -> frozenset[Cell]:
    """Every other cell sharing at least one corner point with `cell` (12 of them)."""
    return frozenset(c for p in corners(cell) for c in cells_around(p)) - {cell}


@lru_cache(maxsize=8192)
def point_neighbours(cell: Cell) -> frozenset[Cell]:
    """The cells that touch `cell` only at a single point (9 of them), not along an edge."""
    return touching_cells(cell) - set(edge_neighbours(cell))


@lru_cache(maxsize=8192)
def opposite_corner(cell: Cell, neighbour: Cell) -> Point:
    """The corner of `cell` not on the edge it shares with the edge-neighbour `neighbour`."""
    shared = set(corners(neighbour))
    (point,) = [p for p in corners(cell) if p not in shared]
    return point


def is_point(point: Point) -> bool:
    return (point[0] + point[1]) % 2 == 1
