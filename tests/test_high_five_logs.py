"""High Five log builders for the tests, and whole games played out with them (hands, last hand, new game).

The other High Five test modules import the builders from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.high_five import GAME
from projections.games.high_five.tiles import TILES, VALUES
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts

IDS = ["ann", "bo", "cy", "dee", "eli", "fay", "gus", "hal"]
Line = dict[str, Any]


def match(n: int = 2, **options: Any) -> Line:
    players = [{"id": p, "name": p.capitalize()} for p in IDS[:n]]
    return {"type": "match_started", "data": {"game": "high-five", "players": players, "options": options}}


def game(*layout: str) -> Line:
    return {"type": "game_started", "data": {"layout": list(layout)}}


def deal(hands: Mapping[str, Sequence[str | None]], to_layout: Sequence[str] | None = None) -> Line:
    data: dict[str, Any] = {"hands": {p: list(h) for p, h in hands.items()}}
    if to_layout is not None:
        data["to_layout"] = list(to_layout)
    return {"type": "hand_dealt", "data": data}


def play(player: str, tile: str, capture: str | None = None) -> Line:
    return {"type": "tile_played", "data": {"player": player, "tile": tile, "capture": capture}}


def claim(player: str, a: str, b: str) -> Line:
    return {"type": "pair_claimed", "data": {"player": player, "tiles": [a, b]}}


def then(f: Fold, *lines: Line) -> Fold:
    for line in lines:
        f = f.apply(Event(f.seq + 1, line["type"], line["data"]))
    return f


def totals(f: Fold) -> dict[str, int]:
    return {p["id"]: p["score"] for p in scores_json(f)["players"]}


def rounds(f: Fold) -> list[dict[str, int]]:
    return [r["scores"] for r in scores_json(f)["rounds"]]


def refused(f: Fold, line: Line, *words: str) -> str:
    """The event is refused with a reason naming `words`, and the state is exactly as it was."""
    before = GAME.to_json(f.state)
    state = f.state
    with pytest.raises(IllegalEvent) as err:
        GAME.apply(state, Event(f.seq + 1, line["type"], line["data"]))
    for w in words:
        assert w in err.value.reason, err.value.reason
    assert GAME.to_json(state) == before
    return err.value.reason


def fillers(used: set[str], count: int) -> list[str]:
    """Tiles not yet used anywhere, for hand slots a test never plays."""
    out = [t for t in TILES if t not in used][:count]
    used.update(out)
    return out


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
