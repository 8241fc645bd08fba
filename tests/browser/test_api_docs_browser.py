"""/docs (Swagger UI) and /redoc in a real headless Chromium with every other host unreachable.

The documentation pages must render from this server alone: their scripts and styles come from the
installed `fastapi-offline` package, never a CDN. Every request to a host other than the server's is
aborted and recorded; the test fails if any was even tried.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from recorder.facade import Scorebook
from recorder.sql.engine import make_engine
from recorder.sql.migrate import upgrade
from tests.support.browser import CHROMIUM_ARGS, chromium, shot
from tests.support.servers import served

pytestmark = pytest.mark.browser

LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def docs_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole app (`build_app`: API, docs, dashboard) on an empty database, served by uvicorn."""
    from scorebook.app import build_app

    chromium()  # no browser: nothing to serve
    engine = make_engine(f"sqlite:///{tmp_path_factory.mktemp('docs') / 'scorebook.db'}")
    upgrade(engine)
    with served(build_app(Scorebook.from_engine(engine))) as url:
        yield url
    engine.dispose()


@pytest.fixture(scope="module")
def offline_browser(docs_server: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def offline_page(offline_browser: Any) -> Iterator[tuple[Any, list[str], list[str]]]:
    """A page that can reach only the local server: (page, requests to other hosts, console errors)."""
    context = offline_browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=1)
    left: list[str] = []
    errors: list[str] = []

    def only_local(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).scheme in {"http", "https", "ws", "wss"} and urlsplit(url).hostname not in LOCAL_HOSTS:
            left.append(url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    context.route("**/*", only_local)
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.set_default_timeout(20_000)
    yield page, left, errors
    context.close()


def test_swagger_ui_renders_every_operation_offline(docs_server: str, offline_page: Any) -> None:
    page, left, errors = offline_page
    page.goto(f"{docs_server}/docs")
    page.wait_for_selector(".opblock-summary-path[data-path='/api/matches']")
    paths = page.eval_on_selector_all(".opblock .opblock-summary-path", "els => els.map(e => e.dataset.path)")
    assert {"/api/matches", "/api/matches/{match_id}/events", "/api/games", "/api/games/{game}/schema",
            "/api/tokens"} <= set(paths)
    doc = page.request.get(f"{docs_server}/openapi.json").json()
    operations = [path for path, item in doc["paths"].items() for _ in item]
    assert sorted(paths) == sorted(operations)  # every operation of the document, the club's included
    # The append body shows the typed events: open it and look at its schema.
    append = page.locator(".opblock-post:has(.opblock-summary-path[data-path='/api/matches/{match_id}/events'])")
    append.locator(".opblock-summary").click()
    append.locator(".opblock-body").wait_for()
    assert "expected_seq" in append.locator(".body-param__example, .microlight").first.inner_text()
    path: Path = shot(page, "api-docs-swagger")
    assert path.stat().st_size > 10_000
    assert not left, f"requests left the server: {left}"
    assert not errors, errors


def test_redoc_renders_its_operation_list_offline(docs_server: str, offline_page: Any) -> None:
    page, left, errors = offline_page
    page.goto(f"{docs_server}/redoc")
    page.locator("h2:has-text('Append events (all or none)')").first.wait_for()
    menu = page.locator("[role=menuitem]").all_text_contents()
    assert any("Append events" in m for m in menu) and any("Start a match" in m for m in menu), menu
    # The append body's events are typed: Redoc lists the event choices of the anyOf.
    assert page.locator("text=hats-off: hat_launched").count() > 0
    shot(page, "api-docs-redoc")
    assert not left, f"requests left the server: {left}"
    assert not errors, errors
