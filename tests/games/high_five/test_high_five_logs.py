"""Whole High Five games played out with the log builders of tests/support/high_five.py: hands, last hand, new game."""

from __future__ import annotations

import pytest

from projections.games.high_five import GAME
from projections.games.high_five.tiles import TILES, VALUES
from projections.timeline import Fold, fold_dicts
from tests.support.high_five import deal, game, match, play, refused, rounds, then, totals

# Hand sizes and last hands, written out from RULES.md §2 (not computed by the reducer's table):
# players: (first hand, later hands, hands per game, tiles turned into the layout with the last hand)
GAME_SHAPES = {
    2: (5, 5, 13, 1),
    3: (5, 5, 8, 11),
    4: (5, 5, 6, 11),
    5: (4, 4, 6, 11),
    6: (4, 4, 5, 11),
    7: (4, 3, 5, 19),
    8: (4, 3, 5, 3),
}


def play_out_game(f: Fold, deck: list[str], first: int, later: int) -> tuple[Fold, list[int]]:
    """Play one game from `deck` (layout first), each player capturing the first matching layout tile.

    Returns the fold at the game's end and the to_layout size per hand (0 but for the last).
    """
    n = len(f.players)
    ids = [p for p, _ in f.players]
    f = then(f, game(*deck[:5]))
    pos, turned = 5, list[int]()
    while True:
        size = first if not turned else later
        hands = {p: list(deck[pos + i * size : pos + (i + 1) * size]) for i, p in enumerate(ids)}
        pos += size * n
        rest = deck[pos:] if len(deck) - pos < later * n else None
        f = then(f, deal(dict(hands), rest))
        turned.append(len(rest or []))
        leader = ids.index(GAME.to_json(f.state)["to_play"])
        for k in range(size):
            for i in range(n):
                p = ids[(leader + i) % n]
                tile = hands[p][k]
                layout = GAME.to_json(f.state)["layout"]
                capture = next((t for t in layout if set(t.split("-")) & set(tile.split("-"))), None)
                f = then(f, play(p, tile, capture))
        if rest is not None:
            return f, turned


@pytest.mark.parametrize("n", sorted(GAME_SHAPES))
def test_a_game_deals_hands_by_player_count_and_turns_the_rest_into_the_layout(n: int) -> None:
    first, later, hands, last = GAME_SHAPES[n]
    f, turned = play_out_game(fold_dicts([match(n)]), list(TILES), first, later)
    assert len(turned) == hands
    assert turned == [0] * (hands - 1) + [last]
    state = GAME.to_json(f.state)
    assert state["phase"] == "game_over" and state["hand_number"] == hands and state["boneyard"] == 0
    # Every tile is in a pile or left in the layout, and only piles score.
    piles = [t for p in state["players"] for t in p["pile"]]
    assert sorted(piles + state["layout"]) == sorted(TILES)
    assert sum(VALUES[t] for t in piles) + sum(VALUES[t] for t in state["layout"]) == 100
    assert totals(f) == {p["id"]: sum(VALUES[t] for t in p["pile"]) for p in state["players"]}


def test_a_new_game_reshuffles_the_whole_set_and_keeps_the_leader() -> None:
    f = fold_dicts([match(3, first_player="cy", target_score=1000)])
    f, _ = play_out_game(f, list(TILES), 5, 5)
    after_one = totals(f)
    refused(f, deal({"ann": [None] * 5, "bo": [None] * 5, "cy": [None] * 5}), "set is used up", "new game")
    refused(f, play("cy", "0-0"), "game 1 is over")
    f, _ = play_out_game(f, list(reversed(TILES)), 5, 5)
    state = GAME.to_json(f.state)
    assert state["game_number"] == 2 and state["leader"] == "cy"
    got = rounds(f)
    assert len(got) == 2 and got[0] == after_one
    assert totals(f) == {p: got[0][p] + got[1][p] for p in after_one}
    # The second game's piles hold only its own captures.
    assert sum(p["pile_value"] for p in state["players"]) == sum(got[1].values())


def test_game_started_is_refused_while_the_game_runs() -> None:
    f = fold_dicts([match(2), game("0-5", "1-4", "2-3", "6-9", "7-7")])
    refused(f, game("0-0", "1-1", "2-2", "3-3", "4-4"), "game 1 is still running", "131 tiles")
    f = then(f, deal({"ann": ["0-0", "1-1", "2-2", "3-3", "4-4"], "bo": ["5-5", "6-6", "8-8", "9-9", "10-10"]}))
    refused(f, game("0-1", "1-2", "2-4", "3-4", "4-5"), "still running", "121 tiles")
