"""Bearer tokens: a name (stored as events' recorded_by) and a role. Only the token's SHA-256 is kept.

`check_events` is the one role check on what is written: the HTTP API's append route and the
dashboard's scorepad both call it before appending."""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from recorder.errors import Forbidden
from recorder.log.file import format_time
from recorder.log.inputs import MAX_NAME_CHARS, check_string
from recorder.sql.engine import autocommit_driver, driver_rows, for_writing
from recorder.sql.tables import ApiToken, utcnow

ROLES = ("recorder", "referee", "admin")  # each may do what the ones before it may
EVENT_ROLES = {"rewind": "referee", "match_abandoned": "referee"}  # event types that need more than a recorder


@dataclass(frozen=True)
class Principal:
    name: str
    role: str

    def may(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_events(who: Principal, events: Iterable[Any]) -> None:
    """Forbidden, naming the role needed, unless `who` may write every one of `events` (mappings with a
    "type", or objects with a `.type`: NewEvent, the API's models). A rewind, marking a match abandoned and a
    note that resolves a correction request need a referee; anyone recording may ask for a correction."""
    for event in events:
        kind = event.get("type") if isinstance(event, Mapping) else getattr(event, "type", None)
        needed = EVENT_ROLES.get(kind) if isinstance(kind, str) else None
        if kind == "note":
            data = event.get("data") if isinstance(event, Mapping) else getattr(event, "data", None)
            if isinstance(data, Mapping) and data.get("resolves") is not None:
                needed, kind = "referee", "resolve a correction request"
        if needed is not None and not who.may(needed):
            raise Forbidden(f"only a {needed} may {kind}; token {who.name!r} is a {who.role}")


def create_token(engine: Engine, name: str, role: str) -> str:
    """A new token, returned once in the clear."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    if not name or len(name) > 128:
        raise ValueError("a token needs a name of 1 to 128 characters")
    check_string(name, "name", MAX_NAME_CHARS)  # NUL and lone surrogates: PostgreSQL cannot store them
    token = "sb_" + secrets.token_urlsafe(32)
    with Session(for_writing(engine)) as s:
        s.add(ApiToken(name=name, role=role, token_hash=token_digest(token)))
        s.commit()
    return token


# The lookup asked on every request: one statement on the driver's connection by the unique index on the
# digest, so a revocation counts from the next request, in every process, with nothing cached to clear. Run
# through SQLAlchemy's Core (a Connection, the statement's compiled-cache look-up, its parameters and result)
# it cost 80 µs, six times the query (and more in a busy server); an ORM query four times that again.
_LOOKUP = "SELECT name, role FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL"


def authenticate(engine: Engine, token: str) -> Principal | None:
    """The name and role of `token`, or None when it is unknown or revoked (asked of the database each time)."""
    row = driver_row(engine, _LOOKUP, (token_digest(token),))
    return Principal(row[0], row[1]) if row else None


def driver_row(engine: Engine, sql: str, params: tuple[Any, ...]) -> Any:
    """The first row of `sql` (a read, its parameters marked `?`) run on a pooled connection's driver, in
    autocommit (`recorder.sql.engine.autocommit_driver`: PostgreSQL 236 -> 51 µs a token lookup, wall), or None."""
    with autocommit_driver(engine) as driver:
        rows = driver_rows(driver, engine.dialect, sql, params)
    return rows[0] if rows else None


def list_tokens(engine: Engine) -> list[dict[str, object]]:
    with Session(engine) as s:
        rows = s.exec(select(ApiToken).order_by(col(ApiToken.id))).all()
        return [
            {"id": r.id, "name": r.name, "role": r.role, "revoked": r.revoked_at is not None} for r in rows
        ]


LOCAL_NAME = "local"  # the name of `serve --print-token`'s token, kept for it
LOCAL_FILE = "local-token"


def local_token(engine: Engine, directory: Path, rotate: bool = False) -> tuple[str, bool]:
    """The local recorder token `scorebook serve --print-token` shows: the one kept (0600) in
    `directory/local-token` while it still signs in here, else a new one, with every other active token
    named "local" revoked — restarts never pile up live tokens. `rotate` makes a new one in any case.
    Returns (token, made now)."""
    path = directory / LOCAL_FILE
    if not rotate and path.is_file():
        kept = path.read_text(encoding="utf-8").strip()
        if kept and authenticate(engine, kept) is not None:
            return kept, False
    token = create_token(engine, LOCAL_NAME, "recorder")
    with Session(for_writing(engine)) as s:
        for row in s.exec(select(ApiToken).where(ApiToken.name == LOCAL_NAME, col(ApiToken.revoked_at).is_(None))):
            if row.token_hash != token_digest(token):
                row.revoked_at = utcnow()
                s.add(row)
        s.commit()
    directory.mkdir(parents=True, exist_ok=True)
    temporary = directory / f".{LOCAL_FILE}.{secrets.token_hex(8)}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(token + "\n")
    os.replace(temporary, path)
    return token, True


def token_rows(engine: Engine) -> list[dict[str, Any]]:
    """Every token as a backup keeps it: name, role, SHA-256, when made and revoked (never the token)."""
    with Session(engine) as s:
        return [
            {"name": r.name, "role": r.role, "token_hash": r.token_hash, "created_at": format_time(r.created_at),
             "revoked_at": format_time(r.revoked_at) if r.revoked_at else None}
            for r in s.exec(select(ApiToken).order_by(col(ApiToken.id)))
        ]


def revoke_token(engine: Engine, token_id: int) -> bool:
    with Session(for_writing(engine)) as s:
        row = s.get(ApiToken, token_id)
        if row is None or row.revoked_at is not None:
            return False
        row.revoked_at = utcnow()
        s.add(row)
        s.commit()
        return True
