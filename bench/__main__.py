"""`make bench`: every benchmark, each reported as ratios against a baseline measured in the same run.

`python -m bench startup` (or `replay`, `append`, `pad`, `reducers`, `readside`, `cache`, `write`) runs only the ones
named."""

import sys

from bench import append, cache, pad, readside, reducers, replay, startup, write_path

BENCHMARKS = {
    "replay": replay.main,
    "append": append.main,
    "pad": pad.main,
    "startup": startup.main,
    "reducers": reducers.main,
    "readside": readside.main,
    "cache": cache.main,
    "write": write_path.main,
}

def main() -> int:
    chosen = sys.argv[1:] or list(BENCHMARKS)
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        sys.exit(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    ok = True
    for name in chosen:
        ok = BENCHMARKS[name]() and ok
    return 0 if ok else 1


if __name__ == "__main__":  # not when a worker process (rebuild's) imports this module again
    sys.exit(main())
