"""The boards drawn for a phone as well as a laptop: Tri-Ominos' corner numbers inside their tiles and apart,
ranges that fit what is drawn, the pad's targets large and off the placed tiles, the panels' wording, Hi-Spot's
orientations as 3×3 grids and the header's menu."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

from dashboard.boards import board_figure, board_module, choice_face, hats_off, player_lines, tri_ominos
from dashboard.header import LINKS, header
from dashboard.model import build_position, choices
from projections.registry import GAME_NAMES, get_game
from projections.timeline import Fold, fold_dicts
from recorder.demo import PLAYERS

Point = tuple[float, float]


def fold_of(game: str, seed: int = 2, players: int = 4) -> Fold:
    return fold_dicts(get_game(game).random_match(random.Random(seed), PLAYERS[:players]))


def board_at(fold: Fold, seq: int) -> dict[str, Any]:
    return fold.game.to_json(fold.state_at(seq))  # type: ignore[no-any-return]


def biggest_tri_ominos_board(seed: int) -> dict[str, Any]:
    fold = fold_of("tri-ominos", seed)
    return max((board_at(fold, s) for s in range(1, fold.seq + 1)), key=lambda b: len(b["board"]))


def trace(fig: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in fig["data"] if t.get("name") == name)


def inside(p: Point, triangle: list[Point], margin: float = 0.0) -> bool:
    """Whether `p` lies in `triangle`, at least `margin` from each of its sides."""
    for i in range(3):
        (ax, ay), (bx, by), (cx, cy) = triangle[i], triangle[(i + 1) % 3], triangle[(i + 2) % 3]
        side = math.dist((ax, ay), (bx, by))
        cross = ((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)) / side  # signed distance to the side a→b
        third = ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / side
        if cross * math.copysign(1, third) < margin:
            return False
    return True


# -- Tri-Ominos' numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tri_ominos_numbers_lie_inside_their_tiles_and_never_meet(seed: int) -> None:
    board = biggest_tri_ominos_board(seed)
    assert len(board["board"]) >= 30
    fig = board_figure("tri-ominos", board, [(p["id"], p["name"]) for p in board["players"]], reveal=True)
    numbers = trace(fig, "corners")
    points = list(zip(numbers["x"], numbers["y"], strict=True))
    x, y = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    scale = tri_ominos.px_per_unit(x[1] - x[0], y[1] - y[0])  # pixels per unit on a phone
    font = numbers["textfont"]["size"]
    digit = 0.7 * font / scale  # a digit's half diagonal, about, in units
    for i, tile in enumerate(board["board"]):
        triangle = [tri_ominos.point_xy(p) for p in tile["points_at"]]
        for j in range(3):
            assert inside(points[3 * i + j], triangle, margin=digit / 2), (tile["cell"], j)
    closest = min(math.dist(a, b) for a, b in itertools.combinations(points, 2))
    assert closest >= 0.55  # a triangle's side is 2: the numbers at a shared corner are 0.58 apart
    assert closest * scale >= 1.2 * font  # on a phone's screen too, with room for the digits


# -- ranges that fit what is drawn --------------------------------------------------------------------


def drawn_points(fig: dict[str, Any]) -> list[Point]:
    return [(px, py) for t in fig["data"] if t.get("mode") in ("lines", "markers", "markers+text")
            for px, py in zip(t["x"], t["y"], strict=True) if px is not None and py is not None]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_ranges_hold_the_board_with_a_small_margin(game: str, players: int) -> None:
    fold = fold_of(game, 3, players)
    board = board_at(fold, fold.seq * 2 // 3)
    fig = board_figure(game, board, fold.players, reveal=False, **fold.game.board_extras(fold.event(1).data))
    (x0, x1), (y0, y1) = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    points = drawn_points(fig)
    assert all(x0 <= px <= x1 and y0 <= py <= y1 for px, py in points)
    spare_x = (x1 - x0) - (max(p[0] for p in points) - min(p[0] for p in points))
    spare_y = (y1 - y0) - (max(p[1] for p in points) - min(p[1] for p in points))
    # Tight across or up and down (the other may be widened to keep the frame's shape a phone's), unless the
    # table is nearly empty (Tri-Ominos' first tiles are drawn at the size of a few).
    small = game == "tri-ominos" and x1 - x0 <= tri_ominos.MIN_SPAN + 1e-9
    assert small or min(spare_x / (x1 - x0), spare_y / (y1 - y0)) <= 0.2, (spare_x, spare_y)
    assert fig["layout"]["yaxis"]["scaleanchor"] == "x" and fig["layout"]["meta"]["board"] == [[x0, x1], [y0, y1]]
    assert 0.4 <= (x1 - x0) / (y1 - y0) <= 2.05  # the shape suits a phone held upright or a laptop


def test_tri_ominos_frame_is_no_taller_than_five_to_three_nor_wider_than_two_to_one() -> None:
    for board in (biggest_tri_ominos_board(0), {"board": [], "open_cells": [[0, 0]]}):
        mid_x, mid_y, span_x, span_y = tri_ominos._viewport(board)  # noqa: SLF001
        assert 0.6 - 1e-9 <= span_x / span_y <= 2 + 1e-9 and span_x >= tri_ominos.MIN_SPAN


def test_hats_off_areas_stand_two_by_two() -> None:
    fold = fold_of("hats-off", 2, 4)
    board = board_at(fold, fold.seq // 2)
    fig = hats_off.figure(board, fold.players, True)
    areas = [t for t in fig["data"] if str(t.get("name", "")).endswith("'s area")]
    lefts = sorted({min(v for v in t["x"] if v is not None) for t in areas})
    bottoms = sorted({min(v for v in t["y"] if v is not None) for t in areas})
    assert len(areas) == 4 and len(lefts) == 2 and len(bottoms) == 2
    titles = [t for t in trace(fig, "labels")["text"] if t.startswith("<b>")]
    assert all("<br>this round " in t and " · total " in t for t in titles)


# -- the pad's targets ---------------------------------------------------------------------------------


def positions_with_board_steps(game: str, seed: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(board, values) of the positions of a match where the pad's next step is a place on the board."""
    fold = fold_of(game, seed, 3)
    found = []
    for seq in range(2, fold.seq, 3):
        at = fold.at(seq)
        position = build_position("m", at)
        for move in position.moves:
            path = [s.value for s in move.path]
            kinds = [s.kind for s in move.path]
            if "board" in kinds:
                picked = choices(position, path[:kinds.index("board")])
                if picked.board_values:
                    found.append((at.game.to_json(at.state), picked.board_values))
                break
        if len(found) >= 6:
            break
    assert found, game
    return found


@pytest.mark.parametrize("game", GAME_NAMES)
def test_targets_are_large_and_leave_the_placed_tiles_in_sight(game: str) -> None:
    module = board_module(game)
    for board, values in positions_with_board_steps(game, 5):
        drawn = module.targets(board, values)
        taps = [t for t in drawn if t.get("customdata")]
        assert len(taps) == 1 and sorted(taps[0]["customdata"]) == sorted(
            v for v in values if v in taps[0]["customdata"])
        sizes = taps[0]["marker"]["size"]
        assert min(sizes if isinstance(sizes, list) else [sizes]) >= 44  # a finger's target on a phone
        for t in drawn:  # nothing opaque over the board: outlines, a tinted empty cell or an invisible marker
            if t["mode"] == "markers" and t["marker"].get("opacity") != 0:
                assert game == "hats-off" and "0.35" in t["marker"]["color"]  # a hole's or a hat's ring
        if game == "tri-ominos":
            placed = {tuple(t["cell"]) for t in board["board"]}
            cells = [tuple(int(v) for v in value.split(",")) for value in taps[0]["customdata"]]
            assert not placed & set(cells)
            shapes = trace({"data": drawn}, "target cells")
            path = list(zip(shapes["x"], shapes["y"], strict=True))
            for k, cell in enumerate(cells):  # each target's triangle strictly inside its own, empty cell
                triangle = [tri_ominos.point_xy(p) for p in tri_ominos.cell_points(cell)]
                corners = path[k * 5:k * 5 + 4]
                assert all(inside(p, triangle, margin=0.05) for p in corners)
        if game == "hi-spot":
            assert trace({"data": drawn}, "target frames")["line"]["dash"] == "dash"


# -- the panels' words ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_NAMES)
def test_before_the_first_round_no_round_zero(game: str) -> None:
    fold = fold_of(game, 1, 3)
    info = player_lines(game, board_at(fold, 1), reveal=False)[""]
    assert not any(word.endswith(" 0") for word in info), info
    later = player_lines(game, board_at(fold, fold.seq // 2), reveal=False)[""]
    assert later and later[0].split()[0] in ("round", "game")


def test_hats_off_panel_says_this_round() -> None:
    fold = fold_of("hats-off", 3, 3)
    board = board_at(fold, 20)
    lines = player_lines("hats-off", board, reveal=False)
    for p in board["players"]:
        assert f"this round {p['round_points']}" in lines[p["id"]]
    assert lines[""][0] == f"round {board['round']}"


# -- Hi-Spot's orientations, the header ------------------------------------------------------------------


def test_an_orientation_is_drawn_as_a_three_by_three_grid() -> None:
    face = choice_face("●·● ·●· ●●●")
    assert face.className == "dots-grid" and face.role == "img"
    assert [c.className for c in face.children] == ["dot on", "dot", "dot on", "dot", "dot on", "dot",
                                                     "dot on", "dot on", "dot on"]
    assert choice_face("T12 · 4 dots") == "T12 · 4 dots" and choice_face("section 5") == "section 5"


def test_the_header_is_a_brand_a_menu_and_who_is_signed_in() -> None:
    top = header()
    brand, menu, who = top.children
    assert brand.href == "/" and who.id == "whoami"
    summary, nav = menu.children
    assert type(menu).__name__ == "Details" and type(summary).__name__ == "Summary"
    assert getattr(summary, "aria-label") == "Menu"
    assert [link.id for link in nav.children[:-1]] == [key for _, _, key in LINKS]
    assert nav.children[-1].href == "/docs"
