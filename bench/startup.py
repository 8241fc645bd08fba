"""How fast the `scorebook` command starts, against `python -c pass` measured in the same run.

Each round runs, as subprocesses and in turn, the baseline `python -c pass`, `scorebook --help`, and
`scorebook matches --db <a migrated SQLite file holding a few matches>`, so that every command shares
the machine's load with the baseline it is divided by. After one warm-up round (bytecode caches, the
file cache), ROUNDS rounds are timed. Reported: the median wall time and its spread (min–max) in ms,
and the ratio to the baseline: the ratio of the medians and the spread of the per-round ratios.
Nothing is asserted: the figures depend on the machine.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 11


def _scorebook() -> list[str]:
    """The installed `scorebook` script beside this Python (what a user runs), else the module."""
    script = Path(sys.executable).with_name("scorebook")
    return [str(script)] if script.exists() else [sys.executable, "-m", "scorebook.cli"]


def _run_ms(argv: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    ms = (time.perf_counter() - t) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return ms


def _seed(path: Path) -> None:
    from recorder import Scorebook
    from recorder.demo import record_demo

    with Scorebook.open(str(path)) as sb:  # migrated to head, as `scorebook matches` expects
        record_demo(sb, 1, seed=3)


def measure(rounds: int = ROUNDS) -> dict[str, list[tuple[float, float]]]:
    """For each command, (ms, baseline ms of the same round) per timed round."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "startup.db"
        _seed(db)
        env = {**os.environ, "COLUMNS": "100"}
        env.pop("SCOREBOOK_DATABASE_URL", None)
        commands = {
            "scorebook --help": [*_scorebook(), "--help"],
            "scorebook matches": [*_scorebook(), "matches", "--db", str(db)],
        }
        baseline = [sys.executable, "-c", "pass"]
        timed: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round_ in range(rounds + 1):
            for name, argv in commands.items():
                base_ms = _run_ms(baseline, env)
                ms = _run_ms(argv, env)
                if round_:  # round 0 warms up
                    timed[name].append((ms, base_ms))
    return timed


def main() -> bool:
    timed = measure()
    base_all = [b for runs in timed.values() for _, b in runs]
    print(f"\nStart-up of the command line, {ROUNDS} rounds, each interleaved with `python -c pass`; times in ms")
    print(f"  {'baseline python -c pass':>24}  median {statistics.median(base_all):7.1f}  "
          f"min–max {min(base_all):.1f}–{max(base_all):.1f}")
    head = ("command", "median", "min–max", "baseline med", "ratio", "ratio min–max")
    print("  ".join(f"{h:>18}" for h in head))
    for name, runs in timed.items():
        ms = [m for m, _ in runs]
        base = [b for _, b in runs]
        ratios = [m / b for m, b in runs]
        cells = [name, f"{statistics.median(ms):.1f}", f"{min(ms):.1f}–{max(ms):.1f}", f"{statistics.median(base):.1f}",
                 f"{statistics.median(ms) / statistics.median(base):.1f}x", f"{min(ratios):.1f}x–{max(ratios):.1f}x"]
        print("  ".join(f"{c:>18}" for c in cells))
    return True


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
