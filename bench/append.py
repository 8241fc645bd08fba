"""How fast the store appends one event to a long match, warm and as the first append after a restart.

For each game the first 5,000 events of a long seeded random match are imported, then the next 50 are
appended one at a time through `Scorebook.append` (one transaction each: lock, check expected_seq,
apply to the cached fold, chain, insert). Beside it the same events are appended to a copy of the match
with a fresh store each time: nothing cached, as after a restart, so each append starts from the latest
snapshot and the rows after it. Before those, the warm store's cached folds are forgotten and collected: a
restarted process holds none, and the cyclic collector's passes over them (every earlier game's 5,000-event
folds too) made the last game's first appends up to twice as slow. The goal (issue 13): the first append after
a restart within 5× a warm one.
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
from recorder.logfile import NewEvent, import_lines

PREFIX = 5000
APPENDS = 50
GOAL = 5.0  # the first append after a restart, at most this many times a warm one


def _tagged(log: list[dict[str, Any]], copy: int) -> list[dict[str, Any]]:
    start = {**log[0], "data": {**log[0]["data"], "meta": {"table": copy + 1}}}
    return [start, *log[1:]]


def _append_all(sb: Scorebook, cached: bool, match_id: str, events: list[dict[str, Any]]) -> list[float]:
    """Milliseconds per append; not `cached`: every append gets a fresh store (no fold cache)."""
    out = []
    for i, e in enumerate(events):
        book = sb if cached else Scorebook.from_engine(sb.engine)
        t = time.perf_counter()
        book.append(match_id, [NewEvent(e["type"], e["data"])], PREFIX + i, "bench")
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> bool:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends():
            with database(backend, tmp, "append") as url, Scorebook.open(url) as sb:  # migrated to head
                for game in OPTIONS:
                    log = long_log(game, PREFIX + APPENDS)
                    head, tail = log[:PREFIX], log[PREFIX : PREFIX + APPENDS]
                    # Two matches (their own meta, so not the same file twice: that would answer the first).
                    ids = [sb.import_log(import_lines(_tagged(head, copy)), "bench")["match_id"] for copy in range(2)]
                    cached_ms = _append_all(sb, True, ids[0], tail)
                    sb.store.cache.clear()
                    gc.collect()
                    cold_ms = _append_all(sb, False, ids[1], tail)
                    rows.append((backend, game, *median_p95(cached_ms), median_p95(cold_ms)[0]))
    print(f"\nAppending one event to a {PREFIX:,}-event match ({APPENDS} appends each); times in ms; "
          "after restart = a fresh store for each append (nothing cached)")
    head_row = ("backend", "game", "append med", "append p95", "restart med", "restart/warm")
    print("  ".join(f"{h:>15}" for h in head_row))
    for backend, game, med, p95, cold in rows:
        cells = [backend, game, f"{med:.2f}", f"{p95:.2f}", f"{cold:.2f}", f"{cold / med:.1f}x"]
        print("  ".join(f"{c:>15}" for c in cells) + ("" if cold / med <= GOAL else f"  goal missed (≤ {GOAL:.0f}×)"))
    return True
