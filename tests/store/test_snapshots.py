"""Snapshots (recorder/store/snapshots.py): a cold read resumes from the latest good one and reads what a full fold
reads; a snapshot that is tampered with, signed by another server, or of another code version is ignored;
the chain is still checked from the snapshot on; `rebuild_snapshots` rewrites them from the log."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session

from projections.timeline import Fold, fold_dicts
from recorder.errors import ChainBroken
from recorder.log.file import NewEvent, import_lines
from recorder.readmodels.snapshots import rebuild_snapshots
from recorder.sql.tables import MatchSnapshot
from recorder.store.matches import EventStore
from recorder.store.snapshots import Snapshots, snapshot_key
from tests.support.snapshots import EVERY, GAMES, LENGTH, SECRET, as_json, full_hash, log_of, new_store, snapshot_seqs
from tests.support.tampering import tamper


def stored(engine: Engine, game: str = "hats-off", length: int = LENGTH) -> str:
    return new_store(engine).import_log(import_lines(log_of(game, length)), "desk")["match_id"]


@pytest.mark.parametrize("game", GAMES)
def test_a_cold_state_at_any_seq_is_the_full_folds(engine: Engine, game: str) -> None:
    match_id = stored(engine, game)
    assert snapshot_seqs(engine, match_id) == [10, 20, 30, 40, 50]
    full = fold_dicts(log_of(game))
    for at in (1, 9, 10, 11, 29, 30, 31, 50, 56, 57):
        cold = new_store(engine).fold(match_id, at)
        assert cold.seq == at
        assert as_json(cold) == game_json(full, at), at
    head = new_store(engine).stored_fold(match_id)
    assert head.fold is not None and head.fold.held_from == 50  # resumed: seqs 51..57 were folded
    assert head.head == full_hash(engine, match_id, LENGTH)


def test_a_cold_read_at_a_seq_before_a_snapshot_folds_from_the_one_before_not_the_whole_match(engine: Engine) -> None:
    match_id = stored(engine, "tri-ominos")
    full = fold_dicts(log_of("tri-ominos"))
    store = new_store(engine)
    for at in (7, 23):
        got = store.fold(match_id, at)
        assert got.held_from == (1 if at < EVERY else 20) and as_json(got) == game_json(full, at)
    head = store.stored_fold(match_id).fold
    assert head is not None and head.held_from == 50 and not head.holds(49)  # nothing before 50 was loaded


@pytest.mark.parametrize("game", GAMES)
def test_the_first_append_after_a_restart_resumes_from_the_latest_snapshot(engine: Engine, game: str) -> None:
    """An append to a match no process has read since its start folds the rows after the latest snapshot, not
    the whole log, and stores what a warm store would have stored."""
    log = log_of(game, LENGTH + 1)
    match_id = new_store(engine).import_log(import_lines(log[:LENGTH]), "desk")["match_id"]
    store = new_store(engine)
    following = log[LENGTH]
    envelopes, replayed = store.append(match_id, [NewEvent(following["type"], following["data"])], LENGTH, "desk")
    assert not replayed and envelopes[0]["seq"] == LENGTH + 1
    fold = store.stored_fold(match_id).fold
    assert fold is not None and fold.held_from == 50 and not fold.holds(49)  # nothing before the snapshot read
    assert as_json(fold) == game_json(fold_dicts(log), LENGTH + 1)
    assert new_store(engine).verify(match_id).ok


def game_json(full: Fold[Any], seq: int) -> Any:
    return full.game.to_json(full.state_at(seq))


def test_a_resumed_fold_answers_every_earlier_seq_by_refolding_once(engine: Engine) -> None:
    match_id = stored(engine, "high-five")
    full = fold_dicts(log_of("high-five"))
    cold = new_store(engine).fold(match_id)
    assert cold.held_from == 50 and not cold.holds(3)
    assert [e.seq for e in cold.events] == list(range(1, LENGTH + 1))
    assert cold.holds(3)
    for seq in range(1, LENGTH + 1):
        assert cold.event(seq) == full.event(seq)
        assert cold.describe(seq) == full.describe(seq)
        assert cold.points(seq) == full.points(seq)
        assert as_json(cold.at(seq)) == game_json(full, seq)


def test_appends_write_a_snapshot_as_they_cross_every_tenth_seq_and_a_rewind_reaches_behind_it(
    engine: Engine,
) -> None:
    log = log_of("hats-off")
    store = new_store(engine)
    match_id = store.create_match(log[0]["data"], "desk")["match_id"]
    seq = 1
    for i in range(1, 40, 7):  # batches of 7 cross 10, 20, 30 in their middles
        batch = [NewEvent(e["type"], e["data"]) for e in log[i:i + 7]]
        store.append(match_id, batch, seq, "desk")
        seq += len(batch)
    assert seq == 43 and snapshot_seqs(engine, match_id) == [10, 20, 30, 40]
    rewind = {"type": "rewind", "data": {"to_seq": 5, "reason": "a misread score"}}
    new_store(engine).append(match_id, [NewEvent(rewind["type"], rewind["data"])], seq, "desk")
    expected = fold_dicts([*log[:43], rewind])
    cold = new_store(engine).fold(match_id)
    assert as_json(cold) == as_json(expected) == game_json(expected, 5)
    assert cold.superseded_by == expected.superseded_by


def rewrite(engine: Engine, match_id: str, seq: int, column: str, value: Any) -> None:
    with engine.begin() as conn:
        conn.execute(text(f"UPDATE snapshots SET {column} = :v WHERE match_id = :m AND seq = :s"),
                     {"v": value, "m": match_id, "s": seq})


def held_from(engine: Engine, match_id: str, secret: str = SECRET) -> int:
    fold = new_store(engine, secret).stored_fold(match_id).fold
    assert fold is not None
    full = fold_dicts(log_of("hats-off"))
    assert fold.seq == LENGTH and as_json(fold) == as_json(full)
    assert as_json(new_store(engine, secret).fold(match_id, 42)) == game_json(full, 42)
    return fold.held_from


class _Trap:
    """A pickle that would write a file when unpickled."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.path, "pwned"))


def test_a_tampered_snapshot_is_never_unpickled_and_the_one_before_it_is_used(engine: Engine, tmp_path: Path) -> None:
    match_id = stored(engine)
    trap = tmp_path / "trap"
    rewrite(engine, match_id, 50, "payload", pickle.dumps(_Trap(trap)))
    assert held_from(engine, match_id) == 40
    assert not trap.exists()
    rewrite(engine, match_id, 40, "hash", "0" * 64)  # the MAC covers the hash too
    assert held_from(engine, match_id) == 30
    with engine.begin() as conn:
        conn.execute(text("UPDATE snapshots SET mac = 'x' WHERE match_id = :m"), {"m": match_id})
    assert held_from(engine, match_id) == 1  # nothing good left: the whole log is folded


def test_a_snapshot_row_holding_other_kinds_of_values_is_ignored(engine: Engine) -> None:
    """SQLite keeps whatever is written into a column: text in the payload, a number as the MAC."""
    if engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL's columns refuse such values")
    match_id = stored(engine)
    rewrite(engine, match_id, 50, "payload", "not a pickle but text")
    assert held_from(engine, match_id) == 40
    rewrite(engine, match_id, 40, "mac", 12345)
    assert held_from(engine, match_id) == 30


def test_a_snapshot_signed_by_another_server_is_ignored(engine: Engine) -> None:
    match_id = stored(engine)
    assert held_from(engine, match_id, secret="another server's secret") == 1
    assert held_from(engine, match_id) == 50


def test_a_snapshot_of_another_code_version_is_ignored_even_with_a_good_mac(engine: Engine) -> None:
    match_id = stored(engine)
    old = Snapshots(snapshot_key(SECRET), EVERY, version="py3.0.0-an-older-game")
    full = fold_dicts(log_of("hats-off"))
    with Session(engine) as s:
        s.exec(text("DELETE FROM snapshots"))  # type: ignore[call-overload]
        s.add(MatchSnapshot(**old.values(match_id, full, 50, full_hash(engine, match_id, 50))))
        s.commit()
    assert old.read(snapshots_row(engine, match_id, 50), match_id) is not None  # its MAC is good
    assert held_from(engine, match_id) == 1


def snapshots_row(engine: Engine, match_id: str, seq: int) -> MatchSnapshot:
    with Session(engine) as s:
        row = s.get(MatchSnapshot, (match_id, seq))
        assert row is not None
        return row


def test_a_row_edited_after_the_snapshot_is_still_caught_by_the_chain_check(engine: Engine) -> None:
    match_id = stored(engine)
    tamper(engine, "UPDATE events SET recorded_by = 'mallory' WHERE match_id = :m AND seq = 54", m=match_id)
    store = new_store(engine)
    got = store.stored_fold(match_id)
    assert got.fold is not None and got.fold.held_from == 50
    assert got.broken is not None and got.broken.first_bad_seq == 54 and got.fold.seq == 53
    with pytest.raises(ChainBroken, match="seq 54"):
        store.append(match_id, [NewEvent("note", {"text": "x"})], LENGTH, "desk")


def test_a_snapshot_whose_own_row_was_edited_is_ignored_and_the_break_found(engine: Engine) -> None:
    match_id = stored(engine)
    tamper(engine, "UPDATE events SET recorded_by = 'mallory' WHERE match_id = :m AND seq = 50", m=match_id)
    got = new_store(engine).stored_fold(match_id)
    assert got.broken is not None and got.broken.first_bad_seq == 50
    assert got.fold is not None and got.fold.seq == 49 and got.fold.held_from == 40


def test_refolding_behind_a_snapshot_checks_the_rows_before_it(engine: Engine) -> None:
    """Rows before a snapshot are vouched for by it on reads of later seqs; asked for, they are verified."""
    match_id = stored(engine)
    tamper(engine, "UPDATE events SET recorded_by = 'mallory' WHERE match_id = :m AND seq = 3", m=match_id)
    store = new_store(engine)
    fold = store.fold(match_id)
    assert fold.held_from == 50 and fold.seq == LENGTH
    with pytest.raises(ChainBroken, match="seq 3"):
        fold.state_at(2)
    # Found out, the snapshots are no longer used: the match now reads as any match broken at seq 3.
    got = store.stored_fold(match_id)
    assert got.broken is not None and got.broken.first_bad_seq == 3
    assert got.fold is not None and got.fold.seq == 2 and got.fold.held_from == 1


def test_rebuild_snapshots_rewrites_them_from_the_log_up_to_a_break(engine: Engine) -> None:
    first, second = stored(engine), stored(engine, "tri-ominos", 35)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM snapshots"))
    seen: list[int] = []
    counts = rebuild_snapshots(engine, progress=seen.append, every=EVERY, secret=SECRET)
    assert counts == {"matches": 2, "events": LENGTH + 35, "snapshots": 5 + 3}
    assert sorted(seen) == [35, LENGTH]
    assert snapshot_seqs(engine, first) == [10, 20, 30, 40, 50] and snapshot_seqs(engine, second) == [10, 20, 30]
    assert held_from(engine, first) == 50
    tamper(engine, "UPDATE events SET recorded_by = 'mallory' WHERE match_id = :m AND seq = 25", m=first)
    assert rebuild_snapshots(engine, first, every=EVERY, secret=SECRET)["snapshots"] == 2
    assert snapshot_seqs(engine, first) == [10, 20] and snapshot_seqs(engine, second) == [10, 20, 30]


def test_no_snapshot_is_written_when_they_are_off(engine: Engine) -> None:
    store = EventStore(engine, snapshot_every=0)
    match_id = store.import_log(import_lines(log_of("hats-off")), "desk")["match_id"]
    assert snapshot_seqs(engine, match_id) == []
    assert as_json(EventStore(engine, snapshot_every=0).fold(match_id)) == as_json(fold_dicts(log_of("hats-off")))
