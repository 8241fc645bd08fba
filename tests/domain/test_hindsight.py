"""Hindsight (projections/hindsight.py): the placements and bonuses a player missed, found on constructed
logs of every game — only where the log makes the miss certain."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.hindsight import missed_plays
from projections.registry import get_game
from projections.timeline import fold_dicts
from tests.support.examples import load_example
from tests.support.tri_ominos import (
    BRIDGE,
    BRIDGE_DEAL,
    DOUBLE,
    DOUBLE_DEAL,
    HEXAGON,
    HEXAGON_DEAL,
    deal,
    draw,
    pass_turn,
    place,
    started,
)

Log = list[dict[str, Any]]


def missed(log: Log) -> dict[int, Any]:
    return {m.seq: m for m in missed_plays(fold_dicts(log))}


# --- Tri-Ominos: draws and passes ------------------------------------------------------------------
# Ann starts with 5-5-5 at [0, 0] (seq 5); Bo's hand is dealt unseen. A tile with two 5s fits beside it.

def _opening(**options: Any) -> Log:
    return [*started(**options), deal("ann", "5-5-5", "2-5-5"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5))]


def test_a_draw_and_a_pass_while_a_held_tile_fitted_are_flagged() -> None:
    # Bo draws 0-0-0 in sight (it fits nowhere), passes (one draw allowed), and later places 0-5-5 from
    # his unseen hand: no hidden tile entered it in between, so he held 0-5-5 when he drew and passed.
    log = [*_opening(draw_limit=1), draw("bo", "0-0-0"), pass_turn("bo"), place("ann", "2-5-5", (1, 0), (5, 5, 2)),
           place("bo", "0-5-5", (-1, 0), (5, 0, 5))]
    found = missed(log)
    assert set(found) == {6, 7}
    drew, passed = found[6], found[7]
    assert (drew.kind, drew.type, drew.player, drew.tiles, drew.certain) == ("placement", "tile_drawn", "bo",
                                                                             ("0-5-5",), True)
    assert passed.type == "turn_passed" and passed.revealed_at == (9,)
    assert passed.text.startswith("Bo passed although they held 0-5-5 (revealed at #9), which fitted: bo 0-5-5 @")
    assert all(m["data"]["tile"] == "0-5-5" and m["type"] == "tile_placed" and m["notation"] for m in passed.moves)
    assert {tuple(m["data"]["cell"]) for m in passed.moves} >= {(-1, 0), (1, 0), (0, -1)}


def test_a_pass_with_nothing_fitting_is_not_flagged() -> None:
    # 2-2-5 (revealed at #9) has one 5: it fitted nowhere beside 5-5-5 when Bo drew and passed.
    log = [*_opening(draw_limit=1), draw("bo", "0-0-0"), pass_turn("bo"), place("ann", "2-5-5", (1, 0), (5, 5, 2)),
           place("bo", "2-2-5", (1, 1), (2, 2, 5))]
    assert missed(log) == {}


def test_a_tile_drawn_unseen_is_not_assumed_to_have_been_held() -> None:
    # Bo draws unseen, then places 0-5-5 from his hidden tiles: it may be the one he just drew.
    log = [*_opening(), draw("bo"), place("bo", "0-5-5", (-1, 0), (5, 0, 5))]
    assert missed(log) == {}
    # Never revealed at all: nothing is known, nothing is flagged.
    assert missed([*_opening(), draw("bo"), draw("bo")]) == {}


def test_more_fitting_tiles_revealed_than_drawn_since_make_a_miss_certain() -> None:
    # Bo draws one tile unseen, then places 2-5-5 and 0-5-5 from hidden slots; both fitted when he drew. One
    # of them may be the tile drawn, not both: he held at least one of them.
    log = [*started(), deal("ann", "5-5-5", "2-2-5"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5)),
           draw("bo"), place("bo", "2-5-5", (1, 0), (5, 5, 2)), place("ann", "2-2-5", (1, 1), (2, 2, 5)),
           place("bo", "0-5-5", (-1, 0), (5, 0, 5))]
    found = missed(log)
    assert list(found) == [6]
    assert found[6].certain is False and found[6].tiles == ("2-5-5", "0-5-5") and found[6].revealed_at == (7, 9)
    assert "at least one of 2-5-5 or 0-5-5" in found[6].text


def test_a_new_round_ends_what_a_later_reveal_says() -> None:
    lines, _ = load_example("tri-ominos-26")  # hidden hands, many unseen draws, Bo's hand revealed at the end
    found = missed(lines)
    assert all(m.kind == "placement" or m.kind == "bonus" for m in found.values())
    fold = fold_dicts(lines)
    for m in found.values():
        assert fold.event(m.seq).type in {"tile_drawn", "turn_passed", "tile_placed"}


# --- Tri-Ominos: bonuses ---------------------------------------------------------------------------


def test_a_missed_hexagon_is_flagged_and_a_taken_one_is_not() -> None:
    prefix = [*started(), *HEXAGON_DEAL, *HEXAGON[:5]]
    assert missed([*prefix, HEXAGON[5]]) == {}  # Bo closes the hexagon
    found = missed([*prefix, place("bo", "0-5-5", (0, -1), (0, 5, 5))])  # Bo plays the same tile elsewhere
    m = found[len(prefix) + 1]
    assert (m.kind, m.bonus, m.tiles, m.certain) == ("bonus", ("hexagon",), ("0-5-5",), True)
    assert m.moves[0]["notation"] == "bo 0-5-5 @-1,0 505" and m.moves[0]["points"] == 60
    assert m.text == ("Bo placed 0-5-5 at [0, -1]: 10, with no hexagon, although bo 0-5-5 @-1,0 505 "
                      "would have scored 60 (hexagon)")


def test_a_double_hexagon_taken_is_not_a_hexagon_missed() -> None:
    log = [*started(bridge_extension_bonus=0), *DOUBLE_DEAL, *DOUBLE]
    assert fold_dicts(log).describe(len(log)).tags == ("hexagon:2",)
    assert len(log) not in missed(log)


def test_a_missed_bridge_is_flagged() -> None:
    prefix = [*started(), *BRIDGE_DEAL, *BRIDGE[:10]]  # Ann may bridge [0, 0] or close a hexagon at [-1, 0]
    assert len(prefix) + 1 not in missed([*prefix, BRIDGE[10]])  # the bridge taken
    found = missed([*prefix, place("ann", "4-5-5", (1, -1), (5, 4, 5))])
    m = found[len(prefix) + 1]
    assert m.kind == "bonus" and set(m.bonus) == {"hexagon", "bridge"}
    assert [x["notation"] for x in m.moves] == ["ann 3-4-5 @-1,0 534", "ann 4-5-5 @0,0 455"]


def test_a_bonus_only_a_hidden_tile_could_have_taken_is_not_flagged() -> None:
    # The rest of Bo's hand is unseen: he places 1-5-5 from it, and 0-5-5 (the hexagon) is never shown his.
    prefix = [*started(), HEXAGON_DEAL[0], deal("bo", "2-5-5", "0-2-5"), *HEXAGON[:5]]
    assert missed([*prefix, place("bo", "1-5-5", (0, -1), (1, 5, 5))]) == {}
    # The tile he places from the unseen rest was his, though: 0-5-5 placed elsewhere missed the hexagon.
    found = missed([*prefix, place("bo", "0-5-5", (0, -1), (0, 5, 5))])
    assert found[len(prefix) + 1].bonus == ("hexagon",) and found[len(prefix) + 1].revealed_at == ()


# --- Hi-Spot: exchanges ----------------------------------------------------------------------------


def _hi_spot_exchange(returned: list[str | None]) -> tuple[Log, int]:
    """hi-spot-26 (racks drawn unseen) up to Bo's exchange at seq 65, which returns `returned` instead."""
    lines, _ = load_example("hi-spot-26")
    prefix = lines[:64]
    event = {"type": "tiles_exchanged", "data": {"player": "bo", "returned": returned, "drawn": [None] * len(returned)}}
    return [*prefix, event], 65


def _loose_tiles(fits: bool) -> list[str]:
    lines, _ = load_example("hi-spot-26")
    state = fold_dicts(lines[:64]).state
    tiles = state.tiles
    stacks = [s for s in state.tray if s is not None]
    fitting = {t for s in stacks for t in tiles.ids if t in tiles.fitting(s[1], state.allow_flip)}  # a stack's mask
    loose = [t for t in sorted(tiles.ids) if not state.located_bits & tiles.bits[t]]
    return [t for t in loose if (t in fitting) == fits]


def test_an_exchange_returning_a_tile_that_fitted_is_flagged() -> None:
    tile = _loose_tiles(fits=True)[0]
    log, seq = _hi_spot_exchange([None, None, tile])
    found = missed(log)
    assert list(found) == [seq]
    m = found[seq]
    assert (m.type, m.kind, m.tiles, m.certain) == ("tiles_exchanged", "placement", (tile,), True)
    assert m.revealed_at == (seq,)  # the exchange itself named it
    assert m.moves and all(x["type"] == "tile_placed" and x["data"]["tile"] == tile for x in m.moves)


def test_an_exchange_of_tiles_that_fit_nowhere_or_unseen_is_not_flagged() -> None:
    log, _ = _hi_spot_exchange([None, None, _loose_tiles(fits=False)[0]])
    assert missed(log) == {}
    log, _ = _hi_spot_exchange([None, None, None])
    assert missed(log) == {}


# --- every game --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["high-five-26", "high-five-01", "hats-off-26", "hats-off-01"])
def test_games_without_draws_or_passes_flag_nothing(name: str) -> None:
    lines, _ = load_example(name)
    assert missed(lines) == {}


@pytest.mark.parametrize(("name", "target"), [("tri-ominos", 1200), ("hi-spot", 400)])
def test_hindsight_is_deterministic_on_a_500_event_match(name: str, target: int) -> None:
    game = get_game(name)
    players = [{"id": p, "name": p.capitalize()} for p in ("ann", "bo", "cy")]
    log = game.random_match(random.Random(7), players, {"target_score": target})[:500]
    assert len(log) == 500
    fold = fold_dicts(log)
    first = missed_plays(fold)
    assert [m.to_json() for m in first] == [m.to_json() for m in missed_plays(fold_dicts(log))]
