"""The HTTP anchor of bench/write_path.py: a bare FastAPI endpoint that stores each posted event with sqlite3.

It takes the body Scorebook's append takes (`{"expected_seq", "events": [{"type", "data", "event_id"}]}`) and
inserts one row per event into the `events` table of a database migrated by Scorebook (the same columns,
indexes, foreign key and triggers), one transaction per request, with the durability it is told (the
project's: WAL, synchronous as Scorebook's connection has it). What it leaves out is what a bare endpoint
does not do: no rules, no hash chain (the hash column gets a SHA-256 of the event's data), no `expected_seq`
check beyond the primary key refusing a seq twice (a 409), a token compared as a string, no database read.

`python -m bench.bare_endpoint DB PORT [SYNCHRONOUS]` serves it with uvicorn, as the benchmark does; the token
it wants, if any, is in $SCOREBOOK_BENCH_BARE_TOKEN.
"""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

import hashlib
import json
import os
import sqlite3
import sys
import threading
from datetime import datetime, timezone
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException
from pydantic import BaseModel

INSERT = (
    "INSERT INTO events (match_id, seq, position, type, data, recorded_at, recorded_by, prev_hash, hash, event_id) "
    "VALUES (?, ?, (SELECT coalesce(max(position), 0) + 1 FROM events), ?, ?, ?, ?, ?, ?, ?)"
)
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


class EventIn(BaseModel):
    type: str
    data: dict[str, Any]
    event_id: str | None = None


class AppendIn(BaseModel):
    expected_seq: int
    events: list[EventIn]


def connect(db: str, synchronous: str) -> sqlite3.Connection:
    """A connection set as Scorebook's are (recorder/sql/engine.py): autocommit (BEGIN written out), foreign keys, WAL,
    a 30 s busy timeout, and `synchronous` said explicitly."""
    if synchronous.upper() not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}")
    conn = sqlite3.connect(db, isolation_level=None, timeout=30, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    return conn


def build_app(db: str, synchronous: str = "FULL", token: str | None = None) -> FastAPI:
    app = FastAPI()
    local = threading.local()  # one connection per worker thread, as a pool would hand out

    def conn() -> sqlite3.Connection:
        c: sqlite3.Connection | None = getattr(local, "conn", None)
        if c is None:
            c = local.conn = connect(db, synchronous)
        return c

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/matches/{match_id}/events", status_code=201)
    def append(
        match_id: str, body: AppendIn, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        if token is not None and authorization != f"Bearer {token}":
            raise HTTPException(401, "unknown token")
        now = datetime.now(timezone.utc).isoformat(sep=" ")
        rows = []
        for seq, e in enumerate(body.events, start=body.expected_seq + 1):
            data = json.dumps(e.data, separators=(",", ":"))
            digest = hashlib.sha256(data.encode()).hexdigest()
            rows.append((match_id, seq, e.type, data, now, "bench", "", digest, e.event_id))
        c = conn()
        c.execute("BEGIN IMMEDIATE")
        try:
            c.executemany(INSERT, rows)
        except sqlite3.IntegrityError as err:
            c.execute("ROLLBACK")
            raise HTTPException(409, str(err)) from err
        except BaseException:
            c.execute("ROLLBACK")
            raise
        c.execute("COMMIT")
        return {"events": [{"seq": row[1], "type": row[2], "hash": row[7]} for row in rows]}

    return app


def main(argv: list[str]) -> None:
    import uvicorn

    db, port = argv[0], int(argv[1])
    synchronous = argv[2] if len(argv) > 2 else "FULL"
    token = os.environ.get("SCOREBOOK_BENCH_BARE_TOKEN")
    uvicorn.run(build_app(db, synchronous, token), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1:])
