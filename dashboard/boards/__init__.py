"""Board figures, one module per game. Each draws a projection's state JSON (`Game.to_json`) as a plotly
figure (a plain dict: built in well under a millisecond, no validation pass) and lists what the player
panels beside the board say. They read nothing else: no rules, no store."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dashboard.boards import hats_off, hi_spot, high_five, tri_ominos
from dashboard.theme import MUTED, base_layout, hidden_axis

Players = Sequence[tuple[str, str]]
Figure = dict[str, Any]

_FIGURES: Mapping[str, Callable[..., Figure]] = {
    "tri-ominos": tri_ominos.figure,
    "high-five": high_five.figure,
    "hi-spot": hi_spot.figure,
    "hats-off": hats_off.figure,
}
_PANELS: Mapping[str, Callable[..., dict[str, list[str]]]] = {
    "tri-ominos": tri_ominos.panel,
    "high-five": high_five.panel,
    "hi-spot": hi_spot.panel,
    "hats-off": hats_off.panel,
}


def board_figure(game: str, board: Mapping[str, Any], players: Players, reveal: bool, **extra: Any) -> Figure:
    """The board of `game` drawn from its state JSON; hands and racks only when `reveal`."""
    return _FIGURES[game](board, players, reveal, **extra)


def player_lines(game: str, board: Mapping[str, Any], reveal: bool) -> dict[str, list[str]]:
    """player id -> the lines of that player's panel (hand, rack, pile …)."""
    return _PANELS[game](board, reveal)


def empty_figure(message: str, height: int = 420) -> Figure:
    return {
        "data": [],
        "layout": base_layout(
            height=height,
            xaxis=hidden_axis(0, 1),
            yaxis=hidden_axis(0, 1),
            annotations=[
                {"x": 0.5, "y": 0.5, "text": message, "showarrow": False, "font": {"size": 16, "color": MUTED}}
            ],
        ),
    }
