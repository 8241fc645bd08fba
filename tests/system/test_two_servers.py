"""Two `scorebook serve` processes on one PostgreSQL database: clients append to the same
matches through either server, each event under its own id, so a race is a 409 retried on the current
seq (not a replay). Each server's fold cache falls behind the other's appends and is topped up from the
database (`EventStore._fold_in`): a stale fold would refuse a legal event or accept an illegal one.
Nothing acknowledged is lost, nothing is stored twice, every chain is intact, and the scores both
servers answer are those of a fresh fold of the export."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from projections.scores import scores_json
from projections.timeline import fold_dicts
from recorder.facade import Scorebook
from tests.support.servers import ServerProcess, Tally, append_log, check_store, legal_logs, start_matches

SEED = 23
MATCHES = 3
CLIENTS = 6
EVENTS = 600  # acknowledged across the matches, then the clients stop
SECONDS = 15  # or after this long


def client_loop(
    n: int,
    urls: list[str],
    token: str,
    ids: list[str],
    keys: list[str],
    logs: list[list[dict[str, Any]]],
    tally: Tally,
    stop: threading.Event,
) -> None:
    rng = random.Random(SEED * 100 + n)
    attempts = iter(range(10**9))

    def own_id(key: str, seq: int) -> str:  # this client's, this attempt's: a lost race is a 409
        return f"{key}-{seq}-c{n}-{next(attempts)}"

    known = dict.fromkeys(range(len(ids)), 1)
    with httpx.Client(headers={"Authorization": f"Bearer {token}"}) as client:
        while not stop.is_set() and len(tally.acked) < EVENTS:
            open_ = [i for i in known if known[i] < len(logs[i])]
            if not open_:
                return
            i = rng.choice(open_)
            known[i] = append_log(
                client, urls, ids[i], keys[i], logs[i], known[i], rng.randint(1, 3), tally, stop, rng.choice, own_id
            )


@pytest.mark.parametrize("bare_engine", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
def test_two_servers_on_one_database_lose_and_duplicate_nothing(bare_url: str, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    with Scorebook.open(bare_url) as sb:
        token = sb.create_token("two-servers", "recorder")
    servers = [ServerProcess(bare_url, tmp_path / f"server{i}.log") for i in range(2)]
    starting = [threading.Thread(target=s.start) for s in servers]
    for t in starting:
        t.start()
    for t in starting:
        t.join()
    urls = [s.url for s in servers]
    tally = Tally()
    logs = legal_logs(rng, MATCHES)
    keys = [f"two{SEED}-m{i}" for i in range(MATCHES)]
    try:
        assert all(s.proc is not None and s.proc.poll() is None for s in servers)
        ids = start_matches(urls, token, logs, keys, tally)
        stop = threading.Event()
        clients = [
            threading.Thread(target=client_loop, args=(n, urls, token, ids, keys, logs, tally, stop), daemon=True)
            for n in range(CLIENTS)
        ]
        for t in clients:
            t.start()
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline and any(t.is_alive() for t in clients):
            time.sleep(0.1)
        stop.set()
        for t in clients:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in clients)
        assert not tally.unexpected, tally.unexpected[:10]
        # Each server's scores (from its own, topped-up fold cache) are those of a fresh fold of the export.
        for match_id in ids:
            # with the recording token: a spectator's export of a match in progress hides the hands
            export = httpx.get(f"{urls[0]}/api/matches/{match_id}/export", timeout=30,
                               headers={"Authorization": f"Bearer {token}"}).text
            lines = [json.loads(line) for line in export.splitlines()]
            fresh = scores_json(fold_dicts(lines), match_id)
            for url in urls:
                assert httpx.get(f"{url}/api/matches/{match_id}/scores", timeout=30).json() == fresh
    finally:
        for s in servers:
            s.kill()
    stored = check_store(bare_url, ids, logs, tally)
    assert stored == len(tally.acked) >= 200
    assert tally.conflicts > 0  # the servers did race
    assert tally.replayed == 0  # every attempt had its own event ids
    print(f"{stored} events stored through 2 servers, {tally.created} appends, {tally.conflicts} conflicts retried")
