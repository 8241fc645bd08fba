"""The read side at club-history scale: the match list and the statistics page at 100 and at N matches
(default 10,000; `SCOREBOOK_BENCH_MATCHES`), and `rebuild`'s speed, each beside a reference of the same run.

The volume is loaded quickly through the store's batch path (`EventStore.store_many`, one transaction a
batch): a few dozen seeded random matches per game are played once, and each is stored many times over
as a different match (its own meta: date, round, table — so its own hashes). The copies' folds are the
template's (the meta changes nothing the rules look at), so loading costs chaining and inserting only.

Runs on SQLite, and on PostgreSQL too when SCOREBOOK_TEST_POSTGRES names a server. Figures (medians of
rounds, milliseconds):
- `list`: `Scorebook.matches` first page, with no filter and with each filter (game, player, status), and a
  page half way down by its keyset cursor (`after`), beside the driver alone (sqlite3 or psycopg) running the
  first page's query on the same table; both sizes timed in interleaved rounds, after both are loaded;
- `stats first load`: the statistics page as a first visitor after a start gets it (a new `Scorebook`:
  nothing decoded): its layout and its charts, beside the driver reading every `match_facts` row; and the
  charts of another game right after (the rows then decoded);
- `rebuild`: `scorebook rebuild`'s work in events/s (worker processes, one per core; and one process
  alone), beside the driver reading the same event rows.

The goal: at N matches the list's first page < 50 ms and ≤ 1.3× its time at 100; the first
statistics load < 1 s; rebuild ≥ 50k events/s. Missed goals are printed, not fatal.

Loading a million events takes minutes; to time the rebuild again and again on one loaded database:
`python -m bench.readside load URL [MATCHES]` fills an empty database once, and
`python -m bench.readside rebuild URL [WORKERS]` times `rebuild` on it (wall time, and CPU time per event of
this process, its workers and — when the server runs on this machine — PostgreSQL's processes).
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

TEMPLATES = 12  # distinct random matches per game
# Targets that make matches of about 100 events (10,000 matches ≈ 1M events, the issue's club history).
SHORT = {"tri-ominos": {"target_score": 200}, "high-five": {"target_score": 40}, "hi-spot": {"target_score": 60},
         "hats-off": {"target_score": 100}}
ROUNDS = 15
# Rows per page of the list: every filter fills a page of 20 at 100 matches too (a quarter of them are
# Hi-Spot's), so the two sizes are timed on pages of the same length.
PAGE = 20


def _ms(fn: Callable[[], Any], rounds: int = ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def templates() -> list[tuple[Any, list[dict[str, Any]]]]:
    """(prepared import, log) of a few random matches of every game, played once."""
    from projections.registry import GAME_NAMES, get_game
    from recorder.demo import PLAYERS
    from recorder.log.file import import_lines, prepare_import

    out = []
    rng = random.Random(12)
    for name in GAME_NAMES:
        game = get_game(name)
        for _ in range(TEMPLATES):
            players = rng.sample(PLAYERS, rng.randint(game.descriptor.min_players, min(4, game.descriptor.max_players)))
            log = game.random_match(random.Random(rng.getrandbits(32)), players, SHORT.get(name))
            out.append((prepare_import(import_lines(log), "bench"), log))
    return out


def load(sb: Any, matches: int, made: list[tuple[Any, list[dict[str, Any]]]], first: int = 0) -> int:
    """Store `matches` copies of the templates as distinct matches; returns the events stored."""
    from recorder.log.file import NewEvent, PreparedImport, chain_new
    from recorder.store.matches import ImportSource

    events, batch = 0, []
    for i in range(first, first + matches):
        prepared, log = made[i % len(made)]
        day = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"
        start = {**log[0]["data"], "meta": {"tournament": "Bench league", "round": i, "table": i % 9 + 1, "date": day}}
        lines = [NewEvent("match_started", start), *(NewEvent(e["type"], e["data"]) for e in log[1:])]
        envelopes = chain_new(lines, 1, "0" * 64, "bench")
        batch.append((PreparedImport(prepared.fold, envelopes), ImportSource("bench", None, f"{i:064x}")))
        events += len(envelopes)
        if len(batch) == 500:
            sb.store.store_many(batch)
            batch = []
    if batch:
        sb.store.store_many(batch)
    return events


def raw_ms(engine: Any, sql: str, rounds: int = ROUNDS) -> float:
    """The driver alone (sqlite3 or psycopg) running `sql` and fetching every row: the reference."""
    def run() -> Any:
        conn = engine.raw_connection()
        try:
            cur = conn.cursor()
            cur.execute(sql)
            return cur.fetchall()
        finally:
            conn.close()
    return _ms(run, rounds)


def measure(url: str, size: int, made: list[tuple[Any, list[dict[str, Any]]]]) -> dict[str, float]:
    from dashboard.pages import stats as stats_page
    from projections.registry import GAME_NAMES
    from recorder.facade import Scorebook

    sb = Scorebook.open(url)
    t = time.perf_counter()
    events = load(sb, size, made)
    load_s = time.perf_counter() - t
    figures: dict[str, float] = {"events": events, "load ev/s": events / load_s}
    if sb.engine.dialect.name == "postgresql":
        # What autovacuum does soon after a load this size; without it the planner still believes the tables
        # small and sorts a player's every match instead of reading the index backwards (13 ms, not 2).
        with sb.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
    t = time.perf_counter()
    sb.rebuild()
    figures["rebuild ev/s"] = events / (time.perf_counter() - t)
    t = time.perf_counter()
    sb.rebuild(workers=0)
    figures["rebuild 1 process ev/s"] = events / (time.perf_counter() - t)
    engine = sb.engine
    t = time.perf_counter()
    raw_ms(engine, "SELECT match_id, seq, type, data, recorded_at, recorded_by, prev_hash, hash FROM events", 1)
    figures["raw read ev/s"] = events / (time.perf_counter() - t)
    sb.close()
    first = Scorebook.open(url)  # a new process: nothing decoded, nothing cached
    t = time.perf_counter()
    stats_page.layout(first)  # what the page's callback does: the charted game's facts whole, summaries of the rest
    stats_page.charts(stats_page.page_facts(first, GAME_NAMES[0]), GAME_NAMES[0], None, None, None)
    figures["stats first load"] = (time.perf_counter() - t) * 1000
    figures["stats next load"] = _ms(lambda: stats_page.charts(stats_page.page_facts(first, GAME_NAMES[1]),
                                                                GAME_NAMES[1], None, None, None), 5)
    figures["raw facts"] = raw_ms(engine, "SELECT facts FROM match_facts", 5)
    first.close()
    return figures


FILTERS: dict[str, dict[str, Any]] = {"list": {}, "list game": {"game": "hi-spot"}, "list player": {"player": "ann"},
                                      "list status": {"status": "finished"}}
LIST_ROUNDS = 5


def list_times(urls: dict[int, str]) -> dict[int, dict[str, float]]:
    """The match list's pages on each database (by size), timed in interleaved rounds: this machine's speed
    drifts by a third over minutes, which timing one size after the other put into the ratio."""
    from recorder.facade import Scorebook

    books = {size: Scorebook.open(url) for size, url in urls.items()}
    pages: dict[int, dict[str, Callable[[], Any]]] = {}
    for size, sb in books.items():
        pages[size] = {}
        for key, where in FILTERS.items():
            page = partial(sb.matches, limit=PAGE, **where)
            assert len(page()[0]) == PAGE, (key, size)  # a full page at either size
            pages[size][key] = page
        middle = sb.match_page(limit=size // 2)[2]  # the cursor half way down the list
        pages[size]["list deep page"] = partial(sb.match_page, limit=PAGE, after=middle)
        query = f"SELECT * FROM matches ORDER BY created_at DESC, id DESC LIMIT {PAGE}"
        pages[size]["raw list"] = partial(raw_ms, sb.engine, query, 1)
    times: dict[int, dict[str, list[float]]] = {size: {key: [] for key in pages[size]} for size in books}
    for _ in range(LIST_ROUNDS):
        for key in pages[next(iter(books))]:
            for size in books:
                times[size][key].append(_ms(pages[size][key]))
    for sb in books.values():
        sb.close()
    return {size: {key: statistics.median(v) for key, v in by_key.items()} for size, by_key in times.items()}


def main() -> bool:
    from bench.databases import backends, database

    big = int(os.environ.get("SCOREBOOK_BENCH_MATCHES", "10000"))
    made = templates()
    for backend in backends():
        print(f"\nread side: the match list and the statistics at 100 and {big:,} matches ({backend})")
        with (tempfile.TemporaryDirectory() as tmp, database(backend, tmp, "small") as small_url,
              database(backend, tmp, "large") as large_url):
            small = measure(small_url, 100, made)
            large = measure(large_url, big, made)
            lists = list_times({100: small_url, big: large_url})
            small.update(lists[100])
            large.update(lists[big])
        report(small, large, big)
    return True


def report(small: dict[str, float], large: dict[str, float], big: int) -> None:
    print(f"  loaded {large['events']:,.0f} events at {large['load ev/s']:,.0f} ev/s (store_many, batches of 500)")
    print(f"  {'':24}{'100 matches':>14}{f'{big:,} matches':>16}{'ratio':>8}")
    for key in ("list", "list game", "list player", "list status", "list deep page"):
        ratio = large[key] / small[key]
        goal = large[key] < 50 and ratio <= 1.3
        print(f"  {key:24}{small[key]:>11.2f} ms{large[key]:>13.2f} ms{ratio:>7.2f}×{'' if goal else '  goal missed'}")
    print(f"  {'raw driver, first page':24}{small['raw list']:>11.2f} ms{large['raw list']:>13.2f} ms")
    stats_goal = large["stats first load"] < 1000
    print(f"  {'stats first load':24}{small['stats first load']:>11.1f} ms{large['stats first load']:>13.1f} ms"
          f"{'' if stats_goal else '  goal missed (< 1 s)'}")
    print(f"  {'stats, another game':24}{small['stats next load']:>11.1f} ms{large['stats next load']:>13.1f} ms")
    print(f"  {'raw driver, facts rows':24}{small['raw facts']:>11.1f} ms{large['raw facts']:>13.1f} ms")
    rebuild_goal = large["rebuild ev/s"] >= 50_000
    print(f"  rebuild: {large['rebuild ev/s']:,.0f} events/s (one process: {large['rebuild 1 process ev/s']:,.0f}); "
          f"the driver reading the same rows: {large['raw read ev/s']:,.0f} events/s "
          f"({large['rebuild ev/s'] / large['raw read ev/s']:.2f}×){'' if rebuild_goal else '  goal missed (≥ 50k)'}")


def _postgres_cpu(seen: dict[str, float]) -> float:
    """CPU seconds of this machine's PostgreSQL processes, each the last figure read of it (`seen`, by pid): a
    backend that ended keeps its last reading."""
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if "(postgres)" in stat:
            fields = stat.rsplit(")", 1)[1].split()
            seen[pid] = (int(fields[11]) + int(fields[12])) / tick
    return sum(seen.values())


def time_rebuild(url: str, workers: int | None) -> None:
    """`rebuild` on a loaded database: events/s of wall time, and µs of CPU per event by process."""
    from recorder.facade import Scorebook

    sb = Scorebook.open(url)
    with sb.engine.connect() as conn:
        events = conn.exec_driver_sql("SELECT count(*) FROM events").scalar_one()
    seen: dict[str, float] = {}
    stop = threading.Event()

    def poll() -> None:  # backends come and go during the rebuild (the workers' connections)
        while not stop.wait(0.2):
            _postgres_cpu(seen)

    watcher = threading.Thread(target=poll, daemon=True)
    server_before = _postgres_cpu(seen)
    watcher.start()
    wall, cpu = time.perf_counter(), time.process_time()
    sb.rebuild(workers=workers)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stop.set()
    watcher.join()
    server = _postgres_cpu(seen) - server_before
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    sb.close()
    per = 1e6 / events
    print(f"rebuild of {events:,} events, workers {'default' if workers is None else workers}: "
          f"{events / wall:,.0f} events/s; CPU per event: this process {cpu * per:.1f} µs, workers "
          f"{(children.ru_utime + children.ru_stime) * per:.1f} µs, PostgreSQL's processes {server * per:.1f} µs; "
          f"load {os.getloadavg()[0]:.1f}")


def _load_only(url: str, matches: int) -> None:
    from recorder.facade import Scorebook

    sb = Scorebook.open(url)
    events = load(sb, matches, templates())
    if sb.engine.dialect.name == "postgresql":
        with sb.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
    sb.close()
    print(f"loaded {matches:,} matches, {events:,} events")


if __name__ == "__main__":  # not when a worker process (rebuild's) imports this module again
    if len(sys.argv) >= 3 and sys.argv[1] == "load":
        _load_only(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10_000)
    elif len(sys.argv) >= 3 and sys.argv[1] == "rebuild":
        time_rebuild(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)
    else:
        sys.exit("python -m bench.readside load URL [MATCHES] | rebuild URL [WORKERS]")
