r"""The triangular grid of RULES.md §1, pinned cell by cell.

A worked picture of the cells around [0, 0] and their corner points (x + y odd):

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

[0, 0] points up (0 + 0 even): apex (0, 1), then clockwise (1, 0), (-1, 0).
[1, 0] points down (1 + 0 odd): apex (1, 0) at the bottom, then clockwise (0, 1), (2, 1).
[0, 0] and [1, 0] share the edge (0, 1)-(1, 0); the six cells around (0, 1) are
[-1,1] [0,1] [1,1] (above) and [-1,0] [0,0] [1,0] (below).
"""

from __future__ import annotations

import itertools

import pytest

from projections.games.tri_ominos.grid import (
    cells_around,
    corners,
    edge_neighbours,
    is_point,
    is_up,
    opposite_corner,
    point_neighbours,
    touching_cells,
)

SAMPLE_CELLS = [(q, r) for q in range(-3, 4) for r in range(-3, 4)]


def test_up_and_down() -> None:
    assert is_up((0, 0)) and is_up((1, 1)) and is_up((-1, 1)) and is_up((2, -2))
    assert not is_up((1, 0)) and not is_up((0, 1)) and not is_up((-1, 0)) and not is_up((0, -1))


def test_corners_of_an_up_cell_clockwise_from_the_top() -> None:
    assert corners((0, 0)) == ((0, 1), (1, 0), (-1, 0))  # top, bottom-right, bottom-left
    assert corners((2, -2)) == ((2, -1), (3, -2), (1, -2))


def test_corners_of_a_down_cell_clockwise_from_the_bottom() -> None:
    assert corners((1, 0)) == ((1, 0), (0, 1), (2, 1))  # bottom, top-left, top-right
    assert corners((0, 1)) == ((0, 1), (-1, 2), (1, 2))
    assert corners((-1, 0)) == ((-1, 0), (-2, 1), (0, 1))


@pytest.mark.parametrize("cell", SAMPLE_CELLS)
def test_corners_are_lattice_points_and_run_clockwise(cell: tuple[int, int]) -> None:
    pts = corners(cell)
    assert all(is_point(p) for p in pts)
    # Shoelace area with y up: negative means clockwise. x spacing is 2 per side, y 1 per row;
    # a positive scaling of either axis keeps the sign.
    (x1, y1), (x2, y2), (x3, y3) = pts
    area2 = (x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)
    assert area2 < 0
    apex = pts[0]
    others = pts[1:]
    if is_up(cell):
        assert all(apex[1] > p[1] for p in others)  # the apex is the top
    else:
        assert all(apex[1] < p[1] for p in others)  # the apex is the bottom


def test_edge_neighbours() -> None:
    assert edge_neighbours((0, 0)) == ((-1, 0), (1, 0), (0, -1))  # up: left, right, below
    assert edge_neighbours((1, 0)) == ((0, 0), (2, 0), (1, 1))  # down: left, right, above


@pytest.mark.parametrize("cell", SAMPLE_CELLS)
def test_edge_neighbours_share_exactly_two_corners(cell: tuple[int, int]) -> None:
    for n in edge_neighbours(cell):
        assert len(set(corners(n)) & set(corners(cell))) == 2
        assert is_up(n) != is_up(cell)
        assert cell in edge_neighbours(n)


def test_six_cells_around_a_point() -> None:
    assert cells_around((0, 1)) == ((-1, 1), (0, 1), (1, 1), (-1, 0), (0, 0), (1, 0))
    for p in [(0, 1), (1, 0), (-3, 2), (2, -1)]:
        around = cells_around(p)
        assert len(set(around)) == 6
        assert all(p in corners(c) for c in around)


def test_point_neighbours_touch_at_one_point_only() -> None:
    near = point_neighbours((0, 0))
    assert len(near) == 9
    assert (0, 1) in near and (1, 1) in near and (2, 0) in near and (-1, -1) in near
    assert not near & set(edge_neighbours((0, 0)))
    for c in near:
        assert len(set(corners(c)) & set(corners((0, 0)))) == 1
    assert touching_cells((0, 0)) == near | set(edge_neighbours((0, 0)))
    # and nothing else on the grid touches [0, 0]
    for c in itertools.product(range(-4, 5), range(-4, 5)):
        shared = set(corners(c)) & set(corners((0, 0)))
        assert (c in touching_cells((0, 0))) == (bool(shared) and c != (0, 0))


def test_opposite_corner() -> None:
    assert opposite_corner((0, 0), (0, -1)) == (0, 1)  # the bottom edge faces the apex
    assert opposite_corner((0, 0), (1, 0)) == (-1, 0)
    assert opposite_corner((1, 0), (1, 1)) == (1, 0)
