"""Crash safety under load (issue 11): a `scorebook serve` process is killed with SIGKILL at seeded random
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

from projections.registry import GAME_NAMES, get_game, with_rules_version
from recorder.demo import PLAYERS
from recorder.facade import Scorebook
from tests.support.servers import ServerProcess, Tally, append_log, event_id, send

SEED = 11
MATCHES = 4
CLIENTS = 6
KILLS = 5


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
