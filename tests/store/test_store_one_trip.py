"""The append with no read before its writes (`EventStore._appended_in_one_trip`: `PostgresAppender.one_trip`
on PostgreSQL, `SqliteAppender.one_trip` on SQLite): taken when the writer's cached fold is at the match's head, and
never the one to answer a conflict, a refusal or a retry from a stale cache."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from recorder.errors import Conflict, MatchNotFound, Refused
from recorder.log.file import NewEvent
from recorder.sql.postgres import PostgresAppender
from recorder.sql.sqlite import SqliteAppender
from recorder.store.matches import EventStore
from tests.support.logs import START, launch, round_start


def new(e: dict[str, Any], event_id: str | None = None) -> NewEvent:
    return NewEvent(e["type"], e["data"], event_id)


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each one-trip attempt answered (True: stored)."""
    seen: list[bool] = []
    for path in (PostgresAppender, SqliteAppender):
        real = path.one_trip

        def counted(self: Any, *args: Any, real: Any = real, **kwargs: Any) -> bool:
            seen.append(real(self, *args, **kwargs))
            return seen[-1]

        monkeypatch.setattr(path, "one_trip", counted)
    return seen


def _started(store: EventStore) -> str:
    match_id = store.create_match(dict(START), "desk")["match_id"]
    store.append(match_id, [new(round_start())], 1, "desk")
    return match_id


def _positions(engine: Engine) -> list[int]:
    with engine.connect() as conn:
        return [int(p) for p in conn.execute(text("SELECT position FROM events ORDER BY position")).scalars()]


def test_a_warm_append_is_stored_chained_numbered_and_verified(engine: Engine, trips: list[bool]) -> None:
    store = EventStore(engine)
    match_id = _started(store)
    stored, replayed = store.append(match_id, [new(launch("ann", 1, 5)), new(launch("bo", 2, 3))], 2, "desk")
    assert not replayed and [e["seq"] for e in stored] == [3, 4]
    assert trips == [True, True]  # round_started, then the pair
    assert store.events(match_id)[2:] == stored
    assert store.verify(match_id).ok
    assert store.summary(match_id)["seq"] == 4 and store.summary(match_id)["status"] == "in_progress"
    assert _positions(engine) == [1, 2, 3, 4]
    # A fresh store (nothing cached) folds the same match from the database and goes on from it, in one trip: the
    # fold is read before the write, not under the write lock.
    again = EventStore(engine)
    assert again.append(match_id, [new(launch("ann", 2, 4))], 4, "desk")[0][0]["prev_hash"] == stored[-1]["hash"]
    assert trips == [True, True, True]


def test_a_first_append_after_a_start_still_words_every_refusal_and_stores_nothing(
    engine: Engine, trips: list[bool]
) -> None:
    """The fold a fresh store reads before its first append answers nothing itself: a wrong seq, an unknown match,
    an illegal event and a retry are answered as by the careful way."""
    store = EventStore(engine)
    match_id = _started(store)
    store.append(match_id, [new(launch("ann", 1, 5), "e-3")], 2, "desk")
    before = store.events(match_id)
    with pytest.raises(Conflict) as exc:
        EventStore(engine).append(match_id, [new(launch("bo", 1, 5))], 2, "desk")
    assert exc.value.extra["current_seq"] == 3
    with pytest.raises(MatchNotFound):
        EventStore(engine).append("0" * 32, [new(launch("bo", 1, 5))], 3, "desk")
    with pytest.raises(Refused):
        EventStore(engine).append(match_id, [new(launch("ann", 9, 5))], 3, "desk")
    stored, replayed = EventStore(engine).append(match_id, [new(launch("ann", 1, 5), "e-3")], 2, "desk")
    assert replayed and stored == before[2:]
    assert store.events(match_id) == before and _positions(engine) == [1, 2, 3]
    assert trips == [True, True]  # round_started and e-3: nothing after them was stored, in one trip or not


def test_a_stale_cache_is_answered_from_the_database_not_from_itself(engine: Engine, trips: list[bool]) -> None:
    """Another writer (a second server) moved the match on: this writer's cache still says seq 2."""
    mine, other = EventStore(engine), EventStore(engine)
    match_id = _started(mine)
    other.append(match_id, [new(launch("ann", 1, 5))], 2, "other")
    # Legal in the cached state: the database's head refuses it, and the answer is the conflict.
    with pytest.raises(Conflict) as exc:
        mine.append(match_id, [new(launch("bo", 1, 5))], 2, "desk")
    assert exc.value.extra["current_seq"] == 3
    # An illegal event (there is no hat 9) at the stale seq: still the conflict, never a refusal.
    with pytest.raises(Conflict):
        mine.append(match_id, [new(launch("ann", 9, 5))], 2, "desk")
    assert len(mine.events(match_id)) == 3
    # round_started and the other writer's first append (its fold read before the write) went in one trip; the
    # stale try came back unstored; the illegal one never tried.
    assert trips == [True, True, False]
    # At the current seq it appends, on the fold topped up from the database.
    assert mine.append(match_id, [new(launch("bo", 1, 5))], 3, "desk")[0][0]["seq"] == 4
    assert _positions(engine) == [1, 2, 3, 4]


def test_a_refusal_is_worded_and_stores_nothing(engine: Engine, trips: list[bool]) -> None:
    store = EventStore(engine)
    match_id = _started(store)
    with pytest.raises(Refused):
        store.append(match_id, [new(launch("ann", 1, 5)), new(launch("ann", 9, 5))], 2, "desk")
    assert len(store.events(match_id)) == 2 and store.summary(match_id)["seq"] == 2
    assert _positions(engine) == [1, 2]


def test_a_retry_after_a_one_trip_append_is_a_replay_and_a_reused_id_a_conflict(
        engine: Engine, trips: list[bool]) -> None:
    store = EventStore(engine)
    match_id = _started(store)
    batch = [new(launch("ann", 1, 5), "tablet:1")]
    first, _ = store.append(match_id, batch, 2, "desk")
    again, replayed = store.append(match_id, batch, 2, "desk")
    assert replayed and again == first
    other = _started(store)  # the same event_id sent to another match: not a retry of it
    with pytest.raises(Conflict, match="tablet:1"):
        store.append(other, [new(launch("ann", 1, 5), "tablet:1")], 2, "desk")
    assert len(store.events(other)) == 2 and store.summary(other)["seq"] == 2  # its head did not move either
    assert _positions(engine) == [1, 2, 3, 4, 5]
    # The reused id reached the database in one trip, whose unique index refused it (nothing stored).
    assert trips == [True, True, True, False]
    # Nothing was left open by the refused trip: the next append to that match goes in one trip.
    assert store.append(other, [new(launch("ann", 1, 5), "tablet:3")], 2, "desk")[0][0]["seq"] == 3
    assert trips[-1] is True and _positions(engine) == [1, 2, 3, 4, 5, 6]


def test_a_retry_that_reaches_a_server_whose_cache_is_behind_is_answered_as_a_replay(
        engine: Engine, trips: list[bool]) -> None:
    """The one trip finds the match moved on; the careful way finds the retry and answers it."""
    mine, other = EventStore(engine), EventStore(engine)
    match_id = _started(mine)
    batch = [new(launch("ann", 1, 5), "tablet:2")]
    first, _ = other.append(match_id, batch, 2, "other")  # stored through the other server
    again, replayed = mine.append(match_id, batch, 2, "desk")  # the client's retry reaches this one
    assert replayed and again == first
    assert len(mine.events(match_id)) == 3
    assert trips == [True, True, False]  # round_started, the other server's append, the retry refused


def test_an_append_that_takes_a_snapshot_goes_in_one_trip_and_the_snapshot_is_read_after_a_restart(
    engine: Engine, trips: list[bool]
) -> None:
    store = EventStore(engine, snapshot_every=4, snapshot_secret="s3cret")
    match_id = _started(store)
    store.append(match_id, [new(launch("ann", 1, 5))], 2, "desk")
    store.append(match_id, [new(launch("bo", 1, 5))], 3, "desk")  # seq 4: a snapshot is due
    store.append(match_id, [new(launch("ann", 2, 4)), new(launch("bo", 2, 4)), new(launch("ann", 3, 6)),
                            new(launch("bo", 3, 6))], 4, "desk")  # seqs 5-8, the snapshot at 8 among them
    assert trips == [True] * 4  # round_started and the three appends, snapshots and all
    with engine.connect() as conn:
        seqs = [int(s) for s in conn.execute(text("SELECT seq FROM snapshots WHERE match_id = :m ORDER BY seq"),
                                             {"m": match_id}).scalars()]
        assert seqs == [4, 8]
        # A restarted store trusts them (the MAC checks) and resumes from the latest, as from the full fold.
        restarted = EventStore(engine, snapshot_every=4, snapshot_secret="s3cret")
        resumed = restarted._resumed(conn, match_id, 8)
        assert resumed is not None and resumed.upto == 8 and resumed.head == store.events(match_id)[-1]["hash"]
        assert resumed.fold is not None and resumed.fold.state == store.stored_fold(match_id).fold.state
