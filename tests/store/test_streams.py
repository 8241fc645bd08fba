"""Club streams in the store (recorder/store/streams.py) on each backend: checked all-or-nothing appends, retries,
the append-only table, the hash chain and a fold that stops at an edited row, export → import, racing writers.

The kinds here are small stand-ins for projections.clubs' (the store only needs the StreamKind protocol)."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from projections.clubs.protocol import StreamKind
from projections.errors import IllegalEvent
from recorder.api.errors import status_of
from recorder.errors import BadRequest, ChainBroken, Conflict, ImportRefused, NotFound, Refused
from recorder.log.file import GENESIS, NewEvent, chain_new, export_line
from recorder.sql.engine import make_engine
from recorder.sql.migrate import upgrade
from recorder.sql.triggers import create_triggers, drop_triggers, expected, missing_triggers, repair_triggers
from recorder.store.streams import StreamNotFound, StreamStore
from tests.support.databases import admin, postgres_engine

# -- two small kinds ----------------------------------------------------------------------------------

Registry = dict[str, Any]


def _opened(data: Mapping[str, Any]) -> Registry:
    if not isinstance(data.get("club"), str) or not data["club"]:
        raise IllegalEvent("club must be a non-empty string")
    return {"club": data["club"], "players": {}}


def _registered(state: Registry, data: Mapping[str, Any]) -> Registry:
    pid = data.get("id")
    if not isinstance(pid, str) or not pid:
        raise IllegalEvent("id must be a non-empty string")
    if pid in state["players"]:
        raise IllegalEvent(f"player {pid} is already registered")
    return {**state, "players": {**state["players"], pid: data.get("name", pid)}}


def _renamed(state: Registry, data: Mapping[str, Any]) -> Registry:
    pid = data.get("id")
    if pid not in state["players"]:
        raise IllegalEvent(f"no player {pid}")
    return {**state, "players": {**state["players"], pid: data.get("name")}}


PLAYERS: StreamKind[Registry] = StreamKind(
    "players", "registry_opened", _opened, {"player_registered": _registered, "player_renamed": _renamed}, dict
)
TOURNAMENT: StreamKind[dict[str, Any]] = StreamKind(
    "tournament", "tournament_created", lambda d: {"name": d.get("name"), "rounds": 0},
    {"round_started": lambda s, d: {**s, "rounds": s["rounds"] + 1}}, dict,
)
KINDS: dict[str, StreamKind[Any]] = {"players": PLAYERS, "tournament": TOURNAMENT}


def register(pid: str, name: str | None = None, event_id: str | None = None) -> NewEvent:
    return NewEvent("player_registered", {"id": pid, "name": name or pid.title()}, event_id)


@pytest.fixture
def streams(engine: Engine) -> StreamStore:
    return StreamStore(engine, KINDS.__getitem__)


def registry(streams: StreamStore, *pids: str, stream_id: str | None = None) -> str:
    sid = streams.create("players", {"club": "Tiles"}, "desk", stream_id=stream_id)["stream_id"]
    if pids:
        streams.append(sid, [register(p) for p in pids], 1, "desk")
    return sid


def count_rows(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM stream_events")).scalar_one())


# -- creating, appending, reading -----------------------------------------------------------------------


def test_create_append_and_read_back(streams: StreamStore) -> None:
    created = streams.create("players", {"club": "Tiles"}, "desk")
    sid = created["stream_id"]
    assert len(sid) == 32 and created["seq"] == 1 and not created["replayed"]
    assert created["event"]["type"] == "registry_opened" and created["event"]["prev_hash"] == GENESIS
    stored, replayed = streams.append(sid, [register("ann"), register("bo", "Bo")], 1, "desk-2")
    assert not replayed and [e["seq"] for e in stored] == [2, 3]
    assert stored[0]["prev_hash"] == created["event"]["hash"]
    kind, state, seq = streams.state(sid)
    assert (kind, seq) == ("players", 3) and state == {"club": "Tiles", "players": {"ann": "Ann", "bo": "Bo"}}
    envelopes = streams.envelopes(sid)
    assert envelopes == [created["event"], *stored]
    assert envelopes[2]["recorded_by"] == "desk-2" and envelopes[2]["recorded_at"].endswith("Z")
    assert streams.verify(sid).ok and streams.verify(sid).events == 3
    # A store that has cached nothing folds the same state from the rows.
    assert StreamStore(streams.engine, KINDS.__getitem__).state(sid) == ("players", state, 3)


def test_streams_are_listed_with_their_titles_and_filtered_by_kind(streams: StreamStore) -> None:
    club = registry(streams, "ann")
    cup = streams.create("tournament", {"name": "Spring cup"}, "desk", stream_id="spring-cup")["stream_id"]
    assert cup == "spring-cup"
    listed = streams.streams()
    assert [(s["id"], s["kind"], s["title"], s["last_seq"]) for s in listed] == [
        (club, "players", "Tiles", 2), (cup, "tournament", "Spring cup", 1)]
    assert listed[0]["created_at"].endswith("Z") and listed[0]["updated_at"] >= listed[0]["created_at"]
    assert [s["id"] for s in streams.streams(kind="tournament")] == [cup]
    assert streams.streams(kind="nothing") == []


def test_create_refuses_a_taken_or_malformed_id_an_unknown_kind_and_an_illegal_start(streams: StreamStore) -> None:
    registry(streams, stream_id="club")
    with pytest.raises(Conflict, match="taken"):
        streams.create("tournament", {"name": "x"}, "desk", stream_id="club")
    for bad in ("Club", "a" * 33, "", "../x"):
        with pytest.raises(BadRequest, match="stream_id"):
            streams.create("players", {"club": "x"}, "desk", stream_id=bad)
    with pytest.raises(BadRequest, match="league"):
        streams.create("league", {"club": "x"}, "desk")
    with pytest.raises(Refused) as refused:
        streams.create("players", {"club": ""}, "desk")
    assert refused.value.body() == {"error": "illegal_event", "seq": 1, "type": "registry_opened",
                                    "reason": "club must be a non-empty string"}
    with pytest.raises(BadRequest, match="recorded_by"):
        streams.create("players", {"club": "x"}, "d" * 129)
    assert len(streams.streams()) == 1 and count_rows(streams.engine) == 1


def test_a_stale_expected_seq_is_a_409_and_stores_nothing(streams: StreamStore) -> None:
    sid = registry(streams, "ann")
    with pytest.raises(Conflict) as exc:
        streams.append(sid, [register("bo")], 1, "desk")
    assert exc.value.extra["current_seq"] == 2 and status_of(exc.value) == 409
    assert len(streams.envelopes(sid)) == 2 and streams.state(sid)[2] == 2


def test_an_illegal_event_stores_nothing_and_names_its_seq_and_reason(streams: StreamStore) -> None:
    sid = registry(streams, "ann")
    with pytest.raises(Refused) as exc:
        streams.append(sid, [register("bo"), register("ann")], 2, "desk")
    assert exc.value.extra["seq"] == 4 and exc.value.message == "player ann is already registered"
    assert status_of(exc.value) == 422
    with pytest.raises(BadRequest) as unknown:  # a type the kind does not know: 400, as for matches
        streams.append(sid, [NewEvent("round_started", {})], 2, "desk")
    assert unknown.value.extra["seq"] == 3 and "unknown event type" in unknown.value.message
    with pytest.raises(BadRequest, match="NUL"):  # the value limits
        streams.append(sid, [register("bo", "B\x00o")], 2, "desk")
    assert [e["seq"] for e in streams.envelopes(sid)] == [1, 2]
    assert streams.append(sid, [register("bo")], 2, "desk")[0][0]["seq"] == 3


def test_an_unknown_stream_is_not_found(streams: StreamStore) -> None:
    for sid in (uuid.uuid4().hex, "no-such", "../../etc", "x" * 100):
        with pytest.raises(StreamNotFound) as exc:
            streams.append(sid, [register("ann")], 1, "desk")
        assert isinstance(exc.value, NotFound) and status_of(exc.value) == 404
        for read in (streams.state, streams.envelopes, streams.verify):
            with pytest.raises(StreamNotFound):
                read(sid)


def test_event_id_retries_answer_what_was_stored(streams: StreamStore) -> None:
    first = streams.create("players", {"club": "Tiles"}, "desk", event_id="open-1")
    again = streams.create("players", {"club": "Tiles"}, "desk", event_id="open-1")
    assert again["replayed"] and again["stream_id"] == first["stream_id"] and again["event"] == first["event"]
    with pytest.raises(Conflict):
        streams.create("players", {"club": "Other"}, "desk", event_id="open-1")
    sid = first["stream_id"]
    batch = [register("ann", event_id="e-ann"), register("bo", event_id="e-bo")]
    stored, replayed = streams.append(sid, batch, 1, "desk")
    assert not replayed
    retried, replayed = streams.append(sid, batch, 1, "desk")  # the stale expected_seq of a retry is fine
    assert replayed and retried == stored
    with pytest.raises(Conflict, match="e-ann"):
        streams.append(sid, [register("ann", "Someone else", event_id="e-ann")], 3, "desk")
    with pytest.raises(Conflict):  # one of the batch only: not the same request
        streams.append(sid, [register("cy", event_id="e-bo")], 3, "desk")
    with pytest.raises(BadRequest, match="repeat"):
        streams.append(sid, [register("cy", event_id="x"), register("di", event_id="x")], 3, "desk")
    assert streams.state(sid)[2] == 3


# -- the database and the chain -----------------------------------------------------------------------


def test_the_database_refuses_to_change_stream_events(streams: StreamStore) -> None:
    engine = streams.engine
    sid = registry(streams, "ann", "bo")
    statements = ["UPDATE stream_events SET recorded_by = 'mallory'", "DELETE FROM stream_events",
                  "UPDATE stream_events SET data = '{}' WHERE seq = 2"]
    if engine.dialect.name == "postgresql":
        statements += ["TRUNCATE stream_events", "TRUNCATE streams CASCADE"]
    for sql in statements:
        with pytest.raises(DBAPIError, match="stream_events are append-only"):
            with engine.begin() as conn:
                conn.execute(text(sql))
    assert len(streams.envelopes(sid)) == 3 and streams.verify(sid).ok
    with engine.begin() as conn:
        assert missing_triggers(conn) == []
        drop_triggers(conn, ["stream_events"])
        assert missing_triggers(conn) == list(expected(engine.dialect.name, ["stream_events"]))
        repair_triggers(conn)
        assert missing_triggers(conn) == []


@pytest.mark.parametrize("edit", ["data", "delete"])
def test_an_edited_row_stops_the_fold_at_its_seq(streams: StreamStore, edit: str) -> None:
    sid = registry(streams, "ann", "bo", "cy")  # seqs 1-4
    with streams.engine.begin() as conn:
        drop_triggers(conn)
        if edit == "data":
            conn.execute(text("UPDATE stream_events SET data = :d WHERE stream_id = :s AND seq = 3"),
                         {"d": '{"id": "zed", "name": "Zed"}', "s": sid})
        else:
            conn.execute(text("DELETE FROM stream_events WHERE stream_id = :s AND seq = 3"), {"s": sid})
        create_triggers(conn)
    fresh = StreamStore(streams.engine, KINDS.__getitem__)  # nothing cached: the rows are read
    kind, state, seq = fresh.state(sid)
    assert seq == 2 and state == {"club": "Tiles", "players": {"ann": "Ann"}}
    check = fresh.verify(sid)
    assert not check.ok and check.first_bad_seq == 3
    assert ("hash" if edit == "data" else "seq 4 where 3") in (check.reason or "")
    with pytest.raises(ChainBroken) as exc:
        fresh.append(sid, [register("di")], 4, "desk")
    assert exc.value.seq == 3 and status_of(exc.value) == 409


def test_a_broken_first_event_leaves_no_state(streams: StreamStore) -> None:
    sid = registry(streams)
    with streams.engine.begin() as conn:
        drop_triggers(conn)
        conn.execute(text("UPDATE stream_events SET recorded_by = 'mallory' WHERE stream_id = :s"), {"s": sid})
        create_triggers(conn)
    fresh = StreamStore(streams.engine, KINDS.__getitem__)
    with pytest.raises(ChainBroken) as exc:
        fresh.state(sid)
    assert exc.value.seq == 1
    assert fresh.verify(sid).first_bad_seq == 1 and len(fresh.envelopes(sid)) == 1


# -- export → import ------------------------------------------------------------------------------------


@pytest.fixture
def other_engine(engine: Engine, tmp_path: Path) -> Iterator[Engine]:
    """A second migrated database on the same backend as `engine`."""
    if engine.dialect.name == "sqlite":
        other = make_engine(f"sqlite:///{tmp_path / 'other.db'}")
        upgrade(other)
        yield other
        other.dispose()
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    other = postgres_engine(schema)
    try:
        upgrade(other)
        yield other
    finally:
        other.dispose()
        admin(f'DROP SCHEMA "{schema}" CASCADE')


def as_file(envelopes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Envelopes as they come back from an exported file."""
    return [json.loads(export_line(env)) for env in envelopes]


def test_export_then_import_into_a_fresh_database_keeps_every_hash(streams: StreamStore, other_engine: Engine) -> None:
    sid = registry(streams, "ann", "bo", stream_id="club-main")
    exported = streams.envelopes(sid)
    other = StreamStore(other_engine, KINDS.__getitem__)
    result = other.import_stream("players", as_file(exported), "importer", stream_id=sid)
    assert result == {"stream_id": sid, "seq": 3, "existing": False, "added": 3}
    assert other.envelopes(sid) == exported
    assert other.verify(sid).ok and other.state(sid) == streams.state(sid)
    assert StreamStore(other_engine, KINDS.__getitem__).state(sid) == streams.state(sid)
    [listed] = other.streams()
    assert listed["title"] == "Tiles" and listed["created_at"] == exported[0]["recorded_at"]

    # Again: the same stream. Longer: the rest is appended. Without an id: found by its first event.
    assert other.import_stream("players", as_file(exported), "importer", stream_id=sid)["existing"]
    streams.append(sid, [register("cy")], 3, "desk")
    longer = streams.envelopes(sid)
    assert other.import_stream("players", as_file(longer), "importer", stream_id=sid) == {
        "stream_id": sid, "seq": 4, "existing": True, "added": 1}
    assert other.envelopes(sid) == longer
    assert other.import_stream("players", as_file(longer), "importer")["stream_id"] == sid
    assert other.append(sid, [register("di")], 4, "desk")[0][0]["prev_hash"] == longer[-1]["hash"]

    # Another stream under that id, or of another kind: a Conflict.
    stranger = streams.envelopes(streams.create("players", {"club": "Other"}, "desk")["stream_id"])
    with pytest.raises(Conflict, match="seq 1"):
        other.import_stream("players", as_file(stranger), "importer", stream_id=sid)
    cup = streams.envelopes(streams.create("tournament", {"name": "Cup"}, "desk")["stream_id"])
    with pytest.raises(Conflict, match="players stream"):
        other.import_stream("tournament", as_file(cup), "importer", stream_id=sid)
    assert [s["id"] for s in other.streams()] == [sid]


def test_an_import_is_checked_whole_before_anything_is_stored(streams: StreamStore) -> None:
    sid = registry(streams, "ann")
    good = as_file(streams.envelopes(sid))
    edited = [good[0], {**good[1], "data": {"id": "zed", "name": "Zed"}}]
    with pytest.raises(ImportRefused) as exc:
        streams.import_stream("players", edited, "importer", stream_id="copy")
    assert exc.value.line == 2 and "hash" in exc.value.reason and not exc.value.malformed
    illegal = chain_new([NewEvent("registry_opened", {"club": "x"}), register("ann"), register("ann")], 1, GENESIS,
                        "desk")
    with pytest.raises(ImportRefused) as exc:
        streams.import_stream("players", illegal, "importer", stream_id="copy")
    assert exc.value.line == 3 and "already registered" in exc.value.reason and status_of(exc.value) == 422
    with pytest.raises(ImportRefused) as exc:
        streams.import_stream("players", [{**good[0], "event_id": "x"}], "importer", stream_id="copy")
    assert exc.value.malformed and status_of(exc.value) == 400
    with pytest.raises(ImportRefused):
        streams.import_stream("players", [], "importer")
    assert [s["id"] for s in streams.streams()] == [sid]


# -- racing writers -------------------------------------------------------------------------------------


def test_concurrent_appends_to_one_stream_exactly_one_wins_per_expected_seq(streams: StreamStore) -> None:
    sid = registry(streams)
    writers, rounds = 6, 4
    # A store per thread: on SQLite only the database's own write lock is shared between them.
    stores = [StreamStore(streams.engine, KINDS.__getitem__) for _ in range(writers)]
    for r in range(rounds):
        barrier = threading.Barrier(writers)

        def attempt(i: int, r: int = r, barrier: threading.Barrier = barrier) -> str:
            barrier.wait()
            try:
                stores[i].append(sid, [register(f"p{r}-{i}")], 1 + r, f"desk-{i}")
            except Conflict as e:
                assert e.extra["current_seq"] == 2 + r
                return "lost"
            return "won"

        with ThreadPoolExecutor(writers) as pool:
            outcomes = list(pool.map(attempt, range(writers)))
        assert outcomes.count("won") == 1, outcomes
    assert streams.verify(sid).ok and streams.verify(sid).events == 1 + rounds
    _, state, seq = StreamStore(streams.engine, KINDS.__getitem__).state(sid)
    assert seq == 1 + rounds and len(state["players"]) == rounds
