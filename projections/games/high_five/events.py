"""The data of High Five's events (FORMAT.md, "High Five"), as typed models with their JSON types.

A leaf module: the models say which fields an event has; the rules (is the tile in the layout, whose
turn is it) are `rules.py`'s.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from projections.protocol import EventSpec, Hidden
from projections.schemas import EventData

# "a-b" with a ≤ b, 0 to 15 (the order of the ends is the reducer's to check).
Tile = Annotated[
    str,
    Field(pattern=r"^([0-9]|1[0-5])-([0-9]|1[0-5])$", description='a double-fifteen tile, "a-b" with a ≤ b'),
]


class GameStarted(EventData):
    layout: list[Tile] = Field(
        min_length=5, max_length=5, description="the 5 face-up layout tiles of a new pass through the set"
    )


class HandDealt(EventData):
    hands: dict[str, list[Tile | None]] = Field(
        description="each player's hand by player id; null for a tile dealt face down to the recorder"
    )
    to_layout: list[Tile] | None = Field(
        default=None,
        description="the last hand only: the tiles left in the boneyard, turned face up into the layout",
    )


class TilePlayed(EventData):
    player: str = Field(min_length=1, description="the player id")
    tile: Tile = Field(description="the tile played from the hand")
    capture: Tile | None = Field(
        default=None, description="the layout tile captured with it, or null when the tile stays in the layout"
    )


class PairClaimed(EventData):
    player: str = Field(min_length=1, description="the player id")
    tiles: list[Tile] = Field(
        min_length=2, max_length=2, description="two matching tiles of the layout, left there by a missed capture"
    )


EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "game_started",
        GameStarted,
        "A new game (pass through the set): the 5 tiles turned face up as the layout.",
        {"layout": ["0-5", "1-4", "2-3", "6-9", "7-7"]},
    ),
    EventSpec(
        "hand_dealt",
        HandDealt,
        "A hand dealt to every player once every hand is empty; the last one turns the boneyard into the layout.",
        {"hands": {"ann": ["5-5", "12-13", "9-11", "2-2", "8-8"], "bo": [None, None, None, None, None]}},
        hidden=(Hidden("hands.*", "key"),),
    ),
    EventSpec(
        "tile_played",
        TilePlayed,
        "A player plays a tile: it captures a matching layout tile, or stays in the layout.",
        {"player": "ann", "tile": "5-5", "capture": "0-5"},
        turn=True,
    ),
    EventSpec(
        "pair_claimed",
        PairClaimed,
        "A player claims two matching layout tiles that another player left there by missing a capture.",
        {"player": "ann", "tiles": ["3-7", "7-7"]},
        turn=True,
    ),
)
