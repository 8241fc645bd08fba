"""Sign-in sessions: a token is exchanged once per device for a signed, expiring session cookie.

The cookie (`SESSION_COOKIE`) carries a random session id signed with the server's secret (HMAC-SHA256,
itsdangerous). The `sessions` table holds the id, the token it stands for, when it expires and when it
was ended; the token itself is never stored in the clear nor put in the cookie. A session is good while
its signature checks, it has not expired or been ended, and its token is not revoked — all checked on
every request (`Sessions.principal`).

The secret is $SCOREBOOK_SECRET, else the file `session-secret` in the data directory (the SQLite
file's folder, else `var/`), made on first use with mode 0600 and kept. A session lasts
$SCOREBOOK_SESSION_HOURS hours (12 by default).

This module imports no web framework: the facade (and so the CLI) loads it.
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from itsdangerous import BadData, Signer
from sqlalchemy import update
from sqlalchemy.engine import URL, Engine, make_url
from sqlmodel import Session, col, select

from recorder.access.auth import Principal, driver_row, token_digest
from recorder.errors import Unauthorized
from recorder.sql.engine import for_writing
from recorder.sql.tables import ApiToken, SignInSession, utcnow

SESSION_COOKIE = "scorebook_session"
SECRET_ENV = "SCOREBOOK_SECRET"
HOURS_ENV = "SCOREBOOK_SESSION_HOURS"
SECRET_FILE = "session-secret"
DEFAULT_HOURS = 12.0
DEFAULT_DATA_DIR = Path("var")
DEFAULT_NEXT = "/record"
_SALT = "scorebook.session"
_MAX_COOKIE = 256  # a signed id is 43 + 1 + 43 characters; anything much longer is not ours


@dataclass(frozen=True)
class SignedIn:
    """A new session: the cookie's value, who it signs in, when it ends, and the cookie's Max-Age."""

    cookie: str
    principal: Principal
    expires_at: datetime
    max_age: int


# -- configuration ---------------------------------------------------------------------------------


def data_dir(url: URL | str) -> Path:
    """Where a database keeps its files: a SQLite file's folder, else `var/` (PostgreSQL, in-memory SQLite)."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() == "sqlite" and database and database != ":memory:" and not database.startswith(
        "file:"
    ):
        return Path(database).parent
    return DEFAULT_DATA_DIR


def load_secret(directory: Path) -> str:
    """$SCOREBOOK_SECRET, else `directory/session-secret`, made (0600) when there is none yet.

    Two processes starting at once agree: the file is written whole under another name and linked
    into place, so whoever links second reads the first one's secret."""
    configured = os.environ.get(SECRET_ENV, "").strip()
    if configured:
        return configured
    path = directory / SECRET_FILE
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        temporary = directory / f".{SECRET_FILE}.{secrets.token_hex(8)}"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_urlsafe(48) + "\n")
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # another process made it first: use theirs
        finally:
            temporary.unlink(missing_ok=True)
    secret = path.read_text(encoding="utf-8").strip()
    if not secret:
        raise ValueError(f"{path} is empty: delete it (a new secret is made) or set {SECRET_ENV}")
    return secret


def lifetime_hours() -> float:
    """$SCOREBOOK_SESSION_HOURS, else 12."""
    raw = os.environ.get(HOURS_ENV, "").strip()
    if not raw:
        return DEFAULT_HOURS
    try:
        hours = float(raw)
    except ValueError:
        hours = math.nan
    if not math.isfinite(hours) or hours <= 0:
        raise ValueError(f"{HOURS_ENV} must be a positive number of hours, not {raw!r}")
    return hours


def safe_next(target: str | None, default: str = DEFAULT_NEXT) -> str:
    """`target` if it is a path on this site ("/record/abc?x=1"), else `default`: never another site
    ("https://evil.example", "//evil.example", "/\\evil.example") nor a scheme ("javascript:")."""
    if not target or len(target) > 2000 or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 0x21 or ord(c) == 0x7F for c in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


def login_url(next_path: str | None = None) -> str:
    """The sign-in page, coming back to `next_path` (a local path) afterwards: "/login?next=%2Frecord%2Fabc"."""
    return "/login?next=" + quote(safe_next(next_path), safe="")


# Who a session stands for, asked on every request with a cookie: an open session of a token not revoked. On the
# driver's connection, as `auth.authenticate` (17 µs a check; the ORM's join of the two rows cost 272).
_PRINCIPAL = ("SELECT t.name, t.role, s.expires_at FROM sessions s JOIN api_tokens t ON t.id = s.token_id "
              "WHERE s.id = ? AND s.ended_at IS NULL AND t.revoked_at IS NULL")


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


# -- sessions ----------------------------------------------------------------------------------------


class Sessions:
    """Sign in, check and end sessions on one database. `secret` and `hours` default to the environment
    (and the secret file), read when this object is made."""

    def __init__(self, engine: Engine, secret: str | None = None, hours: float | None = None) -> None:
        self.engine = engine
        self.lifetime = timedelta(hours=lifetime_hours() if hours is None else hours)
        if self.lifetime <= timedelta(0):
            raise ValueError("a session must last a positive time")
        key = secret if secret is not None else load_secret(data_dir(engine.url))
        if not key:
            raise ValueError("the session secret is empty")
        self._signer = Signer(key, salt=_SALT, digest_method=hashlib.sha256)
        # The driver's value of the expiry as the column reads it (SQLite's text into a datetime).
        read = SignInSession.__table__.c.expires_at.type._cached_result_processor(  # type: ignore[attr-defined]
            engine.dialect, None)
        self._read_time: Callable[[Any], datetime] = read or (lambda moment: moment)

    @property
    def max_age(self) -> int:
        """The cookie's Max-Age in seconds: the session's lifetime."""
        return max(1, int(self.lifetime.total_seconds()))

    def sign_in(self, token: str) -> SignedIn:
        """A new session for `token` (surrounding blanks ignored); Unauthorized if it is unknown or revoked."""
        token = token.strip() if isinstance(token, str) else ""
        if not token:
            raise Unauthorized("no token given")
        with Session(for_writing(self.engine)) as s:
            row = s.exec(
                select(ApiToken).where(ApiToken.token_hash == token_digest(token), col(ApiToken.revoked_at).is_(None))
            ).first()
            if row is None or row.id is None:
                raise Unauthorized("unknown or revoked token")
            now = utcnow()
            session_id = secrets.token_urlsafe(32)
            expires_at = now + self.lifetime
            s.add(SignInSession(id=session_id, token_id=row.id, created_at=now, expires_at=expires_at))
            who = Principal(row.name, row.role)
            s.commit()
        cookie = self._signer.sign(session_id).decode("ascii")
        return SignedIn(cookie, who, expires_at, self.max_age)

    def _session_id(self, cookie: str | None) -> str | None:
        if not cookie or not isinstance(cookie, str) or len(cookie) > _MAX_COOKIE:
            return None
        try:
            return self._signer.unsign(cookie).decode("ascii")
        except (BadData, UnicodeError):
            return None

    def principal(self, cookie: str | None) -> Principal | None:
        """Who the cookie signs in; None when it is missing or not signed with this secret, or its session
        has expired or ended, or its token was revoked."""
        session_id = self._session_id(cookie)
        if session_id is None:
            return None
        found = driver_row(self.engine, _PRINCIPAL, (session_id,))
        if found is None:
            return None
        name, role, expires_at = found
        if _aware(self._read_time(expires_at)) <= utcnow():
            return None
        return Principal(name, role)

    def sign_out(self, cookie: str | None) -> bool:
        """End the cookie's session; False when there was no such session still open."""
        session_id = self._session_id(cookie)
        if session_id is None:
            return False
        with Session(for_writing(self.engine)) as s:
            result = s.execute(
                update(SignInSession)
                .where(col(SignInSession.id) == session_id, col(SignInSession.ended_at).is_(None))
                .values(ended_at=utcnow())
            )
            s.commit()
            return bool(result.rowcount)  # type: ignore[attr-defined]
