"""An audit of the Tri-Ominos reducer against RULES.md §1, "For every game" and FORMAT.md: the points the
other test files left open, adversarial events (wrong types, missing keys, wrong phase, unknown players),
and a fuzz over the example logs and random matches: every event is either applied or refused with an
IllegalEvent, and a refusal changes nothing.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.tri_ominos import GAME, State
from projections.games.tri_ominos.player import random_match
from projections.games.tri_ominos.tiles import ALL_TILES
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.tri_ominos import (
    BLOCKED_ANN,
    BLOCKED_BO,
    STRIP_DEAL,
    STRIP_PLACEMENTS,
    Log,
    check_tiles,
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

ROUND_STARTED: dict[str, Any] = {"type": "round_started", "data": {}}
TWO = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]


def _start(**data: Any) -> State:
    return GAME.start({"game": "tri-ominos", "players": TWO, **data})


# ---- "For every game": players and options ----------------------------------------------------


def test_missing_options_take_the_defaults_of_rules_md() -> None:
    for state in (_start(), _start(options={}), _start(options=None)):
        assert dict(state.options) == {
            "target_score": 400,
            "hexagon_bonuses": (50, 60, 70),
            "bridge_bonus": 40,
            "bridge_extension_bonus": 40,
            "draw_limit": 3,
            "failed_draw_penalty": 10,
            "empty_well_penalty": 10,
            "going_out_bonus": 25,
            "blocked_winner": "fewest_tiles",
        }


INT_OPTIONS = ["target_score", "bridge_bonus", "bridge_extension_bonus", "draw_limit"]
INT_OPTIONS += ["failed_draw_penalty", "empty_well_penalty", "going_out_bonus"]


@pytest.mark.parametrize("name", INT_OPTIONS)
@pytest.mark.parametrize("value", [True, False, 1.0, 40.0, "40", None, [40], {"n": 40}, -1])
def test_integer_options_refuse_every_other_json_type(name: str, value: Any) -> None:
    with pytest.raises(IllegalEvent) as err:
        _start(options={name: value})
    assert f"option {name} must be" in err.value.reason


@pytest.mark.parametrize("name", ["target_score", "draw_limit", "failed_draw_penalty", "empty_well_penalty"])
def test_positive_options_refuse_zero(name: str) -> None:
    # penalties are positive amounts that are subtracted; a target or draw limit of 0 means nothing
    with pytest.raises(IllegalEvent, match=f"option {name} must be a positive integer"):
        _start(options={name: 0})


def test_bonuses_may_be_zero_and_numbers_may_be_large() -> None:
    options = {"bridge_bonus": 0, "bridge_extension_bonus": 0, "going_out_bonus": 0, "hexagon_bonuses": [0, 0, 0]}
    assert _start(options=options).options["hexagon_bonuses"] == (0, 0, 0)
    assert _start(options={"target_score": 10**18}).options["target_score"] == 10**18


@pytest.mark.parametrize(
    "value",
    [[50, 60, True], [50.0, 60, 70], [50, 60, 70, 80], [50, 60], [-50, 60, 70], "50,60,70", 50, None, {"1": 50}],
)
def test_hexagon_bonuses_must_be_three_json_integers(value: Any) -> None:
    with pytest.raises(IllegalEvent, match="option hexagon_bonuses must be a list of 3 integers"):
        _start(options={"hexagon_bonuses": value})


@pytest.mark.parametrize("value", ["fewest", "FEWEST_TILES", "", 1, True, None, ["fewest_tiles"]])
def test_blocked_winner_is_one_of_two_names(value: Any) -> None:
    with pytest.raises(IllegalEvent, match="option blocked_winner must be one of fewest_tiles, lowest_total"):
        _start(options={"blocked_winner": value})


@pytest.mark.parametrize("options", [[], "target_score=150", 150, True])
def test_options_must_be_an_object(options: Any) -> None:
    with pytest.raises(IllegalEvent, match="options must be a JSON object"):
        _start(options=options)


def test_unknown_option_names_are_refused_even_beside_good_ones() -> None:
    with pytest.raises(IllegalEvent, match="unknown option 'Target_score'"):
        _start(options={"target_score": 150, "Target_score": 150})


@pytest.mark.parametrize(
    "players, words",
    [
        ([{"id": "ann"}, {"id": "ann"}], "player id 'ann' appears twice"),
        ([{"id": "ann"}, {"id": ""}], "non-empty string id"),
        ([{"id": "ann"}, {"id": 7}], "non-empty string id"),
        ([{"id": "ann"}, {"name": "Bo"}], "non-empty string id"),
        ([{"id": "ann"}, "bo"], "non-empty string id"),
        ([{"id": "ann"}, {"id": "bo", "name": 7}], "name must be a string"),
        ({"ann": "Ann", "bo": "Bo"}, "players must be a list"),
        (None, "players must be a list"),
        ([], "2 to 6 players, not 0"),
    ],
)
def test_players_are_checked_at_match_start(players: Any, words: str) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts([{"type": "match_started", "data": {"game": "tri-ominos", "players": players}}])
    assert words in err.value.reason


def test_two_and_six_players_are_accepted() -> None:
    for count in (2, 6):
        fold = fold_dicts(started(*[f"p{i}" for i in range(count)]))
        assert len(fold.state.players) == count


# ---- FORMAT.md shapes: required fields, JSON types, unknown players -----------------------------------


def _placed(**data: Any) -> dict[str, Any]:
    return {"type": "tile_placed", "data": data}


START = [*started(), deal("ann", "5-5-5"), deal("bo")]  # Ann to start
PLAYING = opened()  # Bo to play after Ann's 5-5-5 at [0, 0]; both hands hidden but Ann's 5-5-5


@pytest.mark.parametrize("log", [START, PLAYING], ids=["starting", "playing"])
@pytest.mark.parametrize(
    "data, words",
    [
        ({"tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2]}, "missing 'player'"),
        ({"player": "bo", "cell": [1, 0], "corners": [5, 5, 2]}, "missing 'tile'"),
        ({"player": "bo", "tile": "2-5-5", "corners": [5, 5, 2]}, "missing 'cell'"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0]}, "missing 'corners'"),
        ({"player": 1, "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2]}, "'player' has the wrong type"),
        ({"player": "cy", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2]}, "unknown player 'cy'"),
        ({"player": "bo", "tile": None, "cell": [1, 0], "corners": [5, 5, 2]}, "'tile' has the wrong type"),
        ({"player": "bo", "tile": 255, "cell": [1, 0], "corners": [5, 5, 2]}, "'tile' has the wrong type"),
        ({"player": "bo", "tile": "2-5", "cell": [1, 0], "corners": [5, 5, 2]}, "not a Tri-Ominos tile"),
        ({"player": "bo", "tile": "5-5-2", "cell": [1, 0], "corners": [5, 5, 2]}, "smallest first (2-5-5)"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1.0, 0], "corners": [5, 5, 2]}, "cell must be [q, r]"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, False], "corners": [5, 5, 2]}, "cell must be [q, r]"),
        ({"player": "bo", "tile": "2-5-5", "cell": ["1", "0"], "corners": [5, 5, 2]}, "cell must be [q, r]"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1], "corners": [5, 5, 2]}, "cell must be [q, r]"),
        ({"player": "bo", "tile": "2-5-5", "cell": "1,0", "corners": [5, 5, 2]}, "'cell' has the wrong type"),
        ({"player": "bo", "tile": "2-5-5", "cell": {"q": 1, "r": 0}, "corners": [5, 5, 2]}, "'cell' has the wrong"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5.0, 5, 2]}, "corners must be three integers"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [True, 5, 2]}, "corners must be three integers"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5]}, "corners must be three integers"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2, 2]}, "corners must be three"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": "552"}, "'corners' has the wrong type"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, -2]}, "corner numbers run from 0 to 5"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 10**20]}, "corner numbers run from 0"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2], "shown": 444}, "shown must be"),
        ({"player": "bo", "tile": "2-5-5", "cell": [1, 0], "corners": [5, 5, 2], "shown": "4-4"}, "not a Tri-Ominos"),
    ],
)
def test_tile_placed_shape(log: Log, data: dict[str, Any], words: str) -> None:
    assert words in refusal(log, _placed(**data))


@pytest.mark.parametrize(
    "data, words",
    [
        ({"tile": None}, "missing 'player'"),
        ({"player": None, "tile": None}, "'player' has the wrong type"),
        ({"player": "cy", "tile": None}, "unknown player 'cy'"),
        ({"player": "bo"}, "missing 'tile' (write null for a tile drawn unseen)"),
        ({"player": "bo", "tile": 12}, "tile must be written a-b-c"),
        ({"player": "bo", "tile": ["1-2-3"]}, "tile must be written a-b-c"),
        ({"player": "bo", "tile": "5-3"}, "'5-3' is not a Tri-Ominos tile"),
        ({"player": "bo", "tile": "2-1-0"}, "smallest first (0-1-2)"),
        ({"player": "bo", "tile": "0-1-6"}, "the numbers run from 0 to 5"),
    ],
)
def test_tile_drawn_shape(data: dict[str, Any], words: str) -> None:
    assert words in refusal(PLAYING, {"type": "tile_drawn", "data": data})


@pytest.mark.parametrize(
    "data, words",
    [({}, "missing 'player'"), ({"player": ["bo"]}, "'player' has the wrong type"), ({"player": "cy"}, "unknown")],
)
def test_turn_passed_shape(data: dict[str, Any], words: str) -> None:
    log = [*PLAYING, draw("bo"), draw("bo"), draw("bo")]  # Bo may pass now
    assert words in refusal(log, {"type": "turn_passed", "data": data})


@pytest.mark.parametrize(
    "data, words",
    [
        ({"tiles": [None] * 9}, "missing 'player'"),
        ({"player": "bo"}, "missing 'tiles'"),
        ({"player": "bo", "tiles": 9}, "'tiles' has the wrong type"),
        ({"player": "bo", "tiles": {"0": None}}, "'tiles' has the wrong type"),
        ({"player": "bo", "tiles": [None] * 8 + [1]}, "tile must be written a-b-c"),
        ({"player": "bo", "tiles": [None] * 8 + [True]}, "tile must be written a-b-c"),
        ({"player": "bo", "tiles": [None] * 8 + ["5-3"]}, "not a Tri-Ominos tile"),
        ({"player": "bo", "tiles": []}, "must be dealt 9 tiles with 2 players, not 0"),
        ({"player": "bo", "tiles": [None] * 10**4}, "must be dealt 9 tiles with 2 players, not 10000"),
    ],
)
def test_tiles_dealt_shape(data: dict[str, Any], words: str) -> None:
    assert words in refusal([*started(), deal("ann")], {"type": "tiles_dealt", "data": data})


def test_hands_revealed_shape() -> None:
    lines, _ = load_example("tri-ominos-26")
    log = lines[:-1]  # Ann went out; Bo's three hidden tiles are to be revealed
    good = ["0-1-4", "1-2-5", "4-4-4"]

    def revealed(data: Any) -> str:
        return refusal(log, {"type": "hands_revealed", "data": data})

    assert "'hands' has the wrong type" in revealed({"hands": [["bo", good]]})
    assert "'hands' has the wrong type" in revealed({"hands": None})
    assert revealed({"hands": {"bo": "0-1-4 1-2-5 4-4-4"}}) == "hands_revealed: Bo's hand must be a list of tiles"
    assert revealed({"hands": {"bo": None}}) == "hands_revealed: Bo's hand must be a list of tiles"
    assert "tile must be written a-b-c" in revealed({"hands": {"bo": ["0-1-4", "1-2-5", None]}})
    assert "'5-3' is not a Tri-Ominos tile" in revealed({"hands": {"bo": ["0-1-4", "1-2-5", "5-3"]}})
    assert "unknown player 'Bo'" in revealed({"hands": {"Bo": good}})
    assert "Ann holds 0 tiles, but 3 are revealed" in revealed({"hands": {"ann": good, "bo": good}})
    # a player listed beside the ones who must be, with exactly the known hand (here Ann's empty one)
    fold = fold_dicts([*log, reveal(bo=good, ann=[])])
    assert fold.points(fold.seq) == {"ann": 5 + 8 + 12}


def test_event_data_must_be_an_object() -> None:
    fold = fold_dicts(PLAYING)
    for data in ([], "bo", None, 3):
        with pytest.raises(IllegalEvent, match="data must be a JSON object"):
            GAME.apply(fold.state, Event(fold.seq + 1, "turn_passed", data))  # type: ignore[arg-type]
        with pytest.raises(IllegalEvent, match="data must be a JSON object"):
            fold.apply(Event(fold.seq + 1, "turn_passed", data))  # type: ignore[arg-type]


# ---- phases: nothing out of order -----------------------------------------------------------------------


ALL_KINDS = {
    "round_started": ROUND_STARTED,
    "tiles_dealt": deal("bo"),
    "tile_placed": place("bo", "2-5-5", (1, 0), (5, 5, 2)),
    "tile_drawn": draw("bo"),
    "turn_passed": pass_turn("bo"),
    "hands_revealed": reveal(bo=["0-0-0"] * 9),
}


@pytest.mark.parametrize("kind", ["tiles_dealt", "tile_placed", "tile_drawn", "turn_passed"])
def test_nothing_before_the_first_round(kind: str) -> None:
    assert "no round has started yet; record round_started first" in refusal(started()[:1], ALL_KINDS[kind])
    assert "hands_revealed comes only when a round has ended" in refusal(started()[:1], ALL_KINDS["hands_revealed"])


@pytest.mark.parametrize("kind", ["round_started", "tile_placed", "tile_drawn", "turn_passed", "hands_revealed"])
def test_only_deals_while_dealing(kind: str) -> None:
    log = [*started(), deal("ann", "5-5-5")]
    reason = refusal(log, ALL_KINDS[kind])
    assert "is being dealt; still to deal: Bo" in reason or "hands_revealed comes only" in reason


def test_no_second_deal_once_every_hand_is_dealt() -> None:
    log = [*started(), deal("ann", "5-5-5"), deal("bo")]
    assert refusal(log, deal("bo")).startswith("tiles_dealt: every hand of round 1 is dealt; the round starts")
    assert "hands_revealed comes only" in refusal(log, reveal(bo=["0-0-0"] * 9))


def test_no_deal_or_reveal_during_play() -> None:
    assert "round 1 is being played" in refusal(PLAYING, deal("bo"))
    assert "hands_revealed comes only when a round has ended" in refusal(PLAYING, reveal(bo=["0-0-0"] * 9))


@pytest.mark.parametrize("kind", ["tiles_dealt", "tile_placed", "tile_drawn", "turn_passed", "hands_revealed"])
def test_between_rounds_only_round_started(kind: str) -> None:
    log = [*started(), *STRIP_DEAL, *STRIP_PLACEMENTS]  # round 1 over, everything known
    reason = refusal(log, ALL_KINDS[kind])
    assert "round 1 is over; record round_started" in reason or "hands_revealed comes only" in reason


@pytest.mark.parametrize("kind", list(ALL_KINDS))
def test_a_finished_match_takes_only_notes_and_rewinds(kind: str) -> None:
    log = [*started(target_score=100), *STRIP_DEAL, *STRIP_PLACEMENTS]
    fold = fold_dicts(log)
    assert fold.finished
    assert "the match is finished; only notes and rewinds are accepted" in refusal(log, ALL_KINDS[kind])
    with pytest.raises(IllegalEvent, match="the match is finished"):
        GAME.apply(fold.state, Event(fold.seq + 1, ALL_KINDS[kind]["type"], ALL_KINDS[kind]["data"]))


def test_a_note_and_a_rewind_after_the_finish() -> None:
    log = [*started(target_score=100), *STRIP_DEAL, *STRIP_PLACEMENTS]
    fold = fold_dicts(log)
    noted = fold.apply(Event(fold.seq + 1, "note", {"text": "well played"}))
    assert noted.finished and GAME.scores(noted.state) == GAME.scores(fold.state)
    # a referee reopens the match before Ann's last tile; she then plays it again
    reopened = noted.apply(Event(noted.seq + 1, "rewind", {"to_seq": fold.seq - 1, "reason": "recount"}))
    assert not reopened.finished and totals(reopened) == {"ann": 124 - 31, "bo": 65}
    last = log[-1]
    again = reopened.apply(Event(reopened.seq + 1, last["type"], last["data"]))
    assert again.finished and totals(again) == {"ann": 124, "bo": 65}


# ---- the start: the starter must hold the highest triple, judged on what is known --------------------

ANN_EIGHT = ["1-1-2", "0-1-2", "0-1-3", "0-1-4", "0-1-5", "0-2-2", "0-2-3", "0-2-4"]  # no triple


def test_a_0_0_0_start_from_the_last_hidden_slot_must_not_hide_a_higher_triple() -> None:
    # Ann shows eight tiles and one hidden slot; Bo is known to hold 3-3-3. If the slot is 0-0-0,
    # her whole hand is known afterwards and holds no triple above 3-3-3: the start is provably wrong.
    log = [*started(), deal("ann", *ANN_EIGHT), deal("bo", "3-3-3")]
    reason = refusal(log, place("ann", "0-0-0", (0, 0), (0, 0, 0)))
    assert reason == "Bo holds 3-3-3: 0-0-0 may start only in the hand holding the highest triple"
    # 0-0-0 and a shown triple cannot both come from one hidden slot
    assert refusal(log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-4-4")) == "Ann does not hold 4-4-4"
    # Bo starts with his 3-3-3 instead: 9 + 10
    assert totals(fold_dicts([*log, place("bo", "3-3-3", (0, 0), (3, 3, 3))])) == {"ann": 0, "bo": 19}


def test_a_0_0_0_start_from_a_hidden_slot_with_slots_to_spare() -> None:
    # Ann shows seven tiles: one hidden slot is 0-0-0, the other may be 4-4-4 or 5-5-5
    log = [*started(), deal("ann", *ANN_EIGHT[:7]), deal("bo", "3-3-3")]
    fold = fold_dicts([*log, place("ann", "0-0-0", (0, 0), (0, 0, 0))])
    assert totals(fold) == {"ann": 40, "bo": 0}
    fold = fold_dicts([*log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="5-5-5")])
    assert totals(fold) == {"ann": 50, "bo": 0}
    ann = GAME.to_json(fold.state)["players"][0]
    assert (ann["hand"], ann["hidden"], ann["tiles"]) == ([*ANN_EIGHT[:7], "5-5-5"], 0, 8)


def test_a_0_0_0_start_with_the_highest_triple_known_in_the_hand() -> None:
    # all of Ann's tiles known: 0-0-0 and 4-4-4; Bo holds 3-3-3. Showing is optional.
    log = [*started(), deal("ann", "0-0-0", "4-4-4", *ANN_EIGHT[:7]), deal("bo", "3-3-3")]
    assert totals(fold_dicts([*log, place("ann", "0-0-0", (0, 0), (0, 0, 0))])) == {"ann": 40, "bo": 0}
    assert refusal(log, place("bo", "3-3-3", (0, 0), (3, 3, 3))) == (
        "Ann holds 4-4-4: the round starts with the highest triple"
    )


def test_a_start_may_not_be_recorded_twice() -> None:
    log = [*START, place("ann", "5-5-5", (0, 0), (5, 5, 5))]
    assert refusal(log, place("ann", "4-4-4", (5, 5), (4, 4, 4))) == "it is Bo's turn, not Ann's"
    assert "shares no edge" in refusal(log, place("bo", "4-4-4", (5, 5), (4, 4, 4)))


def test_the_first_tile_may_go_far_away() -> None:
    far = (10**12, -(10**12) + 1)  # an odd sum: a down cell
    fold = fold_dicts([*START, place("ann", "5-5-5", far, (5, 5, 5))])
    state = GAME.to_json(fold.state)
    assert state["board"][0]["cell"] == list(far) and state["board"][0]["up"] is False
    assert totals(fold) == {"ann": 25, "bo": 0}


# ---- bridges: an extension is earned once, even beside two bridges -----------------------------------

# Ann starts at [1, 1]; a chain round the right runs down to [0, -1]. [0, 0] and [2, 0] are then
# bridges (each has one neighbour below, and its apex touches [1, 1]); [1, 0] between them touches
# both bridges and [1, 1], and closes the hexagon round (1, 0).
TWO_BRIDGES = [
    place("ann", "5-5-5", (1, 1), (5, 5, 5)),  # start: 15 + 10 = 25
    place("bo", "4-5-5", (2, 1), (5, 5, 4)),  # 14
    place("ann", "4-4-5", (3, 1), (4, 4, 5)),  # 13
    place("bo", "4-4-4", (4, 1), (4, 4, 4)),  # 12
    place("ann", "2-4-4", (5, 1), (4, 2, 4)),  # 10
    place("bo", "2-2-4", (5, 0), (2, 4, 2)),  # 8
    place("ann", "2-3-4", (4, 0), (4, 2, 3)),  # 9
    place("bo", "2-2-3", (4, -1), (2, 3, 2)),  # 7
    place("ann", "2-3-3", (3, -1), (3, 2, 3)),  # 8
    place("bo", "3-3-3", (2, -1), (3, 3, 3)),  # 9
    place("ann", "3-3-4", (1, -1), (3, 3, 4)),  # 10
    place("bo", "3-4-4", (0, -1), (4, 4, 3)),  # 11
    place("ann", "3-4-5", (0, 0), (5, 3, 4)),  # 12 + bridge 40 (one neighbour [0, -1]; apex (0, 1) on [1, 1])
    place("bo", "3-3-5", (2, 0), (5, 3, 3)),  # 11 + bridge 40 (one neighbour [2, -1]; apex (2, 1) on [1, 1])
    place("ann", "3-5-5", (1, 0), (3, 5, 5)),  # 13 + hexagon round (1, 0) 50 + one extension 40 = 103
]


def test_a_tile_between_two_bridges_earns_one_extension() -> None:
    fold = fold_dicts([*started(), deal("ann", "5-5-5"), deal("bo"), *TWO_BRIDGES])
    last = fold.describe(fold.seq)
    assert last.text == "Ann placed 3-5-5 at [1, 0]: 13 + hexagon 50 + bridge extension 40"
    assert last.tags == ("hexagon", "bridge_extension")
    assert fold.points(fold.seq) == {"ann": 103}
    assert fold.points(fold.seq - 1) == {"bo": 51} and fold.points(fold.seq - 2) == {"ann": 52}
    assert totals(fold) == {"ann": 25 + 13 + 10 + 9 + 8 + 10 + 52 + 103, "bo": 14 + 12 + 8 + 7 + 9 + 11 + 51}
    bridges = sorted(b["cell"] for b in GAME.to_json(fold.state)["board"] if b["bridge"])
    assert bridges == [[0, 0], [2, 0]]


def test_a_bridge_with_a_zero_bonus_still_earns_its_extension() -> None:
    fold = fold_dicts([*started(bridge_bonus=0), deal("ann", "5-5-5"), deal("bo"), *TWO_BRIDGES])
    assert fold.points(fold.seq - 2) == {"ann": 12}
    assert fold.points(fold.seq) == {"ann": 103}


# ---- passes, the well and a blocked round -----------------------------------------------------------


def _blocked_log(first_ann_draw: str | None = None) -> Log:
    """As in test_tri_ominos_rules: draw limit 1, both hands hidden, every turn a draw and a pass until the
    well is empty; Ann's draw empties it and her pass is the first with the well empty."""
    log = [*started(draw_limit=1), deal("ann", "5-5-5"), deal("bo")]
    log += [
        place("ann", "5-5-5", (0, 0), (5, 5, 5)),  # 25
        place("bo", "1-5-5", (1, 0), (5, 5, 1)),  # 11
        place("ann", "0-5-5", (-1, 0), (5, 0, 5)),  # 10
    ]
    for i in range(19):
        log += [draw("bo"), pass_turn("bo"), draw("ann", first_ann_draw if i == 0 else None), pass_turn("ann")]
    return log


def test_passes_with_tiles_in_the_well_never_count_towards_a_block() -> None:
    log = _blocked_log()
    fold = fold_dicts(log[:-2])  # 37 passes in a row, every one with tiles left in the well
    assert GAME.to_json(fold.state)["passes_in_row"] == 0 and fold.state.phase == "playing"
    fold = fold_dicts(log)
    assert GAME.to_json(fold.state)["passes_in_row"] == 1


def test_a_placement_with_the_well_empty_starts_the_count_again() -> None:
    log = _blocked_log()
    # Bo places 2-5-5 from a hidden slot below 5-5-5 instead of passing: 12 points
    log += [place("bo", "2-5-5", (0, -1), (2, 5, 5)), pass_turn("ann")]
    fold = fold_dicts(log)
    assert fold.state.phase == "playing" and GAME.to_json(fold.state)["passes_in_row"] == 1
    assert fold.points(fold.seq - 1) == {"bo": 12} and fold.points(fold.seq) == {"ann": -10}
    fold = fold_dicts([*log, pass_turn("bo")])
    assert fold.state.phase == "revealing" and fold.describe(fold.seq).tags == ("pass", "blocked")


def test_with_the_well_empty_no_draw_and_no_pass_out_of_turn() -> None:
    log = _blocked_log()
    assert refusal(log, pass_turn("ann")) == "it is Bo's turn, not Ann's"
    assert refusal(log, draw("bo")) == "the well is empty: Bo cannot draw; place a tile or pass"


def test_a_reveal_may_not_move_a_tile_known_in_another_hand() -> None:
    log = [*_blocked_log(first_ann_draw="0-0-0"), pass_turn("bo")]  # 0-0-0 fits nowhere: Ann keeps it
    assert "0-0-0" in BLOCKED_BO and "0-0-0" not in BLOCKED_ANN
    assert refusal(log, reveal(bo=BLOCKED_BO, ann=BLOCKED_ANN)) == "0-0-0 cannot be in Bo's hand: it is in Ann's hand"
    assert refusal(log, reveal(ann=BLOCKED_ANN, bo=BLOCKED_BO)) == "Ann's revealed hand lacks 0-0-0, known to be in it"
    # with 0-0-0 and 4-5-5 swapped the reveal is accepted: Ann 26 tiles, Bo 27; Ann wins the round
    ann = [t if t != "4-5-5" else "0-0-0" for t in BLOCKED_ANN]
    bo = [t if t != "0-0-0" else "4-5-5" for t in BLOCKED_BO]
    fold = fold_dicts([*log, reveal(bo=bo, ann=ann)])
    assert fold.points(fold.seq) == {"ann": (131 + 14) - (253 - 14)}


# ---- hidden slots -----------------------------------------------------------------------------------


def test_a_known_draw_then_the_drawn_tile_is_known() -> None:
    log = [*opened(), draw("bo", "0-0-1")]
    assert refusal(log, draw("ann")) == "it is Bo's turn, not Ann's"
    assert "0-0-1 cannot come from the well: it is in Bo's hand" in refusal(log, draw("bo", "0-0-1"))
    assert "0-0-1 is in Bo's hand, not Ann's to play" in refusal(
        [*log, draw("bo"), draw("bo"), pass_turn("bo")], place("ann", "0-0-1", (1, 0), (0, 0, 1))
    )


# ---- fuzz: mutated events from real logs are applied or refused, never crash ----------------------------

JUNK: list[Any] = [None, True, False, 0, 1, -1, 1.0, 2.5, 10**30, "", "x", "2-1-0", "5-3", [], [0], [0, 0],
                   [0, 0, 0], [1.0, 0], [True, 0], [5, 5, 5], {}, {"a": 1}, [None] * 9, ["0-0-0"] * 9]  # fmt: skip
KINDS = ["round_started", "tiles_dealt", "tile_placed", "tile_drawn", "turn_passed", "hands_revealed", "bogus"]
FIELDS = ["player", "tile", "cell", "corners", "shown", "tiles", "hands", "extra"]


def _mutate(rng: random.Random, event: dict[str, Any], ids: list[str]) -> dict[str, Any]:
    event = copy.deepcopy(event)
    data = event["data"]
    pick = rng.random()
    tiles = list(ALL_TILES)
    if pick < 0.2 and data:
        del data[rng.choice(list(data))]
    elif pick < 0.45 and data:
        data[rng.choice(list(data))] = rng.choice(JUNK + ids + tiles)
    elif pick < 0.55:
        data[rng.choice(FIELDS)] = rng.choice(JUNK + ids + tiles)
    elif pick < 0.65:
        event["type"] = rng.choice(KINDS)
    elif pick < 0.75:
        data["player"] = rng.choice([*ids, "nobody"])
    elif pick < 0.85 and isinstance(data.get("hands"), dict) and data["hands"]:
        hand = data["hands"][rng.choice(list(data["hands"]))]
        if hand:
            hand[rng.randrange(len(hand))] = rng.choice([*tiles, None, 3])
        data["hands"][rng.choice([*ids, "nobody"])] = rng.choice([[], ["0-0-0"], None, 5, hand])
    else:  # plausible but different: another tile, cell, rotation or dealt tile
        if "tile" in data:
            data["tile"] = rng.choice(tiles)
        if "cell" in data:
            data["cell"] = [rng.randint(-6, 6), rng.randint(-6, 6)]
        if "corners" in data:
            data["corners"] = [rng.randint(0, 5) for _ in range(3)]
        if isinstance(data.get("tiles"), list) and data["tiles"]:
            data["tiles"][rng.randrange(len(data["tiles"]))] = rng.choice(tiles)
    return event


def _fuzz_logs(random_matches: int) -> list[Log]:
    logs = [load_example(name)[0] for name in ("tri-ominos-01", "tri-ominos-26")]
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(6)]
    for seed in range(random_matches):
        rng = random.Random(seed)
        logs.append(random_match(rng, players[: 2 + seed % 5], {"target_score": 150}, hidden=seed % 2 == 1))
    return logs


def _fuzz(log: Log, rng: random.Random, tries: int) -> None:
    fold = fold_dicts(log)
    ids = [p.id for p in fold.state.players]
    for _ in range(tries):
        k = rng.randrange(1, len(log))  # offer a mutant of event k+1 (or another event) after event k
        base: Fold = fold.at(k)
        state = base.state
        before = GAME.to_json(state)
        source = log[k] if rng.random() < 0.8 else log[rng.randrange(1, len(log))]
        event = _mutate(rng, source, ids)
        try:
            after = GAME.apply(state, Event(k + 1, event["type"], event["data"]))
        except IllegalEvent as err:
            assert err.reason, event
        else:
            assert isinstance(after, State)
            check_tiles(after)  # an accepted event keeps every tile in one place
            GAME.to_json(after)
        assert GAME.to_json(state) == before, event


def test_fuzz_mutated_events_are_applied_or_refused() -> None:
    rng = random.Random(2024)
    for log in _fuzz_logs(2):
        _fuzz(log, rng, 300)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_fuzz_long(seed: int) -> None:
    rng = random.Random(seed)
    for log in _fuzz_logs(6):
        _fuzz(log, rng, 1500)
