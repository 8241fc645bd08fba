"""An event's data is stored in the hash chain's canonical spelling, so a read checks a row's hash over its
stored text as it is (`EventRow.linked_data`) instead of decoding it and encoding it again. Rows stored in
another spelling (before this, or by hand) still verify, the long way; a changed row still does not."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from projections.registry import GAME_NAMES, get_game
from projections.stats import fingerprint
from projections.timeline import fold_dicts
from recorder.event_rows import match_rows
from recorder.facade import Scorebook
from recorder.inputs import data_problem
from recorder.logfile import GENESIS, event_hash, stored_event_hash
from recorder.read_model_rows import stored_fingerprint
from recorder.readable import dumps_strictly
from tests.logs import START, round_start
from tests.test_integrity import five_events, restarted, tamper

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
