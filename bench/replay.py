"""Replay stepping on 500-event matches: what the page weighs, and key press to painted board in a browser,
against the page that asked the server for every step (the reference), measured the same way in the same run.

For each game a 500-event match (the first 500 events of a seeded random match: in progress, so a
spectator's page is redacted) is stored.

- page weight: what the page gets right after it is shown so that stepping needs no server
  (dashboard/replay_frames.py): the payload as sent (gzipped JSON of the differences, base64), the
  differences' JSON unzipped, and every frame whole (what sending the frames as they are would weigh);
  the route answer's size (the page itself, with its event list); `open`: the page built on a store with
  nothing cached (the fold from the database, the replay model, the page at step 0); `frames`: drawing
  and packing every step's frame (the second callback, once per match version and viewer);
- `server step`: `render_step`, drawing one step on the server (what the old page's callback did);
- browser: Debian's headless Chromium (Playwright) opens the page at step 200 and presses → 50 times,
  each timed from the key press to the painted board (bench/step_timer.py). The same is done, in
  interleaved rounds, on the reference page: the commit `SCOREBOOK_REPLAY_REFERENCE` (default d08e7f0,
  the last one whose replay asked the server for every step), exported with `git archive` and served from
  its own process and database holding the same matches. Both servers run as subprocesses.

Times in ms, medians and 90th percentiles over every step of every round; a median of the browser
stepping at 50 ms or more is printed as a missed goal (the browser part is skipped without Chromium or git).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

STEPS = 500
PRESSES = 50
ROUNDS = 3
START = 200
CHROMIUM = os.environ.get("SCOREBOOK_CHROMIUM", "/usr/bin/chromium")
REFERENCE = os.environ.get("SCOREBOOK_REPLAY_REFERENCE", "d08e7f0")
ROOT = Path(__file__).resolve().parent.parent
OPTIONS = {
    "tri-ominos": {"target_score": 1500},
    "high-five": {"target_score": 300},
    "hi-spot": {"target_score": 600},
    "hats-off": {"target_score": 900},
}

# A server for a tree of the code (its cwd): imports the logs into a new database, says its match ids, serves.
SERVE = """
import json, sys, uvicorn
from recorder import Scorebook
from recorder.log.file import import_lines
from scorebook.app import build_app
db, logs, port = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
sb = Scorebook.open(db)
print(json.dumps({g: sb.import_log(import_lines(log), "bench")["match_id"] for g, log in logs.items()}), flush=True)
uvicorn.run(build_app(sb), host="127.0.0.1", port=port, log_level="warning")
"""


def _timed(fn: Callable[[int], Any], steps: list[int]) -> list[float]:
    out = []
    for k in steps:
        t = time.perf_counter()
        fn(k)
        out.append((time.perf_counter() - t) * 1000)
    return out


def median_p95(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def long_log(game_name: str) -> list[dict[str, Any]]:
    from projections.registry import get_game
    from recorder.demo import PLAYERS

    game = get_game(game_name)
    options = dict(OPTIONS[game_name])
    for seed in range(1, 50):
        log = game.random_match(random.Random(seed), PLAYERS[:3], options)
        if len(log) >= STEPS:
            return log[:STEPS]
        options["target_score"] = int(options["target_score"] * 1.5)
    raise RuntimeError(f"no {game_name} match of {STEPS} events")


def weights(logs: dict[str, list[dict[str, Any]]]) -> list[tuple[Any, ...]]:
    import warnings

    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

    from dashboard.model import ReplayCache
    from dashboard.pages.replay import layout, render_parts, render_step
    from dashboard.replay_frames import encode, pack, step_frames, unpack
    from recorder import Scorebook
    from recorder.access.visibility import reader
    from recorder.log.file import import_lines
    from scorebook.app import build_app

    rows = []
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        sb = Scorebook.open(str(Path(tmp) / "bench.db"))
        client = TestClient(build_app(sb))
        for game, log in logs.items():
            match_id = sb.import_log(import_lines(log), "bench")["match_id"]
            path = f"/matches/{match_id}"
            body = {"output": "..page.children...whoami.children..",
                    "outputs": [{"id": "page", "property": "children"}, {"id": "whoami", "property": "children"}],
                    "inputs": [{"id": "url", "property": "pathname", "value": path}],
                    "state": [{"id": "url", "property": "search", "value": ""}], "changedPropIds": ["url.pathname"]}
            answer = client.post("/_dash-update-component", json=body)
            assert answer.status_code == 200, answer.text
            frames_body = {"output": "replay-frames.data", "outputs": {"id": "replay-frames", "property": "data"},
                           "inputs": [{"id": "replay-meta", "property": "data", "value": {"match_id": match_id}}],
                           "changedPropIds": ["replay-meta.data"]}
            frames_answer = client.post("/_dash-update-component", json=frames_body)
            assert frames_answer.status_code == 200, frames_answer.text
            open_ms = []
            for _ in range(3):
                t = time.perf_counter()
                layout(Scorebook.from_engine(sb.engine), ReplayCache(), match_id, "")  # nothing cached
                open_ms.append((time.perf_counter() - t) * 1000)
            packed = frames_answer.json()["response"]["replay-frames"]["data"]
            spectator = sb.view(match_id, reader(None))  # the route answer's viewer: no session
            replay = ReplayCache().replay(sb, match_id, view=spectator)
            frames_ms = _timed(lambda _: pack(step_frames(sb, replay, render_parts)), [0, 1, 2])  # noqa: B023 (called at once)
            frames = step_frames(sb, replay, render_parts)
            whole = len(json.dumps(frames, separators=(",", ":")))
            assert unpack(packed) == encode(frames)
            cache = ReplayCache()
            steps = [rng.randint(0, STEPS) for _ in range(100)]
            server_ms = _timed(partial(render_step, sb, cache, match_id), steps)
            rows.append((game, len(packed), len(unpack(packed)), whole, len(answer.content),
                         statistics.median(open_ms), statistics.median(frames_ms), statistics.median(server_ms)))
        sb.close()
    return rows


@contextmanager
def serve(tree: Path, logs_file: Path, db: Path) -> Iterator[tuple[str, dict[str, str]]]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(db), str(logs_file), str(port)], cwd=tree,
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(tree)})
    try:
        assert proc.stdout is not None
        ids = json.loads(proc.stdout.readline())
        import httpx

        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"the server of {tree} did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", ids
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def export(ref: str, into: Path) -> Path | None:
    """The tree of commit `ref` (its Python packages), or None without git or that commit."""
    archive = into / "reference.tar"
    try:
        subprocess.run(["git", "archive", "-o", str(archive), ref, "recorder", "projections", "dashboard",
                        "migrations", "alembic.ini"], cwd=ROOT, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    tree = into / "reference"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def browser(logs: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, list[float]]] | None:
    from playwright.sync_api import sync_playwright

    from bench.step_timer import time_steps

    if not os.path.exists(CHROMIUM):
        print(f"browser part skipped: no Chromium at {CHROMIUM}")
        return None
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
    times: dict[str, dict[str, list[float]]] = {"browser": {g: [] for g in logs}, "reference": {g: [] for g in logs}}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        logs_file = tmp / "logs.json"
        logs_file.write_text(json.dumps(logs))
        reference = export(REFERENCE, tmp)
        if reference is None:
            print(f"reference skipped: no git or no commit {REFERENCE}")
        trees = {"browser": ROOT, **({"reference": reference} if reference else {})}
        with serve(ROOT, logs_file, tmp / "new.db") as new, sync_playwright() as pw:
            with serve(reference, logs_file, tmp / "old.db") if reference else _none() as old:
                servers = {"browser": new, "reference": old}
                chromium = pw.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
                for _ in range(ROUNDS):
                    for game in logs:
                        for name in trees:
                            url, ids = servers[name]
                            page = chromium.new_page(viewport={"width": 1500, "height": 1050})
                            page.goto(f"{url}/matches/{ids[game]}?step={START}")
                            page.wait_for_selector("#board .js-plotly-plot .main-svg")
                            if name == "browser":
                                page.wait_for_selector("#replay-controls[data-frames=ready]")
                            page.wait_for_timeout(300)  # the page settles
                            times[name][game].extend(time_steps(page, PRESSES))
                            page.close()
                chromium.close()
    return times


@contextmanager
def _none() -> Iterator[Any]:
    yield None


def main() -> bool:
    from bench.step_timer import median_p90

    logs = {game: long_log(game) for game in OPTIONS}
    print(f"Replay stepping on {STEPS}-event matches (in progress, seen by a spectator)")
    print("Page weight, KB: the frames payload as sent (gzip+base64), its differences unzipped, every frame "
          "whole; the route answer. Times in ms: open = the page built on a fresh store; frames = drawing "
          "and packing every step (once); server step = render_step, one step drawn on the server")
    head: tuple[str, ...] = ("game", "sent KB", "diffs KB", "whole KB", "answer KB", "open ms", "frames ms",
                             "server step")
    print("  ".join(f"{h:>11}" for h in head))
    for game, sent, diffs, whole, answer, open_ms, frames_ms, server_ms in weights(logs):
        cells = [game, f"{sent / 1024:.0f}", f"{diffs / 1024:.0f}", f"{whole / 1024:.0f}", f"{answer / 1024:.0f}",
                 f"{open_ms:.0f}", f"{frames_ms:.0f}", f"{server_ms:.2f}"]
        print("  ".join(f"{c:>11}" for c in cells))
    try:
        times = browser(logs)
    except ImportError:
        print("browser part skipped: Playwright is not installed")
        return True
    if times is None:
        return True
    ok = True
    print(f"Key press → painted board, ms ({ROUNDS} interleaved rounds of {PRESSES} → presses from step {START})")
    head = ("game", "browser med", "browser p90", "ref med", "ref p90", "ref/browser")
    print("  ".join(f"{h:>11}" for h in head))
    for game in logs:
        med, p90 = median_p90(times["browser"][game])
        ok = ok and med < 50
        cells = [game, f"{med:.1f}", f"{p90:.1f}"]
        if times["reference"][game]:
            ref_med, ref_p90 = median_p90(times["reference"][game])
            cells += [f"{ref_med:.1f}", f"{ref_p90:.1f}", f"{ref_med / med:.1f}x"]
        print("  ".join(f"{c:>11}" for c in cells))
    print("goal met: every median step under 50 ms" if ok else "goal missed: a median step took 50 ms or more")
    return True  # a missed goal is reported, not a failure of `make bench` (like every benchmark here)
