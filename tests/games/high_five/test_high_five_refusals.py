"""Every High Five refusal: the reason names what is wrong, and the state is left exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from projections.games.high_five import GAME
from projections.timeline import Fold, fold_dicts
from tests.support.high_five import claim, deal, game, match, play, refused, then

LAYOUT = ["0-5", "1-4", "2-3", "6-9", "7-7"]
HANDS: dict[str, list[str | None]] = {
    "ann": ["5-5", "12-13", "9-11", "2-2", "8-8"],
    "bo": ["3-7", "11-12", "10-14", "4-12", "13-14"],
}


def dealt() -> Fold:
    return fold_dicts([match(2), game(*LAYOUT), deal(dict(HANDS))])


def line(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": type_, "data": data}


# --- match_started -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 50}, ["unknown option 'target'"]),
        ({"target_score": "100"}, ["target_score", "positive integer"]),
        ({"target_score": 0}, ["target_score", "positive integer"]),
        ({"target_score": True}, ["target_score"]),
        ({"first_player": "zed"}, ["first_player 'zed' is not a player", "ann, bo"]),
        ({"first_player": 1}, ["first_player", "player id"]),
    ],
)
def test_options_are_checked(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts([match(2, **options)])
    for w in words:
        assert w in err.value.reason


@pytest.mark.parametrize("n", [1, 9])
def test_two_to_eight_players(n: int) -> None:
    data = match(2)["data"] | {"players": [{"id": f"p{i}", "name": f"P{i}"} for i in range(n)]}
    with pytest.raises(IllegalEvent, match=f"2 to 8 players, not {n}"):
        fold_dicts([line("match_started", data)])


def test_first_player_leads() -> None:
    f = fold_dicts([match(3, first_player="bo"), game(*LAYOUT)])
    f = then(f, deal({"ann": [None] * 5, "bo": [None] * 5, "cy": [None] * 5}))
    assert GAME.to_json(f.state)["to_play"] == "bo"
    refused(f, play("ann", "0-0"), "it is Bo's turn, not Ann's")


# --- out of sequence ---------------------------------------------------------------------------------


def test_nothing_before_a_game_is_started() -> None:
    f = fold_dicts([match(2)])
    refused(f, deal(dict(HANDS)), "no game is running", "game_started")
    refused(f, play("ann", "5-5"), "no game is running")
    refused(f, claim("ann", "0-5", "5-5"), "no game is running")


def test_no_play_or_claim_before_the_deal() -> None:
    f = fold_dicts([match(2), game(*LAYOUT)])
    refused(f, play("ann", "5-5"), "every hand is empty", "hand_dealt")
    refused(f, claim("ann", "0-5", "1-4"), "no hand has been dealt yet")


def test_no_deal_while_hands_hold_tiles() -> None:
    f = then(dealt(), play("ann", "5-5", "0-5"))
    refused(f, deal({"ann": [None] * 5, "bo": [None] * 5}), "Ann still holds 4 tile(s)", "every hand is empty")


def test_finished_match_takes_only_notes_and_rewinds() -> None:
    f = fold_dicts([match(2, target_score=4), game(*LAYOUT), deal(dict(HANDS)), play("ann", "5-5", "0-5")])
    assert f.finished
    with pytest.raises(IllegalEvent, match="the match is finished"):
        then(f, play("bo", "3-7", "7-7"))
    with pytest.raises(IllegalEvent, match="the match is finished"):
        GAME.apply(f.state, Event(f.seq + 1, "tile_played", play("bo", "3-7", "7-7")["data"]))
    f = then(f, line("rewind", {"to_seq": 3, "reason": "Ann played out of turn"}))
    assert not f.finished


def test_other_games_event_types_are_unknown() -> None:
    with pytest.raises(UnknownEventType, match="tile_drawn"):
        then(dealt(), line("tile_drawn", {"player": "ann", "tile": None}))


# --- game_started ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        (["0-5", "1-4", "2-3", "6-9"], ["5 face-up tiles, not 4"]),
        (["0-5", "1-4", "2-3", "6-9", "7-7", "8-8"], ["not 6"]),
        (["0-5", "1-4", "2-3", "6-9", "0-5"], ["0-5 is in the layout twice"]),
        (["5-0", "1-4", "2-3", "6-9", "7-7"], ["'5-0' is not a High Five tile"]),
        (["0-5", "1-4", "2-3", "6-9", "7-16"], ["'7-16' is not a High Five tile"]),
        (["0-5", "1-4", None, "6-9", "7-7"], ["the layout is face up: write each of its 5 tiles"]),
    ],
)
def test_game_started_layout(layout: list[Any], words: list[str]) -> None:
    refused(fold_dicts([match(2)]), line("game_started", {"layout": layout}), *words)


def test_game_started_layout_must_be_a_list() -> None:
    refused(fold_dicts([match(2)]), line("game_started", {}), "missing 'layout'")
    refused(fold_dicts([match(2)]), line("game_started", {"layout": "0-5"}), "'layout' has the wrong type")


# --- hand_dealt --------------------------------------------------------------------------------------


def test_hand_dealt_checks() -> None:
    f = fold_dicts([match(2), game(*LAYOUT)])
    refused(f, line("hand_dealt", {"hands": [["5-5"]]}), "'hands' has the wrong type")
    refused(f, deal(HANDS | {"zed": [None] * 5}), "unknown player 'zed'")
    refused(f, deal({"ann": HANDS["ann"]}), "no hand for Bo")
    refused(f, line("hand_dealt", {"hands": HANDS | {"bo": "3-7"}}), "Bo's hand must be a list")
    refused(f, deal(HANDS | {"bo": ["3-7"] * 1 + [None] * 3}), "Bo is dealt 4 tiles", "first hand for 2 players is 5")
    refused(f, deal(HANDS | {"bo": ["5-5", None, None, None, None]}), "5-5 is dealt twice")
    refused(f, deal(HANDS | {"bo": ["0-5", None, None, None, None]}), "0-5 cannot be dealt", "in the layout")
    refused(f, deal(HANDS | {"bo": ["3-17", None, None, None, None]}), "'3-17' is not a High Five tile", "Bo")
    refused(f, deal(dict(HANDS), ["0-0"]), "to_layout comes only with the game's last hand", "121 tiles")


def test_a_tile_in_a_pile_cannot_be_dealt_again() -> None:
    f = fold_dicts([match(2), game(*LAYOUT), deal({"ann": ["5-5", None, None, None, None], "bo": [None] * 5})])
    f = then(f, play("ann", "5-5", "0-5"))
    for _ in range(9):
        f = then(f, _first_play(f))
    refused(f, deal({"ann": ["0-5", None, None, None, None], "bo": [None] * 5}), "0-5 cannot be dealt", "Ann's pile")


def _first_play(f: Fold) -> dict[str, Any]:
    """The first play the player to act may make (hidden slots: the first unseen tile)."""
    moves = GAME.legal_moves(f.state, GAME.to_json(f.state)["to_play"])
    return next(m for m in moves if m["type"] == "tile_played")


# --- tile_played -------------------------------------------------------------------------------------


def test_tile_played_checks() -> None:
    f = dealt()
    refused(f, play("zed", "5-5"), "unknown player 'zed'", "ann, bo")
    refused(f, line("tile_played", {"player": 7, "tile": "5-5", "capture": None}), "player must be a player id")
    refused(f, play("bo", "3-7"), "it is Ann's turn, not Bo's")
    refused(f, line("tile_played", {"player": "ann", "capture": None}), "missing 'tile'")
    refused(f, play("ann", "5-3"), "'5-3' is not a High Five tile")
    refused(f, play("ann", "15-15"), "Ann does not hold 15-15", "5-5, 12-13, 9-11, 2-2, 8-8")
    refused(f, play("ann", "0-5"), "Ann cannot play 0-5: it is in the layout")
    refused(f, play("ann", "3-7"), "Ann cannot play 3-7: it is in Bo's hand")
    refused(f, play("ann", "5-5", "1-4"), "5-5 does not match 1-4: no end in common")
    refused(f, play("ann", "5-5", "5-10"), "cannot capture 5-10: it is not in the layout")
    refused(f, play("ann", "5-5", "12-13"), "cannot capture 12-13", "in Ann's hand")
    refused(f, play("ann", "5-5", "5-5"), "cannot capture 5-5")
    refused(f, play("ann", "5-5", "05"), "'05' is not a High Five tile")


def test_a_played_tile_is_gone_from_the_hand() -> None:
    f = then(dealt(), play("ann", "5-5", "0-5"), play("bo", "3-7", "7-7"))
    refused(f, play("ann", "5-5"), "Ann cannot play 5-5: it is in Ann's pile")


# --- pair_claimed ------------------------------------------------------------------------------------


def test_pair_claimed_checks() -> None:
    f = then(dealt(), play("ann", "12-13"), play("bo", "11-12"))  # Bo missed 11-12 with 12-13
    refused(f, claim("zed", "11-12", "12-13"), "unknown player 'zed'")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": ["11-12", "12-13", "1-4"]}), "exactly two", "not 3")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": "11-12"}), "'tiles' has the wrong type")
    refused(f, claim("ann", "11-12", "11-12"), "two different tiles")
    refused(f, claim("ann", "11-12", "12-31"), "'12-31' is not a High Five tile")
    refused(f, claim("ann", "11-12", "1-11"), "cannot claim 1-11: it is not in the layout")
    refused(f, claim("ann", "1-4", "6-9"), "1-4 does not match 6-9: no end in common")
    refused(f, claim("ann", "1-4", "2-3"), "1-4 does not match 2-3")
    refused(f, claim("ann", "0-5", "5-5"), "cannot claim 5-5", "Ann's hand")
    f = then(f, claim("ann", "11-12", "12-13"))
    refused(f, claim("bo", "11-12", "12-13"), "it is Ann's turn, not Bo's")
    refused(f, claim("ann", "11-12", "12-13"), "cannot claim 11-12", "Ann's pile")


def test_a_claim_is_never_a_chain() -> None:
    # Ann leaves 2-2 beside 2-3; Bo leaves 3-7 beside 2-3 and 7-7: 2-2, 2-3, 3-7 is a chain, claimed pairwise.
    f = fold_dicts([match(2), game(*LAYOUT), deal({"ann": ["2-2", "8-8", None, None, None], "bo": [None] * 5})])
    f = then(f, play("ann", "2-2"), play("bo", "3-7"))
    refused(f, line("pair_claimed", {"player": "ann", "tiles": ["2-2", "2-3", "3-7"]}), "exactly two")
    refused(f, claim("ann", "2-2", "3-7"), "2-2 does not match 3-7")
    f = then(f, claim("ann", "2-2", "2-3"))  # 1 + 1; 3-7's pair with 2-3 goes, its pair with 7-7 stays
    assert [c["tiles"] for c in GAME.to_json(f.state)["claimable"]] == [["3-7", "7-7"]]
    f = then(f, claim("ann", "3-7", "7-7"))  # 2 + 1
    assert GAME.to_json(f.state)["players"][0]["score"] == 5
