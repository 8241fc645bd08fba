"""The read models, the only list of them: `scorebook rebuild`'s names, and what a store keeps."""

from __future__ import annotations

from recorder.readmodels.facts import FACTS
from recorder.readmodels.model import Plan, ReadModel
from recorder.readmodels.snapshots import Snapshots
from recorder.store.matches import EventStore
from recorder.store.snapshots import load_key, snapshot_key

NAMES = (FACTS.name, Snapshots.name)
TARGETS = ("all", *NAMES)


def followed() -> tuple[ReadModel, ...]:
    """The models the projector keeps current."""
    return (FACTS,)


def plan_for(store: EventStore, target: str) -> Plan:
    """The models `scorebook rebuild <target>` recomputes for `store` ("all": every one; the snapshots only
    when the store takes them)."""
    if target not in TARGETS:
        raise ValueError(f"no read model {target!r}; choose from {', '.join(TARGETS)}")
    models: list[ReadModel] = []
    if target in ("all", FACTS.name):
        models.append(FACTS)
    if target in ("all", Snapshots.name) and store.snapshot_every > 0:
        secret = store.snapshot_secret
        key = snapshot_key(secret) if secret is not None else load_key(store.engine)
        models.append(Snapshots(key, store.snapshot_every))
    return Plan(tuple(models))
