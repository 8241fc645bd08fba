"""Match logs as text, kept apart from storage (the way python-chess keeps `chess.pgn` apart from a
database): reading JSON Lines, writing them, FORMAT.md's hash chain, and checking a whole match file.

Pure: no database, no clock other than `utcnow` for envelopes that carry no time. `store.py` calls
into this module to chain new events and to check an import; the CLI uses it to verify a file.

- Reading: `parse_jsonl` turns text into `ImportLine`s (blank lines and `#` comments skipped; a line
  that is not a JSON object is refused by its number).
- Writing: `export_line` / `export_text` write envelopes in FORMAT.md's field order.
- The chain: `canonical_json`, `event_hash`, `GENESIS`, `format_time` / `parse_time`, `check_chain`.
- New events: `NewEvent` (type, data, event_id) and `chain_new`, their envelopes chained from a hash.
- Importing: `prepare_import` checks a file line by line — given hashes must verify, missing seq,
  prev_hash, hash and times are assigned — and folds it; the result is ready to be stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from projections.timeline import Fold, fold_dicts
from recorder.errors import BadRequest, ImportRefused
from recorder.log.inputs import MAX_DEPTH, check_event, check_recorded_by
from recorder.log.readable import dumps_strictly, one_shot, unreadable_reason

GENESIS = "0" * 64
# FORMAT.md's envelope, in its order; `hash` follows, over the canonical JSON of these.
ENVELOPE_KEYS = ("seq", "type", "data", "recorded_at", "recorded_by", "prev_hash")
EXPORT_KEYS = (*ENVELOPE_KEYS, "hash")


# -- the hash chain ---------------------------------------------------------------------------------


# One encoder for every hash: `json.dumps` with options builds a new encoder on each call, which cost a
# third of hashing a stored row.
_CANONICAL = one_shot(json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False))


def canonical_json(obj: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8 as is: the bytes an event's hash is taken over."""
    return _CANONICAL(obj).encode("utf-8")


def event_hash(envelope_without_hash: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(envelope_without_hash))).hexdigest()


def stored_event_hash(seq: int, type: str, data_text: str, recorded_at: str, recorded_by: str, prev_hash: str) -> str:
    """`event_hash` of an envelope whose data is given as its canonical JSON text (the store writes data so):
    the hashed bytes put together around it, without decoding and encoding the data again."""
    enc, spelled = _CANONICAL, _SPELLED
    body = (f'{{"data":{data_text},"prev_hash":{enc(prev_hash)},"recorded_at":{spelled(recorded_at)},'
            f'"recorded_by":{spelled(recorded_by)},"seq":{seq if seq.__class__ is int else enc(seq)},'
            f'"type":{spelled(type)}}}')
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


# The spelling of the fields that repeat from event to event (a batch's time, who recorded, the types): kept.
_SPELLED = lru_cache(maxsize=1024)(_CANONICAL)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def format_time(t: datetime) -> str:
    """UTC, millisecond precision, `Z`: the one spelling that is hashed."""
    # SQLite hands back naive datetimes; everything stored is UTC. isoformat truncates to milliseconds and
    # is a third of strftime's cost (every stored row is formatted to check its hash).
    if t.tzinfo is not None:
        t = t.astimezone(timezone.utc).replace(tzinfo=None)
    return t.isoformat(timespec="milliseconds") + "Z"


def stamped(now: datetime | None = None) -> tuple[datetime, str]:
    """`now` (timezone-aware; None: the clock's now) as an append stores it, in UTC cut to the millisecond, and
    its spelling: `parse_time(format_time(now))` and `format_time(now)`, with one conversion for both (an append's
    own work is a few tens of microseconds, and these were three)."""
    t = datetime.now(timezone.utc) if now is None else now.astimezone(timezone.utc)
    t = t.replace(microsecond=t.microsecond - t.microsecond % 1000)
    return t, t.isoformat(timespec="milliseconds")[:-6] + "Z"  # in UTC: without isoformat's "+00:00"


def parse_time(text: str) -> datetime:
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if t.tzinfo is None:
        raise ValueError(f"time {text!r} has no timezone")
    return t.astimezone(timezone.utc)


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str | None = None
    bag: str | None = None  # a committed bag's draws, checked (recorder/store/bag.py): what was proved

    def as_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True, "events": self.events, **({"bag": self.bag} if self.bag else {})}
        return {"ok": False, "events": self.events, "first_bad_seq": self.first_bad_seq, "reason": self.reason}


def link_problem(env: Mapping[str, Any], seq: int, prev: str) -> str | None:
    """Why `env` is not the chain's event `seq` after the hash `prev`, or None when it is."""
    if env.get("seq") != seq:
        return f"seq {env.get('seq')!r} where {seq} was expected"
    if env.get("prev_hash") != prev:
        return "prev_hash is not the previous event's hash"
    body = {k: v for k, v in env.items() if k != "hash"}
    if event_hash(body) != env.get("hash"):
        unreadable = unreadable_reason(env.get("data"))
        if unreadable is not None:  # the stored data could not be served, so its hash cannot be checked
            return f"the stored data cannot be read: {unreadable}"
        return "hash does not match the event's content"
    return None


def check_chain(envelopes: Iterable[Mapping[str, Any]]) -> ChainCheck:
    """Each envelope's seq follows, its prev_hash is the previous hash, its hash covers the rest."""
    prev, n = GENESIS, 0
    for n, env in enumerate(envelopes, start=1):
        problem = link_problem(env, n, prev)
        if problem is not None:
            return ChainCheck(False, n, n, problem)
        prev = env["hash"]
    return ChainCheck(True, n)


# -- new events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its type, its data, and an optional client id that makes retries safe."""

    type: str
    data: dict[str, Any]
    event_id: str | None = None

    @staticmethod
    def parse(obj: Any, where: str = "event") -> NewEvent:
        """From `{"type", "data", "event_id"?}`; BadRequest names `where` when it is malformed."""
        if isinstance(obj, NewEvent):
            return obj
        if not isinstance(obj, Mapping):
            raise BadRequest(f"{where} must be a JSON object")
        if not isinstance(obj.get("type"), str) or not obj["type"]:
            raise BadRequest(f"{where}: type must be a non-empty string")
        data = obj.get("data", {})
        if not isinstance(data, dict):
            raise BadRequest(f"{where}: data must be a JSON object")
        event_id = obj.get("event_id")
        if event_id is not None and (not isinstance(event_id, str) or not 0 < len(event_id) <= 128):
            raise BadRequest(f"{where}: event_id must be a string of 1 to 128 characters")
        return NewEvent(obj["type"], data, event_id)


def chain_new(
    events: Sequence[NewEvent], first_seq: int, prev: str, recorded_by: str, now: datetime | None = None
) -> list[dict[str, Any]]:
    """Envelopes for new events, numbered from `first_seq`, hash-chained from `prev`, all stamped `now`."""
    return chained(events, first_seq, prev, recorded_by, now)[0]


def chained(
    events: Sequence[NewEvent], first_seq: int, prev: str, recorded_by: str, now: datetime | None = None,
    texts: Sequence[str] | None = None, spelled: str | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """`chain_new`'s envelopes, and beside them each event's data as the store writes it: the canonical text
    its hash was taken over, encoded once for both (the store then stores it as it is). `texts`: those texts,
    when the caller has them already (`dumps_strictly` of each event's data); `spelled`: `format_time(now)`, when
    the caller has it (`stamped`)."""
    at = spelled or format_time(now or utcnow())
    if texts is None:
        texts = [dumps_strictly(e.data) for e in events]
    envelopes, stored = [], []
    for seq, e, text in zip(range(first_seq, first_seq + len(events)), events, texts, strict=True):
        hash = stored_event_hash(seq, e.type, text, at, recorded_by, prev)
        envelopes.append({"seq": seq, "type": e.type, "data": e.data, "recorded_at": at,
                          "recorded_by": recorded_by, "prev_hash": prev, "hash": hash})
        stored.append(text)
        prev = hash
    return envelopes, stored


# -- reading ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportLine:
    """One event line of a match file, with its line number in the file."""

    line: int
    obj: dict[str, Any]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_jsonl(text: str) -> list[ImportLine]:
    """JSON Lines, `#` comments and blank lines skipped; a line that is not JSON is refused by number
    (NaN and Infinity, which Python's json would take, too)."""
    items = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = json.loads(stripped, parse_constant=_refuse_constant)
        except json.JSONDecodeError as e:
            raise ImportRefused(f"not JSON ({e.msg})", number, malformed=True) from e
        except RecursionError as e:  # far deeper than MAX_DEPTH: Python's parser gives up
            raise ImportRefused(f"nested deeper than {MAX_DEPTH} levels (the limit)", number, malformed=True) from e
        except ValueError as e:  # NaN, or an integer of thousands of digits (past Python's int_max_str_digits)
            why = "an integer too long to read" if "integer string conversion" in str(e) else str(e)[:200]
            raise ImportRefused(f"not JSON ({why})", number, malformed=True) from e
        if not isinstance(obj, dict):
            raise ImportRefused("each line must be a JSON object", number, malformed=True)
        items.append(ImportLine(number, obj))
    return items


def import_lines(objs: Iterable[Mapping[str, Any]]) -> list[ImportLine]:
    """Import-form events already in memory (`{"type", "data"}` or whole envelopes), numbered 1, 2, 3 …"""
    return [ImportLine(n, dict(obj)) for n, obj in enumerate(objs, start=1)]


# -- writing ----------------------------------------------------------------------------------------


def export_line(envelope: Mapping[str, Any]) -> str:
    """One envelope as a JSON line in FORMAT.md's field order (the hash does not depend on the order:
    it is taken over canonical JSON)."""
    ordered = {k: envelope[k] for k in EXPORT_KEYS}
    return json.dumps(ordered, ensure_ascii=False) + "\n"


def export_lines(envelopes: Iterable[Mapping[str, Any]]) -> list[str]:
    return [export_line(env) for env in envelopes]


def export_text(envelopes: Iterable[Mapping[str, Any]]) -> str:
    return "".join(export_lines(envelopes))


# -- importing --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreparedImport:
    """A match file checked line by line (pure: no database), ready to be stored."""

    fold: Fold[Any]
    envelopes: list[dict[str, Any]]
    # Each event's data as the store writes it (the canonical text its hash covers), when known: stored as it
    # is, not encoded again. None: the store encodes the envelopes' data itself.
    texts: list[str] | None = None
    # When `fold` holds only its last state (`prepare_import`'s `snapshot_every`): the folds at the seqs where
    # the store takes snapshots. None: `fold` holds every state.
    marks: dict[int, Fold[Any]] | None = None

    def fold_at(self, seq: int) -> Fold[Any]:
        """The fold right after `seq` (folded again from the envelopes if `fold` does not hold it)."""
        if self.marks is not None and seq in self.marks:
            return self.marks[seq]
        if self.fold.holds(seq):
            return self.fold.at(seq)
        return fold_dicts(self.envelopes[:seq])  # the envelopes' seqs are 1, 2, 3 …


def _import_envelope(item: ImportLine, n: int, prev: str, now: str, recorded_by: str) -> tuple[dict[str, Any], str]:
    """The stored envelope for one import line, and its data's stored text: given hashes must verify, missing
    parts are assigned."""
    obj, line = item.obj, item.line
    if (type(obj) is dict and len(obj) == 2 and type(type_ := obj.get("type")) is str and type_
            and type(data := obj.get("data")) is dict):
        # The usual line, {"type", "data"}: checked as below, without building a NewEvent on the way.
        try:
            check_event(type_, data)
        except BadRequest as err:
            raise ImportRefused(err.message, line, malformed=True) from err
        text = dumps_strictly(data)
        return ({"seq": n, "type": type_, "data": data, "recorded_at": now, "recorded_by": recorded_by,
                 "prev_hash": prev, "hash": stored_event_hash(n, type_, text, now, recorded_by, prev)}, text)
    try:
        e = NewEvent.parse(obj, "event")
        check_event(e.type, e.data, e.event_id)
        if isinstance(obj.get("recorded_by"), str):
            check_recorded_by(obj["recorded_by"])
    except BadRequest as err:
        raise ImportRefused(err.message, line, malformed=True) from err
    if "seq" in obj and obj["seq"] != n:
        raise ImportRefused(f"seq {obj['seq']!r} where {n} was expected", line)
    if "prev_hash" in obj and obj["prev_hash"] != prev:
        raise ImportRefused("prev_hash is not the previous event's hash", line)
    if "hash" not in obj:
        at = obj.get("recorded_at")
        try:
            at = format_time(parse_time(at)) if isinstance(at, str) else now
        except ValueError as err:
            raise ImportRefused(f"recorded_at: {err}", line, malformed=True) from err
        by: str = obj["recorded_by"] if isinstance(obj.get("recorded_by"), str) else recorded_by
        text = dumps_strictly(e.data)
        env = {"seq": n, "type": e.type, "data": e.data, "recorded_at": at, "recorded_by": by, "prev_hash": prev,
               "hash": stored_event_hash(n, e.type, text, at, by, prev)}
        return env, text
    # A hashed line is stored exactly as given, so that export → import reproduces every hash.
    keys = set(obj) - {"hash", "event_id"}
    if keys != set(ENVELOPE_KEYS):
        missing = sorted(set(ENVELOPE_KEYS) - keys) or sorted(keys - set(ENVELOPE_KEYS))
        raise ImportRefused(f"a line with a hash must carry exactly {', '.join(ENVELOPE_KEYS)} ({missing})", line)
    body = {k: obj[k] for k in ENVELOPE_KEYS}
    if event_hash(body) != obj["hash"]:
        raise ImportRefused("hash does not match the line's content", line)
    try:
        canonical_time = format_time(parse_time(obj["recorded_at"]))
    except (ValueError, TypeError, AttributeError) as err:
        raise ImportRefused(f"recorded_at: {err}", line, malformed=True) from err
    if canonical_time != obj["recorded_at"] or not isinstance(obj["recorded_by"], str):
        raise ImportRefused("recorded_at must read YYYY-MM-DDTHH:MM:SS.mmmZ and recorded_by be a string", line)
    return {**body, "hash": obj["hash"]}, dumps_strictly(body["data"])


def prepare_import(lines: Sequence[ImportLine], recorded_by: str, now: datetime | None = None,
                   snapshot_every: int | None = None) -> PreparedImport:
    """Check a match file and fold it; ImportRefused names the first bad line (nothing is stored then).
    `snapshot_every` (the store's): the fold keeps only its last state and the states at the multiples of it
    (`Fold.run`), for a file that is only stored; None: every state, for a caller that replays the fold.

    Lines with a `hash` are kept exactly (seq, prev_hash and hash must chain from GENESIS); lines
    without one get seq, prev_hash, hash, `recorded_at` (now, unless given) and `recorded_by` (the
    importer, unless given). Every event must be legal in the game. Imports are not checked for
    unknown fields in an event's data (live appends are): an old log may carry fields since dropped.
    """
    if not lines:
        raise ImportRefused("the file holds no events", 0, malformed=True)
    check_recorded_by(recorded_by)
    envelopes: list[dict[str, Any]] = []
    texts: list[str] = []
    prev = GENESIS
    at = format_time(now or utcnow())
    refused: ImportRefused | None = None
    events: list[Event] = []
    for n, item in enumerate(lines, start=1):
        try:
            env, text = _import_envelope(item, n, prev, at, recorded_by)
        except ImportRefused as e:
            refused = e  # reported unless the rules refuse an earlier line: the first bad line is named
            break
        envelopes.append(env)
        texts.append(text)
        events.append(Event(n, env["type"], env["data"]))
        prev = env["hash"]
    # The rules, over every envelope at once (`Fold.extend`, or `Fold.run`); on a refusal, again event by event to
    # name the line.
    marks: dict[int, Fold[Any]] | None = None
    try:
        fold = Fold.begin(events[0]) if events else None
        if fold is not None and snapshot_every is None:
            fold = fold.extend(events[1:])
        elif fold is not None and snapshot_every is not None:
            every = range(snapshot_every, len(events) + 1, snapshot_every) if snapshot_every > 0 else ()
            fold, marks = fold.run(events[1:], every)
    except IllegalEvent:
        _refuse_first_illegal(events, lines)
        raise
    if refused is not None:
        raise refused
    assert fold is not None  # `lines` is not empty
    return PreparedImport(fold, envelopes, texts, marks)


def _refuse_first_illegal(events: Sequence[Event], lines: Sequence[ImportLine]) -> None:
    """ImportRefused naming the first of `events` (from `lines`, in order) the rules refuse."""
    fold: Fold[Any] | None = None
    for event, item in zip(events, lines, strict=False):
        try:
            fold = fold.apply(event) if fold is not None else Fold.begin(event)
        except IllegalEvent as e:
            malformed = isinstance(e, UnknownEventType)
            raise ImportRefused(f"{event.type} refused: {e.reason}", item.line, malformed=malformed) from e


__all__ = [
    "GENESIS",
    "ENVELOPE_KEYS",
    "EXPORT_KEYS",
    "ChainCheck",
    "ImportLine",
    "NewEvent",
    "PreparedImport",
    "canonical_json",
    "chained",
    "stored_event_hash",
    "chain_new",
    "check_chain",
    "event_hash",
    "export_line",
    "export_lines",
    "export_text",
    "format_time",
    "import_lines",
    "link_problem",
    "parse_jsonl",
    "parse_time",
    "prepare_import",
    "utcnow",
]
