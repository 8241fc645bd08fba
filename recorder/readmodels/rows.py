"""A match's read-model rows computed from its stored rows: the chain verified and the rules checked while
folding once (as every read of the store does, `recorder.store.matches.verified_fold`), then its statistics facts and
its snapshots taken from that one fold. Used by `rebuild` (in worker processes too: everything here is
plain data in and out) and by the projector when it has many matches to catch up.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, and_, bindparam, delete, insert, select
from sqlalchemy.engine import Connection

from projections.stats import FACTS_VERSION, match_date, match_facts
from projections.timeline import Fold
from projections.upcasters import after_start
from recorder.log.file import GENESIS, format_time
from recorder.sql.rows import EventRow, link_texts, rows_by_match
from recorder.sql.tables import Match, MatchFactsRow, MatchSnapshot
from recorder.store.matches import StoredFold, verified_fold
from recorder.store.snapshots import Snapshots

MATCHES = Match.__table__  # type: ignore[attr-defined]
FACTS_TABLE = MatchFactsRow.__table__  # type: ignore[attr-defined]
SNAPSHOT_TABLE = MatchSnapshot.__table__  # type: ignore[attr-defined]
# A match's snapshots up to the last seq read (those written meanwhile from later seqs stay).
_DELETE_SNAPSHOTS = delete(SNAPSHOT_TABLE).where(
    and_(SNAPSHOT_TABLE.c.match_id == bindparam("match"), SNAPSHOT_TABLE.c.seq <= bindparam("upto")))
_DELETE_SNAPSHOTS_PG = ("DELETE FROM snapshots USING unnest(%s::text[], %s::int[]) AS read(match_id, upto) "
                        "WHERE snapshots.match_id = read.match_id AND snapshots.seq <= read.upto")


@dataclass(frozen=True)
class MatchToProject:
    """What the match list says of a match: enough to date its facts and bound its rows."""

    match_id: str
    meta: Any
    created_at: Any  # a datetime, as the column type reads it
    last_seq: int


def matches_to_project(conn: Connection, match_ids: Sequence[str]) -> list[MatchToProject]:
    q = select(MATCHES.c.id, MATCHES.c.meta, MATCHES.c.created_at, MATCHES.c.last_seq)
    return [MatchToProject(*r) for r in conn.execute(q.where(MATCHES.c.id.in_(list(match_ids))))]


@dataclass
class Projected:
    """One match's rows. `facts` None: not even seq 1 verifies, so the match has no facts (its row goes).
    `upto`: the last seq read, so a writer keeps a newer row written meanwhile and drops only older snapshots."""

    match_id: str
    events: int
    upto: int
    facts: dict[str, Any] | None = None
    snapshots: list[dict[str, Any]] = field(default_factory=list)


def project(match: MatchToProject, rows: Sequence[EventRow], facts: bool, snapshots: Snapshots | None) -> Projected:
    link_texts(rows, GENESIS)  # every row's hash checked, and their texts decoded at once, for `verified_fold`
    stored = verified_fold(StoredFold(None, GENESIS, 0), rows, match.last_seq)
    fold = stored.fold
    out = Projected(match.match_id, len(rows), min(len(rows), match.last_seq))
    if fold is None:
        return out
    if facts:
        out.facts = facts_row(match, fold, rows)
    if snapshots is not None and snapshots.every > 0:
        by_seq = {r.seq: r.hash for r in rows}
        out.snapshots = [snapshots.values(match.match_id, fold, k, by_seq[k])
                         for k in range(snapshots.every, fold.seq + 1, snapshots.every)]
    return out


def facts_row(match: MatchToProject, fold: Fold[Any], rows: Sequence[EventRow] = ()) -> dict[str, Any]:
    """The match's `match_facts` row, from its fold (and its stored rows, if they were folded)."""
    date = match_date(match.meta, format_time(match.created_at))
    made = match_facts(fold, match.match_id, date, stored_fingerprint(fold, rows))
    return {"match_id": match.match_id, "game": made.game, "finished": made.finished, "date": date,
            "seq": fold.seq, "version": FACTS_VERSION, "facts": made.to_json()}


def stored_fingerprint(fold: Fold[Any], rows: Sequence[EventRow]) -> str | None:
    """`stats.fingerprint(fold)` from the folded rows' stored texts, when they are the bytes it is taken over:
    each text shown canonical by its hash and all ASCII (the fingerprint escapes the rest); else None."""
    if after_start(fold.game.name):  # the fold's events are upcast: not the stored texts
        return None
    folded = rows[:fold.seq]
    if len(folded) < fold.seq or not all(r.canonical and r.text is not None and r.text.isascii() for r in folded):
        return None
    # The types are ones the rules took: names of the game's events, which JSON spells as they are.
    body = "[" + ",".join(f'["{r.type}",{r.text}]' for r in folded) + "]"
    return hashlib.sha256(body.encode()).hexdigest()


@contextmanager
def no_gc() -> Iterator[None]:
    """Folding makes millions of small objects and no cycles: the collector's passes over them cost more
    than the folding (2.5× on a rebuild)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Plan:
    """What a batch is computed with: which read models, and the snapshot key (picklable, for workers)."""

    def __init__(self, facts: bool, snapshot_key: bytes | None, every: int) -> None:
        self.facts, self.snapshot_key, self.every = facts, snapshot_key, every

    def snapshots(self) -> Snapshots | None:
        return Snapshots(self.snapshot_key, self.every) if self.snapshot_key is not None and self.every > 0 else None


def compute(conn: Connection, plan: Plan, batch: Sequence[MatchToProject]) -> list[Projected]:
    """The read-model rows of a batch of matches, from their stored rows (one query)."""
    rows = rows_by_match(conn, [m.match_id for m in batch])
    snapshots = plan.snapshots()
    with no_gc():
        return [project(m, rows.get(m.match_id, []), plan.facts, snapshots) for m in batch]


def write(conn: Connection, batch: Sequence[Projected], plan: Plan) -> None:
    """Write a batch's rows over the old ones (in the caller's transaction; see the module docstring)."""
    ids = [p.match_id for p in batch]
    if plan.facts:
        newer = {r.match_id: r.seq for r in conn.execute(
            select(FACTS_TABLE.c.match_id, FACTS_TABLE.c.seq, FACTS_TABLE.c.version)
            .where(FACTS_TABLE.c.match_id.in_(ids))) if r.version == FACTS_VERSION}
        replaced = [p for p in batch if p.upto >= newer.get(p.match_id, 0)]
        if replaced:
            conn.execute(delete(FACTS_TABLE).where(FACTS_TABLE.c.match_id.in_([p.match_id for p in replaced])))
        made = [p.facts for p in replaced if p.facts is not None]
        if made:
            _insert(conn, FACTS_TABLE, made)
    if plan.every > 0 and plan.snapshot_key is not None and batch:
        if conn.dialect.name == "postgresql":  # one statement for the batch, its matches and seqs as two arrays
            conn.exec_driver_sql(_DELETE_SNAPSHOTS_PG, ([p.match_id for p in batch], [p.upto for p in batch]))
        else:
            # One statement for the batch, run for each match (a statement built and compiled per match cost
            # more than the rest of the batch's writing).
            conn.execute(_DELETE_SNAPSHOTS, [{"match": p.match_id, "upto": p.upto} for p in batch])
        made_snapshots = [row for p in batch for row in p.snapshots]
        if made_snapshots:
            _insert(conn, SNAPSHOT_TABLE, made_snapshots)


def _insert(conn: Connection, table: Any, rows: list[dict[str, Any]]) -> None:
    """Insert `rows` (column values, every row the same columns): on PostgreSQL by COPY, which costs the server
    and this process about half what the statements did; JSON columns get the text their type would write."""
    if conn.dialect.name != "postgresql":
        conn.execute(insert(table), rows)
        return
    columns = list(rows[0])
    as_json = [isinstance(table.c[c].type, JSON) for c in columns]
    dumps = conn.dialect._json_serializer or json.dumps  # type: ignore[attr-defined]
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        with cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([dumps(v) if j else v for v, j in zip(row.values(), as_json, strict=True)])
    finally:
        cursor.close()
