"""Live following (docs/LIVE.md): the Server-Sent Events streams of every match's and one match's
events, the notifier that wakes them (PostgreSQL's NOTIFY, SQLite's polling), their end (a limit, a
timeout, the server shutting down) and `scorebook follow`. SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from projections.registry import get_game
from recorder import live
from recorder.api import create_api
from recorder.demo import PLAYERS
from recorder.facade import Scorebook
from recorder.log.file import NewEvent, import_lines
from tests.support.hidden_tiles import in_progress_log, leaks, secret_tiles
from tests.support.servers import served


def messages(text: str) -> list[dict[str, str]]:
    """An event stream's messages (comment lines apart), each as its fields."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if "data" in fields:
            out.append(fields)
    return out


def _import(sb: Scorebook, log: list[dict[str, Any]], by: str = "desk") -> str:
    return str(sb.import_log(import_lines(log), by)["match_id"])


def _two_matches(sb: Scorebook) -> tuple[str, str, list[dict[str, Any]]]:
    """A finished Hats Off match and an unfinished Hi-Spot one (with hidden tiles); the latter's log."""
    players = [dict(p) for p in PLAYERS[:2]]
    done = _import(sb, get_game("hats-off").random_match(random.Random(3), players, None))
    log = in_progress_log(get_game("hi-spot"), 21, players)
    return done, _import(sb, log), log


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(create_api(scorebook))


def test_the_stream_of_every_match_serves_the_feed_with_positions_as_ids(client: TestClient,
                                                                       scorebook: Scorebook) -> None:
    _two_matches(scorebook)
    feed = client.get("/api/events?after=0&limit=1000").json()["events"]
    r = client.get("/api/events/stream?after=0&max_events=1000&timeout=1")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    got = messages(r.text)
    assert [json.loads(m["data"]) for m in got] == feed  # the same events, redacted the same way
    assert [m["id"] for m in got] == [str(e["position"]) for e in feed]
    assert "retry: 1000" in r.text


def test_last_event_id_resumes_and_wins_over_after(client: TestClient, scorebook: Scorebook) -> None:
    _two_matches(scorebook)
    feed = client.get("/api/events?after=0&limit=1000").json()["events"]
    middle = feed[len(feed) // 2]["position"]
    r = client.get("/api/events/stream?after=0&max_events=5", headers={"Last-Event-ID": str(middle)})
    assert [int(m["id"]) for m in messages(r.text)] == [e["position"] for e in feed if e["position"] > middle][:5]
    r = client.get(f"/api/events/stream?after={middle}&max_events=2")
    assert [int(m["id"]) for m in messages(r.text)] == [e["position"] for e in feed if e["position"] > middle][:2]


def test_without_a_position_the_stream_starts_at_the_head(client: TestClient, scorebook: Scorebook) -> None:
    _two_matches(scorebook)
    r = client.get("/api/events/stream?timeout=0.5")
    assert r.status_code == 200 and messages(r.text) == []


@pytest.mark.parametrize("bad", ["x", "-1", "1.5", "1e3", "9" * 30, "\u0663".encode()])
def test_a_bad_last_event_id_is_a_400_naming_it(client: TestClient, scorebook: Scorebook, bad: str | bytes) -> None:
    done, _, _ = _two_matches(scorebook)
    for url in ("/api/events/stream", f"/api/matches/{done}/stream"):
        r = client.get(url + "?timeout=1", headers={"Last-Event-ID": bad})
        assert r.status_code == 400, (url, r.text)
        assert r.json()["error"] == "bad_request" and "Last-Event-ID" in r.json()["reason"]
    r = client.get("/api/events/stream?after=-1&timeout=1")
    assert r.status_code == 400 and "after" in r.json()["reason"]
    r = client.get("/api/events/stream?timeout=0")
    assert r.status_code == 400 and "timeout" in r.json()["reason"]


def test_an_unknown_match_is_a_404_before_any_stream(client: TestClient, scorebook: Scorebook) -> None:
    r = client.get("/api/matches/no-such-match/stream?timeout=1")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert r.headers["content-type"].startswith("application/json")


def test_a_match_stream_has_that_match_only_and_redacts_for_spectators(client: TestClient,
                                                                      scorebook: Scorebook) -> None:
    done, playing, log = _two_matches(scorebook)
    secret = secret_tiles(get_game("hi-spot"), log)
    assert secret
    spectator = client.get(f"/api/matches/{playing}/stream?after=0&max_events={len(log)}")
    got = [json.loads(m["data"]) for m in messages(spectator.text)]
    assert [e["seq"] for e in got] == list(range(1, len(log) + 1))
    assert {e["match_id"] for e in got} == {playing}
    assert any(e.get("redacted") for e in got) and not leaks(spectator.text, secret)
    own = client.get(f"/api/matches/{playing}/events").json()["events"]  # what the match's read gives a spectator
    assert [e["data"] for e in got] == [e["data"] for e in own]
    referee = {"Authorization": f"Bearer {scorebook.create_token('ref', 'referee')}"}
    full = client.get(f"/api/matches/{playing}/stream?after=0&max_events={len(log)}", headers=referee)
    assert set(leaks(full.text, secret)) == secret and "redacted" not in full.text
    # the whole feed's stream hides the same tiles, and nothing of the finished match
    every = client.get("/api/events/stream?after=0&max_events=10000&timeout=1")
    assert not leaks(every.text, secret)
    assert not any(json.loads(m["data"]).get("redacted") for m in messages(every.text)
                   if json.loads(m["data"])["match_id"] == done)


def test_a_bad_token_is_a_401(client: TestClient) -> None:
    r = client.get("/api/events/stream?timeout=1", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401


def test_an_idle_stream_sends_keep_alive_comments(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import fastapi.routing

    monkeypatch.setattr(fastapi.routing, "_PING_INTERVAL", 0.1)
    r = client.get("/api/events/stream?timeout=1.5")
    assert r.text.count(": ping") >= 2 and messages(r.text) == []


# -- the notifier -----------------------------------------------------------------------------------------


def _append_a_note(sb: Scorebook, match_id: str) -> None:
    seq = sb.summary(match_id)["seq"]
    sb.append(match_id, [NewEvent("note", {"text": "table 3: live"})], seq, "desk")


def test_the_notifier_wakes_a_waiting_reader_after_a_commit(scorebook: Scorebook) -> None:
    _, playing, _ = _two_matches(scorebook)
    notifier = live.notifier_for(scorebook.engine)
    expected = live.ListeningNotifier if scorebook.engine.dialect.name == "postgresql" else live.PollingNotifier
    assert type(notifier) is expected and live.notifier_for(scorebook.engine) is notifier
    with notifier.subscribe() as sub:
        assert notifier.listening
        time.sleep(0.6)  # the first wake (the waker starting) is over
        sub.clear()
        if expected is live.PollingNotifier:  # PostgreSQL's channel is the database's: other tests' schemas wake it
            assert not sub.wait(0.6)  # nothing appended: the head is still, no wake
        began = time.monotonic()
        threading.Timer(0.2, _append_a_note, (scorebook, playing)).start()
        assert sub.wait(5)
        assert time.monotonic() - began < 1.5  # 0.2 s, then a poll (0.25 s) or a NOTIFY
    deadline = time.monotonic() + 3
    while notifier.listening and time.monotonic() < deadline:  # no one follows: the waker goes
        time.sleep(0.05)
    assert not notifier.listening


@pytest.mark.postgres
def test_postgres_notifies_at_commit_only(scorebook: Scorebook) -> None:
    """NOTIFY is sent in the append's transaction: a refused append (rolled back) wakes no one."""
    if scorebook.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL only")
    import psycopg

    from recorder.errors import StoreError

    _, playing, _ = _two_matches(scorebook)
    conninfo = scorebook.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"LISTEN {live.CHANNEL}")
        with pytest.raises(StoreError):
            scorebook.append(playing, [NewEvent("note", {"text": "stale"})], 1, "desk")  # a stale expected_seq
        # the channel is the database's: other tests' schemas may notify too; this match's id is the payload
        assert [n for n in conn.notifies(timeout=0.5) if n.payload == playing] == []
        _append_a_note(scorebook, playing)
        deadline = time.monotonic() + 3
        mine = []
        while not mine and time.monotonic() < deadline:
            mine = [n for n in conn.notifies(timeout=0.5) if n.payload == playing]
        assert len(mine) == 1 and mine[0].channel == live.CHANNEL


def test_follow_yields_events_as_they_are_appended(scorebook: Scorebook) -> None:
    _, playing, _ = _two_matches(scorebook)
    head = live.log_head(scorebook.engine)
    threading.Timer(0.3, _append_a_note, (scorebook, playing)).start()
    began = time.monotonic()
    got = list(live.follow(lambda p: scorebook.events_after(p), live.notifier_for(scorebook.engine), head,
                           max_events=1, timeout=10))
    assert [(e["type"], e["position"]) for e in got] == [("note", head + 1)]
    assert time.monotonic() - began < 2


def test_live_matches_are_in_progress_with_a_recent_event(scorebook: Scorebook) -> None:
    from datetime import timedelta

    from recorder.sql.tables import utcnow

    done, playing, _ = _two_matches(scorebook)
    assert live.live_match_ids(scorebook.engine) == [playing]
    later = utcnow() + timedelta(minutes=live.LIVE_MINUTES + 1)
    assert live.live_match_ids(scorebook.engine, now=later) == []
    assert done not in live.live_match_ids(scorebook.engine)


# -- a real server: streams woken by appends, and ended by the server's shutdown ---------------------------


@pytest.fixture
def server(scorebook: Scorebook) -> Iterator[str]:
    from scorebook.app import build_app

    with served(build_app(scorebook)) as url:
        yield url


def _read_stream(url: str, headers: dict[str, str], out: list[dict[str, str]], opened: threading.Event) -> None:
    with httpx.stream("GET", url, headers=headers, timeout=20) as r:
        assert r.status_code == 200
        text = ""
        for chunk in r.iter_text():
            opened.set()
            text += chunk
            out[:] = messages(text)
            if out:
                return


@pytest.mark.parametrize("path", ["/api/events/stream", "/api/matches/{id}/stream"])
def test_an_append_reaches_an_open_stream_within_a_second(scorebook: Scorebook, server: str, path: str) -> None:
    _, playing, log = _two_matches(scorebook)
    got: list[dict[str, str]] = []
    opened = threading.Event()
    reader = threading.Thread(target=_read_stream, args=(server + path.format(id=playing) + "?timeout=15", {},
                                                          got, opened))
    reader.start()
    assert opened.wait(10)  # the stream's first comment: subscribed, at the head
    began = time.monotonic()
    _append_a_note(scorebook, playing)
    reader.join(10)
    assert not reader.is_alive()
    took = time.monotonic() - began
    event = json.loads(got[0]["data"])
    assert (event["match_id"], event["seq"], event["type"]) == (playing, len(log) + 1, "note")
    assert got[0]["id"] == str(event["position"])
    assert took < 2.0, took  # about 0.3 s (SQLite's polling) or 0.05 s (NOTIFY) unloaded; shared CI is slower


def test_a_client_that_goes_leaves_no_subscriber_behind(scorebook: Scorebook, server: str) -> None:
    notifier = live.notifier_for(scorebook.engine)
    with httpx.stream("GET", server + "/api/events/stream", timeout=20) as r:
        next(r.iter_text())  # the stream's first comment: subscribed
        assert notifier.listening
    deadline = time.monotonic() + 5  # the server sees the disconnect, the stream's subscription is closed
    while notifier.listening and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not notifier.listening


def test_stop_streams_ends_open_streams_cleanly(scorebook: Scorebook, server: str) -> None:
    """What the server's shutdown does (SIGINT/SIGTERM, see `end_streams_on_exit`): every open stream ends
    as a complete response, so uvicorn's wait for open connections ends."""
    _two_matches(scorebook)
    done = threading.Event()
    body: list[str] = []

    def read() -> None:
        with httpx.stream("GET", server + "/api/events/stream", timeout=20) as r:
            body.append(r.read().decode())  # the whole response: returns only when the stream ends
        done.set()

    threading.Thread(target=read, daemon=True).start()
    notifier = live.notifier_for(scorebook.engine)
    deadline = time.monotonic() + 10
    while not notifier.listening and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    notifier.stop()
    assert done.wait(5) and body[0].startswith(":")


def test_the_shutdown_signal_ends_the_streams_and_then_runs_the_handler_before(scorebook: Scorebook) -> None:
    calls: list[int] = []
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGTERM, lambda s, f: calls.append(s))
        live.end_streams_on_exit()
        live.end_streams_on_exit()  # once only
        notifier = live.notifier_for(scorebook.engine)
        with notifier.subscribe() as sub:
            signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)  # type: ignore[operator]
            assert sub.stopped and calls == [signal.SIGTERM]
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def test_scorebook_serve_shuts_down_with_a_stream_open(tmp_path: Path) -> None:
    from tests.support.servers import ServerProcess

    srv = ServerProcess(f"sqlite:///{tmp_path / 'live.db'}", tmp_path / "serve.log")
    srv.start()
    opened = threading.Event()
    ended: list[str] = []

    def read() -> None:
        try:
            with httpx.stream("GET", srv.url + "/api/events/stream", timeout=30) as r:
                for chunk in r.iter_text():
                    opened.set()
                    ended.append(chunk)
            ended.append("end")
        except httpx.HTTPError as e:
            ended.append(f"error {e!r}")

    t = threading.Thread(target=read, daemon=True)
    t.start()
    try:
        assert opened.wait(10)
        began = time.monotonic()
        assert srv.stop() == 0  # SIGINT; ServerProcess.stop waits up to 30 s
        assert time.monotonic() - began < 5
        t.join(5)
        assert ended[-1] == "end"
    finally:
        srv.kill()


# -- scorebook follow --------------------------------------------------------------------------------------


def test_scorebook_follow_prints_each_event_as_it_comes(scorebook: Scorebook, bare_url: str) -> None:
    from typer.testing import CliRunner

    from scorebook.cli import app

    _, playing, log = _two_matches(scorebook)
    threading.Timer(0.5, _append_a_note, (scorebook, playing)).start()
    r = CliRunner().invoke(app, ["follow", playing, "--db", bare_url, "--max-events", "1", "--timeout", "10"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].split()[1:4] == [f"{playing}#{len(log) + 1}", "note", "desk"]
    assert "table 3: live" in lines[0]
    # from the start of the match: every event, in order
    r = CliRunner().invoke(app, ["follow", playing, "--db", bare_url, "--from-start", "--timeout", "0.5"])
    assert r.exit_code == 0, r.output
    assert len(r.output.strip().splitlines()) == len(log) + 1


def test_scorebook_follow_prints_as_a_process_and_ctrl_c_ends_it(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.support.servers import ROOT

    url = f"sqlite:///{tmp_path / 'follow.db'}"
    sb = Scorebook.open(url)
    _, playing, log = _two_matches(sb)
    proc = subprocess.Popen([sys.executable, "-m", "scorebook.cli", "follow", playing, "--from-start", "--db", url],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        recorded = [proc.stdout.readline() for _ in log]  # what is recorded already: it is following by now
        assert [r.split()[1] for r in recorded] == [f"{playing}#{k}" for k in range(1, len(log) + 1)]
        _append_a_note(sb, playing)
        line = proc.stdout.readline()
        assert f"{playing}#{len(log) + 1}  note  desk  " in line and "table 3: live" in line
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        sb.close()
