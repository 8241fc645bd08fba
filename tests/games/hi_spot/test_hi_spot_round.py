"""Hi-Spot rounds (RULES.md §3): first-player draw, racks, refills, exchanges, blocked, going out, target."""

from __future__ import annotations

from typing import Any

from tests.support.hi_spot import (
    ANN_OUT,
    LIGHT,
    PLAYERS,
    blocked_round,
    bo_exchange,
    draw,
    end,
    ev,
    light_start,
    nine_stacks,
    opening,
    place,
    play,
    refused,
    rounds,
    state_json,
    tile_set,
    totals,
)

# ---------------------------------------------------------------- first player and racks

THREE = PLAYERS[:3]


def three_players(*draws: dict[str, Any]) -> list[dict[str, Any]]:
    start = [ev("match_started", game="hi-spot", players=THREE), ev("round_started")]
    return start + [ev("first_player_drawn", draws=d) for d in draws]


def test_most_dots_starts_and_tied_players_draw_again_with_the_first_tiles_set_aside() -> None:
    tie = three_players({"ann": "T36", "bo": "T37", "cy": "T01"})  # 4, 4 and 1 dot
    s = state_json(play(tie))
    assert s["first_player"] is None and s["to_draw"] == ["ann", "bo"] and s["bag"] == 53
    redraw = ev("first_player_drawn", draws={"ann": "T53", "bo": "T02"})
    refused(tie, ev("first_player_drawn", draws={"ann": "T53", "bo": "T02", "cy": "T03"}), "Cy is not in the tie")
    refused(tie, ev("first_player_drawn", draws={"ann": "T53"}), "Bo must draw too")
    refused(tie, ev("first_player_drawn", draws={"ann": "T01", "bo": "T02"}), "T01", "set aside")
    refused(tie, draw("ann", "T10", "T11", "T12", "T13", "T14"), "first-player draw is not finished")
    f = play(tie + [redraw])
    s = state_json(f)
    assert s["first_player"] == "ann" and s["phase"] == "racks" and s["bag"] == 56  # every drawn tile went back
    assert s["first_draws"] == [{"ann": "T36", "bo": "T37", "cy": "T01"}, {"ann": "T53", "bo": "T02"}]
    # The drawn tiles can be drawn into the racks, in any seat order; play starts with Ann.
    racks = [draw("cy", "T36", "T37", "T01", "T53", "T02"), draw("ann", "T10", "T11", "T12", "T13", "T14")]
    refused(tie + [redraw] + racks, place("ann", "T10", 1, [0, 1]), "racks are still being drawn (Bo to draw)")
    refused(tie + [redraw] + racks, draw("cy", "T03"), "Cy has already drawn a rack")
    f = play(tie + [redraw, *racks, draw("bo", "T15", "T16", "T17", "T18", "T19")])
    assert state_json(f)["to_act"] == "ann" and state_json(f)["bag"] == 56 - 15


def test_first_player_draws_must_be_written_once_each() -> None:
    refused(three_players(), ev("first_player_drawn", draws={"ann": None, "bo": "T01", "cy": "T02"}), "must be written")
    refused(three_players(), ev("first_player_drawn", draws={"ann": "T01", "bo": "T01", "cy": "T02"}),
            "tile T01 was drawn twice")  # fmt: skip
    refused(three_players(), ev("first_player_drawn", draws={"ann": "T03", "zed": "T01"}), "unknown player 'zed'")
    refused(three_players(), ev("first_player_drawn", draws=["T01", "T02", "T03"]), "'draws' has the wrong type")


def test_a_bag_too_short_for_the_tie_break_takes_the_set_aside_tiles_back() -> None:
    # 13 one-dot tiles and two 2-dot tiles: Ann and Bo tie on W1/W2 and keep tying on Z pairs until
    # the bag is empty; then the set-aside tiles go back and W1 can be drawn again.
    tiles = tile_set(W1=[0, 1], W2=[0, 1], **{f"Z{i}": [0] for i in range(1, 14)})
    lines = [ev("match_started", game="hi-spot", players=PLAYERS[:3], options={"tile_set": tiles}),
             ev("round_started"), ev("first_player_drawn", draws={"ann": "W1", "bo": "W2", "cy": "Z1"})]  # fmt: skip
    lines += [ev("first_player_drawn", draws={"ann": f"Z{i}", "bo": f"Z{i + 1}"}) for i in range(2, 14, 2)]
    assert state_json(play(lines))["bag"] == 0
    f = play(lines + [ev("first_player_drawn", draws={"ann": "W1", "bo": "Z1"})])
    assert state_json(f)["first_player"] == "ann" and state_json(f)["bag"] == 15


def test_racks_hold_five_for_two_or_three_players_and_four_for_four() -> None:
    four = [ev("match_started", game="hi-spot", players=PLAYERS), ev("round_started"),
            ev("first_player_drawn", draws={"ann": "T53", "bo": "T01", "cy": "T02", "di": "T03"})]  # fmt: skip
    refused(four, draw("bo", "T10", "T11", "T12", "T13", "T14"), "Bo draws a rack of 4 tiles, not 5")
    assert state_json(play(four))["options"]["rack_size"] == 4
    refused(three_players({"ann": "T53", "bo": "T01", "cy": "T02"}), draw("bo", "T10", "T11"), "rack of 5 tiles")


# ---------------------------------------------------------------- refills and the order of a turn

SET = tile_set(A1=[0, 1, 2], A2=[0, 1, 2], A3=[0, 1, 2], B1=[0], B2=[0], B3=[0], B4=[0], B5=[0], B6=[0],
               B7=[0], B8=[0], B9=[0])  # fmt: skip


def set_start() -> list[dict[str, Any]]:
    """Bag after the racks: B7 B8 (2 tiles)."""
    return opening({"ann": ["A1", "A2", "B1", "B2", "B3"], "bo": ["A3", "B4", "B5", "B6", "B9"]},
                   [{"ann": "A1", "bo": "B1"}], tile_set=SET)  # fmt: skip


def test_the_end_of_turn_refill_is_exactly_what_the_rack_lacks_or_what_the_bag_holds() -> None:
    lines = set_start()
    refused(lines, draw("ann", "B7"), "Ann has placed no tile this turn")
    refused(lines, end("ann"), "Ann has placed no tile")
    lines += [place("ann", "A1", 1, [0, 1, 2]), place("ann", "B1", 1, [6]), place("ann", "B2", 1, [8])]
    refused(lines, end("ann"), "must first refill the rack: draw 2 tiles")
    refused(lines, draw("ann", "B7"), "must draw 2 tiles (rack 2 of 5, 2 in the bag), not 1")  # min(3, 2)
    refused(lines, draw("ann", "A3", "B7"), "A3 is not in the bag: it is in Bo's rack")
    refused(lines, draw("ann", "A1", "B7"), "A1 is not in the bag: it is on the tray in section 1")
    lines += [draw("ann", "B7", "B8")]
    refused(lines, place("ann", "B3", 2, [0]), "Ann has refilled the rack, so the turn is over")
    refused(lines, draw("ann", "B9"), "already refilled")
    f = play(lines + [end("ann")])
    assert totals(f) == {"ann": 5, "bo": 0} and state_json(f)["bag"] == 0
    # With the bag empty there is nothing to draw and the turn ends at once.
    refused(f, place("ann", "B3", 2, [0]), "it is Bo's turn, not Ann's")
    lines += [end("ann"), place("bo", "A3", 2, [0, 1, 2])]
    refused(lines, draw("bo", "B9"), "nothing to draw: the bag is empty")
    assert totals(play(lines + [end("bo")])) == {"ann": 5, "bo": 3}


def test_a_tile_must_come_from_the_players_rack() -> None:
    refused(set_start(), place("ann", "A3", 1, [0, 1, 2]), "A3 is not in Ann's rack: it is in Bo's rack")
    refused(set_start(), place("ann", "B7", 1, [0]), "B7 is not in Ann's rack: it is in the bag")


# ---------------------------------------------------------------- going out and the target


def test_going_out_with_the_bag_empty_ends_the_round_and_the_others_lose_their_rack_dots() -> None:
    f = play(light_start() + ANN_OUT + [end("ann")])
    assert totals(f) == {"ann": 5, "bo": -10}  # Bo holds five 2-dot tiles
    assert rounds(f) == [{"ann": 5, "bo": -10}]
    s = state_json(f)
    assert s["phase"] == "between_rounds" and s["round_end"] == {
        "reason": "going_out", "awaiting_reveal": False, "deductions": {"ann": 0, "bo": 10}}  # fmt: skip
    assert f.describe(f.seq).tags == ("going_out",)
    refused(f, place("bo", "D1", 1, [0, 1]), "no round is being played; record round_started")
    refused(f, ev("round_ended", reason="blocked"), "no round is being played")
    f = play(light_start() + ANN_OUT + [end("ann"), ev("round_started")])
    assert rounds(f) == [{"ann": 5, "bo": -10}, {"ann": 0, "bo": 0}] and state_json(f)["bag"] == 10


def test_an_emptied_rack_is_refilled_mid_turn_and_the_turn_is_scored_at_its_end() -> None:
    # Twelve tiles: after the racks the bag holds E1 and E2 (1-dot edge tiles).
    tiles = LIGHT + tile_set(E1=[1], E2=[1])
    lines = light_start(tiles=tiles) + ANN_OUT
    refused(lines, end("ann"), "must first refill the rack: draw 2 tiles")
    refused(lines, place("ann", "E1", 5, [1]), "Ann's rack is empty")
    refused(lines, draw("ann", "E1"), "must draw 2 tiles")
    lines += [draw("ann", "E1", "E2")]  # min(5, 2): the whole bag
    refused(lines, place("ann", "E1", 1, [1]), "already started a stack this turn (section 5)")
    lines += [place("ann", "E1", 5, [1]), place("ann", "E2", 5, [3])]
    f = play(lines + [end("ann")])
    # One stack, 7 dots at the end of the turn: 7, not 5 + 7. Ann went out; Bo loses 10.
    assert totals(f) == {"ann": 7, "bo": -10}
    # Stopping after the mid-turn refill ends the turn without going out.
    f = play(lines[:-2] + [end("ann")])
    assert totals(f) == {"ann": 5, "bo": 0} and state_json(f)["to_act"] == "bo"


def test_the_target_is_checked_first_and_a_winning_turn_has_no_rack_deductions() -> None:
    f = play(light_start(target_score=5) + ANN_OUT + [end("ann")])
    assert totals(f) == {"ann": 5, "bo": 0}
    sheet = f.game.scores(f.state) if f.game else None
    assert sheet is not None and sheet.finished and sheet.winners == ["ann"]
    refused(f, ev("round_started"), "the match is finished")
    f = play(light_start(target_score=6) + ANN_OUT + [end("ann")])
    assert f.finished is False and totals(f) == {"ann": 5, "bo": -10}


def test_the_target_counts_at_the_end_of_a_turn_not_mid_turn() -> None:
    f = play(light_start(target_score=3) + ANN_OUT[:4])  # 4 dots on the stack, the turn not ended
    assert f.finished is False
    assert play(light_start(target_score=3) + ANN_OUT[:4] + [end("ann")]).finished


# ---------------------------------------------------------------- exchanges and blocked rounds
# nine_stacks, bo_exchange and blocked_round (tile set SIX) are in test_hi_spot_helpers.


def test_exchange_only_when_no_rack_tile_can_be_placed() -> None:
    lines = nine_stacks()
    # Before the eighth turn sections 8 and 9 are empty, so Bo could play.
    refused(lines[:-6], ev("tiles_exchanged", player="bo", returned=["F1"], drawn=["F2"]),
            "Bo can play (section 8 is empty)")  # fmt: skip
    assert totals(play(lines)) == {"ann": 30, "bo": 24}
    # Bo holds only 5s and 6s, every section holds a 6: Bo cannot play; P1 (Ann's) still fits, so not blocked.
    refused(lines, ev("round_ended", reason="blocked"), "not blocked: P1 (in a rack or the bag) fits in section 1")
    refused(lines, ev("tiles_exchanged", player="bo", returned=[], drawn=[]), "return at least one tile")
    refused(lines, ev("tiles_exchanged", player="bo", returned=["F1"], drawn=[]), "draw as many tiles as returned (1)")
    refused(lines, ev("tiles_exchanged", player="bo", returned=["H12"], drawn=["H05"]), "H12 is not in Bo's rack")
    refused(lines, ev("tiles_exchanged", player="bo", returned=[None], drawn=["H05"]), "Bo holds only 0 hidden tiles")
    refused(lines, ev("tiles_exchanged", player="bo", returned=["F1"], drawn=["H01"]), "H01 is not in the bag")
    refused(lines, ev("tiles_exchanged", player="ann", returned=["F3"], drawn=["H05"]), "it is Bo's turn")
    # Bo returns F1 F2 and draws H05 F1: returned tiles go back before the draw, so F1 can come again.
    lines += [bo_exchange()]
    f = play(lines)
    s = state_json(f)
    assert s["to_act"] == "ann" and s["players"][1]["rack"] == ["H11", "H13", "H15", "H05", "F1"] and s["bag"] == 1
    assert totals(f) == {"ann": 30, "bo": 24}  # an exchange scores nothing and ends the turn
    refused(f, end("bo"), "it is Ann's turn, not Bo's")
    refused(f, ev("tiles_exchanged", player="ann", returned=["F3"], drawn=["F2"]), "Ann can play (section 1 takes P1)")


def test_an_exchange_comes_only_at_the_start_of_a_turn() -> None:
    lines = nine_stacks() + [bo_exchange(), place("ann", "P1", 1, [6])]
    refused(lines, ev("tiles_exchanged", player="ann", returned=["F3"], drawn=["F2"]), "already placed this turn")
    refused(lines, ev("round_ended", reason="blocked"), "Ann's turn is running")


def test_a_blocked_round_ends_with_round_ended_and_every_rack_is_deducted() -> None:
    lines = blocked_round()
    assert totals(play(lines)) == {"ann": 37, "bo": 24}
    refused(lines, ev("tiles_exchanged", player="bo", returned=["F1"], drawn=["F2"]), "the round is blocked")
    refused(lines, place("bo", "H11", 1, [0, 1, 3, 4, 6, 7]), "dots 0, 1, 3, 4, 6 are already covered in section 1")
    refused(lines, ev("round_ended", reason="out"), "reason must be 'blocked'")
    refused(lines, ev("round_ended"), "round_ended: missing 'reason'")
    f = play(lines + [ev("round_ended", reason="blocked")])
    # Ann holds H12 H14 H16 F3 F2 (6+6+6+5+5 = 28), Bo H11 H13 H15 H05 F1 (6·4+5 = 29).
    assert totals(f) == {"ann": 37 - 28, "bo": 24 - 29}
    assert rounds(f) == [{"ann": 9, "bo": -5}]
    assert f.describe(f.seq).tags == ("blocked",)
    assert state_json(f)["round_end"]["deductions"] == {"ann": 28, "bo": 29}
    refused(f, ev("racks_revealed", racks={}), "no rack holds hidden tiles")
    f = play(lines + [ev("round_ended", reason="blocked"), ev("round_started")])
    assert state_json(f)["round"] == 2 and state_json(f)["bag"] == 20
