"""The data of every Tri-Ominos event (FORMAT.md "Tri-Ominos"), as typed models with descriptions.

A leaf module: the models say which fields an event has and their JSON types (for the published JSON
Schema and for naming a misspelled field on a live append); whether a placement is legal is the
rules' to say (`rules.py`), in the table's words.

The grid (RULES.md §1 "Grid", `grid.py`): a cell `[q, r]` is a triangle, r grows upward, q counts the
triangles of a row from left to right; the cell points up (▲) when q + r is even, down (▼) when odd.
Its corners are lattice points `(x, y)` with x + y odd:

    up   [q, r]:  apex = top (q, r+1),  then bottom-right (q+1, r),  then bottom-left (q-1, r)
    down [q, r]:  apex = bottom (q, r), then top-left (q-1, r+1),    then top-right (q+1, r+1)

A placement's `corners` are the numbers at those three points in that order: clockwise from the apex.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from projections.protocol import EventSpec, Hidden
from projections.schemas import EventData

Tile = Annotated[
    str,
    Field(
        pattern=r"^[0-5]-[0-5]-[0-5]$",
        description="a tile a-b-c, its numbers smallest first (a ≤ b ≤ c, 0..5), e.g. 0-1-2",
    ),
]
PlayerId = Annotated[str, Field(min_length=1, description="the id of the player, as in match_started")]
Corner = Annotated[int, Field(ge=0, le=5)]


class RoundStarted(EventData):
    """A new round: all 56 tiles back in the well. No fields."""


class TilesDealt(EventData):
    player: PlayerId
    tiles: list[Tile | None] = Field(
        min_length=6,
        max_length=9,
        description="the player's deal: 9 tiles with 2 players, 7 with 3–4, 6 with 5–6; "
        "null for a tile dealt unseen (it becomes known when played or revealed)",
    )


class TilePlaced(EventData):
    player: PlayerId
    tile: Tile = Field(description="the tile placed, a-b-c smallest first (a ≤ b ≤ c, 0..5)")
    cell: list[int] = Field(
        min_length=2,
        max_length=2,
        description="[q, r]: the triangle the tile covers; r grows upward and q counts the triangles of a "
        "row from left to right. The cell points up (▲) when q + r is even, down (▼) when q + r is odd. "
        "The first tile of a round goes anywhere, conventionally [0, 0] (an up cell); every later one "
        "shares a full edge with a placed tile",
    )
    corners: list[Corner] = Field(
        min_length=3,
        max_length=3,
        description="[apex, next, next]: the numbers at the cell's three corners, clockwise starting at "
        "the apex. The apex is the top corner of an up cell (q + r even) and the bottom corner of a down "
        "cell (q + r odd). As lattice points (x, y): up [q, r] = top (q, r+1), bottom-right (q+1, r), "
        "bottom-left (q-1, r); down [q, r] = bottom (q, r), top-left (q-1, r+1), top-right (q+1, r+1). "
        "Tiles rotate but are never flipped, so for tile a-b-c this is (a, b, c), (b, c, a) or (c, a, b); "
        "a corner touching a placed tile carries that tile's number there",
    )
    shown: Tile | None = Field(
        default=None,
        description="only with a 0-0-0 start: the highest triple the starter also holds, shown for +10; "
        "it stays in the hand",
    )


class TileDrawn(EventData):
    player: PlayerId
    tile: Tile | None = Field(description="the tile drawn from the well, or null when it was drawn unseen")


class TurnPassed(EventData):
    player: PlayerId


class HandsRevealed(EventData):
    hands: dict[str, list[Tile]] = Field(
        description="player id -> every tile left in that hand (the known ones too; [] for a player who went "
        "out); at least every player still holding hidden tiles"
    )


EVENTS: tuple[EventSpec, ...] = (
    EventSpec("round_started", RoundStarted, "A round begins: all 56 tiles go back into the well.", {}),
    EventSpec(
        "tiles_dealt",
        TilesDealt,
        "One player's deal of the round, tiles unseen by the scorekeeper written null.",
        {"player": "ann", "tiles": ["5-5-5", "0-1-2", "2-3-4", None, None, None, None, None, None]},
        hidden=(Hidden("tiles"),),
    ),
    EventSpec(
        "tile_placed",
        TilePlaced,
        "A tile placed on a cell, its corner numbers clockwise from the apex: the round's start or a turn's play.",
        {"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2]},
        turn=True,
    ),
    EventSpec(
        "tile_drawn",
        TileDrawn,
        "A player who cannot play draws a tile from the well (−5), null when it is drawn unseen.",
        {"player": "ann", "tile": "1-3-4"},
        hidden=(Hidden("tile"),),
    ),
    EventSpec(
        "turn_passed",
        TurnPassed,
        "A player who still cannot play after the last draw allowed, or with the well empty, passes (−10 by default).",
        {"player": "ann"},
        turn=True,
    ),
    EventSpec(
        "hands_revealed",
        HandsRevealed,
        "The hands left at the end of a round whose draws or deals were recorded unseen; the round ends with it.",
        {"hands": {"ann": [], "bo": ["0-1-4", "1-2-5", "4-4-4"]}},
    ),
)
