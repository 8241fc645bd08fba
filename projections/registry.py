"""The games by name. Each game is a package under `projections/games/` whose `GAME` is a `protocol.Game`.

Adding a game means adding its package here: nothing else in the project lists the games.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from projections.errors import IllegalEvent
from projections.protocol import Game

# game name -> package under projections.games, in the order the dashboard lists them
_PACKAGES = {
    "tri-ominos": "tri_ominos",
    "high-five": "high_five",
    "hi-spot": "hi_spot",
    "hats-off": "hats_off",
}

GAME_NAMES = tuple(_PACKAGES)


@cache
def _load(name: str) -> Game[Any]:
    module = importlib.import_module(f"projections.games.{_PACKAGES[name]}")
    return module.GAME  # type: ignore[no-any-return]


def package_of(name: str) -> str:
    """The package under projections.games that builds the game `name`."""
    return _PACKAGES[name]


def get_game(name: object) -> Game[Any]:
    if not isinstance(name, str) or name not in _PACKAGES:
        raise IllegalEvent(f"unknown game {name!r}; Scorebook records {', '.join(GAME_NAMES)}")
    return _load(name)


def all_games() -> tuple[Game[Any], ...]:
    return tuple(get_game(name) for name in GAME_NAMES)


def game_title(name: str) -> str:
    """How people write the game's name ("Hi-Spot"); the name itself for a game Scorebook does not know."""
    return get_game(name).descriptor.title if name in _PACKAGES else name


def game_titles() -> dict[str, str]:
    return {name: game_title(name) for name in GAME_NAMES}


def with_rules_version(data: Any) -> Any:
    """match_started `data` of a new match, with its game's current rules version when it names none (or
    null). Unknown games and data that is not an object are left as they are, for the fold to refuse."""
    if not isinstance(data, dict) or data.get("rules_version") is not None:
        return data
    name = data.get("game")
    if not isinstance(name, str) or name not in _PACKAGES:
        return data
    return {**data, "rules_version": _load(name).rules_version}
