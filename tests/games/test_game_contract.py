"""Every registered game provides every part the project needs (docs/ADDING_A_GAME.md's checklist).

Fast, no browser: a fifth game that forgets its board, a label, an example or its docs fails here."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from dashboard.boards import board_figure, board_module, player_lines
from projections.errors import IllegalEvent
from projections.notation import legal_moves as notation_moves
from projections.notation import parse_line, to_notation
from projections.registry import GAME_NAMES, all_games, game_title, get_game
from projections.schemas import COMMON_EVENTS, game_schema, game_summary, unknown_fields
from projections.scores import scores_json
from projections.stats import match_facts
from projections.timeline import fold_dicts
from tests.support.games import assert_states_hold_only_their_fields
from tests.support.paths import DOCS

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]


def test_the_registry_lists_each_game_once_under_its_own_name() -> None:
    assert [g.name for g in all_games()] == list(GAME_NAMES)
    assert len({game_title(n) for n in GAME_NAMES}) == len(GAME_NAMES)
    with pytest.raises(IllegalEvent, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_descriptor_is_complete(name: str) -> None:
    game = get_game(name)
    d = game.descriptor
    assert d.title and 1 <= d.min_players <= d.max_players
    assert set(game.handlers) == d.event_types, "a handler for every event schema, and no other"
    assert not d.event_types & {spec.type for spec in COMMON_EVENTS}, "the shared events are the timeline's"
    assert d.turn_events, "statistics need at least one turn-making event"
    assert d.first_player_key
    for tag in (*d.bonus_tags, *d.counted_tags, *d.valued_tags, *d.penalty_tags):
        assert tag in d.tag_labels, f"{name}: no label for tag {tag!r}"
    assert set(d.valued_tags) <= set(d.counted_tags) | set(d.bonus_tags)
    for opt_name, opt in d.options.items():
        schema = opt.json_schema()
        assert schema.get("type") or schema.get("enum") or schema.get("anyOf") or schema.get("oneOf"), opt_name
        # None is "not set" (High Five's first_player: the first seat); any other default must pass.
        assert opt.default is None or opt.check(opt.default) is None, f"{name}: bad default for {opt_name}"
    for spec in d.events:
        assert spec.summary
        spec.data.model_validate(spec.example)  # every example is a valid data object
        assert unknown_fields(spec, {**spec.example, "no_such_field": 1}) == ["no_such_field"]
        for hidden in spec.hidden:
            assert hidden.owner in ("player", "key")
            assert hidden.path.split(".")[0] in spec.data.model_fields, f"{spec.type}: hidden {hidden.path}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_schema_and_summary_cover_every_event(name: str) -> None:
    game = get_game(name)
    schema = game_schema(game)
    assert set(schema["events"]) == game.event_types | {s.type for s in COMMON_EVENTS}
    summary = game_summary(game)
    assert summary["name"] == name and summary["title"] == game.descriptor.title
    assert {o: v["default"] for o, v in summary["options"].items()} == {
        o: opt.default for o, opt in game.descriptor.options.items()
    }


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_random_match_folds_and_every_part_draws_it(name: str) -> None:
    game = get_game(name)
    players = PLAYERS[: max(game.descriptor.min_players, 2)]
    log = game.random_match(random.Random(7), players, None)
    fold = fold_dicts(log)
    assert fold.finished
    assert scores_json(fold)["status"] == "finished"
    facts = match_facts(fold, "m1", "2026-12-01")
    assert any(facts.turn_points.values()) and facts.first_player in {p["id"] for p in players}
    extras: dict[str, Any] = game.board_extras(fold.event(1).data)
    for seq in (1, fold.seq // 2, fold.seq):
        board = game.to_json(fold.state_at(seq))
        for reveal in (False, True):
            figure = board_figure(name, board, fold.players, reveal, **extras)
            assert isinstance(figure["data"], list) and figure["layout"]
            assert figure["data"] or seq == 1, f"{name}: nothing drawn at seq {seq}"
            lines = player_lines(name, board, reveal)
            assert set(lines) >= {pid for pid, _ in fold.players}
    for seq in range(2, fold.seq + 1):
        fold.describe(seq)  # every event can be put in words
    for seq in range(1, fold.seq + 1):  # a game's own shortcut to the totals reads what its score sheet says
        state = fold.state_at(seq)
        assert game.totals_of(state) == game.scores(state).totals, seq


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_games_marks_are_what_its_descriptions_say(name: str) -> None:
    """The statistics read each move's player and tags through `marks`, the event list through `describe`:
    they must agree on every event, tags included (bonuses, captures, penalties)."""
    game = get_game(name)
    four = PLAYERS + [{"id": "di", "name": "Di"}]
    tags_seen: set[str] = set()
    for seed in range(6):
        players = four[: min(game.descriptor.min_players + seed % 3, game.descriptor.max_players, 4)]
        fold = fold_dicts(game.random_match(random.Random(seed), players, None))
        for seq in range(1, fold.seq + 1):
            note = fold.describe(seq)
            assert fold.marks(seq) == (note.player, note.tags), (seed, seq, fold.event(seq))
            tags_seen.update(t.split(":")[0] for t in note.tags)
    assert tags_seen, f"{name}: six random matches and not one tag to compare"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_has_a_board_module_and_docs(name: str) -> None:
    board_module(name)
    package = name.replace("-", "_")
    assert (DOCS / "rules" / f"{name}.md").exists()
    fmt = (DOCS / "FORMAT.md").read_text(encoding="utf-8")
    section = re.search(rf"^## {re.escape(game_title(name))}\n(.*?)(?=^## |\Z)", fmt, re.S | re.M)
    assert section, f"docs/FORMAT.md has no section ## {game_title(name)}"
    for type in get_game(name).event_types:
        assert f"`{type}`" in section.group(1), f"docs/FORMAT.md does not document {name}'s {type}"
    assert package in (DOCS / "ARCHITECTURE.md").read_text(encoding="utf-8")


def test_a_game_without_a_board_is_named() -> None:
    with pytest.raises(ImportError, match="no board for 'chess'"):
        board_module("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_event_has_a_notation_that_reads_back(name: str) -> None:
    game = get_game(name)
    assert game.descriptor.to_move_key is None or isinstance(game.descriptor.to_move_key, str)
    log = game.random_match(random.Random(11), PLAYERS[: max(game.descriptor.min_players, 2)], None)
    fold = fold_dicts(log)
    seen_paths = 0
    for seq, line in enumerate(log[1:], start=2):
        before = fold.state_at(seq - 1)
        text = to_notation(game, line)
        assert "\n" not in text and text == " ".join(text.split()), text
        assert parse_line(game, before, text) == {"type": line["type"], "data": line["data"]}, text
        if seq % 7 == 0:
            for move in notation_moves(game, before, [pid for pid, _ in fold.players]):
                assert parse_line(game, before, move["notation"])["type"] == move["type"]
                path = game.pad_path(move)
                assert path and all(step.kind in ("action", "hand", "board", "option") for step in path)
                seen_paths += 1
    assert seen_paths
    for shared in ({"type": "note", "data": {"text": "Bo asks", "about_seq": 3}},
                   {"type": "rewind", "data": {"to_seq": 2, "reason": "wrong tile"}}):
        assert parse_line(game, fold.state, to_notation(game, shared)) == shared


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_state_holds_only_its_fields_and_remembered_values(name: str) -> None:
    """The busiest handlers copy a state's dict and set its fields by name, without `persistent.rebuilt`'s
    check: a misspelled name would add a key that no field reads, and the field would keep its old value."""
    game = get_game(name)
    for seed in range(3):
        assert_states_hold_only_their_fields(fold_dicts(game.random_match(random.Random(seed), PLAYERS, None)))
