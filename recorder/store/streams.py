"""Club streams: the player registry and tournaments, stored as event streams beside the matches,
hash-chained (FORMAT.md's envelope) and append-only (recorder/sql/triggers.py) like them.

What a stream's events mean is its kind's (projections.clubs: `StreamKind.begin` / `apply` check and fold,
refusing with IllegalEvent); here they are checked against the value limits, chained, stored all or nothing,
and folded back as far as the stored rows verify.

One transaction per append, as for matches, by the same code (recorder/store/chained.py) and in the same writer's
turn as theirs when the store is given the match store's append path (`writer`): lock the stream's head, answer an
event_id retry, check `expected_seq`, fold the new events onto the stream's state (nothing is written unless all
are legal), chain, insert, commit; only then is the new state cached.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from projections.clubs.protocol import StreamKind
from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from recorder.errors import BadRequest, ChainBroken, Conflict, ImportRefused, NotFound
from recorder.log.file import (
    EXPORT_KEYS,
    GENESIS,
    ChainCheck,
    NewEvent,
    chain_new,
    format_time,
    link_problem,
    parse_time,
)
from recorder.log.inputs import check_event, check_recorded_by
from recorder.sql.append import STREAM_CHAIN, Appender, Head
from recorder.sql.stream_tables import STREAM_EVENTS, STREAMS
from recorder.sql.tables import served_envelope, utcnow
from recorder.store.chained import MAX_BATCH, ChainedStore, refusal, ruled, verified
from recorder.store.fold_cache import FoldCache, uncounted

CACHE_ENTRIES = 256  # folds kept in memory, least recently used dropped first
MAX_TITLE_CHARS = 200  # streams.title is VARCHAR(200)
_STREAM_ID = re.compile("[a-z0-9_-]{1,32}")

Kinds = Callable[[str], StreamKind[Any]]


class StreamNotFound(NotFound):
    """No stream with this id (a NotFound, so the API answers 404 as for a match)."""


def registry_kind(name: str) -> StreamKind[Any]:
    """The kind named `name` from projections.clubs.registry (imported when first asked: the kinds live in
    the pure layer, and a store given its own lookup never needs them)."""
    from projections.clubs.registry import get_kind

    kind: StreamKind[Any] = get_kind(name)
    return kind


def is_stream_id(value: Any) -> bool:
    """Stream ids are uuid4().hex, or one given at creation: 1 to 32 of a-z, 0-9, `_` and `-`."""
    return isinstance(value, str) and _STREAM_ID.fullmatch(value) is not None


class StreamFold(NamedTuple):
    """A stream's stored rows up to its head's last seq `upto`, folded as far as they verify: its kind, the state
    (None when seq 1 itself does not verify), the hash and seq of the last event folded, and `broken` (where and
    why the rows stop verifying) or None."""

    kind: str
    state: Any
    head: str
    seq: int
    upto: int
    broken: ChainCheck | None = None


class StreamStore(ChainedStore):
    """Club streams in the same database as the matches. `kinds` names a kind of stream to its StreamKind
    (default: projections.clubs.registry.get_kind); `writer`: the database's append path, when the match store
    has one (its appends and these then take their turns together), else one of its own."""

    noun = "stream"
    chain = STREAM_CHAIN

    def __init__(self, engine: Engine, kinds: Kinds | None = None, cache_entries: int = CACHE_ENTRIES,
                 writer: Appender | None = None) -> None:
        super().__init__(engine, writer)
        self._kinds: Kinds = kinds or registry_kind
        self._cache: FoldCache[StreamFold] = FoldCache(0, cache_entries, size=uncounted)

    def kind(self, name: Any) -> StreamKind[Any]:
        """The StreamKind named `name`; a BadRequest when there is none."""
        if not isinstance(name, str):
            raise BadRequest("kind must be a string")
        try:
            return self._kinds(name)
        except (LookupError, ValueError) as e:
            why = e.args[0] if e.args and isinstance(e.args[0], str) else f"no kind of stream {name[:64]!r}"
            raise BadRequest(why) from e

    # -- writing ---------------------------------------------------------------------------------

    def create(
        self, kind: str, data: Any, recorded_by: str, stream_id: str | None = None, event_id: str | None = None
    ) -> dict[str, Any]:
        """Start a stream of `kind` with its start event's `data`: {"stream_id", "seq": 1, "event", "replayed"}.

        `stream_id` (1 to 32 of a-z, 0-9, `_`, `-`) names it, else a new uuid4 hex; a name taken is a Conflict.
        A retry with the same `event_id` answers the stream it started (replayed True)."""
        stream_kind = self.kind(kind)
        if stream_id is not None and not is_stream_id(stream_id):
            raise BadRequest("stream_id must be 1 to 32 characters of a-z, 0-9, _ and -")
        if not isinstance(data, dict):
            raise BadRequest(f"data of {stream_kind.start_type} must be a JSON object")
        start = stream_kind.start_type
        check_event(start, data, event_id)
        check_recorded_by(recorded_by)
        earlier = self._created_before(stream_kind, data, event_id, stream_id)
        if earlier is not None:
            return earlier
        try:
            state = stream_kind.begin(Event(1, start, data))
        except IllegalEvent as e:
            raise refusal(e, 1, start) from e
        now = utcnow()
        envelope = chain_new([NewEvent(start, data)], 1, GENESIS, recorded_by, now)[0]
        new_id = stream_id or uuid.uuid4().hex
        try:
            with self._sql.transaction() as conn:
                if stream_id is not None and self._locked(conn, stream_id) is not None:
                    raise Conflict(f"stream id {stream_id!r} is taken")
                conn.execute(insert(STREAMS), [_stream_row(new_id, stream_kind.name, 1, now, now, data)])
                conn.execute(insert(STREAM_EVENTS), [_event_row(new_id, envelope, event_id)])
        except IntegrityError:  # PostgreSQL: a concurrent create took the event_id or the stream id first
            earlier = self._created_before(stream_kind, data, event_id, stream_id)
            if earlier is not None:
                return earlier
            if stream_id is not None:
                raise Conflict(f"stream id {stream_id!r} is taken") from None
            raise
        self._cache.publish(new_id, StreamFold(stream_kind.name, state, envelope["hash"], 1, 1))
        return {"stream_id": new_id, "seq": 1, "event": envelope, "replayed": False}

    def _created_before(
        self, kind: StreamKind[Any], data: dict[str, Any], event_id: str | None, stream_id: str | None
    ) -> dict[str, Any] | None:
        if event_id is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(STREAM_EVENTS).where(STREAM_EVENTS.c.event_id == event_id)).first()
            if row is None:
                return None
            stored_kind = conn.execute(select(STREAMS.c.kind).where(STREAMS.c.id == row.stream_id)).scalar()
        same = (row.seq == 1 and row.type == kind.start_type and row.data == data and stored_kind == kind.name
                and stream_id in (None, row.stream_id))
        if not same:
            raise Conflict(f"event_id {event_id!r} was already used for another event")
        return {"stream_id": row.stream_id, "seq": 1, "event": served_envelope(row), "replayed": True}

    def _append(
        self, stream_id: str, events: Sequence[NewEvent], expected_seq: int, recorded_by: str
    ) -> list[dict[str, Any]]:
        """`ChainedStore.append` of a stream: its events folded onto its state by its kind."""
        with self._sql.transaction() as conn:
            head = self._locked_head(conn, self._sql.cursor(conn), stream_id, events, expected_seq)
            kind = self.kind(head.detail)
            folded = self._folded_in(conn, stream_id, head)
            if folded.broken is not None or folded.state is None:
                raise self._broken(stream_id, folded.broken, folded.seq, "nothing can be appended to it")
            state = folded.state
            for i, e in enumerate(events):
                state = ruled(kind.apply, state, head.last_seq + 1 + i, e)
            now = utcnow()
            envelopes = chain_new(events, head.last_seq + 1, folded.head, recorded_by, now)
            rows = [_event_row(stream_id, env, e.event_id) for env, e in zip(envelopes, events, strict=True)]
            conn.execute(insert(STREAM_EVENTS), rows)
            last = envelopes[-1]["seq"]
            conn.execute(update(STREAMS).where(STREAMS.c.id == stream_id).values(last_seq=last, updated_at=now))
        self._cache.publish(stream_id, StreamFold(kind.name, state, envelopes[-1]["hash"], last, last))
        return envelopes

    def import_stream(
        self, kind: str, envelopes: Sequence[Mapping[str, Any]], recorded_by: str, stream_id: str | None = None
    ) -> dict[str, Any]:
        """Store a stream exported elsewhere (its `envelopes`, in export order) with every hash, under
        `stream_id` — its own id — or, without one, as the stored stream that begins with the same event,
        else under a new id. Every envelope is checked (limits, chain, the kind's rules) before anything is
        stored: ImportRefused names the first bad one by its position (`line`).

        Returns {"stream_id", "seq", "existing", "added"}: the same stream already stored is `existing` (and
        what the export holds beyond it is appended); a different stream under that id is a Conflict."""
        stream_kind = self.kind(kind)
        check_recorded_by(recorded_by)  # who imports: the envelopes keep their own recorded_by (it is hashed)
        if stream_id is not None and not is_stream_id(stream_id):
            raise BadRequest("stream_id must be 1 to 32 characters of a-z, 0-9, _ and -")
        checked, state = _checked_import(stream_kind, envelopes)
        try:
            return self._import(stream_kind, checked, state, stream_id)
        except IntegrityError:  # PostgreSQL: a concurrent import stored the same new id first; now it is there
            return self._import(stream_kind, checked, state, stream_id)

    def _import(
        self, kind: StreamKind[Any], envelopes: list[dict[str, Any]], state: Any, stream_id: str | None
    ) -> dict[str, Any]:
        n = len(envelopes)
        with self._sql.transaction() as conn:
            target = stream_id or self._stream_beginning_with(conn, envelopes[0]["hash"])
            head = self._locked(conn, target) if target is not None else None
            if target is not None and head is not None:
                added = self._extend(conn, target, head, kind, envelopes)
                return {"stream_id": target, "seq": max(head.last_seq, n), "existing": True, "added": added}
            new_id = target or uuid.uuid4().hex
            # The stream's dates are its events': a copy lists as the original does.
            first, last = parse_time(envelopes[0]["recorded_at"]), parse_time(envelopes[-1]["recorded_at"])
            conn.execute(insert(STREAMS), [_stream_row(new_id, kind.name, n, first, last, envelopes[0]["data"])])
            conn.execute(insert(STREAM_EVENTS), [_event_row(new_id, env, None) for env in envelopes])
        self._cache.publish(new_id, StreamFold(kind.name, state, envelopes[-1]["hash"], n, n))
        return {"stream_id": new_id, "seq": n, "existing": False, "added": n}

    def _extend(
        self, conn: Connection, stream_id: str, head: Head, kind: StreamKind[Any], envelopes: list[dict[str, Any]]
    ) -> int:
        """Append what `envelopes` hold beyond the stored stream they continue (their hashes kept); how many.
        A stream of another kind, or whose events differ from them, is a Conflict."""
        if head.detail != kind.name:
            raise Conflict(f"stream {stream_id} is a {head.detail} stream, not a {kind.name} stream")
        stored = conn.execute(select(STREAM_EVENTS.c.hash).where(STREAM_EVENTS.c.stream_id == stream_id)
                              .order_by(STREAM_EVENTS.c.seq)).scalars().all()
        for i, (have, given) in enumerate(zip(stored, (e["hash"] for e in envelopes), strict=False)):
            if have != given:
                raise Conflict(f"stream {stream_id} differs from the imported one from seq {i + 1}")
        new = envelopes[len(stored):]
        if not new:
            return 0
        if len(stored) != head.last_seq:
            raise ChainBroken(f"stream {stream_id} holds {len(stored)} events but its last seq is {head.last_seq}: "
                              "nothing can be appended to it", len(stored) + 1)
        conn.execute(insert(STREAM_EVENTS), [_event_row(stream_id, env, None) for env in new])
        conn.execute(update(STREAMS).where(STREAMS.c.id == stream_id)
                     .values(last_seq=len(envelopes), updated_at=parse_time(new[-1]["recorded_at"])))
        return len(new)

    def _stream_beginning_with(self, conn: Connection, first_hash: str) -> str | None:
        q = select(STREAM_EVENTS.c.stream_id).where(STREAM_EVENTS.c.seq == 1, STREAM_EVENTS.c.hash == first_hash)
        return conn.execute(q.order_by(STREAM_EVENTS.c.stream_id).limit(1)).scalar()

    # -- reading ---------------------------------------------------------------------------------

    def _is_id(self, owner: str) -> bool:
        return is_stream_id(owner)

    def _not_found(self, owner: str) -> NotFound:
        return StreamNotFound(f"no stream {str(owner)[:64]!r}")

    def _locked(self, conn: Connection, stream_id: str) -> Head | None:
        """In the writer's transaction: the stream's head, its row locked until the commit; None when there is no
        such stream."""
        if not is_stream_id(stream_id):  # never a stream: not worth asking the database, which may refuse it
            return None
        return self._sql.head(self._sql.cursor(conn), STREAM_CHAIN, stream_id)[0]

    def _rows(self, conn: Connection, stream_id: str, upto: int) -> Sequence[Any]:
        # Up to the head read before: on PostgreSQL a later statement may see a later append's rows.
        q = select(STREAM_EVENTS).where(STREAM_EVENTS.c.stream_id == stream_id, STREAM_EVENTS.c.seq <= upto)
        return conn.execute(q.order_by(STREAM_EVENTS.c.seq)).all()

    def _folded_in(self, conn: Connection, stream_id: str, head: Head) -> StreamFold:
        """The stream up to `head`'s last seq, folded (cached, else from its rows, verified as they are folded)."""
        cached = self._cache.get(stream_id)
        if cached is not None and cached.upto == head.last_seq:
            return cached
        kind = self.kind(head.detail)
        done = verified(None, GENESIS, 0, self._rows(conn, stream_id, head.last_seq), head.last_seq, kind.begin,
                        kind.apply)
        folded = StreamFold(kind.name, done.state, done.head, done.seq, head.last_seq, done.broken)
        self._cache.publish(stream_id, folded)
        return folded

    def state(self, stream_id: str) -> tuple[str, Any, int]:
        """(kind, state, seq): the stream folded as far as its stored rows verify — a row edited, deleted or
        refused by the rules stops the fold before it (`verify` says where and why). ChainBroken when not even
        seq 1 verifies."""
        with self.engine.connect() as conn:
            head = self._head(conn, stream_id)
            folded = self._folded_in(conn, stream_id, head)
        if folded.state is None:
            raise self._broken(stream_id, folded.broken, folded.seq, "it has no state")
        return folded.kind, folded.state, folded.seq

    def envelopes(self, stream_id: str) -> list[dict[str, Any]]:
        """The stored events, in export order, as FORMAT.md's envelopes with their hashes."""
        with self.engine.connect() as conn:
            head = self._head(conn, stream_id)
            return [served_envelope(r) for r in self._rows(conn, stream_id, head.last_seq)]

    def streams(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Every stream (of `kind`, if given), oldest first: {id, kind, title, last_seq, created_at, updated_at}."""
        q = select(STREAMS)
        if kind is not None:
            q = q.where(STREAMS.c.kind == kind)
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(STREAMS.c.created_at, STREAMS.c.id)).all()
        return [{"id": r.id, "kind": r.kind, "title": r.title, "last_seq": r.last_seq,
                 "created_at": format_time(r.created_at), "updated_at": format_time(r.updated_at)} for r in rows]


def _checked_import(kind: StreamKind[Any], envelopes: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], Any]:
    """The envelopes, each checked (exactly FORMAT.md's fields, the value limits, a canonical time, its link in
    the chain from GENESIS, legal after the ones before), and the state they fold to."""
    if isinstance(envelopes, (str, bytes)) or not isinstance(envelopes, Sequence) or not envelopes:
        raise ImportRefused("the stream holds no events", 0, malformed=True)
    state: Any = None
    prev = GENESIS
    checked = []
    for n, obj in enumerate(envelopes, start=1):
        if not isinstance(obj, Mapping) or set(obj) != set(EXPORT_KEYS):
            raise ImportRefused(f"each event must be an object of exactly {', '.join(EXPORT_KEYS)}", n,
                                malformed=True)
        if type(obj["seq"]) is not int:
            raise ImportRefused("seq must be an integer", n, malformed=True)
        try:
            check_event(obj["type"], obj["data"])
            check_recorded_by(obj["recorded_by"])
        except BadRequest as err:
            raise ImportRefused(err.message, n, malformed=True) from err
        try:
            canonical = format_time(parse_time(obj["recorded_at"]))
        except (ValueError, TypeError, AttributeError) as err:
            raise ImportRefused(f"recorded_at: {err}", n, malformed=True) from err
        if canonical != obj["recorded_at"]:
            raise ImportRefused("recorded_at must read YYYY-MM-DDTHH:MM:SS.mmmZ", n, malformed=True)
        env = {k: obj[k] for k in EXPORT_KEYS}
        problem = link_problem(env, n, prev)
        if problem is not None:
            raise ImportRefused(problem, n)
        try:
            event = Event(n, env["type"], env["data"])
            state = kind.apply(state, event) if n > 1 else kind.begin(event)
        except IllegalEvent as e:
            raise ImportRefused(f"{env['type']} refused: {e.reason}", n,
                                malformed=isinstance(e, UnknownEventType)) from e
        checked.append(env)
        prev = env["hash"]
    return checked, state


def _title(data: Mapping[str, Any]) -> str | None:
    """What lists show for a stream: its start event's `name` (a tournament) or `club` (a registry)."""
    for key in ("name", "club"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return value[:MAX_TITLE_CHARS]
    return None


def _stream_row(
    stream_id: str, kind: str, last_seq: int, created_at: datetime, updated_at: datetime, start: Mapping[str, Any]
) -> dict[str, Any]:
    return {"id": stream_id, "kind": kind, "last_seq": last_seq, "created_at": created_at,
            "updated_at": updated_at, "title": _title(start)}


def _event_row(stream_id: str, env: Mapping[str, Any], event_id: str | None) -> dict[str, Any]:
    return {"stream_id": stream_id, "seq": env["seq"], "type": env["type"], "data": env["data"],
            "recorded_at": parse_time(env["recorded_at"]), "recorded_by": env["recorded_by"],
            "prev_hash": env["prev_hash"], "hash": env["hash"], "event_id": event_id}


__all__ = ["MAX_BATCH", "Kinds", "StreamNotFound", "StreamStore", "is_stream_id", "registry_kind"]
