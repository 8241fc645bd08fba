"""High Five legal moves, event descriptions (text and tags) and the state JSON."""

from __future__ import annotations

import json

from projections.events import Event
from projections.games.high_five import GAME
from projections.timeline import Fold, fold_dicts
from tests.support.high_five import claim, deal, game, match, play, then

LAYOUT = ["0-5", "1-4", "2-3", "6-9", "7-7"]
HANDS: dict[str, list[str | None]] = {
    "ann": ["5-5", "12-13", "9-11", "2-2", "8-8"],
    "bo": ["3-7", "11-12", "10-14", "4-12", "13-14"],
}


def dealt(**options: object) -> Fold:
    return fold_dicts([match(2, **options), game(*LAYOUT), deal(dict(HANDS))])


def summary(moves: list[dict]) -> set[tuple]:
    return {
        (m["type"], m["data"].get("tile"), m["data"].get("capture"), tuple(m["data"].get("tiles", ())), m["points"])
        for m in moves
    }


def test_legal_moves_list_every_play_with_each_capture_and_its_points() -> None:
    f = dealt()
    assert summary(GAME.legal_moves(f.state, "ann")) == {
        ("tile_played", "5-5", "0-5", (), 4),  # 3 + 1
        ("tile_played", "5-5", None, (), 0),
        ("tile_played", "12-13", None, (), 0),
        ("tile_played", "9-11", "6-9", (), 7),  # 4 + 3
        ("tile_played", "9-11", None, (), 0),
        ("tile_played", "2-2", "2-3", (), 2),  # 1 + 1
        ("tile_played", "2-2", None, (), 0),
        ("tile_played", "8-8", None, (), 0),
    }
    miss = next(m for m in GAME.legal_moves(f.state, "ann") if m["data"] == play("ann", "2-2")["data"])
    assert miss["misses"] == ["2-3"] and miss["hidden"] is False
    assert GAME.legal_moves(f.state, "bo") == []
    assert GAME.legal_moves(f.state, "zed") == []
    assert GAME.legal_moves(fold_dicts([match(2)]).state, "ann") == []


def test_legal_moves_offer_claims_to_the_player_to_act_and_the_one_who_just_played() -> None:
    f = then(dealt(), play("ann", "2-2"), play("bo", "3-7"))  # Ann missed 2-3; Bo missed 2-3 and 7-7
    bo = GAME.legal_moves(f.state, "bo")
    assert summary(bo) == {("pair_claimed", None, None, ("2-2", "2-3"), 2)}  # not his own pairs yet
    ann = GAME.legal_moves(f.state, "ann")
    claims = {
        m["data"]["tiles"][0] + "+" + m["data"]["tiles"][1]: m["points"] for m in ann if m["type"] == "pair_claimed"
    }
    assert claims == {"2-2+2-3": 2, "2-3+3-7": 3, "3-7+7-7": 3}
    assert {m["type"] for m in ann} == {"pair_claimed", "tile_played"}
    for m in ann + bo:
        GAME.apply(f.state, Event(f.seq + 1, m["type"], m["data"]))
    # Once Ann acts, Bo has nothing left to do.
    f = then(f, claim("ann", "3-7", "7-7"))
    assert GAME.legal_moves(f.state, "bo") == []


def test_describe_says_what_happened_with_tags() -> None:
    f = dealt(target_score=9)
    f = then(f, play("ann", "5-5", "0-5"), play("bo", "11-12"), play("ann", "12-13"), play("bo", "3-7", "7-7"))
    f = then(f, claim("ann", "11-12", "12-13"))
    got = [f.describe(s) for s in range(2, f.seq + 1)]
    assert got[0].text == "game 1 started: layout 0-5, 1-4, 2-3, 6-9, 7-7"
    assert got[1].text == "hand 1 of game 1 dealt, 5 tiles each"
    assert (got[2].text, got[2].player, got[2].tags) == (
        "Ann played 5-5 and captured 0-5: 4",
        "ann",
        ("capture", "capture:4"),
    )
    assert (got[3].text, got[3].tags) == ("Bo played 11-12 into the layout", ())
    assert (got[4].text, got[4].tags) == ("Ann played 12-13 into the layout, missing a capture with 11-12", ("missed",))
    assert got[5].tags == ("capture", "capture:3")
    assert got[6].text == "Ann claimed 11-12 and 12-13, left by Ann: 5; Ann reaches 9 and wins"
    assert got[6].tags == ("claim", "claim:5")


def test_describe_a_hidden_and_a_last_hand() -> None:
    f = fold_dicts([match(2), game(*LAYOUT), deal({"ann": [None] * 5, "bo": ["3-7", None, None, None, None]})])
    assert f.describe(3).text == "hand 1 of game 1 dealt, 5 tiles each (9 hidden)"


def test_state_json_is_plain_json_with_what_a_board_needs() -> None:
    f = then(dealt(), play("ann", "5-5", "0-5"), play("bo", "11-12"))
    s = GAME.to_json(f.state)
    assert json.loads(json.dumps(s)) == s
    assert s == {
        "game": "high-five",
        "phase": "playing",
        "target_score": 100,
        "leader": "ann",
        "game_number": 1,
        "hand_number": 1,
        "last_hand": False,
        "layout": ["1-4", "2-3", "6-9", "7-7", "11-12"],
        "boneyard": 121,
        "to_play": "ann",
        "may_claim": ["bo", "ann"],
        "claimable": [],
        "players": [
            {
                "id": "ann",
                "name": "Ann",
                "score": 4,
                "game_points": 4,
                "hand": {"tiles": ["12-13", "9-11", "2-2", "8-8"], "hidden": 0, "count": 4},
                "pile": ["0-5", "5-5"],
                "pile_value": 4,
            },
            {
                "id": "bo",
                "name": "Bo",
                "score": 0,
                "game_points": 0,
                "hand": {"tiles": ["3-7", "10-14", "4-12", "13-14"], "hidden": 0, "count": 4},
                "pile": [],
                "pile_value": 0,
            },
        ],
        "last_play": {"player": "bo", "tile": "11-12", "capture": None},
        "rounds": [{"ann": 4, "bo": 0}],
        "finished": False,
        "winners": [],
    }


def test_state_json_before_any_game() -> None:
    s = GAME.to_json(fold_dicts([match(3)]).state)
    assert s["phase"] == "before_game" and s["layout"] == [] and s["rounds"] == []
    assert [p["hand"]["count"] for p in s["players"]] == [0, 0, 0]
