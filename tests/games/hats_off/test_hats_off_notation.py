"""Hats Off on the scorepad: every event as a line and back, the click path to every legal move, the lines
refused with their reason, and the clickable places drawn on the board."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from typing import Any

import pytest

from dashboard.boards import hats_off as board_module
from projections.errors import IllegalEvent
from projections.games.hats_off import GAME, State
from projections.games.hats_off.notation import pad_path, parse, to_notation
from projections.notation import legal_moves, parse_line
from projections.timeline import Fold, fold_dicts
from tests.support.examples import example_names, load_example

NAMES = ["ann", "bo", "cy", "di"]
# Ids the line must still read: ending in a digit (`p19` is hole 9 of p1's area), or spelled like a keyword.
AWKWARD = ["p1", "end", "move", "in"]


def players(ids: list[str]) -> list[dict[str, str]]:
    return [{"id": i, "name": i.title()} for i in ids]


def random_log(seed: int, ids: list[str], target: int = 40) -> list[dict[str, Any]]:
    return GAME.random_match(random.Random(seed), players(ids), {"target_score": target})


def check_round_trip(log: list[dict[str, Any]]) -> int:
    fold = fold_dicts(log)
    for seq, event in enumerate(log[1:], start=2):
        before = fold.state_at(seq - 1)
        line = to_notation(event)
        assert line == " ".join(line.split()), line
        assert parse(before, line) == {"type": event["type"], "data": event["data"]}, line
    return len(log) - 1


def test_round_trip_over_the_example_logs() -> None:
    names = example_names("hats-off")
    assert len(names) == 2
    for name in names:
        log, _ = load_example(name)
        types = {e["type"] for e in log[1:]}
        assert types == {"round_started", "hat_launched", "hats_off_called", "hat_moved", "round_ended"}
        assert check_round_trip(log) > 40


@pytest.mark.parametrize(("seed", "ids"), [(1, NAMES[:2]), (2, NAMES[:3]), (3, NAMES), (4, AWKWARD), (5, AWKWARD[:3])])
def test_round_trip_over_random_matches(seed: int, ids: list[str]) -> None:
    # Hats Off has no hidden information: every hat lands in plain sight, so there are no hidden draws to write.
    log = random_log(seed, ids)
    assert check_round_trip(log) > 20


def state_of(*lines: dict[str, Any], ids: list[str] = NAMES[:2]) -> State:
    start = {"type": "match_started", "data": {"game": "hats-off", "players": players(ids)}}
    state: State = fold_dicts([start, *lines]).state
    return state


def launch(player: str, hat: int, to: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "hat_launched", "data": {"player": player, "hat": hat, "to": to, **extra}}


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("round ann", {"type": "round_started", "data": {"caller": "ann"}}),
        ("ann 4 ann9", launch("ann", 4, {"hole": {"area": "ann", "number": 9}})),
        ("bo 3 in ann1", launch("bo", 3, {"in_hat": {"player": "ann", "hat": 1}})),
        ("bo 3 board", launch("bo", 3, "board")),
        ("bo 3 off flying", launch("bo", 3, "off", in_flight=True)),
        ("bo 3 in ann1 landed", launch("bo", 3, {"in_hat": {"player": "ann", "hat": 1}}, in_flight=False)),
        ("hatsoff bo ann", {"type": "hats_off_called", "data": {"players": ["bo", "ann"]}}),
        ("move ann 1 bo7", {"type": "hat_moved", "data": {"player": "ann", "hat": 1,
                                                           "to": {"hole": {"area": "bo", "number": 7}}}}),
        ("end", {"type": "round_ended", "data": {}}),
    ],
)
def test_each_form_reads_and_writes_back(line: str, event: dict[str, Any]) -> None:
    state = state_of()
    assert parse(state, line) == event
    assert to_notation(event) == line


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("ROUND ann", {"type": "round_started", "data": {"caller": "ann"}}),
        ("ann 4 IN bo2 Flying", launch("ann", 4, {"in_hat": {"player": "bo", "hat": 2}}, in_flight=True)),
        ("ann 4 Off", launch("ann", 4, "off")),
        ("HATS OFF ann", {"type": "hats_off_called", "data": {"players": ["ann"]}}),
        ("Move bo 2 BOARD", {"type": "hat_moved", "data": {"player": "bo", "hat": 2, "to": "board"}}),
        ("End", {"type": "round_ended", "data": {}}),
    ],
)
def test_small_typing_variations(line: str, event: dict[str, Any]) -> None:
    assert parse_line(GAME, state_of(), f"  {line} ") == event


def test_player_ids_that_end_in_a_digit_or_read_like_keywords() -> None:
    state = state_of(ids=["p1", "end", "move"])
    assert parse(state, "p1 2 p19") == launch("p1", 2, {"hole": {"area": "p1", "number": 9}})
    assert parse(state, "end 2 in p13") == launch("end", 2, {"in_hat": {"player": "p1", "hat": 3}})
    assert parse(state, "move 1 end4") == launch("move", 1, {"hole": {"area": "end", "number": 4}})
    assert parse(state, "move move 1 end4")["type"] == "hat_moved"
    assert parse(state, "end") == {"type": "round_ended", "data": {}}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("al 4 ann9", "unknown player 'al'; players: ann, bo"),
        ("Ann 4 ann9", "unknown player 'Ann' (player ids are matched exactly: ann)"),
        ("xyz", "unknown player or keyword 'xyz'"),
        ("ann", "ann: which hat, and where did it land"),
        ("ann 7 ann9", "ann 7: hats are numbered 1–6, not 7"),
        ("ann x ann9", "the hat is a number 1–6, not 'x'"),
        ("ann 4", "ann 4: where did the hat land"),
        ("ann 4 ann", "'ann' names a player but no hole: write the hole after it, ann9"),
        ("ann 4 ann0", "holes are numbered 1–9, not 0 in 'ann0'"),
        ("ann 4 ann10", "holes are numbered 1–9, one digit after the player: not 10"),
        ("ann 4 ann 9", "write the hole joined to its area, ann9"),
        ("ann 4 al9", "ann 4: unknown player 'al'"),
        ("ann 4 hole", "'hole' is not a place"),
        ("ann 4 in", "in which hat"),
        ("ann 4 in bo", "'bo' names a player but no hat"),
        ("ann 4 in bo7", "hats are numbered 1–6, not 7 in 'bo7'"),
        ("ann 4 ann9 twice", "unexpected 'twice' after the place 'ann9'"),
        ("ann 4 flying", "where did the hat land before 'flying'"),
        ("round", "round names the one player who calls READY-SET-GO: round ann"),
        ("round al", "round: unknown player 'al'"),
        ("hatsoff", "hatsoff names who called HATS OFF"),
        ("hatsoff ann al", "hatsoff: unknown player 'al'"),
        ("move ann 4", "move needs the knocked hat's player and number"),
        ("move ann 4 bo9 flying", "'flying' is for launches only"),
        ("end now", "end (the round is over) takes nothing more, not 'now'"),
    ],
)
def test_lines_refused_with_their_reason(line: str, reason: str) -> None:
    with pytest.raises(IllegalEvent, match=re.escape(reason)):
        parse_line(GAME, state_of(), line)


# --- the click path ------------------------------------------------------------------------------------------


def sampled_positions() -> list[tuple[Fold[Any], int]]:
    out = []
    for seed, ids in ((7, NAMES[:2]), (8, NAMES[:3]), (9, ["p1", "end", "in"])):
        log = random_log(seed, ids, target=30)
        fold = fold_dicts(log)
        out += [(fold, seq) for seq in range(1, len(log) + 1, 3)]
    return out


def check_paths(moves: list[dict[str, Any]]) -> None:
    paths: dict[tuple[str, ...], dict[str, Any]] = {}
    steps_at: dict[tuple[str, ...], dict[str, tuple[str, str]]] = defaultdict(dict)
    for move in moves:
        path = pad_path(move)
        assert 1 <= len(path) <= 4, move
        values = tuple(step.value for step in path)
        assert values not in paths, (move, paths.get(values))
        paths[values] = move
        for depth, step in enumerate(path):
            assert step.kind in ("action", "hand", "board", "option")
            assert step.value and step.label
            # A value names one choice at its level: same kind and label wherever the prefix is the same.
            seen = steps_at[values[:depth]].setdefault(step.value, (step.kind, step.label))
            assert seen == (step.kind, step.label), (values, step)
    # No path stops where another goes on: the pad knows the move once the last step is chosen.
    for values in paths:
        assert not any(other[: len(values)] == values and other != values for other in paths), values


def test_every_legal_move_reads_back_and_has_its_own_path() -> None:
    kinds: set[str] = set()
    checked = 0
    for fold, seq in sampled_positions():
        state = fold.state_at(seq)
        moves = legal_moves(GAME, state, [pid for pid, _ in fold.players])
        for move in moves:
            assert parse_line(GAME, state, move["notation"]) == {"type": move["type"], "data": move["data"]}
            kinds.add(move["type"] + ("+flying" if move["data"].get("in_flight") else "")
                      + ("+late" if move.get("counts") is False else ""))
        check_paths(moves)
        checked += len(moves)
    assert kinds == {"round_started", "hat_launched", "hat_launched+flying", "hat_launched+late", "hats_off_called",
                     "hat_moved", "round_ended"}
    assert checked > 5_000


def test_the_paths_as_the_pad_shows_them() -> None:
    assert pad_path({"type": "round_started", "data": {"caller": "ann"}})[0].value == "round"
    assert [(s.kind, s.value, s.label) for s in pad_path(launch("ann", 4, {"hole": {"area": "bo", "number": 9}}))] == [
        ("hand", "ann 4", "Ann 4"), ("board", "bo9", "Bo hole 9")]
    nest = {**launch("bo", 1, {"in_hat": {"player": "ann", "hat": 5}}, in_flight=True), "counts": True}
    assert [(s.kind, s.value) for s in pad_path(nest)] == [("hand", "bo 1"), ("option", "flying"), ("board", "in ann5")]
    late = {**launch("bo", 2, {"in_hat": {"player": "ann", "hat": 6}}), "counts": False}
    assert [(s.kind, s.value) for s in pad_path(late)] == [("hand", "bo 2"), ("option", "late"), ("option", "in ann6")]
    called = {"type": "hats_off_called", "data": {"players": ["ann", "bo"]}}
    assert [(s.kind, s.value, s.label) for s in pad_path(called)] == [
        ("action", "hatsoff", "HATS OFF"), ("option", "ann bo", "Ann + Bo")]
    moved = {"type": "hat_moved", "data": {"player": "ann", "hat": 1, "to": "off"}}
    assert [(s.kind, s.value, s.label) for s in pad_path(moved)] == [
        ("action", "move", "Knocked hat"), ("board", "ann 1", "Ann 1"), ("option", "off", "Off the board")]
    assert [s.value for s in pad_path({"type": "round_ended", "data": {}})] == ["end"]


def test_labels_fit_a_phone_button() -> None:
    for fold, seq in sampled_positions()[::4]:
        for move in legal_moves(GAME, fold.state_at(seq), [pid for pid, _ in fold.players]):
            assert all(len(step.label) <= 14 for step in pad_path(move)), pad_path(move)


# --- the board's targets -------------------------------------------------------------------------------------


def mid_match() -> tuple[Fold[Any], State]:
    """A position inside a round with a stack of two hats in a hole and hats on and off the board."""
    fold = fold_dicts(random_log(3, NAMES[:3]))
    for seq in range(1, fold.seq + 1):
        board = GAME.to_json(fold.state_at(seq))
        if board["round_in_progress"] and any(len(h["stack"]) > 1 for h in board["holes"]) and any(
            h["to"] in ("board", "off") for h in board["hats"]
        ):
            return fold, fold.state_at(seq)
    raise AssertionError("no such position")


def board_values(state: State, ids: list[str], first: tuple[str, ...] = ()) -> list[str]:
    """The "board" values the pad offers after the choices `first`."""
    values = []
    for move in legal_moves(GAME, state, ids):
        path = pad_path(move)
        if tuple(s.value for s in path[: len(first)]) == first and len(path) > len(first):
            step = path[len(first)]
            if step.kind == "board" and step.value not in values:
                values.append(step.value)
    return values


def hat_xy(figure: dict[str, Any], name: str, hat: int) -> tuple[float, float]:
    hats = next(t for t in figure["data"] if t["name"] == "hats")
    i = next(i for i, h in enumerate(hats["customdata"]) if h.startswith(f"{name}'s hat {hat}:"))
    return hats["x"][i], hats["y"][i]


def test_targets_mark_each_board_value_where_the_figure_draws_it() -> None:
    fold, state = mid_match()
    ids = [pid for pid, _ in fold.players]
    names = dict(fold.players)
    board = GAME.to_json(state)
    figure = board_module.figure(board, fold.players, True)
    holes = next(t for t in figure["data"] if t["name"] == "holes")
    hole_xy = {f"{pid}{n}": (holes["x"][i * 9 + n - 1], holes["y"][i * 9 + n - 1])
               for i, pid in enumerate(ids) for n in range(1, 10)}
    hand = next(p for p in board["players"] if p["hats_in_hand"])
    choices = [
        board_values(state, ids, (f"{hand['id']} {hand['hats_in_hand'][0]}",)),  # holes and hats to nest in
        board_values(state, ids, ("move",)),  # the hats that may be knocked
    ]
    assert any(v.startswith("in ") for v in choices[0]) and any(v[-1].isdigit() and " " not in v for v in choices[0])
    for values in choices:
        rings, trace = board_module.targets(board, values)  # the drawn rings, then the invisible tap markers
        assert trace["customdata"] == values and "customdata" not in rings
        assert (rings["x"], rings["y"]) == (trace["x"], trace["y"])
        assert len(trace["x"]) == len(trace["y"]) == len(trace["marker"]["size"]) == len(values)
        for value, x, y in zip(values, trace["x"], trace["y"], strict=True):
            if value.startswith("in "):
                owner, hat = value[3:-1], int(value[-1])
                assert (x, y) == hat_xy(figure, names[owner], hat)
            elif " " in value:
                owner, _, number = value.partition(" ")
                assert (x, y) == hat_xy(figure, names[owner], int(number))
            else:
                assert (x, y) == hole_xy[value]
    assert board_module.targets(board, []) == []
    assert board_module.targets(board, ["board", "off"]) == []


def test_every_board_choice_of_the_pad_is_drawn() -> None:
    """Whatever the prefix, each "board" value of the next step gets its point on the figure."""
    for fold, seq in sampled_positions()[::2]:
        state = fold.state_at(seq)
        board = GAME.to_json(state)
        by_prefix: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for move in legal_moves(GAME, state, [pid for pid, _ in fold.players]):
            path = pad_path(move)
            for depth, step in enumerate(path):
                prefix = tuple(s.value for s in path[:depth])
                if step.kind == "board" and step.value not in by_prefix[prefix]:
                    by_prefix[prefix].append(step.value)
        for values in by_prefix.values():
            _, trace = board_module.targets(board, values)
            assert trace["customdata"] == values
