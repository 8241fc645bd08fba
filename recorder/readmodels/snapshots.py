"""Snapshots as a read model: a match's state at every `every`-th seq (recorder/store/snapshots.py makes and
reads the rows; the append writes them in its own transaction). Here they are rewritten from the log:
`Snapshots` for `scorebook rebuild`, and `rebuild_snapshots`, one match or every match a transaction each, for
the snapshot benchmarks and tests, which choose `every` and a match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy import Table, and_, bindparam, delete, select
from sqlalchemy.engine import Connection, Engine

from projections.timeline import Fold
from recorder.readmodels.model import (
    MATCHES,
    MatchToProject,
    Plan,
    Projected,
    ReadModel,
    compute,
    insert_rows,
    matches_to_project,
    write,
)
from recorder.sql.engine import for_writing
from recorder.sql.rows import EventRow
from recorder.sql.tables import MatchSnapshot
from recorder.store import snapshots as stored
from recorder.store.snapshots import SNAPSHOT_EVERY, load_key, snapshot_key

SNAPSHOT_TABLE: Table = MatchSnapshot.__table__  # type: ignore[attr-defined]
# A match's snapshots up to the last seq read (those written meanwhile from later seqs stay).
_DELETE = delete(SNAPSHOT_TABLE).where(
    and_(SNAPSHOT_TABLE.c.match_id == bindparam("match"), SNAPSHOT_TABLE.c.seq <= bindparam("upto")))
_DELETE_PG = ("DELETE FROM snapshots USING unnest(%s::text[], %s::int[]) AS read(match_id, upto) "
              "WHERE snapshots.match_id = read.match_id AND snapshots.seq <= read.upto")


@dataclass(frozen=True)
class Snapshots(ReadModel):
    """The snapshot rows at every `every`-th seq, MACed with `key` (the server's snapshot key)."""

    name: ClassVar[str] = "snapshots"
    table: ClassVar[Table] = SNAPSHOT_TABLE

    key: bytes
    every: int = SNAPSHOT_EVERY

    def compute(self, match: MatchToProject, fold: Fold[Any], rows: Sequence[EventRow]) -> list[dict[str, Any]]:
        if not rows:
            raise ValueError("snapshots are computed from the stored rows: each names its event's hash")
        maker = stored.Snapshots(self.key, self.every)
        hashes = {r.seq: r.hash for r in rows}
        return [maker.values(match.match_id, fold, k, hashes[k]) for k in range(self.every, fold.seq + 1, self.every)]

    def write(self, conn: Connection, batch: Sequence[Projected]) -> None:
        if not batch:
            return
        if conn.dialect.name == "postgresql":  # one statement for the batch, its matches and seqs as two arrays
            conn.exec_driver_sql(_DELETE_PG, ([p.match_id for p in batch], [p.upto for p in batch]))
        else:
            # One statement for the batch, run for each match (a statement built and compiled per match cost
            # more than the rest of the batch's writing).
            conn.execute(_DELETE, [{"match": p.match_id, "upto": p.upto} for p in batch])
        insert_rows(conn, SNAPSHOT_TABLE, [row for p in batch for row in p.of(self)])


def rebuild_snapshots(
    engine: Engine,
    match_id: str | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    every: int = SNAPSHOT_EVERY,
    secret: str | None = None,
) -> dict[str, int]:
    """Rewrite the snapshots of one match, or of every match, from the log: new ones at every `every`-th seq
    as far as its rows verify, the old ones up to its last row deleted. `progress(n)` is called after each
    match with the number of its events read. Returns {"matches", "events", "snapshots"}."""
    model = Snapshots(snapshot_key(secret) if secret is not None else load_key(engine), every)
    plan = Plan((model,))
    q = select(MATCHES.c.id).order_by(MATCHES.c.created_at, MATCHES.c.id)
    if match_id is not None:
        q = q.where(MATCHES.c.id == match_id)
    with engine.connect() as conn:
        ids = [r[0] for r in conn.execute(q)]
    counts = {"matches": 0, "events": 0, "snapshots": 0}
    for mid in ids:
        with for_writing(engine).begin() as conn:
            (projected,) = compute(conn, plan, matches_to_project(conn, [mid]))
            write(conn, [projected], plan)
        counts["matches"] += 1
        counts["events"] += projected.events
        counts["snapshots"] += len(projected.of(model))
        if progress is not None:
            progress(projected.events)
    return counts
