"""The event store on each backend: atomic checked appends, idempotency, the append-only database,
the hash chain, export → import, and racing writers."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from recorder.errors import BadRequest, Conflict, ImportRefused, MatchNotFound, Refused
from recorder.log.file import ImportLine, NewEvent, parse_jsonl
from recorder.sql.engine import make_engine
from recorder.sql.migrate import upgrade
from recorder.sql.triggers import drop_triggers
from recorder.store.matches import EventStore
from tests.support.examples import load_example
from tests.support.logs import START, illegal_launch, launch, round_start


def new(e: dict) -> NewEvent:
    return NewEvent(e["type"], e["data"], e.get("event_id"))


def started(store: EventStore) -> str:
    match_id = store.create_match(dict(START), "desk-1")["match_id"]
    store.append(match_id, [new(round_start())], 1, "desk-1")
    return match_id


def lines(objs: list[dict]) -> list[ImportLine]:
    return [ImportLine(n, o) for n, o in enumerate(objs, start=1)]


def test_append_stores_a_chained_batch(store: EventStore) -> None:
    match_id = started(store)
    stored, replayed = store.append(match_id, [new(launch("ann", 1, 5)), new(launch("bo", 2, 3))], 2, "desk-2")
    assert not replayed
    assert [e["seq"] for e in stored] == [3, 4]
    events = store.events(match_id)
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    assert events[0]["prev_hash"] == "0" * 64
    assert all(b["prev_hash"] == a["hash"] for a, b in zip(events, events[1:], strict=False))
    assert events[2]["recorded_by"] == "desk-2" and events[2]["recorded_at"].endswith("Z")
    assert store.verify(match_id).ok
    assert store.summary(match_id)["seq"] == 4
    assert store.events(match_id, 2, 3) == events[1:3]


def test_wrong_expected_seq_is_a_conflict_with_the_current_seq(store: EventStore) -> None:
    match_id = started(store)
    with pytest.raises(Conflict) as exc:
        store.append(match_id, [new(launch("ann", 1, 5))], 1, "desk")
    assert exc.value.extra["current_seq"] == 2
    assert len(store.events(match_id)) == 2


def test_illegal_event_in_a_batch_stores_nothing(store: EventStore) -> None:
    match_id = started(store)
    before = store.events(match_id)
    with pytest.raises(Refused) as exc:
        store.append(match_id, [new(launch("ann", 1, 5)), new(illegal_launch())], 2, "desk")
    assert exc.value.body()["seq"] == 4 and exc.value.body()["type"] == "hat_launched"
    assert "7" in exc.value.message
    assert store.events(match_id) == before
    assert store.summary(match_id)["seq"] == 2
    # the cached fold was not touched either: the legal event still goes in at seq 3
    stored, _ = store.append(match_id, [new(launch("ann", 1, 5))], 2, "desk")
    assert stored[0]["seq"] == 3


def test_unknown_event_type_is_a_bad_request(store: EventStore) -> None:
    match_id = started(store)
    with pytest.raises(BadRequest, match="unknown event type"):
        store.append(match_id, [NewEvent("tile_placed", {})], 2, "desk")
    assert store.summary(match_id)["seq"] == 2


def test_a_misspelled_field_is_a_bad_request_naming_it_and_stores_nothing(store: EventStore) -> None:
    match_id = started(store)
    before = store.events(match_id)
    typo = {"player": "bo", "hat": 1, "to": {"hole": {"area": "bo", "numbr": 4}}}
    with pytest.raises(BadRequest, match="numbr") as exc:
        store.append(match_id, [new(launch("ann", 1, 5)), NewEvent("hat_launched", typo)], 2, "desk")
    assert exc.value.body()["seq"] == 4 and exc.value.body()["type"] == "hat_launched"
    assert "to.hole.numbr" in exc.value.message
    with pytest.raises(BadRequest, match="'colour'"):
        store.append(match_id, [NewEvent("hat_launched", {**launch("ann", 1)["data"], "colour": "red"})], 2, "d")
    with pytest.raises(BadRequest, match="'about'"):
        store.append(match_id, [NewEvent("note", {"text": "ruling", "about": 2})], 2, "desk")
    assert store.events(match_id) == before
    stored, _ = store.append(match_id, [new(launch("ann", 1, 5))], 2, "desk")  # the cache was not touched
    assert stored[0]["seq"] == 3


def test_a_misspelled_match_started_field_is_a_bad_request(store: EventStore) -> None:
    with pytest.raises(BadRequest, match="'optoins'") as exc:
        store.create_match({**START, "optoins": {"target_score": 30}}, "desk")
    assert exc.value.body()["type"] == "match_started"
    with pytest.raises(BadRequest, match="'players.0.nmae'"):
        store.create_match({**START, "players": [{"id": "ann", "nmae": "Ann"}, {"id": "bo"}]}, "desk")
    assert store.list_matches() == ([], 0, None)
    # a create body's event_id is the retry key, not a field of match_started
    a = store.create_match({**START, "event_id": "m-7"}, "desk")
    b = store.create_match(dict(START), "desk", event_id="m-7")
    assert b["replayed"] and b["match_id"] == a["match_id"] and "event_id" not in a["event"]["data"]


def test_unknown_match(store: EventStore) -> None:
    with pytest.raises(MatchNotFound):
        store.append("nope", [new(launch("ann", 1))], 1, "desk")
    with pytest.raises(MatchNotFound):
        store.events("nope")


def test_retry_with_the_same_event_id_stores_nothing_new(store: EventStore) -> None:
    match_id = started(store)
    batch = [NewEvent("hat_launched", launch("ann", 1, 5)["data"], "tablet-7:1")]
    first, replayed1 = store.append(match_id, batch, 2, "desk")
    again, replayed2 = store.append(match_id, batch, 2, "desk")  # the retry's expected_seq is now stale
    assert (replayed1, replayed2) == (False, True)
    assert again == first
    assert len(store.events(match_id)) == 3
    with pytest.raises(Conflict, match="tablet-7:1"):
        store.append(match_id, [NewEvent("hat_launched", launch("ann", 2, 5)["data"], "tablet-7:1")], 3, "desk")
    assert len(store.events(match_id)) == 3


def test_create_match_is_idempotent_too(store: EventStore) -> None:
    a = store.create_match(dict(START), "desk", event_id="m-1")
    b = store.create_match(dict(START), "desk", event_id="m-1")
    assert a["match_id"] == b["match_id"] and b["replayed"]
    assert store.list_matches()[1] == 1


def test_concurrent_retries_of_a_create_store_one_match(store: EventStore) -> None:
    barrier = threading.Barrier(6)
    results: list[dict] = []

    def create() -> None:
        barrier.wait()
        results.append(store.create_match(dict(START), "desk", event_id="m-race"))

    threads = [threading.Thread(target=create) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 6 and len({r["match_id"] for r in results}) == 1
    assert sum(not r["replayed"] for r in results) == 1
    assert store.list_matches()[1] == 1


def test_database_refuses_update_and_delete(store: EventStore) -> None:
    match_id = started(store)
    for sql in (
        "UPDATE events SET recorded_by = 'mallory'",
        "DELETE FROM events",
        "UPDATE events SET data = '{}' WHERE seq = 2",
    ):
        with pytest.raises(DBAPIError, match="append-only"):
            with store.engine.begin() as conn:
                conn.execute(text(sql))
    if store.engine.dialect.name == "postgresql":
        with pytest.raises(DBAPIError, match="append-only"):
            with store.engine.begin() as conn:
                conn.execute(text("TRUNCATE events CASCADE"))
    assert len(store.events(match_id)) == 2 and store.verify(match_id).ok


def test_tampering_is_found_at_the_first_bad_seq(store: EventStore) -> None:
    match_id = started(store)
    store.append(match_id, [new(launch("ann", 1, 5)), new(launch("ann", 2, 6)), new(launch("bo", 1, 2))], 2, "d")
    with store.engine.begin() as conn:
        drop_triggers(conn)
        conn.execute(
            text("UPDATE events SET data = :d WHERE match_id = :m AND seq = 4"),
            {"d": '{"player": "ann", "hat": 2, "to": "off"}', "m": match_id},
        )
    result = store.verify(match_id)
    assert not result.ok and result.first_bad_seq == 4 and "hash" in (result.reason or "")


def test_export_then_import_reproduces_the_hashes(store: EventStore, tmp_path: Path) -> None:
    log, expected = load_example("hats-off-01")
    original = store.import_log(lines(log), "importer")["match_id"]
    exported = "".join(store.export_lines(original))
    other = EventStore(make_engine(f"sqlite:///{tmp_path / 'other.db'}"))
    upgrade(other.engine)
    copy = other.import_log(parse_jsonl(exported), "someone-else")
    assert copy["existing"] is False and copy["added"] == len(log)
    assert [e["hash"] for e in other.events(copy["match_id"])] == [e["hash"] for e in store.events(original)]
    assert other.verify(copy["match_id"]).ok
    from projections.scores import scores_json

    assert scores_json(other.fold(copy["match_id"]), None) == expected


def test_importing_a_match_already_stored_answers_it(store: EventStore) -> None:
    log, _ = load_example("hats-off-01")
    first = store.import_log(lines(log), "importer", "club.jsonl")
    assert first["existing"] is False
    again = store.import_log(lines(log), "someone-else", "club.jsonl")  # the same file: no second match
    exported = store.import_log(parse_jsonl("".join(store.export_lines(first["match_id"]))), "x")  # its export
    for answer in (again, exported):
        assert answer == {"match_id": first["match_id"], "seq": len(log), "existing": True, "added": 0}
    items, total, _ = store.list_matches()
    assert total == 1
    assert [i["imported_by"] for i in store.summary(first["match_id"])["imports"]] == ["importer"]


def test_an_export_that_extends_a_stored_match_appends_the_rest(store: EventStore, tmp_path: Path) -> None:
    match_id = started(store)
    short = "".join(store.export_lines(match_id))
    other = EventStore(make_engine(f"sqlite:///{tmp_path / 'club.db'}"))
    upgrade(other.engine)
    copy = other.import_log(parse_jsonl(short), "x", "night-1.jsonl")["match_id"]
    store.append(match_id, [new(launch("ann", 1, 5)), new(launch("ann", 2, 6))], 2, "desk-1")
    longer = other.import_log(parse_jsonl("".join(store.export_lines(match_id))), "y", "night-2.jsonl")
    assert longer == {"match_id": copy, "seq": 4, "existing": True, "added": 2}
    assert other.events(copy) == store.events(match_id)
    assert other.verify(copy).ok and other.fold(copy).seq == 4
    imports = other.summary(copy)["imports"]
    assert [(i["file_name"], i["first_seq"], i["last_seq"]) for i in imports] == [
        ("night-1.jsonl", 1, 2), ("night-2.jsonl", 3, 4)]


def test_a_file_that_differs_from_a_stored_match_after_the_same_start_is_a_conflict(store: EventStore) -> None:
    match_id = started(store)
    store.append(match_id, [new(launch("ann", 1, 5))], 2, "desk-1")
    envelopes = store.events(match_id)
    fork = [*envelopes[:2], {"type": "note", "data": {"text": "forked"}}]
    with pytest.raises(Conflict, match="differs from seq 3"):
        store.import_log(lines(fork), "x")
    assert store.list_matches()[1] == 1


def test_import_refuses_a_tampered_file_and_stores_nothing(store: EventStore) -> None:
    log, _ = load_example("hats-off-01")
    exported = "".join(store.export_lines(store.import_log(lines(log), "i")["match_id"]))
    rows = exported.splitlines()
    rows[5] = rows[5].replace('"hat":', '"hat": ', 1).replace('"number":', '"number":1', 1)
    with pytest.raises(ImportRefused, match="line 6"):
        store.import_log(parse_jsonl("\n".join(rows)), "i")
    assert store.list_matches()[1] == 1


def test_import_refuses_an_illegal_event_and_stores_nothing(store: EventStore) -> None:
    log = [{"type": "match_started", "data": START}, round_start(), launch("ann", 1, 4), illegal_launch()]
    with pytest.raises(ImportRefused) as exc:
        store.import_log(lines(log), "i")
    assert exc.value.extra["line"] == 4 and "hat_launched refused" in exc.value.message
    assert store.list_matches() == ([], 0, None)


def test_rewind_supersedes_and_continues(store: EventStore) -> None:
    match_id = started(store)
    store.append(match_id, [new(launch("ann", 1, 5)), new(launch("ann", 2, 6))], 2, "desk")
    store.append(match_id, [NewEvent("rewind", {"to_seq": 3, "reason": "hat 2 bounced out"})], 4, "ref")
    fold = store.fold(match_id)
    assert set(fold.superseded_by) == {4} and fold.seq == 5
    # hat 2 may be launched again, since its launch no longer counts
    stored, _ = store.append(match_id, [new(launch("ann", 2, 7))], 5, "desk")
    assert stored[0]["seq"] == 6


def test_global_positions_follow_commit_order(store: EventStore) -> None:
    a, b = started(store), started(store)
    store.append(a, [new(launch("ann", 1, 5))], 2, "d")
    store.append(b, [new(launch("bo", 1, 5))], 2, "d")
    followed = store.events_after(0)
    assert [e["position"] for e in followed] == [1, 2, 3, 4, 5, 6]
    assert [e["match_id"] for e in followed][-2:] == [a, b]
    assert [e["position"] for e in store.events_after(4)] == [5, 6]


def test_racing_writers_one_wins_no_gap_no_duplicate(store: EventStore) -> None:
    match_id = started(store)
    writers = 8
    barrier = threading.Barrier(writers)
    outcomes: list[str] = []

    def write(hat: int, player: str) -> None:
        barrier.wait()
        try:
            store.append(match_id, [new(launch(player, hat, hat))], 2, f"w{player}{hat}")
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(1 + i % 6, "ann" if i < 6 else "bo")) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * (writers - 1) + ["ok"]
    assert [e["seq"] for e in store.events(match_id)] == [1, 2, 3]


def test_racing_writers_that_retry_all_land_in_order(store: EventStore) -> None:
    match_id = started(store)
    jobs = [("ann", h) for h in range(1, 7)] + [("bo", h) for h in range(1, 7)]
    barrier = threading.Barrier(len(jobs))

    def write(player: str, hat: int) -> None:
        barrier.wait()
        while True:
            seq = store.summary(match_id)["seq"]
            try:
                store.append(match_id, [new(launch(player, hat, hat))], seq, "w")
                return
            except Conflict:
                continue

    threads = [threading.Thread(target=write, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = store.events(match_id)
    assert [e["seq"] for e in events] == list(range(1, 15))
    launched = sorted((e["data"]["player"], e["data"]["hat"]) for e in events[2:])
    assert launched == sorted(jobs)
    assert store.verify(match_id).ok


def test_list_matches_filters_and_pages(store: EventStore) -> None:
    ids = [started(store) for _ in range(3)]
    other = store.create_match({"game": "hats-off", "players": [{"id": "cy"}, {"id": "dee"}]}, "d")["match_id"]
    items, total, _ = store.list_matches(player="ann", limit=2)
    assert total == 3 and len(items) == 2
    assert {m["match_id"] for m in store.list_matches(player="cy")[0]} == {other}
    assert store.list_matches(status="finished") == ([], 0, None)
    assert store.list_matches(game="tri-ominos")[1] == 0
    page2, _, _ = store.list_matches(player="ann", limit=2, offset=2)
    assert len(page2) == 1 and {m["match_id"] for m in items + page2} == set(ids)


def test_sqlite_readers_do_not_hold_the_write_lock(tmp_path: Path) -> None:
    """A reader mid-transaction neither blocks an append nor is blocked; two writers exclude each other."""
    import sqlite3

    from recorder import Scorebook
    from recorder.sql.engine import for_writing

    sb = Scorebook.open(str(tmp_path / "locks.db"))
    store, engine = sb.store, sb.engine
    match_id = started(store)
    with engine.connect() as reader:
        reader.execute(text("SELECT count(*) FROM events")).one()  # a read transaction is open
        stored, _ = store.append(match_id, [new(launch("ann", 1, 5))], 2, "desk")
        assert stored[0]["seq"] == 3
    with for_writing(engine).connect() as writer:
        writer.execute(text("SELECT count(*) FROM events")).one()  # began IMMEDIATE: holds the write lock
        other = sqlite3.connect(tmp_path / "locks.db", timeout=0.1, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.close()
    sb.close()


def test_keyset_pages_keep_matches_created_in_the_same_instant_in_id_order(store: EventStore) -> None:
    """A batch import dates its matches alike: the cursor's (created_at, id) row value still pages them all,
    each once, newest first and then by id, with a player's filter as without."""
    ids = [store.create_match(dict(START), "desk-1")["match_id"] for _ in range(5)]
    with store.engine.begin() as conn:
        for table in ("matches", "match_players"):
            conn.execute(text(f"UPDATE {table} SET created_at = (SELECT min(created_at) FROM {table})"))
    for player in (None, "ann"):
        seen: list[str] = []
        items, total, after = store.list_matches(player=player, limit=2)
        seen += [m["match_id"] for m in items]
        while after is not None:
            items, total, after = store.list_matches(player=player, limit=2, after=after)
            seen += [m["match_id"] for m in items]
        assert seen == sorted(ids, reverse=True) and total == 5


def test_a_long_import_is_stored_row_for_row(store: EventStore) -> None:
    """More rows than one query carries (PostgreSQL: COPY): every row, numbered, chained and read back as sent."""
    import random

    from projections.registry import get_game
    from recorder.sql.postgres import SCRIPT_ROWS

    players = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]
    log = get_game("hats-off").random_match(random.Random(5), players, {"target_score": 600})
    assert len(log) > 2 * SCRIPT_ROWS
    before = store.events_after(0, limit=10)
    result = store.import_log(lines(log), "desk")
    stored = store.events(result["match_id"])
    assert [(e["type"], e["data"]) for e in stored] == [(e["type"], e["data"]) for e in log]
    assert store.verify(result["match_id"]).ok
    positions = [e["position"] for e in store.events_after(0, limit=10_000)]
    assert positions == list(range(1, len(before) + len(log) + 1))
    assert store.import_log(lines(log), "desk")["existing"]  # the same file again: answered, not stored twice
