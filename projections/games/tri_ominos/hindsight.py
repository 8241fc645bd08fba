"""Tri-Ominos hindsight (projections/hindsight.py): how a hand's hidden slots come to light, for the
missed placements (a draw or a pass while a held tile fitted) and the missed hexagon and bridge bonuses.

A hand is its known tiles and a count of hidden ones (`rules.Hand`). A hidden slot is revealed when its
player places a tile not known in the hand, shows a triple at a 0-0-0 start, or `hands_revealed` lists the
hand; a tile drawn unseen (`tile: null`) adds a hidden slot; `round_started` deals new hands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.events import Event
from projections.games.tri_ominos.rules import Hand, Phase, State
from projections.hindsight import NOTHING
from projections.persistent import evolve
from projections.protocol import Flow

NO_PLAY = frozenset({"tile_drawn", "turn_passed"})
PLACED = "tile_placed"
BONUS_TAGS = ("hexagon", "bridge", "bridge_extension")  # `rules.placement_bonuses`: a player may miss these
TAG_WORDS: Mapping[str, str] = {"hexagon": "hexagon", "bridge": "bridge", "bridge_extension": "bridge extension"}


def _seat(state: State, player: str) -> int | None:
    return next((i for i, p in enumerate(state.players) if p.id == player), None)


def held(state: State, player: str) -> tuple[tuple[str, ...], int] | None:
    """The player's known tiles and hidden slots (None: no hand dealt this round)."""
    seat = _seat(state, player)
    hand = state.hands[seat] if seat is not None and seat < len(state.hands) else None
    return None if hand is None else (hand.known, hand.hidden)


def holding(state: State, player: str, tiles: tuple[str, ...]) -> State:
    """`state` with `tiles` (as many hidden slots) known in the player's hand."""
    seat = _seat(state, player)
    assert seat is not None
    hand = state.hands[seat]
    assert hand is not None and hand.hidden >= len(tiles)
    hands = list(state.hands)
    hands[seat] = Hand(hand.known + tiles, hand.hidden - len(tiles))
    return evolve(state, hands=tuple(hands))


def bonus_counts(state: State) -> bool:
    """Whether a placement in `state` may score a placement bonus (not the round's starting tile)."""
    return state.phase is Phase.PLAYING


def flow(before: State, event: Event, player: str) -> Flow:
    data: Mapping[str, Any] = event.data
    if event.type == "round_started":
        return Flow(new_round=True)
    own = data.get("player") == player
    hand = held(before, player)
    known = hand[0] if hand is not None else ()
    if event.type == "tile_drawn" and own:
        return Flow(entered=1) if data.get("tile") is None else NOTHING
    if event.type == "tile_placed" and own:
        shown = [t for t in (data.get("tile"), data.get("shown")) if isinstance(t, str) and t not in known]
        return Flow(revealed=tuple(shown))
    if event.type == "hands_revealed":
        tiles = (data.get("hands") or {}).get(player) or []
        return Flow(revealed=tuple(t for t in tiles if isinstance(t, str) and t not in known))
    return NOTHING


def as_table(state: State, sees: Callable[[str], bool]) -> State:
    """`state` with the hands of the players `sees` refuses turned face down (every tile a hidden slot): the
    table's view of a position the redacted log cannot reach (recorder/legal.py)."""
    hands = tuple(h if h is None or sees(p.id) else Hand((), h.size) for p, h in zip(state.players, state.hands,
                                                                                       strict=False))
    return evolve(state, hands=hands)
