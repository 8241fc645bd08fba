"""An event's data is stored in the hash chain's canonical spelling, so a read checks a row's hash over its
stored text as it is (`EventRow.linked_data`) instead of decoding it and encoding it again. Rows stored in
another spelling (before this, or by hand) still verify, the long way; a changed row still does not."""

from __future__ import annotations

import json
import random
from datetime import timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from projections.registry import GAME_NAMES, get_game
from projections.stats import fingerprint
from projections.timeline import fold_dicts
from recorder.facade import Scorebook
from recorder.log.file import GENESIS, event_hash, format_time, stored_event_hash
from recorder.log.inputs import data_problem
from recorder.log.readable import dumps_strictly
from recorder.readmodels.facts import stored_fingerprint
from recorder.sql.rows import EventRow, link_texts, match_rows, rows_by_match
from recorder.sql.triggers import drop_triggers
from tests.support.logs import START, round_start
from tests.support.tampering import five_events, restarted, tamper

texts = st.text(alphabet=st.sampled_from(["a", "Z", " ", '"', "\\", "\n", "\x00", "é", "€", "😀", "/"]), max_size=8)
values = st.recursive(
    st.one_of(st.none(), st.booleans(), texts, st.integers(-(2**53), 2**53),
              st.floats(allow_nan=False, allow_infinity=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(data=st.dictionaries(texts, values, max_size=5), seq=st.integers(1, 10**6), type=texts, by=texts)
def test_the_hash_over_the_stored_text_is_the_events_hash(data: dict[str, Any], seq: int, type: str, by: str) -> None:
    if data_problem(data, "data") is not None:
        return
    envelope = {"seq": seq, "type": type, "data": data, "recorded_at": "2026-12-01T20:00:00.123Z",
                "recorded_by": by, "prev_hash": GENESIS}
    stored = dumps_strictly(data)
    assert stored_event_hash(seq, type, stored, "2026-12-01T20:00:00.123Z", by, GENESIS) == event_hash(envelope)
    # and a spelling with spaces or escapes is not mistaken for it
    spaced = json.dumps(data)
    if spaced != stored:
        assert stored_event_hash(seq, type, spaced, "2026-12-01T20:00:00.123Z", by, GENESIS) != event_hash(envelope)


@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.dictionaries(texts, values, max_size=3), min_size=1, max_size=3),
       types=st.lists(texts, min_size=3, max_size=3), by=texts, seq=st.sampled_from([1, 7, True]))
def test_a_chain_is_linked_as_the_events_hashes_say(data: list[dict[str, Any]], types: list[str], by: str,
                                                    seq: int) -> None:
    """`link_texts` puts each row's hashed bytes together itself: it shows a row linked exactly when the row's
    hash is its envelope's `event_hash` (any text in the type and author; a seq that is not an int)."""
    if any(data_problem(d, "data") is not None for d in data):
        return
    rows, prev = [], GENESIS
    for i, d in enumerate(data):
        at = f"2026-12-01T20:00:0{i // 2}.123Z"  # shared by some rows, not all
        envelope = {"seq": seq + i if seq is not True else seq, "type": types[i], "data": d, "recorded_at": at,
                    "recorded_by": by, "prev_hash": prev}
        prev = event_hash(envelope)
        rows.append(EventRow("m", envelope["seq"], types[i], dumps_strictly(d), None, by, envelope["prev_hash"],
                             prev, at))
    link_texts(rows, GENESIS)
    assert [r.canonical for r in rows] == [True] * len(rows)
    assert [r.data for r in rows] == data
    changed = [EventRow("m", r.seq, r.type, r.text, None, r.recorded_by + "x" if i == len(rows) - 1 else r.recorded_by,
                        r.prev_hash, r.hash, r._time) for i, r in enumerate(rows)]
    link_texts(changed, GENESIS)
    assert [r.canonical for r in changed] == [True] * (len(rows) - 1) + [False]


def _linked(sb: Scorebook, match_id: str) -> list[bool]:
    """For each stored row: does its own hash over its stored text show it to be the next link?"""
    with sb.engine.connect() as conn:
        rows = match_rows(conn, match_id)
    prev, out = GENESIS, []
    for row in rows:
        out.append(row.linked_data(prev) is not None)
        prev = row.hash
    return out


def test_every_row_the_store_writes_is_checked_over_its_stored_text(scorebook: Scorebook) -> None:
    start = {**START, "players": [{"id": "ann", "name": "Zoë"}, {"id": "bo", "name": "Bo 😀"}],
             "meta": {"venue": 'Café "Le Coin"', "b": 1, "a": [1.5, None]}}
    appended = scorebook.start_match(start, "desk · Zoë")["match_id"]
    scorebook.append(appended, [round_start()], 1, "desk · Zoë")
    lines = [{"type": "match_started", "data": {**start, "meta": {"z": "ß", "a": 2}}}, round_start()]
    imported = scorebook.import_log("\n".join(json.dumps(line) for line in lines), "desk")["match_id"]
    assert _linked(scorebook, appended) == [True, True]
    assert _linked(scorebook, imported) == [True, True]
    assert _linked(scorebook, five_events(scorebook)) == [True] * 5


def test_a_row_in_another_spelling_verifies_the_long_way_and_a_changed_one_does_not(scorebook: Scorebook) -> None:
    match_id = five_events(scorebook)
    with scorebook.engine.connect() as conn:
        rows = match_rows(conn, match_id)
    old = json.dumps(rows[3].data)  # the spelling the store used before: spaces, insertion order
    assert old != rows[3].text
    tamper(scorebook.engine, "UPDATE events SET data = :d WHERE match_id = :m AND seq = 4", d=old, m=match_id)
    assert _linked(scorebook, match_id) == [True, True, True, False, True]
    sb = restarted(scorebook)
    assert sb.fold(match_id).seq == 5 and sb.verify(match_id).ok
    changed = json.dumps({**rows[3].data, "hat": 1})
    tamper(scorebook.engine, "UPDATE events SET data = :d WHERE match_id = :m AND seq = 4", d=changed, m=match_id)
    sb = restarted(scorebook)
    assert sb.fold(match_id).seq == 3 and sb.verify(match_id).first_bad_seq == 4


def test_the_stored_text_is_the_canonical_spelling(scorebook: Scorebook) -> None:
    match_id = five_events(scorebook)
    with scorebook.engine.connect() as conn:
        raw = conn.execute(text("SELECT CAST(data AS TEXT) FROM events WHERE match_id = :m AND seq = 1"),
                           {"m": match_id}).scalar_one()
    assert raw == dumps_strictly(json.loads(raw)) and ", " not in raw and ": " not in raw


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_fingerprint_from_the_stored_texts_is_the_folds(scorebook: Scorebook, name: str) -> None:
    game = get_game(name)
    players = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]
    log = game.random_match(random.Random(3), players[: max(2, game.descriptor.min_players)], None)
    match_id = scorebook.import_log("\n".join(json.dumps(e) for e in log), "desk")["match_id"]
    with scorebook.engine.connect() as conn:
        rows = match_rows(conn, match_id)
    fold = fold_dicts(log)
    for row, prev in zip(rows, [GENESIS] + [r.hash for r in rows], strict=False):
        row.linked_data(prev)
    assert stored_fingerprint(fold, rows) == fingerprint(fold)
    assert stored_fingerprint(fold, rows[:-1]) is None  # a row short: not the fold's events


def test_a_match_with_text_beyond_ascii_is_fingerprinted_from_its_fold(scorebook: Scorebook) -> None:
    start = {**START, "players": [{"id": "ann", "name": "Zoë"}, {"id": "bo", "name": "Bo"}]}
    match_id = scorebook.start_match(start, "desk")["match_id"]
    with scorebook.engine.connect() as conn:
        rows = match_rows(conn, match_id)
    assert rows[0].linked_data(GENESIS) is not None
    assert stored_fingerprint(scorebook.fold(match_id), rows) is None


def test_a_whole_match_is_linked_at_once_up_to_its_first_changed_row(scorebook: Scorebook) -> None:
    match_id = five_events(scorebook)
    with scorebook.engine.connect() as conn:
        rows = rows_by_match(conn, [match_id])[match_id]
    link_texts(rows, GENESIS)
    assert [r.canonical for r in rows] == [True] * 5
    assert [r.data for r in rows] == [json.loads(r.text or "") for r in rows]
    tamper(scorebook.engine, "UPDATE events SET data = :d WHERE match_id = :m AND seq = 3",
           d=json.dumps({**rows[2].data, "hat": 9}, separators=(",", ":")), m=match_id)
    with scorebook.engine.connect() as conn:
        rows = rows_by_match(conn, [match_id])[match_id]
    link_texts(rows, GENESIS)
    assert [r.canonical for r in rows] == [True, True, False, False, False]
    assert rows[2].linked_data(rows[1].hash) is None and rows[3].linked_data(rows[2].hash) is not None


def test_a_matchs_rows_are_read_in_seq_order_however_the_table_holds_them(scorebook: Scorebook) -> None:
    """`rows_by_match` does not ask the database to sort: rows stored out of seq order (here the match's rows
    written again newest first) still come in seq order, and still link."""
    match_id = five_events(scorebook)
    columns = "match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash, event_id"
    with scorebook.engine.begin() as conn:
        drop_triggers(conn)
        conn.execute(text(f"CREATE TEMPORARY TABLE kept AS SELECT {columns} FROM events WHERE match_id = :m"),
                     {"m": match_id})
        conn.execute(text("DELETE FROM events WHERE match_id = :m"), {"m": match_id})
        for seq in (5, 4, 3, 2, 1):  # one statement a row: each stored after the one before it
            conn.execute(text(f"INSERT INTO events ({columns}) SELECT {columns} FROM kept WHERE seq = :s"), {"s": seq})
        conn.execute(text("DROP TABLE kept"))
    with scorebook.engine.connect() as conn:
        if conn.dialect.name == "postgresql":  # read in the table's order (a few rows go by the index otherwise)
            conn.execute(text("SET LOCAL enable_indexscan = off"))
        rows = rows_by_match(conn, [match_id, "no such match"])
    assert list(rows) == [match_id] and [r.seq for r in rows[match_id]] == [1, 2, 3, 4, 5]
    link_texts(rows[match_id], GENESIS)
    assert all(r.canonical for r in rows[match_id])


def test_a_time_is_hashed_as_its_column_reads_it(scorebook: Scorebook) -> None:
    """On SQLite the canonical time is cut from the column's text when it has the column's own format; a time
    written by hand in another spelling is read by the column type and formatted, as before."""
    match_id = five_events(scorebook)
    with scorebook.engine.connect() as conn:
        rows = match_rows(conn, match_id)
    prevs = [GENESIS] + [r.hash for r in rows[:-1]]
    assert all(r.linked_data(prev) is not None for r, prev in zip(rows, prevs, strict=True))
    if scorebook.engine.dialect.name != "sqlite":
        return
    assert all(r._time == format_time(r.recorded_at) for r in rows)
    spelled = format_time(rows[1].recorded_at)  # the same time, in the hash chain's spelling
    tamper(scorebook.engine, "UPDATE events SET recorded_at = :t WHERE match_id = :m AND seq = 2", t=spelled,
           m=match_id)
    with scorebook.engine.connect() as conn:
        again = match_rows(conn, match_id)
    assert again[1]._time is None and again[1].recorded_at == rows[1].recorded_at.replace(tzinfo=timezone.utc)
    assert again[1].linked_data(again[0].hash) is not None


def test_postgresql_spells_a_time_as_the_chain_does(scorebook: Scorebook) -> None:
    """PostgreSQL reads each time in the hash chain's spelling (`format_time`): UTC, milliseconds cut, not rounded;
    the time itself is that instant."""
    if scorebook.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's reading")
    match_id = five_events(scorebook)
    # Microseconds past the millisecond the chain keeps: cut, so the row still links; a millisecond more does not.
    tamper(scorebook.engine, "UPDATE events SET recorded_at = recorded_at + interval '999 microseconds' "
           "WHERE match_id = :m AND seq = 2", m=match_id)
    tamper(scorebook.engine, "UPDATE events SET recorded_at = recorded_at + interval '1 millisecond' "
           "WHERE match_id = :m AND seq = 4", m=match_id)
    with scorebook.engine.connect() as conn:
        conn.execute(text("SET TIME ZONE 'America/St_Johns'"))  # a session in another zone reads the same text
        rows = match_rows(conn, match_id)
        stored = [t for (t,) in conn.execute(text("SELECT recorded_at FROM events WHERE match_id = :m ORDER BY seq"),
                                             {"m": match_id})]
    assert [r._time for r in rows] == [format_time(t) for t in stored]
    assert rows[1].recorded_at == stored[1].replace(microsecond=stored[1].microsecond // 1000 * 1000)
    prevs = [GENESIS] + [r.hash for r in rows[:-1]]
    assert [r.linked_data(prev) is not None for r, prev in zip(rows, prevs, strict=True)] == [True, True, True, False,
                                                                                               True]


def test_sqlite_rows_with_text_that_is_not_utf8_are_read_leniently(tmp_path: Path) -> None:
    sb = Scorebook.open(str(tmp_path / "bytes.db"))
    try:
        match_id = five_events(sb)
        tamper(sb.engine, "UPDATE events SET recorded_by = CAST(X'61FF62' AS TEXT) WHERE match_id = :m AND seq = 4",
               m=match_id)
        with sb.engine.connect() as conn:
            rows = rows_by_match(conn, [match_id])[match_id]
        assert [r.recorded_by for r in rows] == ["desk", "desk", "desk", "a\ufffdb", "desk"]
        link_texts(rows, GENESIS)
        assert [r.canonical for r in rows] == [True, True, True, False, False]
        sb.rebuild("match_facts")
        assert restarted(sb).fold(match_id).seq == 3
    finally:
        sb.close()
