"""`rebuild_snapshots`: the snapshots (recorder/store/snapshots.py) of one match, or of every match, rewritten from
the log, a transaction per match: for the snapshot benchmarks and tests, which choose `every` and a match.
`scorebook rebuild` does the same for every match in batches (recorder/readmodels/rebuild.py).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.engine import Engine

from recorder.readmodels.rows import MATCHES, Plan, compute, matches_to_project, write
from recorder.sql.engine import for_writing
from recorder.store.snapshots import SNAPSHOT_EVERY, load_key, snapshot_key


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
    plan = Plan(facts=False, snapshot_key=snapshot_key(secret) if secret is not None else load_key(engine),
                every=every)
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
        counts["snapshots"] += len(projected.snapshots)
        if progress is not None:
            progress(projected.events)
    return counts
