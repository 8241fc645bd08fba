"""Hi-Spot events: the typed model of each event's `data` (FORMAT.md's Hi-Spot table, in its order).

A leaf module: the models say which fields an event has and their JSON types; whether an event is
legal (is it your turn, does the tile fit) is `rules.py`'s to say, in the table's words.

**Tiles** are written by their id in the match's tile set (`"T01"` … `"T56"` in the default set), or
`null` where a tile drawn was not seen by the person recording (a hidden draw).

**Sections and dot positions.** The tray's 9 sections and a tile's 9 dot positions are both numbered
row by row from the top left; a tile's position p is at row p // 3, column p % 3 (p = 3·row + col),
and section s at row (s − 1) // 3, column (s − 1) % 3:

```text
   tray sections        dot positions on a tile
   ┌───┬───┬───┐        ┌───────────┐
   │ 1 │ 2 │ 3 │        │ 0   1   2 │
   ├───┼───┼───┤        │ 3   4   5 │
   │ 4 │ 5 │ 6 │        │ 6   7   8 │
   ├───┼───┼───┤        └───────────┘
   │ 7 │ 8 │ 9 │
   └───┴───┴───┘
```

A tile set gives each tile's dots as printed. `tile_placed`'s `dots` are the positions the tile's
dots cover **as it lies in the section**, after any turning, compared as a set (any order, no
position twice, as many positions as the tile has dots). They must be one of the tile's
orientations: its printed pattern turned 0–3 quarter turns clockwise — a quarter turn moves
(row, col) to (col, 2 − row), i.e. position p to 3·(p % 3) + 2 − p // 3, so 0 → 2 → 8 → 6 → 0,
1 → 5 → 7 → 3 → 1, and the centre 4 stays — and, when the option `allow_flip` is on (the default),
those of the tile turned over first: (row, col) to (row, 2 − col), i.e. p to 3·(p // 3) + 2 − p % 3,
a left–right mirror (0 ↔ 2, 3 ↔ 5, 6 ↔ 8). A tile printed [0, 1] lies as [0, 1], [2, 5], [7, 8] or
[3, 6], and turned over as [1, 2], [5, 8], [6, 7] or [0, 3]. None of the positions may already be
covered in that section's stack; a stack covering all 9 is full.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from projections.protocol import EventSpec, Hidden
from projections.schemas import EventData

Position = Annotated[int, Field(ge=0, le=8, description="a dot position, 3·row + col (0 top-left … 8 bottom-right)")]

_PLAYER = "the player's id"


class RoundStarted(EventData):
    """No fields: every tile goes back into the bag and the first-player draw begins."""


class FirstPlayerDrawn(EventData):
    draws: dict[str, str] = Field(
        description="player id → the tile that player drew, written out (the dots decide who starts): "
        "every player in the first draw, then only the players tied for most dots"
    )


class TilesDrawn(EventData):
    player: str = Field(description=_PLAYER)
    tiles: list[str | None] = Field(
        description="the tiles drawn from the bag, null for a tile not seen by the recorder: a full rack "
        "after the first-player draw, a new rack after emptying it mid-turn, or the end-of-turn refill "
        "of min(rack size − tiles held, bag) tiles"
    )


class TilePlaced(EventData):
    player: str = Field(description=_PLAYER)
    tile: str = Field(description="the tile's id; it must be in the player's rack")
    section: int = Field(ge=1, le=9, description="the tray section, 1–9 row by row from the top left")
    dots: list[Position] = Field(
        min_length=1,
        max_length=6,
        description="the positions 0–8 the tile's dots cover as placed: its printed pattern rotated by "
        "quarter turns ((row, col) → (col, 2 − row)) and, with allow_flip, turned over "
        "((row, col) → (row, 2 − col)); none already covered in the section's stack",
    )


class TilesExchanged(EventData):
    player: str = Field(description=_PLAYER)
    returned: list[str | None] = Field(
        min_length=1, description="the rack tiles put back into the bag (null: a tile the recorder has not seen)"
    )
    drawn: list[str | None] = Field(
        description="as many tiles drawn after the returned ones went back (null: not seen by the recorder)"
    )


class TurnEnded(EventData):
    player: str = Field(description=_PLAYER)


class RacksRevealed(EventData):
    racks: dict[str, list[str]] = Field(
        description="player id → every tile left on that player's rack, written out; every rack holding "
        "a hidden tile must be listed"
    )


class RoundEnded(EventData):
    reason: Literal["blocked"] = Field(
        description="blocked: no tile in a rack or the bag can be placed (going out ends a round by itself)"
    )


EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "round_started",
        RoundStarted,
        "A round begins: every tile goes back into the bag.",
        {},
    ),
    EventSpec(
        "first_player_drawn",
        FirstPlayerDrawn,
        "Each player (then each tied player) draws a tile; most dots starts, and the tiles go back once that is known.",
        {"draws": {"ann": "T13", "bo": "T08"}},
    ),
    EventSpec(
        "tiles_drawn",
        TilesDrawn,
        "A player draws a rack, a new rack after emptying it mid-turn, or the end-of-turn refill.",
        {"player": "ann", "tiles": ["T34", "T13", "T08", "T41", "T18"]},
        hidden=(Hidden("tiles"),),
    ),
    EventSpec(
        "tile_placed",
        TilePlaced,
        "A tile from the player's rack goes on a section's stack, its dots at the positions given.",
        {"player": "bo", "tile": "T52", "section": 5, "dots": [2, 4, 6, 7, 8]},
    ),
    EventSpec(
        "tiles_exchanged",
        TilesExchanged,
        "A player who cannot place returns rack tiles to the bag, draws as many, and misses the turn.",
        {"player": "bo", "returned": ["T55", "T46"], "drawn": ["T31", "T05"]},
        hidden=(Hidden("returned"), Hidden("drawn")),
        turn=True,
    ),
    EventSpec(
        "turn_ended",
        TurnEnded,
        "The player's turn is scored: 9 for each stack brought to 9, plus the dots of every other stack added to.",
        {"player": "ann"},
        turn=True,
    ),
    EventSpec(
        "racks_revealed",
        RacksRevealed,
        "At the end of a round where draws were hidden, every rack is shown and its dots are deducted.",
        {
            "racks": {
                "ann": ["T10", "T26", "T37", "T41", "T51"],
                "bo": ["T42", "T48", "T54", "T55", "T56"],
                "cy": ["T14", "T17", "T29", "T33", "T44"],
            }
        },
    ),
    EventSpec(
        "round_ended",
        RoundEnded,
        "Nothing in a rack or the bag can be placed: the round ends, every player losing the dots left on the rack "
        "(once racks_revealed shows them where draws were hidden).",
        {"reason": "blocked"},
    ),
)
