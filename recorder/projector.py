"""Read models kept from the log: each match's statistics facts, in the `match_facts` table.

A projector follows the log by global position with a stored checkpoint, rather than updating the read
model inside every append: a match's facts are a walk over its whole fold (turns, tags, first player), so
keeping them in the append's transaction would make every append cost the length of its match. Instead:

- `catch_up` reads the positions after the checkpoint (committed events only: a position is visible
  once its transaction has committed, and positions are taken in commit order), recomputes the facts of
  every match they touch from the store's fold, and writes the rows and the new checkpoint in one
  transaction. A crash before that commit leaves the old checkpoint: the next run does the work again,
  and writing a match's facts twice is harmless. Two servers may run it at once: the checkpoint row is
  locked for the transaction (FOR UPDATE on PostgreSQL; SQLite's writers are one at a time).
- The server runs it in a background thread (`follow`), and every read of the facts catches up first,
  so the statistics page never shows less than what was committed before it asked.
- `scorebook rebuild` resets the checkpoint and catches up in batches, each its own transaction, so an
  interrupted rebuild resumes where it stopped.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import delete, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from projections.stats import FACTS_VERSION, MatchFacts, match_date, match_facts
from recorder.db import for_writing
from recorder.errors import ChainBroken
from recorder.logfile import format_time
from recorder.store import EventStore
from recorder.tables import Match, MatchFactsRow, ProjectionCheckpoint, StoredEvent, utcnow

FACTS = "match_facts"
PROJECTIONS = (FACTS,)
BATCH_EVENTS = 20_000  # positions a rebuild reads per transaction

Progress = Callable[[int, int], None]  # (positions done, positions in all)


class FactsProjector:
    """Keeps `match_facts` current from the log (see the module docstring)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._lock = threading.Lock()  # one catch-up at a time in this process

    # -- following ---------------------------------------------------------------------------------

    def checkpoint(self) -> int:
        with Session(self.store.engine) as s:
            row = s.get(ProjectionCheckpoint, FACTS)
            return row.position if row is not None else 0

    def head(self) -> int:
        with Session(self.store.engine) as s:
            return int(s.exec(select(func.coalesce(func.max(StoredEvent.position), 0))).one())

    def catch_up(self, limit: int | None = None) -> int:
        """Bring the facts up to the log's head (at most `limit` positions); returns the new checkpoint."""
        current = self.checkpoint()
        if current >= self.head():  # read first: a read of the facts takes no write lock when nothing is new
            return current
        with self._lock, Session(for_writing(self.store.engine)) as s:
            checkpoint = self._locked_checkpoint(s)
            head = int(s.exec(select(func.coalesce(func.max(StoredEvent.position), 0))).one())
            upto = head if limit is None else min(head, checkpoint.position + limit)
            if upto <= checkpoint.position:
                return checkpoint.position
            changed = s.exec(
                select(StoredEvent.match_id)
                .where(StoredEvent.position > checkpoint.position, StoredEvent.position <= upto)
                .distinct()
            ).all()
            for match_id in changed:
                self._project(s, match_id)
            checkpoint.position = upto
            checkpoint.updated_at = utcnow()
            s.add(checkpoint)
            s.commit()
            return upto

    def _locked_checkpoint(self, s: Session) -> ProjectionCheckpoint:
        row = s.exec(select(ProjectionCheckpoint).where(ProjectionCheckpoint.name == FACTS).with_for_update()).first()
        if row is None:
            row = ProjectionCheckpoint(name=FACTS, position=0)
            s.add(row)
            s.flush()
        return row

    def _project(self, s: Session, match_id: str) -> None:
        match = s.get(Match, match_id)
        if match is None:
            return
        date = match_date(match.meta, format_time(match.created_at))
        try:
            fold = self.store.whole_fold(match_id)
        except ChainBroken:  # broken at seq 1: nothing to count
            s.exec(delete(MatchFactsRow).where(col(MatchFactsRow.match_id) == match_id))  # type: ignore[call-overload]
            return
        facts = match_facts(fold, match_id, date)
        s.merge(MatchFactsRow(match_id=match_id, game=facts.game, finished=facts.finished, date=date,
                              seq=fold.seq, version=FACTS_VERSION, facts=facts.to_json()))

    # -- rebuilding --------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget the read model: the next catch-up reads the whole log again."""
        with self._lock, Session(for_writing(self.store.engine)) as s:
            s.exec(delete(MatchFactsRow))  # type: ignore[call-overload]
            checkpoint = self._locked_checkpoint(s)
            checkpoint.position = 0
            checkpoint.updated_at = utcnow()
            s.add(checkpoint)
            s.commit()

    def rebuild(self, progress: Progress | None = None, resume: bool = False) -> int:
        """Recompute every match's facts from the log, a batch per transaction; with `resume`, carry on
        from where an interrupted rebuild stopped. Returns the checkpoint reached (the log's head)."""
        if not resume:
            self.reset()
        head = self.head()
        position = self.checkpoint()
        while position < head:
            position = self.catch_up(limit=BATCH_EVENTS)
            if progress is not None:
                progress(position, head)
        return position

    # -- reading -----------------------------------------------------------------------------------

    def facts(self, game: str | None = None, catch_up: bool = True) -> list[MatchFacts]:
        """Every match's facts (of one game), caught up with the log first; a row of an older facts format
        is recomputed rather than misread."""
        if catch_up:
            self.catch_up()
        table = MatchFactsRow.__table__  # type: ignore[attr-defined]
        q = sa_select(table.c.match_id, table.c.version, table.c.facts)  # rows, not ORM objects: 70 µs less each
        if game:
            q = q.where(table.c.game == game)
        with _no_gc(), self.store.engine.connect() as conn:
            rows = conn.execute(q.order_by(table.c.date, table.c.match_id)).all()
        with _no_gc():
            out, stale = self._decoded(rows)
        if stale:
            with self._lock, Session(for_writing(self.store.engine)) as s:
                for match_id in stale:
                    self._project(s, match_id)
                s.commit()
            return self.facts(game, catch_up=False)
        return out

    @staticmethod
    def _decoded(rows: Sequence[Any]) -> tuple[list[MatchFacts], list[str]]:
        out, stale = [], []
        for row in rows:
            try:
                if row.version != FACTS_VERSION:
                    raise ValueError("an older format")
                out.append(MatchFacts.from_json(row.facts))
            except (ValueError, KeyError, TypeError):
                stale.append(row.match_id)
        return out, stale


@contextmanager
def _no_gc() -> Iterator[None]:
    """Reading thousands of facts makes hundreds of thousands of small objects, none of them cyclic: the
    collector's passes over them would cost more than the reading (3× at 1,000 matches)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Follower:
    """A daemon thread that catches the read models up every `interval` seconds (the server's)."""

    def __init__(self, projector: FactsProjector, interval: float = 1.0) -> None:
        self.projector, self.interval = projector, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scorebook-projector", daemon=True)

    def start(self) -> Follower:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.projector.catch_up()
            except Exception:  # noqa: BLE001 - a read model must never take the server down; the next tick retries
                import logging

                logging.getLogger("scorebook.projector").exception("catching up the read models failed")
