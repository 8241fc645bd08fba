"""High Five rules (RULES.md §2) on small hand-built logs with hand-computed scores, for 2, 5 and 8 players.

Tile values used below: 0-5 1, 1-4 1, 2-3 1, 6-9 3, 7-7 1, 5-5 3, 3-7 2, 9-11 4, 12-13 5, 2-2 1, 8-8 1,
0-10 2, 10-15 5, 15-15 7, 6-14 4, 12-12 1, 5-10 3, 3-12 3, 4-4 1, 3-3 1, 7-8 3; 11-12, 10-14, 13-14,
4-12, 0-14, 9-12, 3-4 are worth 0.
"""

from __future__ import annotations

from projections.games.high_five import GAME
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.high_five import IDS, claim, deal, fillers, game, match, play, refused, rounds, then, totals

LAYOUT = ["0-5", "1-4", "2-3", "6-9", "7-7"]
ANN = ["5-5", "12-13", "9-11", "2-2", "8-8"]
BO = ["3-7", "11-12", "10-14", "4-12", "13-14"]


def two_player_hand(**options: object) -> Fold:
    """Ann and Bo, first hand dealt, nothing played yet."""
    return fold_dicts([match(2, **options), game(*LAYOUT), deal({"ann": ANN, "bo": BO})])


def layout(f: Fold) -> list[str]:
    return list(GAME.to_json(f.state)["layout"])


def test_two_players_capture_miss_and_claim_through_a_hand() -> None:
    f = two_player_hand()
    f = then(f, play("ann", "5-5", "0-5"))  # 3 + 1
    assert totals(f) == {"ann": 4, "bo": 0}
    f = then(f, play("bo", "3-7", "7-7"))  # 3-7 matched 2-3 too; Bo chose 7-7: 2 + 1
    assert totals(f) == {"ann": 4, "bo": 3}
    assert layout(f) == ["1-4", "2-3", "6-9"]
    f = then(f, play("ann", "12-13"))  # matches nothing: stays, scores nothing
    assert layout(f) == ["1-4", "2-3", "6-9", "12-13"]
    assert GAME.to_json(f.state)["claimable"] == []
    f = then(f, play("bo", "11-12"))  # matches 12-13 but Bo does not capture: a claimable pair
    claimable = GAME.to_json(f.state)["claimable"]
    assert claimable == [{"tiles": ["11-12", "12-13"], "left_by": "bo", "value": 5}]
    f = then(f, claim("ann", "12-13", "11-12"))  # before her play: 5 + 0
    assert totals(f) == {"ann": 9, "bo": 3}
    f = then(f, play("ann", "9-11", "6-9"))  # 4 + 3
    assert totals(f) == {"ann": 16, "bo": 3}
    f = then(f, play("bo", "10-14"), play("ann", "2-2"))  # 2-2 misses 2-3
    f = then(f, play("bo", "4-12"))  # misses 1-4
    f = then(f, play("ann", "8-8"), claim("ann", "1-4", "4-12"))  # a claim after her own play: 1 + 0
    assert totals(f) == {"ann": 17, "bo": 3}
    f = then(f, play("bo", "13-14", "10-14"))  # 0 + 0
    assert totals(f) == {"ann": 17, "bo": 3}
    assert layout(f) == ["2-3", "2-2", "8-8"]
    state = GAME.to_json(f.state)
    assert state["phase"] == "awaiting_deal" and state["to_play"] is None
    assert [p["pile"] for p in state["players"]] == [
        ["0-5", "5-5", "12-13", "11-12", "6-9", "9-11", "1-4", "4-12"],
        ["7-7", "3-7", "10-14", "13-14"],
    ]
    assert [p["pile_value"] for p in state["players"]] == [17, 3]
    assert rounds(f) == [{"ann": 17, "bo": 3}]
    assert not f.finished


def test_the_captured_layout_tile_is_the_players_choice() -> None:
    f = two_player_hand()
    f = then(f, play("ann", "5-5", "0-5"), play("bo", "3-7", "2-3"))  # 2 + 1, 7-7 stays
    assert totals(f) == {"ann": 4, "bo": 3}
    assert layout(f) == ["1-4", "6-9", "7-7"]


def test_a_played_tile_never_forms_a_claimable_pair_when_it_captures() -> None:
    f = then(two_player_hand(), play("ann", "5-5", "0-5"), play("bo", "3-7", "7-7"))
    # 3-7 also matched 2-3, but it left with 7-7: nothing to claim.
    refused(f, claim("ann", "2-3", "3-7"), "cannot claim 3-7", "Bo's pile")


def pairs_left_by_both() -> Fold:
    """Ann left 5-10 beside 0-5, then Bo left 3-12 beside 2-3 and 12-12."""
    hands = {"ann": ["5-10", "11-13", "14-15", "1-1", "7-11"], "bo": ["3-12", "13-14", "0-0", "8-8", "10-11"]}
    f = fold_dicts([match(2), game("0-5", "2-3", "4-6", "8-9", "12-12"), deal(hands)])
    return then(f, play("ann", "5-10"), play("bo", "3-12"))


def test_the_player_who_just_played_may_claim_pairs_left_by_others_but_not_their_own_yet() -> None:
    f = pairs_left_by_both()
    f = then(f, claim("bo", "0-5", "5-10"))  # Ann's pair, after Bo's play: 1 + 3
    assert totals(f) == {"ann": 0, "bo": 4}
    refused(f, claim("bo", "2-3", "3-12"), "Bo left 3-12 beside 2-3 on this turn", "later turn")
    f = then(f, claim("ann", "2-3", "3-12"))  # 1 + 3; 3-12 leaves, so its pair with 12-12 is gone too
    assert totals(f) == {"ann": 4, "bo": 4}
    refused(f, claim("ann", "3-12", "12-12"), "cannot claim 3-12", "Ann's pile")
    assert GAME.to_json(f.state)["claimable"] == []


def test_the_next_players_first_event_ends_the_previous_players_claims() -> None:
    f = pairs_left_by_both()
    f = then(f, claim("ann", "2-3", "3-12"))  # Ann's turn starts with a claim: 1 + 3
    refused(f, claim("bo", "0-5", "5-10"), "it is Ann's turn, not Bo's")
    f = then(f, claim("ann", "0-5", "5-10"))  # her own pair, left on her previous turn: 1 + 3
    assert totals(f) == {"ann": 8, "bo": 0}
    f = then(f, play("ann", "11-13"))
    refused(f, claim("bo", "0-5", "5-10"), "cannot claim 0-5", "Ann's pile")


def test_several_claims_in_one_turn_and_only_the_last_player_claims_between_hands() -> None:
    f = two_player_hand()
    f = then(f, play("ann", "5-5", "0-5"), play("bo", "3-7", "7-7"), play("ann", "12-13"), play("bo", "11-12"))
    f = then(f, claim("ann", "12-13", "11-12"), play("ann", "9-11", "6-9"), play("bo", "10-14"))
    f = then(f, play("ann", "2-2"), play("bo", "4-12"), play("ann", "8-8"), play("bo", "13-14"))
    assert totals(f) == {"ann": 16, "bo": 3}
    # Every hand is empty. Pairs left: 2-2/2-3 (Ann), 4-12/1-4 and 13-14/10-14 (Bo, this turn).
    refused(f, claim("ann", "1-4", "4-12"), "only Bo, who played last, may still claim", "not Ann")
    refused(f, claim("bo", "10-14", "13-14"), "on this turn")
    f = then(f, claim("bo", "2-3", "2-2"))  # 1 + 1
    assert totals(f) == {"ann": 16, "bo": 5}
    hand2 = {"ann": ["15-15", "0-15", "5-15", "10-10", "14-14"], "bo": ["1-9", "0-10", "3-12", "2-13", "6-6"]}
    f = then(f, deal(hand2))
    assert GAME.to_json(f.state)["to_play"] == "ann"  # the same leader every hand
    refused(f, claim("bo", "1-4", "4-12"), "it is Ann's turn, not Bo's")
    f = then(f, claim("ann", "10-14", "13-14"), claim("ann", "1-4", "4-12"))  # 0 + 0, then 1 + 0
    assert totals(f) == {"ann": 17, "bo": 5}
    assert rounds(f) == [{"ann": 17, "bo": 5}]


def test_pairs_of_the_dealt_layout_or_of_to_layout_cannot_be_claimed() -> None:
    f = fold_dicts([match(2), game("2-3", "3-5", "0-1", "6-7", "8-9")])
    f = then(
        f, deal({"ann": ["10-10", "11-11", "12-12", "13-13", "14-14"], "bo": ["0-15", "1-15", "2-15", "3-15", "4-15"]})
    )
    refused(f, claim("ann", "2-3", "3-5"), "2-3 and 3-5 are not a missed capture")
    refused(f, claim("ann", "2-3", "6-7"), "2-3 does not match 6-7: no end in common")


def test_the_last_hand_turns_the_boneyard_into_the_layout() -> None:
    # Two players: 131 tiles after the layout, 10 per hand; the 13th hand leaves 1 tile, which goes face up.
    deck = ["0-1", "1-2", "2-4", "3-5", "0-6"]
    used = set(deck) | {"1-13"}
    ordered = deck + fillers(used, 130) + ["1-13"]
    assert len(set(ordered)) == 136
    f = fold_dicts([match(2, target_score=1000), game(*ordered[:5])])
    f = _play_hands(f, ordered, 12)
    assert GAME.to_json(f.state)["boneyard"] == 11
    last = {"ann": ordered[125:130], "bo": ordered[130:135]}
    refused(f, deal(last), "last hand", "1 tile(s) left", "to_layout")
    refused(f, deal(last, ["1-13", "0-0"]), "1 tile(s) left", "got 2")
    f = then(f, deal(last, ["1-13"]))
    state = GAME.to_json(f.state)
    assert state["last_hand"] and state["boneyard"] == 0 and state["layout"][-1] == "1-13"


def _play_hands(f: Fold, deck: list[str], hands: int) -> Fold:
    """Deal and play `hands` 2-player hands from deck[5:], every tile capturing what it first matches."""
    pos = 5
    for _ in range(hands):
        hand = {"ann": deck[pos : pos + 5], "bo": deck[pos + 5 : pos + 10]}
        pos += 10
        f = then(f, deal(hand))
        for k in range(5):
            for p in ("ann", "bo"):
                tile = hand[p][k]
                lay = GAME.to_json(f.state)["layout"]
                cap = next((t for t in lay if set(t.split("-")) & set(tile.split("-"))), None)
                f = then(f, play(p, tile, cap))
    return f


def test_to_layout_tiles_pair_with_a_later_play_but_not_with_each_other() -> None:
    # Seven players: 131 - 28 = 103, then 82, 61, 40, 19 < 21: the fifth hand turns 19 tiles face up.
    n = 7
    ids = IDS[:n]
    f = fold_dicts([match(n, target_score=1000), game("0-0", "1-1", "2-2", "3-3", "4-4")])
    used = {"0-0", "1-1", "2-2", "3-3", "4-4"}
    # Keep 5-6, 6-7 (for to_layout) and 7-8 (Ann's last-hand tile) out of the early hands.
    used |= {"5-6", "6-7", "7-8"}
    for size in (4, 3, 3, 3):
        hands = {p: fillers(used, size) for p in ids}
        f = then(f, deal(dict(hands)))
        for k in range(size):
            for p in ids:
                f = then(f, play(p, hands[p][k]))  # never capture: the layout only grows
    assert GAME.to_json(f.state)["boneyard"] == 40
    last = {p: (["7-8"] if p == "ann" else []) + fillers(used, 3 - (p == "ann")) for p in ids}
    to_layout = ["5-6", "6-7"] + fillers(used, 17)
    assert len(used) == 136
    f = then(f, deal(last, to_layout))
    state = GAME.to_json(f.state)
    assert state["last_hand"] and state["boneyard"] == 0 and state["layout"][-19:] == to_layout
    refused(f, claim("ann", "5-6", "6-7"), "not a missed capture")
    f = then(f, play("ann", "7-8"))  # misses 6-7 (and every 7 or 8 in the layout)
    assert any(c["tiles"] == ["7-8", "6-7"] for c in GAME.to_json(f.state)["claimable"])
    f = then(f, claim("bo", "6-7", "7-8"))  # 0 + 0
    assert "6-7" not in GAME.to_json(f.state)["layout"]


def test_the_match_is_won_at_once_by_the_capture_that_reaches_the_target() -> None:
    f = two_player_hand(target_score=10)
    f = then(f, play("ann", "5-5", "0-5"), play("bo", "3-7", "7-7"))  # 4, 3
    f = then(f, play("ann", "9-11", "6-9"))  # 4 + 4 + 3 = 11 >= 10, mid-hand
    assert f.finished
    assert totals(f) == {"ann": 11, "bo": 3}
    s = scores_json(f)
    assert s["status"] == "finished" and s["winners"] == ["ann"]
    assert s["rounds"] == [{"number": 1, "scores": {"ann": 11, "bo": 3}}]
    assert GAME.legal_moves(f.state, "bo") == []


def test_the_match_is_won_at_once_by_the_claim_that_reaches_the_target() -> None:
    f = two_player_hand(target_score=9)
    f = then(f, play("ann", "5-5", "0-5"), play("bo", "3-7", "7-7"), play("ann", "12-13"), play("bo", "11-12"))
    assert not f.finished
    f = then(f, claim("ann", "12-13", "11-12"))  # 4 + 5 = 9
    assert f.finished and GAME.scores(f.state).winners == ["ann"]
    assert GAME.to_json(f.state)["may_claim"] == []


def test_the_target_counts_the_whole_match_across_games() -> None:
    # The public example: target 60; Ann ends game 1 on 58 and wins in game 2 with 5-11 capturing 5-15.
    lines, expected = load_example("high-five-01")
    f = fold_dicts(lines)
    assert scores_json(f) == expected
    assert rounds(f.at(162)) == [{"ann": 58, "bo": 37}] and not f.at(162).finished
    assert rounds(f) == [
        {"ann": 58, "bo": 37},
        {"ann": 4, "bo": 0},
    ]  # 2-15 + 2-7 = 0, 8-15 + 13-15 = 0, 5-11 + 5-15 = 4
    assert f.finished and totals(f) == {"ann": 62, "bo": 37}


def test_five_players_four_tile_hands_and_turn_order() -> None:
    hands = {
        "ann": ["5-5", "12-13", "0-0", "8-8"],
        "bo": ["11-12", "3-7", "14-15", "1-1"],
        "cy": ["9-11", "6-6", "13-13", "10-15"],
        "dee": ["4-4", "0-10", "2-13", "1-15"],
        "eli": ["3-3", "0-14", "5-15", "9-9"],
    }
    f = fold_dicts([match(5), game(*LAYOUT)])
    refused(f, deal({p: h + ["6-8"] if p == "ann" else h for p, h in hands.items()}), "Ann is dealt 5 tiles", "4")
    f = then(f, deal(hands))
    refused(f, play("bo", "11-12"), "it is Ann's turn, not Bo's")
    f = then(f, play("ann", "5-5", "0-5"))  # 3 + 1
    f = then(f, play("bo", "11-12"))  # matches nothing
    refused(f, play("dee", "4-4"), "it is Cy's turn, not Dee's")
    f = then(f, play("cy", "9-11", "6-9"))  # 4 + 3 (11-12 would have matched too)
    f = then(f, play("dee", "4-4"))  # misses 1-4
    f = then(f, claim("eli", "1-4", "4-4"), play("eli", "3-3", "2-3"))  # 1 + 1, then 1 + 1
    assert totals(f) == {"ann": 4, "bo": 0, "cy": 7, "dee": 0, "eli": 4}
    f = then(f, play("ann", "12-13", "11-12"))  # 5 + 0
    f = then(f, play("bo", "3-7", "7-7"))  # 2 + 1; the layout is empty now
    assert layout(f) == []
    f = then(f, play("cy", "6-6"), play("dee", "0-10"), play("eli", "0-14"))  # 0-14 misses 0-10
    f = then(f, claim("ann", "0-10", "0-14"))  # 2 + 0
    assert totals(f) == {"ann": 11, "bo": 3, "cy": 7, "dee": 0, "eli": 4}
    assert rounds(f) == [{"ann": 11, "bo": 3, "cy": 7, "dee": 0, "eli": 4}]


def test_five_players_later_hands_are_four_tiles_with_the_same_leader() -> None:
    f = fold_dicts([match(5, first_player="cy"), game(*LAYOUT)])
    used = set(LAYOUT)
    ids = IDS[:5]
    first = {p: fillers(used, 4) for p in ids}
    f = then(f, deal(dict(first)))
    for k in range(4):
        for p in ids[2:] + ids[:2]:  # Cy leads
            f = then(f, play(p, first[p][k]))
    assert GAME.to_json(f.state)["boneyard"] == 131 - 20
    refused(f, deal({p: fillers(set(used), 3) for p in ids}), "Ann is dealt 3 tiles", "later hand for 5 players is 4")
    f = then(f, deal({p: fillers(used, 4) for p in ids}))
    assert GAME.to_json(f.state)["to_play"] == "cy"


def test_eight_players_four_then_three_tiles() -> None:
    ids = IDS
    played = {
        "ann": "0-10", "bo": "10-15", "cy": "15-15", "dee": "9-12",
        "eli": "12-12", "fay": "3-4", "gus": "7-8", "hal": "6-14",
    }  # fmt: skip
    used = set(LAYOUT) | set(played.values())
    hands: dict[str, list[str | None]] = {p: [played[p], *fillers(used, 3)] for p in ids}
    f = fold_dicts([match(8), game(*LAYOUT), deal(hands)])
    f = then(f, play("ann", "0-10", "0-5"))  # 2 + 1
    f = then(f, play("bo", "10-15"))  # matches nothing in 1-4 2-3 6-9 7-7
    f = then(f, play("cy", "15-15", "10-15"))  # 7 + 5
    f = then(f, play("dee", "9-12"))  # misses 6-9
    f = then(f, play("eli", "12-12", "9-12"))  # 1 + 0: the pair 9-12/6-9 goes with it
    f = then(f, play("fay", "3-4"))  # misses 1-4 and 2-3
    f = then(f, claim("gus", "2-3", "3-4"), play("gus", "7-8", "7-7"))  # 1 + 0, then 3 + 1
    refused(f, claim("hal", "1-4", "3-4"), "cannot claim 3-4", "Gus's pile")
    f = then(f, play("hal", "6-14", "6-9"))  # 4 + 3
    assert totals(f) == {"ann": 3, "bo": 0, "cy": 12, "dee": 0, "eli": 1, "fay": 0, "gus": 5, "hal": 7}
    # Finish the first hand, then the later hands are three tiles each.
    for k in range(1, 4):
        for p in ids:
            f = then(f, play(p, str(hands[p][k])))
    refused(f, deal({p: fillers(set(used), 4) for p in ids}), "Ann is dealt 4 tiles", "later hand for 8 players is 3")
    f = then(f, deal({p: fillers(used, 3) for p in ids}))
    assert [p["hand"]["count"] for p in GAME.to_json(f.state)["players"]] == [3] * 8
    assert GAME.to_json(f.state)["boneyard"] == 131 - 32 - 24
