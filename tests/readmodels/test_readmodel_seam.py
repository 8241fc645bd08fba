"""The read-model seam (recorder/readmodels/model.py): a model that is neither facts nor snapshots, plugged in
through `compute`, `write` and `table` alone, is kept current by the projector and rewritten by a rebuild,
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, delete, insert, select
from sqlalchemy.engine import Connection

from projections.timeline import Fold
from recorder.facade import Scorebook
from recorder.readmodels.model import MatchToProject, Plan, Projected, ReadModel
from recorder.readmodels.projector import Projector
from recorder.readmodels.rebuild import Rebuild
from recorder.readmodels.registry import TARGETS, followed, plan_for
from recorder.sql.rows import EventRow
from tests.support.logs import START, launch, round_start

_META = MetaData()
LAUNCHES = Table("test_launch_counts", _META, Column("match_id", String(32), primary_key=True),
                 Column("seq", Integer, nullable=False), Column("launches", Integer, nullable=False))


class Launches(ReadModel):
    """How many hats each match has launched: a read model the code does not know."""

    name: ClassVar[str] = "test_launch_counts"
    table: ClassVar[Table] = LAUNCHES
    followed: ClassVar[bool] = True

    def compute(self, match: MatchToProject, fold: Fold[Any], rows: Sequence[EventRow]) -> list[dict[str, Any]]:
        launched = sum(1 for e in fold.events if e.type == "hat_launched")
        return [{"match_id": match.match_id, "seq": fold.seq, "launches": launched}]

    def write(self, conn: Connection, batch: Sequence[Projected]) -> None:
        conn.execute(delete(LAUNCHES).where(LAUNCHES.c.match_id.in_([p.match_id for p in batch])))
        made = [row for p in batch for row in p.of(self)]
        if made:
            conn.execute(insert(LAUNCHES), made)


@pytest.fixture
def counted(scorebook: Scorebook) -> Iterator[Scorebook]:
    _META.create_all(scorebook.engine)
    yield scorebook
    _META.drop_all(scorebook.engine)


def counts(sb: Scorebook) -> dict[str, tuple[int, int]]:
    with sb.engine.connect() as conn:
        return {r.match_id: (r.seq, r.launches) for r in conn.execute(select(LAUNCHES))}


def two_matches(sb: Scorebook) -> tuple[str, str]:
    a = sb.start_match(dict(START), "desk")["match_id"]
    sb.append(a, [round_start(), launch("ann", 1, 5), launch("bo", 1, 2)], 1)
    b = sb.start_match(dict(START), "desk")["match_id"]
    return a, b


def test_a_new_followed_model_is_caught_up_by_the_projector_from_its_own_checkpoint(counted: Scorebook) -> None:
    a, b = two_matches(counted)
    projector = Projector(counted.store, (Launches(),))
    assert projector.checkpoint() == 0  # a model of its own: its own checkpoint row
    assert projector.catch_up() == projector.head()
    assert counts(counted) == {a: (4, 2), b: (1, 0)}
    counted.append(b, [round_start(), launch("ann", 2, 3)], 1)
    assert counts(counted)[b] == (1, 0)  # followed, not written by the append
    projector.catch_up()
    assert counts(counted)[b] == (3, 1)
    assert counted.projector.checkpoint() == 0  # the facts' checkpoint is theirs: untouched


def test_a_rebuild_rewrites_any_model_through_the_seam(counted: Scorebook) -> None:
    a, b = two_matches(counted)
    with counted.engine.begin() as conn:
        conn.execute(insert(LAUNCHES), [{"match_id": a, "seq": 1, "launches": 99}])
    head = Rebuild(counted.engine, Launches.name, Plan((Launches(),))).run()
    assert counts(counted) == {a: (4, 2), b: (1, 0)}
    assert Projector(counted.store, (Launches(),)).checkpoint() == head  # a followed model's checkpoint moves


def test_the_projector_takes_followed_models_only_and_the_registry_names_every_model(counted: Scorebook) -> None:
    plan = plan_for(counted.store, "all")
    assert [m.name for m in plan.models] == ["match_facts", "snapshots"]
    assert TARGETS == ("all", "match_facts", "snapshots")
    assert [m.name for m in followed()] == ["match_facts"]
    with pytest.raises(ValueError, match="followed"):
        Projector(counted.store, [m for m in plan.models if not m.followed])
    with pytest.raises(ValueError, match="no read model 'moon'"):
        plan_for(counted.store, "moon")
