"""Typed models of every Hats Off event's data (FORMAT.md "Hats Off"), in FORMAT.md order.

They give the JSON Schema of each event and name a misspelled field on a live append; the rules
themselves (whose turn to call, is that hole free) stay in `rules.py`. Hats Off has no hidden
information: every hat lands in plain sight.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from projections.protocol import EventSpec
from projections.schemas import EventData

PlayerId = Annotated[str, Field(description="a player's id from match_started")]
HatNumber = Annotated[int, Field(ge=1, le=6, description="the hat's number, 1–6 (each player has six)")]


class HoleSpot(EventData):
    """A hole of a target area: the hat stands point down in it."""

    area: PlayerId = Field(description="the player whose target area the hole is in")
    number: int = Field(ge=1, le=9, description="the hole's number in that area, 1–9")


class ToHole(EventData):
    """Point down in a hole."""

    hole: HoleSpot


class HatSpot(EventData):
    """A launched hat, named by its owner and number."""

    player: PlayerId = Field(description="the hat's owner")
    hat: HatNumber


class ToInHat(EventData):
    """Nested in a hat (the top of a stack standing in a hole); the nested hat counts in that hole's area."""

    in_hat: HatSpot


def _to_kind(value: Any) -> str | None:
    # The object's key says which shape it is; a misspelled key is read as a hole, so it is named.
    if isinstance(value, dict):
        return "InHat" if "in_hat" in value and "hole" not in value else "Hole"
    if isinstance(value, str):
        return "Spot"
    return None


# The tags are capitalised so that `schemas.unknown_fields` leaves them out of a field's path.
To = Annotated[
    Annotated[ToHole, Tag("Hole")]
    | Annotated[ToInHat, Tag("InHat")]
    | Annotated[
        Literal["board", "off"],
        Tag("Spot"),
        Field(description='"board": on the board but not point down in a hole; "off": off the board'),
    ],
    Discriminator(_to_kind),
    Field(description='where the hat landed: {"hole": {...}}, {"in_hat": {...}}, "board" or "off"'),
]


class RoundStarted(EventData):
    caller: PlayerId = Field(description="who called READY-SET-GO; round k's caller is seat (k − 1) mod n")


class HatLaunched(EventData):
    player: PlayerId = Field(description="whose hat was launched")
    hat: HatNumber
    to: To
    in_flight: bool = Field(
        default=False,
        description="true: the hat was already flying when HATS OFF was called (it still counts); "
        "one per player per round",
    )


class HatsOffCalled(EventData):
    players: list[PlayerId] = Field(
        min_length=1, description="who called HATS OFF, one or more calling together; each has launched all 6"
    )


class HatMoved(EventData):
    player: PlayerId = Field(description="whose hat was knocked")
    hat: HatNumber
    to: To


class RoundEnded(EventData):
    pass


EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "round_started",
        RoundStarted,
        "A player calls READY-SET-GO and a round begins; callers go clockwise from the first seat.",
        {"caller": "ann"},
    ),
    EventSpec(
        "hat_launched",
        HatLaunched,
        "A hat lands: point down in a hole, nested in a hat, on the board or off it.",
        {"player": "bo", "hat": 3, "to": {"in_hat": {"player": "ann", "hat": 1}}},
        turn=True,
    ),
    EventSpec(
        "hats_off_called",
        HatsOffCalled,
        "One or more players who have launched all six hats call HATS OFF.",
        {"players": ["ann"]},
        turn=True,
    ),
    EventSpec(
        "hat_moved",
        HatMoved,
        "A hat already on the table is knocked to a new place (the hats nested on it move with it).",
        {"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "number": 5}}},
        turn=True,
    ),
    EventSpec(
        "round_ended",
        RoundEnded,
        "The round is over and scored; the match ends when someone has reached the target alone at the top.",
        {},
    ),
)
