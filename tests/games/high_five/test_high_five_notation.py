"""High Five on the scorepad: every event written as a line reads back as the same event, every legal move
has its line and a click path, a line not understood is refused with a reason, and the board marks the
layout tiles a play may capture (docs/scorepad.md "High Five")."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from dashboard.boards import board_figure
from dashboard.boards import high_five as board
from projections.errors import IllegalEvent
from projections.games.high_five import GAME, notation
from projections.notation import legal_moves, parse_line, to_notation
from projections.protocol import PadStep
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example

PLAYERS = [{"id": p, "name": p.title()} for p in ("ann", "bo", "cy", "dee", "eli", "fay", "gus", "hal")]
KINDS = ("action", "hand", "board", "option")
Line = dict[str, Any]


def _started(ids: tuple[str, ...] = ("ann", "bo")) -> Fold[Any]:
    data = {"game": "high-five", "players": [{"id": i} for i in ids]}
    return fold_dicts([{"type": "match_started", "data": data}])


def _random_log(seed: int, n: int = 2, target: int = 40) -> list[Line]:
    return GAME.random_match(random.Random(seed), PLAYERS[:n], {"target_score": target})


def _hide(log: list[Line], *players: str) -> list[Line]:
    """`log` as recorded by someone who does not see the hands of `players` (dealt face down: `?`)."""
    out = []
    for line in log:
        if line["type"] == "hand_dealt":
            hands = {p: [None] * len(t) if p in players else t for p, t in line["data"]["hands"].items()}
            line = {"type": "hand_dealt", "data": {**line["data"], "hands": hands}}
        out.append(line)
    return out


def _read_back(log: list[Line]) -> int:
    """parse(state before, to_notation(event)) == event for every game event of `log`; how many."""
    fold = fold_dicts(log)
    assert fold.seq == len(log)  # the log is legal
    for seq, line in enumerate(log[1:], start=2):
        event = {"type": line["type"], "data": line["data"]}
        text = notation.to_notation(event)
        assert text == " ".join(text.split()), text
        assert notation.parse(fold.state_at(seq - 1), text) == event, text
        assert parse_line(GAME, fold.state_at(seq - 1), text) == event, text
    return len(log) - 1


# --- read back -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["high-five-01", "high-five-26"])
def test_the_example_logs_read_back(name: str) -> None:
    lines, _ = load_example(name)
    assert _read_back(lines) == len(lines) - 1


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_random_matches_read_back(seed: int) -> None:
    log = _random_log(seed, n=2 + seed % 7)
    types = Counter(line["type"] for line in log)
    assert _read_back(log) > 30
    assert types["tile_played"] and types["hand_dealt"]


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_random_matches_with_hands_dealt_face_down_read_back(seed: int) -> None:
    log = _hide(_random_log(seed, n=3), "bo", "cy")
    assert any(None in line["data"]["hands"]["bo"] for line in log if line["type"] == "hand_dealt")
    assert _read_back(log) > 30


def test_the_last_hand_writes_its_layout_and_every_form_reads_back() -> None:
    state = _started(("ann", "bo", "game")).state
    cases = [
        ({"type": "game_started", "data": {"layout": ["0-5", "1-4", "2-3", "6-9", "7-7"]}}, "game 0-5 1-4 2-3 6-9 7-7"),
        (
            {"type": "hand_dealt",
             "data": {"hands": {"ann": ["5-5", None], "bo": [None, None], "game": ["1-1", "2-2"]}}},
            "deal ann 5-5 ? | bo ? ? | game 1-1 2-2",
        ),
        (
            {"type": "hand_dealt", "data": {"hands": {"ann": ["5-5"], "bo": [None]}, "to_layout": ["12-15", "0-0"]}},
            "deal ann 5-5 | bo ? layout 12-15 0-0",
        ),
        ({"type": "hand_dealt", "data": {"hands": {"ann": ["5-5"]}, "to_layout": []}}, "deal ann 5-5 layout"),
        ({"type": "tile_played", "data": {"player": "ann", "tile": "5-5", "capture": None}}, "ann 5-5"),
        ({"type": "tile_played", "data": {"player": "bo", "tile": "12-13", "capture": "0-13"}}, "bo 12-13 x 0-13"),
        ({"type": "tile_played", "data": {"player": "game", "tile": "1-1", "capture": None}}, "game 1-1"),
        ({"type": "pair_claimed", "data": {"player": "ann", "tiles": ["7-7", "3-7"]}}, "ann claim 7-7 3-7"),
    ]
    for event, line in cases:
        assert notation.to_notation(event) == line
        assert notation.parse(state, line) == event, line


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("ann 9-2 X 05-0", {"type": "tile_played", "data": {"player": "ann", "tile": "2-9", "capture": "0-5"}}),
        ("ann 5-5 x0-5", {"type": "tile_played", "data": {"player": "ann", "tile": "5-5", "capture": "0-5"}}),
        ("bo CLAIM 3-7+7-7", {"type": "pair_claimed", "data": {"player": "bo", "tiles": ["3-7", "7-7"]}}),
        ("Game 5-0 4-1 3-2 9-6 7-7", {"type": "game_started", "data": {"layout": ["0-5", "1-4", "2-3", "6-9", "7-7"]}}),
        (
            "DEAL ann 5-5|bo ? LAYOUT 15-12",
            {"type": "hand_dealt", "data": {"hands": {"ann": ["5-5"], "bo": [None]}, "to_layout": ["12-15"]}},
        ),
    ],
)
def test_small_typing_variations_are_read(line: str, event: Line) -> None:
    assert parse_line(GAME, _started().state, line) == event


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("al 5-5", "unknown player 'al'; players: ann, bo"),
        ("Ann 5-5", "unknown player 'Ann'; players: ann, bo (player ids are matched exactly: ann)"),
        ("5-5 x 0-5", "a play starts with the player, e.g. ann 5-5"),
        ("ann 5-16", "'5-16' is not a High Five tile: the ends go from 0 to 15"),
        ("ann 55", "'55' is not a tile: write its two ends as a-b"),
        ("ann 5-5-5", "'5-5-5' is not a tile: write a-b with ends 0 to 15"),
        ("ann ?", "this tile is face up, write it"),
        ("ann", "say what ann did"),
        ("ann 5-5 x", "the captured layout tile is missing"),
        ("ann 5-5 x 0-5 1-5", "one tile is captured at a time"),
        ("ann 5-5 0-5", "after the tile only `x <layout tile>` (a capture) may follow"),
        ("ann claim 3-7", "a claim names the two tiles of the pair (1 given)"),
        ("ann claim 3-7 7-7 7-8", "a claim names the two tiles of the pair (3 given)"),
        ("game 0-5 1-4 2-3 6-9", "game: name the 5 layout tiles (4 given)"),
        ("game", "game: name the 5 layout tiles (none given)"),
        ("game 0-5 1-4 2-3 6-9 7-17", "'7-17' is not a High Five tile"),
        ("deal", "deal: name each player's hand"),
        ("deal al 5-5", "deal: unknown player 'al'; players: ann, bo"),
        ("deal ann 5-5 | ann 6-6", "deal: ann's hand is written twice"),
        ("deal ann | bo 5-5", "deal: no tiles for ann"),
        ("deal ann 5-5 |", "a hand is missing after the last `|`"),
        ("deal ann 5-5 | | bo 6-6", "a hand is missing between two `|`"),
        ("deal ann 5-5 layout 1-1 | bo 6-6", "`layout …` comes last"),
        ("deal ann 5-5 | bo 6-6 layout ?", "the tiles turned into the layout are face up"),
        ("deal ann 5-5 | bo 6-x", "deal (bo): '6-x' is not a tile"),
    ],
)
def test_lines_not_understood_are_refused_with_a_reason(line: str, reason: str) -> None:
    with pytest.raises(IllegalEvent) as refused:
        parse_line(GAME, _started().state, line)
    assert reason in str(refused.value)


# --- legal moves and their click paths -----------------------------------------------------------


def _positions(log: list[Line], every: int) -> list[tuple[Fold[Any], int]]:
    fold = fold_dicts(log)
    return [(fold, seq) for seq in range(2, len(log) + 1, every)]


def _check_moves(fold: Fold[Any], seq: int) -> Counter[str]:
    """Every legal move at `seq`: its line reads back as its event; click paths short, readable, distinct."""
    state = fold.state_at(seq)
    ids = [pid for pid, _ in fold.players]
    moves = legal_moves(GAME, state, ids)
    assert len(moves) == sum(len(GAME.legal_moves(state, pid)) for pid in ids)  # no two moves share a line
    steps: dict[tuple[str, ...], PadStep] = {}  # (values so far) -> the step: one step per value per level
    paths: set[tuple[str, ...]] = set()
    for move in moves:
        assert parse_line(GAME, state, move["notation"]) == {"type": move["type"], "data": move["data"]}
        path = GAME.pad_path(move)
        assert 1 <= len(path) <= 4 and all(step.kind in KINDS for step in path), path
        assert all(len(step.label) <= 15 for step in path), path  # "10-15+15-15 +12" is the longest
        values = tuple(step.value for step in path)
        for k, step in enumerate(path):
            assert steps.setdefault(values[: k + 1], step) == step, (values, steps[values[: k + 1]], step)
        assert values not in paths, values
        paths.add(values)
    assert not any(p[:k] in paths for p in paths for k in range(1, len(p)))  # no path ends inside another
    return Counter(move["type"] for move in moves)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_every_legal_move_has_a_line_and_a_click_path(seed: int) -> None:
    checked = sum((_check_moves(f, s) for f, s in _positions(_random_log(seed, 2 + seed % 3, 100), every=2)), Counter())
    assert checked["tile_played"] > 300 and checked["pair_claimed"] > 3


def test_legal_moves_from_hands_dealt_face_down_have_short_steps() -> None:
    log = _hide(_random_log(14, n=3), "bo")
    fold = fold_dicts(log)
    seqs = [seq for seq in range(2, len(log)) if GAME.to_json(fold.state_at(seq))["to_play"] == "bo"][:4]
    assert seqs
    for seq in seqs:
        assert _check_moves(fold, seq)["tile_played"] > 100
        state = fold.state_at(seq)
        moves = legal_moves(GAME, state, ["bo"])
        # No step offers more than 16 buttons: the hidden tile's lower end first, then the tile.
        for prefix_len in range(4):
            groups: dict[tuple[str, ...], set[str]] = {}
            for move in moves:
                path = GAME.pad_path(move)
                if len(path) > prefix_len:
                    key = tuple(s.value for s in path[:prefix_len])
                    groups.setdefault(key, set()).add(path[prefix_len].value)
            assert all(len(v) <= 16 + 1 or k == () for k, v in groups.items()), prefix_len


def test_the_paths_of_a_play_a_capture_and_a_claim() -> None:
    play = {"type": "tile_played", "data": {"player": "ann", "tile": "5-5", "capture": None}}
    capture = {"type": "tile_played", "data": {"player": "ann", "tile": "5-5", "capture": "0-5"}}
    hidden = {**capture, "hidden": True}
    claim = {"type": "pair_claimed", "data": {"player": "bo", "tiles": ["3-7", "7-7"]}}
    assert notation.pad_path(play) == (PadStep("hand", "5-5", "5-5"), PadStep("option", "none", "no capture"))
    assert notation.pad_path(capture) == (PadStep("hand", "5-5", "5-5"), PadStep("board", "0-5", "x 0-5 +4"))
    assert [s.value for s in notation.pad_path(hidden)] == ["?", "5-", "5-5", "0-5"]
    assert notation.pad_path(claim) == (
        PadStep("action", "claim", "claim a pair"),
        PadStep("option", "3-7+7-7", "3-7+7-7 +3"),
        PadStep("option", "bo", "bo claims"),
    )


def test_a_pair_both_players_may_claim_is_told_apart_by_the_claimer() -> None:
    lines = [
        {"type": "game_started", "data": {"layout": ["0-5", "1-4", "2-3", "6-9", "7-7"]}},
        {"type": "hand_dealt", "data": {"hands": {"ann": ["3-7", "8-8", "9-9", "10-10", "11-11"],
                                                  "bo": ["12-12", "13-13", "14-14", "15-15", "0-0"]}}},
        {"type": "tile_played", "data": {"player": "ann", "tile": "3-7", "capture": None}},  # misses 2-3 and 7-7
        {"type": "tile_played", "data": {"player": "bo", "tile": "12-12", "capture": None}},
    ]
    fold = fold_dicts([{"type": "match_started", "data": {"game": "high-five", "players": PLAYERS[:2]}}, *lines])
    claims = [m for m in legal_moves(GAME, fold.state, ["ann", "bo"]) if m["type"] == "pair_claimed"]
    # Bo, who just played, and Ann, to play, may both claim either pair Ann left.
    assert sorted(m["notation"] for m in claims) == [
        "ann claim 2-3 3-7", "ann claim 3-7 7-7", "bo claim 2-3 3-7", "bo claim 3-7 7-7"]
    paths = {tuple(s.value for s in GAME.pad_path(m)) for m in claims}
    assert paths == {("claim", a, p) for a in ("2-3+3-7", "3-7+7-7") for p in ("ann", "bo")}
    assert _check_moves(fold, fold.seq) == {"pair_claimed": 4, "tile_played": 5}


def test_the_descriptor_names_who_plays_next() -> None:
    fold = fold_dicts(_random_log(15)[:6])
    key = GAME.descriptor.to_move_key
    assert key == "to_play"
    assert GAME.to_json(fold.state)[key] in {"ann", "bo"}


# --- the board's targets -------------------------------------------------------------------------


def test_targets_mark_the_layout_tiles_a_play_may_capture() -> None:
    log = _random_log(16)
    fold = fold_dicts(log)
    seq = next(s for s in range(len(log) // 2, len(log)) if len(GAME.to_json(fold.state_at(s))["layout"]) > 3
               and GAME.to_json(fold.state_at(s))["to_play"] is not None)
    state = fold.state_at(seq)
    json = GAME.to_json(state)
    values = json["layout"][1:4] + ["none", "15-16"]
    traces = board.targets(json, values)
    points = [t for t in traces if "customdata" in t]
    assert len(points) == 1
    assert points[0]["customdata"] == json["layout"][1:4]  # one point per layout tile; other values skipped
    # Each point sits on its tile: where figure() puts the tile's numbers (which also carry the tile).
    figure = board_figure("high-five", json, fold.players, False, **GAME.board_extras(fold.event(1).data))
    hover = next(t for t in figure["data"] if t.get("name") == "ends")
    where = {c: (x, y) for x, y, c in zip(hover["x"], hover["y"], hover["customdata"], strict=True) if c}
    assert set(where) == set(json["layout"])
    for x, y, value in zip(points[0]["x"], points[0]["y"], points[0]["customdata"], strict=True):
        assert where[value] == pytest.approx((x, y))
    assert board.targets(json, []) == [] and board.targets(json, ["none"]) == []


def test_the_capture_step_values_are_the_targets() -> None:
    log = _random_log(17)
    fold = fold_dicts(log)
    for seq in range(10, len(log), 9):
        state = fold.state_at(seq)
        json = GAME.to_json(state)
        if json["to_play"] is None:
            continue
        moves = legal_moves(GAME, state, [json["to_play"]])
        for tile in {m["data"]["tile"] for m in moves if m["type"] == "tile_played"}:
            step = [GAME.pad_path(m)[1] for m in moves if m["type"] == "tile_played" and m["data"]["tile"] == tile]
            values = [s.value for s in step if s.kind == "board"]
            assert set(values) <= set(json["layout"])
            marked = [p for t in board.targets(json, values) if "customdata" in t for p in t["customdata"]]
            assert marked == values


def test_every_event_written_by_the_shared_writer() -> None:
    lines, _ = load_example("high-five-26")
    assert {to_notation(GAME, line).split()[0] for line in lines[1:3]} == {"game", "deal"}
