"""The projector: keeps the followed read models current from the log, by global position, with a stored
checkpoint per model.

It follows the log rather than updating the read models inside every append: a match's facts are a walk over
its whole fold (turns, tags, first player), so keeping them in the append's transaction would make every
append cost the length of its match. Instead:

- `catch_up` reads the positions after a model's checkpoint (committed events only: a position is visible
  once its transaction has committed, and positions are taken in commit order), recomputes the rows of every
  match they touch, and writes the rows and the new checkpoint in one transaction. A crash before that commit
  leaves the old checkpoint: the next run does the work again, and writing a match's rows twice is harmless.
  Two servers may run it at once: the checkpoint row is locked for the transaction (FOR UPDATE on
  PostgreSQL; SQLite's writers are one at a time), which is the store's writer's transaction
  (recorder/sql/append.py): on SQLite it takes its turn with the appends.
- The server runs it in a background thread (`Follower`), and every read of a followed model catches up
  first (`recorder.readmodels.facts.FactsReader`).
- A catch-up of many matches (the first after an upgrade, a restore) reads their rows in chunks and folds
  them once each (`recorder.readmodels.model.compute`); a few are folded through the store, whose cache holds
  the matches being played.
- `scorebook rebuild` recomputes every match without waiting for the log to move (`recorder.readmodels.rebuild`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from recorder.errors import ChainBroken
from recorder.readmodels.model import (
    MatchToProject,
    Plan,
    Projected,
    ReadModel,
    compute,
    matches_to_project,
    projected_from,
    write,
)
from recorder.sql.rows import EVENTS, log_head
from recorder.sql.tables import ProjectionCheckpoint, utcnow
from recorder.store.matches import EventStore

CHECKPOINTS = ProjectionCheckpoint.__table__  # type: ignore[attr-defined]
MANY = 16  # matches: more than this to catch up are read from their rows, not folded one by one
CHUNK = 200  # matches per query when reading them from their rows

Progress = Callable[[int, int], None]  # (events done, events in all)


class Projector:
    """Keeps the `followed` read models current from the log (see the module docstring)."""

    def __init__(self, store: EventStore, models: Sequence[ReadModel]) -> None:
        if not models or not all(m.followed for m in models):
            raise ValueError("a projector follows one or more followed read models")
        self.store = store
        self.models = tuple(models)
        self._lock = threading.Lock()  # one catch-up at a time in this process

    def checkpoint(self, model: ReadModel | None = None) -> int:
        """How far `model` (default: the first followed) has read the log."""
        name = (model or self.models[0]).name
        with self.store.engine.connect() as conn:
            row = conn.execute(select(CHECKPOINTS.c.position).where(CHECKPOINTS.c.name == name)).first()
            return int(row.position) if row is not None else 0

    def head(self) -> int:
        with self.store.engine.connect() as conn:
            return log_head(conn)

    def catch_up(self, limit: int | None = None) -> int:
        """Bring every followed model up to the log's head (at most `limit` positions each); returns the lowest
        checkpoint reached."""
        return min(self._catch_up(model, limit) for model in self.models)

    def _catch_up(self, model: ReadModel, limit: int | None) -> int:
        current = self.checkpoint(model)
        if current >= self.head():  # read first: a read of the model takes no write lock when nothing is new
            return current
        with self._lock, self.store.writer.transaction() as conn:
            position = lock_checkpoint(conn, model)
            head = log_head(conn)
            upto = head if limit is None else min(head, position + limit)
            if upto <= position:
                return position
            changed = [r[0] for r in conn.execute(
                select(EVENTS.c.match_id).where(EVENTS.c.position > position, EVENTS.c.position <= upto).distinct())]
            self._project(conn, changed, Plan((model,)))
            move_checkpoint(conn, model, upto)
            return upto

    def reproject(self, match_ids: Sequence[str], models: Sequence[ReadModel]) -> None:
        """Recompute `models`' rows of `match_ids` now (rows a reader found in an older format)."""
        with self._lock, self.store.writer.transaction() as conn:
            self._project(conn, match_ids, Plan(tuple(models)))

    def _project(self, conn: Connection, match_ids: Sequence[str], plan: Plan) -> None:
        """Recompute the rows of `match_ids` in the caller's transaction: a few through the store's fold
        (cached for a match being played), many from their rows, a chunk per query."""
        if len(match_ids) > MANY:
            for i in range(0, len(match_ids), CHUNK):
                write(conn, compute(conn, plan, matches_to_project(conn, match_ids[i:i + CHUNK])), plan)
            return
        write(conn, [self._projected(m, plan) for m in matches_to_project(conn, match_ids)], plan)

    def _projected(self, match: MatchToProject, plan: Plan) -> Projected:
        try:
            fold = self.store.whole_fold(match.match_id)
        except ChainBroken:  # broken at seq 1: nothing to count, its rows go
            fold = None
        return projected_from(match, fold, plan)

    def reset(self) -> None:
        """Forget the followed models: the next catch-up reads the whole log again."""
        with self._lock, self.store.writer.transaction() as conn:
            for model in self.models:
                conn.execute(delete(model.table))
                lock_checkpoint(conn, model)
                move_checkpoint(conn, model, 0)


def lock_checkpoint(conn: Connection, model: ReadModel) -> int:
    """`model`'s checkpoint, its row locked for the transaction (made when missing)."""
    q = select(CHECKPOINTS.c.position).where(CHECKPOINTS.c.name == model.name).with_for_update()
    row = conn.execute(q).first()
    if row is None:
        conn.execute(insert(CHECKPOINTS).values(name=model.name, position=0, updated_at=utcnow()))
        return 0
    return int(row.position)


def move_checkpoint(conn: Connection, model: ReadModel, position: int) -> None:
    conn.execute(CHECKPOINTS.update().where(CHECKPOINTS.c.name == model.name)
                 .values(position=position, updated_at=utcnow()))


class Follower:
    """A daemon thread that catches the read models up every `interval` seconds (the server's). `warm` runs
    once after the first catch-up (decoding what the first reader after a start would otherwise wait for)."""

    def __init__(self, projector: Projector, interval: float = 1.0, warm: Callable[[], object] | None = None) -> None:
        self.projector, self.interval, self.warm = projector, interval, warm
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scorebook-projector", daemon=True)

    def start(self) -> Follower:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        warm = self.warm
        while not self._stop.wait(self.interval):
            try:
                self.projector.catch_up()
                if warm is not None:
                    warm()
                    warm = None
            except Exception:  # noqa: BLE001 - a read model must never take the server down; the next tick retries
                logging.getLogger("scorebook.projector").exception("catching up the read models failed")
