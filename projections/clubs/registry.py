"""The kinds of club stream by name, as a stream's first event and the store name them."""

from __future__ import annotations

from typing import Any

from projections.clubs.players import PLAYERS
from projections.clubs.protocol import StreamKind
from projections.clubs.tournament import TOURNAMENT

KINDS: dict[str, StreamKind[Any]] = {"players": PLAYERS, "tournament": TOURNAMENT}


def get_kind(name: str) -> StreamKind[Any]:
    """The kind called `name`, or KeyError naming the known ones."""
    kind = KINDS.get(name)
    if kind is None:
        raise KeyError(f"unknown kind of stream {name!r}; known: {', '.join(KINDS)}")
    return kind
