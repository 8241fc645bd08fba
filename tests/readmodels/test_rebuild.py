"""`scorebook rebuild` (recorder/readmodels/rebuild.py): every read model recomputed from the log in one pass,
resumable, in worker processes or not with the same rows, while reads and appends go on; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

import recorder.readmodels.rebuild as rebuild_module
from recorder.facade import Scorebook
from recorder.readmodels.facts import FACTS
from recorder.readmodels.model import Plan, Projected, write
from recorder.readmodels.snapshots import SNAPSHOT_TABLE, Snapshots
from recorder.store.matches import EventStore
from tests.support.logs import START, launch, round_start
from tests.support.read_models import by_id, club, expected

EVERY = 10


def snapshot_rows(sb: Scorebook) -> set[tuple[Any, ...]]:
    with sb.engine.connect() as conn:
        return {tuple(r) for r in conn.execute(text("SELECT match_id, seq, hash, version FROM snapshots"))}


def facts_rows(sb: Scorebook) -> dict[str, Any]:
    with sb.engine.connect() as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute(text("SELECT match_id, seq, facts FROM match_facts"))}


def progress_rows(sb: Scorebook) -> int:
    with sb.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM rebuild_progress")).scalar_one())


@pytest.fixture
def sb(scorebook: Scorebook) -> Scorebook:
    """Snapshots every EVERY events, so that short matches have some."""
    return Scorebook(EventStore(scorebook.engine, snapshot_every=EVERY, snapshot_secret="s"))


def interrupt_after(batches: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the rebuild's writer fail once `batches` batches are written (a crash in the middle)."""
    real = rebuild_module.write
    written = 0

    def write(conn: Any, batch: list[Projected], plan: Any) -> None:
        nonlocal written
        if written == batches:
            raise KeyboardInterrupt("stopped")
        real(conn, batch, plan)
        written += 1

    monkeypatch.setattr(rebuild_module, "write", write)


def test_a_rebuild_gives_every_match_its_facts_and_snapshots(sb: Scorebook) -> None:
    ids = club(sb)
    before_snapshots = snapshot_rows(sb)  # written with the appends
    with sb.engine.begin() as conn:
        conn.execute(text("DELETE FROM snapshots"))
    sb.projector.reset()
    assert sb.rebuild() == sb.projector.head()
    assert by_id(sb.fact_reader.facts(catch_up=False)) == {m: expected(sb, m) for m in ids}
    assert snapshot_rows(sb) == before_snapshots
    assert sb.projector.checkpoint() == sb.projector.head()
    assert progress_rows(sb) == 0


def test_an_interrupted_rebuild_resumes_after_the_last_batch_written(
    sb: Scorebook, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = club(sb, per_game=3)
    monkeypatch.setattr(rebuild_module, "BATCH_EVENTS", 1)  # a batch per match
    sb.projector.reset()
    interrupt_after(4, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        sb.rebuild("match_facts")
    assert len(facts_rows(sb)) == 4 and progress_rows(sb) == 1
    assert sb.projector.checkpoint() == 0  # the checkpoint moves only when the rebuild is done
    monkeypatch.undo()
    monkeypatch.setattr(rebuild_module, "BATCH_EVENTS", 1)
    seen: list[tuple[int, int]] = []
    assert sb.rebuild("match_facts", lambda done, total: seen.append((done, total)), resume=True) == sb.projector.head()
    everything = sum(sb.summary(m)["seq"] for m in ids)
    assert 0 < seen[-1][1] < everything  # only the matches not done yet were read again
    assert len(seen) == len(ids) - 4 + 1
    assert by_id(sb.fact_reader.facts(catch_up=False)) == {m: expected(sb, m) for m in ids}
    assert progress_rows(sb) == 0 and sb.projector.checkpoint() == sb.projector.head()
    assert sb.rebuild("match_facts", resume=True) == sb.projector.head()  # nothing to resume: a whole rebuild


def test_worker_processes_write_the_same_rows_as_one_process(sb: Scorebook) -> None:
    club(sb)
    sb.rebuild(workers=0)
    facts, snapshots = facts_rows(sb), snapshot_rows(sb)
    sb.projector.reset()
    with sb.engine.begin() as conn:
        conn.execute(text("DELETE FROM snapshots"))
    assert sb.rebuild(workers=2) == sb.projector.head()
    assert facts_rows(sb) == facts and snapshot_rows(sb) == snapshots


def test_reads_see_every_match_during_a_rebuild_and_appends_meanwhile_are_kept(
    sb: Scorebook, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = club(sb)
    live = sb.start_match(dict(START), "desk")["match_id"]
    sb.facts()
    counts: list[int] = []
    appended: list[bool] = []

    def meanwhile(done: int, total: int) -> None:  # called after each batch is committed
        counts.append(len(sb.fact_reader.facts(catch_up=False)))
        if not appended:  # an append lands while the rebuild is under way
            sb.append(live, [round_start(), launch("ann", 1, 5)], 1)
            appended.append(True)

    monkeypatch.setattr(rebuild_module, "BATCH_EVENTS", 1)
    sb.rebuild("match_facts", meanwhile)
    assert counts and set(counts) == {len(ids) + 1}  # nothing was emptied first
    facts = by_id(sb.facts())
    assert facts[live].events == 3 and facts[live].totals["ann"] == 5
    assert facts == {m: expected(sb, m) for m in [*ids, live]}


def test_an_older_result_never_overwrites_a_newer_row(sb: Scorebook) -> None:
    (match_id, *_) = club(sb, per_game=1)
    sb.facts()
    row = facts_rows(sb)[match_id]
    stale = Projected(match_id, 1, 1, {FACTS.name: [{"match_id": match_id, "game": "x", "finished": False,
                                                     "date": "2000-01-01", "seq": 1, "version": 1,
                                                     "facts": {"stale": True}}]})
    with sb.engine.begin() as conn:
        write(conn, [stale], Plan((FACTS,)))
    assert facts_rows(sb)[match_id] == row


def test_rebuild_of_one_read_model_leaves_the_other(sb: Scorebook) -> None:
    club(sb, per_game=1)
    facts = facts_rows(sb) or (sb.facts() and facts_rows(sb))
    with sb.engine.begin() as conn:
        conn.execute(text("DELETE FROM snapshots"))
    sb.rebuild("snapshots")
    assert snapshot_rows(sb) and facts_rows(sb) == facts


def test_rows_are_written_as_they_were_made(sb: Scorebook) -> None:
    """The writer's rows read back exactly (PostgreSQL writes them by COPY, whose text format escapes tabs,
    newlines and backslashes; the JSON column gets the text its type would write)."""
    from datetime import datetime, timezone

    from sqlalchemy import select

    from recorder.log.readable import dumps_strictly

    (match_id, *_) = club(sb, per_game=1)
    odd = 'tab\there\nnewline \\ backslash "quoted" é 😀 \\N'
    facts = {"match_id": match_id, "game": "hats-off", "finished": True, "date": "2026-12-02", "seq": 10**6,
             "version": 99, "facts": {"note": odd, odd: [1.5, None, -(2**53)], "empty": {}}}
    payload = bytes(range(256)) + b"\\\n\t\x00"
    at = datetime(2026, 12, 2, 8, 0, 0, 123456, tzinfo=timezone.utc)
    snapshot = {"match_id": match_id, "seq": 10**6, "hash": "h" * 64, "version": "v\tx", "mac": "m\\n",
                "payload": payload, "created_at": at}
    with sb.engine.begin() as conn:
        write(conn, [Projected(match_id, 1, 10**6, {FACTS.name: [facts], Snapshots.name: [snapshot]})],
              Plan((FACTS, Snapshots(b"k", EVERY))))
    with sb.engine.connect() as conn:
        row = conn.execute(text("SELECT game, finished, date, seq, version, CAST(facts AS TEXT) FROM match_facts "
                                "WHERE match_id = :m"), {"m": match_id}).one()
        table = SNAPSHOT_TABLE
        snap = conn.execute(select(table.c.hash, table.c.version, table.c.mac, table.c.payload, table.c.created_at)
                            .where(table.c.match_id == match_id, table.c.seq == 10**6)).one()
        others = conn.execute(text("SELECT count(*) FROM snapshots WHERE match_id = :m"), {"m": match_id}).scalar_one()
    assert tuple(row) == ("hats-off", True, "2026-12-02", 10**6, 99, dumps_strictly(facts["facts"]))
    assert (snap[0], snap[1], snap[2], bytes(snap[3])) == ("h" * 64, "v\tx", "m\\n", payload)
    assert (snap[4] if snap[4].tzinfo else snap[4].replace(tzinfo=timezone.utc)) == at
    assert others == 1  # the match's older snapshots (seqs up to the one read) went
