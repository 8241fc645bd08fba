"""How fast the replay answers a step change on a 500-event match, against baselines of the same run.

For each game, a 500-event match (a seeded random legal match) is stored in a temporary SQLite
database, its replay page is opened once (the replay model is built and cached), and then random steps
are asked for:

- `step callback`: `render_step`, the work of the Dash callback on a step change — the cached fold's
  state at k drawn as the board, the scores, the panel, the score-chart patch;
- `HTTP round trip`: the same through the real app (FastAPI → a2wsgi → Flask → Dash), in process;
- baselines: `refold to k`, folding the log from the start up to k (what a replay without the kept
  states would do per step), and `cold fold`, the store folding the whole match from the database.

Times are medians and 95th percentiles in milliseconds; ratios are baseline / step callback. Exits 1
when the HTTP round trip's 95th percentile is not under 100 ms.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

STEPS = 500
SAMPLES = 150
OPTIONS = {
    "tri-ominos": {"target_score": 1500},
    "high-five": {"target_score": 300},
    "hi-spot": {"target_score": 600},
    "hats-off": {"target_score": 900},
}


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


def main() -> bool:
    import warnings

    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

    from dashboard.model import ReplayCache
    from dashboard.pages.replay import layout, render_step
    from projections.timeline import fold_dicts
    from recorder import Scorebook
    from recorder.logfile import import_lines
    from recorder.server import build_app

    rng = random.Random(7)
    ok = True
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        sb = Scorebook.open(str(Path(tmp) / "bench.db"))
        client = TestClient(build_app(sb))
        for game in OPTIONS:
            log = long_log(game)
            match_id = sb.import_log(import_lines(log), "bench")["match_id"]
            cache = ReplayCache()
            t = time.perf_counter()
            layout(sb, cache, match_id, "?step=0")  # opening the page builds the replay model once
            open_ms = (time.perf_counter() - t) * 1000
            steps = [rng.randint(0, STEPS) for _ in range(SAMPLES)]
            step_ms = _timed(partial(render_step, sb, cache, match_id), steps)

            outputs = ["board.figure", "player-panel.children", "step-label.children", "score-text.children",
                       "event-now.children", "score-chart.figure"]

            def http(k: int, m: str = match_id, outputs: list[str] = outputs) -> None:
                body = {
                    "output": ".." + "...".join(outputs) + "..",
                    "outputs": [{"id": o.split(".")[0], "property": o.split(".")[1]} for o in outputs],
                    "inputs": [{"id": "replay-slider", "property": "value", "value": k}],
                    "state": [{"id": "replay-meta", "property": "data", "value": {"match_id": m, "n": STEPS}}],
                    "changedPropIds": ["replay-slider.value"],
                }
                r = client.post("/_dash-update-component", content=json.dumps(body),
                                headers={"Content-Type": "application/json"})
                assert r.status_code == 200, r.text

            http(1)  # warm the app
            http_ms = _timed(http, steps)
            refold_ms = _timed(lambda k: fold_dicts(log[: max(1, k)]), steps[:40])  # noqa: B023 (called at once)

            def cold(_: int, m: str = match_id) -> None:
                Scorebook.from_engine(sb.engine).fold(m)  # a new store: nothing cached, every event read and applied

            cold_ms = _timed(cold, steps[:20])
            step_med, step_p95 = median_p95(step_ms)
            http_med, http_p95 = median_p95(http_ms)
            refold_med, _ = median_p95(refold_ms)
            cold_med, _ = median_p95(cold_ms)
            ok = ok and http_p95 < 100
            rows.append((game, open_ms, step_med, step_p95, http_med, http_p95, refold_med, cold_med))
        sb.close()
    print(f"Replay step change on {STEPS}-event matches ({SAMPLES} random steps each); times in ms")
    head = ("game", "open page", "step med", "step p95", "HTTP med", "HTTP p95", "refold to k", "cold fold",
            "refold/step", "cold/step")
    print("  ".join(f"{h:>11}" for h in head))
    for game, open_ms, step_med, step_p95, http_med, http_p95, refold_med, cold_med in rows:
        cells = [game, f"{open_ms:.1f}", f"{step_med:.2f}", f"{step_p95:.2f}", f"{http_med:.2f}", f"{http_p95:.2f}",
                 f"{refold_med:.1f}", f"{cold_med:.1f}", f"{refold_med / step_med:.1f}x", f"{cold_med / step_med:.1f}x"]
        print("  ".join(f"{c:>11}" for c in cells))
    print("OK: every step change answered well under 100 ms" if ok else "SLOW: a step change took 100 ms or more")
    return ok
