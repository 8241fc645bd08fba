"""The cyclic garbage collector paused while a fold runs (`paused()`), for folds of whole logs.

A fold allocates a few container objects per event (a state, its dict, its tuples) and keeps all of
them, so the collector's young generation fills every few hundred events and its passes walk the
growing fold again and again, only to find nothing: states only point at older values, never back, and
a fold makes no reference cycles. That was about a fifth of a fold's time. While any fold is paused
the collector does not run at all; when the last one ends it is enabled again (if it was enabled when
the first began), and its next pass looks at the fold's objects once. Reference counting frees memory
as usual meanwhile: only garbage in cycles, from other threads, waits until the fold ends.

`gc.disable()` is process-wide, so the pauses are counted under a lock: overlapping folds in several
threads (and a fold that loads an earlier one inside it) enable the collector once, at the very end.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # folds running with the collector paused
_was_enabled = False  # whether the first of them found the collector enabled


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
