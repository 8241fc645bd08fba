"""`make bench`: every benchmark, each reported as ratios against a baseline measured in the same run."""

import sys

from bench import append, replay

ok = replay.main()
ok = append.main() and ok
sys.exit(0 if ok else 1)
