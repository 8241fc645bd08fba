"""How fast each game's validating fold runs (events/s, full knowledge), beside references of the same run.

For each game, seeded random legal matches (`game.random_match`, every tile known) for several seeds and
player counts, long targets (bench.replay's options): thousands of events per game. Each round times,
per game and interleaved:

- `fold`: `fold_dicts` over every log — the Events built from the import form, then `Fold.begin` /
  `Fold.extend`, every rule checked, every state kept (what the store does on a cold read);
- `floor`: a plain loop that builds the same `Event` objects and copies each event's data — what any
  fold costs at least;
- `before` (when SCOREBOOK_BENCH_BASELINE names a directory holding another `projections` package, e.g.
  `git archive <commit> projections | tar -x -C DIR`): the same fold by that code, in a worker process
  fed the same logs, its final scores checked against ours.

Both codes run in worker processes set up alike; times are the worker's CPU time (`process_time`: the
machine is shared, and wall time there measures the queue). Figures are medians over the rounds. The
goals: Tri-Ominos ≥ 50k events/s, the others ≥ 200k; a missed goal is printed as "goal
missed", not an error. Exits 1 only when something breaks (a fold refuses a legal log, or the baseline
scores the logs differently).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.replay import OPTIONS

ROUNDS = int(os.environ.get("SCOREBOOK_BENCH_ROUNDS", "7"))
SEEDS = (1, 2)
GOALS = {"tri-ominos": 50_000, "high-five": 200_000, "hi-spot": 200_000, "hats-off": 200_000}
BASELINE_ENV = "SCOREBOOK_BENCH_BASELINE"
PLAYERS = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 7)]
HERE = Path(__file__).resolve().parent.parent

# Run in a worker process with the code to measure first on its path (this tree's, or the baseline's),
# so both are measured alike: the same logs read from one file, the same imports, the objects of the
# setup frozen out of the garbage collector's way. One line per request (a game's name), one answer
# per line: seconds for the floor and for the fold of that game's logs, and the final totals.
WORKER = """
import gc, json, sys, time
import projections
from projections.events import Event
from projections.timeline import fold_dicts
print(json.dumps(projections.__file__), flush=True)
logs = json.load(open(sys.argv[1]))
gc.collect()
gc.freeze()
for line in sys.stdin:
    game = line.strip()
    t = time.process_time()
    for log in logs[game]:
        [Event(i, e["type"], dict(e["data"])) for i, e in enumerate(log, start=1)]
    floor = time.process_time() - t
    t = time.process_time()
    folds = [fold_dicts(log) for log in logs[game]]
    seconds = time.process_time() - t
    totals = [f.game.scores(f.state).totals for f in folds]
    del folds
    gc.collect()
    print(json.dumps([floor, seconds, totals]), flush=True)
"""


def match_logs(game_name: str) -> list[list[dict[str, Any]]]:
    """The seeded matches of one game: every seed with two, three and four players (where allowed)."""
    from projections.registry import get_game

    game = get_game(game_name)
    d = game.descriptor
    counts = range(d.min_players, min(d.max_players, d.min_players + 2) + 1)
    return [
        game.random_match(random.Random(seed * 100 + n), PLAYERS[:n], dict(OPTIONS[game_name]))
        for seed in SEEDS
        for n in counts
    ]


class _Worker:
    """A process folding with the `projections` package found in `root`."""

    def __init__(self, root: Path, logs_file: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(logs_file)],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.where = json.loads(self._line())

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker stopped (exit code {self.proc.wait()})")
        return line

    def fold(self, game: str) -> tuple[float, float, list[dict[str, int]]]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(game + "\n")
        self.proc.stdin.flush()
        floor, seconds, totals = json.loads(self._line())
        return floor, seconds, totals

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _rate(events: int, seconds: list[float]) -> float:
    return events / statistics.median(seconds)


def main() -> bool:
    logs = {game: match_logs(game) for game in GOALS}
    events = {game: sum(len(log) for log in game_logs) for game, game_logs in logs.items()}
    root = os.environ.get(BASELINE_ENV)
    times: dict[str, dict[str, list[float]]] = {g: {"fold": [], "floor": [], "before": []} for g in GOALS}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        logs_file = Path(tmp) / "logs.json"
        logs_file.write_text(json.dumps(logs), encoding="utf-8")
        workers = {"fold": _Worker(HERE, logs_file)}
        if root:
            workers["before"] = _Worker(Path(root).resolve(), logs_file)
        for name, worker in workers.items():
            print(f"{name}: {worker.where}")
        try:
            for r in range(ROUNDS):
                games = list(GOALS)[r % len(GOALS) :] + list(GOALS)[: r % len(GOALS)]  # vary the order
                for game in games:
                    results = {name: worker.fold(game) for name, worker in workers.items()}
                    floor, seconds, totals = results["fold"]
                    times[game]["floor"].append(floor)
                    times[game]["fold"].append(seconds)
                    if "before" in results:
                        _, before_seconds, before_totals = results["before"]
                        times[game]["before"].append(before_seconds)
                        if before_totals != totals:
                            print(f"{game}: the baseline scores the logs differently: {before_totals} != {totals}")
                            ok = False
        finally:
            for worker in workers.values():
                worker.close()
    print(f"\nValidating folds, full knowledge, events/s (median of {ROUNDS} interleaved rounds)")
    head = ("game", "events", "fold", "floor", "floor/fold", "before", "fold/before", "goal", "")
    print("  ".join(f"{h:>11}" for h in head))
    for game in GOALS:
        n = events[game]
        fold_rate = _rate(n, times[game]["fold"])
        floor_rate = _rate(n, times[game]["floor"])
        before: tuple[str, str] = ("-", "-")
        if times[game]["before"]:
            before_rate = _rate(n, times[game]["before"])
            before = (f"{before_rate:,.0f}", f"{fold_rate / before_rate:.1f}x")
        verdict = "goal met" if fold_rate >= GOALS[game] else "goal missed"
        cells = (game, f"{n:,}", f"{fold_rate:,.0f}", f"{floor_rate:,.0f}", f"{floor_rate / fold_rate:.0f}x",
                 *before, f"{GOALS[game]:,}", verdict)
        print("  ".join(f"{c:>11}" for c in cells))
    if not root:
        print(f"(set {BASELINE_ENV}=DIR, DIR holding the projections package to compare with, for 'before')")
    return ok
