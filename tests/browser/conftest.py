"""A real Scorebook server (API and dashboard on one port) and a real headless Chromium.

The server is `build_app` on a temporary SQLite database seeded with demo matches of every game, an
unfinished match and a match with a referee's rewind, run by uvicorn in a thread on a free port.
Chromium is Debian's /usr/bin/chromium, never a downloaded build. Without it the browser tests skip,
unless SCOREBOOK_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from projections.registry import GAME_NAMES, get_game
from recorder.demo import PLAYERS, record_demo
from recorder.facade import Scorebook
from recorder.logfile import NewEvent, import_lines
from tests.support.servers import served

CHROMIUM = os.environ.get("SCOREBOOK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@dataclass
class LiveServer:
    url: str
    sb: Scorebook
    by_game: dict[str, str] = field(default_factory=dict)  # a finished demo match per game
    in_progress: str = ""
    rewound: str = ""


def games_quick(representative: str) -> list[Any]:
    """Every game as a test parameter; outside CI's full run (`-m "not slow"`) only `representative` runs.

    For browser tests that repeat one scenario per game, the page's code being the same for every game: the
    representative is picked so that the quick run still takes each path that only some games have (hidden
    tiles dealt and drawn, board targets, to-scale boards); CI runs all four."""
    assert representative in GAME_NAMES, representative
    return [game if game == representative else pytest.param(game, marks=pytest.mark.slow) for game in GAME_NAMES]


def _chromium() -> str:
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium") or ""
    if not path:
        message = f"Chromium not found at {CHROMIUM}"
        if os.environ.get("SCOREBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " and SCOREBOOK_REQUIRE_BROWSER=1")
        pytest.skip(message)
    return path


def _import(sb: Scorebook, log: list[dict[str, Any]], by: str = "desk-1") -> str:
    return str(sb.import_log(import_lines(log), by)["match_id"])


def seed(sb: Scorebook) -> LiveServer:
    record_demo(sb, 1, seed=5)
    server = LiveServer("", sb)
    items, _ = sb.matches(limit=100)
    for m in items:
        server.by_game.setdefault(m["game"], m["match_id"])
    # An unfinished Tri-Ominos match: hands must stay hidden.
    log = get_game("tri-ominos").random_match(random.Random(11), PLAYERS[:3])
    server.in_progress = _import(sb, log[:40])
    # A Hi-Spot match where a referee rewound three events and play went on.
    log = get_game("hi-spot").random_match(random.Random(12), PLAYERS[:2])
    match_id = _import(sb, log[:30])
    again = [NewEvent(e["type"], e["data"]) for e in log[27:30]]
    sb.append(match_id, [NewEvent("note", {"text": "table 2 asks for a check", "about_seq": 28}),
                            NewEvent("rewind", {"to_seq": 27, "reason": "tile recorded in the wrong section"})],
                 30, "referee")
    sb.append(match_id, again, 32, "desk-1")
    server.rewound = match_id
    assert set(server.by_game) == set(GAME_NAMES)
    return server


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from recorder.server import build_app

    _chromium()  # no browser: nothing to serve
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
        b = pw.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS, headless=True)
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


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


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
