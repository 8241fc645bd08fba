"""High Five audit: the RULES.md §2 / FORMAT.md points no other test pinned, adversarial events, and a fuzz.

Each refusal goes through `refused` (tests/support/high_five.py): an IllegalEvent whose reason names the
problem, and the state exactly as it was. Tile values used below: 0-5 1, 5-5 3, 7-7 1, 3-7 2, 2-3 1,
12-13 5; 11-12 and 3-4 are worth 0.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.high_five import GAME, State
from projections.games.high_five.tiles import TILES, VALUES, matches
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.high_five import IDS, Line, claim, deal, game, hide_hands, match, play, refused, rounds, then, totals

LAYOUT = ["0-5", "1-4", "2-3", "6-9", "7-7"]
HANDS: dict[str, list[str | None]] = {
    "ann": ["5-5", "12-13", "9-11", "2-2", "8-8"],
    "bo": ["3-7", "11-12", "10-14", "4-12", "13-14"],
}


def line(type_: str, data: Any) -> Line:
    return {"type": type_, "data": data}


def dealt(**options: Any) -> Fold:
    return fold_dicts([match(2, **options), game(*LAYOUT), deal(dict(HANDS))])


def deal_and_play(
    f: Fold, deck: list[str], pos: int, size: int, *, capture: bool = True, hidden: bool = False
) -> tuple[Fold, int]:
    """Deal `size` tiles each from deck[pos:] and play the hand out in seat order from the leader.

    With `capture`, each tile takes the first layout tile it matches; with `hidden`, hands are dealt as
    nulls and the same tiles are played from hidden slots.
    """
    ids = [p for p, _ in f.players]
    n = len(ids)
    hands = {p: deck[pos + i * size : pos + (i + 1) * size] for i, p in enumerate(ids)}
    shown = {p: [None] * size if hidden else h for p, h in hands.items()}
    f = then(f, deal(shown))
    leader = ids.index(GAME.to_json(f.state)["to_play"])
    for k in range(size):
        for i in range(n):
            p = ids[(leader + i) % n]
            tile = hands[p][k]
            lay = GAME.to_json(f.state)["layout"]
            cap = next((t for t in lay if matches(t, tile)), None) if capture else None
            f = then(f, play(p, tile, cap))
    return f, pos + size * n


def eight_before_last_hand(*, capture: bool = True, hidden: bool = False) -> tuple[Fold, list[str]]:
    """Eight players, the set in order: hands of 4, 3, 3, 3 played; 27 tiles left for the last hand (24 + 3)."""
    deck = list(TILES)
    f = fold_dicts([match(8, target_score=1000), game(*deck[:5])])
    pos = 5
    for size in (4, 3, 3, 3):
        f, pos = deal_and_play(f, deck, pos, size, capture=capture, hidden=hidden)
    assert GAME.to_json(f.state)["boneyard"] == 27 == len(deck) - pos
    return f, deck[pos:]


def last_hand(rest: list[str], hidden: bool = False) -> tuple[dict[str, list[str | None]], list[str]]:
    hands: dict[str, list[str | None]] = {
        p: [None] * 3 if hidden else rest[i * 3 : i * 3 + 3] for i, p in enumerate(IDS)
    }
    return hands, rest[24:]


# --- "For every game": players and options -------------------------------------------------------------


def test_missing_options_take_their_defaults() -> None:
    for options in (None, {}):
        data = match(3)["data"] | {"options": options}
        s = GAME.to_json(fold_dicts([line("match_started", data)]).state)
        assert s["target_score"] == 100 and s["leader"] == "ann"
    data = {k: v for k, v in match(3)["data"].items() if k != "options"}
    assert GAME.to_json(fold_dicts([line("match_started", data)]).state)["target_score"] == 100


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target_score": 1.0}, ["target_score", "positive integer", "1.0"]),
        ({"target_score": 100.0}, ["target_score", "positive integer"]),
        ({"target_score": False}, ["target_score", "positive integer"]),
        ({"target_score": -5}, ["target_score", "positive integer"]),
        ({"target_score": None}, ["target_score", "positive integer"]),
        ({"target_score": [100]}, ["target_score", "positive integer"]),
        ({"first_player": ""}, ["first_player", "player id"]),
        ({"first_player": None}, ["first_player", "player id"]),
        ({"first_player": ["bo"]}, ["first_player", "player id"]),
        ({"first_player": "Bo"}, ["first_player 'Bo' is not a player"]),  # a name, not the id
        ({"Target_score": 50}, ["unknown option 'Target_score'"]),
        ({"draw_limit": 3}, ["unknown option 'draw_limit'"]),  # another game's option
    ],
)
def test_option_types_are_strict(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts([match(2, **options)])
    for w in words:
        assert w in err.value.reason, err.value.reason


@pytest.mark.parametrize("options", [[], "target_score=50", 50])
def test_options_must_be_an_object(options: Any) -> None:
    with pytest.raises(IllegalEvent, match="options must be a JSON object"):
        fold_dicts([line("match_started", match(2)["data"] | {"options": options})])


def test_a_huge_target_is_a_valid_integer() -> None:
    f = fold_dicts([match(2, target_score=10**30)])
    assert GAME.to_json(f.state)["target_score"] == 10**30


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ([{"id": "ann"}, {"id": "ann"}], ["'ann' appears twice"]),
        ([{"id": "ann"}, {"id": ""}], ["non-empty string id"]),
        ([{"id": "ann"}, {"id": 2}], ["non-empty string id"]),
        ([{"id": "ann"}, {"name": "Bo"}], ["non-empty string id"]),
        ([{"id": "ann"}, "bo"], ["non-empty string id"]),
        ([{"id": "ann"}, {"id": "bo", "name": 7}], ["name must be a string"]),
        ({"ann": "Ann", "bo": "Bo"}, ["players must be a list"]),
    ],
)
def test_player_ids_are_unique_non_empty_strings(players: Any, words: list[str]) -> None:
    with pytest.raises(IllegalEvent) as err:
        fold_dicts([line("match_started", match(2)["data"] | {"players": players})])
    for w in words:
        assert w in err.value.reason, err.value.reason


@pytest.mark.parametrize("n", [2, 8])
def test_two_and_eight_players_are_accepted(n: int) -> None:
    assert len(GAME.to_json(fold_dicts([match(n)]).state)["players"]) == n


# --- "For every game": a finished match takes only note and rewind ------------------------------------


def test_a_finished_match_refuses_every_high_five_event() -> None:
    f = then(dealt(target_score=4), play("ann", "5-5", "0-5"))  # 3 + 1 = 4
    assert f.finished
    refused(f, game("0-1", "0-2", "0-3", "0-4", "0-6"), "the match is finished")
    refused(f, deal({"ann": [None] * 5, "bo": [None] * 5}), "the match is finished")
    refused(f, play("bo", "3-7", "7-7"), "the match is finished")
    refused(f, claim("bo", "2-3", "3-7"), "the match is finished")
    f = then(f, line("note", {"text": "Ann wins", "about_seq": 4}))
    assert f.finished and totals(f) == {"ann": 4, "bo": 0}
    f = then(f, line("rewind", {"to_seq": 3, "reason": "wrong tile"}))
    assert not f.finished and totals(f) == {"ann": 0, "bo": 0}


# --- FORMAT.md shapes: data must be an object; required fields and their JSON types ---------------------


@pytest.mark.parametrize("type_", ["game_started", "hand_dealt", "tile_played", "pair_claimed"])
@pytest.mark.parametrize("data", [None, [], "5-5", 5])
def test_data_that_is_not_an_object_is_refused(type_: str, data: Any) -> None:
    refused(dealt(), line(type_, data), "data must be a JSON object")


def test_hand_dealt_needs_hands() -> None:
    f = fold_dicts([match(2), game(*LAYOUT)])
    refused(f, line("hand_dealt", {}), "missing 'hands'")
    refused(f, line("hand_dealt", {"hands": None}), "'hands' has the wrong type")
    refused(f, line("hand_dealt", {"hands": {"ann": [5, None, None, None, None], "bo": [None] * 5}}), "5 is not")
    refused(f, line("hand_dealt", {"hands": {"ann": ["5-5", "5-5", None, None, None], "bo": [None] * 5}}), "twice")


@pytest.mark.parametrize("to_layout", [False, 0, "", {}, "0-0", 3, {"0-0": 1}])
def test_to_layout_of_the_wrong_type_is_refused_on_any_hand(to_layout: Any) -> None:
    f = fold_dicts([match(2), game(*LAYOUT)])
    refused(f, line("hand_dealt", deal(dict(HANDS))["data"] | {"to_layout": to_layout}), "to_layout must be a list")


@pytest.mark.parametrize("to_layout", [None, []])
def test_an_empty_to_layout_before_the_last_hand_is_no_to_layout(to_layout: Any) -> None:
    f = fold_dicts([match(2), game(*LAYOUT)])
    f = then(f, line("hand_dealt", deal(dict(HANDS))["data"] | {"to_layout": to_layout}))
    assert GAME.to_json(f.state)["layout"] == LAYOUT and GAME.to_json(f.state)["boneyard"] == 121


def test_tile_played_field_types() -> None:
    f = dealt()
    refused(f, line("tile_played", {"tile": "5-5", "capture": None}), "player must be a player id", "None")
    refused(f, line("tile_played", {"player": None, "tile": "5-5"}), "player must be a player id")
    refused(f, line("tile_played", {"player": ["ann"], "tile": "5-5"}), "player must be a player id")
    refused(f, line("tile_played", {"player": "Ann", "tile": "5-5"}), "unknown player 'Ann'")  # a name
    refused(f, line("tile_played", {"player": "ann", "tile": None}), "'tile' has the wrong type")
    refused(f, line("tile_played", {"player": "ann", "tile": 55}), "'tile' has the wrong type")
    refused(f, line("tile_played", {"player": "ann", "tile": ["5", "5"]}), "'tile' has the wrong type")
    refused(f, line("tile_played", {"player": "ann", "tile": " 5-5"}), "' 5-5' is not a High Five tile")
    for capture in (5, True, False, "", "0_5", ["0-5"], {"tile": "0-5"}):
        refused(f, line("tile_played", {"player": "ann", "tile": "5-5", "capture": capture}), "not a High Five tile")


def test_a_missing_capture_is_a_play_into_the_layout() -> None:
    # docs/rules/high-five.md: a tile_played without `capture` is read as capture: null.
    f = then(dealt(), line("tile_played", {"player": "ann", "tile": "2-2"}))  # misses 2-3
    s = GAME.to_json(f.state)
    assert s["layout"] == LAYOUT + ["2-2"] and totals(f) == {"ann": 0, "bo": 0}
    assert s["claimable"] == [{"tiles": ["2-2", "2-3"], "left_by": "ann", "value": 2}]


def test_pair_claimed_field_types() -> None:
    f = then(dealt(), play("ann", "12-13"), play("bo", "11-12"))  # Bo left 11-12 beside 12-13
    refused(f, line("pair_claimed", {"tiles": ["11-12", "12-13"]}), "player must be a player id")
    refused(f, line("pair_claimed", {"player": "ann"}), "missing 'tiles'")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": None}), "'tiles' has the wrong type")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": {"11-12": "12-13"}}), "'tiles' has the wrong type")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": []}), "exactly two", "not 0")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": ["11-12"]}), "exactly two", "not 1")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": [None, None]}), "None is not a High Five tile")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": [1112, 1213]}), "1112 is not a High Five tile")
    refused(f, line("pair_claimed", {"player": "ann", "tiles": ["12-11", "12-13"]}), "'12-11' is not")


# --- RULES.md §2 points no other test pinned --------------------------------------------------------------


def test_the_first_hand_of_every_game_is_the_first_hand_size() -> None:
    # "First hand" is the first hand of each game: 7 players get 4 tiles again in game 2, then 3.
    f = fold_dicts([match(7, target_score=1000), game(*TILES[:5])])
    pos = 5
    for size in (4, 3, 3, 3):
        f, pos = deal_and_play(f, list(TILES), pos, size)
    hands = {p: list(TILES[pos + 3 * i : pos + 3 * i + 3]) for i, p in enumerate(IDS[:7])}
    f = then(f, deal(hands, TILES[pos + 21 :]))
    for k in range(3):
        for p in IDS[:7]:
            lay = GAME.to_json(f.state)["layout"]
            f = then(f, play(p, hands[p][k], next((t for t in lay if matches(t, hands[p][k])), None)))
    assert GAME.to_json(f.state)["phase"] == "game_over"
    deck = list(reversed(TILES))
    f = then(f, game(*deck[:5]))
    refused(f, deal({p: deck[5 + 3 * i : 8 + 3 * i] for i, p in enumerate(IDS[:7])}), "first hand for 7 players is 4")
    f, pos = deal_and_play(f, deck, 5, 4)
    refused(f, deal({p: deck[pos + 4 * i : pos + 4 * i + 4] for i, p in enumerate(IDS[:7])}), "later hand", "is 3")
    f, _ = deal_and_play(f, deck, pos, 3)
    assert GAME.to_json(f.state)["hand_number"] == 2 and len(rounds(f)) == 2


def test_to_layout_tiles_are_face_up_distinct_and_unseen() -> None:
    f, rest = eight_before_last_hand()
    hands, turned = last_hand(rest)
    assert len(turned) == 3
    s = GAME.to_json(f.state)
    in_pile = next(t for p in s["players"] for t in p["pile"])
    in_layout = s["layout"][0]
    refused(f, deal(hands, [turned[0], turned[1], None]), "None is not a High Five tile")
    refused(f, deal(hands, [turned[0], turned[1], turned[1]]), f"{turned[1]} is dealt twice")
    refused(f, deal(hands, [turned[0], turned[1], rest[0]]), f"{rest[0]} is dealt twice")  # also in Ann's hand
    refused(f, deal(hands, [turned[0], turned[1], in_pile]), f"{in_pile} cannot be dealt", "pile")
    refused(f, deal(hands, [turned[0], turned[1], in_layout]), f"{in_layout} cannot be dealt", "in the layout")
    refused(f, deal(hands, [turned[0], turned[1], "16-16"]), "'16-16' is not a High Five tile")
    refused(f, line("hand_dealt", {"hands": hands, "to_layout": turned[0]}), "to_layout must be a list")
    refused(f, deal(hands, turned[:2]), "3 tile(s) left", "got 2")
    f = then(f, deal(hands, turned))
    s = GAME.to_json(f.state)
    assert s["last_hand"] and s["boneyard"] == 0 and s["layout"][-3:] == turned


def test_a_hidden_slot_cannot_play_a_tile_turned_face_up_or_captured() -> None:
    f, rest = eight_before_last_hand(hidden=True)
    hands, turned = last_hand(rest, hidden=True)
    in_pile = next(t for p in GAME.to_json(f.state)["players"] for t in p["pile"])
    refused(f, deal(hands, [turned[0], turned[1], in_pile]), f"{in_pile} cannot be dealt", "pile")
    f = then(f, deal(hands, turned))
    refused(f, play("ann", turned[2]), f"Ann cannot play {turned[2]}: it is in the layout")
    refused(f, play("ann", in_pile), f"Ann cannot play {in_pile}: it is in")
    f = then(f, play("ann", rest[0]))  # a hidden slot, as any unseen tile
    assert GAME.to_json(f.state)["players"][0]["hand"] == {"tiles": [], "hidden": 2, "count": 2}


def test_a_to_layout_tile_never_pairs_with_a_tile_played_before_it_came_face_up() -> None:
    # Nobody captures: every played tile stays in the layout. A to_layout tile matching one of them is no
    # missed capture (docs/rules/high-five.md); a tile played after it that matches it is.
    f, rest = eight_before_last_hand(capture=False)
    hands, turned = last_hand(rest)
    f = then(f, deal(hands, turned))
    s = GAME.to_json(f.state)
    before = s["layout"][: -len(turned)]
    t = turned[0]
    old = next(u for u in before if matches(u, t) and u not in LAYOUT and u not in TILES[:5])
    claimable = {frozenset(c["tiles"]) for c in s["claimable"]}
    assert frozenset((old, t)) not in claimable
    refused(f, claim("ann", old, t), f"{old} and {t} are not a missed capture")
    tile = str(hands["ann"][0])
    f = then(f, play("ann", tile))
    left = [c["tiles"] for c in GAME.to_json(f.state)["claimable"] if c["tiles"][0] == tile]
    assert left == [[tile, u] for u in s["layout"] if matches(tile, u)]


def test_claims_after_the_last_play_of_a_game() -> None:
    # Two players, the set in order; nobody captures in the 13th (last) hand. After Bo's last play only
    # Bo may claim, and only pairs Ann left; game_started sets the old layout aside with its pairs.
    deck = list(TILES)
    f = fold_dicts([match(2, target_score=1000), game(*deck[:5])])
    pos = 5
    for _ in range(12):
        f, pos = deal_and_play(f, deck, pos, 5)
    hands = {"ann": deck[pos : pos + 5], "bo": deck[pos + 5 : pos + 10]}
    f = then(f, deal(hands, deck[pos + 10 :]))
    for k in range(5):
        f = then(f, play("ann", hands["ann"][k]), play("bo", hands["bo"][k]))
    s = GAME.to_json(f.state)
    assert s["phase"] == "game_over" and s["may_claim"] == ["bo"]
    anns = [c for c in s["claimable"] if c["left_by"] == "ann"]
    own = [c for c in s["claimable"] if c["tiles"][0] == hands["bo"][4]]
    assert anns and own
    refused(f, claim("ann", *anns[0]["tiles"]), "only Bo, who played last, may still claim", "not Ann")
    refused(f, claim("bo", *own[0]["tiles"]), "on this turn")
    before = totals(f)["bo"]
    f = then(f, claim("bo", *anns[0]["tiles"]))
    assert totals(f)["bo"] - before == sum(VALUES[t] for t in anns[0]["tiles"])
    f = then(f, game("0-1", "0-2", "0-3", "0-4", "0-6"))
    s = GAME.to_json(f.state)
    assert s["claimable"] == [] and s["layout"] == ["0-1", "0-2", "0-3", "0-4", "0-6"]
    refused(f, claim("bo", *own[0]["tiles"]), "no hand has been dealt yet")
    assert rounds(f)[1] == {"ann": 0, "bo": 0}


def test_a_player_claims_their_own_earlier_pair_after_playing() -> None:
    # Ann left 2-2 beside 2-3 on her first turn; on her next turn she may claim it after her play too.
    f = then(dealt(), play("ann", "2-2"), play("bo", "11-12"), play("ann", "12-13"))  # 12-13 misses 11-12
    f = then(f, claim("ann", "2-3", "2-2"))  # 1 + 1
    refused(f, claim("ann", "11-12", "12-13"), "on this turn")
    assert totals(f) == {"ann": 2, "bo": 0}
    f = then(f, claim("bo", "12-13", "11-12"))  # Bo's turn starts with Ann's pair: 5 + 0
    assert totals(f) == {"ann": 2, "bo": 5}
    refused(f, claim("ann", "3-7", "7-7"), "it is Bo's turn, not Ann's")


def test_a_capture_ends_the_pairs_of_the_tile_it_takes() -> None:
    # Bo leaves 3-7 beside 2-3 and 7-7; Ann's 7-8 captures 7-7: only 3-7/2-3 is left to claim.
    f = fold_dicts(
        [
            match(2),
            game(*LAYOUT),
            deal({"ann": ["12-13", "7-8", None, None, None], "bo": ["3-7", None, None, None, None]}),
        ]
    )
    f = then(f, play("ann", "12-13"), play("bo", "3-7"), play("ann", "7-8", "7-7"))  # 3 + 1
    assert [c["tiles"] for c in GAME.to_json(f.state)["claimable"]] == [["3-7", "2-3"]]
    refused(f, claim("bo", "3-7", "7-7"), "cannot claim 7-7", "Ann's pile")
    f = then(f, claim("bo", "2-3", "3-7"))  # 1 + 2
    assert totals(f) == {"ann": 4, "bo": 3}


def test_reaching_the_target_exactly_wins_and_one_short_does_not() -> None:
    f = then(dealt(target_score=5), play("ann", "5-5", "0-5"))  # 4
    assert not f.finished
    f = then(f, play("bo", "3-7", "7-7"), play("ann", "2-2", "2-3"))  # Bo 3; Ann 4 + 2 = 6 >= 5
    assert f.finished and GAME.scores(f.state).winners == ["ann"]


# --- every refusal is an IllegalEvent that leaves the state alone: a fuzz ---------------------------------

WEIRD: list[Any] = [None, True, False, 0, -1, 1.0, 10**30, "", "x", "5-0", "15-16", [], {}, ["0-5"], "zed", "ann"]


def _mutate(rng: random.Random, data: Any, ids: list[str]) -> Any:
    data = copy.deepcopy(data)
    spots: list[tuple[Any, Any]] = []

    def walk(o: Any) -> None:
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()
        for k, v in list(items):
            spots.append((o, k))
            walk(v)

    walk(data)
    if not spots:
        return rng.choice(WEIRD)
    box, key = rng.choice(spots)
    r = rng.random()
    if r < 0.2 and isinstance(box, dict):
        del box[key]
    elif r < 0.45:
        box[key] = rng.choice(WEIRD)
    elif r < 0.7:
        box[key] = rng.choice(TILES)
    elif r < 0.85:
        box[key] = rng.choice([*ids, "zed", None])
    elif isinstance(box, list):
        box.append(rng.choice([*TILES, None])) if rng.random() < 0.5 else box.pop()
    else:
        box[key] = rng.choice(WEIRD)
    return data


def _fuzz_logs() -> list[list[dict[str, Any]]]:
    logs = [load_example("high-five-01")[0], load_example("high-five-26")[0]]
    for n in (2, 5, 8):
        log = GAME.random_match(
            random.Random(n), [{"id": f"p{i}", "name": f"P{i}"} for i in range(n)], {"target_score": 25}
        )
        logs += [log, hide_hands(log)]
    return logs


def fuzz(seed: int, per_log: int) -> Counter[str]:
    """Mutated events on states of real logs: apply returns a state or raises IllegalEvent, never changes
    the state it was given, and an accepted event keeps every tile in exactly one place."""
    rng = random.Random(seed)
    outcome = Counter[str]()
    types = sorted(GAME.event_types)
    for log in _fuzz_logs():
        f = fold_dicts(log)
        ids = [p for p, _ in f.players]
        for _ in range(per_log):
            seq = rng.randrange(1, len(log))
            state: State = f.state_at(seq)
            before = json.dumps(GAME.to_json(state), sort_keys=True)
            nxt = log[seq]
            type_ = nxt["type"] if rng.random() < 0.8 else rng.choice(types)
            data = _mutate(rng, nxt["data"], ids) if rng.random() < 0.9 else nxt["data"]
            try:
                after = GAME.apply(state, Event(seq + 1, type_, data))
            except IllegalEvent as e:
                assert e.reason, (type_, data)
                outcome["refused"] += 1
            else:
                outcome["accepted"] += 1
                s = GAME.to_json(after)
                known = s["layout"] + [t for p in s["players"] for t in p["pile"] + p["hand"]["tiles"]]
                assert len(known) == len(set(known)), (type_, data)
                assert len(known) + sum(p["hand"]["hidden"] for p in s["players"]) + s["boneyard"] == 136
                GAME.describe(state, Event(seq + 1, type_, data), after)
            assert json.dumps(GAME.to_json(state), sort_keys=True) == before, (type_, data)
    return outcome


def test_fuzz_quick() -> None:
    outcome = fuzz(seed=1, per_log=60)
    assert outcome["refused"] > 100 and outcome["accepted"] > 10


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_fuzz_long(seed: int) -> None:
    fuzz(seed=100 + seed, per_log=2000)


def oracle(seed: int, per_state: int) -> Counter[str]:
    """Random plays and claims on every state of real logs, each accepted exactly when RULES.md §2 allows it,
    judged from the state JSON: the player to act plays a tile of the known hand (or an unseen tile from a
    hidden slot), capturing a matching layout tile or nothing; a claim is a claimable pair, by the player to
    act or the one who just played, never a pair that one left on this very turn. Points are the tiles' values.
    """
    rng = random.Random(seed)
    outcome = Counter[str]()
    for log in _fuzz_logs():
        f = fold_dicts(log)
        ids = [p for p, _ in f.players]
        for seq in range(2, f.seq):
            st = f.state_at(seq)
            s = GAME.to_json(st)
            if not s["game_number"]:
                continue
            seen = set(s["layout"]) | {t for p in s["players"] for t in p["pile"] + p["hand"]["tiles"]}
            for _ in range(per_state):
                pid = s["to_play"] if s["to_play"] and rng.random() < 0.3 else rng.choice(ids)
                me = next(p for p in s["players"] if p["id"] == pid)
                if rng.random() < 0.5:
                    hands = [t for p in s["players"] for t in p["hand"]["tiles"]]
                    tile = rng.choice(s["layout"] + hands + rng.sample(TILES, 3))
                    capture = rng.choice([*s["layout"], None, rng.choice(TILES)])
                    data: dict[str, Any] = {"player": pid, "tile": tile, "capture": capture}
                    held = tile in me["hand"]["tiles"] or (me["hand"]["hidden"] > 0 and tile not in seen)
                    fits = capture is None or (capture in s["layout"] and matches(tile, capture))
                    ok = s["to_play"] == pid and not s["finished"] and held and fits
                    gain = VALUES[tile] + VALUES[capture] if capture else 0
                    event = Event(seq + 1, "tile_played", data)
                else:
                    pool = [*s["layout"], rng.choice(TILES)]
                    a, b = rng.choice(pool), rng.choice(pool)
                    if s["claimable"] and rng.random() < 0.6:
                        a, b = rng.choice(s["claimable"])["tiles"]
                        pid = rng.choice(s["may_claim"]) if s["may_claim"] and rng.random() < 0.7 else pid
                    last = s["last_play"]
                    ok = pid in s["may_claim"] and any(
                        set(c["tiles"]) == {a, b}
                        and not (c["left_by"] == pid != s["to_play"] and last and last["tile"] == c["tiles"][0])
                        for c in s["claimable"]
                    )
                    gain = VALUES[a] + VALUES[b]
                    event = Event(seq + 1, "pair_claimed", {"player": pid, "tiles": [a, b]})
                try:
                    after = GAME.apply(st, event)
                except IllegalEvent as e:
                    assert not ok, (event, e.reason)
                    outcome["refused"] += 1
                    continue
                assert ok, event
                outcome[event.type] += 1
                score = {p["id"]: p["score"] for p in GAME.to_json(after)["players"]}
                assert score[pid] - GAME.scores(st).totals[pid] == gain
                assert GAME.is_finished(after) == (score[pid] >= s["target_score"])
    return outcome


def test_oracle_quick() -> None:
    outcome = oracle(seed=5, per_state=3)
    assert outcome["tile_played"] > 50 and outcome["pair_claimed"] > 20


@pytest.mark.slow
def test_oracle_long() -> None:
    oracle(seed=6, per_state=40)
