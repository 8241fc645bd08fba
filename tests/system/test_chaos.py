"""Crash safety under load: a `scorebook serve` process is killed with SIGKILL at seeded random
moments while client threads append legal events to a few matches, and started again on the same
database, several times. Every event a client saw acknowledged (a 2xx) must be stored, each match's
chain intact, nothing stored twice: a retry after a kill carries the same event_ids and is answered as
a replay. On each backend."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from recorder.facade import Scorebook
from tests.support.servers import (
    ServerProcess,
    Tally,
    append_log,
    check_store,
    legal_logs,
    start_matches,
)

SEED = 11
MATCHES = 4
CLIENTS = 6
KILLS = 5


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
    """Append the matches' logs, a random match and a batch of 1-3 events at a time."""
    rng = random.Random(SEED * 100 + n)
    known = dict.fromkeys(range(len(ids)), 1)
    with httpx.Client(headers={"Authorization": f"Bearer {token}"}) as client:
        while not stop.is_set():
            open_ = [i for i in known if known[i] < len(logs[i])]
            if not open_:
                return
            i = rng.choice(open_)
            known[i] = append_log(
                client, urls, ids[i], keys[i], logs[i], known[i], rng.randint(1, 3), tally, stop, rng.choice
            )


@pytest.mark.slow
def test_sigkill_under_append_load_loses_no_acknowledged_event(bare_url: str, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    with Scorebook.open(bare_url) as sb:  # the schema, and a recorder's token
        token = sb.create_token("chaos", "recorder")
    server = ServerProcess(bare_url, tmp_path / "server.log")
    server.start()
    tally = Tally()
    logs = legal_logs(rng, MATCHES)
    keys = [f"chaos{SEED}-m{i}" for i in range(MATCHES)]
    ids = start_matches([server.url], token, logs, keys, tally)
    stop = threading.Event()
    clients = [
        threading.Thread(target=client_loop, args=(n, [server.url], token, ids, keys, logs, tally, stop), daemon=True)
        for n in range(CLIENTS)
    ]
    started = time.monotonic()
    for t in clients:
        t.start()
    try:
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.5, 2.0))
            server.kill()
            time.sleep(rng.uniform(0.0, 0.3))
            server.start()
        time.sleep(1.0)  # load on the last start too
    finally:
        stop.set()
        for t in clients:
            t.join(timeout=60)
        server.kill()
    assert not any(t.is_alive() for t in clients)
    assert not tally.unexpected, tally.unexpected[:10]
    stored = check_store(bare_url, ids, logs, tally)
    assert server.starts == KILLS + 1
    assert len(tally.acked) >= 100, f"too little load to mean anything: {len(tally.acked)} acknowledged"
    assert stored >= len(tally.acked)
    print(f"{time.monotonic() - started:.1f} s, {KILLS} kills: {len(tally.acked)} events acknowledged, {stored} "
          f"stored, {tally.created} appends, {tally.replayed} replays ({tally.replayed_after_retry} of a request "
          f"that got no answer), {tally.conflicts} conflicts, {tally.retries} retries on no answer")
