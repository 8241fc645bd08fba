"""The append-only, hash-chained event store: SQL, locking and the fold cache.

One transaction per append: lock the match's stream (PostgreSQL: its row FOR UPDATE; SQLite: the
engine begins every transaction IMMEDIATE), check idempotency and `expected_seq`, apply every new event
to the cached fold of the match (nothing is written unless all of them are legal), chain the hashes,
insert, commit, and only then publish the new fold to the cache.

Reading and writing match files, the hash chain and checking an import are in `recorder.logfile`
(pure, no database); the names are re-exported here for older callers.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from projections import timeline
from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from projections.schemas import unknown_field_problem
from projections.scores import scores_json
from projections.timeline import Fold
from recorder.db import for_writing
from recorder.errors import BadRequest, Conflict, MatchNotFound, Refused
from recorder.inputs import check_event, check_recorded_by, is_match_id
from recorder.logfile import (
    GENESIS,
    ChainCheck,
    ImportLine,
    NewEvent,
    PreparedImport,
    chain_new,
    check_chain,
    export_line,
    format_time,
    parse_jsonl,
    parse_time,
    prepare_import,
)
from recorder.readable import readable_meta, readable_players, readable_winners
from recorder.tables import Match, MatchPlayer, StoredEvent, utcnow

MAX_BATCH = 1000


def _refusal(e: IllegalEvent, seq: int, type: str) -> BadRequest | Refused:
    if isinstance(e, UnknownEventType):
        return BadRequest(e.reason, seq=seq, type=type)
    return Refused(e.reason, seq, type)


class EventStore:
    def __init__(self, engine: Engine, cache_size: int = 256) -> None:
        self.engine = engine
        self._writer = for_writing(engine)
        self._cache: OrderedDict[str, Fold] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()

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
        earlier = self._created_before(data, event_id)
        if earlier is not None:
            return earlier
        problem = unknown_field_problem(None, "match_started", data)
        if problem is not None:
            raise BadRequest(problem, seq=1, type="match_started")
        try:
            fold = Fold.begin(Event(1, "match_started", data))
        except IllegalEvent as e:
            raise _refusal(e, 1, "match_started") from e
        prepared = PreparedImport(fold, chain_new([NewEvent("match_started", data)], 1, GENESIS, recorded_by))
        try:
            created = self._store_new(prepared, [event_id])
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
            if stored.type != "match_started" or stored.data != data:
                raise Conflict(f"event_id {event_id!r} was already used for another event")
            return {"match_id": stored.match_id, "seq": stored.seq, "event": stored.envelope(), "replayed": True}

    def append(
        self, match_id: str, events: Sequence[NewEvent], expected_seq: int, recorded_by: str
    ) -> tuple[list[dict[str, Any]], bool]:
        """Store all of `events` or none. Returns (stored envelopes, replayed) — replayed when every
        event carried an event_id already stored: a retried request, answered with what was stored.

        Each event's data is checked against its game's schema first: a field the event does not have
        (a misspelling) is a BadRequest naming it. Then the game's rules: an illegal event is Refused.
        (Imports are not checked for unknown fields: an old log may carry fields since dropped.)"""
        if not events:
            raise BadRequest("events must hold at least one event")
        if len(events) > MAX_BATCH:
            raise BadRequest(f"at most {MAX_BATCH} events per append")
        for i, e in enumerate(events):
            check_event(e.type, e.data, e.event_id, f"events[{i}]")
        check_recorded_by(recorded_by)
        with Session(self._writer) as s:
            replay = self._replayed(s, match_id, events)
            if replay is not None:
                return replay, True
            match = self._lock_match(s, match_id)
            if expected_seq != match.last_seq:
                raise Conflict(
                    f"expected_seq {expected_seq} is not the match's last seq {match.last_seq}",
                    current_seq=match.last_seq,
                )
            fold = self._fold_in(s, match_id, match.last_seq)
            for i, e in enumerate(events):
                seq = match.last_seq + i + 1
                problem = unknown_field_problem(fold.game, e.type, e.data)
                if problem is not None:
                    raise BadRequest(problem, seq=seq, type=e.type)
                try:
                    fold = fold.apply(Event(seq, e.type, e.data))
                except IllegalEvent as err:
                    raise _refusal(err, seq, e.type) from err
            head = s.exec(
                select(StoredEvent.hash).where(StoredEvent.match_id == match_id, StoredEvent.seq == match.last_seq)
            ).one()
            envelopes = chain_new(events, match.last_seq + 1, head, recorded_by)
            self._insert(s, match, fold, envelopes, [e.event_id for e in events])
            s.commit()
        self._publish(match_id, fold)
        return envelopes, False

    def import_log(self, lines: Sequence[ImportLine], recorded_by: str) -> dict[str, Any]:
        """A match file as a new match. Refused at the first bad line, naming it; nothing stored then.
        (No unknown-field check here, unlike `append`: see `recorder.logfile.prepare_import`.)"""
        return self.store_prepared(prepare_import(lines, recorded_by))

    def store_prepared(self, prepared: PreparedImport) -> dict[str, Any]:
        """Store a checked match file as a new match."""
        return self._store_new(prepared, [None] * len(prepared.envelopes))

    def _store_new(self, prepared: PreparedImport, event_ids: list[str | None]) -> dict[str, Any]:
        fold, envelopes = prepared.fold, prepared.envelopes
        match_id = uuid.uuid4().hex
        start = envelopes[0]["data"]
        with Session(self._writer) as s:
            match = _new_match_row(match_id, start)
            s.add(match)
            s.add_all(_seat_rows(match_id, start))
            s.flush()
            self._insert(s, match, fold, envelopes, event_ids)
            s.commit()
        self._publish(match_id, fold)
        return {"match_id": match_id, "seq": fold.seq}

    def _replayed(self, s: Session, match_id: str, events: Sequence[NewEvent]) -> list[dict[str, Any]] | None:
        ids = [e.event_id for e in events if e.event_id is not None]
        if not ids:
            return None
        if len(set(ids)) != len(ids):
            raise BadRequest("event_id values repeat within the batch")
        stored = {r.event_id: r for r in s.exec(select(StoredEvent).where(col(StoredEvent.event_id).in_(ids)))}
        if not stored:
            return None
        same = len(stored) == len(events) == len(ids) and all(
            (r := stored[e.event_id]).match_id == match_id and r.type == e.type and r.data == e.data
            for e in events
            if e.event_id is not None
        )
        if not same:
            used = next(i for i in ids if i in stored)
            raise Conflict(f"event_id {used!r} was already stored with different content or in another batch")
        return [stored[e.event_id].envelope() for e in events if e.event_id is not None]

    def _lock_match(self, s: Session, match_id: str) -> Match:
        if not is_match_id(match_id):  # never a match: not worth asking the database, which may refuse it
            raise MatchNotFound(f"no match {match_id!r}")
        match = s.exec(select(Match).where(Match.id == match_id).with_for_update()).first()
        if match is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return match

    def _insert(
        self, s: Session, match: Match, fold: Fold, envelopes: list[dict[str, Any]], event_ids: list[str | None]
    ) -> None:
        if s.get_bind().dialect.name == "postgresql":
            # Global positions are handed out in commit order: one appender at a time takes the next ones.
            s.connection().exec_driver_sql("LOCK TABLE events IN EXCLUSIVE MODE")
        position = s.exec(select(func.coalesce(func.max(StoredEvent.position), 0))).one()
        rows = []
        for env, event_id in zip(envelopes, event_ids, strict=True):
            position += 1
            rows.append(
                StoredEvent(
                    match_id=match.id,
                    seq=env["seq"],
                    position=position,
                    type=env["type"],
                    data=env["data"],
                    recorded_at=parse_time(env["recorded_at"]),
                    recorded_by=env["recorded_by"],
                    prev_hash=env["prev_hash"],
                    hash=env["hash"],
                    event_id=event_id,
                )
            )
        s.add_all(rows)
        sheet = fold.game.scores(fold.state) if fold.game else None
        match.last_seq = fold.seq
        match.status = "finished" if sheet and sheet.finished else "in_progress"
        match.winners = list(sheet.winners) if sheet and sheet.finished else []
        match.updated_at = utcnow()
        s.add(match)

    # -- the fold cache ----------------------------------------------------------------------------

    def _publish(self, match_id: str, fold: Fold) -> None:
        with self._cache_lock:
            current = self._cache.get(match_id)
            if current is None or current.seq <= fold.seq:
                self._cache[match_id] = fold
            self._cache.move_to_end(match_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _fold_in(self, s: Session, match_id: str, last_seq: int) -> Fold:
        """The match's fold up to `last_seq`: the cached one, extended by any events it has not seen."""
        with self._cache_lock:
            cached = self._cache.get(match_id)
        fold = cached if cached is not None and cached.seq <= last_seq else None
        have = fold.seq if fold is not None else 0
        if fold is None or have < last_seq:
            rows = s.exec(
                select(StoredEvent)
                .where(StoredEvent.match_id == match_id, StoredEvent.seq > have, StoredEvent.seq <= last_seq)
                .order_by(col(StoredEvent.seq))
            ).all()
            events = [Event(r.seq, r.type, r.data) for r in rows]
            fold = fold.extend(events) if fold is not None else timeline.fold(events)
            self._publish(match_id, fold)
        return fold

    # -- reading -----------------------------------------------------------------------------------

    def fold(self, match_id: str, at: int | None = None) -> Fold:
        """The match's fold (at `at`, if given): states at every seq, superseded events, scores."""
        with Session(self.engine) as s:
            match = self._match(s, match_id)
            fold = self._fold_in(s, match_id, match.last_seq)
        if at is not None:
            if not 1 <= at <= fold.seq:
                raise BadRequest(f"at must be a seq of this match, 1..{fold.seq}")
            fold = fold.at(at)
        return fold

    def _match(self, s: Session, match_id: str) -> Match:
        if not is_match_id(match_id):  # never a match: not worth asking the database, which may refuse it
            raise MatchNotFound(f"no match {match_id!r}")
        match = s.get(Match, match_id)
        if match is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return match

    def summary(self, match_id: str) -> dict[str, Any]:
        with Session(self.engine) as s:
            match = self._match(s, match_id)
            summary = _summary(match)
        summary["scores"] = scores_json(self.fold(match_id), match_id)
        return summary

    def list_matches(
        self,
        game: str | None = None,
        player: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[dict[str, Any]], int]:
        q = select(Match)
        if game:
            q = q.where(Match.game == game)
        if status:
            q = q.where(Match.status == status)
        if player:
            seats = select(MatchPlayer.match_id).where(MatchPlayer.player_id == player)
            q = q.where(col(Match.id).in_(seats))
        with Session(self.engine) as s:
            total = s.exec(select(func.count()).select_from(q.subquery())).one()
            rows = s.exec(q.order_by(col(Match.created_at).desc(), col(Match.id)).offset(offset).limit(limit)).all()
            return [_summary(m) for m in rows], int(total)

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

    def verify(self, match_id: str) -> ChainCheck:
        return check_chain(self.events(match_id))


def _summary(m: Match) -> dict[str, Any]:
    return {
        "match_id": m.id,
        "game": m.game,
        "players": readable_players(m.players),
        "status": m.status,
        "winners": readable_winners(m.winners),
        "seq": m.last_seq,
        "meta": readable_meta(m.meta),  # a row may hold anything: see recorder.readable
        "created_at": format_time(m.created_at),
        "updated_at": format_time(m.updated_at),
    }


def _new_match_row(match_id: str, data: dict[str, Any]) -> Match:
    players = [{"id": p["id"], "name": p.get("name") or p["id"]} for p in data["players"]]
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    return Match(id=match_id, game=data["game"], players=players, meta=meta or {})


def _seat_rows(match_id: str, data: dict[str, Any]) -> list[MatchPlayer]:
    return [
        MatchPlayer(match_id=match_id, seat=i, player_id=p["id"], name=p.get("name") or p["id"])
        for i, p in enumerate(data["players"])
    ]


__all__ = [
    "EventStore",
    "MAX_BATCH",
    # from recorder.logfile, for older callers
    "ImportLine",
    "NewEvent",
    "PreparedImport",
    "parse_jsonl",
    "prepare_import",
]
