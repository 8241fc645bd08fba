"""Snapshots and the byte-bounded fold cache: cold reads of a 5,000-event match, and the server's memory.

1. `cold state at k`: for each game a 5,000-event seeded random match is imported (snapshots every
   SNAPSHOT_EVERY events are written with it); then, in interleaved rounds, a new store (an empty fold
   cache: as after a restart) reads the state at a random seq k. The reference is the same read by a store
   with snapshots off (the whole log folded), in the same round. SQLite, and PostgreSQL when
   SCOREBOOK_TEST_POSTGRES names a database.
2. `every N`: the same cold read of the Tri-Ominos match (the slowest fold) with snapshots every N events
   (rewritten by `rebuild_snapshots`), at the seq just before the next snapshot (the most to fold), beside
   the snapshots' bytes: how N was chosen.
3. `bytes per state`: tracemalloc's figure for a fold of 1,000 and 5,000 events of each game, beside the
   cache's estimate (each game descriptor's `state_bytes`).
4. `server RSS`: `scorebook serve` (a subprocess, SQLite) over TOUCH matches of 1,000 events (copies of
   one match per game, made in SQL), each read once through GET /api/matches/{id}/state; VmRSS before the
   first read and after the last, beside the configured bound — with snapshots (each read resumes from
   the last one), and with the snapshots of another server's secret (each read folds the whole log, so the
   cache fills up to its bound).
"""

from __future__ import annotations

import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.databases import backends, database
from bench.replay import OPTIONS, median_p95

LONG = 5000
ROUNDS = 7
READS_PER_ROUND = 5
TOUCH = int(os.environ.get("SCOREBOOK_BENCH_TOUCH", "1000"))
TOUCH_LENGTH = 1000
SWEEP = (50, 100, 200, 500, 1000)
ROOT = Path(__file__).resolve().parents[1]


def long_log(game_name: str, length: int = LONG) -> list[dict[str, Any]]:
    from projections.registry import get_game
    from recorder.demo import PLAYERS

    game = get_game(game_name)
    options = dict(OPTIONS[game_name])
    for seed in range(1, 80):
        log = game.random_match(random.Random(seed), PLAYERS[:3], options)
        if len(log) >= length:
            return log[:length]
        options["target_score"] = int(options["target_score"] * 2)
    raise RuntimeError(f"no {game_name} match of {length} events")


def _cold_ms(engine: Any, match_id: str, at: int, every: int | None = None, snapshots: bool = True) -> float:
    from recorder.store.matches import EventStore
    from recorder.store.snapshots import SNAPSHOT_EVERY

    store = EventStore(engine, snapshot_every=(every or SNAPSHOT_EVERY) if snapshots else 0)
    t = time.perf_counter()
    fold = store.fold(match_id, at)
    fold.game.to_json(fold.state)
    return (time.perf_counter() - t) * 1000


def cold_reads(logs: dict[str, list[dict[str, Any]]]) -> list[tuple[Any, ...]]:
    from recorder import Scorebook
    from recorder.log.file import import_lines

    rng = random.Random(5)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends():
            with database(backend, tmp, "cache") as url, Scorebook.open(url) as sb:
                ids = {game: sb.import_log(import_lines(log), "bench")["match_id"] for game, log in logs.items()}
                timed: dict[str, list[tuple[float, float]]] = {game: [] for game in logs}
                for _ in range(ROUNDS):
                    for game, match_id in ids.items():
                        for _ in range(READS_PER_ROUND):
                            at = rng.randint(1, LONG)
                            timed[game].append((_cold_ms(sb.engine, match_id, at),
                                                _cold_ms(sb.engine, match_id, at, snapshots=False)))
                for game, pairs in timed.items():
                    with_, without = [p[0] for p in pairs], [p[1] for p in pairs]
                    rows.append((backend, game, *median_p95(with_), statistics.median(without)))
                if backend == "sqlite":
                    sweep = every_n(sb, ids["tri-ominos"], rng)
    print(f"\nCold state at a random seq k of a {LONG}-event match (a new store each read), {ROUNDS} rounds × "
          f"{READS_PER_ROUND} reads, interleaved with the same read without snapshots; times in ms")
    head = ("backend", "game", "snapshots med", "snapshots p95", "whole log med", "ratio")
    print("  ".join(f"{h:>14}" for h in head))
    for backend, game, med, p95, ref in rows:
        print("  ".join(f"{c:>14}" for c in (backend, game, f"{med:.1f}", f"{p95:.1f}", f"{ref:.1f}",
                                               f"{ref / med:.0f}x faster")))
    print(f"\nSnapshots every N events: Tri-Ominos, {LONG} events, cold state at the seq before a snapshot "
          f"(N - 1 events to fold), median of {ROUNDS * READS_PER_ROUND} reads (SQLite)")
    print("  ".join(f"{h:>14}" for h in ("N", "cold med ms", "snapshots", "snapshot KiB", "KiB per event")))
    for n, med, count, size in sweep:
        cells = (n, f"{med:.1f}", count, f"{size / 1024:.0f}", f"{size / 1024 / LONG:.2f}")
        print("  ".join(f"{c:>14}" for c in cells))
    return rows


def every_n(sb: Any, match_id: str, rng: random.Random) -> list[tuple[int, float, int, int]]:
    from recorder.readmodels.snapshots import rebuild_snapshots

    out = []
    for n in SWEEP:
        counts = rebuild_snapshots(sb.engine, match_id, every=n)
        with sb.engine.connect() as conn:
            size = conn.execute(text("SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM snapshots WHERE match_id = :m"),
                                {"m": match_id}).scalar_one()
        ats = [n * rng.randint(1, LONG // n - 1) + n - 1 for _ in range(ROUNDS * READS_PER_ROUND)]
        med = statistics.median(_cold_ms(sb.engine, match_id, at, every=n) for at in ats)
        out.append((n, med, counts["snapshots"], int(size)))
    rebuild_snapshots(sb.engine, match_id)
    return out


def bytes_per_state(logs: dict[str, list[dict[str, Any]]]) -> None:
    import gc

    from projections.registry import get_game
    from projections.timeline import fold_dicts

    print("\nBytes per held state of a fold: tracemalloc (events, states and what they share) vs the cache's estimate")
    print("  ".join(f"{h:>14}" for h in ("game", "events", "tracemalloc", "estimate", "estimate/real")))
    for game, log in logs.items():
        for n in (TOUCH_LENGTH, LONG):
            gc.collect()
            tracemalloc.start()
            fold = fold_dicts(log[:n])
            real = tracemalloc.get_traced_memory()[0] / n
            tracemalloc.stop()
            del fold
            est = get_game(game).descriptor.state_bytes
            print("  ".join(f"{c:>14}" for c in (game, n, f"{real:.0f}", est, f"{est / real:.2f}")))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _clone(engine: Any, sources: list[str], count: int, key_secret: str) -> list[str]:
    """`count` copies of the source matches (round robin), made in SQL: rows, seats and re-signed snapshots.
    (A row's hash does not cover its match id, so the copies verify.)"""
    from recorder.store.snapshots import Snapshots, snapshot_key

    snaps = Snapshots(snapshot_key(key_secret))
    ids = []
    with engine.begin() as conn:
        stored = {m: conn.execute(text("SELECT seq, hash, version, payload FROM snapshots WHERE match_id = :m"),
                                  {"m": m}).all() for m in sources}
        for i in range(count):
            src, new = sources[i % len(sources)], uuid.uuid4().hex
            p = {"m": src, "n": new, "off": (i + 1) * 1_000_000}
            conn.execute(text("INSERT INTO matches (id, game, status, last_seq, players, winners, meta, created_at, "
                              "updated_at) SELECT :n, game, status, last_seq, players, winners, meta, created_at, "
                              "updated_at FROM matches WHERE id = :m"), p)
            conn.execute(text("INSERT INTO match_players (match_id, seat, player_id, name) "
                              "SELECT :n, seat, player_id, name FROM match_players WHERE match_id = :m"), p)
            conn.execute(text("INSERT INTO events (match_id, seq, position, type, data, recorded_at, recorded_by, "
                              "prev_hash, hash) SELECT :n, seq, position + :off, type, data, recorded_at, recorded_by, "
                              "prev_hash, hash FROM events WHERE match_id = :m"), p)
            rows = [{"m": new, "s": seq, "h": h, "v": v, "p": bytes(payload),
                     "mac": snaps._mac(new, seq, h, v, bytes(payload))} for seq, h, v, payload in stored[src]]
            if rows:
                conn.execute(text("INSERT INTO snapshots (match_id, seq, hash, version, mac, payload, created_at) "
                                  "VALUES (:m, :s, :h, :v, :mac, :p, CURRENT_TIMESTAMP)"), rows)
            ids.append(new)
    return ids


def _state(client: Any, match_id: str) -> None:
    r = client.get(f"/api/matches/{match_id}/state")
    r.raise_for_status()
    assert r.json()["seq"] == TOUCH_LENGTH, r.text[:200]


def _serve_and_touch(db: Path, ids: list[str], secret: str, cache_mb: int) -> tuple[float, float, float]:
    """(RSS MiB after one read, RSS MiB after reading every match once, seconds) of a `scorebook serve`."""
    import httpx

    port = _free_port()
    env = {**os.environ, "SCOREBOOK_SECRET": secret, "SCOREBOOK_CACHE_MB": str(cache_mb)}
    # This checkout's code (the module from the repository root), not whatever the `scorebook` script imports.
    server = subprocess.Popen([sys.executable, "-m", "scorebook.cli", "serve", "--db", str(db), "--port", str(port)],
                              env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            for _ in range(600):
                if server.poll() is not None:
                    raise RuntimeError(f"the server exited: {server.stderr.read().decode() if server.stderr else ''}")
                try:
                    client.get("/api/matches?limit=1")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            _state(client, ids[0])
            before = _rss_mib(server.pid)
            t = time.perf_counter()
            for match_id in ids:
                _state(client, match_id)
            seconds = time.perf_counter() - t
            after = _rss_mib(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return before, after, seconds


def server_rss(logs: dict[str, list[dict[str, Any]]]) -> None:
    from recorder import Scorebook
    from recorder.log.file import import_lines
    from recorder.store.fold_cache import DEFAULT_CACHE_MB

    secret = os.environ["SCOREBOOK_SECRET"]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "touch.db"
        with Scorebook.open(str(db)) as sb:
            sources = [sb.import_log(import_lines(log[:TOUCH_LENGTH]), "bench")["match_id"] for log in logs.values()]
            ids = _clone(sb.engine, sources, TOUCH, secret)
        runs = [("snapshots", secret, DEFAULT_CACHE_MB), ("whole logs", secrets.token_hex(16), DEFAULT_CACHE_MB),
                ("whole logs", secrets.token_hex(16), 64)]
        print(f"\nThe server's RSS (MiB) after reading {len(ids)} matches of {TOUCH_LENGTH} events once each "
              "(GET /api/matches/{id}/state), beside its RSS before and the cache's bound")
        print("  ".join(f"{h:>14}" for h in ("reads from", "bound MiB", "RSS before", "RSS after", "growth",
                                              "ms per read")))
        for label, run_secret, bound in runs:
            before, after, seconds = _serve_and_touch(db, ids, run_secret, bound)
            print("  ".join(f"{c:>14}" for c in (label, bound, f"{before:.0f}", f"{after:.0f}", f"{after - before:.0f}",
                                                  f"{seconds * 1000 / len(ids):.1f}")))


def main() -> bool:
    os.environ.setdefault("SCOREBOOK_SECRET", secrets.token_hex(16))  # not the data directory's file
    t = time.perf_counter()
    logs = {game: long_log(game) for game in OPTIONS}
    print(f"\n(generated {LONG}-event matches in {time.perf_counter() - t:.0f} s)", file=sys.stderr)
    cold_reads(logs)
    bytes_per_state(logs)
    server_rss(logs)
    return True
