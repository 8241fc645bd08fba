"""`rebuild_snapshots`: a match's snapshots (recorder/snapshots.py) rewritten from its log, for `scorebook rebuild`.

Apart from recorder/snapshots.py because it folds with the store's chain check (`recorder.store._verified`),
and the store itself reads and writes snapshots.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from recorder.db import for_writing
from recorder.logfile import GENESIS
from recorder.snapshots import SNAPSHOT_EVERY, Snapshots, load_key, snapshot_key
from recorder.store import StoredFold, _verified
from recorder.tables import Match, MatchSnapshot, StoredEvent


def rebuild_snapshots(
    engine: Engine,
    match_id: str | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    every: int = SNAPSHOT_EVERY,
    secret: str | None = None,
) -> dict[str, int]:
    """Rewrite the snapshots of one match, or of every match, from the log: each match's old snapshots are
    deleted and new ones written at every `every`-th seq as far as its rows verify, one transaction per match
    (so it can be stopped and run again, and appends go on meanwhile). `progress(n)` is called after each
    match with the number of its events read. Returns {"matches", "events", "snapshots"}."""
    snapshots = Snapshots(snapshot_key(secret) if secret is not None else load_key(engine), every)
    writer = for_writing(engine)
    with Session(engine) as s:
        q = select(Match.id, Match.last_seq).order_by(col(Match.created_at), col(Match.id))
        if match_id is not None:
            q = q.where(Match.id == match_id)
        matches = s.exec(q).all()
    counts = {"matches": 0, "events": 0, "snapshots": 0}
    for mid, last_seq in matches:
        with Session(engine) as s:
            rows = s.exec(
                select(StoredEvent).where(StoredEvent.match_id == mid, StoredEvent.seq <= last_seq)
                .order_by(col(StoredEvent.seq))
            ).all()
            stored = _verified(StoredFold(None, GENESIS, 0), rows, last_seq)
            hashes = {r.seq: r.hash for r in rows}
        fold = stored.fold
        made = []
        if fold is not None and every > 0:
            made = [snapshots.make(mid, fold, k, hashes[k]) for k in range(every, fold.seq + 1, every)]
        with Session(writer) as w:
            w.exec(delete(MatchSnapshot).where(col(MatchSnapshot.match_id) == mid))  # type: ignore[call-overload]
            w.add_all(made)
            w.commit()
        counts["matches"] += 1
        counts["events"] += len(rows)
        counts["snapshots"] += len(made)
        if progress is not None:
            progress(len(rows))
    return counts
