"""The player panels beside a board: a few lines per player, and under "" the lines about the board itself."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Panel = dict[str, list[str]]


def player_panel(
    board: Mapping[str, Any], lines_of: Callable[[Mapping[str, Any]], list[str]], info: list[str]
) -> Panel:
    """player id -> `lines_of(player)` for each player of the state JSON in seat order, and "" -> `info`."""
    out = {p["id"]: lines_of(p) for p in board.get("players", [])}
    out[""] = info
    return out


def player_names(board: Mapping[str, Any]) -> dict[str, str]:
    return {p["id"]: p["name"] for p in board.get("players", [])}


def to_play(board: Mapping[str, Any], key: str) -> list[str]:
    """The "to play" line when the state names a player under `key` (games name it differently), else none."""
    pid = board.get(key)
    return [f"to play: {player_names(board).get(pid, pid)}"] if pid else []


def tile_count(n: int, where: str) -> str:
    return f"{n} tile{'s' if n != 1 else ''} {where}"


def tiles_shown(what: str, tiles: Iterable[str], hidden: int) -> str:
    """The tiles the log names, and a ? for each tile it holds that the log never named."""
    shown = list(tiles) + ["?"] * int(hidden)
    return f"{what}: {' '.join(shown) if shown else '(empty)'}"
