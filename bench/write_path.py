"""The write path against anchors measured in the same run: what an append or an import costs in
Scorebook beside what the database, a bare endpoint or another event store costs for the same rows.

Every figure is the median of $SCOREBOOK_BENCH_PYTHON_ROUNDS rounds (default 15) for figures 1, 4 and 5, and of
$SCOREBOOK_BENCH_ROUNDS rounds (default 5) for the HTTP figures 2 and 3, after one discarded warm-up round
(WARM_UP events per contender: every database's WAL at its steady size first), with its spread (min–max over
the rounds). In each round every contender of a figure runs once, one after
the other, in an order that rotates from round to round; ratios are taken round by round (Scorebook over
its anchor in that round) and their median printed. The events are Hats Off matches of `game.random_match`
(seeded, 3 players), appended in their order to matches started for the round (3 matches, in turn); every
event carries an `event_id`, as the pad's do. SQLite runs in WAL mode with the `synchronous` setting
Scorebook's own connection has (recorder/sql/engine.py sets none, so SQLite's default, FULL here: read back and
printed), and every anchor's connection is set the same and checked. The anchors' tables are Scorebook's,
made by its migrations in a database of their own (the same columns, indexes, foreign key and triggers).

1. Python append: `Scorebook.append`, one event per call ($SCOREBOOK_BENCH_APPENDS, default 600, per
   round: long enough that every contender's round holds its share of WAL checkpoints, see APPENDS), against
   raw sqlite3 inserting the same rows (their hashes and positions computed beforehand), one row per
   transaction (BEGIN IMMEDIATE, INSERT, COMMIT), and against the `eventsourcing` library (the `bench`
   extra) on its SQLite persistence module in a file, one aggregate per match, one `save` of one event each
   (its application recorder: a global notification id, as `position`). Beside the rate, the CPU time of
   this process per append (`time.process_time`: SQLite works in this process, so this is the work an
   append adds to the insert, which the disk's flush does not blur; on PostgreSQL only the client's side).
2. HTTP append, 1 client ($SCOREBOOK_BENCH_HTTP_APPENDS, default 150, per round): `scorebook serve` in a
   subprocess (a recorder token made beforehand; extra arguments from $SCOREBOOK_BENCH_SERVE_ARGS) against
   bench/bare_endpoint.py served by uvicorn in a subprocess, one httpx client posting one event per request;
   events/s and the server's CPU time per event (utime + stime from /proc of the process and any under it,
   before and SETTLE s after the last answer, so that it includes the follower projecting these events into
   the read models).
3. HTTP append, 8 clients: 8 threads, each with its own httpx client and its own match,
   $SCOREBOOK_BENCH_PER_CLIENT (default 25) events each: throughput (all events over the time until the
   last client is done) and the 95th percentile of the request latencies, the same for the bare endpoint.
4. Import of a 1,000-event match (`Scorebook.import_log`, lines already parsed) against raw `executemany`
   of the same rows (and the match row) in one transaction; with the CPU time per event, as in 1.
   $SCOREBOOK_BENCH_IMPORTS (default 3) of each a round, paired in their order.
5. With $SCOREBOOK_TEST_POSTGRES, 1 and 4 on PostgreSQL, each in a fresh schema, against raw psycopg.

A goal missed is printed as "goal missed", never an error: this machine is shared and its speed changes.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROUNDS = int(os.environ.get("SCOREBOOK_BENCH_ROUNDS", "5"))
# Rounds of the Python figures (1 and 4), which take about a second each where an HTTP round takes ten. This
# machine is shared: bursts of stolen CPU (a third of the time, some minutes) slow one contender's round and not
# the next, and a median of five such ratios moved by 0.3 between runs minutes apart.
PYTHON_ROUNDS = int(os.environ.get("SCOREBOOK_BENCH_PYTHON_ROUNDS", "15"))
# SQLite checkpoints its WAL in the commit that takes it past 1,000 pages: a pause of a millisecond or two, every
# ~210 appends for Scorebook (4.8 pages an append) and every ~420 saves for eventsourcing (2.4). With 150 appends a
# round most of eventsourcing's rounds held none and most of Scorebook's one, so the medians left eventsourcing's
# checkpoints out; at 600 every contender's round holds its checkpoints in proportion to its pages.
APPENDS = int(os.environ.get("SCOREBOOK_BENCH_APPENDS", "600"))
HTTP_APPENDS = int(os.environ.get("SCOREBOOK_BENCH_HTTP_APPENDS", "150"))  # requests a round, 1 client
PER_CLIENT = int(os.environ.get("SCOREBOOK_BENCH_PER_CLIENT", "25"))
CLIENTS = 8
MATCHES = 3
IMPORTED = 1000
# Imports a contender runs a round: one took 15 ms, and with one a round the import's median stood on five
# samples, from 0.39× to 0.49× between two runs minutes apart.
IMPORTS = int(os.environ.get("SCOREBOOK_BENCH_IMPORTS", "3"))
# Events per contender in the discarded first round: enough that every database's WAL has grown to the size at
# which SQLite checkpoints it and then writes it over from its start, as on a server that has run a while. While
# a WAL file still grows, each commit's flush also writes the file's new size and blocks, and costs more: the
# eventsourcing library writes 2.4 pages a save and took ~420 saves to get there, so that with a warm-up of 10
# its first rounds ran at 3,300 saves/s and the later ones at 5,100 (Scorebook, 5.1 pages an append since
# migration 0011, is there within its first round).
WARM_UP = 600
SETTLE = 1.5  # seconds after an HTTP run: Scorebook's follower (every 1 s) projects what was appended
GAME = "hats-off"
ROOT = Path(__file__).resolve().parent.parent
SYNCHRONOUS_NAMES = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}

Log = list[dict[str, Any]]
Row = tuple[Any, ...]  # an events row: match_id, seq, position, type, data, recorded_at, recorded_by, prev, hash, id

EVENT_COLUMNS = "match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash, event_id"
INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_MATCH = (
    "INSERT INTO matches (id, game, status, last_seq, players, winners, meta, created_at, updated_at) "
    "VALUES (?, ?, 'in_progress', ?, ?, ?, ?, ?, ?)"
)


# -- the figures ----------------------------------------------------------------------------------------


@dataclass
class Figure:
    """One line of the table: Scorebook's value and its anchor's, one of each per round."""

    what: str
    anchor: str
    unit: str
    goal: float | None  # the ratio Scorebook/anchor must reach (higher_better) or stay under
    higher_better: bool = True
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)

    def ratios(self) -> list[float]:
        return [a / b for a, b in zip(self.ours, self.theirs, strict=True) if b]

    def verdict(self) -> str:
        if self.goal is None or not self.ratios():
            return ""
        ratio = statistics.median(self.ratios())
        met = ratio >= self.goal if self.higher_better else ratio <= self.goal
        return "met" if met else "goal missed"


def _number(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def spread(values: Sequence[float], unit: str = "") -> str:
    """`median unit (min–max)`."""
    if not values:
        return "-"
    med = statistics.median(values)
    return f"{_number(med)}{' ' + unit if unit else ''} ({_number(min(values))}–{_number(max(values))})"


def report(figures: list[Figure], durability: str, python_rounds: int, rounds: int) -> None:
    print(f"\nThe write path against anchors in the same run: medians of {python_rounds} interleaved rounds for "
          f"the Python figures ({IMPORTS} imports each a round), {rounds} for HTTP, (min–max)")
    print(f"SQLite: {durability}; Hats Off events, one event per append; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} (a shared machine)")
    head = ("figure", "Scorebook", "anchor", "ratio", "goal", "")
    rows = [head]
    for f in figures:
        goal = "" if f.goal is None else f"{'≥' if f.higher_better else '≤'} {f.goal:g}×"
        ratios = f.ratios()
        ratio = f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f})" if ratios else "-"
        rows.append((f.what, spread(f.ours, f.unit), f"{f.anchor}: {spread(f.theirs, f.unit)}", ratio, goal,
                     f.verdict()))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def interleaved(rounds: int, contenders: Sequence[Callable[[int, int], None]]) -> None:
    """A warm-up round (its values dropped by each contender: `n` is WARM_UP), then `rounds` rounds, each
    running every contender once in an order that turns by one each round: contender(round, n)."""
    for c in contenders:
        c(-1, WARM_UP)
    for r in range(rounds):
        k = r % len(contenders)
        for c in [*contenders[k:], *contenders[:k]]:
            c(r, 0)


# -- the events -----------------------------------------------------------------------------------------


def hats_off_logs() -> list[Log]:
    """MATCHES seeded Hats Off logs of at least IMPORTED + 1 events (long enough for every use here)."""
    from projections.registry import get_game
    from recorder.demo import PLAYERS

    game = get_game(GAME)
    logs: list[Log] = []
    for seed in range(1, 200):
        log = game.random_match(random.Random(seed), PLAYERS[:3], {"target_score": 2000})
        if len(log) > IMPORTED:
            logs.append(log)
        if len(logs) == MATCHES:
            return logs
    raise RuntimeError("no Hats Off matches long enough")


def renamed(log: Log, tag: str) -> Log:
    """The same match with its first player renamed: another file (another digest, another first hash)."""
    start = copy.deepcopy(log[0])
    start["data"]["players"][0]["name"] += f" {tag}"
    return [start, *log[1:]]


def event_rows(match_id: str, log: Log, first: int, count: int, position: int, tag: str) -> list[Row]:
    """The rows Scorebook would store for log[first - 1 : first - 1 + count] (seqs from `first`), chained and
    numbered beforehand: the raw anchors insert them and do nothing else."""
    from recorder.log.file import GENESIS, NewEvent, chain_new

    events = [NewEvent(e["type"], e["data"]) for e in log[first - 1 : first - 1 + count]]
    envelopes = chain_new(events, first, GENESIS, "bench")
    at = datetime.now(timezone.utc)
    return [
        (match_id, env["seq"], position + i, env["type"], env["data"], at, "bench", env["prev_hash"], env["hash"],
         f"{tag}-{match_id}-{env['seq']}")
        for i, env in enumerate(envelopes, start=1)
    ]


def turns(count: int, matches: int) -> Iterator[tuple[int, int]]:
    """(match index, how many of its events were appended before) for `count` appends to matches in turn."""
    done = [0] * matches
    for i in range(count):
        m = i % matches
        yield m, done[m]
        done[m] += 1


# -- raw anchors: sqlite3 and psycopg on Scorebook's own tables -----------------------------------------


class RawSqlite:
    """sqlite3 on a database migrated by Scorebook, its connection set as Scorebook's (see bare_endpoint)."""

    def __init__(self, path: str, synchronous: str) -> None:
        from bench.bare_endpoint import connect

        self.conn = connect(path, synchronous)
        self.position = int(self.conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])

    def pragmas(self) -> tuple[str, str]:
        return _pragmas(self.conn)

    def add_match(self, log: Log, match_id: str | None = None) -> str:
        match_id = match_id or uuid.uuid4().hex
        self.conn.execute(INSERT_MATCH, _match_params(match_id, log, json.dumps, str))
        return match_id

    def append_each(self, rows: list[Row]) -> Took:
        """One row per transaction (its data serialised there, as any writer must)."""
        took = clock()
        for row in rows:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(INSERT_EVENT, _sqlite_row(row))
            self.conn.execute("COMMIT")
        return took()

    def import_rows(self, match_id: str, log: Log, rows: list[Row]) -> Took:
        """The match row and every event row in one transaction, one executemany."""
        took = clock()
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(INSERT_MATCH, _match_params(match_id, log, json.dumps, str))
        self.conn.executemany(INSERT_EVENT, [_sqlite_row(r) for r in rows])
        self.conn.execute("COMMIT")
        return took()

    def next_positions(self, count: int) -> int:
        first, self.position = self.position, self.position + count
        return first


class RawPostgres:
    """psycopg on a schema migrated by Scorebook: one row per transaction, and executemany."""

    def __init__(self, url: str) -> None:
        import psycopg
        from sqlalchemy import make_url

        u = make_url(url)
        options = u.query.get("options")
        self.conn = psycopg.connect(
            host=u.host, port=u.port, user=u.username, password=u.password, dbname=u.database,
            options=options if isinstance(options, str) else None,
        )
        head = self.conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        self.position = int(head[0]) if head else 0
        self.conn.commit()

    def add_match(self, log: Log, match_id: str | None = None) -> str:
        from psycopg.types.json import Json

        match_id = match_id or uuid.uuid4().hex
        self.conn.execute(INSERT_MATCH.replace("?", "%s"), _match_params(match_id, log, Json, lambda t: t))
        self.conn.commit()
        return match_id

    def append_each(self, rows: list[Row]) -> Took:
        from psycopg.types.json import Json

        sql = INSERT_EVENT.replace("?", "%s")
        took = clock()
        for row in rows:
            self.conn.execute(sql, (*row[:4], Json(row[4]), *row[5:]))
            self.conn.commit()
        return took()

    def import_rows(self, match_id: str, log: Log, rows: list[Row]) -> Took:
        from psycopg.types.json import Json

        took = clock()
        self.conn.execute(INSERT_MATCH.replace("?", "%s"), _match_params(match_id, log, Json, lambda t: t))
        with self.conn.cursor() as cur:
            cur.executemany(INSERT_EVENT.replace("?", "%s"), [(*r[:4], Json(r[4]), *r[5:]) for r in rows])
        self.conn.commit()
        return took()

    def next_positions(self, count: int) -> int:
        first, self.position = self.position, self.position + count
        return first


def _pragmas(conn: Any) -> tuple[str, str]:
    mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
    sync = int(conn.execute("PRAGMA synchronous").fetchone()[0])
    return mode, SYNCHRONOUS_NAMES.get(sync, str(sync))


def _sqlite_row(row: Row) -> Row:
    return (*row[:4], json.dumps(row[4], separators=(",", ":")), str(row[5]), *row[6:])


def _match_params(match_id: str, log: Log, as_json: Callable[[Any], Any], as_time: Callable[[Any], Any]) -> Row:
    now = datetime.now(timezone.utc)
    players = log[0]["data"]["players"]
    return (match_id, GAME, 1, as_json(players), as_json([]), as_json({}), as_time(now), as_time(now))


# -- Python: Scorebook, raw, eventsourcing --------------------------------------------------------------


Took = tuple[float, float]  # (wall seconds, CPU seconds of this process)


def clock() -> Callable[[], Took]:
    """Started now; called, the wall and CPU time since."""
    wall, cpu = time.perf_counter(), time.process_time()
    return lambda: (time.perf_counter() - wall, time.process_time() - cpu)


def scorebook_appends(sb: Any, logs: list[Log], count: int, tag: str) -> Took:
    """`count` appends of one event each to MATCHES new matches in turn."""
    ids = [sb.start_match(log[0]["data"], "bench")["match_id"] for log in logs[:MATCHES]]
    took = clock()
    for m, done in turns(count, len(ids)):
        e = logs[m][done + 1]
        event = {"type": e["type"], "data": e["data"], "event_id": f"{tag}-{ids[m]}-{done + 2}"}
        sb.append(ids[m], [event], done + 1, "bench")
    return took()


def raw_appends(raw: RawSqlite | RawPostgres, logs: list[Log], count: int, tag: str) -> Took:
    """The same rows (hashes and positions worked out beforehand), one per transaction."""
    per_match = -(-count // MATCHES)
    ids = [raw.add_match(log) for log in logs[:MATCHES]]
    planned = [event_rows(ids[m], logs[m], 2, per_match, 0, tag) for m in range(len(ids))]
    first = raw.next_positions(count)
    rows = [(*planned[m][done][:2], first + i + 1, *planned[m][done][3:])
            for i, (m, done) in enumerate(turns(count, len(ids)))]
    return raw.append_each(rows)


def scorebook_import(sb: Any, logs: list[Log], tag: str) -> Took:
    """A new match of IMPORTED events through `import_log`, its lines already parsed."""
    from recorder.log.file import import_lines

    lines = import_lines(renamed(logs[0][:IMPORTED], tag))
    took = clock()
    sb.import_log(lines, "bench")
    return took()


def raw_import(raw: RawSqlite | RawPostgres, logs: list[Log], tag: str) -> Took:
    match_id = uuid.uuid4().hex
    rows = event_rows(match_id, logs[0], 1, IMPORTED, raw.next_positions(IMPORTED), tag)
    return raw.import_rows(match_id, logs[0], rows)


class EventsourcingAnchor:
    """The `eventsourcing` library on its SQLite module (a file), one aggregate per match, one save per event."""

    def __init__(self, path: str) -> None:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event

        class MatchLog(Aggregate):
            @event("Started")
            def __init__(self, start: dict[str, Any]) -> None:
                self.seq = 1

            @event("Recorded")
            def record(self, kind: str, data: dict[str, Any], event_id: str) -> None:
                self.seq += 1

        self.aggregate = MatchLog
        self.app: Any = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})

    def pragmas(self) -> tuple[str, str]:
        with self.app.recorder.datastore.transaction(commit=False) as c:
            return _pragmas(c.sqlite_cursor)

    def appends(self, logs: list[Log], count: int, tag: str) -> Took:
        matches = [self.aggregate(log[0]["data"]) for log in logs[:MATCHES]]
        for agg in matches:
            self.app.save(agg)
        took = clock()
        for m, done in turns(count, len(matches)):
            e = logs[m][done + 1]
            matches[m].record(e["type"], e["data"], f"{tag}-{m}-{done + 2}")  # type: ignore[attr-defined]
            self.app.save(matches[m])
        return took()


def _note(r: int, count: int, took: Took, mine: bool, rate: Figure, cpu: Figure | None = None,
          per: float = 1000) -> None:
    """Round `r`'s events/s (and CPU per event, in units of 1/`per` s) on our side or the anchor's."""
    if r < 0:  # the warm-up
        return
    wall, spent = took
    (rate.ours if mine else rate.theirs).append(count / wall)
    if cpu is not None:
        (cpu.ours if mine else cpu.theirs).append(spent * per / count)


def python_figures(sb: Any, raw: RawSqlite | RawPostgres, es: EventsourcingAnchor | None, logs: list[Log],
                   rounds: int) -> list[Figure]:
    """Figures 1 and 4 (on SQLite or PostgreSQL, as `sb` and `raw` are), interleaved."""
    pg = isinstance(raw, RawPostgres)
    where, anchor = ("PostgreSQL: ", "raw psycopg") if pg else ("", "raw sqlite3")
    append = Figure(f"{where}Python append, 1 event per call", f"{anchor}, 1 row per transaction", "ev/s", 0.5)
    append_cpu = Figure("  CPU per append, this process", anchor, "ms", None, higher_better=False)
    vs_es = Figure("  the same", "eventsourcing 9, 1 event per save (SQLite)", "ev/s", 1.0)
    imported = Figure(f"{where}import of a {IMPORTED:,}-event match", f"{anchor} executemany, 1 transaction",
                      "ev/s", 0.5)
    import_cpu = Figure("  CPU per event, this process", anchor, "µs", None, higher_better=False)
    tag = "pg" if pg else "lite"

    def ours(r: int, n: int) -> None:
        count = n or APPENDS
        took = scorebook_appends(sb, logs, count, f"{tag}{r}")
        _note(r, count, took, True, append, append_cpu)
        _note(r, count, took, True, vs_es)

    def raw_anchor(r: int, n: int) -> None:
        count = n or APPENDS
        _note(r, count, raw_appends(raw, logs, count, f"{tag}raw{r}"), False, append, append_cpu)

    def es_anchor(r: int, n: int) -> None:
        assert es is not None
        count = n or APPENDS
        _note(r, count, es.appends(logs, count, f"{tag}es{r}"), False, vs_es)

    def our_import(r: int, n: int) -> None:
        for i in range(IMPORTS):
            _note(r, IMPORTED, scorebook_import(sb, logs, f"{tag}{r}-{i}"), True, imported, import_cpu, 1e6)

    def raw_importing(r: int, n: int) -> None:
        for i in range(IMPORTS):
            _note(r, IMPORTED, raw_import(raw, logs, f"{tag}imp{r}-{i}"), False, imported, import_cpu, 1e6)

    interleaved(rounds, [ours, raw_anchor, *([es_anchor] if es else []), our_import, raw_importing])
    return [append, append_cpu, *([vs_es] if es else []), imported, import_cpu]


def sqlite_python(tmp: Path, logs: list[Log], rounds: int) -> tuple[list[Figure], str, str]:
    """Figures 1 and 4 on SQLite; also Scorebook's journal mode and synchronous setting, as read back."""
    from recorder import Scorebook

    with Scorebook.open(str(tmp / "scorebook.db")) as sb:
        with sb.engine.connect() as c:
            mode, sync = _pragmas(c.connection.dbapi_connection)
        Scorebook.open(str(tmp / "raw.db")).close()  # Scorebook's tables, written to by sqlite3 alone
        raw = RawSqlite(str(tmp / "raw.db"), sync)
        checked = {"raw sqlite3": raw.pragmas()}
        try:
            es: EventsourcingAnchor | None = EventsourcingAnchor(str(tmp / "eventsourcing.db"))
        except ImportError:
            print("eventsourcing is not installed (pip install -e '.[bench]'): its anchor is left out")
            es = None
        if es is not None:
            checked["eventsourcing"] = es.pragmas()
        for name, got in checked.items():
            if got != (mode, sync):
                print(f"warning: {name} runs with journal_mode={got[0]}, synchronous={got[1]}, "
                      f"Scorebook with {mode}, {sync}")
        figures = python_figures(sb, raw, es, logs, rounds)
        raw.conn.close()
    return figures, mode, sync


# -- HTTP: `scorebook serve` and the bare endpoint ------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` and of every process under it (a server's workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    spent: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # from field 3 (state) on: the name may hold spaces
        parents[int(entry.name)] = int(fields[1])
        spent[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += spent.get(p, 0.0)
        todo.extend(child for child, parent in parents.items() if parent == p)
    return total


@contextmanager
def served(command: list[str], env: dict[str, str], log: Path, ready: str) -> Iterator[subprocess.Popen[bytes]]:
    """`command` as a subprocess (its output in `log`) once `ready` answers 200; stopped afterwards."""
    import httpx

    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{command[2]} exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(ready, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{command[2]} did not answer within 90 s")
            time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


@dataclass
class Target:
    """A server under test: where to post one match's events, how to start a match, its process."""

    name: str
    base: str
    append_path: str  # with {match_id}
    warm_path: str
    token: str
    pid: int
    new_match: Callable[[Log], str]


def post_events(client: Any, target: Target, match_id: str, log: Log, done: int, tag: str) -> float:
    """Post log[done + 1] after seq done + 1; the request's seconds."""
    e = log[done + 1]
    body = {"expected_seq": done + 1,
            "events": [{"type": e["type"], "data": e["data"], "event_id": f"{tag}-{match_id}-{done + 2}"}]}
    t = time.perf_counter()
    r = client.post(target.base + target.append_path.format(match_id=match_id), json=body)
    seconds = time.perf_counter() - t
    if r.status_code != 201:
        raise RuntimeError(f"{target.name}: {r.status_code} {r.text[:300]}")
    return seconds


def one_client(target: Target, logs: list[Log], count: int, tag: str) -> tuple[float, float]:
    """`count` appends by one client to MATCHES matches in turn: (events/s, server CPU ms per event)."""
    import httpx

    ids = [target.new_match(log) for log in logs[:MATCHES]]
    with httpx.Client(headers={"Authorization": f"Bearer {target.token}"}, timeout=60) as client:
        client.get(target.base + target.warm_path)  # the connection open before the clock starts
        cpu = cpu_seconds(target.pid)
        t = time.perf_counter()
        for m, done in turns(count, len(ids)):
            post_events(client, target, ids[m], logs[m], done, tag)
        seconds = time.perf_counter() - t
        time.sleep(SETTLE)  # what the server still does for these events is theirs, and not the next run's
        cpu = cpu_seconds(target.pid) - cpu
    return count / seconds, cpu * 1000 / count


def many_clients(target: Target, logs: list[Log], per_client: int, tag: str) -> tuple[float, float]:
    """CLIENTS threads, each with its own client and match, `per_client` appends each: (events/s, p95 ms)."""
    import httpx

    ids = [target.new_match(logs[i % len(logs)]) for i in range(CLIENTS)]
    start = threading.Barrier(CLIENTS + 1)
    latencies: list[float] = []
    ends: list[float] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def client_loop(i: int) -> None:
        mine = []
        try:
            with httpx.Client(headers={"Authorization": f"Bearer {target.token}"}, timeout=120) as client:
                client.get(target.base + target.warm_path)
                start.wait()
                for done in range(per_client):
                    mine.append(post_events(client, target, ids[i], logs[i % len(logs)], done, tag))
        except BaseException as e:  # reported by the caller
            start.abort()
            errors.append(e)
        with lock:
            latencies.extend(mine)
            ends.append(time.perf_counter())

    threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(CLIENTS)]
    for th in threads:
        th.start()
    try:
        start.wait()
    except threading.BrokenBarrierError:
        pass
    t = time.perf_counter()
    for th in threads:
        th.join()
    if errors:
        raise RuntimeError(f"{target.name}, {CLIENTS} clients: {errors[0]}") from errors[0]
    time.sleep(SETTLE)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return CLIENTS * per_client / (max(ends) - t), p95 * 1000


@contextmanager
def http_targets(tmp: Path, synchronous: str) -> Iterator[tuple[Target, Target]]:
    """Scorebook's server and the bare endpoint, each on its own database, running."""
    import httpx

    from recorder import Scorebook

    sb_url = str(tmp / "served.db")
    with Scorebook.open(sb_url) as sb:
        token = sb.create_token("bench", "recorder")
    bare_db = str(tmp / "bare.db")
    Scorebook.open(bare_db).close()
    bare_token = uuid.uuid4().hex
    sb_port, bare_port = _free_port(), _free_port()
    serve = [sys.executable, "-m", "scorebook.cli", "serve", "--db", sb_url, "--port", str(sb_port),
             *shlex.split(os.environ.get("SCOREBOOK_BENCH_SERVE_ARGS", ""))]
    bare = [sys.executable, "-m", "bench.bare_endpoint", bare_db, str(bare_port), synchronous]
    sb_base, bare_base = f"http://127.0.0.1:{sb_port}", f"http://127.0.0.1:{bare_port}"
    bare_raw = RawSqlite(bare_db, synchronous)  # the bench starts the bare endpoint's matches itself

    def start_on_scorebook(log: Log) -> str:
        r = httpx.post(f"{sb_base}/api/matches", json=log[0]["data"], timeout=60,
                       headers={"Authorization": f"Bearer {token}"})
        r.raise_for_status()
        return str(r.json()["match_id"])

    secret = {"SCOREBOOK_SECRET": "bench-secret-" + "x" * 32}
    with served(serve, secret, tmp / "serve.log", f"{sb_base}/api/games") as sb_proc, \
            served(bare, {"SCOREBOOK_BENCH_BARE_TOKEN": bare_token}, tmp / "bare.log", f"{bare_base}/health") as bp:
        yield (
            Target("scorebook", sb_base, "/api/matches/{match_id}/events", "/api/games", token, sb_proc.pid,
                   start_on_scorebook),
            Target("bare", bare_base, "/matches/{match_id}/events", "/health", bare_token, bp.pid, bare_raw.add_match),
        )
    bare_raw.conn.close()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(tmp: Path, logs: list[Log], rounds: int, synchronous: str) -> list[Figure]:
    """Figures 2 and 3."""
    rate = Figure("HTTP append, 1 client", "bare FastAPI + sqlite3", "ev/s", 0.8)
    cpu = Figure("  server CPU per event", "bare FastAPI + sqlite3", "ms", None, higher_better=False)
    many = Figure(f"HTTP append, {CLIENTS} clients on {CLIENTS} matches", "bare FastAPI + sqlite3", "ev/s", 0.8)
    p95 = Figure("  p95 latency", "bare FastAPI + sqlite3", "ms", 1.5, higher_better=False)
    with http_targets(tmp, synchronous) as (ours, bare):

        def single(target: Target, mine: bool) -> Callable[[int, int], None]:
            def run(r: int, n: int) -> None:
                value, ms = one_client(target, logs, n or HTTP_APPENDS, f"{target.name}{r}")
                if r >= 0:
                    (rate.ours if mine else rate.theirs).append(value)
                    (cpu.ours if mine else cpu.theirs).append(ms)
            return run

        def several(target: Target, mine: bool) -> Callable[[int, int], None]:
            def run(r: int, n: int) -> None:
                value, ms = many_clients(target, logs, 2 if n else PER_CLIENT, f"{target.name}{r}m")
                if r >= 0:
                    (many.ours if mine else many.theirs).append(value)
                    (p95.ours if mine else p95.theirs).append(ms)
            return run

        interleaved(rounds, [single(ours, True), single(bare, False), several(ours, True), several(bare, False)])
    return [rate, cpu, many, p95]


# -- PostgreSQL -----------------------------------------------------------------------------------------


def postgres(tmp: Path, logs: list[Log], rounds: int) -> list[Figure]:
    """Figures 1 and 4 on PostgreSQL against raw psycopg, each database in a fresh schema."""
    from bench.databases import database
    from recorder import Scorebook

    with database("postgresql", str(tmp), "sb") as sb_url, database("postgresql", str(tmp), "raw") as raw_url:
        Scorebook.open(raw_url).close()
        raw = RawPostgres(raw_url)
        with Scorebook.open(sb_url) as sb:
            figures = python_figures(sb, raw, None, logs, rounds)
        raw.conn.close()
    return figures


def positions_lock(tmp: Path, logs: list[Log]) -> None:
    """How long PostgreSQL's positions lock is held per append, and what share of the time CLIENTS threads
    appending to as many matches through one Scorebook spend with it held (1.0 would mean appends to different
    matches ran one after the other). An append's writes go as one simple query — a warm append's whole
    transaction (recorder/sql/append.py, `one_trip`: the match row, LOCK TABLE, the INSERTs, NOTIFY), else the
    careful way's LOCK TABLE, INSERTs, match row and COMMIT (`_script`) — so the lock is held for at most that
    query's round trip. Timed with one writer (no wait for the lock inside it), that is an upper bound of the hold; the
    share is that hold times the appends of the CLIENTS-thread run, over its wall time."""
    from bench.databases import database
    from recorder import Scorebook

    with database("postgresql", str(tmp), "lock") as url, Scorebook.open(url) as sb:
        ids = [sb.start_match(logs[i % len(logs)][0]["data"], "bench")["match_id"] for i in range(CLIENTS + 1)]
        held: list[float] = []
        statements = sb.store._sql  # measured where the lock is taken: this bench's look inside the store
        script, one_trip = statements._script, statements.one_trip

        def timed(query: Callable[..., Any]) -> Callable[..., Any]:
            def run(*args: Any) -> Any:
                t = time.perf_counter()
                try:
                    return query(*args)
                finally:
                    held.append((time.perf_counter() - t) * 1000)
            return run

        def client(k: int, match_id: str) -> None:
            log = logs[k % len(logs)]
            for done in range(PER_CLIENT):
                e = log[done + 1]
                t = time.perf_counter()
                sb.append(match_id, [{"type": e["type"], "data": e["data"]}], done + 1, "bench")
                took.append((time.perf_counter() - t) * 1000)

        took: list[float] = []
        statements._script, statements.one_trip = timed(script), timed(one_trip)  # type: ignore[method-assign]
        client(0, ids[-1])  # one writer: the lock's hold, nobody to wait for
        statements._script, statements.one_trip = script, one_trip  # type: ignore[method-assign]
        took = []
        start = time.perf_counter()
        threads = [threading.Thread(target=client, args=(k, ids[k])) for k in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = (time.perf_counter() - start) * 1000
    q = statistics.quantiles
    hold = statistics.median(held)
    print(f"PostgreSQL positions lock: held at most {hold:.2f} ms median, {q(held, n=20)[-1]:.2f} ms p95 per append "
          f"(the round trip of the query that takes it and commits, one writer); {CLIENTS} threads × {PER_CLIENT} "
          f"appends to {CLIENTS} matches: {statistics.median(took):.2f} ms median per append, the lock held about "
          f"{hold * len(took) / wall:.0%} of the run's wall time")


def main() -> bool:
    rounds, python_rounds = max(1, ROUNDS), max(1, PYTHON_ROUNDS)
    started = time.perf_counter()
    logs = hats_off_logs()
    with tempfile.TemporaryDirectory(prefix="scorebook-write-") as folder:
        tmp = Path(folder)
        figures, mode, sync = sqlite_python(tmp, logs, python_rounds)
        figures += http(tmp, logs, rounds, sync)
        if os.environ.get("SCOREBOOK_TEST_POSTGRES"):
            figures += postgres(tmp, logs, python_rounds)
    report(figures, f"journal_mode={mode}, synchronous={sync} (Scorebook's connection; every anchor's the same)",
           python_rounds, rounds)
    if os.environ.get("SCOREBOOK_TEST_POSTGRES"):
        with tempfile.TemporaryDirectory(prefix="scorebook-lock-") as folder:
            positions_lock(Path(folder), logs)
    print(f"({time.perf_counter() - started:.0f} s)")
    return True  # a missed goal is printed, not a failure
