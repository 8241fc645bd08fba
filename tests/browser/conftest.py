"""A real Scorebook server (API and dashboard on one port) and a real headless Chromium.

The server is `build_app` on a temporary SQLite database seeded with demo matches of every game, an
unfinished match and a match with a referee's rewind, run by uvicorn in a thread on a free port.
Chromium is Debian's /usr/bin/chromium, never a downloaded build. Without it the browser tests skip,
unless SCOREBOOK_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from recorder.facade import Scorebook
from tests.support.browser import CHROMIUM_ARGS, LiveServer, chromium, seed
from tests.support.servers import served


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from scorebook.app import build_app

    chromium()  # no browser: nothing to serve
    sb = Scorebook.open(f"sqlite:///{tmp_path_factory.mktemp('dashboard') / 'scorebook.db'}")
    server = seed(sb)
    with served(build_app(sb)) as url:
        server.url = url
        yield server
    sb.close()


@pytest.fixture(scope="session")
def browser(live_server: LiveServer) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; every console error or uncaught exception on it fails the test."""
    context = browser.new_context(viewport={"width": 1500, "height": 1050}, device_scale_factor=1)
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda msg: errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    p.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    p.set_default_timeout(15_000)
    yield p
    context.close()
    assert not errors, "browser console errors:\n" + "\n".join(errors)


# -- the scorepad: pages in a signed-in browser context ------------------------------------------------

PadPage = Any  # a Playwright page whose context is signed in


@pytest.fixture
def signed_in(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """`signed_in(role, width=1280, height=900)`: a fresh context signed in through POST /login with a new
    token of `role`, and a page in it; console errors fail the test as with `page`. The page's
    `token_id` names the token (to revoke it); `allow` takes substrings of console errors a test causes."""
    contexts: list[Any] = []
    errors: list[str] = []
    allowed: list[str] = []

    def make(role: str = "recorder", width: int = 1280, height: int = 900, name: str | None = None) -> Any:
        name = name or f"{role}-{len(live_server.sb.list_tokens()) + 1}"
        token = live_server.sb.create_token(name, role)
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
        contexts.append(context)
        r = context.request.post(live_server.url + "/login", form={"token": token, "next": "/record"})
        assert r.ok, r.status
        p = context.new_page()
        p.on("console", lambda msg: errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
        p.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        p.set_default_timeout(15_000)
        p.token_name = name
        p.token_id = next(t["id"] for t in live_server.sb.list_tokens() if t["name"] == name)
        p.allow = allowed.append
        return p

    yield make
    for context in contexts:
        context.close()
    unexpected = [e for e in errors if not any(a in e for a in allowed)]
    assert not unexpected, "browser console errors:\n" + "\n".join(unexpected)
