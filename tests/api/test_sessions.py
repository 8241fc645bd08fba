"""Sign-in: a token exchanged at /login for a signed, expiring session cookie, on each backend.

The cookie's attributes, refusals (a bad token, a cookie after sign-out, after its token is revoked,
expired, tampered with, signed with another secret), the secret file, the `next` redirect, no token in
any page or log line, the role check shared by the API and the pad, and the migration of the table.
"""

from __future__ import annotations

import hashlib
import logging
import socket
import stat
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from itsdangerous import Signer
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from recorder.access import sessions as sessions_module
from recorder.access.auth import Principal, check_events
from recorder.access.sessions import (
    HOURS_ENV,
    SECRET_ENV,
    SECRET_FILE,
    SESSION_COOKIE,
    Sessions,
    data_dir,
    load_secret,
    login_url,
    safe_next,
)
from recorder.api import create_api
from recorder.errors import Forbidden, Unauthorized
from recorder.facade import Scorebook
from recorder.log.file import NewEvent
from recorder.sql.migrate import current_revisions, downgrade, head_revisions, upgrade
from tests.support.logs import START, round_start
from tests.support.paths import ROOT

SECRET = "test-secret-for-the-session-cookies"


@pytest.fixture(autouse=True)
def _no_configured_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment of the machine running the tests must not decide what is tested."""
    monkeypatch.delenv(SECRET_ENV, raising=False)
    monkeypatch.delenv(HOURS_ENV, raising=False)


@pytest.fixture
def sb(engine: Engine) -> Scorebook:
    return Scorebook.from_engine(engine, session_secret=SECRET)


@pytest.fixture
def token(sb: Scorebook) -> str:
    return sb.create_token("Ann at table 3", "recorder")


@pytest.fixture
def client(sb: Scorebook) -> TestClient:
    return TestClient(create_api(sb))


def set_cookie_attributes(response: httpx.Response) -> dict[str, str]:
    """The Set-Cookie header of `response` for the session cookie, as {attribute (lowercase): value}."""
    headers = [h for h in response.headers.get_list("set-cookie") if h.startswith(f"{SESSION_COOKIE}=")]
    assert len(headers) == 1, response.headers
    first, *attributes = [part.strip() for part in headers[0].split(";")]
    out = {"value": first.split("=", 1)[1]}
    for attribute in attributes:
        name, _, value = attribute.partition("=")
        out[name.lower()] = value
    return out


def sign_in(client: TestClient, token: str, next_path: str | None = None) -> httpx.Response:
    form = {"token": token} if next_path is None else {"token": token, "next": next_path}
    return client.post("/login", data=form, follow_redirects=False)


# -- the cookie ------------------------------------------------------------------------------------


def test_login_sets_an_httponly_strict_signed_cookie_for_the_sessions_lifetime(
    client: TestClient, sb: Scorebook, token: str
) -> None:
    r = sign_in(client, token)
    assert r.status_code == 303 and r.headers["location"] == "/record"
    cookie = set_cookie_attributes(r)
    assert cookie["max-age"] == str(12 * 3600)
    assert cookie["path"] == "/" and cookie["samesite"].lower() == "strict" and "httponly" in cookie
    assert "secure" not in cookie  # plain http: a Secure cookie would never come back
    assert "domain" not in cookie
    value = cookie["value"]
    assert token not in value and value != token
    assert sb.session_principal(value) == Principal("Ann at table 3", "recorder")
    assert client.cookies.get(SESSION_COOKIE) == value


def test_over_https_the_cookie_is_secure(sb: Scorebook, token: str) -> None:
    client = TestClient(create_api(sb), base_url="https://testserver")
    cookie = set_cookie_attributes(sign_in(client, token))
    assert "secure" in cookie and "httponly" in cookie and cookie["samesite"].lower() == "strict"
    out = set_cookie_attributes(client.post("/logout", follow_redirects=False))
    assert "secure" in out and out["max-age"] == "0"


def test_the_lifetime_comes_from_the_environment(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOURS_ENV, "0.5")
    sb = Scorebook.from_engine(engine, session_secret=SECRET)
    token = sb.create_token("desk", "recorder")
    before = sessions_module.utcnow()
    signed = sb.sign_in(token)
    assert signed.max_age == 1800
    assert timedelta(minutes=29) < signed.expires_at - before <= timedelta(minutes=30, seconds=5)
    r = sign_in(TestClient(create_api(sb)), token)
    assert set_cookie_attributes(r)["max-age"] == "1800"
    for bad in ("abc", "0", "-2", "nan", "inf"):
        monkeypatch.setenv(HOURS_ENV, bad)
        with pytest.raises(ValueError, match=HOURS_ENV):
            Scorebook.from_engine(engine, session_secret=SECRET).sign_in(token)


# -- refusals ----------------------------------------------------------------------------------------


def test_a_wrong_token_is_a_401_page_and_sets_no_cookie(client: TestClient, sb: Scorebook, token: str) -> None:
    with pytest.raises(Unauthorized):
        sb.sign_in("sb_not-a-token")
    with pytest.raises(Unauthorized):
        sb.sign_in("   ")
    r = sign_in(client, "sb_not-a-token", "/record/abc")
    assert r.status_code == 401 and "set-cookie" not in r.headers
    assert r.headers["content-type"].startswith("text/html")
    assert "unknown or has been revoked" in r.text and "sb_not-a-token" not in r.text
    assert 'value="/record/abc"' in r.text  # the form keeps where to go, never the token
    r = sign_in(client, "")
    assert r.status_code == 400 and "set-cookie" not in r.headers and "Enter a token" in r.text
    r = client.post("/login", json={"token": token}, follow_redirects=False)
    assert r.status_code == 400 and "set-cookie" not in r.headers
    assert token not in r.text
    assert client.cookies.get(SESSION_COOKIE) is None


def test_a_token_with_blanks_around_it_signs_in(client: TestClient, sb: Scorebook, token: str) -> None:
    r = sign_in(client, f"  {token}\n")
    assert r.status_code == 303
    assert sb.session_principal(set_cookie_attributes(r)["value"]) is not None


def test_logout_ends_the_session_on_the_server_and_clears_the_cookie(
    client: TestClient, sb: Scorebook, token: str
) -> None:
    cookie = set_cookie_attributes(sign_in(client, token))["value"]
    page = client.get("/logout")  # a GET only shows the button
    assert page.status_code == 200 and 'action="/logout"' in page.text and 'method="post"' in page.text
    assert "Ann at table 3" in page.text
    assert sb.session_principal(cookie) is not None
    r = client.post("/logout", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    cleared = set_cookie_attributes(r)
    assert cleared["max-age"] == "0" and cleared["value"] in ('""', "")
    assert cleared["path"] == "/" and cleared["samesite"].lower() == "strict" and "httponly" in cleared
    assert sb.session_principal(cookie) is None
    # The old cookie, replayed (say, copied before the sign-out), is refused too.
    replay = TestClient(create_api(sb), cookies={SESSION_COOKIE: cookie})
    assert "signed-in" not in replay.get("/login").text
    assert "not signed in" in replay.get("/logout").text
    assert sb.sign_out(cookie) is False
    assert client.post("/logout", follow_redirects=False).status_code == 303  # signed out already: fine


def test_a_revoked_tokens_sessions_are_refused(client: TestClient, sb: Scorebook, token: str) -> None:
    cookie = set_cookie_attributes(sign_in(client, token))["value"]
    other = sb.sign_in(sb.create_token("Bo", "referee"))
    assert "Ann at table 3" in client.get("/login").text
    token_id = next(t["id"] for t in sb.list_tokens() if t["name"] == "Ann at table 3")
    assert sb.revoke_token(token_id)
    assert sb.session_principal(cookie) is None  # checked on every call, nothing cached
    assert "signed-in" not in client.get("/login").text
    with pytest.raises(Unauthorized):
        sb.sign_in(token)
    assert sign_in(client, token).status_code == 401
    assert sb.session_principal(other.cookie) == Principal("Bo", "referee")


def test_an_expired_session_is_refused(sb: Scorebook, token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    signed = sb.sign_in(token)
    now = sessions_module.utcnow()
    monkeypatch.setattr(sessions_module, "utcnow", lambda: now + timedelta(hours=11, minutes=59))
    assert sb.session_principal(signed.cookie) is not None
    monkeypatch.setattr(sessions_module, "utcnow", lambda: signed.expires_at + timedelta(seconds=1))
    assert sb.session_principal(signed.cookie) is None


def test_an_expired_session_is_refused_as_stored(sb: Scorebook, engine: Engine, token: str) -> None:
    signed = sb.sign_in(token)
    with engine.begin() as conn:
        conn.execute(text("UPDATE sessions SET expires_at = :t"),
                     {"t": sessions_module.utcnow() - timedelta(seconds=1)})
    assert sb.session_principal(signed.cookie) is None


def test_a_tampered_or_foreign_cookie_is_refused(sb: Scorebook, engine: Engine, token: str) -> None:
    good = sb.sign_in(token).cookie
    session_id, signature = good.rsplit(".", 1)
    # Flip the first character: every bit of it counts. (The last base64 character of a 32-byte signature carries
    # 2 padding bits, so changing it may leave the decoded signature as it was.)
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    forged_id = Signer(SECRET, salt="x").sign(session_id).decode()  # signed, but not as a session cookie
    made_up = Signer(SECRET, salt="scorebook.session", digest_method=hashlib.sha256).sign("no-such-id").decode()
    for cookie in (None, "", "garbage", session_id, f"{session_id}.", f"{session_id}.{flipped}",
                   f"x{session_id}.{signature}", forged_id, made_up, good + "x", "é" * 30, good * 4):
        assert sb.session_principal(cookie) is None, cookie
        assert sb.sign_out(cookie) is False
    assert sb.session_principal(good) is not None  # none of the above ended it
    other = Scorebook.from_engine(engine, session_secret="another-secret")
    assert other.session_principal(good) is None
    assert other.sign_out(good) is False
    assert sb.session_principal(good) is not None
    client = TestClient(create_api(sb), cookies={SESSION_COOKIE: f"{session_id}.{flipped}"})
    assert "signed-in" not in client.get("/login").text


def test_signing_in_again_ends_the_browsers_previous_session(client: TestClient, sb: Scorebook, token: str) -> None:
    first = set_cookie_attributes(sign_in(client, token))["value"]
    referee = sb.create_token("Referee Bo", "referee")
    second = set_cookie_attributes(sign_in(client, referee))["value"]
    assert sb.session_principal(first) is None
    assert sb.session_principal(second) == Principal("Referee Bo", "referee")
    # A wrong token does not end the session the browser has.
    assert sign_in(client, "sb_wrong").status_code == 401
    assert sb.session_principal(second) is not None


def test_a_cross_site_post_is_refused(client: TestClient, sb: Scorebook, token: str) -> None:
    r = client.post("/login", data={"token": token}, headers={"Sec-Fetch-Site": "cross-site"},
                    follow_redirects=False)
    assert r.status_code == 403 and "set-cookie" not in r.headers
    cookie = set_cookie_attributes(sign_in(client, token))["value"]
    r = client.post("/logout", headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False)
    assert r.status_code == 403 and sb.session_principal(cookie) is not None
    r = client.post("/login", data={"token": token}, headers={"Sec-Fetch-Site": "same-origin"},
                    follow_redirects=False)
    assert r.status_code == 303


# -- the pages ---------------------------------------------------------------------------------------


def test_the_login_page_has_a_password_field_and_shows_who_is_signed_in(
    client: TestClient, sb: Scorebook
) -> None:
    page = client.get("/login?next=/record/m1")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    html = page.text
    assert 'type="password"' in html and 'name="token"' in html and 'autocomplete="off"' in html
    assert 'method="post" action="/login"' in html and 'value="/record/m1"' in html
    assert "signed-in" not in html
    token = sb.create_token("<b>Bo</b> & co", "referee")
    sign_in(client, token)
    html = client.get("/login").text
    assert "&lt;b&gt;Bo&lt;/b&gt; &amp; co" in html and "<b>Bo</b>" not in html
    assert "(referee)" in html and 'action="/logout"' in html


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/record/abc", "/record/abc"),
        ("/record/abc?hints=off#pad", "/record/abc?hints=off#pad"),
        ("/", "/"),
        (None, "/record"),
        ("", "/record"),
        ("record", "/record"),
        ("https://evil.example/", "/record"),
        ("//evil.example", "/record"),
        ("///evil.example", "/record"),
        ("/\\evil.example", "/record"),
        ("\\\\evil.example", "/record"),
        ("javascript:alert(1)", "/record"),
        ("/\tevil", "/record"),
        ("/ok\r\nSet-Cookie: x=1", "/record"),
        (" /record", "/record"),
        ("/" + "a" * 3000, "/record"),
    ],
)
def test_next_is_only_ever_a_local_path(target: str | None, expected: str) -> None:
    assert safe_next(target) == expected


def test_next_open_redirect_refused(client: TestClient, token: str) -> None:
    for target, expected in [("/record/abc?x=1", "/record/abc?x=1"), ("https://evil.example/", "/record"),
                             ("//evil.example/x", "/record"), ("/\\evil.example", "/record"),
                             ("javascript:alert(1)", "/record")]:
        r = sign_in(client, token, target)
        assert r.status_code == 303 and r.headers["location"] == expected, target
        page = client.get("/login", params={"next": target})
        assert f'value="{expected}"' in page.text and "evil" not in page.text
    assert login_url("/record/m1?x=1&y=2") == "/login?next=%2Frecord%2Fm1%3Fx%3D1%26y%3D2"
    assert login_url("https://evil.example") == "/login?next=%2Frecord"
    assert client.get(login_url("/record/m1?x=1")).text.count('value="/record/m1?x=1"') == 1


def test_the_pages_are_not_in_the_api_document_and_are_served_before_the_dashboard(sb: Scorebook) -> None:
    paths = TestClient(create_api(sb)).get("/openapi.json").json()["paths"]
    assert not any(p.startswith(("/login", "/logout")) for p in paths)
    from scorebook.app import build_app

    client = TestClient(build_app(sb))
    assert 'name="token"' in client.get("/login").text
    assert "Sign out" in client.get("/logout").text


# -- no token in a page, a URL, a cookie or a log line ---------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def live(sb: Scorebook) -> Iterator[tuple[str, _Records]]:
    """The app served by uvicorn with its access log on, every log record kept."""
    import uvicorn

    records = _Records()
    names = ("", "uvicorn", "uvicorn.access", "uvicorn.error", "scorebook", "scorebook.signin")
    saved = {n: (logging.getLogger(n).level, logging.getLogger(n).propagate) for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.DEBUG)
    logging.getLogger().addHandler(records)
    logging.getLogger("uvicorn.access").addHandler(records)
    logging.getLogger("uvicorn.access").propagate = False
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_api(sb), host="127.0.0.1", port=port, log_config=None,
                                           log_level="debug", access_log=True))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", records
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        logging.getLogger().removeHandler(records)
        logging.getLogger("uvicorn.access").removeHandler(records)
        for n, (level, propagate) in saved.items():
            logging.getLogger(n).setLevel(level)
            logging.getLogger(n).propagate = propagate


def test_no_token_in_any_response_or_log_line(
    live: tuple[str, _Records], sb: Scorebook, capfd: pytest.CaptureFixture[str]
) -> None:
    url, records = live
    token = sb.create_token("Ann", "referee")
    revoked = sb.create_token("Old desk", "recorder")
    seen: list[httpx.Response] = []
    with httpx.Client(base_url=url, follow_redirects=False, event_hooks={"response": [lambda r: r.read()]}) as c:
        def go(method: str, path: str, **kw: object) -> httpx.Response:
            r = c.request(method, path, **kw)  # type: ignore[arg-type]
            seen.append(r)
            return r

        go("GET", "/login?next=/record/m1")
        assert go("POST", "/login", data={"token": token, "next": "/record/m1"}).status_code == 303
        go("GET", "/login")
        go("GET", "/logout")
        go("POST", "/login", data={"token": token + "x"})
        go("POST", "/login", data={"token": token}, headers={"Sec-Fetch-Site": "cross-site"})
        go("POST", "/logout")
        go("POST", "/login", data={"token": revoked})
        sb.revoke_token(next(t["id"] for t in sb.list_tokens() if t["name"] == "Old desk"))
        go("GET", "/login")
        assert go("POST", "/login", data={"token": revoked}).status_code == 401
        go("POST", "/logout")
        go("GET", "/openapi.json")
    logged = "\n".join(records.lines)
    assert "POST /login" in logged and "GET /login?next=/record/m1" in logged  # the access log was on
    assert "signed in: Ann (referee)" in logged and "sign-in refused" in logged
    for secret in (token, revoked, token + "x", token.removeprefix("sb_")):
        assert secret not in logged
        for r in seen:
            assert secret not in r.text and secret not in str(r.headers) and secret not in str(r.url)
    out, err = capfd.readouterr()
    assert token not in out + err and revoked not in out + err


# -- the secret ----------------------------------------------------------------------------------------


def test_the_secret_file_is_made_once_0600_and_reused(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # PostgreSQL (and in-memory SQLite) keep it in ./var
    url = engine.url.render_as_string(hide_password=False)
    expected_dir = Path(engine.url.database or "").parent if engine.dialect.name == "sqlite" else Path("var")
    assert data_dir(url) == expected_dir
    path = expected_dir / SECRET_FILE
    assert not path.exists()
    sb = Scorebook.from_engine(engine)
    token = sb.create_token("desk", "recorder")
    assert not path.exists()  # made on first use, not on open
    signed = sb.sign_in(token)
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    secret = path.read_text()
    assert len(secret.strip()) >= 48
    again = Scorebook.from_engine(engine)
    assert again.session_principal(signed.cookie) == Principal("desk", "recorder")
    assert path.read_text() == secret
    assert [p.name for p in path.parent.iterdir() if SECRET_FILE in p.name] == [SECRET_FILE]
    # $SCOREBOOK_SECRET wins over the file.
    monkeypatch.setenv(SECRET_ENV, "from-the-environment")
    configured = Scorebook.from_engine(engine)
    assert configured.session_principal(signed.cookie) is None
    cookie = configured.sign_in(token).cookie
    assert Scorebook.from_engine(engine, session_secret="from-the-environment").session_principal(cookie)
    assert path.read_text() == secret


def test_the_secret_with_the_environment_set_makes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SECRET_ENV, "  configured  ")
    assert load_secret(tmp_path / "data") == "configured"
    assert not (tmp_path / "data").exists()


def test_processes_starting_together_agree_on_one_secret(tmp_path: Path) -> None:
    found: list[str] = []
    barrier = threading.Barrier(8)

    def load() -> None:
        barrier.wait()
        found.append(load_secret(tmp_path / "var"))

    threads = [threading.Thread(target=load) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(found) == 8 and len(set(found)) == 1
    assert sorted(p.name for p in (tmp_path / "var").iterdir()) == [SECRET_FILE]


def test_an_empty_secret_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / SECRET_FILE).write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        load_secret(tmp_path)


def test_the_data_directory() -> None:
    assert data_dir("sqlite:///var/scorebook.db") == Path("var")
    assert data_dir("sqlite:////srv/club/scorebook.db") == Path("/srv/club")
    assert data_dir("sqlite:///scorebook.db") == Path(".")
    assert data_dir("sqlite://") == Path("var")
    assert data_dir("sqlite:///:memory:") == Path("var")
    assert data_dir("postgresql+psycopg://u@db:5432/club") == Path("var")


def test_the_cli_still_loads_no_web_stack() -> None:
    import subprocess
    import sys

    code = (
        "import recorder.facade, recorder.access.sessions, sys; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'fastapi','dash','plotly','uvicorn','alembic','flask','starlette'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    assert out.strip() == "[]"


# -- the role check shared by the API and the pad ----------------------------------------------------------


def test_check_events_needs_a_referee_to_rewind() -> None:
    data: dict[str, Any] = {"to_seq": 1, "reason": "slip"}
    rewind: dict[str, Any] = {"type": "rewind", "data": data}
    note: dict[str, Any] = {"type": "note", "data": {"text": "table 3"}}
    recorder, referee, admin = Principal("desk", "recorder"), Principal("ref", "referee"), Principal("a", "admin")
    for events in ([rewind], [note, rewind], [NewEvent("rewind", data)],
                   [SimpleNamespace(type="rewind", data={})]):
        with pytest.raises(Forbidden, match="referee") as refused:
            check_events(recorder, events)
        assert "recorder" in refused.value.message
    for who in (referee, admin):
        check_events(who, [note, rewind, NewEvent("rewind", data)])
    check_events(recorder, [note, round_start(), {"type": None}, {}])
    check_events(recorder, [])


def test_the_api_and_the_session_share_the_role_check(client: TestClient, sb: Scorebook) -> None:
    recorder = sb.create_token("desk", "recorder")
    match_id = sb.start_match(dict(START), "desk")["match_id"]
    sb.append(match_id, [round_start()], 1, "desk")
    rewind = {"type": "rewind", "data": {"to_seq": 1, "reason": "slip"}}
    r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 2, "events": [rewind]},
                    headers={"Authorization": f"Bearer {recorder}"})
    assert r.status_code == 403
    who = sb.session_principal(sb.sign_in(recorder).cookie)
    assert who is not None
    with pytest.raises(Forbidden) as refused:
        check_events(who, [rewind])
    assert refused.value.message == r.json()["reason"]


# -- the migration -------------------------------------------------------------------------------------------


def _triggers(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"))
        else:
            rows = conn.execute(text("SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass "
                                     "AND NOT tgisinternal"))
        return set(rows.scalars())


def _refuses_changes(engine: Engine) -> None:
    for sql in ("DELETE FROM events", "UPDATE events SET type = 'x'"):
        with pytest.raises(DBAPIError, match="append-only"):
            with engine.begin() as conn:
                conn.execute(text(sql))


def test_the_sessions_migration_goes_down_and_up_keeping_the_events_triggers(bare_engine: Engine) -> None:
    upgrade(bare_engine)
    assert current_revisions(bare_engine) == head_revisions()
    triggers = _triggers(bare_engine)
    assert len(triggers) == 2
    sb = Scorebook.from_engine(bare_engine, session_secret=SECRET)
    match_id = sb.start_match(dict(START), "d")["match_id"]
    sb.append(match_id, [round_start()], 1, "d")
    sb.sign_in(sb.create_token("desk", "recorder"))
    downgrade(bare_engine, "0001")
    assert current_revisions(bare_engine) == ("0001",)
    assert "sessions" not in inspect(bare_engine).get_table_names()
    assert _triggers(bare_engine) == triggers
    _refuses_changes(bare_engine)
    upgrade(bare_engine)
    assert "sessions" in inspect(bare_engine).get_table_names()
    assert _triggers(bare_engine) == triggers
    _refuses_changes(bare_engine)
    assert len(sb.events(match_id)) == 2
    cookie = sb.sign_in(sb.create_token("desk 2", "referee")).cookie
    assert sb.session_principal(cookie) == Principal("desk 2", "referee")


def test_the_sessions_object_alone(tmp_path: Path) -> None:
    """The Sessions object alone, on a database of its own, with an explicit lifetime."""
    with Scorebook.open(f"sqlite:///{tmp_path / 'own.db'}", session_secret=SECRET) as sb:
        s = Sessions(sb.engine, SECRET, hours=1)
        signed = s.sign_in(sb.create_token("desk", "admin"))
        assert signed.max_age == 3600 and s.principal(signed.cookie) == Principal("desk", "admin")
        assert sb.session_principal(signed.cookie) == Principal("desk", "admin")  # same secret, same table
        assert s.sign_out(signed.cookie) and sb.session_principal(signed.cookie) is None
        with pytest.raises(ValueError):
            Sessions(sb.engine, SECRET, hours=0)
        with pytest.raises(ValueError):
            Sessions(sb.engine, "")


def test_serve_refuses_to_start_with_a_bad_session_lifetime(bare_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from scorebook.cli import app

    monkeypatch.setenv(SECRET_ENV, SECRET)
    monkeypatch.setenv(HOURS_ENV, "twelve")
    result = CliRunner().invoke(app, ["serve", "--db", bare_url])
    assert result.exit_code == 1 and f"sign-in sessions: {HOURS_ENV}" in result.stderr
