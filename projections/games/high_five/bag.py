"""High Five's draws from a committed bag (projections/bag.py): game_started is a new pass through the set (its layout
the first 5 tiles); hand_dealt gives each player a hand, seat by seat from the first seat, and the last hand turns
the rest into the layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.bag import list_of
from projections.games.high_five import rules as hf
from projections.games.high_five import tiles as hf_tiles
from projections.protocol import Draw, Rule


def _game(state: hf.State, data: Mapping[str, Any]) -> Draw | None:
    return Draw(hf.LAYOUT_SIZE, hf_tiles.SET_SIZE, lambda: list(hf_tiles.TILES))


def _sizes(state: hf.State) -> tuple[int, int, bool]:
    """(each hand, the tiles turned into the layout, whether it is the game's last hand) of the next hand_dealt."""
    first, later = hf.hand_sizes(state.n)
    size = first if state.hand_number == 0 else later
    remaining = state.boneyard - size * state.n
    last = remaining < later * state.n
    return size, remaining if last else 0, last


def _deal(state: hf.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not hf.Phase.AWAITING_DEAL:
        return None
    size, to_layout, _ = _sizes(state)
    seen = state.seen_bits
    return Draw(size * state.n + to_layout, state.boneyard,
                lambda: [t for t in hf_tiles.TILES if not seen & hf_tiles.BIT[t]])


def _deal_written(state: hf.State, data: Mapping[str, Any], count: int) -> list[Any] | None:
    size, to_layout, last = _sizes(state)
    hands = data.get("hands")
    if hands is None:
        hands = {}
    if type(hands) is not dict or not set(hands) <= {p.id for p in state.players}:
        return None
    out: list[Any] = []
    for p in state.players:
        hand = list_of(hands.get(p.id), size)
        if hand is None:
            return None
        out += hand
    if last:
        rest = list_of(data.get("to_layout"), to_layout)
    else:
        rest = [] if data.get("to_layout") in (None, []) else None
    return None if rest is None else out + rest


def _deal_filled(state: hf.State, data: Mapping[str, Any], tiles: tuple[str | None, ...]) -> dict[str, Any]:
    size, _, last = _sizes(state)
    out = {**data, "hands": {p.id: list(tiles[i * size : (i + 1) * size]) for i, p in enumerate(state.players)}}
    if last:
        out["to_layout"] = list(tiles[size * state.n :])
    return out


# The events that draw from the bag, by type.
DRAWS: Mapping[str, Rule] = {
    "game_started": Rule(_game, lambda s, d, n: list_of(d.get("layout"), n),
                         lambda s, d, t: {**d, "layout": list(t)}),
    "hand_dealt": Rule(_deal, _deal_written, _deal_filled),
}
