"""Tri-Ominos rules (RULES.md §1), each with a small hand-built log and hand-computed scores.

Logs are built from the helpers and scenarios of tests/support/tri_ominos.py; a deal padded with `null` keeps
the rest of a hand hidden, so a test only spells out the tiles it needs (a hidden slot may be played as any
tile not seen elsewhere).
"""

from __future__ import annotations

from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.games.tri_ominos import GAME
from projections.games.tri_ominos.rules import Hand, blocked_winner
from projections.games.tri_ominos.tiles import ALL_TILES, hand_total
from projections.timeline import fold_dicts
from tests.support.tri_ominos import (
    BLOCKED_ANN,
    BLOCKED_BO,
    BRIDGE,
    BRIDGE_DEAL,
    DOUBLE,
    DOUBLE_DEAL,
    HEXAGON,
    HEXAGON_DEAL,
    STRIP,
    STRIP_ANN,
    STRIP_BO,
    STRIP_DEAL,
    STRIP_PLACEMENTS,
    Log,
    deal,
    draw,
    opened,
    pass_turn,
    place,
    refusal,
    reveal,
    started,
    totals,
)

# ---- deal and options -----------------------------------------------------------------------------


@pytest.mark.parametrize("players, size", [(2, 9), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_deal_size_by_player_count(players: int, size: int) -> None:
    ids = [f"p{i}" for i in range(players)]
    log = started(*ids)
    reason = refusal(log, deal("p0", size=size + 1))
    assert f"must be dealt {size} tiles with {players} players, not {size + 1}" in reason
    fold = fold_dicts([*log, *(deal(p, size=size) for p in ids)])
    assert GAME.to_json(fold.state)["well"] == 56 - players * size
    assert fold.state.phase == "starting"


@pytest.mark.parametrize("count", [1, 7])
def test_two_to_six_players(count: int) -> None:
    with pytest.raises(IllegalEvent, match=f"2 to 6 players, not {count}"):
        fold_dicts(started(*[f"p{i}" for i in range(count)])[:1])


@pytest.mark.parametrize(
    "options, words",
    [
        ({"bridge_bonus": "40"}, "bridge_bonus"),
        ({"hexagon_bonuses": [50, 60]}, "hexagon_bonuses"),
        ({"blocked_winner": "most_tiles"}, "blocked_winner"),
        ({"draw_limit": 0}, "draw_limit"),
        ({"failed_draw_penalty": -10}, "failed_draw_penalty"),
        ({"hexagon_bonus": 50}, "unknown option 'hexagon_bonus'"),
    ],
)
def test_options_are_checked_at_match_start(options: dict[str, Any], words: str) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts(started(**options)[:1])
    assert words in err.value.reason


def test_deal_refusals() -> None:
    log = [*started(), deal("ann", "5-5-5")]
    assert "5-5-5 cannot be dealt to Bo: it is in Ann's hand" in refusal(log, deal("bo", "5-5-5"))
    assert "1-1-1 is dealt twice to Bo" in refusal(log, deal("bo", "1-1-1", "1-1-1"))
    assert "Ann has already been dealt" in refusal(log, deal("ann"))
    assert "0-2-1 is not a Tri-Ominos tile" in refusal(log, deal("bo", "0-2-1"))
    assert "6-1-1 is not a Tri-Ominos tile" in refusal(log, deal("bo", "6-1-1"))
    assert "unknown player 'cy'" in refusal(log, deal("cy"))
    assert "no round has started" in refusal(started()[:1], deal("ann"))


def test_nothing_but_deals_before_every_hand_is_dealt() -> None:
    log = [*started(), deal("ann", "5-5-5")]
    reason = refusal(log, place("ann", "5-5-5", (0, 0), (5, 5, 5)))
    assert "being dealt" in reason and "Bo" in reason
    assert "being dealt" in refusal(log, draw("ann"))
    assert "being dealt" in refusal(log, {"type": "round_started", "data": {}})


# ---- the start --------------------------------------------------------------------------------------


def test_5_5_5_start_scores_25() -> None:
    fold = fold_dicts([*started(), deal("ann", "5-5-5"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5))])
    assert totals(fold) == {"ann": 25, "bo": 0}  # 15 + 10
    assert fold.describe(fold.seq).tags == ("start_bonus",)


def test_0_0_0_start_scores_40_when_it_is_the_only_triple() -> None:
    log = [*started(), deal("ann", "0-0-0", "4-5-5"), deal("bo", "3-4-5"), place("ann", "0-0-0", (0, 0), (0, 0, 0))]
    assert totals(fold_dicts(log)) == {"ann": 40, "bo": 0}  # 0 + 30 + 10


def test_0_0_0_start_showing_the_highest_triple_scores_50() -> None:
    log = [
        *started(),
        deal("ann", "0-0-0", "4-4-4"),
        deal("bo", "3-3-3"),
        place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-4-4"),
    ]
    fold = fold_dicts(log)
    assert totals(fold) == {"ann": 50, "bo": 0}  # 0 + 30 + 10 + 10
    assert "4-4-4" in GAME.to_json(fold.state)["players"][0]["hand"]  # the shown triple stays in the hand
    assert "showing 4-4-4" in fold.describe(fold.seq).text


def test_0_0_0_start_without_showing_the_higher_triple_scores_40() -> None:
    log = [*started(), deal("ann", "0-0-0", "4-4-4"), deal("bo"), place("ann", "0-0-0", (0, 0), (0, 0, 0))]
    assert totals(fold_dicts(log)) == {"ann": 40, "bo": 0}


def test_0_0_0_start_refused_when_another_hand_holds_a_higher_triple() -> None:
    # Ann's seven other tiles are hidden: one could be 4-4-4 or 5-5-5, so 0-0-0 is not known to be wrong
    log = [*started(), deal("ann", "0-0-0", "1-1-1"), deal("bo", "3-3-3")]
    assert totals(fold_dicts([*log, place("ann", "0-0-0", (0, 0), (0, 0, 0))])) == {"ann": 40, "bo": 0}
    ann = ["0-0-0", "1-1-1", "0-1-2", "0-1-3", "0-1-4", "0-1-5", "0-2-2", "0-2-3", "0-2-4"]
    known = [*started(), deal("ann", *ann), deal("bo", "3-3-3")]
    reason = refusal(known, place("ann", "0-0-0", (0, 0), (0, 0, 0)))
    assert reason == "Bo holds 3-3-3: 0-0-0 may start only in the hand holding the highest triple"
    reason = refusal(known, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="1-1-1"))
    assert reason == "Bo holds 3-3-3, higher than the shown 1-1-1"


def test_shown_must_be_a_higher_triple_the_starter_can_hold() -> None:
    log = [*started(), deal("ann", "0-0-0", "4-4-4", "5-5-5"), deal("bo", "3-3-3")]
    assert "Ann also holds 5-5-5, higher than the shown 4-4-4" in refusal(
        log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-4-4")
    )
    assert "Ann cannot show 3-3-3: it is in Bo's hand" in refusal(
        log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="3-3-3")
    )
    assert "must be a triple higher than 0-0-0" in refusal(log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-5-5"))
    assert "shown is only for a 0-0-0 start" in refusal(log, place("ann", "5-5-5", (0, 0), (5, 5, 5), shown="4-4-4"))
    ann = ["0-0-0", "1-1-1", "0-1-2", "0-1-3", "0-1-4", "0-1-5", "0-2-2", "0-2-3", "0-2-4"]  # all known
    log = [*started(), deal("ann", *ann), deal("bo")]
    assert refusal(log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-4-4")) == "Ann does not hold 4-4-4"


def test_the_highest_triple_starts() -> None:
    log = [*started(), deal("ann", "3-3-3", "4-4-4"), deal("bo", "5-5-5")]
    assert "Bo holds 5-5-5: the round starts with the highest triple" in refusal(
        log, place("ann", "4-4-4", (0, 0), (4, 4, 4))
    )
    log = [*started(), deal("ann", "3-3-3", "4-4-4"), deal("bo")]
    assert "Ann also holds 4-4-4" in refusal(log, place("ann", "3-3-3", (0, 0), (3, 3, 3)))
    assert "Bo does not hold" not in refusal(log, place("ann", "3-3-3", (0, 0), (3, 3, 3)))
    # Bo's hidden hand may hold 5-5-5: the start is judged on what is known
    assert totals(fold_dicts([*log, place("ann", "4-4-4", (0, 0), (4, 4, 4))])) == {"ann": 22, "bo": 0}


NO_TRIPLES_ANN = ["0-1-2", "0-1-3", "0-1-4", "0-1-5", "0-2-3", "0-2-4", "0-2-5", "0-3-4", "3-4-5"]
NO_TRIPLES_BO = ["1-2-3", "1-2-4", "1-2-5", "1-3-4", "1-3-5", "1-4-5", "2-3-4", "2-3-5", "2-4-5"]


def test_without_triples_the_highest_sum_starts_with_no_bonus() -> None:
    log = [*started(), deal("ann", *NO_TRIPLES_ANN), deal("bo", *NO_TRIPLES_BO)]
    # Ann's 3-4-5 (12) is tied with nothing higher; Bo's best is 2-4-5 (11)
    reason = refusal(log, place("bo", "2-4-5", (0, 0), (2, 4, 5)))
    assert "Ann holds 3-4-5 (sum 12), higher than 2-4-5 (11)" in reason
    fold = fold_dicts([*log, place("ann", "3-4-5", (0, 0), (3, 4, 5))])
    assert totals(fold) == {"ann": 12, "bo": 0}
    assert fold.describe(fold.seq).tags == ()
    assert GAME.to_json(fold.state)["turn"] == "bo"


def test_players_tied_for_the_highest_sum_may_either_start() -> None:
    log = [*started(), deal("ann", "2-4-5", "0-1-2"), deal("bo", "3-3-5", "0-1-3")]  # 11 and 11
    assert totals(fold_dicts([*log, place("ann", "2-4-5", (0, 0), (2, 4, 5))])) == {"ann": 11, "bo": 0}
    assert totals(fold_dicts([*log, place("bo", "3-3-5", (0, 0), (3, 3, 5))])) == {"ann": 0, "bo": 11}
    reason = refusal(log, place("ann", "0-1-2", (0, 0), (0, 1, 2)))
    assert (
        reason == "Ann also holds 2-4-5 (sum 11), higher than 0-1-2 (3): without a triple the highest-sum tile starts"
    )


def test_a_non_triple_may_not_start_while_a_triple_is_known() -> None:
    log = [*started(), deal("ann", "4-5-5"), deal("bo", "0-0-0")]
    assert "Bo holds 0-0-0: the round starts with the highest triple" in refusal(
        log, place("ann", "4-5-5", (0, 0), (4, 5, 5))
    )


def test_play_goes_clockwise_from_the_starter() -> None:
    log = [*started("ann", "bo", "cy"), deal("ann", size=7), deal("bo", size=7), deal("cy", "5-5-5", size=7)]
    fold = fold_dicts([*log, place("cy", "5-5-5", (0, 0), (5, 5, 5))])
    assert GAME.to_json(fold.state)["turn"] == "ann"  # after Cy, the last seat, comes Ann
    reason = refusal([*log, place("cy", "5-5-5", (0, 0), (5, 5, 5))], place("bo", "2-5-5", (1, 0), (5, 5, 2)))
    assert reason == "it is Ann's turn, not Bo's"


def test_no_draw_or_pass_before_the_starting_tile() -> None:
    log = [*started(), deal("ann", "5-5-5"), deal("bo")]
    assert "starts with a placement" in refusal(log, draw("bo"))
    assert "starts with a placement" in refusal(log, pass_turn("bo"))


def test_the_starting_tile_goes_anywhere_and_is_never_a_bridge() -> None:
    log = [*started(), deal("ann", "5-5-5"), deal("bo"), place("ann", "5-5-5", (7, -3), (5, 5, 5))]
    fold = fold_dicts(log)
    assert totals(fold)["ann"] == 25
    assert GAME.to_json(fold.state)["board"][0]["bridge"] is False


# ---- placements ----------------------------------------------------------------------------------


def test_hexagon_scores_50() -> None:
    fold = fold_dicts([*started(), *HEXAGON_DEAL, *HEXAGON])
    assert totals(fold) == {"ann": 25 + 9 + 5, "bo": 12 + 7 + 10 + 50}
    note = fold.describe(fold.seq)
    assert note.text == "Bo placed 0-5-5 at [-1, 0]: 10 + hexagon 50"
    assert note.tags == ("hexagon",) and note.player == "bo"


def test_hexagon_bonus_is_an_option() -> None:
    fold = fold_dicts([*started(hexagon_bonuses=[45, 55, 65]), *HEXAGON_DEAL, *HEXAGON])
    assert totals(fold)["bo"] == 12 + 7 + 10 + 45


def test_double_hexagon_scores_60_not_110() -> None:
    fold = fold_dicts([*started(bridge_extension_bonus=0), *DOUBLE_DEAL, *DOUBLE])
    assert totals(fold) == {"ann": 25 + 6 + 12 + 8 + 49, "bo": 10 + 14 + 7 + 10 + 12 + 60}
    note = fold.describe(fold.seq)
    assert note.text == "Bo placed 2-5-5 at [0, 0]: 12 + 2 hexagons 60"
    assert note.tags == ("hexagon:2",)


def test_hexagon_and_bridge_extension_add_up() -> None:
    fold = fold_dicts([*started(), *DOUBLE_DEAL, *DOUBLE])
    assert totals(fold)["bo"] == 10 + 14 + 7 + 10 + (12 + 60 + 40)
    assert fold.describe(fold.seq).tags == ("hexagon:2", "bridge_extension")


def test_bridge_and_its_extensions() -> None:
    fold = fold_dicts([*started(), *BRIDGE_DEAL, *BRIDGE])
    seq_bridge = 4 + 11  # match_started, round_started, two deals, then the 11th placement
    assert fold.describe(seq_bridge).text == "Ann placed 4-5-5 at [0, 0]: 14 + bridge 40"
    assert fold.describe(seq_bridge).tags == ("bridge",)
    assert fold.points(seq_bridge) == {"ann": 54}
    assert fold.describe(seq_bridge + 1).text == "Bo placed 4-4-5 at [1, 0]: 13 + bridge extension 40"
    assert fold.points(seq_bridge + 1) == {"bo": 53}
    last = fold.describe(seq_bridge + 2)
    assert last.text == "Ann placed 3-4-5 at [-1, 0]: 12 + 3 hexagons 70 + bridge extension 40"
    assert last.tags == ("hexagon:3", "bridge_extension")
    assert totals(fold) == {"ann": 25 + 9 + 7 + 9 + 11 + 54 + 122, "bo": 12 + 10 + 8 + 10 + 12 + 53}
    board = {tuple(b["cell"]): b for b in GAME.to_json(fold.state)["board"]}
    assert [c for c, b in board.items() if b["bridge"]] == [(0, 0)]


def test_bridge_bonus_options() -> None:
    opts = {"bridge_bonus": 30, "bridge_extension_bonus": 0}
    fold = fold_dicts([*started(**opts), *BRIDGE_DEAL, *BRIDGE])
    assert fold.points(15) == {"ann": 14 + 30}
    assert fold.points(16) == {"bo": 13}  # the extension bonus is off
    assert fold.describe(16).tags == ()


def test_placement_refusals() -> None:
    log = [*started(), *BRIDGE_DEAL, *BRIDGE[:10]]  # Ann to place; [0, 0] is the bridge gap
    # the apex (0, 1) matches, but along the edge with [0, -1] the board shows 5 and 5
    assert refusal(log, place("ann", "3-4-5", (0, 0), (4, 5, 3))) == "corner (-1, 0) is 5 on the board, 3 on the tile"
    # the apex (0, 1) touches [-1, 1], [0, 1], [1, 1] only at a point: it must still match
    assert refusal(log, place("ann", "3-5-5", (0, 0), (3, 5, 5))) == "corner (0, 1) is 4 on the board, 3 on the tile"
    assert "corners 4-4-5 are not a rotation of 4-5-5" in refusal(log, place("ann", "4-5-5", (0, 0), (4, 4, 5)))
    assert "cell [3, 3] shares no edge with a placed tile" in refusal(log, place("ann", "4-5-5", (3, 3), (4, 5, 5)))
    assert "cell [1, 1] already holds 4-4-4" in refusal(log, place("ann", "4-5-5", (1, 1), (4, 5, 5)))
    assert "4-4-5 is in Bo's hand, not Ann's to play" in refusal(log, place("ann", "4-4-5", (1, 0), (5, 4, 4)))
    assert "3-3-3 is on the board at [-2, 1]" in refusal(log, place("ann", "3-3-3", (0, 0), (3, 3, 3)))
    assert refusal(log, place("bo", "4-4-5", (1, 0), (5, 4, 4))) == "it is Ann's turn, not Bo's"
    assert "0-2-1 is not a Tri-Ominos tile" in refusal(log, place("ann", "0-2-1", (0, 0), (0, 2, 1)))
    assert "cell must be [q, r]" in refusal(log, place("ann", "4-5-5", (0, 0, 0), (4, 5, 5)))  # type: ignore[arg-type]
    assert "corner numbers run from 0 to 5" in refusal(log, place("ann", "4-5-5", (0, 0), (4, 5, 6)))
    assert "shown is only for a 0-0-0 start" in refusal(log, place("ann", "4-5-5", (0, 0), (4, 5, 5), shown="3-3-3"))
    bad_cell = {
        "type": "tile_placed",
        "data": {"player": "ann", "tile": "4-5-5", "cell": [0, True], "corners": [4, 5, 5]},
    }
    assert "cell must be [q, r]" in refusal(log, bad_cell)


def test_a_known_hand_may_not_play_a_tile_it_does_not_hold() -> None:
    log = [*started(), *STRIP_DEAL, *STRIP_PLACEMENTS[:2]]
    reason = refusal(log, place("ann", "1-1-1", (2, 0), (1, 1, 1)))
    assert reason.startswith("Ann does not hold 1-1-1 (Ann's hand: 0-4-5, 1-4-4")


# ---- drawing and passing ------------------------------------------------------------------------


def test_draw_costs_5_and_a_drawn_tile_may_be_played_at_once() -> None:
    log = opened()
    log += [draw("bo", "2-5-5"), place("bo", "2-5-5", (1, 0), (5, 5, 2))]
    fold = fold_dicts(log)
    assert fold.points(6) == {"bo": -5}
    assert totals(fold) == {"ann": 25, "bo": -5 + 12}
    assert fold.describe(6).text == "Bo drew 2-5-5: −5; 2 draws left, 37 in the well"
    assert fold.describe(6).tags == ("draw",)


def test_three_failed_draws_cost_25_in_all() -> None:
    log = opened()
    log += [draw("bo"), draw("bo"), draw("bo"), pass_turn("bo")]
    fold = fold_dicts(log)
    assert totals(fold) == {"ann": 25, "bo": -25}  # 3 × −5, then −10
    assert fold.points(9) == {"bo": -10}
    assert fold.describe(9).text == "Bo passed (no play after 3 draws): −10"
    assert fold.describe(9).tags == ("pass",)
    assert GAME.to_json(fold.state)["turn"] == "ann"


def test_draw_limit_and_failed_draw_penalty_are_options() -> None:
    log = [*started(draw_limit=2, failed_draw_penalty=15), deal("ann", "5-5-5"), deal("bo")]
    log += [place("ann", "5-5-5", (0, 0), (5, 5, 5)), draw("bo"), draw("bo")]
    assert "Bo has made all 2 draws this turn: place a tile or pass" in refusal(log, draw("bo"))
    assert totals(fold_dicts([*log, pass_turn("bo")]))["bo"] == -25  # 2 × −5, then −15


def test_draw_and_pass_refusals() -> None:
    log = opened("2-5-5")
    assert refusal(log, draw("bo")) == "Bo holds 2-5-5, which fits at [-1, 0]: a player who can play may not draw"
    assert "Bo holds 2-5-5, which fits" in refusal(log, pass_turn("bo"))
    assert refusal(log, draw("ann")) == "it is Bo's turn, not Ann's"
    hidden = [*started(), deal("ann", "5-5-5"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5)), draw("bo")]
    assert refusal(hidden, pass_turn("bo")) == "Bo may not pass yet: 2 of 3 draws left and 37 tiles in the well"
    assert refusal(hidden, draw("bo", "5-5-5")) == "5-5-5 cannot come from the well: it is on the board at [0, 0]"
    assert "it is in Ann's hand" in refusal(
        [*started(), deal("ann", "5-5-5", "1-1-1"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5))],
        draw("bo", "1-1-1"),
    )
    assert "missing 'tile'" in refusal(hidden, {"type": "tile_drawn", "data": {"player": "bo"}})


def _empty_the_well(draw_limit: int = 3) -> Log:
    """Ann starts with 5-5-5, then both draw hidden tiles and pass until the well (38) is empty."""
    log = [*started(draw_limit=draw_limit), deal("ann", "5-5-5"), deal("bo"), place("ann", "5-5-5", (0, 0), (5, 5, 5))]
    turn, left = "bo", 38
    while left:
        n = min(draw_limit, left)
        log += [draw(turn)] * n
        left -= n
        if left or n == draw_limit:
            log.append(pass_turn(turn))
            turn = "ann" if turn == "bo" else "bo"
    return log


def test_empty_well_pass_costs_10_and_no_draw_from_an_empty_well() -> None:
    log = _empty_the_well()  # 12 full turns (36 tiles), then Bo draws the last 2
    assert log[-1] == draw("bo") and GAME.to_json(fold_dicts(log).state)["well"] == 0
    assert refusal(log, draw("bo")) == "the well is empty: Bo cannot draw; place a tile or pass"
    fold = fold_dicts([*log, pass_turn("bo")])
    assert fold.points(fold.seq) == {"bo": -10}
    assert fold.describe(fold.seq).text == "Bo passed (no play, well empty): −10"
    # Bo: 6 turns × −25, then 2 × −5 and −10; Ann: 25 − 6 × 25
    assert totals(fold) == {"ann": 25 - 150, "bo": -150 - 10 - 10}


def test_empty_well_penalty_is_an_option() -> None:
    log = [*started(empty_well_penalty=7), *_empty_the_well()[2:], pass_turn("bo")]
    assert fold_dicts(log).points(len(log)) == {"bo": -7}


def test_a_pass_after_the_full_draw_limit_costs_the_failed_draw_penalty_only() -> None:
    log = _empty_the_well(draw_limit=2)  # 19 turns of 2 draws: the last (Bo's) empties the well
    assert log[-2:] == [draw("bo"), pass_turn("bo")]
    fold = fold_dicts(log)
    assert fold.points(fold.seq) == {"bo": -10}  # not −10 twice


# ---- the end of a round --------------------------------------------------------------------------


def test_going_out_scores_25_plus_the_opponents_tiles() -> None:
    fold = fold_dicts([*started(), *STRIP_DEAL, *STRIP_PLACEMENTS])
    # Bo keeps 0-0-0 (0): Ann gets 6 for 1-2-3, +25 for going out, +0 from Bo's hand; Bo loses nothing
    assert totals(fold) == {"ann": STRIP_ANN + 25, "bo": STRIP_BO}
    assert totals(fold) == {"ann": 124, "bo": 65}
    note = fold.describe(fold.seq)
    assert note.text == "Ann placed 1-2-3 at [16, 0]: 6 + going out 25 + left in opponents' hands 0; round 1 over"
    assert note.tags == ("going_out",)
    assert GAME.to_json(fold.state)["phase"] == "waiting"


def test_going_out_adds_every_opponents_numbers() -> None:
    # Bo keeps 4-5-5 instead of 0-0-0: swap them in his deal and drop Ann's own 4-4-5 play
    deal_bo = deal("bo", *[t for p, t, _ in STRIP if p == "bo"], "3-5-5")
    fold = fold_dicts([*started(going_out_bonus=20), STRIP_DEAL[0], deal_bo, *STRIP_PLACEMENTS])
    assert totals(fold) == {"ann": STRIP_ANN + 20 + 13, "bo": STRIP_BO}


def test_reaching_the_target_mid_round_finishes_the_round_first() -> None:
    log = [*started(target_score=30), *STRIP_DEAL, *STRIP_PLACEMENTS]
    fold = fold_dicts(log)
    mid = fold.at(7)  # Ann has 25 + 9 = 34 ≥ 30 after her second tile
    assert totals(mid)["ann"] == 34 and not mid.finished
    assert fold.finished
    assert GAME.scores(fold.state).winners == ["ann"]
    assert "match over, Ann wins with 124" in fold.describe(fold.seq).text
    assert "the match is finished" in refusal(log, {"type": "round_started", "data": {}})


def test_target_is_judged_after_the_end_points() -> None:
    # Ann needs the going-out points: 99 from her tiles, 124 with them
    fold = fold_dicts([*started(target_score=124), *STRIP_DEAL, *STRIP_PLACEMENTS])
    assert fold.finished
    assert not fold_dicts([*started(target_score=125), *STRIP_DEAL, *STRIP_PLACEMENTS]).finished


def test_a_new_round_reshuffles_every_tile() -> None:
    log = [*started(), *STRIP_DEAL, *STRIP_PLACEMENTS]
    assert "round 1 is over; record round_started" in refusal(log, draw("bo"))
    log += [{"type": "round_started", "data": {}}, deal("ann", "5-5-5", "1-2-3"), deal("bo", "0-0-0")]
    fold = fold_dicts(log)
    state = GAME.to_json(fold.state)
    assert state["round"] == 2 and state["board"] == [] and state["well"] == 38
    sheet = GAME.scores(fold.state)
    assert sheet.rounds == [{"ann": 124, "bo": 65}, {"ann": 0, "bo": 0}]
    fold = fold_dicts([*log, place("ann", "5-5-5", (0, 0), (5, 5, 5))])
    assert GAME.scores(fold.state).rounds[-1] == {"ann": 25, "bo": 0}
    assert totals(fold) == {"ann": 149, "bo": 65}


def test_round_started_refused_during_a_round() -> None:
    log = opened()
    assert "round 1 is being played" in refusal(log, {"type": "round_started", "data": {}})


def _blocked_after_drawing_everything(blocked_winner: str = "fewest_tiles") -> Log:
    """Draw limit 1: Ann starts 5-5-5 (+25), Bo plays 1-5-5 (+11), Ann plays 0-5-5 (+10); then each
    turn is one hidden draw (−5) and a pass (−10) until the 38 well tiles are gone: Bo draws 19 and
    Ann 19, Ann's draw empties the well, her pass and Bo's next pass block the round."""
    log = [*started(draw_limit=1, blocked_winner=blocked_winner), deal("ann", "5-5-5"), deal("bo")]
    log += [
        place("ann", "5-5-5", (0, 0), (5, 5, 5)),
        place("bo", "1-5-5", (1, 0), (5, 5, 1)),
        place("ann", "0-5-5", (-1, 0), (5, 0, 5)),
    ]
    for _ in range(19):
        log += [draw("bo"), pass_turn("bo"), draw("ann"), pass_turn("ann")]
    return [*log, pass_turn("bo")]


def test_blocked_round_needs_one_pass_each_with_the_well_empty() -> None:
    log = _blocked_after_drawing_everything()
    fold = fold_dicts(log)
    assert hand_total(BLOCKED_BO) == 131 and hand_total(BLOCKED_ANN) == 253
    # Ann: 25 + 10 − 19 × 15 = −250; Bo: 11 − 19 × 15 − 10 = −284
    assert totals(fold) == {"ann": -250, "bo": -284}
    assert fold.state.phase == "revealing"
    note = fold.describe(fold.seq)
    assert note.tags == ("pass", "blocked") and "hands to be revealed" in note.text
    assert fold_dicts(log[:-1]).state.phase == "playing"  # one pass (Ann's) is not enough


def test_blocked_round_fewest_tiles_wins_even_with_a_loss() -> None:
    log = [*_blocked_after_drawing_everything(), reveal(ann=BLOCKED_ANN, bo=BLOCKED_BO)]
    fold = fold_dicts(log)
    # Ann holds 26 tiles to Bo's 27: she adds Bo's 131 and subtracts her own 253 = −122
    assert fold.points(fold.seq) == {"ann": -122}
    assert totals(fold) == {"ann": -250 - 122, "bo": -284}
    note = fold.describe(fold.seq)
    assert "round 1 blocked: Ann wins it, -122" in note.text and note.tags == ()


def test_blocked_round_lowest_total_option() -> None:
    log = [*_blocked_after_drawing_everything("lowest_total"), reveal(ann=BLOCKED_ANN, bo=BLOCKED_BO)]
    fold = fold_dicts(log)
    assert fold.points(fold.seq) == {"bo": 253 - 131}  # Bo's 131 is the lower total
    assert totals(fold) == {"ann": -250, "bo": -284 + 122}


def test_example_round_2_is_blocked_and_bo_wins_with_fewer_tiles() -> None:
    from tests.support.examples import load_example

    lines, _ = load_example("tri-ominos-01")
    fold = fold_dicts(lines)
    players = GAME.to_json(fold.state_at(161))["players"]
    assert players[0]["hand"] == ["0-3-4", "0-2-3", "3-5-5", "0-3-5", "5-5-5", "0-3-3"]  # 7+5+13+8+15+6 = 54
    assert players[1]["hand"] == ["2-3-5"]  # 10
    assert fold.points(161) == {"bo": -10 + 54 - 10}  # his empty-well pass, then 54 − 10
    assert fold.describe(161).tags == ("pass", "blocked")


def _hands(*spec: tuple[list[str], int]) -> tuple[Hand | None, ...]:
    return tuple(Hand(tuple(tiles), hidden) for tiles, hidden in spec)


@pytest.mark.parametrize(
    "rule, ann, bo, cy, winner",
    [
        ("fewest_tiles", ["0-0-1"], ["0-0-0", "0-0-2"], ["0-1-1", "1-1-1"], 0),  # fewest tiles
        (
            "fewest_tiles",
            ["5-5-5", "4-5-5"],
            ["0-0-1", "0-0-2"],
            ["1-1-1", "0-0-0", "0-1-1"],
            1,
        ),  # count tie: lower total
        ("fewest_tiles", ["0-1-2", "4-4-4"], ["1-1-1", "2-4-5"], ["0-0-0"], 2),
        ("fewest_tiles", ["0-1-2", "1-1-1"], ["0-0-2", "0-0-4"], ["1-1-2", "2-2-3", "0-0-0"], None),  # full tie
        ("lowest_total", ["5-5-5"], ["0-0-0", "0-0-1"], ["1-1-1", "1-1-2"], 1),
        ("lowest_total", ["0-0-3"], ["0-1-2"], ["1-1-1", "1-1-2"], None),  # tie on the total: nobody
    ],
)
def test_blocked_winner_rules(rule: str, ann: list[str], bo: list[str], cy: list[str], winner: int | None) -> None:
    state = GAME.start({"players": [{"id": "ann"}, {"id": "bo"}, {"id": "cy"}], "options": {"blocked_winner": rule}})
    assert blocked_winner(state, _hands((ann, 0), (bo, 0), (cy, 0))) == winner


def _complement(tile: str) -> str:
    a, b, c = (int(n) for n in tile.split("-"))
    return f"{5 - c}-{5 - b}-{5 - a}"  # the numbers of a tile and its complement add up to 15


def test_blocked_round_with_a_full_tie_scores_nothing() -> None:
    log = [*started(draw_limit=1), deal("ann", "5-5-5"), deal("bo")]
    log += [
        place("ann", "5-5-5", (0, 0), (5, 5, 5)),  # 25
        place("bo", "1-5-5", (1, 0), (5, 5, 1)),  # 11
        place("ann", "0-5-5", (-1, 0), (5, 0, 5)),  # 10
        place("bo", "4-5-5", (0, -1), (4, 5, 5)),  # 14
    ]
    for _ in range(19):  # 38 draws, one each turn; Bo's last draw empties the well
        log += [draw("ann"), pass_turn("ann"), draw("bo"), pass_turn("bo")]
    log.append(pass_turn("ann"))
    fold = fold_dicts(log)
    assert totals(fold) == {"ann": 25 + 10 - 19 * 15 - 10, "bo": 11 + 14 - 19 * 15} == {"ann": -260, "bo": -260}
    # The 52 tiles left are 24 complement pairs (15 each) and 0-0-0, 0-0-1, 0-0-4, 0-0-5 (their
    # complements are on the board). Each player shows 12 pairs and two singles: 180 + 5 = 185 each,
    # 26 tiles each: a tie on count and on total, so nobody wins the round.
    rest = [t for t in ALL_TILES if t not in ("5-5-5", "1-5-5", "0-5-5", "4-5-5")]
    pairs = sorted({min(t, _complement(t)) for t in rest if _complement(t) in rest})
    assert len(pairs) == 24
    ann = [t for p in pairs[:12] for t in (p, _complement(p))] + ["0-0-0", "0-0-5"]
    bo = [t for p in pairs[12:] for t in (p, _complement(p))] + ["0-0-1", "0-0-4"]
    assert hand_total(ann) == hand_total(bo) == 185 and len(ann) == len(bo) == 26
    fold = fold_dicts([*log, reveal(ann=ann, bo=bo)])
    assert fold.points(fold.seq) == {}
    assert totals(fold) == {"ann": -260, "bo": -260}
    assert "round 1 blocked: a tie, nobody wins it" in fold.describe(fold.seq).text
