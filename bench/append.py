"""How fast the store appends one event to a long match, warm and as the first append after a restart.

For each game the first 5,000 events of a long seeded random match are imported, then the next 50 are
appended one at a time through `Scorebook.append` (one transaction each: lock, check expected_seq,
apply to the cached fold, chain, insert). Beside it the same events are appended to a copy of the match
with a fresh store each time: nothing cached, as after a restart, so each append starts from the latest
snapshot and the rows after it. The two kinds take turns, event by event, so that a busy moment on the shared
machine slows both alike (run one after the other, the ratio moved between 3.6× and 7.4× from run to run).
The goal: the first append after a restart within 5× a warm one.
Runs on SQLite, and on PostgreSQL too when SCOREBOOK_TEST_POSTGRES names a database.
"""

from __future__ import annotations

import gc
import tempfile
import time
from typing import Any

from bench.cache import long_log
from bench.databases import backends, database
from bench.replay import OPTIONS, median_p95
from recorder import Scorebook
from recorder.log.file import NewEvent, import_lines

PREFIX = 5000
APPENDS = 50
GOAL = 5.0  # the first append after a restart, at most this many times a warm one


def _tagged(log: list[dict[str, Any]], copy: int) -> list[dict[str, Any]]:
    start = {**log[0], "data": {**log[0]["data"], "meta": {"table": copy + 1}}}
    return [start, *log[1:]]


def _timed_append(book: Scorebook, match_id: str, e: dict[str, Any], seq: int) -> float:
    t = time.perf_counter()
    book.append(match_id, [NewEvent(e["type"], e["data"])], seq, "bench")
    return (time.perf_counter() - t) * 1000


def _append_both(sb: Scorebook, warm_id: str, cold_id: str, events: list[dict[str, Any]]) -> tuple[list[float],
                                                                                                     list[float]]:
    """Milliseconds per append, warm (`sb`, its fold cached) and after a restart (a fresh store for each append:
    no fold cache), in turns, the same event to each match: a busy minute on the machine slows both alike."""
    warm, cold = [], []
    for i, e in enumerate(events):
        warm.append(_timed_append(sb, warm_id, e, PREFIX + i))
        cold.append(_timed_append(Scorebook.from_engine(sb.engine), cold_id, e, PREFIX + i))
    return warm, cold


def main() -> bool:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends():
            with database(backend, tmp, "append") as url, Scorebook.open(url) as sb:  # migrated to head
                for game in OPTIONS:
                    log = long_log(game, PREFIX + APPENDS)
                    head, tail = log[:PREFIX], log[PREFIX : PREFIX + APPENDS]
                    sb.store.cache.clear()  # the earlier games' long folds: the collector's passes would cross them
                    # Two matches (their own meta, so not the same file twice: that would answer the first).
                    ids = [sb.import_log(import_lines(_tagged(head, copy)), "bench")["match_id"] for copy in range(2)]
                    sb.store.cache.drop(ids[1])
                    gc.collect()
                    cached_ms, cold_ms = _append_both(sb, ids[0], ids[1], tail)
                    rows.append((backend, game, *median_p95(cached_ms), median_p95(cold_ms)[0]))
    print(f"\nAppending one event to a {PREFIX:,}-event match ({APPENDS} appends each); times in ms; "
          "after restart = a fresh store for each append (nothing cached)")
    head_row = ("backend", "game", "append med", "append p95", "restart med", "restart/warm")
    print("  ".join(f"{h:>15}" for h in head_row))
    for backend, game, med, p95, cold in rows:
        cells = [backend, game, f"{med:.2f}", f"{p95:.2f}", f"{cold:.2f}", f"{cold / med:.1f}x"]
        print("  ".join(f"{c:>15}" for c in cells) + ("" if cold / med <= GOAL else f"  goal missed (≤ {GOAL:.0f}×)"))
    return True
