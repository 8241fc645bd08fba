"""Match files without a database: JSON Lines in and out, the hash chain, and checking an import."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.errors import ImportRefused
from recorder.log.file import (
    EXPORT_KEYS,
    GENESIS,
    NewEvent,
    chain_new,
    check_chain,
    event_hash,
    export_line,
    export_text,
    format_time,
    import_lines,
    parse_jsonl,
    parse_time,
    prepare_import,
    stamped,
)
from tests.support.examples import load_example
from tests.support.logs import START, launch, round_start

NOW = datetime(2026, 9, 5, 19, 30, 1, 234567, tzinfo=timezone.utc)


def exported(name: str = "hats-off-01") -> str:
    """An example log as a stored match would be exported: every line hashed."""
    log, _ = load_example(name)
    return export_text(prepare_import(import_lines(log), "desk-1", NOW).envelopes)


def refusal(text: str) -> ImportRefused:
    with pytest.raises(ImportRefused) as exc:
        prepare_import(parse_jsonl(text), "desk")
    return exc.value


def test_logfile_needs_no_database() -> None:
    code = "import recorder.log.file, sys; print(sorted(m for m in sys.modules if m.split('.')[0] in "
    code += "{'sqlalchemy', 'sqlmodel', 'alembic', 'psycopg', 'fastapi'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_parse_skips_comments_and_blank_lines_and_keeps_line_numbers() -> None:
    text = "# a Hats Off match\n\n" + json.dumps({"type": "match_started", "data": START}) + "\n  # seat order\n"
    text += json.dumps(round_start()) + "\n"
    items = parse_jsonl(text)
    assert [i.line for i in items] == [3, 5]
    assert [i.obj["type"] for i in items] == ["match_started", "round_started"]


@pytest.mark.parametrize(
    ("line", "reason"), [("{not json", "not JSON"), ("[1, 2]", "JSON object"), ('"text"', "JSON object")]
)
def test_parse_errors_name_the_line(line: str, reason: str) -> None:
    text = json.dumps({"type": "match_started", "data": START}) + "\n# comment\n" + line + "\n"
    with pytest.raises(ImportRefused, match=reason) as exc:
        parse_jsonl(text)
    assert exc.value.extra["line"] == 3 and exc.value.line == 3 and exc.value.message.startswith("line 3:")
    assert exc.value.malformed


def test_import_form_gets_a_chain() -> None:
    log, expected = load_example("hats-off-01")
    prepared = prepare_import(import_lines(log), "desk-1", NOW)
    envs = prepared.envelopes
    assert [e["seq"] for e in envs] == list(range(1, len(log) + 1))
    assert envs[0]["prev_hash"] == GENESIS
    assert all(e["recorded_at"] == "2026-09-05T19:30:01.234Z" and e["recorded_by"] == "desk-1" for e in envs)
    assert check_chain(envs).as_json() == {"ok": True, "events": len(log)}
    assert prepared.fold.seq == expected["seq"]


def test_export_then_parse_then_prepare_keeps_every_hash() -> None:
    text = exported()
    first = [json.loads(line)["hash"] for line in text.splitlines()]
    again = prepare_import(parse_jsonl(text), "someone-else")  # another importer, another day
    assert [e["hash"] for e in again.envelopes] == first
    assert export_text(again.envelopes) == text
    assert check_chain(again.envelopes).ok


def test_export_lines_follow_the_format_field_order() -> None:
    env = chain_new([NewEvent("hat_launched", {"to": "off", "player": "ann", "hat": 1})], 3, "a" * 64, "desk", NOW)[0]
    shuffled = dict(reversed(list(env.items())))
    line = export_line(shuffled)
    assert line.endswith("\n") and tuple(json.loads(line)) == EXPORT_KEYS
    assert list(json.loads(line)["data"]) == ["to", "player", "hat"]  # data is written as recorded


def test_chain_new_chains_from_the_given_hash() -> None:
    events = [NewEvent(e["type"], e["data"]) for e in (launch("ann", 1, 5), launch("bo", 1))]
    envs = chain_new(events, 3, "f" * 64, "desk-2", NOW)
    assert [e["seq"] for e in envs] == [3, 4]
    assert envs[0]["prev_hash"] == "f" * 64 and envs[1]["prev_hash"] == envs[0]["hash"]
    assert envs[1]["hash"] == event_hash({k: v for k, v in envs[1].items() if k != "hash"})


def test_event_hash_is_over_canonical_json() -> None:
    env = {"seq": 1, "type": "note", "data": {"text": "Zoë", "about_seq": None}, "recorded_at": "x",
           "recorded_by": "d", "prev_hash": GENESIS}
    assert event_hash(env) == event_hash(dict(reversed(list(env.items()))))
    assert event_hash(env) != event_hash({**env, "data": {"text": "Zoe", "about_seq": None}})


def test_times_are_utc_milliseconds_with_z() -> None:
    assert format_time(NOW) == "2026-09-05T19:30:01.234Z"
    assert format_time(parse_time("2026-09-05T21:30:01.234+02:00")) == "2026-09-05T19:30:01.234Z"
    with pytest.raises(ValueError, match="timezone"):
        parse_time("2026-09-05T19:30:01")


def _tamper(text: str, seq: int, change: dict) -> str:
    rows = text.splitlines()
    row = json.loads(rows[seq - 1])
    row.update(change)
    rows[seq - 1] = json.dumps(row)
    return "# exported by hand\n" + "\n".join(rows) + "\n"  # the comment moves every event one line down


def test_a_tampered_hash_is_refused_naming_the_line() -> None:
    text = exported()
    row = json.loads(text.splitlines()[5])
    err = refusal(_tamper(text, 6, {"data": {**row["data"], "hat": 3}}))
    assert err.line == 7 and "hash does not match" in err.message and not err.malformed


def test_a_wrong_prev_hash_is_refused_naming_the_line() -> None:
    err = refusal(_tamper(exported(), 4, {"prev_hash": GENESIS}))
    assert err.line == 5 and "prev_hash" in err.message


def test_a_wrong_seq_is_refused_naming_the_line() -> None:
    err = refusal(_tamper(exported(), 9, {"seq": 10}))
    assert err.line == 10 and "seq 10 where 9 was expected" in err.message


def test_a_hashed_line_must_carry_the_whole_envelope() -> None:
    text = exported()
    rows = text.splitlines()
    row = json.loads(rows[1])
    del row["recorded_by"]
    rows[1] = json.dumps(row)
    err = refusal("\n".join(rows))
    assert err.line == 2 and "recorded_by" in err.message


def test_illegal_and_unknown_events_are_refused_naming_the_line() -> None:
    start = json.dumps({"type": "match_started", "data": START})
    err = refusal("\n".join([start, json.dumps(round_start()), json.dumps(launch("ann", 7))]))
    assert err.line == 3 and "hat_launched refused" in err.message and not err.malformed
    err = refusal("\n".join([start, json.dumps({"type": "tile_placed", "data": {}})]))
    assert err.line == 2 and err.malformed
    err = refusal("\n".join([start, json.dumps({"type": "note", "data": [1]})]))
    assert err.line == 2 and err.malformed and "data must be a JSON object" in err.message


def test_an_empty_file_is_refused() -> None:
    err = refusal("# nothing but a comment\n")
    assert err.malformed and "no events" in err.message


def test_imports_accept_fields_the_schemas_do_not_know() -> None:
    """Old logs may carry fields since dropped: only live appends refuse unknown fields."""
    start = {"type": "match_started", "data": {**START, "venue": "club house"}}
    prepared = prepare_import(import_lines([start, round_start()]), "desk")
    assert prepared.envelopes[0]["data"]["venue"] == "club house"


def test_check_chain_finds_the_first_bad_seq() -> None:
    envs = [json.loads(line) for line in exported().splitlines()]
    assert check_chain(envs).ok
    changed = [dict(e) for e in envs]
    changed[4] = {**changed[4], "recorded_by": "mallory"}
    changed[8] = {**changed[8], "recorded_by": "mallory"}
    result = check_chain(changed)
    assert (result.ok, result.first_bad_seq, result.events) == (False, 5, 5)
    assert "hash" in (result.reason or "")
    result = check_chain(envs[:3] + envs[4:])  # seq 4 left out
    assert result.first_bad_seq == 4 and "seq 5 where 4" in (result.reason or "")
    relinked = [dict(e) for e in envs]
    relinked[6]["prev_hash"] = GENESIS
    assert check_chain(relinked).first_bad_seq == 7
    assert check_chain(relinked).as_json()["reason"] == "prev_hash is not the previous event's hash"


def _nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("obj", [
    launch("ann", 1, 5),
    {"type": "hat_launched", "data": {"player": "ann", "hat": 1, "to": "off", "notes": ["x" * 4000] * 20}},
    {"type": "hat_launched", "data": {"player": "a\x00nn", "hat": 1, "to": "off"}},
    {"type": "hat_launched", "data": {"player": "ann", "hat": 2**60, "to": "off"}},
    {"type": "hat_launched", "data": {"deep": _nested(40)}},
    {"type": "x" * 65, "data": {}},
    {"type": "", "data": {}},
    {"type": "hat_launched", "data": {"player": "\ud800"}},
    {"type": "match_started", "data": {**START, "meta": {"table": "y" * 20_000}}},
])
def test_a_plain_line_is_checked_and_stored_as_a_line_with_more_keys_is(obj: dict) -> None:
    """`{"type", "data"}` lines take a shorter way through the import's checks (recorder/log/file.py): the same
    envelope, text and refusal as the same line with a `recorded_by` (the importer's own name) beside them."""
    from recorder.log.file import ImportLine, _import_envelope

    def outcome(line: dict) -> object:
        try:
            return _import_envelope(ImportLine(7, line), 3, "a" * 64, "2026-12-02T08:00:00.000Z", "desk")
        except ImportRefused as e:
            return (type(e), str(e), e.line)

    assert outcome(obj) == outcome({**obj, "recorded_by": "desk"})


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_the_encoders_made_once_write_what_json_writes(value: object) -> None:
    """`readable.one_shot`: the stored spelling and the hashed one, the same text (or the same error) as
    `JSONEncoder.encode` for any JSON value, NaN and infinities included."""
    import json

    from recorder.log.readable import one_shot

    for encoder in (json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False),
                    json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)):
        try:
            expected: object = encoder.encode(value)
        except ValueError as e:
            expected = str(e)
        try:
            got: object = one_shot(encoder)(value)
        except ValueError as e:
            got = str(e)
        assert got == expected


@given(st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(9998, 12, 30),
                    timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=5, minutes=30)),
                                               timezone(timedelta(hours=-8))])))
def test_stamped_is_the_time_as_format_time_spells_it(t: datetime) -> None:
    """The append's rows take their time from `stamped` instead of parsing the envelope's text back."""
    at, spelled = stamped(t)
    assert spelled == format_time(t)
    assert at == parse_time(format_time(t))
    assert at.tzinfo is not None


def test_stamped_reads_the_clock_in_utc_to_the_millisecond() -> None:
    before = datetime.now(timezone.utc)
    at, spelled = stamped()
    assert before - timedelta(milliseconds=1) < at <= datetime.now(timezone.utc)
    assert at.microsecond % 1000 == 0 and at.utcoffset() == timedelta(0)
    assert spelled == format_time(at) and spelled.endswith("Z")
