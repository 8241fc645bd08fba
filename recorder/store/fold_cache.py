"""The stores' fold cache: the latest fold of recently used matches (a StoredFold), bounded in bytes, or of club
streams (a StreamFold), bounded in entries.

A fold's size is estimated, not measured (measuring a graph of shared persistent states is far too
slow for every publish): the number of states it holds × what one state of its game costs, its descriptor's
`state_bytes`, measured with tracemalloc over folds of long random matches (bench/cache.py prints the
estimate beside tracemalloc's figure; docs/PERFORMANCE.md has the method). The bound is $SCOREBOOK_CACHE_MB MiB, else
`DEFAULT_CACHE_MB`; least recently published or read folds go first.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from projections.timeline import Fold


class Cached(Protocol):
    """What the cache needs of what it holds: the seq it was folded up to (the stream's head when it was read)."""

    @property
    def upto(self) -> int: ...


class CachedFold(Cached, Protocol):
    """What the cache's estimate needs of recorder.store.matches.StoredFold (not imported: the store imports this
    module)."""

    @property
    def fold(self) -> Fold[Any] | None: ...


E = TypeVar("E", bound=Cached)

CACHE_MB_ENV = "SCOREBOOK_CACHE_MB"
DEFAULT_CACHE_MB = 256
ENTRY_BYTES = 4096  # the entry, the fold object, the match_started event, a snapshot's own copies


def configured_bytes(cache_bytes: int | None = None) -> int:
    """`cache_bytes` if given, else $SCOREBOOK_CACHE_MB MiB, else the default."""
    if cache_bytes is not None:
        return cache_bytes
    raw = os.environ.get(CACHE_MB_ENV, "").strip()
    if raw:
        try:
            mb = float(raw)
        except ValueError:
            raise ValueError(f"{CACHE_MB_ENV} must be a number of MiB, not {raw!r}") from None
        if mb < 0:
            raise ValueError(f"{CACHE_MB_ENV} must not be negative, not {raw!r}")
        return int(mb * 1024 * 1024)
    return DEFAULT_CACHE_MB * 1024 * 1024


def held_bytes(fold: Fold[Any]) -> int:
    """What the states `fold` holds take, as estimated: each its game's `state_bytes`."""
    return fold.held_states * fold.game.descriptor.state_bytes


def estimated_bytes(stored: CachedFold) -> int:
    """A match's fold's size (see the module)."""
    fold = stored.fold
    if fold is None:
        return ENTRY_BYTES
    return ENTRY_BYTES + held_bytes(fold)


def uncounted(stored: Any) -> int:
    """The size of an entry of a cache bounded in entries only."""
    return 0


class FoldCache(Generic[E]):
    """Stream id -> its latest fold, least recently used first; at most `max_bytes` (each entry's `size`: by default
    a match's `estimated_bytes`) and `max_entries`."""

    def __init__(self, max_bytes: int, max_entries: int = 1_000_000,
                 size: Callable[[Any], int] = estimated_bytes) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._size = size
        self._entries: OrderedDict[str, tuple[E, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, match_id: str) -> bool:
        return match_id in self._entries

    def get(self, match_id: str) -> E | None:
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None:
                return None
            self._entries.move_to_end(match_id)
            return entry[0]

    def publish(self, match_id: str, stored: E) -> None:
        """Keep `stored` unless a fold further on is already cached (a slower writer must not undo a faster)."""
        with self._lock:
            current = self._entries.get(match_id)
            if current is None or current[0].upto <= stored.upto:
                self._set(match_id, stored, self._size(stored))
            self._entries.move_to_end(match_id)
            self._evict()

    def clear(self) -> None:
        """Forget every fold (what a restarted process holds)."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def drop(self, match_id: str) -> None:
        with self._lock:
            entry = self._entries.pop(match_id, None)
            if entry is not None:
                self._bytes -= entry[1]

    def grow(self, match_id: str, extra: int) -> None:
        """Count `extra` more bytes for the match's entry (its fold has loaded the states before a snapshot)."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is not None:
                self._set(match_id, entry[0], entry[1] + extra)
                self._evict()

    def _set(self, match_id: str, stored: E, size: int) -> None:
        old = self._entries.get(match_id)
        self._bytes += size - (old[1] if old is not None else 0)
        self._entries[match_id] = (stored, size)

    def _evict(self) -> None:
        # Oldest first; a fold larger than the whole bound is not kept at all (its caller still has it).
        while self._entries and (self._bytes > self.max_bytes or len(self._entries) > self.max_entries):
            _, (_, size) = self._entries.popitem(last=False)
            self._bytes -= size
