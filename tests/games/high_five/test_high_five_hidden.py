"""Hidden hands (`null` tiles): a hidden slot plays any tile whose place is not known; every tile accounted for."""

from __future__ import annotations

from collections import Counter
from typing import Any

from projections.events import Event
from projections.games.high_five import GAME
from projections.games.high_five.tiles import TILES, VALUES
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.high_five import claim, deal, game, match, play, refused, then

LAYOUT = ["0-5", "1-4", "2-3", "6-9", "7-7"]


def hidden_hands(bo: list[str | None] | None = None) -> Fold:
    return fold_dicts([match(2), game(*LAYOUT), deal({"ann": [None] * 5, "bo": bo or [None] * 5})])


def accounted(f: Fold) -> None:
    """Layout, piles, known hands, hidden slots and the boneyard hold the 136 tiles, each known tile once."""
    s = GAME.to_json(f.state)
    known = s["layout"] + [t for p in s["players"] for t in p["pile"] + p["hand"]["tiles"]]
    assert not [t for t, c in Counter(known).items() if c > 1]
    hidden = sum(p["hand"]["hidden"] for p in s["players"])
    assert len(known) + hidden + s["boneyard"] == len(TILES)


def test_a_hidden_slot_plays_any_tile_whose_place_is_unknown() -> None:
    f = hidden_hands()
    f = then(f, play("ann", "5-5", "0-5"))  # 3 + 1
    f = then(f, play("bo", "3-7"))  # misses 2-3 and 7-7
    f = then(f, claim("ann", "7-7", "3-7"))  # 1 + 2
    assert GAME.to_json(f.state)["players"][0]["score"] == 7
    s = GAME.to_json(f.state)
    assert [p["hand"] for p in s["players"]] == [
        {"tiles": [], "hidden": 4, "count": 4},
        {"tiles": [], "hidden": 4, "count": 4},
    ]
    accounted(f)


def test_a_hidden_slot_cannot_play_a_tile_known_elsewhere() -> None:
    f = hidden_hands(bo=["3-7", None, None, None, None])
    refused(f, play("ann", "0-5"), "Ann cannot play 0-5: it is in the layout")
    refused(f, play("ann", "3-7"), "Ann cannot play 3-7: it is in Bo's hand")
    f = then(f, play("ann", "5-5", "0-5"))
    refused(f, play("bo", "5-5"), "Bo cannot play 5-5: it is in Ann's pile")
    f = then(f, play("bo", "8-8"))  # a hidden slot of Bo's
    assert GAME.to_json(f.state)["players"][1]["hand"] == {"tiles": ["3-7"], "hidden": 3, "count": 4}
    accounted(f)


def test_a_known_hand_has_no_hidden_slot_to_spare() -> None:
    f = fold_dicts([match(2), game(*LAYOUT)])
    f = then(f, deal({"ann": ["5-5", "12-13", None, None, None], "bo": ["3-7", "11-12", "10-14", "4-12", "13-14"]}))
    f = then(f, play("ann", "15-15"))
    refused(f, play("bo", "15-14"), "'15-14' is not a High Five tile")
    refused(f, play("bo", "14-15"), "Bo does not hold 14-15", "3-7, 11-12, 10-14, 4-12, 13-14")


def test_hidden_slots_run_out() -> None:
    f = fold_dicts([match(2), game(*LAYOUT), deal({"ann": ["5-5", "12-13", "9-11", "2-2", None], "bo": [None] * 5})])
    f = then(f, play("ann", "15-15"), play("bo", "14-14"))
    refused(f, play("ann", "13-15"), "Ann does not hold 13-15", "5-5, 12-13, 9-11, 2-2")


def test_a_tile_played_from_a_hidden_slot_is_known_from_then_on() -> None:
    f = hidden_hands()
    plays = ["10-10", "11-11", "12-12", "13-13", "14-14", "15-15", "8-8", "9-9", "0-0", "4-4"]
    for i, tile in enumerate(plays):
        f = then(f, play(("ann", "bo")[i % 2], tile))
    accounted(f)
    refused(f, deal({"ann": ["10-10", None, None, None, None], "bo": [None] * 5}), "10-10 cannot be dealt")


def test_legal_moves_for_a_hidden_hand_offer_every_unseen_tile() -> None:
    f = hidden_hands(bo=["3-7", None, None, None, None])
    moves = GAME.legal_moves(f.state, "ann")
    tiles = {m["data"]["tile"] for m in moves}
    assert tiles == set(TILES) - set(LAYOUT) - {"3-7"}
    assert all(m["hidden"] for m in moves)
    # Each tile once without a capture, and once per matching layout tile with one.
    assert len(moves) == len(tiles) + sum(1 for t in tiles for u in LAYOUT if set(t.split("-")) & set(u.split("-")))
    for m in moves[:: max(1, len(moves) // 40)]:
        GAME.apply(f.state, _event(f, m))


def _event(f: Fold, move: dict[str, Any]) -> Event:
    return Event(f.seq + 1, move["type"], move["data"])


def test_the_hidden_example_accounts_for_every_tile() -> None:
    lines, expected = load_example("high-five-26")
    f = fold_dicts(lines)
    assert scores_json(f) == expected
    for seq in range(2, f.seq + 1):
        accounted(f.at(seq))
    # Dee reaches the target of 20 with 1-1 capturing 1-4 (1 + 1) and wins mid-hand.
    assert f.finished and scores_json(f)["players"][3]["score"] == 21
    assert VALUES["1-1"] + VALUES["1-4"] == 2
