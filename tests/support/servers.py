"""`scorebook serve` as a real process for the crash and multi-server tests: started on a free port,
waited for, killed with SIGKILL, started again on the same database; an HTTP client that appends a known
legal log to a match one retry-safe batch at a time; and, for the chaos and two-server runs, their legal
logs, their matches started over HTTP and the check that every acknowledged event is stored."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from projections.registry import GAME_NAMES, get_game, with_rules_version
from recorder.demo import PLAYERS
from recorder.facade import Scorebook
from tests.support.paths import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(app: Any, log_level: str = "warning") -> Iterator[str]:
    """`app` served by uvicorn on a free local port in a thread, for as long as the block runs: its URL."""
    import uvicorn

    port = free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        uv.should_exit = True
        thread.join(timeout=10)


class ServerProcess:
    """`python -m scorebook.cli serve --db URL` on its own port; its output goes to `log`."""

    def __init__(self, db_url: str, log: Path, port: int | None = None, args: tuple[str, ...] = ()) -> None:
        self.db_url, self.log, self.args = db_url, log, args
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, timeout: float = 60) -> None:
        env = {**os.environ, "SCOREBOOK_SECRET": "chaos-test-secret-" + "x" * 32, "PYTHONPATH": str(ROOT)}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "scorebook.cli", "serve", "--db", self.db_url, "--port", str(self.port),
                 *self.args],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer within {timeout} s")

    def stop(self) -> int:
        """SIGINT, as Ctrl-C: the server (and any worker processes) shut down; its exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=30)
        self.proc = None
        return code

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, whatever the server was doing."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None


@dataclass
class Tally:
    """What the clients saw, shared by every client thread."""

    acked: dict[tuple[str, int], str] = field(default_factory=dict)  # (match, seq) -> hash, from a 2xx
    created: int = 0
    replayed: int = 0
    replayed_after_retry: int = 0  # answered as a replay after a request that got no answer (a kill)
    conflicts: int = 0
    retries: int = 0
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, match_id: str, envelopes: list[dict[str, Any]], replayed: bool, retried: bool = False) -> None:
        with self.lock:
            self.replayed_after_retry += replayed and retried
            for env in envelopes:
                earlier = self.acked.setdefault((match_id, env["seq"]), env["hash"])
                if earlier != env["hash"]:
                    self.unexpected.append(f"{match_id} seq {env['seq']}: acknowledged with two hashes")
            if replayed:
                self.replayed += 1
            else:
                self.created += 1


def event_id(key: str, seq: int) -> str:
    """One id per position of a match's log: any client sending that position sends the same id."""
    return f"{key}-{seq}"


def send(
    client: httpx.Client,
    urls: list[str],
    method: str,
    path: str,
    stop: threading.Event,
    tally: Tally,
    pick: Any,
    **kwargs: Any,
) -> httpx.Response | None:
    """The request, retried unchanged (same body, same event_ids) on another of `urls` while no server
    answers it; None once `stop` is set with no answer. A retried answer is marked `retried`."""
    retried = False
    while True:
        url = pick(urls)
        try:
            response = client.request(method, url + path, timeout=30, **kwargs)
            response.extensions["retried"] = retried
            return response
        except httpx.TransportError:
            if stop.is_set():
                return None
            retried = True
            with tally.lock:
                tally.retries += 1
            time.sleep(0.05)


def append_log(
    client: httpx.Client,
    urls: list[str],
    match_id: str,
    key: str,
    log: list[dict[str, Any]],
    known_seq: int,
    size: int,
    tally: Tally,
    stop: threading.Event,
    pick: Any,
    ids: Callable[[str, int], str] = event_id,
) -> int:
    """Append the next `size` events of `log` after `known_seq`; the match's seq as now known.
    `ids` names each event (by default one id per position of the log: see `event_id`)."""
    batch = [
        {"type": e["type"], "data": e["data"], "event_id": ids(key, seq)}
        for seq, e in enumerate(log[known_seq : known_seq + size], start=known_seq + 1)
    ]
    body = {"expected_seq": known_seq, "events": batch}
    r = send(client, urls, "POST", f"/api/matches/{match_id}/events", stop, tally, pick, json=body)
    if r is None:
        return known_seq
    if r.status_code in (200, 201):
        stored = r.json()["events"]
        tally.ack(match_id, stored, replayed=r.status_code == 200, retried=bool(r.extensions.get("retried")))
        return int(stored[-1]["seq"])
    if r.status_code == 409:  # another client moved the match on (or stored part of this batch in its own)
        with tally.lock:
            tally.conflicts += 1
        current = r.json().get("current_seq")
        if isinstance(current, int):
            return current
        got = send(client, urls, "GET", f"/api/matches/{match_id}", stop, tally, pick)
        return int(got.json()["seq"]) if got is not None else known_seq
    with tally.lock:
        tally.unexpected.append(f"{match_id} after seq {known_seq}: {r.status_code} {r.text[:300]}")
    return known_seq


def legal_logs(rng: random.Random, n: int) -> list[list[dict[str, Any]]]:
    """`n` legal match logs from the games' seeded random players, long enough to outlast the run."""
    logs = []
    for i in range(n):
        game = get_game(GAME_NAMES[i % len(GAME_NAMES)])
        logs.append(game.random_match(random.Random(rng.getrandbits(32)), PLAYERS[:3], None))
    return logs


def start_matches(
    urls: list[str], token: str, logs: list[dict[str, Any]], keys: list[str], tally: Tally
) -> list[str]:
    headers = {"Authorization": f"Bearer {token}"}
    ids = []
    with httpx.Client(headers=headers) as client:
        for key, log in zip(keys, logs, strict=True):
            body = {**log[0]["data"], "event_id": event_id(key, 1)}
            r = send(client, urls, "POST", "/api/matches", threading.Event(), tally, random.choice, json=body)
            assert r is not None and r.status_code == 201, r.text if r is not None else "no answer"
            ids.append(r.json()["match_id"])
            tally.ack(ids[-1], r.json()["events"], replayed=False)
    return ids


def check_store(db_url: str, ids: list[str], logs: list[list[dict[str, Any]]], tally: Tally) -> int:
    """Every acknowledged event stored with the hash it was acknowledged with; each match's stored
    events exactly a prefix of its log (so nothing twice, nothing else); every chain intact."""
    with Scorebook.open(db_url, migrate=False) as sb:
        stored = 0
        for match_id, log in zip(ids, logs, strict=True):
            events = sb.events(match_id)
            stored += len(events)
            # match_started as the server records it: with the game's current rules version
            sent = [{**log[0], "data": with_rules_version(log[0]["data"])}, *log[1:]]
            assert [(e["type"], e["data"]) for e in events] == [(e["type"], e["data"]) for e in sent[: len(events)]]
            assert sb.verify(match_id).ok, sb.verify(match_id)
            hashes = {e["seq"]: e["hash"] for e in events}
            lost = [seq for (m, seq), h in tally.acked.items() if m == match_id and hashes.get(seq) != h]
            assert not lost, f"{match_id}: acknowledged seqs {lost} are not stored as acknowledged"
        assert sb.verify_all().ok
        assert sb.missing_triggers() == []
    return stored
