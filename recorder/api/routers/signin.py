"""Sign-in for the browser: /login exchanges a token for a session cookie, /logout ends the session.

Plain HTML pages outside /api and outside the OpenAPI document. The token travels only in a POST body:
it is never put in a URL, a page, a cookie or a log line. The cookie (`recorder.access.sessions.SESSION_COOKIE`)
is HttpOnly, SameSite=Strict, Path=/, lasts the session's lifetime, and is Secure over https.
A POST that the browser marks cross-site (Sec-Fetch-Site) is refused, so another site cannot sign a
visitor in or out.
"""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

import logging
from html import escape
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from recorder.access.auth import Principal
from recorder.access.sessions import SESSION_COOKIE, safe_next
from recorder.api.deps import Book
from recorder.errors import Unauthorized

router = APIRouter(tags=["sign-in"], include_in_schema=False)
log = logging.getLogger("scorebook.signin")

MAX_FORM_BYTES = 16 * 1024

_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}

# The dashboard's look (dashboard/assets/style.css), inline: these pages load nothing else.
_CSS = """
:root { --ink: #1f2430; --muted: #6b7280; --line: #e5e7eb; --bg: #f6f7f9; --card: #ffffff;
        --accent: #0072b2; --gold: #f2b705; --ok: #0b6e4f; --bad: #b42318; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
       font-family: Inter, "Segoe UI", "DejaVu Sans", Arial, sans-serif; font-size: 16px; line-height: 1.4; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { display: flex; align-items: center; gap: 24px; padding: 10px 20px; background: #1f2430; color: #fff;
             flex-wrap: wrap; }
header.top .brand { color: #fff; font-size: 20px; letter-spacing: 0.5px; }
header.top .brand b { color: var(--gold); }
header.top nav { display: flex; gap: 18px; }
header.top .nav-link { color: #d7dbe3; font-weight: 500; }
main { max-width: 440px; margin: 32px auto; padding: 0 16px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 20px; }
h1 { font-size: 22px; margin: 0 0 12px; }
label { display: block; font-size: 14px; color: var(--muted); margin-bottom: 6px; }
input[type=password] { width: 100%; font-size: 18px; padding: 10px 12px; border: 1px solid #c9ced6;
                       border-radius: 6px; }
.btn { border: 1px solid #c9ced6; background: #fff; color: var(--ink); border-radius: 6px; padding: 10px 18px;
       font-size: 16px; cursor: pointer; min-height: 44px; }
.btn:hover { background: #eef2f7; }
.btn-primary { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
.btn-primary:hover { background: #005f94; }
.row { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-top: 14px; }
.who { background: #dcf2e7; color: var(--ok); border-radius: 6px; padding: 10px 12px; margin-bottom: 14px; }
.problem { background: #fde2e0; color: var(--bad); border-radius: 6px; padding: 10px 12px; margin-bottom: 14px; }
.muted { color: var(--muted); font-size: 14px; }
"""


def _page(title: str, body: str, status: int = 200, who: Principal | None = None) -> HTMLResponse:
    signed = (
        f'<span class="nav-link">{escape(who.name)} · {escape(who.role)}</span>' if who is not None else ""
    )
    html = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>{escape(title)} · Scorebook</title><style>{_CSS}</style></head>
<body><header class="top"><a class="brand" href="/">Score<b>book</b></a>
<nav><a class="nav-link" href="/">Matches</a><a class="nav-link" href="/record">Record</a>{signed}</nav></header>
<main><div class="card">{body}</div></main></body></html>
"""
    return HTMLResponse(html, status_code=status, headers=_HEADERS)


def _signed_in_as(who: Principal) -> str:
    return f'<div class="who" id="signed-in">Signed in as <b>{escape(who.name)}</b> ({escape(who.role)})</div>'


def _sign_out_button() -> str:
    return (
        '<form method="post" action="/logout">'
        '<button class="btn" type="submit" id="sign-out">Sign out</button></form>'
    )


def _login_body(next_path: str, who: Principal | None, problem: str | None = None) -> str:
    parts = ["<h1>Sign in</h1>"]
    if problem:
        parts.append(f'<div class="problem" id="problem" role="alert">{escape(problem)}</div>')
    if who is not None:
        parts.append(_signed_in_as(who))
        parts.append(
            f'<div class="row"><a class="btn btn-primary" href="{escape(next_path, quote=True)}">Continue</a>'
            f"{_sign_out_button()}</div>"
            '<p class="muted">Or sign in on this device with another token:</p>'
        )
    parts.append(
        '<form method="post" action="/login" autocomplete="off">'
        '<label for="token">Token</label>'
        '<input type="password" id="token" name="token" autocomplete="off" autocapitalize="off" '
        'spellcheck="false" required autofocus>'
        f'<input type="hidden" name="next" value="{escape(next_path, quote=True)}">'
        '<div class="row"><button class="btn btn-primary" type="submit" id="sign-in">Sign in</button></div>'
        "</form>"
        '<p class="muted">A token comes from the club\'s admin (<code>scorebook token create NAME --role '
        "recorder</code>). It is exchanged once for a session on this device and is not kept in the browser.</p>"
    )
    return "".join(parts)


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def _cross_site(request: Request) -> bool:
    """The browser says the form was posted from another site (old browsers send no such header)."""
    return request.headers.get("sec-fetch-site", "").lower() == "cross-site"


async def _form(request: Request) -> dict[str, str] | None:
    """An urlencoded form's fields (first value of each); None for another body."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return None
    raw = await request.body()
    if len(raw) > MAX_FORM_BYTES:
        return None
    try:
        fields = parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        return None
    return {name: values[0] for name, values in fields.items()}


def _clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", secure=_secure(request), httponly=True, samesite="strict")


@router.get("/login", response_class=HTMLResponse)
def login_page(
    request: Request, sb: Book, next_: Annotated[str | None, Query(alias="next")] = None
) -> HTMLResponse:
    who = sb.session_principal(request.cookies.get(SESSION_COOKIE))
    return _page("Sign in", _login_body(safe_next(next_), who), who=who)


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request, sb: Book) -> Response:
    if _cross_site(request):
        return _page("Sign in", "<h1>Sign in</h1><p>Refused: this form was sent from another site.</p>", 403)
    form = await _form(request)
    if form is None:
        return _page("Sign in", _login_body("/record", None, "Send the sign-in form (a token field)."), 400)
    next_path = safe_next(form.get("next"))
    token = form.get("token", "").strip()
    if not token:
        return _page("Sign in", _login_body(next_path, None, "Enter a token."), 400)
    old = request.cookies.get(SESSION_COOKIE)
    try:
        signed = await run_in_threadpool(sb.sign_in, token)
    except Unauthorized:
        client = request.client.host if request.client else "?"
        log.warning("sign-in refused (unknown or revoked token) from %s", client)
        who = await run_in_threadpool(sb.session_principal, old)
        return _page("Sign in", _login_body(next_path, who, "That token is unknown or has been revoked."), 401, who)
    if old:
        await run_in_threadpool(sb.sign_out, old)  # one session per browser: the one it had ends
    log.info("signed in: %s (%s)", signed.principal.name, signed.principal.role)
    response = RedirectResponse(next_path, status_code=303, headers={"Cache-Control": "no-store"})
    response.set_cookie(
        SESSION_COOKIE,
        signed.cookie,
        max_age=signed.max_age,
        path="/",
        secure=_secure(request),
        httponly=True,
        samesite="strict",
    )
    return response


@router.get("/logout", response_class=HTMLResponse)
def logout_page(request: Request, sb: Book) -> HTMLResponse:
    """A GET never signs out (a link preview or a prefetch would): it shows the button that does."""
    who = sb.session_principal(request.cookies.get(SESSION_COOKIE))
    if who is None:
        body = (
            '<h1>Sign out</h1><p>You are not signed in.</p>'
            '<div class="row"><a class="btn" href="/login">Sign in</a></div>'
        )
        return _page("Sign out", body)
    body = f"<h1>Sign out</h1>{_signed_in_as(who)}{_sign_out_button()}"
    return _page("Sign out", body, who=who)


@router.post("/logout")
def logout(request: Request, sb: Book) -> Response:
    if _cross_site(request):
        return _page("Sign out", "<h1>Sign out</h1><p>Refused: this form was sent from another site.</p>", 403)
    cookie = request.cookies.get(SESSION_COOKIE)
    who = sb.session_principal(cookie)
    if sb.sign_out(cookie) and who is not None:
        log.info("signed out: %s (%s)", who.name, who.role)
    response = RedirectResponse("/login", status_code=303, headers={"Cache-Control": "no-store"})
    _clear_cookie(response, request)
    return response
