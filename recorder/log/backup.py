"""The backup file: every match of a database (its id, when it was created, its events with their hashes and
`event_id`s, how it was imported) and, if asked, its tokens (only their SHA-256) — as JSON Lines.

Pure, like `recorder.log.file`: no database. `EventStore.backup_matches` reads what goes in, and
`EventStore.restore` stores what comes out (ids and hashes kept, nothing stored twice).

    {"scorebook_backup": 1, "created_at": "2026-12-01T10:00:00.000Z", "with_tokens": false}
    {"match": {"id": "…", "created_at": "…"}}
    {"event": {"match_id": "…", "seq": 1, "type": "match_started", …, "hash": "…", "event_id": null}}
    {"import": {"match_id": "…", "imported_by": "…", "imported_at": "…", "file_name": "…", …}}
    {"token": {"name": "…", "role": "…", "token_hash": "…", "created_at": "…", "revoked_at": null}}
    {"end": {"matches": 1, "events": 1, "tokens": 0}}

A match's line comes before its events and imports; the last line counts what came before it, so that a
file cut short is refused rather than restored in part.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from recorder.errors import BadRequest
from recorder.log.file import EXPORT_KEYS, format_time, utcnow

VERSION = 1
IMPORT_KEYS = ("imported_by", "imported_at", "file_name", "digest", "first_seq", "last_seq")
TOKEN_KEYS = ("name", "role", "token_hash", "created_at", "revoked_at")


@dataclass
class BackupMatch:
    id: str
    created_at: str
    envelopes: list[dict[str, Any]] = field(default_factory=list)  # FORMAT.md's envelopes, hashes included
    event_ids: list[str | None] = field(default_factory=list)
    imports: list[dict[str, Any]] = field(default_factory=list)  # IMPORT_KEYS


@dataclass
class Backup:
    created_at: str
    matches: list[BackupMatch]
    tokens: list[dict[str, Any]]  # TOKEN_KEYS

    @property
    def events(self) -> int:
        return sum(len(m.envelopes) for m in self.matches)


def _line(kind: str, body: Mapping[str, Any]) -> str:
    return json.dumps({kind: dict(body)}, ensure_ascii=False, allow_nan=False) + "\n"


def backup_lines(matches: Iterable[BackupMatch], tokens: Iterable[Mapping[str, Any]] | None) -> Iterator[str]:
    """The file, line by line (`tokens` None: a backup without them)."""
    yield json.dumps({"scorebook_backup": VERSION, "created_at": format_time(utcnow()),
                      "with_tokens": tokens is not None}) + "\n"
    counts = {"matches": 0, "events": 0, "tokens": 0}
    for m in matches:
        counts["matches"] += 1
        yield _line("match", {"id": m.id, "created_at": m.created_at})
        for env, event_id in zip(m.envelopes, m.event_ids, strict=True):
            counts["events"] += 1
            yield _line("event", {"match_id": m.id, **{k: env[k] for k in EXPORT_KEYS}, "event_id": event_id})
        for record in m.imports:
            yield _line("import", {"match_id": m.id, **{k: record[k] for k in IMPORT_KEYS}})
    for token in tokens or ():
        counts["tokens"] += 1
        yield _line("token", {k: token[k] for k in TOKEN_KEYS})
    yield _line("end", counts)


def read_backup(text: str) -> Backup:
    """A backup file, checked for shape (BadRequest names the line); the events are checked on restore."""
    rows = text.splitlines()
    if not rows:
        raise BadRequest("the backup file is empty")
    try:
        header = json.loads(rows[0])
    except ValueError as e:
        raise BadRequest("line 1: not a Scorebook backup (not JSON)") from e
    if not isinstance(header, dict) or header.get("scorebook_backup") != VERSION:
        raise BadRequest(f"line 1: not a Scorebook backup of version {VERSION}")
    matches: dict[str, BackupMatch] = {}
    tokens: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    for number, raw in enumerate(rows[1:], start=2):
        if not raw.strip():
            continue
        if end is not None:
            raise BadRequest(f"line {number}: nothing may follow the end line")
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError) as e:
            raise BadRequest(f"line {number}: not JSON") from e
        if not isinstance(obj, dict) or len(obj) != 1 or not isinstance(next(iter(obj.values())), dict):
            raise BadRequest(f"line {number}: each line is one of match, event, import, token or end")
        kind, body = next(iter(obj.items()))
        if kind == "match":
            if not isinstance(body.get("id"), str) or not isinstance(body.get("created_at"), str):
                raise BadRequest(f"line {number}: a match needs an id and created_at")
            if body["id"] in matches:
                raise BadRequest(f"line {number}: match {body['id']} comes twice")
            matches[body["id"]] = BackupMatch(body["id"], body["created_at"])
        elif kind in ("event", "import"):
            owner = matches.get(body.get("match_id"))  # type: ignore[arg-type]
            if owner is None:
                raise BadRequest(f"line {number}: an {kind} of a match not listed before it")
            if kind == "event":
                missing = [k for k in EXPORT_KEYS if k not in body]
                if missing:
                    raise BadRequest(f"line {number}: the event lacks {', '.join(missing)}")
                owner.envelopes.append({k: body[k] for k in EXPORT_KEYS})
                owner.event_ids.append(body.get("event_id"))
            else:
                owner.imports.append({k: body.get(k) for k in IMPORT_KEYS})
        elif kind == "token":
            tokens.append({k: body.get(k) for k in TOKEN_KEYS})
        elif kind == "end":
            end = body
        else:
            raise BadRequest(f"line {number}: unknown kind {kind!r}")
    backup = Backup(str(header.get("created_at", "")), list(matches.values()), tokens)
    counted = {"matches": len(backup.matches), "events": backup.events, "tokens": len(tokens)}
    if end is None:
        raise BadRequest("the backup file is cut short: it has no end line")
    if {k: end.get(k) for k in counted} != counted:
        raise BadRequest(f"the backup file does not hold what its end line counts ({end} against {counted})")
    return backup
