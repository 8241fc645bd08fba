"""An import's fold keeps only the states the store needs (`Fold.run`): the last one, and those at the seqs where
snapshots are taken. What it answers must be what a fold holding every state answers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from projections import upcasters
from projections.errors import IllegalEvent
from projections.events import Event
from projections.registry import get_game
from projections.timeline import Fold, fold_dicts
from recorder.demo import PLAYERS
from recorder.facade import Scorebook, check_files
from recorder.log.file import import_lines, prepare_import
from recorder.sql.tables import MatchSnapshot
from recorder.store.snapshots import Snapshots, snapshot_key
from tests.support.snapshots import EVERY, GAMES, SECRET, as_json, full_hash, new_store, snapshot_seqs
from tests.support.upcasters import CALLED_BY


def logs(game_name: str, count: int = 3, length: int = 57) -> list[list[dict[str, Any]]]:
    """`count` seeded random matches of at least `length` events (2 to 4 players)."""
    game = get_game(game_name)
    found = []
    for seed in range(200):
        log = game.random_match(random.Random(seed), PLAYERS[: 2 + seed % 3], {})
        if len(log) >= length:
            found.append(log)
        if len(found) == count:
            return found
    raise AssertionError(f"no {game_name} match of {length} events")


def events_of(log: list[dict[str, Any]]) -> list[Event]:
    return [Event(n, e["type"], e["data"]) for n, e in enumerate(log, start=1)]


@pytest.mark.parametrize("game", GAMES)
def test_run_ends_where_extend_ends_and_holds_the_marks_states_only(game: str) -> None:
    for log in logs(game):
        events = events_of(log)
        full = Fold.begin(events[0]).extend(events[1:])
        marks = range(EVERY, len(events) + 1, EVERY)
        last, kept = Fold.begin(events[0]).run(events[1:], marks)
        assert last.seq == full.seq == len(events)
        assert as_json(last) == as_json(full)
        assert last.finished == full.finished and last.players == full.players
        assert last.held_states == 1 and not last.holds(last.seq - 1)
        assert sorted(kept) == list(marks)
        for seq, fold in kept.items():
            assert fold.seq == seq and fold.held_states == 1
            assert as_json(fold) == as_json(full.at(seq)), seq
            assert fold.event(1) == full.event(1) and fold.event(seq) == full.event(seq)


def test_run_of_nothing_and_a_mark_at_the_start() -> None:
    events = events_of(logs("hats-off", 1)[0])
    begun = Fold.begin(events[0])
    last, kept = begun.run([], [1])
    assert last is begun and kept == {1: begun}


def test_run_folds_a_log_with_a_note_or_a_rewind_keeping_every_state() -> None:
    log = logs("tri-ominos", 1)[0][:30]
    with_note = [*log[:12], {"type": "note", "data": {"text": "a ruling"}}, *log[12:]]
    rewound = [*log[:20], {"type": "rewind", "data": {"to_seq": 15, "reason": "misplaced"}}]
    for changed in (with_note, rewound):
        events = events_of(changed)
        full = Fold.begin(events[0]).extend(events[1:])
        last, kept = Fold.begin(events[0]).run(events[1:], range(EVERY, len(events) + 1, EVERY))
        assert last.holds(1) and last.seq == full.seq and as_json(last) == as_json(full)
        assert last.superseded_by == full.superseded_by
        assert sorted(kept) == list(range(EVERY, len(events) + 1, EVERY))
        assert all(as_json(f) == as_json(full.at(s)) for s, f in kept.items())


@pytest.mark.parametrize("game", GAMES)
def test_run_refuses_what_extend_refuses(game: str) -> None:
    events = events_of(logs(game, 1)[0])
    refused = 0
    for k in range(len(events) // 2, len(events)):  # events made illegal by a player who is not at the table
        bad = [*events[:k], Event(k + 1, events[k].type, {**events[k].data, "player": "nobody"}), *events[k + 1:]]
        try:
            Fold.begin(bad[0]).extend(bad[1:])
        except IllegalEvent as e:
            with pytest.raises(IllegalEvent) as ran:
                Fold.begin(bad[0]).run(bad[1:], [EVERY])
            assert str(ran.value) == str(e)
            refused += 1
    assert refused >= 3


def test_a_prepared_import_answers_any_seq_by_folding_again_when_it_does_not_hold_it() -> None:
    log = logs("high-five", 1)[0][:45]
    prepared = prepare_import(import_lines(log), "desk", snapshot_every=EVERY)
    full = fold_dicts(log)
    assert prepared.marks is not None and sorted(prepared.marks) == [10, 20, 30, 40]
    assert not prepared.fold.holds(44)
    for seq in (1, 7, 10, 33, 44, 45):
        assert as_json(prepared.fold_at(seq)) == as_json(full.at(seq)), seq
    whole = prepare_import(import_lines(log), "desk")
    assert whole.marks is None and whole.fold.holds(1)


@pytest.mark.parametrize("game", GAMES)
def test_an_imported_match_is_cached_without_its_earlier_states_and_reads_them_from_the_store(
        engine: Engine, game: str) -> None:
    log = logs(game, 1)[0][:57]
    store = new_store(engine)
    match_id = store.import_log(import_lines(log), "desk")["match_id"]
    cached = store.cache.get(match_id)
    assert cached is not None and cached.fold is not None and cached.fold.held_states == 1
    full = fold_dicts(log)
    for at in (1, 9, 10, 31, 56, 57):
        assert as_json(store.fold(match_id, at)) == as_json(full.at(at)), at
    whole = store.whole_fold(match_id)
    assert [as_json(whole.at(s)) for s in range(1, 58)] == [as_json(full.at(s)) for s in range(1, 58)]
    assert store.verify(match_id).ok


def test_an_imports_snapshots_are_the_ones_a_fold_of_every_state_makes(engine: Engine) -> None:
    log = logs("hats-off", 1)[0][:57]
    store = new_store(engine)
    match_id = store.import_log(import_lines(log), "desk")["match_id"]
    assert snapshot_seqs(engine, match_id) == [10, 20, 30, 40, 50]
    full = fold_dicts(log)
    made = Snapshots(snapshot_key(SECRET), EVERY)
    with Session(engine) as s:
        got = {r.seq: bytes(r.payload) for r in s.exec(select(MatchSnapshot).where(MatchSnapshot.match_id == match_id))}
    assert sorted(got) == [10, 20, 30, 40, 50]
    for seq, payload in got.items():
        assert payload == made.values(match_id, full, seq, full_hash(engine, match_id, seq))["payload"], seq


def test_a_file_that_extends_a_stored_match_adds_the_snapshots_of_its_new_part(engine: Engine) -> None:
    log = logs("tri-ominos", 1)[0][:57]
    hashed = prepare_import(import_lines(log), "desk").envelopes  # an export: its lines carry their hashes
    first = new_store(engine).import_log(import_lines(hashed[:25]), "desk")
    more = new_store(engine).import_log(import_lines(hashed), "desk")
    assert more["match_id"] == first["match_id"] and more["existing"] and more["added"] == 32
    assert snapshot_seqs(engine, first["match_id"]) == [10, 20, 30, 40, 50]
    cold = new_store(engine)
    full = fold_dicts(log)
    for at in (24, 30, 41, 57):
        assert as_json(cold.fold(first["match_id"], at)) == as_json(full.at(at)), at


def test_run_reads_old_shapes_through_the_upcasters_as_extend_does() -> None:
    log = [*logs("hats-off", 1)[0][:57]]
    old = [{"type": e["type"], "data": {"called_by": e["data"]["caller"]}} if e["type"] == "round_started" else e
           for e in log]
    events = events_of(old)
    with pytest.raises(IllegalEvent):
        Fold.begin(events[0]).run(events[1:], [EVERY])  # without the upcaster the old shape is not understood
    with upcasters.registered(CALLED_BY):
        full = Fold.begin(events[0]).extend(events[1:])
        last, kept = Fold.begin(events[0]).run(events[1:], range(EVERY, len(events) + 1, EVERY))
        assert as_json(last) == as_json(full) == as_json(fold_dicts(log))
        for seq, fold in kept.items():
            assert as_json(fold) == as_json(full.at(seq)) and fold.event(seq) == full.event(seq)
        started = [s for s in range(2, len(events) + 1) if events[s - 1].type == "round_started"]
        assert started and full.event(started[0]).data == log[started[0] - 1]["data"]


def test_files_imported_together_keep_only_their_last_states_and_read_back_whole(engine: Engine) -> None:
    games = ["hats-off", "tri-ominos"]
    lines = {game: logs(game, 1)[0][:57] for game in games}
    texts = [(f"{game}.jsonl", "".join(json.dumps(e) + "\n" for e in log)) for game, log in lines.items()]
    checked = check_files(texts, "desk", EVERY)
    assert [p.fold.held_states for p, _ in checked] == [1, 1]
    assert [sorted(p.marks or {}) for p, _ in checked] == [[10, 20, 30, 40, 50]] * 2
    book = Scorebook(new_store(engine))
    stored = book.import_files(texts, "desk")
    for game, result in zip(games, stored, strict=True):
        full = fold_dicts(lines[game])
        assert snapshot_seqs(engine, result["match_id"]) == [10, 20, 30, 40, 50]
        for at in (3, 10, 44, 57):
            assert as_json(book.store.fold(result["match_id"], at)) == as_json(full.at(at)), (game, at)
