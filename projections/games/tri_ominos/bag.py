"""Tri-Ominos's draws from a committed bag (projections/bag.py): every tile goes back at round_started; each
tiles_dealt takes the deal, each tile_drawn one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.bag import list_of, minus
from projections.games.tri_ominos import rules as tri
from projections.games.tri_ominos.tiles import ALL_TILES as TRI_TILES
from projections.protocol import Draw, Rule


def _content(state: tri.State) -> Callable[[], list[str]]:
    def content() -> list[str]:
        out = {t for h in state.hands if h is not None for t in h.known} | set(state.placed_at)
        return minus(TRI_TILES, out)

    return content


def _dealt(state: tri.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not tri.Phase.DEALING:
        return None
    return Draw(tri.deal_size(len(state.players)), state.well, _content(state))


def _drawn(state: tri.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not tri.Phase.PLAYING:
        return None
    return Draw(1, state.well, _content(state))


# The events that draw from the bag, by type.
DRAWS: Mapping[str, Rule] = {
    "tiles_dealt": Rule(_dealt, lambda s, d, n: list_of(d.get("tiles"), n),
                        lambda s, d, t: {**d, "tiles": list(t)}),
    "tile_drawn": Rule(_drawn, lambda s, d, n: [d.get("tile")], lambda s, d, t: {**d, "tile": t[0]}),
}
