"""Hi-Spot's scorepad notation: every event written as a line reads back as itself, every legal move
has a line and a click path, a line that is not understood is refused with what is wrong, and the
board marks the sections a click path offers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from dashboard.boards.hi_spot import figure, targets
from projections.errors import IllegalEvent
from projections.games.hi_spot import GAME
from projections.games.hi_spot.notation import pad_path, parse, to_notation
from projections.notation import legal_moves, parse_line
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}, {"id": "di"}]
KINDS = ("action", "hand", "board", "option")


def _random_logs() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    cases: list[tuple[int, int, dict[str, Any], float]] = [
        (1, 2, {"target_score": 80}, 0.0),
        (2, 3, {"target_score": 80, "allow_flip": False}, 0.0),
        (3, 4, {"target_score": 60, "clear_full_stacks": True}, 0.0),
        (4, 2, {"target_score": 80}, 0.4),  # some draws unseen, racks revealed at the round's end
        (5, 3, {"target_score": 60}, 1.0),  # every draw unseen
        (6, 4, {"target_score": 60, "clear_full_stacks": True, "allow_flip": False}, 0.5),
    ]
    for seed, n, options, hidden in cases:
        log = GAME.random_match(random.Random(seed), PLAYERS[:n], options, hidden=hidden)  # type: ignore[call-arg]
        yield f"seed {seed}", log


LOGS = [(name, load_example(name)[0]) for name in ("hi-spot-01", "hi-spot-26")] + list(_random_logs())


def _states(log: list[dict[str, Any]]) -> Iterator[tuple[Fold[Any], int, dict[str, Any]]]:
    fold = fold_dicts(log)
    for seq, event in enumerate(log[1:], start=2):
        yield fold, seq, event


@pytest.mark.parametrize(("name", "log"), LOGS, ids=[n for n, _ in LOGS])
def test_every_event_reads_back_as_itself(name: str, log: list[dict[str, Any]]) -> None:
    types = set()
    for fold, seq, event in _states(log):
        before = fold.state_at(seq - 1)
        line = to_notation(event)
        assert line == " ".join(line.split()), line
        assert parse(before, line) == {"type": event["type"], "data": event["data"]}, line
        assert parse_line(GAME, before, line) == {"type": event["type"], "data": event["data"]}
        types.add(event["type"])
    assert {"tile_placed", "tiles_drawn", "turn_ended", "first_player_drawn", "round_started"} <= types


def test_the_logs_cover_every_event_type_and_hidden_tiles() -> None:
    seen = {e["type"] for _, log in LOGS for e in log[1:]}
    assert seen == GAME.event_types
    lines = [to_notation(e) for _, log in LOGS for e in log[1:]]
    assert any(" ? " in f" {line} " and "draw" in line for line in lines)
    assert any("exchange" in line and "?" in line for line in lines)
    assert any(line.startswith("reveal ") for line in lines)


def test_the_lines_are_written_as_the_spec_says() -> None:
    lines = [to_notation(e) for e in load_example("hi-spot-01")[0][1:12]]
    assert lines[:6] == [
        "round",
        "first ann=T13 bo=T08",
        "ann draw T34 T13 T08 T41 T18",
        "bo draw T24 T29 T52 T14 T32",
        "ann T08 9:7",
        "ann draw T53",
    ]
    assert lines[6:8] == ["ann end", "bo T52 5:24678"]
    assert to_notation({"type": "round_ended", "data": {"reason": "blocked"}}) == "blocked"
    assert (
        to_notation(
            {"type": "tiles_exchanged", "data": {"player": "bo", "returned": ["T55", None], "drawn": [None, "T05"]}}
        )
        == "bo exchange T55 ? for ? T05"
    )
    racks = {"ann": ["T10", "T26"], "bo": []}
    assert to_notation({"type": "racks_revealed", "data": {"racks": racks}}) == "reveal ann T10 T26 | bo -"
    assert (
        to_notation(
            {"type": "tile_placed", "data": {"player": "bo", "tile": "T52", "section": 5, "dots": [8, 2, 4, 6, 7]}}
        )
        == "bo T52 5:82467"
    )


def _sampled_positions() -> Iterator[tuple[Fold[Any], Any]]:
    for _, log in LOGS:
        fold = fold_dicts(log)
        for seq in range(1, fold.seq + 1, 3):
            yield fold, fold.state_at(seq)


def test_every_legal_move_has_a_line_and_a_click_path() -> None:
    moves_seen = 0
    kinds: set[str] = set()
    for fold, state in _sampled_positions():
        moves = legal_moves(GAME, state, [pid for pid, _ in fold.players])
        full_paths: set[tuple[str, ...]] = set()
        choice: dict[tuple[tuple[str, ...], str], tuple[str, str]] = {}
        for move in moves:
            assert parse(state, move["notation"]) == {"type": move["type"], "data": move["data"]}
            path = pad_path(move)
            assert 1 <= len(path) <= 4, move
            values = tuple(step.value for step in path)
            assert values not in full_paths, f"two moves share the path {values}"
            full_paths.add(values)
            for i, step in enumerate(path):
                assert step.kind in KINDS and step.value and step.label
                assert len(step.label) <= 14, step.label
                if step.kind == "board":
                    assert step.value in {str(s) for s in range(1, 10)}
                # a value means one choice at its level: same kind, same label
                assert choice.setdefault((values[:i], step.value), (step.kind, step.label)) == (step.kind, step.label)
            kinds.add(move["type"])
            moves_seen += 1
        # no path is the beginning of another: the pad knows when one move is left
        for values in full_paths:
            assert not any(other != values and other[: len(values)] == values for other in full_paths)
    assert moves_seen > 1000
    assert {"tile_placed", "tiles_drawn", "turn_ended", "tiles_exchanged", "round_ended"} <= kinds


def test_a_placement_is_rack_tile_then_section_then_orientation() -> None:
    move = {"type": "tile_placed", "data": {"player": "bo", "tile": "T52", "section": 5, "dots": [2, 4, 6, 7, 8]}}
    path = pad_path(move)
    assert [(s.kind, s.value) for s in path] == [("hand", "T52"), ("board", "5"), ("option", "24678")]
    assert path[0].label == "T52 · 5 dots"
    assert path[2].label == "··● ·●· ●●●"  # the dots as they lie, row by row
    assert pad_path({"type": "turn_ended", "data": {"player": "bo"}})[0].value == "end"
    draws = [pad_path({"type": "tiles_drawn", "data": {"player": p, "tiles": [None] * 5}})[0] for p in ("ann", "bo")]
    assert draws[0].value != draws[1].value and draws[0].label == "ann: draw 5"


def _mid_play_state() -> Any:
    log = load_example("hi-spot-01")[0]
    return fold_dicts(log[:8]).state  # Ann's first turn is over; Bo to place


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("ROUND", {"type": "round_started", "data": {}}),
        ("Blocked", {"type": "round_ended", "data": {"reason": "blocked"}}),
        (
            "bo t52 5:24678",
            {"type": "tile_placed", "data": {"player": "bo", "tile": "T52", "section": 5, "dots": [2, 4, 6, 7, 8]}},
        ),
        (
            "bo T52 5 2,4,6,7,8",
            {"type": "tile_placed", "data": {"player": "bo", "tile": "T52", "section": 5, "dots": [2, 4, 6, 7, 8]}},
        ),
        (
            "bo  T52   5:86742",
            {"type": "tile_placed", "data": {"player": "bo", "tile": "T52", "section": 5, "dots": [8, 6, 7, 4, 2]}},
        ),
        ("bo DRAW t5 ?", {"type": "tiles_drawn", "data": {"player": "bo", "tiles": ["T05", None]}}),
        ("bo draw", {"type": "tiles_drawn", "data": {"player": "bo", "tiles": []}}),
        ("bo End", {"type": "turn_ended", "data": {"player": "bo"}}),
        (
            "bo exchange T24,T29 FOR ? ?",
            {"type": "tiles_exchanged", "data": {"player": "bo", "returned": ["T24", "T29"], "drawn": [None, None]}},
        ),
        ("First ann=t13 bo=T08", {"type": "first_player_drawn", "data": {"draws": {"ann": "T13", "bo": "T08"}}}),
        ("reveal ann T10 T26|bo -", {"type": "racks_revealed", "data": {"racks": {"ann": ["T10", "T26"], "bo": []}}}),
    ],
)
def test_small_typing_variations_are_read(line: str, event: dict[str, Any]) -> None:
    assert parse_line(GAME, _mid_play_state(), line) == event


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("al end", "unknown player 'al'; players: ann, bo"),
        ("Bo end", "unknown player 'Bo'; players: ann, bo"),
        ("bo T99 5:24678", "unknown tile 'T99' (this set has T01–T56)"),
        ("bo drew T05", "'drew' is neither a tile nor one of draw, exchange, end"),
        ("bo", "what did bo do? e.g. bo T52 5:24678"),
        ("bo T52", "the section and the dots are missing, e.g. bo T52 5:24678"),
        ("bo T52 5", "the dots are missing: the positions 0–8 the tile covers"),
        ("bo T52 5:", "the dots are missing"),
        ("bo T52 10:24678", "section 10: the tray's sections are 1–9"),
        ("bo T52 5:24679", "'9' is not a dot position; positions are 0–8"),
        ("bo T52 5:246 78", "'5:246' is not a section:dots|one section:dots"),
        ("bo T52 north", "'north' is not a section:dots"),
        ("bo ? 5:24678", "the tile placed must be written, not ?"),
        ("bo draw T05 X7", "unknown tile 'X7'"),
        ("bo exchange T24 T29", "the tiles drawn are missing: returned … for drawn …"),
        ("bo exchange for ?", "the tiles returned are missing"),
        ("bo exchange T24 for", "the tiles drawn are missing (? for one not seen)"),
        ("bo end now", "the end of a turn is just `bo end`"),
        ("round 2", "a new round is just `round`"),
        ("blocked now", "a blocked round is just `blocked`"),
        ("first ann T13 bo T08", "write each draw as player=tile, e.g. first ann=T13 bo=T08"),
        ("first", "each player's tile is missing"),
        ("first ann=T13 ann=T08", "ann is listed twice"),
        ("first al=T13 bo=T08", "unknown player 'al'"),
        ("reveal", "the racks are missing, e.g. reveal ann T10 T26 | bo -"),
        ("reveal ann T10 | bo", "bo's tiles are missing (- for an empty rack)"),
        ("reveal ann ? T10", "ann's revealed tiles must be written, not ?"),
        ("reveal ann T10 | ann T26", "ann's rack is listed twice"),
        ("reveal ann T10 || bo -", "an empty part between |"),
        ("hello world", "unknown player 'hello'; players: ann, bo (a line starts with a player or with round"),
    ],
)
def test_a_line_not_understood_is_refused_with_what_is_wrong(line: str, reason: str) -> None:
    with pytest.raises(IllegalEvent) as refused:
        parse_line(GAME, _mid_play_state(), line)
    message = refused.value.reason
    assert message.startswith(f"{' '.join(line.split())}: "), message
    assert any(part in message for part in reason.split("|")), message


def test_a_parsed_line_that_breaks_a_rule_is_the_reducers_to_refuse() -> None:
    state = _mid_play_state()
    event = parse(state, "bo T52 5:012")  # spelled right; T52 has five dots
    assert event["data"]["dots"] == [0, 1, 2]
    log = load_example("hi-spot-01")[0][:8]
    with pytest.raises(IllegalEvent, match="T52 has 5 dots, not 3"):
        fold_dicts([*log, event])


def test_players_named_like_keywords_keep_their_lines() -> None:
    start = {"game": "hi-spot", "players": [{"id": "round"}, {"id": "first"}]}
    state = fold_dicts([{"type": "match_started", "data": start}]).state
    assert parse(state, "round") == {"type": "round_started", "data": {}}
    assert parse(state, "round end") == {"type": "turn_ended", "data": {"player": "round"}}
    assert parse(state, "first draw T01 ?") == {
        "type": "tiles_drawn",
        "data": {"player": "first", "tiles": ["T01", None]},
    }
    assert parse(state, "first T01 3:4")["data"] == {"player": "first", "tile": "T01", "section": 3, "dots": [4]}
    assert parse(state, "first round=T01 first=T02") == {
        "type": "first_player_drawn", "data": {"draws": {"round": "T01", "first": "T02"}}}  # fmt: skip


def test_an_inline_tile_set_is_spelled_by_its_own_ids() -> None:
    tiles = [{"id": "A1", "dots": [0]}, {"id": "a01", "dots": [0, 1]}, {"id": "B2", "dots": [4]},
             {"id": "one", "dots": [1]}, {"id": "C3", "dots": [2, 3]}, {"id": "D4", "dots": [5]},
             {"id": "E5", "dots": [6]}, {"id": "F6", "dots": [7]}, {"id": "G7", "dots": [8]},
             {"id": "H8", "dots": [0, 8]}]  # fmt: skip
    start = {"game": "hi-spot", "players": [{"id": "ann"}, {"id": "bo"}], "options": {"tile_set": tiles}}
    state = fold_dicts([{"type": "match_started", "data": start}]).state
    assert parse(state, "ann draw ONE b2 A1 a01 7")["data"]["tiles"] == ["one", "B2", "A1", "a01", "G7"]
    with pytest.raises(IllegalEvent, match=r"unknown tile '1' \(this set has A1–one\)"):
        parse(state, "ann draw 1")  # A1 or a01: a bare number names no single tile


def test_the_descriptor_names_who_acts_next() -> None:
    assert GAME.descriptor.to_move_key == "to_act"
    state = _mid_play_state()
    assert GAME.to_json(state)["to_act"] == "bo"
    assert GAME.notation is to_notation and GAME.parse_notation is parse and GAME.pad_path is pad_path


def test_targets_mark_each_offered_section_at_its_centre() -> None:
    log = load_example("hi-spot-01")[0]
    board = GAME.to_json(fold_dicts(log[:30]).state)
    moves = legal_moves(GAME, fold_dicts(log[:30]).state, ["ann", "bo"])
    placements = [m for m in moves if m["type"] == "tile_placed"]
    assert placements
    tile = pad_path(placements[0])[0].value
    values = sorted({pad_path(m)[1].value for m in placements if pad_path(m)[0].value == tile})
    frames, taps = targets(board, values)  # the drawn frames, then the invisible tap markers
    assert "customdata" not in frames and taps["marker"]["opacity"] == 0
    points = list(zip(taps["x"], taps["y"], taps["customdata"], strict=True))
    assert [c for _, _, c in points] == values
    assert all(isinstance(c, str) for _, _, c in points)
    assert taps["marker"]["size"] >= 44
    # the centre of each section is its middle dot position (position 4) in the figure
    holes = next(t for t in figure(board, [("ann", "Ann"), ("bo", "Bo")], False)["data"] if t["name"] == "positions")
    for x, y, value in points:
        i = (int(value) - 1) * 9 + 4
        assert (x, y) == pytest.approx((holes["x"][i], holes["y"][i]))
    assert targets(board, []) == []
    assert len(targets(board, [str(s) for s in range(1, 10)])[1]["customdata"]) == 9
