"""Board figures, one module per game, named after the game's package (`dashboard/boards/hi_spot.py`
draws "hi-spot"). Each module has `figure(board, players, reveal, **extras)` — the projection's state
JSON (`Game.to_json`) drawn as a plotly figure (a plain dict: built in well under a millisecond, no
validation pass), the extras being the game's `board_extras` — and `panel(board, reveal)`, what the
player panels beside the board say. They read nothing else: no rules, no store."""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import Any

from dash import html

from dashboard.boards.drawing import Figure, empty_figure
from dashboard.boards.panels import Panel

__all__ = ["Figure", "board_figure", "board_module", "choice_face", "empty_figure", "player_lines"]

Players = Sequence[tuple[str, str]]
PARTS = ("figure", "panel")


@cache
def board_module(game: str) -> ModuleType:
    """The module drawing `game`; ImportError naming the missing part when a game has no complete board."""
    name = f"dashboard.boards.{game.replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        raise ImportError(f"no board for {game!r}: add {name.replace('.', '/')}.py (docs/ADDING_A_GAME.md)") from e
    missing = [part for part in PARTS if not callable(getattr(module, part, None))]
    if missing:
        raise ImportError(f"{name} lacks {', '.join(missing)}")
    return module


def board_figure(game: str, board: Mapping[str, Any], players: Players, reveal: bool, **extra: Any) -> Figure:
    """The board of `game` drawn from its state JSON; hands and racks only when `reveal`."""
    figure: Figure = board_module(game).figure(board, players, reveal, **extra)
    return figure


def player_lines(game: str, board: Mapping[str, Any], reveal: bool) -> Panel:
    """player id -> the lines of that player's panel (hand, rack, pile …)."""
    panel: Panel = board_module(game).panel(board, reveal)
    return panel


# A tile's dots as they lie, three rows of three (Hi-Spot's orientations: `●·● ·●· ●●●`).
DOTS_PICTURE = re.compile(r"[●·]{3} [●·]{3} [●·]{3}")


def choice_face(label: str) -> Any:
    """What a pad's step button shows for a step's `label`: the label, or for a picture of 3×3 dots the dots on
    a 3×3 grid (assets/style.css `.dots-grid`), named for a screen reader by the rows it shows."""
    if not DOTS_PICTURE.fullmatch(label):
        return label
    rows = label.split(" ")
    named: Any = {"aria-label": "dots " + " / ".join(rows)}
    return html.Span(className="dots-grid", role="img", **named, children=[
        html.Span(className="dot on" if c == "●" else "dot") for row in rows for c in row
    ])
