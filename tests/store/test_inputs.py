"""Everything that comes in is checked at the boundary (recorder.log.inputs, recorder.api.guards), the same on
both databases; and every read survives any row in the table (recorder.log.readable).

The table of bad inputs goes through the HTTP API (the whole server app: the dashboard mount too) on
SQLite and PostgreSQL: the same status, an error body naming the field or the limit, nothing stored.
Rows that break the limits are put in the table with SQL, as someone with database access could.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from projections.registry import all_games
from recorder.access import auth
from recorder.api import create_api
from recorder.api.limits import MAX_BODY_BYTES
from recorder.errors import BadRequest, ImportRefused
from recorder.facade import Scorebook
from recorder.log.file import event_hash, import_lines, parse_jsonl, prepare_import
from recorder.log.inputs import (
    MAX_DATA_BYTES,
    MAX_DEPTH,
    MAX_EVENT_ID_CHARS,
    MAX_KEY_CHARS,
    MAX_META_BYTES,
    MAX_NAME_CHARS,
    MAX_PLAYER_ID_CHARS,
    MAX_POSITION,
    MAX_SAFE_INTEGER,
    MAX_SEQ,
    MAX_STRING_CHARS,
    MAX_TYPE_CHARS,
    check_event,
    check_match_started,
    is_match_id,
    json_bytes,
    json_problem,
)
from recorder.log.readable import dumps_strictly, loads_leniently, readable_data, readable_meta
from recorder.sql.engine import make_engine
from recorder.sql.triggers import create_triggers, drop_triggers
from recorder.store.matches import MAX_BATCH
from scorebook.app import build_app
from tests.support.logs import PLAYERS, START, round_start
from tests.support.paths import DOCS
from tests.support.tampering import UNREADABLE_ROWS_BOTH, UNREADABLE_ROWS_SQLITE, nested, nested_text

BIG = 2**63


# -- the limits, pure -------------------------------------------------------------------------------


def _depth(v: Any) -> int:
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    return 0


def test_the_limits_leave_ten_times_the_largest_real_event() -> None:
    """The measurement in recorder/log/inputs.py's docstring, on fewer seeds: every game, every player count."""
    largest, deepest = 0, 0
    for game in all_games():
        for n in range(game.descriptor.min_players, game.descriptor.max_players + 1):
            players = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(n)]
            for seed in range(3):
                for e in game.random_match(random.Random(seed), players, None):
                    check_event(e["type"], e["data"])
                    largest = max(largest, json_bytes(e["data"]))
                    deepest = max(deepest, _depth(e["data"]))
    assert 0 < largest * 10 <= MAX_DATA_BYTES and 0 < deepest * 10 <= MAX_DEPTH


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (nested(MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
        ({"x": float("nan")}, "d.x: NaN is not a JSON number"),
        ({"x": [float("inf")]}, "d.x[0]: Infinity"),
        ({"x": MAX_SAFE_INTEGER + 1}, "d.x: integer outside"),
        ({"x": -MAX_SAFE_INTEGER - 1}, "d.x: integer outside"),
        ({"x": "a\x00b"}, "d.x: holds a NUL character"),
        ({"x": "\ud800"}, "d.x: holds a lone surrogate"),
        ({"\x00": 1}, "d: a key holds a NUL"),
        ({"x": "y" * (MAX_STRING_CHARS + 1)}, f"longer than {MAX_STRING_CHARS} characters"),
        ({1: 1}, "key 1 is not a string"),
        ({"x": {1, 2}}, "d.x: a set is not a JSON value"),
    ],
)
def test_json_problem_names_the_field_and_the_limit(value: Any, says: str) -> None:
    problem = json_problem(value, "d")
    assert problem is not None and says in problem


def test_values_within_the_limits_pass() -> None:
    ok = {"x": nested(MAX_DEPTH - 1), "n": MAX_SAFE_INTEGER, "f": 1.5, "s": "Zoë 🎩", "b": None, "t": True}
    assert json_problem(ok, "d") is None
    check_event("note", {"text": "y" * MAX_STRING_CHARS}, "e" * 128)


def test_a_value_nested_far_deeper_than_python_recurses_is_refused_not_a_crash() -> None:
    assert "nested deeper" in (json_problem({"x": nested(100_000)}, "d") or "")


def test_match_started_limits_players_and_meta() -> None:
    with pytest.raises(BadRequest, match=r"players\[1\]\.id: longer than 64"):
        check_match_started({"game": "g", "players": [{"id": "a"}, {"id": "b" * 65}]})
    with pytest.raises(BadRequest, match=r"players\[0\]\.name: longer than 128"):
        check_match_started({"game": "g", "players": [{"id": "a", "name": "n" * 129}]})
    with pytest.raises(BadRequest, match=rf"meta: \d+ bytes as JSON, over {MAX_META_BYTES}"):
        check_match_started({"game": "g", "players": [], "meta": {"m": ["x" * 1000] * 17}})


def test_format_md_lists_every_limit() -> None:
    doc = (DOCS / "FORMAT.md").read_text(encoding="utf-8")
    section = doc.split("## Limits\n", 1)[1].split("\n## ", 1)[0]
    for value in (MAX_DEPTH, MAX_STRING_CHARS, MAX_KEY_CHARS, MAX_TYPE_CHARS, MAX_EVENT_ID_CHARS,
                  MAX_PLAYER_ID_CHARS, MAX_NAME_CHARS, MAX_BATCH):
        assert f"{value} " in section, value
    for value in (MAX_DATA_BYTES, MAX_META_BYTES, MAX_SAFE_INTEGER, MAX_SEQ, MAX_POSITION, MAX_BODY_BYTES // 2**20):
        assert f"{value:,}" in section, value


def test_match_ids_are_32_lowercase_hex_digits() -> None:
    assert is_match_id("0123456789abcdef0123456789abcdef")
    for bad in ("", "\x00", "0123456789ABCDEF0123456789ABCDEF", "0" * 33, "../x", "0" * 31 + "g"):
        assert not is_match_id(bad)


# -- imports, pure --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"type": "note", "data": {"x": ' + nested_text(200_000) + "}}", "nested deeper than"),
        ('{"type": "note", "data": {"x": ' + "9" * 5000 + "}}", "integer too long"),
        ('{"type": "note", "data": {"x": NaN}}', "NaN is not JSON"),
        ('{"type": "note", "data": {"x": -Infinity}}', "-Infinity is not JSON"),
    ],
)
def test_parse_jsonl_refuses_what_json_loads_cannot_or_should_not_take(line: str, says: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        parse_jsonl("# a comment\n\n" + line)
    assert refused.value.line == 3 and refused.value.malformed and says in refused.value.message


def _import_text(*lines: dict[str, Any]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        ([{"type": "match_started", "data": {**START, "meta": {"x": nested(300)}}}], "line 1: data: nested deeper"),
        ([{"type": "match_started", "data": START}, {"type": "note", "data": {"text": "t", "x": 1e400}}],
         "line 2: data.x: Infinity"),
        ([{"type": "match_started", "data": START, "recorded_by": "r" * 129}], "line 1: recorded_by: longer than 128"),
        ([{"type": "match_started", "data": START}, {"type": "note", "data": {"text": "t"}, "recorded_by": "a\x00"}],
         "line 2: recorded_by: holds a NUL"),
        ([{"type": "t" * 65, "data": {}}], "line 1: type: longer than 64"),
    ],
)
def test_prepare_import_checks_every_line_against_the_limits(lines: list[dict[str, Any]], says: str) -> None:
    """Lines already in memory (the Python API's import), which no JSON parser has seen."""
    with pytest.raises(ImportRefused, match=says) as refused:
        prepare_import(import_lines(lines), "importer")
    assert refused.value.malformed


def test_a_hashed_line_is_checked_too() -> None:
    env = {"seq": 1, "type": "match_started", "data": {**START, "meta": {"x": nested(40)}},
           "recorded_at": "2026-01-01T00:00:00.000Z", "recorded_by": "r", "prev_hash": "0" * 64}
    env["hash"] = event_hash(env)
    with pytest.raises(ImportRefused, match="line 1: data: nested deeper"):
        prepare_import(parse_jsonl(_import_text(env)), "importer")


# -- reading rows, pure ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "says"),
    [
        ([1, 2], "a JSON array, not an object"),
        (5, "a JSON number"),
        ("text", "a JSON string"),
        ({"x": nested(300)}, "nested deeper"),
        ({"x": float("nan")}, "NaN"),
        ({"x": "\udc00"}, "lone surrogate"),
        ({"x": "y" * (MAX_DATA_BYTES + 1)}, "longer than"),
        (loads_leniently("{not json"), "the stored text is not JSON"),
        (loads_leniently(nested_text(100_000)), "nested too deeply to read"),
        (loads_leniently(b"\xff\xfe"), "the stored text is not JSON"),
    ],
)
def test_stored_data_that_cannot_be_served_reads_as_a_marker(stored: Any, says: str) -> None:
    shown = readable_data(stored)
    assert list(shown) == ["unreadable"] and says in shown["unreadable"]
    json.dumps(shown, allow_nan=False).encode("utf-8")  # servable


def test_stored_meta_over_the_limit_reads_as_a_marker() -> None:
    assert list(readable_meta({"m": "x" * MAX_META_BYTES})) == ["unreadable"]
    assert readable_meta({"table": 4}) == {"table": 4}


def test_the_engines_write_standard_json_only_and_read_leniently() -> None:
    with pytest.raises(ValueError):
        dumps_strictly({"x": float("nan")})
    engine = make_engine("sqlite://")
    assert engine.dialect._json_serializer is dumps_strictly  # type: ignore[attr-defined]
    assert engine.dialect._json_deserializer is loads_leniently  # type: ignore[attr-defined]


# -- the same answer on both databases, through the HTTP API --------------------------------------


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(build_app(scorebook), raise_server_exceptions=False)


@pytest.fixture
def headers(scorebook: Scorebook) -> dict[str, str]:
    return {"Authorization": f"Bearer {scorebook.create_token('desk', 'admin')}"}


@dataclass(frozen=True)
class Bad:
    """One bad request: `path` may hold {mid} (a started match); `body` is JSON, `raw` is sent as is."""

    name: str
    method: str
    path: str
    status: int
    says: str
    body: Any = None
    raw: str | None = None
    content_type: str = "application/json"


def _start(**extra: Any) -> dict[str, Any]:
    return {**START, **extra}


def _players(**p: Any) -> dict[str, Any]:
    return _start(players=[{"id": "ann", **p}, {"id": "bo"}])


def _append(*events: dict[str, Any]) -> dict[str, Any]:
    return {"expected_seq": 2, "events": list(events)}


def _note(**data: Any) -> dict[str, Any]:
    return {"type": "note", "data": {"text": "t", **data}}


START_TEXT = json.dumps(START)[:-1]  # to append raw JSON members to
EVENTS = "/api/matches/{mid}/events"
IMPORT = "/api/matches/import"
NDJSON = "application/x-ndjson"

BAD_INPUTS = [
    # starting a match: the body is match_started's data
    Bad("meta nested 300 deep", "POST", "/api/matches", 400, "nested deeper than 32", _start(meta={"x": nested(300)})),
    Bad("player id over 64", "POST", "/api/matches", 400, "players[0].id: longer than 64", _players(id="a" * 65)),
    Bad("player name over 128", "POST", "/api/matches", 400, "players[0].name: longer than 128",
        _players(name="n" * 129)),
    Bad("NUL in a name", "POST", "/api/matches", 400, "players[0].name: holds a NUL", _players(name="A\x00n")),
    Bad("lone surrogate in a name", "POST", "/api/matches", 400, "lone surrogate",
        raw='{"game": "hats-off", "players": [{"id": "ann", "name": "\\ud800"}, {"id": "bo"}]}'),
    Bad("meta over 16 KiB", "POST", "/api/matches", 400, "meta: ",
        _start(meta={"m": "x" * 4000, "n": ["y" * 4000] * 4})),
    Bad("NaN in meta", "POST", "/api/matches", 400, "NaN", raw=START_TEXT + ', "meta": {"x": NaN}}'),
    Bad("integer 2^53 in meta", "POST", "/api/matches", 400, "integer outside", _start(meta={"x": 2**53})),
    Bad("event_id over 128", "POST", "/api/matches", 400, "event_id: longer than 128", _start(event_id="e" * 129)),
    Bad("body nested 200,000 deep", "POST", "/api/matches", 400, "nested too deeply", raw=nested_text(200_000)),
    Bad("5000-digit integer in a body", "POST", "/api/matches", 400, "integer too long",
        raw=START_TEXT + ', "meta": {"x": ' + "9" * 5000 + "}}"),
    # appending
    Bad("NaN in data", "POST", EVENTS, 400, "events[0].data.x: NaN",
        raw='{"expected_seq": 2, "events": [{"type": "note", "data": {"text": "t", "x": NaN}}]}'),
    Bad("Infinity in data", "POST", EVENTS, 400, "events[0].data.x: Infinity",
        raw='{"expected_seq": 2, "events": [{"type": "note", "data": {"text": "t", "x": 1e999}}]}'),
    Bad("data nested 300 deep", "POST", EVENTS, 400, "events[0].data: nested deeper than 32",
        _append(_note(x=nested(300)))),
    Bad("note text over 4096", "POST", EVENTS, 400, "events[0].data.text: longer than 4096",
        _append({"type": "note", "data": {"text": "t" * 4097}})),
    Bad("data over 64 KiB", "POST", EVENTS, 400, "bytes as JSON, over 65536", _append(_note(x=[123456] * 10000))),
    Bad("type over 64", "POST", EVENTS, 400, "events[0].type: longer than 64", _append({"type": "t" * 65})),
    Bad("NUL in an event_id", "POST", EVENTS, 400, "events[0].event_id: holds a NUL",
        _append({**_note(), "event_id": "e\x00"})),
    Bad("NUL in a note", "POST", EVENTS, 400, "events[0].data.text: holds a NUL", _append(_note(text="a\x00"))),
    Bad("NUL in a key", "POST", EVENTS, 400, "a key holds a NUL", _append(_note(**{"\x00": 1}))),
    Bad("integer -2^53 in data", "POST", EVENTS, 400, "integer outside", _append(_note(about_seq=-(2**53)))),
    Bad("lone surrogate in data", "POST", EVENTS, 400, "lone surrogate",
        raw='{"expected_seq": 2, "events": [{"type": "note", "data": {"text": "\\udfff"}}]}'),
    # importing
    Bad("import nested 200,000 deep", "POST", IMPORT, 400, "line 1: nested deeper than 32",
        raw='{"type": "match_started", "data": ' + nested_text(200_000) + "}", content_type=NDJSON),
    Bad("import 5000-digit integer", "POST", IMPORT, 400, "line 1: not JSON (an integer too long",
        raw=START_TEXT.replace("{", '{"type": "match_started", "data": {', 1) + ', "x": ' + "9" * 5000 + "}}",
        content_type=NDJSON),
    Bad("import NaN", "POST", IMPORT, 400, "line 2: not JSON (NaN",
        raw=_import_text({"type": "match_started", "data": START}) + '{"type": "note", "data": {"text": NaN}}',
        content_type=NDJSON),
    Bad("import recorded_by over 128", "POST", IMPORT, 400, "line 1: recorded_by: longer than 128",
        raw=_import_text({"type": "match_started", "data": START, "recorded_by": "r" * 129}), content_type=NDJSON),
    Bad("import player id over 64", "POST", IMPORT, 400, "line 1: data.players[1].id: longer than 64",
        raw=_import_text({"type": "match_started", "data": _start(players=[PLAYERS[0], {"id": "b" * 65}])}),
        content_type=NDJSON),
    Bad("import NUL in recorded_by", "POST", IMPORT, 400, "line 1: recorded_by: holds a NUL",
        raw=_import_text({"type": "match_started", "data": START, "recorded_by": "a\x00"}), content_type=NDJSON),
    Bad("import lone surrogate", "POST", IMPORT, 400, "line 1: data.players[0].name: holds a lone surrogate",
        raw=_import_text({"type": "match_started", "data": _players(name="\ud800")}), content_type=NDJSON),
    # query parameters
    Bad("from 2^63", "GET", EVENTS + f"?from={BIG}", 400, "query.from: Input should be less than or equal"),
    Bad("to 2^63", "GET", EVENTS + f"?to={BIG}", 400, "query.to: Input should be less than or equal"),
    Bad("after 2^63", "GET", f"/api/events?after={BIG}", 400, "query.after: Input should be less than or equal"),
    Bad("offset 2^63", "GET", f"/api/matches?offset={BIG}", 400, "query.offset: Input should be less than or equal"),
    Bad("at 2^63", "GET", f"/api/matches/{{mid}}/scores?at={BIG}", 400, "query.at: Input should be less than"),
    Bad("offset of 5000 digits", "GET", "/api/matches?offset=" + "9" * 5000, 400, "query.offset"),
    Bad("NUL in ?player", "GET", "/api/matches?player=%00", 400, "query parameter 'player' holds a NUL"),
    Bad("NUL in legal?player", "GET", "/api/matches/{mid}/legal?player=a%00", 400, "holds a NUL"),
    # paths
    Bad("NUL as a match id", "GET", "/api/matches/%00/export", 400, "the path holds a NUL"),
    Bad("NUL in an append path", "POST", "/api/matches/%00/events", 400, "the path holds a NUL", _append(_note())),
    Bad("a match id of another shape", "GET", "/api/matches/not-a-match/events", 404, "no match 'not-a-match'"),
    Bad("a 33-digit match id", "GET", "/api/matches/" + "a" * 33 + "/verify", 404, "no match"),
    Bad("an upper-case match id", "POST", "/api/matches/" + "A" * 32 + "/events", 404, "no match", _append(_note())),
    Bad("dot segments into the dashboard", "GET", "/_dash-component-suites/%2E%2E/x", 400, "'..' segment"),
    Bad("an unregistered dash file", "GET", "/_dash-component-suites/dash/nope.js", 404, "not valid"),
    Bad("NUL in a dashboard path", "GET", "/replay/%00", 400, "the path holds a NUL"),
]


def _counts(sb: Scorebook) -> tuple[int, int, int]:
    with sb.engine.connect() as conn:
        return tuple(  # type: ignore[return-value]
            conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in ("matches", "match_players", "events")
        )


def test_the_table_is_large_enough() -> None:
    assert len(BAD_INPUTS) >= 25 and len({b.name for b in BAD_INPUTS}) == len(BAD_INPUTS)


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=lambda b: b.name)
def test_bad_input_is_a_4xx_naming_the_problem_and_stores_nothing(
    client: TestClient, headers: dict[str, str], scorebook: Scorebook, bad: Bad
) -> None:
    started = scorebook.start_match(START)
    mid = started["match_id"]
    scorebook.append(mid, [round_start()], expected_seq=1)
    before = _counts(scorebook)
    kwargs: dict[str, Any] = {"headers": headers}
    if bad.raw is not None:
        kwargs["content"] = bad.raw.encode("utf-8", "surrogatepass")
        kwargs["headers"] = {**headers, "Content-Type": bad.content_type}
    elif bad.body is not None:
        kwargs["content"] = json.dumps(bad.body).encode()
        kwargs["headers"] = {**headers, "Content-Type": "application/json"}
    r = client.request(bad.method, bad.path.replace("{mid}", mid), **kwargs)
    assert r.status_code == bad.status, r.text[:500]
    body = r.json()
    assert set(body) >= {"error", "reason"} and bad.says in body["reason"], body
    assert _counts(scorebook) == before


def test_a_raw_dot_dot_path_is_refused_before_the_dashboard(client: TestClient) -> None:
    """httpx drops `..` from a URL; a client that sends it as is (curl --path-as-is) reaches the guard."""
    app = client.app
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": "/_dash-component-suites/../x", "raw_path": b"/_dash-component-suites/../x", "root_path": "",
             "query_string": b"", "headers": [], "server": ("testserver", 80), "client": ("c", 1)}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == 400 and b"'..' segment" in sent[1]["body"]


def test_the_python_api_checks_the_same_limits(scorebook: Scorebook) -> None:
    """The scorepad and the CLI go through the facade: the store checks, not only the HTTP models."""
    mid = scorebook.start_match(START)["match_id"]
    before = _counts(scorebook)
    with pytest.raises(BadRequest, match=r"events\[1\]\.data\.x: NaN"):
        scorebook.append(mid, [round_start(), _note(x=float("nan"))], expected_seq=1)
    with pytest.raises(BadRequest, match=r"players\[0\]\.id: holds a NUL"):
        scorebook.start_match(_players(id="a\x00"))
    with pytest.raises(BadRequest, match="recorded_by: longer than 128"):
        scorebook.start_match(START, recorded_by="r" * 129)
    with pytest.raises(BadRequest, match="nested deeper"):
        scorebook.append(mid, [{"type": "note", "data": {"text": "t", "x": nested(10_000)}}], expected_seq=1)
    assert _counts(scorebook) == before


def test_values_at_the_limits_are_stored_and_read_back_the_same(client: TestClient, headers: dict[str, str]) -> None:
    meta = {"x": nested(MAX_DEPTH - 2), "n": MAX_SAFE_INTEGER, "m": -MAX_SAFE_INTEGER, "s": "Zoë 🎩 " * 100}
    r = client.post("/api/matches", json=_start(meta=meta, players=[{"id": "a" * 64, "name": "n" * 128},
                                                                      {"id": "bo"}]), headers=headers)
    assert r.status_code == 201, r.text
    mid = r.json()["match_id"]
    assert client.get(f"/api/matches/{mid}").json()["meta"] == meta
    assert client.get(f"/api/matches/{mid}/verify").json() == {"ok": True, "events": 1}
    assert client.get(f"/api/matches/{mid}/events?from=2147483647").json() == {"events": []}


# -- any row in the table: every read survives ----------------------------------------------------


def _insert_event(sb: Scorebook, mid: str, seq: int, data_text: str) -> None:
    """A row as someone with database access could write it (inserting needs no trigger dropped), chained
    to the row before it but with a hash that cannot match."""
    with sb.engine.begin() as conn:
        postgres = conn.dialect.name == "postgresql"
        position = conn.execute(text("SELECT coalesce(max(position), 0) + 1 FROM events")).scalar_one()
        prev = conn.execute(text("SELECT hash FROM events WHERE match_id = :mid AND seq = :seq"),
                            {"mid": mid, "seq": seq - 1}).scalar_one()
        value = "CAST(:data AS json)" if postgres else ":data"
        conn.execute(
            text("INSERT INTO events (match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash) "
                 f"VALUES (:mid, :seq, :position, 'note', {value}, :at, 'someone', :prev, :hash)"),
            {"mid": mid, "seq": seq, "position": position, "data": data_text, "at": "2026-01-01 00:00:00",
             "prev": prev, "hash": "f" * 64},
        )


def _rows_for(scorebook: Scorebook) -> dict[str, str]:
    sqlite = scorebook.engine.dialect.name == "sqlite"
    return {**UNREADABLE_ROWS_BOTH, **(UNREADABLE_ROWS_SQLITE if sqlite else {})}


def _assert_every_raw_read_survives(client: TestClient, mid: str, bad_seq: int) -> None:
    _assert_every_raw_read_survives_with(client, mid, bad_seq, unreadable_data=True)


def _assert_every_raw_read_survives_with(client: TestClient, mid: str, bad_seq: int, unreadable_data: bool) -> None:
    listed = client.get("/api/matches")
    assert listed.status_code == 200, listed.text[:300]
    events = client.get(f"/api/matches/{mid}/events")
    assert events.status_code == 200, events.text[:300]
    shown = events.json()["events"][bad_seq - 1]
    assert shown["seq"] == bad_seq and (list(shown["data"]) == ["unreadable"]) == unreadable_data
    follow = client.get("/api/events?after=0")
    assert follow.status_code == 200 and any(e["seq"] == bad_seq and e["match_id"] == mid
                                             for e in follow.json()["events"])
    export = client.get(f"/api/matches/{mid}/export")
    assert export.status_code == 200
    assert [json.loads(line)["seq"] for line in export.text.splitlines()][-1] >= bad_seq
    verify = client.get(f"/api/matches/{mid}/verify")
    assert verify.status_code == 200
    assert verify.json()["ok"] is False and verify.json()["first_bad_seq"] <= bad_seq


@pytest.mark.parametrize("kind", [*UNREADABLE_ROWS_BOTH, *UNREADABLE_ROWS_SQLITE])
def test_every_read_survives_an_unreadable_event_row(client: TestClient, scorebook: Scorebook, kind: str) -> None:
    rows = _rows_for(scorebook)
    if kind not in rows:
        pytest.skip("PostgreSQL's json type does not take this text")
    mid = scorebook.start_match(START)["match_id"]
    scorebook.append(mid, [round_start()], expected_seq=1)
    _insert_event(scorebook, mid, 3, rows[kind])  # beyond the match's head: the fold never reads it
    _assert_every_raw_read_survives(client, mid, 3)
    assert client.get(f"/api/matches/{mid}").status_code == 200
    verify = client.get(f"/api/matches/{mid}/verify").json()
    assert verify["first_bad_seq"] == 3 and "the stored data cannot be read" in verify["reason"]


def test_sqlite_text_that_is_not_utf8_reads(tmp_path: Path) -> None:
    """SQLite keeps whatever bytes it is given in a TEXT column; a read must not fail on them."""
    sb = Scorebook.open(str(tmp_path / "bytes.db"))
    try:
        mid = sb.start_match(START)["match_id"]
        sb.append(mid, [round_start()], expected_seq=1)
        _insert_event(sb, mid, 3, "{}")
        with sb.engine.begin() as conn:
            drop_triggers(conn)
            conn.execute(text("UPDATE events SET data = CAST(X'7B2278223A22FF227D' AS TEXT), "
                              "recorded_by = CAST(X'61FF62' AS TEXT) WHERE match_id = :mid AND seq = 3"), {"mid": mid})
            create_triggers(conn)
        client = TestClient(create_api(sb), raise_server_exceptions=False)
        _assert_every_raw_read_survives_with(client, mid, 3, unreadable_data=False)
        shown = client.get(f"/api/matches/{mid}/events?from=3").json()["events"][0]
        assert shown["data"] == {"x": "\ufffd"} and shown["recorded_by"] == "a\ufffdb"
    finally:
        sb.close()


def test_every_raw_read_survives_an_unreadable_row_at_the_head(client: TestClient, scorebook: Scorebook) -> None:
    """The row counted in the match's last seq, as if appended: the raw reads (no fold) all answer."""
    mid = scorebook.start_match(START)["match_id"]
    scorebook.append(mid, [round_start()], expected_seq=1)
    _insert_event(scorebook, mid, 3, json.dumps({"x": nested(300)}))
    with scorebook.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET last_seq = 3 WHERE id = :mid"), {"mid": mid})
    _assert_every_raw_read_survives(client, mid, 3)


@pytest.mark.parametrize(
    "meta",
    [json.dumps({"x": nested(300)}), json.dumps({"m": "x" * (4 * MAX_META_BYTES)}), "[1, 2]", '"text"'],
    ids=["nested 300 deep", "huge", "a list", "a string"],
)
def test_every_read_survives_an_unreadable_meta(client: TestClient, scorebook: Scorebook, meta: str) -> None:
    mid = scorebook.start_match(START)["match_id"]
    with scorebook.engine.begin() as conn:
        value = "CAST(:meta AS json)" if conn.dialect.name == "postgresql" else ":meta"
        conn.execute(text(f"UPDATE matches SET meta = {value} WHERE id = :mid"), {"meta": meta, "mid": mid})
    listed = client.get("/api/matches")
    assert listed.status_code == 200, listed.text[:300]
    assert list(listed.json()["items"][0]["meta"]) == ["unreadable"]
    summary = client.get(f"/api/matches/{mid}")
    assert summary.status_code == 200 and list(summary.json()["meta"]) == ["unreadable"]
    assert client.get(f"/api/matches/{mid}/verify").json() == {"ok": True, "events": 1}


def test_a_token_role_does_not_matter_to_the_limits(scorebook: Scorebook, client: TestClient) -> None:
    """A referee's and an admin's appends are checked the same as a recorder's."""
    mid = scorebook.start_match(START)["match_id"]
    for role in auth.ROLES:
        h = {"Authorization": f"Bearer {scorebook.create_token(f'{role}-1', role)}"}
        r = client.post(f"/api/matches/{mid}/events", json=_append(_note(x=nested(40))) | {"expected_seq": 1},
                        headers=h)
        assert r.status_code == 400 and "nested deeper" in r.json()["reason"]
