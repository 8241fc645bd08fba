"""The browser tests' helpers (the fixtures are in tests/browser/conftest.py): Debian's Chromium or a skip, the
served demo database (`LiveServer`), the games a per-game scenario runs outside CI, screenshots into
test-artifacts/, and the replay page's steps read in the browser."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dashboard.boards import board_figure
from dashboard.model import ReplayCache
from projections.registry import GAME_NAMES, get_game
from projections.scores import scores_json
from recorder.demo import PLAYERS, record_demo
from recorder.facade import Scorebook
from recorder.log.file import NewEvent, import_lines
from tests.support.paths import ROOT

CHROMIUM = os.environ.get("SCOREBOOK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"


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


def chromium() -> str:
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium") or ""
    if not path:
        message = f"Chromium not found at {CHROMIUM}"
        if os.environ.get("SCOREBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " and SCOREBOOK_REQUIRE_BROWSER=1")
        pytest.skip(message)
    return path


def import_match(sb: Scorebook, log: list[dict[str, Any]], by: str = "desk-1") -> str:
    return str(sb.import_log(import_lines(log), by)["match_id"])


def seed(sb: Scorebook) -> LiveServer:
    record_demo(sb, 1, seed=5)
    server = LiveServer("", sb)
    items, _ = sb.matches(limit=100)
    for m in items:
        server.by_game.setdefault(m["game"], m["match_id"])
    # An unfinished Tri-Ominos match: hands must stay hidden.
    log = get_game("tri-ominos").random_match(random.Random(11), PLAYERS[:3])
    server.in_progress = import_match(sb, log[:40])
    # A Hi-Spot match where a referee rewound three events and play went on.
    log = get_game("hi-spot").random_match(random.Random(12), PLAYERS[:2])
    match_id = import_match(sb, log[:30])
    again = [NewEvent(e["type"], e["data"]) for e in log[27:30]]
    sb.append(match_id, [NewEvent("note", {"text": "table 2 asks for a check", "about_seq": 28}),
                            NewEvent("rewind", {"to_seq": 27, "reason": "tile recorded in the wrong section"})],
                 30, "referee")
    sb.append(match_id, again, 32, "desk-1")
    server.rewound = match_id
    assert set(server.by_game) == set(GAME_NAMES)
    return server


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


GRAPH_DATA = "id => { const g = document.querySelector('#' + id + ' .js-plotly-plot'); return g ? g.data : null; }"


def open_replay(page: Any, server: LiveServer, match_id: str, query: str = "") -> int:
    page.goto(f"{server.url}/matches/{match_id}{query}")
    page.wait_for_selector("#step-label")
    page.wait_for_selector("#board .js-plotly-plot .main-svg")
    label = page.inner_text("#step-label")
    m = re.fullmatch(r"Step (\d+) of (\d+)", label.strip())
    assert m, label
    return int(m.group(2))


def wait_step(page: Any, k: int, n: int) -> None:
    page.wait_for_function(
        "t => document.querySelector('#step-label').innerText.trim() === t", arg=f"Step {k} of {n}"
    )
    # The board is drawn once the step's figure arrived: the page is idle when no callback is pending.
    page.wait_for_function("() => !document.querySelector('[data-dash-is-loading=\"true\"]')")
    # The URL (and the current row, the slider) follow once stepping pauses.
    page.wait_for_function("k => new URL(location.href).searchParams.get('step') === String(k)", arg=k)


def expected_score_text(server: LiveServer, match_id: str, k: int) -> str:
    sheet = scores_json(server.sb.fold(match_id, at=max(1, k)), match_id)
    return " · ".join(f"{p['name']} {p['score'] if k else 0}" for p in sheet["players"])


def board_traces(page: Any) -> list[dict[str, Any]]:
    data = page.evaluate(GRAPH_DATA, "board")
    assert data is not None, "the board figure is not drawn"
    return [{k: t.get(k) for k in ("x", "y", "text", "name")} for t in data]


def expected_board(server: LiveServer, match_id: str, k: int) -> list[dict[str, Any]]:
    fold = server.sb.fold(match_id)
    replay = ReplayCache().replay(server.sb, match_id)
    state = fold.game.to_json(fold.state_at(max(1, k)))
    fig = board_figure(fold.game.name, state, fold.players, replay.finished, **replay.extras)
    traces = json.loads(json.dumps(fig["data"]))  # as the browser received it
    return [{key: t.get(key) for key in ("x", "y", "text", "name")} for t in traces]


def capture(page: Any) -> list[str]:
    """The bodies of every Dash callback answer the page receives from now on."""
    bodies: list[str] = []

    def keep(response: Any) -> None:
        if "/_dash-update-component" in response.url:
            try:
                bodies.append(response.text())
            except Exception:  # a navigation away can drop a body: nothing to check in it
                pass

    page.on("response", keep)
    return bodies
