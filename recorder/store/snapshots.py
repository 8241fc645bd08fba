"""Snapshots: a match's state at every `SNAPSHOT_EVERY`-th seq, so that a cold read folds fewer than that
many events instead of the whole log.

A snapshot is a projection of the log, and only an optimisation: it is written in the same transaction
as the rows it follows (`EventStore._insert` and the one-trip append call `Snapshots.rows_for`), so it never
runs ahead of a committed event and needs no follower or checkpoint; `rebuild_snapshots` rewrites them all from the log
(`recorder.readmodels.snapshots`, for `scorebook rebuild`), e.g. after an upgrade changed the games' code.

The state is a pickle, and unpickling runs code named by the bytes: a row is unpickled only when its
HMAC-SHA256, keyed by the server's secret (`recorder.access.sessions.load_secret`, $SCOREBOOK_SECRET) and bound
to the match, the seq, the hash of the event at that seq and the version, checks. The version is the
Python version and a digest of the `projections` package's source, so a snapshot of another code version
is never read. A snapshot that is missing, of another version, or whose MAC fails is ignored and the
match is folded from its log. A fold from a snapshot still verifies the hash chain from the snapshot's
hash on (see `recorder.store.matches`); the rows before it are vouched for by the snapshot (the chain ended in
that hash when the server took it) and are checked again whenever an earlier seq is refolded and by
`scorebook verify`.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy.engine import Connection, Engine

import projections
from projections.events import Event
from projections.timeline import Fold
from recorder.sql.engine import driver_rows
from recorder.sql.tables import MatchSnapshot, utcnow

SNAPSHOT_EVERY = 100  # events between snapshots: a cold read folds at most 99 (see docs/PERFORMANCE.md)
_KEY_PURPOSE = b"scorebook.snapshots.v1"


@cache
def code_version() -> str:
    """The Python version and a digest of the games' code (every source file of `projections`)."""
    root = Path(projections.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in {".py", ".json"} and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    v = sys.version_info
    return f"py{v.major}.{v.minor}.{v.micro}-{digest.hexdigest()[:24]}"


def snapshot_key(secret: str) -> bytes:
    """The MAC key: derived from the server's secret, so that it is not the key that signs cookies."""
    return hmac.new(secret.encode(), _KEY_PURPOSE, hashlib.sha256).digest()


@dataclass(frozen=True)
class Resumable:
    """What a verified snapshot gives: the match's match_started event, the state and the superseded seqs
    right after seq `seq`, whose event's hash was `hash`."""

    seq: int
    hash: str
    start: Event
    state: Any
    superseded_by: dict[int, int]
    abandons: tuple[int, ...] = ()  # the fold's match_abandoned seqs (`Fold.abandons`)


# Objects every state of a game shares (hi-spot's default tile set, with its memo) are written as a name,
# not copied into every snapshot.
_SHARING = frozenset({"hi-spot"})  # the games whose states hold one of `_shared`'s objects


_DEFAULT_TILES = "hi-spot/default-tiles"
# The names as they stand in a payload: one with none of them holds no persistent id, and the C unpickler reads it
# with no hook (5000 events of Hats Off: 210 µs to unpickle with the hook, 165 without).
_SHARED_NAMES = (_DEFAULT_TILES.encode(),)


def _shared() -> dict[str, Any]:
    from projections.games.hi_spot.tiles import default_tile_set

    return {_DEFAULT_TILES: default_tile_set()}


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: dict[int, str]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._shared = shared

    def persistent_id(self, obj: Any) -> str | None:
        return self._shared.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, shared: dict[str, Any]) -> None:
        super().__init__(file)
        self._shared = shared

    def persistent_load(self, pid: Any) -> Any:
        if pid not in self._shared:
            raise pickle.UnpicklingError(f"unknown shared object {pid!r}")
        return self._shared[pid]


def _dumps(value: Any, game: str) -> bytes:
    if game not in _SHARING:  # nothing shared to name: the C pickler with no Python hook per object
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    buf = io.BytesIO()
    _Pickler(buf, {id(obj): name for name, obj in _shared().items()}).dump(value)
    return buf.getvalue()


def _loads(data: bytes) -> Any:
    if not any(name in data for name in _SHARED_NAMES):  # names nothing shared: the C unpickler with no hook
        return pickle.loads(data)
    return _Unpickler(io.BytesIO(data), _shared()).load()


class Snapshots:
    """Makes and reads the snapshot rows of a store, with the server's key. `every` 0 writes none."""

    def __init__(self, key: bytes, every: int = SNAPSHOT_EVERY, version: str | None = None) -> None:
        self.key = key
        self.every = every
        self.version = version or code_version()

    def _mac(self, match_id: str, seq: int, hash: str, version: str, payload: bytes) -> str:
        head = f"{match_id}\n{seq}\n{hash}\n{version}\n".encode()
        return hmac.new(self.key, head + payload, hashlib.sha256).hexdigest()

    def values(self, match_id: str, fold: Fold[Any], seq: int, hash: str) -> dict[str, Any]:
        """The snapshot of `fold` right after `seq`, whose event's hash is `hash`, as a row's column values."""
        at = fold.at(seq)
        payload = _dumps((fold.event(1), at.state, dict(at.superseded_by), at.abandons), fold.game.name)
        return {"match_id": match_id, "seq": seq, "hash": hash, "version": self.version,
                "mac": self._mac(match_id, seq, hash, self.version, payload), "payload": payload,
                "created_at": utcnow()}

    def rows_for(self, match_id: str, fold: Fold[Any], envelopes: Sequence[dict[str, Any]],
                 fold_at: Callable[[int], Fold[Any]] | None = None) -> list[dict[str, Any]]:
        """Snapshot rows (column values) at the seqs among `envelopes` (new rows, folded into `fold`) that are
        multiples of `every`; `fold_at`: the fold at such a seq, when `fold` does not hold every state."""
        if self.every <= 0:
            return []
        at = fold_at or fold.at
        return [self.values(match_id, at(env["seq"]), env["seq"], env["hash"]) for env in envelopes
                if env["seq"] % self.every == 0 and env["seq"] <= fold.seq]

    def read(self, row: Any, match_id: str) -> Resumable | None:
        """The snapshot's content, or None when it is not one this server wrote for this code version."""
        if row.version != self.version or row.match_id != match_id:
            return None
        payload = bytes(row.payload)
        if not hmac.compare_digest(self._mac(match_id, row.seq, row.hash, row.version, payload), row.mac or ""):
            return None
        try:
            start, state, superseded, abandons = _loads(payload)
        except Exception:  # a snapshot is an optimisation: one that cannot be read is not used
            return None
        if not isinstance(start, Event) or not isinstance(superseded, dict) or not isinstance(abandons, tuple):
            return None
        return Resumable(row.seq, row.hash, start, state, superseded, abandons)

    def candidates(self, conn: Connection, match_id: str, upto: int, limit: int = 3) -> Iterator[Resumable]:
        """Verified snapshots of the match at seqs <= `upto`, latest first. Read on the driver's cursor, in
        `conn`'s transaction: this runs on the first read or append of a match after a start, where building
        and running the Core query cost 0.14 ms, a tenth of the whole append."""
        found_rows = driver_rows(conn.connection.dbapi_connection, conn.dialect, _CANDIDATES,
                                 (match_id, upto, self.version, limit))
        for row in map(_SnapshotRow._make, found_rows):
            try:
                found = self.read(row, match_id)
            except (TypeError, ValueError):  # a column holding something else than a snapshot writes: not used
                found = None
            if found is not None:
                yield found


class _SnapshotRow(NamedTuple):
    match_id: Any
    seq: Any
    hash: Any
    version: Any
    mac: Any
    payload: Any


_CANDIDATES = (f"SELECT match_id, seq, hash, version, mac, payload FROM {MatchSnapshot.__tablename__} "
               "WHERE match_id = ? AND seq <= ? AND version = ? ORDER BY seq DESC LIMIT ?")


def load_key(engine: Engine) -> bytes:
    """The snapshot key of the server on `engine`: from $SCOREBOOK_SECRET or the data directory's secret."""
    from recorder.access.sessions import data_dir, load_secret

    return snapshot_key(load_secret(data_dir(engine.url)))


__all__ = ["SNAPSHOT_EVERY", "Resumable", "Snapshots", "code_version", "load_key", "snapshot_key"]
