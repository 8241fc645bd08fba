"""The read-model seam: what a read model is, and a batch of matches computed and written for any of them.

A read model is a table kept from the log (`ReadModel`): given one match's fold, verified and folded once from
its stored rows, it `compute`s that match's rows; given a batch of matches' rows it `write`s them over the old
ones in the caller's transaction. A `followed` model is kept current by the projector from the log's global
positions, with a checkpoint of its own; the others are written by the append itself (snapshots) and only
rebuilt here. `rebuild`, the projector and `rebuild_snapshots` go through `compute` and `write` alone.

Everything a worker process needs is plain data: a `Plan` (the models, each picklable) and `MatchToProject`s
in, `Projected`s out.
"""

from __future__ import annotations

import gc
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sqlalchemy import JSON, Table, insert, select
from sqlalchemy.engine import Connection

from projections.timeline import Fold
from recorder.log.file import GENESIS
from recorder.sql.rows import EventRow, link_texts, rows_by_match
from recorder.sql.tables import Match
from recorder.store.matches import StoredFold, verified_fold

MATCHES = Match.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class MatchToProject:
    """What the match list says of a match: enough to date its rows and bound what is read of it."""

    match_id: str
    meta: Any
    created_at: Any  # a datetime, as the column type reads it
    last_seq: int


def matches_to_project(conn: Connection, match_ids: Sequence[str]) -> list[MatchToProject]:
    q = select(MATCHES.c.id, MATCHES.c.meta, MATCHES.c.created_at, MATCHES.c.last_seq)
    return [MatchToProject(*r) for r in conn.execute(q.where(MATCHES.c.id.in_(list(match_ids))))]


@dataclass
class Projected:
    """One match's rows of each read model, by the model's name. A model with no entry made no row for it (not
    even seq 1 verifies: its rows go). `upto`: the last seq read, so a writer keeps a newer row written
    meanwhile and replaces only what this read covered."""

    match_id: str
    events: int
    upto: int
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def of(self, model: ReadModel) -> list[dict[str, Any]]:
        return self.rows.get(model.name, [])


class ReadModel(ABC):
    """A table kept from the log (see the module docstring). Instances are picklable: a rebuild hands them to
    its worker processes."""

    name: ClassVar[str]  # what `scorebook rebuild` calls it; a followed model's checkpoint row
    table: ClassVar[Table]
    followed: ClassVar[bool] = False  # kept current by the projector from the log's positions

    @abstractmethod
    def compute(self, match: MatchToProject, fold: Fold[Any], rows: Sequence[EventRow]) -> list[dict[str, Any]]:
        """The match's rows (column values) from its fold; `rows`: its stored rows when they were folded, else
        empty (the fold came from the store's cache)."""

    @abstractmethod
    def write(self, conn: Connection, batch: Sequence[Projected]) -> None:
        """Write this model's rows of `batch` over the old ones, in the caller's transaction."""


@dataclass(frozen=True)
class Plan:
    """The read models a batch is computed and written for."""

    models: tuple[ReadModel, ...]

    @property
    def followed(self) -> tuple[ReadModel, ...]:
        return tuple(m for m in self.models if m.followed)


def project(match: MatchToProject, rows: Sequence[EventRow], plan: Plan) -> Projected:
    """A match's rows of every model of `plan`, its stored rows verified (chain and rules) and folded once, as
    every read of the store does (`verified_fold`)."""
    link_texts(rows, GENESIS)  # every row's hash checked, and their texts decoded at once, for `verified_fold`
    fold = verified_fold(StoredFold(None, GENESIS, 0), rows, match.last_seq).fold
    out = Projected(match.match_id, len(rows), min(len(rows), match.last_seq))
    if fold is not None:
        out.rows = {m.name: m.compute(match, fold, rows) for m in plan.models}
    return out


def projected_from(match: MatchToProject, fold: Fold[Any] | None, plan: Plan) -> Projected:
    """A match's rows from a fold the store already holds (None: not even seq 1 verifies)."""
    if fold is None:
        return Projected(match.match_id, 0, match.last_seq)
    return Projected(match.match_id, fold.seq, max(match.last_seq, fold.seq),
                     {m.name: m.compute(match, fold, ()) for m in plan.models})


@contextmanager
def no_gc() -> Iterator[None]:
    """Folding makes millions of small objects and no cycles: the collector's passes over them cost more
    than the folding (2.5× on a rebuild)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def compute(conn: Connection, plan: Plan, batch: Sequence[MatchToProject]) -> list[Projected]:
    """The read-model rows of a batch of matches, from their stored rows (one query)."""
    rows = rows_by_match(conn, [m.match_id for m in batch])
    with no_gc():
        return [project(m, rows.get(m.match_id, []), plan) for m in batch]


def write(conn: Connection, batch: Sequence[Projected], plan: Plan) -> None:
    """Write a batch's rows of every model of `plan` over the old ones, in the caller's transaction."""
    for model in plan.models:
        model.write(conn, batch)


def insert_rows(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert `rows` (column values, every row the same columns): on PostgreSQL by COPY, which costs the server
    and this process about half what the statements did; JSON columns get the text their type would write."""
    if not rows:
        return
    if conn.dialect.name != "postgresql":
        conn.execute(insert(table), rows)
        return
    columns = list(rows[0])
    as_json = [isinstance(table.c[c].type, JSON) for c in columns]
    dumps = conn.dialect._json_serializer or json.dumps  # type: ignore[attr-defined]
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        with cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([dumps(v) if j else v for v, j in zip(row.values(), as_json, strict=True)])
    finally:
        cursor.close()
