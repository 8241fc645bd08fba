"""Appends' connections (recorder/sql/sqlite.py): SQLite keeps one, shared by turns; PostgreSQL takes one each."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from projections.registry import get_game
from recorder.facade import Scorebook
from recorder.log.file import NewEvent
from recorder.sql.engine import for_writing, make_engine
from recorder.sql.migrate import upgrade
from recorder.sql.sqlite import AppendTurns


def _driver(conn: object) -> object:
    return conn.connection.dbapi_connection  # type: ignore[attr-defined]


@pytest.fixture
def file_engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'turns.db'}")
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE scratch (n INTEGER)"))
    return engine


def _count(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM scratch")).scalar_one())


def test_sqlite_turns_share_one_connection_and_commit_each_turn(file_engine: Engine) -> None:
    turns = AppendTurns(for_writing(file_engine))
    seen = []
    for n in range(3):
        with turns.transaction() as conn:
            conn.execute(text("INSERT INTO scratch VALUES (:n)"), {"n": n})
            seen.append(_driver(conn))
        assert _count(file_engine) == n + 1  # committed at the end of the turn, read by another connection
    assert seen[0] is seen[1] is seen[2]
    turns.close()


def test_a_turn_that_raises_stores_nothing_and_the_next_turn_works(file_engine: Engine) -> None:
    turns = AppendTurns(for_writing(file_engine))
    with pytest.raises(RuntimeError), turns.transaction() as conn:
        conn.execute(text("INSERT INTO scratch VALUES (1)"))
        raise RuntimeError("refused")
    assert _count(file_engine) == 0
    with turns.transaction() as conn:
        conn.execute(text("INSERT INTO scratch VALUES (2)"))
    assert _count(file_engine) == 1
    turns.close()


def test_a_failed_connection_is_replaced_on_the_next_turn(file_engine: Engine) -> None:
    turns = AppendTurns(for_writing(file_engine))
    with pytest.raises(RuntimeError), turns.transaction() as conn:
        first = _driver(conn)
        conn.invalidate()  # as SQLAlchemy does when the driver reports the connection lost
        raise RuntimeError("connection lost")
    with turns.transaction() as conn:
        conn.execute(text("INSERT INTO scratch VALUES (3)"))
        assert _driver(conn) is not first
    assert _count(file_engine) == 1
    turns.close()


def test_the_kept_connection_holds_no_pool_slot(file_engine: Engine) -> None:
    """Stores that are never closed (a test's, a bench's) must not use up the pool: each keeps its own."""
    pool_size = file_engine.pool.size()  # type: ignore[attr-defined]
    kept = []
    for _ in range(pool_size + file_engine.pool._max_overflow + 2):  # type: ignore[attr-defined]
        turns = AppendTurns(for_writing(file_engine))
        with turns.transaction() as conn:
            conn.execute(text("INSERT INTO scratch VALUES (0)"))
        kept.append(turns)
    assert file_engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    for turns in kept:
        turns.close()


def test_appends_from_threads_take_turns_without_losing_one(tmp_path: Path) -> None:
    players = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]
    logs = [get_game("hats-off").random_match(random.Random(seed), players, {}) for seed in range(4)]
    with Scorebook.open(f"sqlite:///{tmp_path / 'threads.db'}") as book:
        ids = [book.start_match(log[0]["data"], "t")["match_id"] for log in logs]
        errors: list[BaseException] = []

        def play(match_id: str, log: list[dict]) -> None:
            try:
                for seq, e in enumerate(log[1:11], start=1):
                    book.append(match_id, [NewEvent(e["type"], e["data"])], seq, "t")
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=play, args=(i, log)) for i, log in zip(ids, logs, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert [book.summary(i)["seq"] for i in ids] == [11] * 4
        positions = [e["position"] for e in book.events_after(0, limit=1000)]
        assert positions == list(range(1, 45))  # 4 starts and 40 appends, in commit order, no gap


def test_a_store_used_for_one_append_gives_its_connection_back_to_the_pool(file_engine: Engine) -> None:
    """A store made for one append (a script, the first append after a restart) keeps no connection: the pool
    keeps its own, opened once, rather than opening another for the next taker."""
    with file_engine.connect() as conn:
        pooled = _driver(conn)
    turns = AppendTurns(for_writing(file_engine))
    with turns.transaction() as conn:
        assert _driver(conn) is pooled
    with file_engine.connect() as conn:
        assert _driver(conn) is pooled  # back in the pool, not kept
    with turns.transaction() as conn:  # the second turn keeps one
        kept = _driver(conn)
    with turns.transaction() as conn:
        assert _driver(conn) is kept
    turns.close()
