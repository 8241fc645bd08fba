"""The append-only, hash-chained event store of matches: their appends, imports, backups, folds and the fold cache.

One transaction per append (what every stream store shares, and how the head is locked: recorder/store/chained.py,
recorder/sql/append.py): lock the match's head, check idempotency and `expected_seq`, apply every new event
to the cached fold of the match (nothing is written unless all of them are legal), chain the hashes,
insert, commit, and only then publish the new fold to the cache. When the writer's cached fold is at
`expected_seq` and the events are legal in it, the append goes in one trip with no read before its writes
(`Appender.one_trip`); the database's answer that the match is elsewhere sends it the careful way.

Reading and writing match files, the hash chain and checking an import are in `recorder.log.file`
(pure, no database).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, insert, tuple_
from sqlalchemy import select as core_select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from projections.errors import IllegalEvent
from projections.events import Event
from projections.registry import with_rules_version
from projections.schemas import unknown_field_problem
from projections.scores import scores_json
from projections.timeline import Fold
from recorder.errors import BadRequest, ChainBroken, Conflict, ImportRefused, MatchNotFound, NotFound, Refused
from recorder.log.backup import Backup, BackupMatch
from recorder.log.file import (
    GENESIS,
    ChainCheck,
    ImportLine,
    NewEvent,
    PreparedImport,
    canonical_json,
    chain_new,
    chained,
    export_line,
    format_time,
    link_problem,
    parse_time,
    prepare_import,
    stamped,
)
from recorder.log.inputs import check_event, check_recorded_by, is_match_id
from recorder.log.readable import dumps_strictly, readable_meta, readable_players, readable_winners
from recorder.sql.append import MATCH_CHAIN, Appender, Head
from recorder.sql.engine import driver_rows
from recorder.sql.rows import EVENTS, EventRow, match_rows
from recorder.sql.tables import (
    FIRST_EVENT,
    ApiToken,
    ImportRecord,
    Match,
    MatchListVersion,
    MatchPlayer,
    MatchSnapshot,
    StoredEvent,
    served_envelope,
    utcnow,
)
from recorder.store.bag import Dealers, committed, retry_check, store_seed, verified, without_commitment
from recorder.store.bag import start as bag_start
from recorder.store.chained import MAX_BATCH as MAX_BATCH
from recorder.store.chained import ChainedStore, equal_data, refusal, ruled
from recorder.store.chained import verified as verified_rows
from recorder.store.fold_cache import FoldCache, configured_bytes, held_bytes
from recorder.store.snapshots import SNAPSHOT_EVERY, Snapshots, load_key, snapshot_key

# The matches whose first event has the hash `hash` (served by the partial index ix_events_first_hash).
FIRST_HASH_LOOKUP = core_select(EVENTS.c.match_id).where(EVENTS.c.hash == bindparam("hash"), FIRST_EVENT)
MATCHES = Match.__table__  # type: ignore[attr-defined]
MATCH_PLAYERS = MatchPlayer.__table__  # type: ignore[attr-defined]
SNAPSHOTS_TABLE = MatchSnapshot.__table__  # type: ignore[attr-defined]
LIST_VERSION = MatchListVersion.__table__  # type: ignore[attr-defined]
IMPORTS = ImportRecord.__table__  # type: ignore[attr-defined]
# Built once: SQLAlchemy keeps a statement's compiled form by its cache key, which a statement built anew on each
# call works out again (with the expression itself): on an import, more than running the statements.
INSERT_MATCH, INSERT_SEATS, INSERT_IMPORT, INSERT_SNAPSHOTS = (
    insert(MATCHES), insert(MATCH_PLAYERS), insert(IMPORTS), insert(SNAPSHOTS_TABLE))
BUMP_LIST_VERSION = LIST_VERSION.update().where(LIST_VERSION.c.id == 1).values(version=LIST_VERSION.c.version + 1)
DIGEST_LOOKUP = core_select(IMPORTS.c.match_id).where(IMPORTS.c.digest == bindparam("digest")).limit(1)
_LAST_SEQ = f"SELECT last_seq FROM {MATCHES.name} WHERE id = ?"  # `driver_rows`' marks


class StoredFold(NamedTuple):
    """A match's stored rows folded as far as they verify (each row chained to the one before, its hash
    over its content, legal in the game): the fold (None when seq 1 itself fails), the hash of its last
    event, the last seq that was read, and `broken` — where and why the rows stop verifying — or None.
    (A named tuple: built in C, once an append.)"""

    fold: Fold[Any] | None
    head: str
    upto: int
    broken: ChainCheck | None = None


@dataclass(frozen=True)
class ImportSource:
    """Where an import comes from: who brought it (`imported_by`, also `recorded_by` of lines that carry
    none), the file's name, and the digest of its lines as read, which recognises the same file again."""

    imported_by: str
    file_name: str | None
    digest: str

    @staticmethod
    def of(lines: Sequence[ImportLine], imported_by: str, file_name: str | None = None,
           texts: Sequence[str] | None = None) -> ImportSource:
        """`texts`: the lines' data as `prepare_import` encoded it, which spares encoding it again when every
        line is the plain `{"type", "data"}` (the digest is the same bytes either way)."""
        name = file_name[-255:] if file_name else None
        return ImportSource(imported_by, name, hashlib.sha256(_lines_json(lines, texts)).hexdigest())


_JSON_TEXT = json.JSONEncoder(ensure_ascii=False).encode  # a string as canonical JSON writes it


def _lines_json(lines: Sequence[ImportLine], texts: Sequence[str] | None) -> bytes:
    """`canonical_json` of the lines' objects: put together from their data's canonical texts when they are all
    `{"type": str, "data": ...}` (keys sorted: data, then type), else encoded whole."""
    if texts is None or len(texts) != len(lines) or not all(
            len(item.obj) == 2 and "data" in item.obj and type(item.obj.get("type")) is str for item in lines):
        return canonical_json([item.obj for item in lines])
    enc = _JSON_TEXT
    body = ",".join(f'{{"data":{text},"type":{enc(item.obj["type"])}}}'
                    for item, text in zip(lines, texts, strict=True))
    return f"[{body}]".encode()


class EventStore(ChainedStore):
    """The matches (see the module)."""

    noun = "match"
    chain = MATCH_CHAIN

    def __init__(
        self,
        engine: Engine,
        cache_size: int | None = None,
        *,
        cache_bytes: int | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        snapshot_secret: str | None = None,
        writer: Appender | None = None,
    ) -> None:
        """The fold cache holds at most `cache_bytes` (default $SCOREBOOK_CACHE_MB MiB, else 256 MiB), estimated
        (recorder/store/fold_cache.py), and, if given, `cache_size` matches. A snapshot of each match's state is
        stored every `snapshot_every` events (0: none), keyed by `snapshot_secret` (default: the server's secret).
        `writer`: the database's append path, when another store has one (default: one of its own)."""
        super().__init__(engine, writer)
        self._cache: FoldCache[StoredFold] = FoldCache(configured_bytes(cache_bytes), cache_size or 1 << 30)
        self._snapshot_every = snapshot_every
        self._snapshot_secret = snapshot_secret
        self._snapshots_made: Snapshots | None = None
        self._distrusted: set[str] = set()  # matches whose rows before a snapshot were found not to verify
        self._counts: dict[tuple[str | None, ...], tuple[int | None, int]] = {}  # filters -> (log head, count)
        self._counts_lock = threading.Lock()
        self._dealers = Dealers()  # committed bags (recorder/store/bag.py)

    # -- writing ---------------------------------------------------------------------------------

    def create_match(self, data: Any, recorded_by: str, event_id: str | None = None) -> dict[str, Any]:
        """Start a match from `match_started` data; returns the new match id and the stored envelope.

        `event_id` (or a string `event_id` inside `data`, taken out of it) makes a retry safe. A field
        match_started does not have is a BadRequest naming it, as in `append`.
        """
        if not isinstance(data, dict):
            raise BadRequest("the body must be the match_started data: a JSON object")
        if isinstance(data.get("event_id"), str):
            event_id = event_id if event_id is not None else data["event_id"]
            data = {k: v for k, v in data.items() if k != "event_id"}
        check_event("match_started", data, event_id)
        check_recorded_by(recorded_by)
        data = with_rules_version(data)  # a new match plays the current rules unless it names a version
        earlier = self._created_before(data, event_id)
        if earlier is not None:
            return earlier
        problem = unknown_field_problem(None, "match_started", data)
        if problem is not None:
            raise BadRequest(problem, seq=1, type="match_started")
        data, seed = bag_start(data)  # bag "committed": the seed drawn, its commitment recorded (recorder/store/bag.py)
        try:
            fold = Fold.begin(Event(1, "match_started", data))
        except IllegalEvent as e:
            raise refusal(e, 1, "match_started") from e
        prepared = PreparedImport(fold, chain_new([NewEvent("match_started", data)], 1, GENESIS, recorded_by))
        try:
            created = self._store_new(prepared, [event_id], seed)
        except IntegrityError:  # a concurrent retry stored the same event_id first
            earlier = self._created_before(data, event_id)
            if earlier is None:
                raise
            return earlier
        return {**created, "event": prepared.envelopes[0], "replayed": False}

    def _created_before(self, data: dict[str, Any], event_id: str | None) -> dict[str, Any] | None:
        if event_id is None:
            return None
        with Session(self.engine) as s:
            stored = s.exec(select(StoredEvent).where(StoredEvent.event_id == event_id)).first()
            if stored is None:
                return None
            if stored.type != "match_started" or without_commitment(stored.data) != without_commitment(data):
                raise Conflict(f"event_id {event_id!r} was already used for another event")
            return {"match_id": stored.match_id, "seq": stored.seq, "event": stored.envelope(), "replayed": True}

    def _append(
        self, match_id: str, events: Sequence[NewEvent], expected_seq: int, recorded_by: str
    ) -> list[dict[str, Any]]:
        """`ChainedStore.append` of a match. Each event's data is checked against its game's schema first: a field
        the event does not have (a misspelling) is a BadRequest naming it. Then the game's rules: an illegal event
        is Refused. (Imports are not checked for unknown fields: an old log may carry fields since dropped.)"""
        quick = self._appended_in_one_trip(match_id, events, expected_seq, recorded_by)
        if quick is None and self._warmed(match_id, expected_seq):
            quick = self._appended_in_one_trip(match_id, events, expected_seq, recorded_by)
        if quick is not None:
            return quick
        # A Core connection and the driver's cursor (recorder.sql.append): no ORM session on the hot path.
        with self._sql.transaction() as conn:
            cur = self._sql.cursor(conn)
            match = self._locked_head(conn, cur, match_id, events, expected_seq)
            stored = self._cache.get(match_id)
            if stored is None or stored.upto != match.last_seq:  # not cached (first append after a start)
                stored = self._fold_in(conn, match_id, match.last_seq)
            if stored.broken is not None or stored.fold is None:
                raise self._broken(match_id, stored.broken, stored.upto, "nothing can be appended to it")
            fold = stored.fold
            dealing = self._dealers.open(conn, match_id, fold) if committed(fold) else None  # the server deals
            if dealing is not None:
                dealing.check(events)
                events = list(events)
            for i, e in enumerate(events):
                seq = match.last_seq + i + 1
                if dealing is None:
                    fold = _applied(fold, seq, e)
                    continue
                _check_fields(fold, seq, e)  # as sent, before the dealer adds the tiles it deals
                e = events[i] = dealing.deal(fold, seq, e)  # type: ignore[index]
                fold = ruled(Fold.apply, fold, seq, e)
            if dealing is not None:
                events, fold = dealing.reveal(fold, list(events))
            envelopes, texts = chained(events, match.last_seq + 1, stored.head, recorded_by)
            self._insert(conn, match, fold, envelopes, [e.event_id for e in events], cur, last=True, texts=texts)
        self._publish(match_id, StoredFold(fold, envelopes[-1]["hash"], fold.seq))
        return envelopes

    def _warmed(self, match_id: str, expected_seq: int) -> bool:
        """Whether the match's fold was not cached at `expected_seq` and now is, read on a reader connection: the
        first append after a start (or after another process appended) then goes in one trip too, and its refold
        from the latest snapshot never holds the write lock. False when it was cached already or cannot be had
        (no such match, a broken log): the careful way words that, from the match as stored."""
        stored = self._cache.get(match_id)
        if stored is not None and stored.upto == expected_seq:
            return False
        try:
            stored = self.stored_fold(match_id)  # MatchNotFound for an id that is none, without asking the database
        except (MatchNotFound, ChainBroken):
            return False
        return stored.upto == expected_seq and stored.fold is not None and stored.broken is None

    def _appended_in_one_trip(
        self, match_id: str, events: Sequence[NewEvent], expected_seq: int, recorded_by: str
    ) -> list[dict[str, Any]] | None:
        """The append with no read before its writes (`Appender.one_trip`: PostgreSQL in one round trip, SQLite on
        the writing turn's kept connection), when the match's fold up to
        `expected_seq` is cached and the events are legal in it, and the append writes nothing but rows, the head
        and the snapshots due (the match goes on, no committed bag). None when it does not apply or the database
        finds the match elsewhere: the careful way (`_append`) then decides, and words every refusal and
        conflict, from the match as stored, so a stale cache never answers for it."""
        if not is_match_id(match_id):
            return None
        stored = self._cache.get(match_id)
        if stored is None or stored.upto != expected_seq or stored.fold is None or stored.broken is not None:
            return None
        fold = stored.fold
        if committed(fold):
            return None
        texts = [dumps_strictly(e.data) for e in events]  # as stored and hashed; the field check remembers by it
        try:
            for i, (e, text) in enumerate(zip(events, texts, strict=True)):
                fold = _applied(fold, expected_seq + 1 + i, e, text)
        except (BadRequest, Refused):
            return None
        if fold.finished or bool(fold.abandoned) != bool(stored.fold.abandoned):  # the match's status changes
            return None
        at, spelled = stamped()  # the rows' time as hashed (to the millisecond), and the match's updated_at
        envelopes, texts = chained(events, expected_seq + 1, stored.head, recorded_by, at, texts, spelled)
        rows = _event_rows(match_id, envelopes, [e.event_id for e in events], texts, at)
        # A snapshot due goes in the same trip: by the careful way, the 1% of appends that take one cost four times
        # an append, 3% of the whole.
        snapshots = self._snapshot_rows(match_id, fold, envelopes)
        if not self._sql.one_trip(rows, match_id, expected_seq, fold.seq, at, snapshots):
            return None
        self._publish(match_id, StoredFold(fold, envelopes[-1]["hash"], fold.seq))
        return envelopes

    def import_log(
        self, lines: Sequence[ImportLine], recorded_by: str, file_name: str | None = None
    ) -> dict[str, Any]:
        """A match file as a new match: {"match_id", "seq", "existing", "added"}. Refused at the first bad
        line, naming it; nothing stored then. The same file again (or an export of a match already stored,
        or one that extends it) answers that match: `existing` True, `added` the events it appended.
        (No unknown-field check here, unlike `append`: see `recorder.log.file.prepare_import`.)"""
        # First: the digest needs lines that passed the checks. The fold keeps only the states stored as snapshots.
        prepared = prepare_import(lines, recorded_by, snapshot_every=self._snapshot_every)
        return self.store_prepared(prepared, ImportSource.of(lines, recorded_by, file_name, prepared.texts))

    def store_prepared(self, prepared: PreparedImport, source: ImportSource) -> dict[str, Any]:
        """Store a checked match file (see `import_log`)."""
        return self.store_many([(prepared, source)])[0]

    def store_many(self, files: Sequence[tuple[PreparedImport, ImportSource]]) -> list[dict[str, Any]]:
        """Store checked match files in one transaction: all of them, or none (an error stores nothing)."""
        results, published = [], []
        with self._writing() as s:
            for prepared, source in files:
                result, fold = self._store_file(s, prepared, source)
                results.append(result)
                if fold is not None:
                    match_id, head = result["match_id"], prepared.envelopes[-1]["hash"]
                    published.append((match_id, StoredFold(self._reaching_back(match_id, fold, head), head, fold.seq)))
            s.commit()
        for match_id, stored in published:
            self._publish(match_id, stored)
        return results

    def _store_file(
        self, s: Session, prepared: PreparedImport, source: ImportSource
    ) -> tuple[dict[str, Any], Fold[Any] | None]:
        # Core statements, not ORM queries: on a 1,000-event import the ORM's two look-ups alone cost about what
        # its ten snapshots cost.
        conn = s.connection()
        earlier = conn.execute(DIGEST_LOOKUP, {"digest": source.digest}).first()
        if earlier is not None:
            match = self._match(s, earlier.match_id)
            return {"match_id": match.id, "seq": match.last_seq, "existing": True, "added": 0}, None
        same = self._same_match(s, prepared.envelopes)
        if same is not None:
            match, have = same
            no_ids = [None] * len(prepared.envelopes)
            added = self._extend(s, match.id, prepared.fold, prepared.envelopes, no_ids, have, prepared.texts,
                                 prepared.fold_at)
            if not added:
                return {"match_id": match.id, "seq": match.last_seq, "existing": True, "added": 0}, None
            conn.execute(INSERT_IMPORT, [_import_row(match.id, source, have + 1, prepared.fold.seq)])
            return {"match_id": match.id, "seq": prepared.fold.seq, "existing": True, "added": added}, prepared.fold
        match_id = self._new_match(s, prepared, [None] * len(prepared.envelopes))
        conn.execute(INSERT_IMPORT, [_import_row(match_id, source, 1, prepared.fold.seq)])
        return {"match_id": match_id, "seq": prepared.fold.seq, "existing": False,
                "added": len(prepared.envelopes)}, prepared.fold

    def _same_match(self, s: Session, envelopes: Sequence[dict[str, Any]]) -> tuple[Match, int] | None:
        """A stored match whose events are these envelopes, or a prefix of them: (it, how many it has).
        A match found by the first event's hash that differs further on is a Conflict, naming the seq."""
        first = envelopes[0]["hash"]
        for (match_id,) in s.connection().execute(FIRST_HASH_LOOKUP, {"hash": first}).all():
            have, differs = self._compared(s, match_id, envelopes)
            if differs is not None:
                raise Conflict(
                    f"match {match_id} starts with the same event as this file but differs from seq {differs}"
                )
            return self._match(s, match_id), have
        return None

    def _compared(self, s: Session, match_id: str, envelopes: Sequence[dict[str, Any]]) -> tuple[int, int | None]:
        """How many events the stored match holds, and the first seq where they and `envelopes` differ (None
        when they agree as far as both go)."""
        hashes = s.exec(
            select(StoredEvent.hash).where(StoredEvent.match_id == match_id).order_by(col(StoredEvent.seq))
        ).all()
        for i, (stored, given) in enumerate(zip(hashes, (e["hash"] for e in envelopes), strict=False)):
            if stored != given:
                return len(hashes), i + 1
        return len(hashes), None

    def _extend(
        self, s: Session, match_id: str, fold: Fold[Any], envelopes: Sequence[dict[str, Any]],
        event_ids: Sequence[str | None], have: int, texts: Sequence[str] | None = None,
        fold_at: Callable[[int], Fold[Any]] | None = None,
    ) -> int:
        """Append the envelopes after the `have` the stored match holds (their hashes kept); how many.
        `fold_at`: the fold at a seq, when `fold` does not hold every state (`PreparedImport.fold_at`)."""
        new = list(envelopes[have:])
        if not new:
            return 0
        conn = s.connection()
        self._insert(conn, self._locked(conn, match_id), fold, new, list(event_ids[have:]),
                     texts=None if texts is None else texts[have:], fold_at=fold_at)
        s.expire_all()  # a Match this session loaded (the import's lookups) must not be read stale
        s.flush()
        return len(new)

    def _store_new(
        self, prepared: PreparedImport, event_ids: list[str | None], seed: str | None = None
    ) -> dict[str, Any]:
        with self._writing() as s:
            match_id = self._new_match(s, prepared, event_ids)
            if seed is not None:  # a committed bag's seed, in the match's transaction
                store_seed(s.connection(), match_id, seed)
            s.commit()
        fold = prepared.fold
        self._publish(match_id, StoredFold(fold, prepared.envelopes[-1]["hash"], fold.seq))
        return {"match_id": match_id, "seq": fold.seq}

    def _new_match(
        self,
        s: Session,
        prepared: PreparedImport,
        event_ids: Sequence[str | None],
        match_id: str | None = None,
        created_at: datetime | None = None,
    ) -> str:
        match_id = match_id or uuid.uuid4().hex
        start = prepared.envelopes[0]["data"]
        created = created_at or utcnow()
        conn = s.connection()
        conn.execute(INSERT_MATCH, [_new_match_row(match_id, start, created)])
        conn.execute(INSERT_SEATS, _seat_rows(match_id, start, created))
        _bump_list_version(conn)
        self._insert(conn, Head(match_id, 0, "in_progress"), prepared.fold, prepared.envelopes, list(event_ids),
                     texts=prepared.texts, fold_at=prepared.fold_at)
        s.expire_all()
        return match_id

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        """An ORM session in the writer's transaction (`writer.transaction()`: on SQLite this process's turn), for a
        match's start, an import and a restore: committed when the block ends without an exception (the session's
        own `commit` only flushes), rolled back when it raises."""
        with self._sql.transaction() as conn, Session(bind=conn) as s:
            yield s

    def _same_data(self, conn: Connection, owner: str) -> Callable[[str, Any, Any], bool]:
        return retry_check(conn, owner) or equal_data  # a committed bag's draws are stored with the dealt tiles

    def _locked(self, conn: Connection, match_id: str) -> Head:
        """The match's head, its row locked for the transaction (on SQLite the log's head with it)."""
        if not is_match_id(match_id):  # never a match: not worth asking the database, which may refuse it
            raise MatchNotFound(f"no match {match_id!r}")
        head, _ = self._sql.head(self._sql.cursor(conn), MATCH_CHAIN, match_id)
        if head is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return head

    def _insert(
        self, conn: Connection, head: Head, fold: Fold, envelopes: list[dict[str, Any]],
        event_ids: list[str | None], cur: Any = None, last: bool = False, texts: Sequence[str] | None = None,
        fold_at: Callable[[int], Fold[Any]] | None = None,
    ) -> None:
        """Insert the envelopes' rows and the snapshots due among them, and move the match's head, in the
        caller's transaction (the rows and the head on the driver's cursor: recorder.sql.append); `last`: the
        caller writes nothing more in it, so the commit may go with the rows (PostgreSQL: one round trip).
        A session that read a Match before must expire it afterwards. `texts`: the envelopes' data as the store
        writes it (recorder.log.file.chained), stored as it is. `fold_at`: as in `_extend`."""
        sql = self._sql
        cur = cur if cur is not None else sql.cursor(conn)
        rows = _event_rows(head.id, envelopes, event_ids, texts)
        # The whole score sheet only once the match is over (its winners): building it costs more, on a long
        # Hats Off match, than the rest of an append's own work.
        finished = fold.finished
        winners = list(fold.game.scores(fold.state).winners) if finished else []
        status = "finished" if finished else "abandoned" if fold.abandoned else "in_progress"
        # In this transaction: never ahead of its rows.
        snapshots = self._snapshot_rows(head.id, fold, envelopes, fold_at)
        was = head.detail  # the match's status
        more = bool(snapshots) or status != was
        sql.write(cur, rows, head.position, head.id, fold.seq, status if status != was else None, winners,
                  utcnow(), commit=last and not more, texts=texts is not None)
        if snapshots:
            conn.execute(INSERT_SNAPSHOTS, snapshots)
        if status != was:
            _bump_list_version(conn)

    # -- backup and restore (the file: recorder/log/backup.py) ------------------------------------------

    def backup_matches(self, only: Sequence[str] | None = None) -> Iterator[BackupMatch]:
        """Every match as stored (or those of `only`), oldest first, with its events (and their event_ids) and
        its imports."""
        with Session(self.engine) as s:
            q = select(Match.id, Match.created_at)
            if only is not None:
                q = q.where(col(Match.id).in_(list(only)))
            ids = s.exec(q.order_by(col(Match.created_at), col(Match.id))).all()
        for match_id, created_at in ids:
            with Session(self.engine) as s:
                rows = s.exec(
                    select(StoredEvent).where(StoredEvent.match_id == match_id).order_by(col(StoredEvent.seq))
                ).all()
                imports = s.exec(
                    select(ImportRecord).where(ImportRecord.match_id == match_id).order_by(col(ImportRecord.id))
                ).all()
            yield BackupMatch(
                match_id,
                format_time(created_at),
                [r.envelope() for r in rows],
                [r.event_id for r in rows],
                [{**i.as_json(), "digest": i.digest} for i in imports],
            )

    def restore(self, backup: Backup) -> dict[str, int]:
        """Store a backup's matches under their own ids with every hash, in one transaction: all or nothing.

        A match not here is stored; one already here that the backup extends gets the rest; one the same
        or longer here is left as it is — so restoring twice stores nothing twice. A match that differs from
        the one stored under its id, an event_id used by another event, or a match whose events do not
        verify or break a rule, refuses the whole restore, naming it. Tokens (by their hash) likewise."""
        counts = {"matches_added": 0, "matches_extended": 0, "matches_unchanged": 0, "events_added": 0,
                  "tokens_added": 0}
        checked = [(m, self._check_backup_match(m)) for m in backup.matches]
        with self._writing() as s:
            for m, prepared in checked:
                added = self._restore_match(s, m, prepared)
                key = "matches_unchanged" if added == 0 else "matches_added" if added == len(m.envelopes) \
                    else "matches_extended"
                counts[key] += 1
                counts["events_added"] += added
                self._restore_imports(s, m)
            counts["tokens_added"] = _restore_tokens(s, backup.tokens)
            try:
                s.commit()
            except IntegrityError as e:
                raise Conflict(f"the backup clashes with this database ({_first_line(e)}): nothing restored") from e
        return counts

    def _check_backup_match(self, m: BackupMatch) -> PreparedImport:
        lines = [ImportLine(n, env) for n, env in enumerate(m.envelopes, start=1)]
        try:
            return prepare_import(lines, "restore")
        except ImportRefused as e:
            raise ImportRefused(f"match {m.id}, event {e.line}: {e.reason}", e.line, e.malformed) from e

    def _restore_match(self, s: Session, m: BackupMatch, prepared: PreparedImport) -> int:
        match = s.get(Match, m.id)
        if match is None:
            self._new_match(s, prepared, m.event_ids, match_id=m.id, created_at=parse_time(m.created_at))
            return len(m.envelopes)
        have, differs = self._compared(s, m.id, m.envelopes)
        if differs is not None:
            raise Conflict(f"match {m.id} is stored here with other events from seq {differs}: nothing restored")
        return self._extend(s, m.id, prepared.fold, m.envelopes, m.event_ids, have)

    def _restore_imports(self, s: Session, m: BackupMatch) -> None:
        stored = {(r.digest, r.first_seq) for r in s.exec(select(ImportRecord).where(ImportRecord.match_id == m.id))}
        for r in m.imports:
            if (r["digest"], r["first_seq"]) in stored:
                continue
            s.add(ImportRecord(match_id=m.id, imported_by=r["imported_by"], imported_at=parse_time(r["imported_at"]),
                               file_name=r["file_name"], digest=r["digest"], first_seq=r["first_seq"],
                               last_seq=r["last_seq"]))

    @property
    def snapshot_every(self) -> int:
        return self._snapshot_every

    @property
    def snapshot_secret(self) -> str | None:
        return self._snapshot_secret

    # -- the fold cache ----------------------------------------------------------------------------

    @property
    def cache(self) -> FoldCache[StoredFold]:
        return self._cache

    def _publish(self, match_id: str, stored: StoredFold) -> None:
        self._cache.publish(match_id, stored)

    def _fold_in(self, conn: Connection, match_id: str, last_seq: int) -> StoredFold:
        """The match's rows up to `last_seq`, folded: the cached fold, extended by the rows it has not seen;
        when none is cached, from the latest good snapshot (`_resumed`), else from the start.
        Rows read from the database are verified as they are folded (see `verified_fold`)."""
        hit = self._cached_fold(match_id, last_seq)
        if hit is not None:
            return hit
        cached = self._cache.get(match_id)
        if cached is None or cached.broken is not None or cached.upto > last_seq:
            # A known break is not skipped over by a snapshot taken before the row was edited.
            upto = last_seq if cached is None or cached.broken is None else min(
                last_seq, (cached.broken.first_bad_seq or 1) - 1)
            resumed = self._resumed_reading(conn, match_id, upto, last_seq)
            if resumed is not None:  # the rows after the snapshot came with it
                stored = verified_fold(resumed[0], resumed[1], last_seq)
                self._publish(match_id, stored)
                return stored
            cached = StoredFold(None, GENESIS, 0)
        stored = self._extended(conn, match_id, cached, last_seq)
        self._publish(match_id, stored)
        return stored

    def _cached_fold(self, match_id: str, last_seq: int) -> StoredFold | None:
        """The match's fold up to `last_seq` from the cache, without reading a row; None when not cached."""
        cached = self._cache.get(match_id)
        if cached is not None and cached.upto == last_seq:
            return cached
        if cached is not None and cached.upto > last_seq and cached.broken is None and cached.fold is not None:
            # A reader that saw the match before an append that has since been published.
            return StoredFold(cached.fold.at(last_seq), "", last_seq)
        return None

    def _extended(self, conn: Connection, match_id: str, start: StoredFold, last_seq: int) -> StoredFold:
        return verified_fold(start, match_rows(conn, match_id, start.upto, last_seq), last_seq)

    # -- snapshots (recorder/store/snapshots.py) -----------------------------------------------------------

    @property
    def _snapshots(self) -> Snapshots | None:
        """The snapshot writer and reader, made on first use (it needs the server's secret); None when
        snapshots are off, or the secret cannot be had (then matches are folded from their logs)."""
        if self._snapshots_made is None and self._snapshot_every > 0:
            try:
                secret = self._snapshot_secret
                key = snapshot_key(secret) if secret is not None else load_key(self.engine)
            except (OSError, ValueError) as e:
                logging.getLogger(__name__).warning("snapshots are off: no secret to sign them (%s)", e)
                self._snapshot_every = 0
                return None
            self._snapshots_made = Snapshots(key, self._snapshot_every)
        return self._snapshots_made

    def _snapshot_rows(self, match_id: str, fold: Fold[Any], envelopes: Sequence[dict[str, Any]],
                       fold_at: Callable[[int], Fold[Any]] | None = None) -> list[Any]:
        """The snapshots due among new rows `envelopes` (folded into `fold`): at each multiple of N."""
        if not self._snapshot_due(env["seq"] for env in envelopes) or self._snapshots is None:
            return []
        return self._snapshots.rows_for(match_id, fold, envelopes, fold_at)

    def _reaching_back(self, match_id: str, fold: Fold[Any], head: str) -> Fold[Any]:
        """`fold` (just stored, ending in the hash `head`) as the cache keeps it: when it holds only its last state
        (an import's, `Fold.run`), resumed there with the store's loader of the seqs before, as from a snapshot."""
        if fold.holds(1):
            return fold
        return Fold.resume(fold.event(1), fold.event(fold.seq), fold.state, fold.superseded_by,
                           earlier=partial(self._earlier, match_id, fold.seq, head), abandons=fold.abandons)

    def _snapshot_due(self, seqs: Iterable[int]) -> bool:
        """Whether a snapshot is due at any of `seqs` (a multiple of N)."""
        every = self._snapshot_every
        return every > 0 and any(seq % every == 0 for seq in seqs)

    def _resumed(self, conn: Connection, match_id: str, upto: int) -> StoredFold | None:
        """The fold resumed from the match's latest good snapshot at a seq <= `upto`, or None. A snapshot is
        used only if its MAC and version check and the stored event at its seq still has its hash."""
        resumed = self._resumed_reading(conn, match_id, upto, None)
        return resumed[0] if resumed is not None else None

    def _resumed_reading(
        self, conn: Connection, match_id: str, upto: int, through: int | None
    ) -> tuple[StoredFold, list[EventRow]] | None:
        """`_resumed`, and with it the rows after the snapshot's seq up to `through` (None: none), read in the
        same query as the snapshot's own row: the first append or read after a start needs both."""
        if upto < self._snapshot_every or self._snapshot_every <= 0 or match_id in self._distrusted:
            return None
        snapshots = self._snapshots
        if snapshots is None:
            return None
        for snap in snapshots.candidates(conn, match_id, upto):
            rows = match_rows(conn, match_id, snap.seq - 1, snap.seq if through is None else max(through, snap.seq))
            try:
                env = served_envelope(rows[0]) if rows and rows[0].seq == snap.seq else None
                if env is None or env["hash"] != snap.hash or link_problem(env, snap.seq, env["prev_hash"]):
                    continue
                event = Event(snap.seq, env["type"], env["data"])
                fold = Fold.resume(snap.start, event, snap.state, snap.superseded_by,
                                   earlier=partial(self._earlier, match_id, snap.seq, snap.hash),
                                   abandons=snap.abandons)
            except Exception:  # a snapshot is an optimisation: whatever is wrong with it, fold from the log
                continue
            return StoredFold(fold, snap.hash, snap.seq), rows[1:]
        return None

    def _earlier(self, match_id: str, seq: int, hash: str) -> Fold[Any]:
        """The fold of seqs 1..`seq` behind a fold resumed from the snapshot at `seq`, verified: it must end in
        the snapshot's hash. If it does not, the match's snapshots are no longer used by this store (its next
        read folds the whole log and finds the break, as for a match without snapshots) and this raises."""
        with self.engine.connect() as conn:
            stored = self._extended(conn, match_id, StoredFold(None, GENESIS, 0), seq)
        if stored.fold is None or stored.broken is not None or stored.head != hash:
            self._distrusted.add(match_id)
            self._cache.drop(match_id)
            if stored.broken is not None:
                raise self._broken(match_id, stored.broken, stored.upto,
                                   f"the states before seq {seq} cannot be replayed")
            raise ChainBroken(
                f"the stored events of match {match_id} up to seq {seq} no longer end in the hash they had when "
                f"its snapshot was taken; `scorebook verify {match_id}` shows it", seq)
        fold = stored.fold
        self._cache.grow(match_id, held_bytes(fold))
        return fold

    # -- reading -----------------------------------------------------------------------------------

    def stored_fold(self, match_id: str) -> StoredFold:
        """The match's fold as far as its stored rows verify, and where they stop verifying, if they do."""
        if not is_match_id(match_id):  # never a match: not worth asking the database, which may refuse it
            raise MatchNotFound(f"no match {match_id!r}")
        with self.engine.connect() as conn:
            # On the driver: an ORM session and its `get` cost as much as the fold from a snapshot they led to.
            found = driver_rows(conn.connection.dbapi_connection, conn.dialect, _LAST_SEQ, (match_id,))
            if not found:
                raise MatchNotFound(f"no match {match_id!r}")
            return self._fold_in(conn, match_id, int(found[0][0]))

    # -- reading -----------------------------------------------------------------------------------

    def fold(self, match_id: str, at: int | None = None) -> Fold:
        """The match's fold (at `at`, if given): states at every seq, superseded events, scores.

        A match whose stored rows stop verifying at seq k (edited or deleted in the database) folds up to
        k - 1; when seq 1 itself fails there is nothing to fold: ChainBroken."""
        stored = self.stored_fold(match_id)
        if stored.fold is None:
            raise self._broken(match_id, stored.broken, stored.upto, "nothing of it can be replayed")
        fold = stored.fold
        if at is not None:
            if not 1 <= at <= fold.seq:
                why = f" (the stored log is broken at seq {stored.broken.first_bad_seq})" if stored.broken else ""
                raise BadRequest(f"at must be a seq of this match, 1..{fold.seq}{why}")
            fold = fold.at(at) if fold.holds(at) else self._fold_at(match_id, at, fold)
        return fold

    def _fold_at(self, match_id: str, at: int, fold: Fold[Any]) -> Fold[Any]:
        """The fold at `at`, a seq before the snapshot `fold` was resumed from: from the latest snapshot at or
        before `at`, else from the start (fewer than N events either way; not cached). Should those rows not
        verify now, `fold` loads (and checks) the states before its snapshot, and answers or raises."""
        with self.engine.connect() as conn:
            start = self._resumed(conn, match_id, at) or StoredFold(None, GENESIS, 0)
            stored = self._extended(conn, match_id, start, at)
        if stored.broken is None and stored.fold is not None:
            return stored.fold
        return fold.at(at)

    def whole_fold(self, match_id: str) -> Fold:
        """The match's fold with every earlier state at hand, for readers that walk every seq (the replay
        page, the read models). A fold resumed from a snapshot loads the seqs before it now; when those rows
        no longer verify, the store stops using the match's snapshots (`_earlier`) and the fold from the
        log, which stops before the break, is the answer. ChainBroken when not even seq 1 verifies."""
        fold = self.fold(match_id)
        if fold.holds(1):
            return fold
        try:
            fold.state_at(1)
        except ChainBroken:
            return self.fold(match_id)
        return fold

    def _match(self, s: Session, match_id: str) -> Match:
        if not is_match_id(match_id):  # never a match: not worth asking the database, which may refuse it
            raise MatchNotFound(f"no match {match_id!r}")
        match = s.get(Match, match_id)
        if match is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return match

    def summary(self, match_id: str) -> dict[str, Any]:
        """The match's row, its scores (as far as its stored rows verify), whether they stop verifying
        (`broken`: first_bad_seq and reason, else None) and how its events came here (`imports`)."""
        with Session(self.engine) as s:
            match = self._match(s, match_id)
            summary = _summary(match)
            imports = s.exec(
                select(ImportRecord).where(ImportRecord.match_id == match_id).order_by(col(ImportRecord.id))
            ).all()
            summary["imports"] = [r.as_json() for r in imports]
            stored = self._fold_in(s.connection(), match_id, match.last_seq)
        broken = stored.broken
        summary["broken"] = {"first_bad_seq": broken.first_bad_seq, "reason": broken.reason} if broken else None
        summary["scores"] = scores_json(stored.fold, match_id) if stored.fold is not None else None
        summary["rules_version"] = stored.fold.game.rules_version if stored.fold is not None else None
        return summary

    def list_matches(
        self,
        game: str | None = None,
        player: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
        after: str | None = None,
    ) -> tuple[list[dict[str, Any]], int, str | None]:
        """A page of match summaries, newest first, how many match the filters in all, and the cursor of the
        next page (None on the last). `after` (a cursor) pages by keyset: from an index, however deep."""
        # Newest first by (created_at, id), both descending: one backward range of an index per filter.
        if player:
            seats = MATCH_PLAYERS
            q = (core_select(*MATCHES.c).select_from(seats.join(MATCHES, MATCHES.c.id == seats.c.match_id))
                 .where(seats.c.player_id == player))
            created, ident = seats.c.created_at, seats.c.match_id
        else:
            q = core_select(*MATCHES.c)
            created, ident = MATCHES.c.created_at, MATCHES.c.id
        if game:
            q = q.where(MATCHES.c.game == game)
        if status:
            q = q.where(MATCHES.c.status == status)
        filtered = q
        if after is not None:
            at, after_id = _read_cursor(after)
            q = q.where(tuple_(created, ident) < tuple_(at, after_id))  # a row value: one range of the index
        q = q.order_by(created.desc(), ident.desc()).offset(offset).limit(limit + 1)
        with self.engine.connect() as conn:
            total = self._count(conn, filtered, (game, player, status))
            rows = conn.execute(q).all()
        items = [_summary(m) for m in rows[:limit]]
        following = _cursor(rows[limit - 1]) if len(rows) > limit else None
        return items, total, following

    def players(self) -> dict[str, str]:
        """Every player id seated in a match, with the name of their latest match."""
        seats = MATCH_PLAYERS
        with self.engine.connect() as conn:
            q = core_select(seats.c.player_id, seats.c.name).order_by(seats.c.created_at, seats.c.match_id)
            return {pid: name for pid, name in conn.execute(q)}

    def _count(self, conn: Connection, q: Any, key: tuple[str | None, ...]) -> int:
        """How many matches a filter selects, counted once per version of the match list: only a new match or
        a match changing status changes a count, and each bumps `match_list_version` (see `_insert`)."""
        version = conn.execute(core_select(LIST_VERSION.c.version).where(LIST_VERSION.c.id == 1)).scalar()
        with self._counts_lock:
            hit = self._counts.get(key)
        if version is not None and hit is not None and hit[0] == version:
            return hit[1]
        total = int(conn.execute(core_select(func.count()).select_from(q.subquery())).scalar_one())
        with self._counts_lock:
            if len(self._counts) > 1024:
                self._counts.clear()
            self._counts[key] = (version, total)
        return total

    def events(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            self._match(s, match_id)
            q = select(StoredEvent).where(StoredEvent.match_id == match_id, StoredEvent.seq >= from_seq)
            if to_seq is not None:
                q = q.where(StoredEvent.seq <= to_seq)
            return [r.envelope() for r in s.exec(q.order_by(col(StoredEvent.seq)))]

    def event_rows(self, match_id: str) -> list[StoredEvent]:
        """Stored rows with their metadata (who recorded, when), for the replay page's event list."""
        with Session(self.engine) as s:
            self._match(s, match_id)
            q = select(StoredEvent).where(StoredEvent.match_id == match_id).order_by(col(StoredEvent.seq))
            return list(s.exec(q))

    def events_after(self, position: int = 0, limit: int = 500) -> list[dict[str, Any]]:
        """Events of every match in global order, for readers that follow the whole store."""
        with Session(self.engine) as s:
            q = select(StoredEvent).where(StoredEvent.position > position).order_by(col(StoredEvent.position))
            return [{"match_id": r.match_id, "position": r.position, **r.envelope()} for r in s.exec(q.limit(limit))]

    def export_lines(self, match_id: str) -> list[str]:
        """JSON Lines in FORMAT.md's field order (read at once: an unknown match raises here, not later)."""
        return [export_line(env) for env in self.events(match_id)]

    def _verified_further(self, check: ChainCheck, envelopes: Sequence[Mapping[str, Any]]) -> ChainCheck:
        return verified(check, envelopes)  # a committed bag: every draw dealt again from the revealed seed

    def _verify_hint(self, owner: str) -> str:
        return f"; `scorebook verify {owner}` shows it"

    def _is_id(self, owner: str) -> bool:
        return is_match_id(owner)

    def _not_found(self, owner: str) -> NotFound:
        return MatchNotFound(f"no match {owner!r}")


def verified_fold(start: StoredFold, rows: Sequence[StoredEvent | EventRow], last_seq: int) -> StoredFold:
    """Fold `rows` (seqs after start.upto, in order) onto `start`, stopping at the first row that is not the
    next link of the chain or that the rules refuse. Rows edited or deleted by someone with database access
    must not make a read fail: the match then replays up to the seq before."""
    fold, head, n = start.fold, start.head, start.upto
    if rows:
        # The usual case first: every row links, and the rules take them all in one `Fold.extend` (a third
        # cheaper than an `apply` per event). Any refusal is left to `verified_rows`, which names it.
        events: list[Event] = []
        try:
            for row in rows:
                if row.seq != n + 1:
                    break
                data = row.linked_data(head) if type(row) is EventRow else None
                if data is None:
                    env = row.stored_envelope()
                    if link_problem(env, n + 1, head) is not None:
                        break
                    data = env["data"]
                events.append(Event(row.seq, row.type, data))
                head, n = row.hash, n + 1
            else:
                if n >= last_seq:
                    folded = fold.extend(events) if fold is not None else Fold.begin(events[0]).extend(events[1:])
                    return StoredFold(folded, head, last_seq)
        except Exception:  # noqa: S110 - a row or an event `verified_rows` refuses with its reason
            pass
    done = verified_rows(start.fold, start.head, start.upto, rows, last_seq, Fold.begin, Fold.apply)
    return StoredFold(done.state, done.head, last_seq, done.broken)


def _restore_tokens(s: Session, tokens: Sequence[dict[str, Any]]) -> int:
    known = set(s.exec(select(ApiToken.token_hash)).all())
    added = 0
    for t in tokens:
        if t["token_hash"] in known:
            continue
        revoked = parse_time(t["revoked_at"]) if t["revoked_at"] else None
        s.add(ApiToken(name=t["name"], role=t["role"], token_hash=t["token_hash"],
                       created_at=parse_time(t["created_at"]), revoked_at=revoked))
        known.add(t["token_hash"])
        added += 1
    return added


def _first_line(e: Exception) -> str:
    return str(getattr(e, "orig", e)).splitlines()[0][:200]


def _check_fields(fold: Fold[Any], seq: int, e: NewEvent, text: str | None = None) -> None:
    """BadRequest naming the first field of `e`'s data that its type does not have (a misspelling). `text`: the
    data's canonical JSON text, when the caller has it."""
    problem = unknown_field_problem(fold.game, e.type, e.data, text)
    if problem is not None:
        raise BadRequest(problem, seq=seq, type=e.type)


def _applied(fold: Fold[Any], seq: int, e: NewEvent, text: str | None = None) -> Fold[Any]:
    """`fold` with the new event `e` as `seq`, its fields checked first (`_check_fields`), or its refusal."""
    _check_fields(fold, seq, e, text)
    return ruled(Fold.apply, fold, seq, e)


def _event_rows(match_id: str, envelopes: Sequence[dict[str, Any]], event_ids: Sequence[str | None],
                texts: Sequence[str] | None, recorded_at: datetime | None = None) -> list[tuple[Any, ...]]:
    """The values of `Appender.write`'s rows (recorder/sql/append.py) for the envelopes. `recorded_at`:
    the time every envelope was recorded at, as `recorder.log.file.stamped` gives it (else parsed from theirs)."""
    if recorded_at is not None:
        stamps: Sequence[datetime] = [recorded_at] * len(envelopes)
    else:
        times: dict[str, datetime] = {}  # an import's rows mostly share one time: parsed once
        stamps = [times.get(t) or times.setdefault(t, parse_time(t)) for t in (env["recorded_at"] for env in envelopes)]
    datas = texts if texts is not None else [env["data"] for env in envelopes]
    return [
        (match_id, env["seq"], env["type"], data, at, env["recorded_by"], env["prev_hash"], env["hash"], event_id)
        for env, data, at, event_id in zip(envelopes, datas, stamps, event_ids, strict=True)
    ]


def _import_row(match_id: str, source: ImportSource, first_seq: int, last_seq: int) -> dict[str, Any]:
    """The `imports` row of a file stored into a match (column values)."""
    return {"match_id": match_id, "imported_by": source.imported_by, "imported_at": utcnow(),
            "file_name": source.file_name, "digest": source.digest, "first_seq": first_seq, "last_seq": last_seq}


def _summary(m: Any) -> dict[str, Any]:
    """A match row's summary (an ORM `Match` or a Core row of `matches`)."""
    return {
        "match_id": m.id,
        "game": m.game,
        "players": readable_players(m.players),
        "status": m.status,
        "winners": readable_winners(m.winners),
        "seq": m.last_seq,
        "meta": readable_meta(m.meta),  # a row may hold anything: see recorder.log.readable
        "created_at": format_time(m.created_at),
        "updated_at": format_time(m.updated_at),
    }


def _new_match_row(match_id: str, data: dict[str, Any], created_at: datetime) -> dict[str, Any]:
    players = [{"id": p["id"], "name": p.get("name") or p["id"]} for p in data["players"]]
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    return {"id": match_id, "game": data["game"], "status": "in_progress", "last_seq": 0, "players": players,
            "winners": [], "meta": meta or {}, "created_at": created_at, "updated_at": created_at}


def _seat_rows(match_id: str, data: dict[str, Any], created_at: datetime) -> list[dict[str, Any]]:
    return [{"match_id": match_id, "seat": i, "player_id": p["id"], "name": p.get("name") or p["id"],
             "created_at": created_at} for i, p in enumerate(data["players"])]


def _bump_list_version(conn: Connection) -> None:
    conn.execute(BUMP_LIST_VERSION)


def _cursor(row: Any) -> str:
    """A page's keyset cursor: the last match's created_at (to the microsecond) and id."""
    at = row.created_at if row.created_at.tzinfo is None else row.created_at.astimezone(timezone.utc)
    return f"{at.replace(tzinfo=None).isoformat(timespec='microseconds')}Z~{row.id}"


def _read_cursor(text: str) -> tuple[datetime, str]:
    at, sep, match_id = text.partition("~")
    try:
        if not sep or not is_match_id(match_id):
            raise ValueError
        return parse_time(at), match_id
    except ValueError:
        raise BadRequest(f"after must be a cursor from a page of this list (`next`), not {text[:80]!r}") from None

