"""Hi-Spot's draws from a committed bag (projections/bag.py): round_started puts every tile back; first_player_drawn
draws one tile for each player still drawing, in seat order (a bag too short for a tie-break takes the tiles set
aside back first); tiles_drawn draws a rack or a refill; tiles_exchanged returns tiles to the bag, then draws as
many.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from projections.bag import list_of, minus
from projections.games.hi_spot import rules as hs
from projections.protocol import Draw, Rule


def _content(state: hs.State, back: Sequence[str] = ()) -> Callable[[], list[str]]:
    def content() -> list[str]:
        return minus(list(state.tiles.masks), set(state.located) - set(back))

    return content


def _first(state: hs.State, data: Mapping[str, Any]) -> Draw | None:
    if state.phase is not hs.Phase.FIRST_DRAW:
        return None
    count = len(state.to_draw)
    back = state.aside if state.bag < count else ()
    return Draw(count, state.bag + len(back), _content(state, back))


def _first_written(state: hs.State, data: Mapping[str, Any], count: int) -> list[Any] | None:
    draws = data.get("draws")
    if draws is None:
        draws = {}
    ids = [state.players[s].id for s in state.to_draw]
    if type(draws) is not dict or not set(draws) <= set(ids):
        return None
    return [draws.get(pid) for pid in ids]


def _first_filled(state: hs.State, data: Mapping[str, Any], tiles: tuple[str | None, ...]) -> dict[str, Any]:
    return {**data, "draws": {state.players[s].id: t for s, t in zip(state.to_draw, tiles, strict=True)}}


def _drawn(state: hs.State, data: Mapping[str, Any]) -> Draw | None:
    player = data.get("player")
    seat = state.seats.get(player) if type(player) is str else None
    if seat is None:
        return None
    if state.phase is hs.Phase.RACKS and seat not in state.racks_drawn:
        count = min(state.rack_size, state.bag)
    elif state.phase is hs.Phase.PLAY and state.current == seat and state.turn is not None:
        count = hs.refill_needed(state, seat)
    else:
        return None
    return Draw(count, state.bag, _content(state)) if count else None


def _exchange(state: hs.State, data: Mapping[str, Any]) -> Draw | None:
    returned = data.get("returned")
    if state.phase is not hs.Phase.PLAY or type(returned) is not list or not returned:
        return None
    back = [t for t in returned if isinstance(t, str) and t in state.tiles]
    return Draw(len(returned), state.bag + len(back), _content(state, back))


# The events that draw from the bag, by type.
DRAWS: Mapping[str, Rule] = {
    "first_player_drawn": Rule(_first, _first_written, _first_filled),
    "tiles_drawn": Rule(_drawn, lambda s, d, n: list_of(d.get("tiles"), n),
                        lambda s, d, t: {**d, "tiles": list(t)}),
    "tiles_exchanged": Rule(_exchange, lambda s, d, n: list_of(d.get("drawn"), n),
                            lambda s, d, t: {**d, "drawn": list(t)}),
}
