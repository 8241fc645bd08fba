"""What every store of hash-chained streams does alike: matches (recorder/store/matches.py) and club streams
(recorder/store/streams.py) are two kinds of one thing, a stream of events under a head row, and share here

- the append's input checks (`check_batch`), its refusal (`refusal`, `ruled`), its retry (`ChainedStore.append`:
  an event_id replayed, and the race PostgreSQL's unique index answers), the stale `expected_seq` (a Conflict
  with `current_seq`) and the head locked for all of it (`ChainedStore._locked_head`, through the store's append
  path: recorder/sql/append.py says how it locks on each database);
- the fold of stored rows as far as they verify (`verified`: each row the next link of the hash chain and legal
  after the ones before) and what is said when they stop verifying (`ChainedStore._broken`);
- `verify`: the chain, and that it reaches the head's last seq.

What differs is given by each store: its tables (a `Chain`), how a stream begins and takes an event (a match's
`Fold`, a club stream's `StreamKind`), and the writes (a match's rows carry positions, snapshots and a status;
its appends take a one-trip path when its fold is cached).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from recorder.errors import BadRequest, ChainBroken, Conflict, NotFound, Refused
from recorder.log.file import ChainCheck, NewEvent, check_chain, link_problem
from recorder.log.inputs import check_event, check_recorded_by
from recorder.sql.append import Appender, Chain, Head
from recorder.sql.postgres import PostgresAppender
from recorder.sql.sqlite import SqliteAppender
from recorder.sql.tables import served_envelope, stored_envelope

MAX_BATCH = 1000  # events per append
S = TypeVar("S")


def appender(engine: Engine) -> Appender:
    """The append path of `engine`'s database (recorder/sql/sqlite.py, recorder/sql/postgres.py)."""
    return SqliteAppender(engine) if engine.dialect.name == "sqlite" else PostgresAppender(engine)


def check_batch(events: Sequence[NewEvent], expected_seq: int, recorded_by: str) -> None:
    """An append's input, before anything is read: a batch of 1 to MAX_BATCH events, each within the value
    limits, an integer `expected_seq`, who records it. A BadRequest naming the first problem."""
    if not events:
        raise BadRequest("events must hold at least one event")
    if len(events) > MAX_BATCH:
        raise BadRequest(f"at most {MAX_BATCH} events per append")
    if type(expected_seq) is not int:
        raise BadRequest("expected_seq must be an integer")
    for i, e in enumerate(events):
        check_event(e.type, e.data, e.event_id, f"events[{i}]")
    check_recorded_by(recorded_by)


def batch_ids(events: Sequence[NewEvent]) -> list[str]:
    """The batch's event_ids (events without one left out); a BadRequest when one repeats."""
    ids = [e.event_id for e in events if e.event_id is not None]
    if len(set(ids)) != len(ids):
        raise BadRequest("event_id values repeat within the batch")
    return ids


def refusal(e: IllegalEvent, seq: int, type: str) -> BadRequest | Refused:
    """The answer to an event the rules refuse: Refused (422) naming its seq and type; an event type the stream does
    not know is the client's mistake, a BadRequest (400)."""
    if isinstance(e, UnknownEventType):
        return BadRequest(e.reason, seq=seq, type=type)
    return Refused(e.reason, seq, type)


def ruled(apply: Callable[[S, Event], S], state: S, seq: int, e: NewEvent) -> S:
    """`state` with the new event `e` as `seq` (`apply`: a match's `Fold.apply`, a club stream's kind's), or its
    refusal."""
    try:
        return apply(state, Event(seq, e.type, e.data))
    except IllegalEvent as err:
        raise refusal(err, seq, e.type) from err


def equal_data(type: str, asked: Any, stored: Any) -> bool:
    return bool(asked == stored)


def retried_envelopes(
    stored: Mapping[str, Any],
    owner: str,
    owner_of: Callable[[Any], str],
    events: Sequence[NewEvent],
    ids: list[str],
    same_data: Callable[[str, Any, Any], bool] = equal_data,
) -> list[dict[str, Any]] | None:
    """What was stored for a batch's event_ids (`stored`: the rows found by event_id) when every one was, with
    the same content, in the same stream `owner` (a retried request); None when none was; a Conflict otherwise.
    `same_data(type, asked, stored)` compares the data: equality, unless the store knows better (a committed bag's
    draws are stored with the dealt tiles)."""
    if not stored:
        return None
    same = len(stored) == len(events) == len(ids) and all(
        owner_of(r := stored[e.event_id]) == owner and r.type == e.type and same_data(r.type, e.data, r.data)
        for e in events
        if e.event_id is not None
    )
    if not same:
        used = next(i for i in ids if i in stored)
        raise Conflict(f"event_id {used!r} was already stored with different content or in another batch")
    return [served_envelope(stored[e.event_id]) for e in events if e.event_id is not None]


class Replayed(Exception):
    """Every event of an append was stored before: its envelopes, to answer the retry with."""

    def __init__(self, envelopes: list[dict[str, Any]]) -> None:
        self.envelopes = envelopes


class Verified(NamedTuple):
    """Stored rows folded as far as they verify: the state (None when seq 1 itself does not verify), the hash and
    seq of the last event folded, and `broken` — where and why the rows stop verifying — or None."""

    state: Any
    head: str
    seq: int
    broken: ChainCheck | None = None


def verified(state: Any, head: str, seq: int, rows: Iterable[Any], last_seq: int,
             begin: Callable[[Event], Any], apply: Callable[[Any, Event], Any]) -> Verified:
    """Fold `rows` (stored rows of seqs after `seq`, in order) onto `state` — the stream after `seq`, whose event's
    hash is `head` (from the start: None, GENESIS, 0) — up to `last_seq`, stopping at the first row that is not
    the next link of the chain or that the rules (`begin` the first event, `apply` the others) refuse. Rows edited
    or deleted by someone with database access must not make a read fail: the stream then reads as it was at the
    seq before."""
    n = seq

    def stop(at: int, reason: str) -> Verified:
        return Verified(state, head, n, ChainCheck(False, at, at, reason))

    for row in rows:
        if row.seq != n + 1:
            return stop(n + 1, f"seq {n + 1} is missing")
        try:
            env = stored_envelope(row)
            problem = link_problem(env, n + 1, head)
        except Exception as e:  # a row no append could have written
            return stop(n + 1, f"the stored row cannot be read ({type(e).__name__})")
        if problem is not None:
            return stop(n + 1, problem)
        try:
            event = Event(row.seq, row.type, env["data"])
            state = apply(state, event) if n else begin(event)
        except IllegalEvent as e:
            return stop(n + 1, f"{row.type} is refused by the rules: {e.reason}")
        except Exception as e:  # the rules were never meant to see such data
            return stop(n + 1, f"{row.type} cannot be replayed ({type(e).__name__})")
        head, n = env["hash"], n + 1
    if n < last_seq:
        return stop(n + 1, f"seq {n + 1} is missing")
    return Verified(state, head, n)


class ChainedStore(ABC):
    """A store of one kind of hash-chained stream (`chain`: its tables), named `noun` in its answers. Its appends
    take the writer's transaction of `writer` (the database's append path, recorder/sql/append.py): the stores of
    one database in one process share one, so that on SQLite they take their turns in one queue."""

    noun: ClassVar[str]
    chain: ClassVar[Chain]

    def __init__(self, engine: Engine, writer: Appender | None = None) -> None:
        self.engine = engine
        self._sql = writer if writer is not None else appender(engine)

    @property
    def writer(self) -> Appender:
        """The database's append path this store writes through (another store of the database may share it)."""
        return self._sql

    # -- what each store says of itself ---------------------------------------------------------------

    @abstractmethod
    def _is_id(self, owner: str) -> bool:
        """Whether `owner` may name a stream (one that may not is never asked of the database)."""
        ...

    @abstractmethod
    def _not_found(self, owner: str) -> NotFound:
        """The answer for a stream that is not stored (a 404)."""

    @abstractmethod
    def _append(self, owner: str, events: Sequence[NewEvent], expected_seq: int,
                recorded_by: str) -> list[dict[str, Any]]:
        """The append (its input checked), raising Replayed for a retry: its stored envelopes."""
        ...

    def _same_data(self, conn: Connection, owner: str) -> Callable[[str, Any, Any], bool]:
        """How a retry's data is compared with what was stored (`retried_envelopes`)."""
        return equal_data

    def _verified_further(self, check: ChainCheck, envelopes: Sequence[Mapping[str, Any]]) -> ChainCheck:
        """`verify`'s answer once the chain reaches the head (a match's committed bag: its draws checked too)."""
        return check

    def _verify_hint(self, owner: str) -> str:
        """What follows a ChainBroken's message: where to see more."""
        return ""

    # -- appending -------------------------------------------------------------------------------------

    def append(
        self, owner: str, events: Sequence[NewEvent], expected_seq: int, recorded_by: str
    ) -> tuple[list[dict[str, Any]], bool]:
        """Store all of `events` after seq `expected_seq`, or none. Returns (stored envelopes, replayed): replayed
        when every event carried an event_id already stored with the same content (a retry), answered with what
        was stored. A stale `expected_seq` is a Conflict (with `current_seq`); an event the rules refuse is
        Refused, naming its seq and the reason (an event type they do not know, or a field a match's event does
        not have: BadRequest)."""
        check_batch(events, expected_seq, recorded_by)
        try:
            return self._append(owner, events, expected_seq, recorded_by), False
        except Replayed as r:
            return r.envelopes, True
        except IntegrityError:
            # PostgreSQL: another transaction stored one of these event_ids between our check and our insert (the
            # unique index answers): the same events are a replay, anything else a Conflict.
            ids = batch_ids(events)
            with self.engine.connect() as conn:
                replay = self._replayed(conn, owner, events, ids) if ids else None
            if replay is None:
                raise
            return replay, True

    def _locked_head(self, conn: Connection, cur: Any, owner: str, events: Sequence[NewEvent],
                     expected_seq: int) -> Head:
        """In the writer's transaction (`writer.transaction()`, `cur` a cursor of it): the stream's head, its row
        locked until the commit. Raises Replayed when the batch's event_ids were stored before (what was stored,
        or a Conflict), the stream's NotFound, or the Conflict of a stale `expected_seq`."""
        ids = batch_ids(events)
        if not self._is_id(owner):
            raise self._not_found(owner)
        head, replayed = self._sql.head(cur, self.chain, owner, ids)
        if replayed:
            raise Replayed(self._replayed(conn, owner, events, ids) or [])
        if head is None:
            raise self._not_found(owner)
        if expected_seq != head.last_seq:
            raise Conflict(f"expected_seq {expected_seq} is not the {self.noun}'s last seq {head.last_seq}",
                           current_seq=head.last_seq)
        return head

    def _replayed(
        self, conn: Connection, owner: str, events: Sequence[NewEvent], ids: list[str]
    ) -> list[dict[str, Any]] | None:
        """What was stored for the batch's event_ids `ids` when every one was, with the same content, in this
        stream (a retried request); None when none was; a Conflict otherwise."""
        events_table = self.chain.events
        column = self.chain.owner
        rows = conn.execute(select(events_table).where(events_table.c.event_id.in_(ids)))
        stored = {r.event_id: r for r in rows}
        if not stored:
            return None
        return retried_envelopes(stored, owner, lambda r: getattr(r, column), events, ids,
                                 self._same_data(conn, owner))

    # -- reading -------------------------------------------------------------------------------------------

    def _head(self, conn: Connection, owner: str) -> Head:
        """The stream's head as it is now (not locked); its NotFound when there is none."""
        if not self._is_id(owner):
            raise self._not_found(owner)
        heads = self.chain.heads
        q = select(heads.c.id, heads.c.last_seq, heads.c[self.chain.detail]).where(heads.c.id == owner)
        row = conn.execute(q).first()
        if row is None:
            raise self._not_found(owner)
        return Head(row[0], int(row[1]), row[2])

    def _broken(self, owner: str, check: ChainCheck | None, seq: int, consequence: str) -> ChainBroken:
        """The ChainBroken of a stream whose rows stop verifying (`check`, from `verified`; `seq`: the last seq
        that verified), with its `consequence`."""
        first = check.first_bad_seq if check is not None and check.first_bad_seq is not None else seq + 1
        why = check.reason if check is not None else "unreadable"
        return ChainBroken(f"the stored events of {self.noun} {owner} stop verifying at seq {first} ({why}): "
                           f"{consequence}{self._verify_hint(owner)}", first)

    def verify(self, owner: str) -> ChainCheck:
        """The stored rows' hash chain, and that they reach the stream's last seq (a deleted tail leaves a chain
        that verifies on its own)."""
        events = self.chain.events
        owned = events.c[self.chain.owner] == owner
        with self.engine.connect() as conn:
            last_seq = self._head(conn, owner).last_seq
            envelopes = [served_envelope(r) for r in conn.execute(select(events).where(owned).order_by(events.c.seq))]
            check = check_chain(envelopes)
            n = check.events
            if check.ok and n > last_seq:  # on PostgreSQL, an append may have committed between the two reads
                later = self._head(conn, owner).last_seq
                last_seq = n if later >= n else last_seq
        if check.ok and n != last_seq:
            why = f"the events end at seq {n}; the {self.noun}'s last seq is {last_seq}"
            return ChainCheck(False, n, min(n, last_seq) + 1, why)
        return self._verified_further(check, envelopes)

    def close(self) -> None:
        """Give back the connection appends keep (recorder/sql/sqlite.py); the store stays usable."""
        self._sql.close()
