"""Bearer tokens: a name (stored as events' recorded_by) and a role. Only the token's SHA-256 is kept."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from recorder.db import for_writing
from recorder.tables import ApiToken, utcnow

ROLES = ("recorder", "referee", "admin")  # each may do what the ones before it may


@dataclass(frozen=True)
class Principal:
    name: str
    role: str

    def may(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(engine: Engine, name: str, role: str) -> str:
    """A new token, returned once in the clear."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    if not name or len(name) > 128:
        raise ValueError("a token needs a name of 1 to 128 characters")
    token = "sb_" + secrets.token_urlsafe(32)
    with Session(for_writing(engine)) as s:
        s.add(ApiToken(name=name, role=role, token_hash=_digest(token)))
        s.commit()
    return token


def authenticate(engine: Engine, token: str) -> Principal | None:
    with Session(engine) as s:
        row = s.exec(
            select(ApiToken).where(ApiToken.token_hash == _digest(token), col(ApiToken.revoked_at).is_(None))
        ).first()
        return Principal(row.name, row.role) if row else None


def list_tokens(engine: Engine) -> list[dict[str, object]]:
    with Session(engine) as s:
        rows = s.exec(select(ApiToken).order_by(col(ApiToken.id))).all()
        return [
            {"id": r.id, "name": r.name, "role": r.role, "revoked": r.revoked_at is not None} for r in rows
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
