"""The games by name. Each game module exposes `GAME`, an object following `protocol.Game`."""

from __future__ import annotations

import importlib

from projections.errors import IllegalEvent
from projections.protocol import Game

_MODULES = {
    "tri-ominos": "projections.tri_ominos",
    "high-five": "projections.high_five",
    "hi-spot": "projections.hi_spot",
    "hats-off": "projections.hats_off",
}

GAME_NAMES = tuple(_MODULES)


def get_game(name: object) -> Game:
    if not isinstance(name, str) or name not in _MODULES:
        raise IllegalEvent(f"unknown game {name!r}; Scorebook records {', '.join(GAME_NAMES)}")
    return importlib.import_module(_MODULES[name]).GAME  # type: ignore[no-any-return]
