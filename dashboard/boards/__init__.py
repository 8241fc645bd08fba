"""Board figures, one module per game. Each draws a projection's state JSON (`Game.to_json`) as a plotly
figure (a plain dict: built in well under a millisecond, no validation pass) and lists what the player
panels beside the board say. They read nothing else: no rules, no store."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dashboard.boards import hats_off, hi_spot, high_five, tri_ominos
from dashboard.boards.drawing import Figure, empty_figure
from dashboard.boards.panels import Panel

__all__ = ["Figure", "board_figure", "empty_figure", "player_lines"]

Players = Sequence[tuple[str, str]]

_FIGURES: Mapping[str, Callable[..., Figure]] = {
    "tri-ominos": tri_ominos.figure,
    "high-five": high_five.figure,
    "hi-spot": hi_spot.figure,
    "hats-off": hats_off.figure,
}
_PANELS: Mapping[str, Callable[..., Panel]] = {
    "tri-ominos": tri_ominos.panel,
    "high-five": high_five.panel,
    "hi-spot": hi_spot.panel,
    "hats-off": hats_off.panel,
}


def board_figure(game: str, board: Mapping[str, Any], players: Players, reveal: bool, **extra: Any) -> Figure:
    """The board of `game` drawn from its state JSON; hands and racks only when `reveal`."""
    return _FIGURES[game](board, players, reveal, **extra)


def player_lines(game: str, board: Mapping[str, Any], reveal: bool) -> Panel:
    """player id -> the lines of that player's panel (hand, rack, pile …)."""
    return _PANELS[game](board, reveal)

