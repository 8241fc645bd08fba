"""Who is signed in, for the pages that write (`/record`, `/record/<id>`) and the header.

The session cookie (recorder/access/sessions.py, set by POST /login) is read on every callback, not once per
page: a session ended by /logout, expired, or whose token was revoked stops writing at once.
"""

from __future__ import annotations

from typing import Any

import flask
from dash import dcc, html

from recorder.access.auth import Principal
from recorder.access.sessions import SESSION_COOKIE, login_url
from recorder.facade import Scorebook


def principal(sb: Scorebook) -> Principal | None:
    """The principal of the request's session cookie, or None (no cookie, bad, expired, ended, revoked)."""
    try:
        cookie = flask.request.cookies.get(SESSION_COOKIE)
    except RuntimeError:  # outside a request (a unit test calling a page function)
        return None
    return sb.session_principal(cookie)


def whoami(who: Principal | None, here: str = "/record") -> Any:
    """The header's corner: who is signed in, with which role, and a sign-out button (POST /logout)."""
    if who is None:
        return html.A("Sign in", href=login_url(here), className="nav-link", id="signin-link")
    return html.Form(method="post", action="/logout", className="whoami", id="whoami-form", children=[
        html.Span([html.B(who.name, id="whoami-name"), html.Span(who.role, className="role-badge", id="whoami-role")],
                  className="whoami-who", title=f"signed in as {who.name} ({who.role})"),
        html.Button("Sign out", type="submit", className="btn btn-signout", id="signout"),
    ])


def sign_in_prompt(next_path: str, why: str = "Recording needs a sign-in") -> html.Div:
    """What a page that writes shows without a session: a link to /login and no inputs."""
    return html.Div(className="page signin-needed", children=[
        html.H1(why),
        html.P(["Sign in with your scorekeeper's token once on this device, then come back here. ",
                html.A("Sign in", href=login_url(next_path), className="btn btn-primary", id="signin-prompt")]),
        html.P(dcc.Link("See the matches instead", href="/"), className="muted"),
    ])
