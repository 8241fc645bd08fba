"""`scorebook rebuild`: read models (`recorder.readmodels.registry`: `match_facts`, `snapshots`, or all)
recomputed from the log in one pass over the matches, each match's rows read once, verified and folded once,
and each model's rows computed from that fold and written through the model (`recorder.readmodels.model`).

- **While the server keeps answering.** Nothing is emptied first: each batch of matches is written in its
  own short transaction over the rows that were there, so a reader sees the old rows or the new ones.
  The batch transaction holds the checkpoint locks of the followed models it rebuilds, as the projector's
  catch-up does; each model keeps what was written meanwhile from a later seq (`ReadModel.write`).
- **Up to where.** The log's head when the rebuild began (`upto`). Matches are taken in the order of their
  first event's position, up to that head; a match begun later, and events appended after the head, are
  the projector's to catch up. At the end each followed model's checkpoint moves to at least `upto`: every
  event up to it was read by the rebuild.
- **Resumable.** `rebuild_progress` holds `upto` and the first-event position of the last match written
  (in the batch's transaction); `resume` carries on after it with the same `upto`.
- **Fast.** Rows are read with Core (`recorder.sql.rows`), the collector is off while folding (no
  cycles), and batches are computed by worker processes, one per core, while this process writes: the
  folding is CPU work that a single Python process cannot spread. A database the workers cannot open
  (SQLite in memory), or a log too small to be worth starting them, is rebuilt in this process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context

from sqlalchemy import and_, delete, func, insert, select
from sqlalchemy.engine import Engine

from recorder.readmodels.model import MATCHES, MatchToProject, Plan, Projected, compute, write
from recorder.readmodels.projector import lock_checkpoint, move_checkpoint
from recorder.sql.engine import for_writing, make_engine
from recorder.sql.rows import EVENTS, log_head
from recorder.sql.tables import RebuildProgress, utcnow

BATCH_EVENTS = 10_000  # about this many events per batch (one worker task, one transaction)
PARALLEL_FROM = 50_000  # events: below this, starting worker processes costs more than it saves

Progress = Callable[[int, int], None]  # (events done, events in all)

PROGRESS_TABLE = RebuildProgress.__table__  # type: ignore[attr-defined]


# -- worker processes ------------------------------------------------------------------------------------

_worker_engine: Engine | None = None


def _start_worker(url: str) -> None:
    global _worker_engine
    _worker_engine = make_engine(url)


def _compute_in_worker(plan: Plan, batch: Sequence[MatchToProject]) -> list[Projected]:
    assert _worker_engine is not None
    with _worker_engine.connect() as conn:
        return compute(conn, plan, batch)


def worker_count(engine: Engine, events: int, wanted: int | None = None) -> int:
    """How many worker processes to fold with (0: in this process): $SCOREBOOK_REBUILD_WORKERS or one per
    core, none for a database only this process can open or a log under PARALLEL_FROM events."""
    if engine.url.get_backend_name() == "sqlite" and engine.url.database in (None, "", ":memory:"):
        return 0
    if wanted is None:
        configured = os.environ.get("SCOREBOOK_REBUILD_WORKERS", "").strip()
        wanted = int(configured) if configured.isdigit() else (os.cpu_count() or 1)
        if events < PARALLEL_FROM:
            return 0
    return max(0, wanted)


# -- the rebuild -----------------------------------------------------------------------------------------


class Rebuild:
    """One `scorebook rebuild` of `name` over the store's engine (see the module docstring)."""

    def __init__(self, engine: Engine, name: str, plan: Plan) -> None:
        self.engine, self.name, self.plan = engine, name, plan

    def run(self, progress: Progress | None = None, resume: bool = False, workers: int | None = None) -> int:
        """Rebuild (carrying on from an interrupted one with `resume`); returns the head it read up to."""
        upto, done_through = self._start(resume)
        todo = self._matches(done_through, upto)
        total = sum(m.last_seq for _, m in todo)
        done = 0
        for batch, projected in self._computed(_batches(todo), workers, total):
            with for_writing(self.engine).begin() as conn:
                for model in self.plan.followed:
                    lock_checkpoint(conn, model)
                write(conn, projected, self.plan)
                conn.execute(PROGRESS_TABLE.update().where(PROGRESS_TABLE.c.name == self.name)
                             .values(done_through=batch[-1][0]))
            done += sum(p.events for p in projected)
            if progress is not None:
                progress(min(done, total), total)
        self._finish(upto)
        if progress is not None:
            progress(total, total)
        return upto

    def _start(self, resume: bool) -> tuple[int, int]:
        with for_writing(self.engine).begin() as conn:
            row = conn.execute(select(PROGRESS_TABLE).where(PROGRESS_TABLE.c.name == self.name)).first()
            if resume and row is not None:
                return int(row.upto), int(row.done_through)
            head = log_head(conn)
            conn.execute(delete(PROGRESS_TABLE).where(PROGRESS_TABLE.c.name == self.name))
            conn.execute(insert(PROGRESS_TABLE).values(name=self.name, upto=head, done_through=-1,
                                                       started_at=utcnow()))
            return head, -1

    def _matches(self, done_through: int, upto: int) -> list[tuple[int, MatchToProject]]:
        """(first-event position, match) of the matches still to do, in that order; a match whose first row
        is missing (deleted by hand) comes first, as position 0, so its facts go."""
        first = EVENTS.alias("first")
        position = func.coalesce(first.c.position, 0)
        q = (select(MATCHES.c.id, MATCHES.c.meta, MATCHES.c.created_at, MATCHES.c.last_seq, position)
             .select_from(MATCHES.outerjoin(first, and_(first.c.match_id == MATCHES.c.id, first.c.seq == 1)))
             .where(position > done_through, position <= upto)
             .order_by(position, MATCHES.c.id))
        with self.engine.connect() as conn:
            return [(int(pos), MatchToProject(mid, meta, created, int(last_seq)))
                    for mid, meta, created, last_seq, pos in conn.execute(q)]

    def _computed(self, batches: Iterator[list[tuple[int, MatchToProject]]], workers: int | None,
                  total: int) -> Iterator[tuple[list[tuple[int, MatchToProject]], list[Projected]]]:
        n = worker_count(self.engine, total, workers)
        if n == 0:
            for batch in batches:
                with self.engine.connect() as conn:
                    yield batch, compute(conn, self.plan, [m for _, m in batch])
            return
        url = self.engine.url.render_as_string(hide_password=False)
        with ProcessPoolExecutor(n, mp_context=get_context("spawn"), initializer=_start_worker,
                                 initargs=(url,)) as pool:
            pending: deque[tuple[list[tuple[int, MatchToProject]], Future[list[Projected]]]] = deque()
            for batch in batches:
                pending.append((batch, pool.submit(_compute_in_worker, self.plan, [m for _, m in batch])))
                if len(pending) > 2 * n:  # a bounded window: results are written in order, as they come
                    done_batch, future = pending.popleft()
                    yield done_batch, future.result()
            while pending:
                done_batch, future = pending.popleft()
                yield done_batch, future.result()

    def _finish(self, upto: int) -> None:
        with for_writing(self.engine).begin() as conn:
            for model in self.plan.followed:
                if lock_checkpoint(conn, model) < upto:
                    move_checkpoint(conn, model, upto)
            conn.execute(delete(PROGRESS_TABLE).where(PROGRESS_TABLE.c.name == self.name))


def _batches(todo: list[tuple[int, MatchToProject]]) -> Iterator[list[tuple[int, MatchToProject]]]:
    batch: list[tuple[int, MatchToProject]] = []
    events = 0
    for item in todo:
        batch.append(item)
        events += item[1].last_seq
        if events >= BATCH_EVENTS:
            yield batch
            batch, events = [], 0
    if batch:
        yield batch

