"""Tri-Ominos on the scorepad: every event written as a line reads back as the same event, every legal
move has its line and a click path, a line not understood is refused with a reason, and the board marks
the cells a placement may go to (docs/scorepad.md "Tri-Ominos")."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

from dashboard.boards import board_figure
from dashboard.boards import tri_ominos as board
from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.tri_ominos import GAME, notation, player
from projections.notation import legal_moves, parse_line, to_notation
from projections.protocol import PadStep
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]
KINDS = ("action", "hand", "board", "option")


def _started(players: list[dict[str, str]] | None = None) -> Fold[Any]:
    data = {"game": "tri-ominos", "players": players or PLAYERS[:2]}
    return fold_dicts([{"type": "match_started", "data": data}])


def _random_log(seed: int, hidden: bool) -> list[dict[str, Any]]:
    players = PLAYERS[: 2 + seed % 2]
    return player.random_match(random.Random(seed), players, {"target_score": 150}, hidden=hidden)


def _read_back(log: list[dict[str, Any]]) -> int:
    """parse(state before, to_notation(event)) == event for every game event of `log`; how many."""
    fold = fold_dicts(log)
    count = 0
    for seq, line in enumerate(log[1:], start=2):
        event = {"type": line["type"], "data": line["data"]}
        text = notation.to_notation(event)
        assert text == " ".join(text.split()), text
        assert notation.parse(fold.state_at(seq - 1), text) == event, text
        assert parse_line(GAME, fold.state_at(seq - 1), text) == event, text
        count += 1
    return count


# --- read back -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tri-ominos-01", "tri-ominos-26"])
def test_the_example_logs_read_back(name: str) -> None:
    lines, _ = load_example(name)
    assert _read_back(lines) == len(lines) - 1


@pytest.mark.parametrize("hidden", [False, True], ids=["seen", "hidden"])
@pytest.mark.parametrize("seed", range(6))
def test_random_matches_read_back(seed: int, hidden: bool) -> None:
    log = _random_log(seed, hidden)
    types = {line["type"] for line in log}
    assert {"tiles_dealt", "tile_placed", "tile_drawn"} <= types
    if hidden:
        assert any(line["type"] == "tile_drawn" and line["data"]["tile"] is None for line in log)
    assert _read_back(log) == len(log) - 1


def test_every_event_type_is_written_and_read() -> None:
    lines, _ = load_example("tri-ominos-26")
    fold = fold_dicts(lines)
    written = {line["type"]: notation.to_notation(line) for line in lines[1:]}
    assert set(written) == GAME.event_types
    assert written["hands_revealed"] == "reveal ann - | bo 0-1-4 1-2-5 4-4-4"
    assert written["tiles_dealt"] == "deal bo ? ? ? ? ? ? ? ? ?"
    assert written["round_started"] == "round"
    example_01, _ = load_example("tri-ominos-01")
    assert notation.to_notation(example_01[189]) == "ann 0-0-0 @0,0 000 show 4-4-4"
    assert notation.to_notation(example_01[5]) == "ann 2-5-5 @-1,0 525"
    assert notation.to_notation({"type": "tile_drawn", "data": {"player": "bo", "tile": None}}) == "bo draw ?"
    assert notation.to_notation({"type": "turn_passed", "data": {"player": "bo"}}) == "bo pass"
    assert notation.parse(fold.state, "reveal") == {"type": "hands_revealed", "data": {"hands": {}}}
    with pytest.raises(ValueError, match="no notation for 'hat_launched'"):
        notation.to_notation({"type": "hat_launched", "data": {}})


# --- legal moves and their click paths -----------------------------------------------------------


def _check_paths(moves: list[dict[str, Any]]) -> None:
    """Every path non-empty, of known kinds, short labels; a value means one thing at its level; no two
    moves share a full path and no path is the beginning of another."""
    paths = [GAME.pad_path(m) for m in moves]
    choices: dict[tuple[str, ...], dict[str, PadStep]] = defaultdict(dict)
    for move, path in zip(moves, paths, strict=True):
        assert path and len(path) <= 4, move
        for depth, step in enumerate(path):
            assert step.kind in KINDS and step.value and step.label and len(step.label) <= 14, step
            prefix = tuple(s.value for s in path[:depth])
            assert choices[prefix].setdefault(step.value, step) == step, (prefix, step)
    full = [tuple(s.value for s in p) for p in paths]
    assert len(set(full)) == len(full)
    for a in full:
        assert not any(b != a and b[: len(a)] == a for b in full), a


def _sampled_positions() -> list[tuple[Fold[Any], int]]:
    positions = []
    for log in (*(load_example(n)[0] for n in ("tri-ominos-01", "tri-ominos-26")), _random_log(3, False)):
        fold = fold_dicts(log)
        positions += [(fold, seq) for seq in range(1, fold.seq + 1)]
    return positions


def test_every_legal_move_has_its_line_and_a_path() -> None:
    kinds: set[str] = set()
    checked = 0
    for fold, seq in _sampled_positions():
        state = fold.state_at(seq)
        moves = legal_moves(GAME, state, [pid for pid, _ in fold.players])
        for move in moves:
            event = {"type": move["type"], "data": move["data"]}
            assert notation.parse(state, move["notation"]) == event, move["notation"]
            kinds.add(move["type"])
            checked += 1
        _check_paths(moves)
    assert kinds == {"tile_placed", "tile_drawn", "turn_passed"}
    assert checked > 500


def test_the_paths_of_each_move_kind() -> None:
    place = {"type": "tile_placed", "data": {"player": "ann", "tile": "2-5-5", "cell": [-1, 0], "corners": [5, 2, 5]}}
    assert GAME.pad_path(place) == (
        PadStep("hand", "2-5-5", "2-5-5"),
        PadStep("board", "-1,0", "@-1,0"),
        PadStep("option", "525", "525"),
    )
    draw = {"type": "tile_drawn", "data": {"player": "ann", "tile": None}}
    assert GAME.pad_path(draw) == (PadStep("action", "draw", "draw"),)
    known = {"type": "tile_drawn", "data": {"player": "ann", "tile": "1-3-4"}}
    assert GAME.pad_path(known) == (PadStep("action", "draw", "draw"), PadStep("option", "1-3-4", "1-3-4"))
    assert GAME.pad_path({"type": "turn_passed", "data": {"player": "ann"}}) == (PadStep("action", "pass", "pass"),)
    assert GAME.pad_path({"type": "round_started", "data": {}}) == (PadStep("action", "round", "new round"),)
    assert GAME.pad_path({"type": "hands_revealed", "data": {"hands": {}}}) == ()


def test_a_zero_start_that_may_show_a_triple_has_a_choice_for_each() -> None:
    lines, _ = load_example("tri-ominos-01")
    fold = fold_dicts(lines)
    seq = next(s for s in range(1, fold.seq + 1) if fold.event(s).data.get("shown"))
    state = fold.state_at(seq - 1)
    moves = legal_moves(GAME, state, [pid for pid, _ in fold.players])
    readings = {GAME.pad_path(m)[2].value for m in moves if m["data"]["tile"] == "0-0-0"}
    assert {"000", "000 show 4-4-4"} <= readings
    _check_paths(moves)
    recorded = {"type": "tile_placed", "data": fold.event(seq).data}
    assert any(notation.parse(state, m["notation"]) == recorded for m in moves)


def test_the_turn_is_the_to_move_key() -> None:
    lines, _ = load_example("tri-ominos-01")
    fold = fold_dicts(lines[:10])
    key = GAME.descriptor.to_move_key
    assert key == "turn"
    to_move = GAME.to_json(fold.state)[key]
    moves = legal_moves(GAME, fold.state, [pid for pid, _ in fold.players])
    assert moves and {m["data"]["player"] for m in moves} == {to_move}


# --- lines typed at the table --------------------------------------------------------------------


def _mid_round() -> Fold[Any]:
    lines, _ = load_example("tri-ominos-01")
    return fold_dicts(lines[:5])  # Bo started with 5-5-5 at [0, 0]; Ann to play


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("Round", {"type": "round_started", "data": {}}),
        ("ann 5-2-5 @ -1, 0 5-2-5", {"type": "tile_placed", "data": {"player": "ann", "tile": "2-5-5",
                                                                      "cell": [-1, 0], "corners": [5, 2, 5]}}),
        ("ann 2-5-5 -1,0 5 2 5", {"type": "tile_placed", "data": {"player": "ann", "tile": "2-5-5",
                                                                   "cell": [-1, 0], "corners": [5, 2, 5]}}),
        ("ann 2-5-5 @(-1,0) 525", {"type": "tile_placed", "data": {"player": "ann", "tile": "2-5-5",
                                                                    "cell": [-1, 0], "corners": [5, 2, 5]}}),
        ("ann 3-3-3 @2,-4", {"type": "tile_placed", "data": {"player": "ann", "tile": "3-3-3",
                                                              "cell": [2, -4], "corners": [3, 3, 3]}}),
        ("ann 0-0-0 @0,0 SHOW 4-4-4", {"type": "tile_placed", "data": {"player": "ann", "tile": "0-0-0",
                                                                        "cell": [0, 0], "corners": [0, 0, 0],
                                                                        "shown": "4-4-4"}}),
        ("ann DRAW", {"type": "tile_drawn", "data": {"player": "ann", "tile": None}}),
        ("ann draw 4-3-1", {"type": "tile_drawn", "data": {"player": "ann", "tile": "1-3-4"}}),
        ("ann Pass", {"type": "turn_passed", "data": {"player": "ann"}}),
        ("Deal bo ? 0-0-0 ? ? ? ? ? ? ?", {"type": "tiles_dealt", "data": {"player": "bo",
                                                                         "tiles": [None, "0-0-0", *[None] * 7]}}),
        ("reveal ann -|bo 4-1-0", {"type": "hands_revealed", "data": {"hands": {"ann": [], "bo": ["0-1-4"]}}}),
    ],
)
def test_small_typing_variations_are_read(line: str, event: dict[str, Any]) -> None:
    assert notation.parse(_mid_round().state, line) == event


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("al 2-5-5 @-1,0 525", r"unknown player 'al'; players: ann, bo"),
        ("Ann pass", r"unknown player 'Ann'; players: ann, bo \(ids are written exactly: ann\)"),
        ("ann 2-6-5 @-1,0 525", r"2-6-5 is not a Tri-Ominos tile: the numbers run from 0 to 5"),
        ("ann 2-5 @-1,0 525", r"'2-5' is not a tile; write its three numbers a-b-c"),
        ("ann 2-5-5 @-1,0", r"ann 2-5-5 @-1,0: the corners are missing, e.g. 525 or 255 or 552"),
        ("ann 2-5-5", r"where\? write the cell and the corners"),
        ("ann 2-5-5 @x 525", r"'@x' is not a cell; write it @q,r"),
        ("ann 2-5-5 @-1,0 52", r"'52' are not corners; write the three numbers apex first"),
        ("ann 2-5-5 @-1,0 526", r"corner numbers run from 0 to 5 \(got 526\)"),
        ("ann 2-5-5 @-1,0 525 now", r"'now' is not understood after the corners; only show <tile> may follow"),
        ("ann 0-0-0 @0,0 000 show", r"show names one tile"),
        ("ann ? @-1,0 525", r"name the tile placed"),
        ("ann draw 1-3-4 2-2-2", r"one tile per draw line"),
        ("ann draw x", r"'x' is not a tile"),
        ("ann pass now", r"a pass is just ann pass"),
        ("ann plays", r"after the player comes a placement .* 'plays' is none of these"),
        ("ann", r"what did ann do\?"),
        ("draw ?", r"whose draw\? write the player first, e.g. ann draw"),
        ("2-5-5 @-1,0 525", r"who placed it\? write the player first, e.g. ann 2-5-5 @-1,0 525"),
        ("round 2", r"round takes nothing after it"),
        ("deal", r"deal: whose deal\?"),
        ("deal cy ? ? ? ? ? ? ? ? ?", r"deal: unknown player 'cy'"),
        ("deal bo", r"deal bo: the tiles are missing"),
        ("deal bo 1-2-3 - ? ? ? ? ? ? ?", r"deal bo: '-' is not a tile"),
        ("reveal ann - | ann 1-2-3", r"ann's hand is revealed twice"),
        ("reveal ann ? ?", r"every revealed tile is named"),
        ("reveal bo", r"reveal bo: the tiles are missing \(write bo - for an empty hand\)"),
        ("reveal ann - 1-2-3", r"- stands alone for an empty hand"),
        ("reveal ann - | | bo -", r"an empty part between \|"),
        ("hello", r"unknown player 'hello'; players: ann, bo \(or start the line with round, deal or reveal\)"),
    ],
)
def test_lines_not_understood_are_refused_with_a_reason(line: str, reason: str) -> None:
    with pytest.raises(IllegalEvent, match=reason):
        notation.parse(_mid_round().state, line)


def test_an_empty_line_is_refused() -> None:
    with pytest.raises(IllegalEvent, match="type a move"):
        notation.parse(_mid_round().state, "  ")


def test_the_corners_missing_name_the_readings_that_fit_first() -> None:
    # Ann's 2-5-5 at [-1, 0] beside Bo's 5-5-5: only 525 carries 5s at the two shared corners.
    with pytest.raises(IllegalEvent, match=r"e\.g\. 525 or"):
        notation.parse(_mid_round().state, "ann 2-5-5 @-1,0")


def test_the_reducer_still_judges_a_well_read_line() -> None:
    fold = _mid_round()
    event = parse_line(GAME, fold.state, "ann 2-5-5 @-1,0 552")  # read: the reading does not fit
    with pytest.raises(IllegalEvent, match="corner"):
        GAME.apply(fold.state, Event(fold.seq + 1, event["type"], event["data"]))


def test_players_named_like_keywords_keep_their_lines() -> None:
    fold = _started([{"id": "round", "name": "R"}, {"id": "deal", "name": "D"}])
    state = fold.state
    assert notation.parse(state, "round") == {"type": "round_started", "data": {}}
    assert notation.parse(state, "round draw ?") == {"type": "tile_drawn", "data": {"player": "round", "tile": None}}
    assert notation.parse(state, "deal pass") == {"type": "turn_passed", "data": {"player": "deal"}}
    dealt = {"type": "tiles_dealt", "data": {"player": "round", "tiles": [None] * 9}}
    assert notation.parse(state, to_notation(GAME, dealt)) == dealt
    dealt = {"type": "tiles_dealt", "data": {"player": "deal", "tiles": [None] * 9}}
    assert notation.parse(state, to_notation(GAME, dealt)) == dealt
    placed = {"type": "tile_placed", "data": {"player": "deal", "tile": "5-5-5", "cell": [0, 0], "corners": [5, 5, 5]}}
    assert notation.parse(state, to_notation(GAME, placed)) == placed


# --- the board's targets -------------------------------------------------------------------------


def _board_values(moves: list[dict[str, Any]]) -> list[str]:
    values: list[str] = []
    for move in moves:
        for step in GAME.pad_path(move):
            if step.kind == "board" and step.value not in values:
                values.append(step.value)
    return values


def test_targets_mark_each_cell_at_the_figure_s_cell_centre() -> None:
    log = _random_log(4, False)
    fold = fold_dicts(log)
    seq = next(
        s
        for s in range(fold.seq // 2, fold.seq)
        if len(_board_values(legal_moves(GAME, fold.state_at(s), [p for p, _ in fold.players]))) >= 2
    )
    state = fold.state_at(seq)
    json = GAME.to_json(state)
    values = _board_values(legal_moves(GAME, state, [p for p, _ in fold.players]))
    cells, trace = board.targets(json, values)  # the gold triangles drawn, then the invisible tap markers
    assert trace["customdata"] == values and all(isinstance(v, str) for v in values)
    assert len(trace["x"]) == len(trace["y"]) == len(values)
    assert trace["marker"]["size"] >= 44 and trace["marker"]["opacity"] == 0
    assert "customdata" not in cells and cells["x"].count(None) == len(values)  # one closed triangle a cell
    fig = board_figure("tri-ominos", json, fold.players, reveal=False)
    xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    open_cells = {f"{q},{r}" for q, r in json["open_cells"]}
    for value, x, y in zip(values, trace["x"], trace["y"], strict=True):
        assert value in open_cells
        q, r = (int(n) for n in value.split(","))
        corners = [board.point_xy(p) for p in board.cell_points((q, r))]
        centre = (sum(c[0] for c in corners) / 3, sum(c[1] for c in corners) / 3)
        assert (x, y) == pytest.approx(centre)
        assert xr[0] < x < xr[1] and yr[0] < y < yr[1]
        # the drawn target is the cell's triangle shrunk about its centre: within the cell, off its edges
        tx, ty = board.target_path((q, r))
        for px, py in zip(tx, ty, strict=True):
            assert min(c[0] for c in corners) < px < max(c[0] for c in corners)
            assert min(c[1] for c in corners) < py < max(c[1] for c in corners)
            drawn = zip(cells["x"], cells["y"], strict=True)
            assert any(px == pytest.approx(cx) and py == pytest.approx(cy) for cx, cy in drawn)
    # The figure's placed triangles use the same corners as the targets' cells.
    for tile in json["board"]:
        assert [list(p) for p in board.cell_points(tile["cell"])] == tile["points_at"]


def test_the_first_tile_s_target_lies_on_the_empty_table() -> None:
    lines, _ = load_example("tri-ominos-01")
    fold = fold_dicts(lines[:4])  # every hand dealt, nothing placed yet
    json = GAME.to_json(fold.state)
    values = _board_values(legal_moves(GAME, fold.state, [p for p, _ in fold.players]))
    assert values == ["0,0"]
    fig = board_figure("tri-ominos", json, fold.players, reveal=False)
    assert fig["data"] == [] and "No tile" in fig["layout"]["annotations"][0]["text"]
    _, trace = board.targets(json, values)
    x, y = trace["x"][0], trace["y"][0]
    xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    assert xr[0] < x < xr[1] and yr[0] < y < yr[1]
    assert board.targets(json, []) == []
