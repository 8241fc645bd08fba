"""Read models kept from the log: each match's statistics facts, in the `match_facts` table.

A projector follows the log by global position with a stored checkpoint, rather than updating the read
model inside every append: a match's facts are a walk over its whole fold (turns, tags, first player), so
keeping them in the append's transaction would make every append cost the length of its match. Instead:

- `catch_up` reads the positions after the checkpoint (committed events only: a position is visible
  once its transaction has committed, and positions are taken in commit order), recomputes the facts of
  every match they touch from the store's fold, and writes the rows and the new checkpoint in one
  transaction. A crash before that commit leaves the old checkpoint: the next run does the work again,
  and writing a match's facts twice is harmless. Two servers may run it at once: the checkpoint row is
  locked for the transaction (FOR UPDATE on PostgreSQL; SQLite's writers are one at a time), which is the
  store's writer's transaction (recorder/sql/append.py): on SQLite it takes its turn with the appends.
- The server runs it in a background thread (`follow`), and every read of the facts catches up first,
  so the statistics page never shows less than what was committed before it asked.
- A catch-up of many matches (the first after an upgrade, a restore) reads their rows in chunks and folds
  them once each (`recorder.readmodels.rows`); a few are folded through the store, whose cache holds the
  matches being played.
- `scorebook rebuild` recomputes every match without waiting for the log to move (recorder/readmodels/rebuild.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import JSON, Select, Text, column, delete, func, insert, select, true
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from projections.stats import FACTS_VERSION, MatchFacts, MatchSummary
from recorder.errors import ChainBroken
from recorder.readmodels.rows import (
    FACTS_TABLE,
    MatchToProject,
    Plan,
    Projected,
    compute,
    facts_row,
    matches_to_project,
    no_gc,
    write,
)
from recorder.sql.rows import EVENTS, log_head
from recorder.sql.tables import ProjectionCheckpoint, utcnow
from recorder.store.matches import EventStore

FACTS = "match_facts"
PROJECTIONS = (FACTS,)
CHECKPOINTS = ProjectionCheckpoint.__table__  # type: ignore[attr-defined]
FACTS_ONLY = Plan(facts=True, snapshot_key=None, every=0)
MANY = 16  # matches: more than this to catch up are read from their rows, not folded one by one
CHUNK = 200  # matches per query when reading them from their rows
KEEP_DECODED = 200_000  # decoded facts rows a process keeps (about 3 KiB each)

Progress = Callable[[int, int], None]  # (events done, events in all)


class FactsProjector:
    """Keeps `match_facts` current from the log (see the module docstring)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._lock = threading.Lock()  # one catch-up at a time in this process
        self._decoded: dict[str, tuple[int, MatchFacts]] = {}  # match id -> (seq, its facts as read)
        self._summaries: dict[str, tuple[int, MatchSummary]] = {}  # match id -> (seq, its summary as read)

    # -- following ---------------------------------------------------------------------------------

    def checkpoint(self) -> int:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(CHECKPOINTS.c.position).where(CHECKPOINTS.c.name == FACTS)).first()
            return int(row.position) if row is not None else 0

    def head(self) -> int:
        with self.store.engine.connect() as conn:
            return log_head(conn)

    def decoded(self) -> int:
        """How many facts rows this process holds decoded."""
        return len(self._decoded)

    def catch_up(self, limit: int | None = None) -> int:
        """Bring the facts up to the log's head (at most `limit` positions); returns the new checkpoint."""
        current = self.checkpoint()
        if current >= self.head():  # read first: a read of the facts takes no write lock when nothing is new
            return current
        with self._lock, self.store.writer.transaction() as conn:
            position = lock_checkpoint(conn)
            head = log_head(conn)
            upto = head if limit is None else min(head, position + limit)
            if upto <= position:
                return position
            changed = [r[0] for r in conn.execute(
                select(EVENTS.c.match_id).where(EVENTS.c.position > position, EVENTS.c.position <= upto).distinct())]
            self._project(conn, changed)
            conn.execute(CHECKPOINTS.update().where(CHECKPOINTS.c.name == FACTS)
                         .values(position=upto, updated_at=utcnow()))
            return upto

    def _project(self, conn: Connection, match_ids: Sequence[str]) -> None:
        """Recompute the facts of `match_ids` in the caller's transaction: a few through the store's fold
        (cached for a match being played), many from their rows, a chunk per query."""
        if len(match_ids) > MANY:
            for i in range(0, len(match_ids), CHUNK):
                write(conn, compute(conn, FACTS_ONLY, matches_to_project(conn, match_ids[i:i + CHUNK])), FACTS_ONLY)
            return
        write(conn, [self._projected(m) for m in matches_to_project(conn, match_ids)], FACTS_ONLY)

    def _projected(self, match: MatchToProject) -> Projected:
        try:
            fold = self.store.whole_fold(match.match_id)
        except ChainBroken:  # broken at seq 1: nothing to count, its row goes
            return Projected(match.match_id, 0, match.last_seq)
        return Projected(match.match_id, fold.seq, max(match.last_seq, fold.seq),
                         facts=facts_row(match, fold))

    def reset(self) -> None:
        """Forget the read model: the next catch-up reads the whole log again."""
        with self._lock, self.store.writer.transaction() as conn:
            conn.execute(delete(FACTS_TABLE))
            lock_checkpoint(conn)
            conn.execute(CHECKPOINTS.update().where(CHECKPOINTS.c.name == FACTS)
                         .values(position=0, updated_at=utcnow()))

    # -- reading -----------------------------------------------------------------------------------

    def facts(self, game: str | None = None, catch_up: bool = True) -> list[MatchFacts]:
        """Every match's facts (of one game), caught up with the log first; a row of an older facts format
        is recomputed rather than misread. Rows are decoded once per process and kept while their seq stays
        the same (decoding is most of the cost of a statistics request: 10,000 rows take about half a second)."""
        if catch_up:
            self.catch_up()
        table = FACTS_TABLE
        q = select(table.c.match_id, table.c.seq, table.c.version)
        if game:
            q = q.where(table.c.game == game)
        with self.store.engine.connect() as conn:
            keys = conn.execute(q.order_by(table.c.date, table.c.match_id)).all()
            kept = self._decoded
            missing = [k.match_id for k in keys if (hit := kept.get(k.match_id)) is None or hit[0] != k.seq]
            stale = self._decode(conn, missing, game, len(missing) > len(keys) // 2)
        if stale:
            with self._lock, self.store.writer.transaction() as conn:
                self._project(conn, stale)
            return self.facts(game, catch_up=False)
        out = [hit[1] for k in keys if (hit := kept.get(k.match_id)) is not None and hit[0] == k.seq]
        if len(kept) > KEEP_DECODED:  # a federation's history: decode per request rather than hold it all
            kept.clear()
        return out

    def summaries(self, full: str | None = None, catch_up: bool = True) -> list[MatchSummary]:
        """Every match's summary (`MatchSummary`: enough for the statistics' filters, for counting copies once
        and for every game's first-player win rate), in the order `facts` gives them; the matches of the game
        `full` as their whole facts. A summary is a row's columns and four fields of its JSON, picked out by the
        database: a page that charts one game decodes only that game's turns and tags (decoding every row was
        most of a first statistics load). Both are kept per process while a row's seq stays the same."""
        if catch_up:
            self.catch_up()
        table = FACTS_TABLE
        q = select(table.c.match_id, table.c.seq, table.c.game).order_by(table.c.date, table.c.match_id)
        whole, brief = self._decoded, self._summaries
        with self.store.engine.connect() as conn:
            keys = conn.execute(q).all()
            of_game, missing_whole, missing_brief = 0, [], []
            for match_id, seq, game in keys:
                of_game += game == full
                if (decoded := whole.get(match_id)) is not None and decoded[0] == seq:
                    continue
                if game == full:
                    missing_whole.append(match_id)
                elif (summarized := brief.get(match_id)) is None or summarized[0] != seq:
                    missing_brief.append(match_id)
            stale = self._decode(conn, missing_whole, full, len(missing_whole) > of_game // 2)
            stale += self._summarize(conn, missing_brief, full, len(missing_brief) > (len(keys) - of_game) // 2)
        if stale:
            with self._lock, self.store.writer.transaction() as conn:
                self._project(conn, stale)
            return self.summaries(full, catch_up=False)
        out: list[MatchSummary] = []
        for match_id, seq, game in keys:
            read: tuple[int, MatchSummary] | None = whole.get(match_id)
            if (read is None or read[0] != seq) and game != full:
                read = brief.get(match_id)
            if read is not None and read[0] == seq:
                out.append(read[1])
        for kept in (whole, brief):
            if len(kept) > KEEP_DECODED:  # a federation's history: decode per request rather than hold it all
                kept.clear()
        return out

    def _summarize(self, conn: Connection, match_ids: list[str], leave_out: str | None, every_row: bool) -> list[str]:
        """Read the summaries of `match_ids` into the kept ones (every row but the game `leave_out`'s in one query
        when most are wanted); returns the ids whose rows are of an older format or unreadable."""
        if not match_ids:
            return []
        table = FACTS_TABLE
        q = _packed_summaries(conn.dialect.name)
        chunks = _chunks(q, match_ids, every_row, table.c.game != leave_out if leave_out else None)
        wanted = set(match_ids)
        stale = []
        try:
            with no_gc():
                for chunk in chunks:
                    packed = conn.execute(chunk).scalar()
                    if not isinstance(packed, list):  # no row (SQL's NULL), or text that did not parse
                        continue
                    for (match_id, seq, version, game, date, finished, players, winners, first_player,
                         fingerprint) in packed:
                        if match_id not in wanted:
                            continue
                        try:
                            if version != FACTS_VERSION or not isinstance(fingerprint, str):
                                raise ValueError("an older format")
                            self._summaries[match_id] = (seq, MatchSummary(
                                match_id=match_id, game=game, date=date,
                                players=tuple((pid, name) for pid, name in players), finished=bool(finished),
                                winners=tuple(winners), first_player=first_player, fingerprint=fingerprint))
                        except (ValueError, KeyError, TypeError):
                            stale.append(match_id)
        except DBAPIError:  # a row the database cannot read as JSON (text written by hand): decode them whole
            conn.rollback()
            return self._decode(conn, match_ids, None, every_row)
        return stale

    def _decode(self, conn: Connection, match_ids: list[str], game: str | None, every_row: bool) -> list[str]:
        """Read and decode the facts of `match_ids` into the kept rows (all rows of the game in one query
        when most are wanted); returns the ids whose rows are of an older format or unreadable."""
        if not match_ids:
            return []
        table = FACTS_TABLE
        q = select(table.c.match_id, table.c.seq, table.c.version, table.c.facts)
        wanted = set(match_ids)
        chunks = _chunks(q, match_ids, every_row, table.c.game == game if game else None)
        stale = []
        with no_gc():
            for chunk in chunks:
                for row in conn.execute(chunk):
                    if row.match_id not in wanted:
                        continue
                    try:
                        if row.version != FACTS_VERSION:
                            raise ValueError("an older format")
                        self._decoded[row.match_id] = (row.seq, MatchFacts.from_json(row.facts))
                    except (ValueError, KeyError, TypeError):
                        stale.append(row.match_id)
        return stale


def _chunks(q: Any, match_ids: list[str], every_row: bool, whole: Any) -> list[Any]:
    """`q` for the rows of `match_ids`: one query over the table (narrowed by `whole`, if given) when most rows
    are wanted, else the ids in slices of 500."""
    if every_row:
        return [q.where(whole) if whole is not None else q]
    return [q.where(FACTS_TABLE.c.match_id.in_(match_ids[i:i + 500])) for i in range(0, len(match_ids), 500)]


def _packed_summaries(dialect: str) -> Select[tuple[Any]]:
    """The summaries of the rows selected, packed by the database into one JSON array of arrays (match id, seq,
    version, game, date, finished, players, winners, first player, fingerprint): one parse in this process for
    them all, rather than a few values to convert per row. PostgreSQL parses each row's JSON once into a record
    (`->` four times parsed it four times: 0.7 s of the server's time for 10,000 rows)."""
    table, facts = FACTS_TABLE, FACTS_TABLE.c.facts
    columns = (table.c.match_id, table.c.seq, table.c.version, table.c.game, table.c.date, table.c.finished)
    if dialect == "postgresql":
        record = func.json_to_record(facts).table_valued(
            column("players", JSON), column("winners", JSON), column("first_player", Text), column("fingerprint", Text)
        ).render_derived(name="summary", with_types=True)
        row = func.json_build_array(*columns, record.c.players, record.c.winners, record.c.first_player,
                                    record.c.fingerprint)
        return select(func.json_agg(row, type_=facts.type)).select_from(table.join(record, true()))
    fields = [func.json_extract(facts, f"$.{key}") for key in ("players", "winners", "first_player", "fingerprint")]
    return select(func.json_group_array(func.json_array(*columns, *fields), type_=facts.type))


def lock_checkpoint(conn: Connection) -> int:
    """The facts checkpoint's position, its row locked for the transaction (made when missing)."""
    row = conn.execute(select(CHECKPOINTS.c.position).where(CHECKPOINTS.c.name == FACTS).with_for_update()).first()
    if row is None:
        conn.execute(insert(CHECKPOINTS).values(name=FACTS, position=0, updated_at=utcnow()))
        return 0
    return int(row.position)



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
        warm = True  # the first tick also decodes every facts row, so that the first statistics visitor
        # after a start does not wait for it (about half a second of CPU per 10,000 matches)
        while not self._stop.wait(self.interval):
            try:
                self.projector.catch_up()
                if warm:
                    self.projector.facts(catch_up=False)
                    warm = False
            except Exception:  # noqa: BLE001 - a read model must never take the server down; the next tick retries
                import logging

                logging.getLogger("scorebook.projector").exception("catching up the read models failed")
