"""Tri-Ominos legal moves, annotations and the state JSON."""

from __future__ import annotations

import json
from typing import Any

from projections.events import Event
from projections.games.tri_ominos import GAME
from projections.timeline import fold_dicts
from tests.support.tri_ominos import (
    BRIDGE,
    BRIDGE_DEAL,
    HEXAGON,
    HEXAGON_DEAL,
    STRIP_DEAL,
    STRIP_PLACEMENTS,
    deal,
    draw,
    opened,
    place,
    started,
)


def _moves(log: list[dict[str, Any]], player: str) -> list[dict[str, Any]]:
    return GAME.legal_moves(fold_dicts(log).state, player)


def _applies(log: list[dict[str, Any]], moves: list[dict[str, Any]]) -> None:
    """Every suggested move is accepted, scores what it says, and leaves the state untouched."""
    fold = fold_dicts(log)
    before = GAME.to_json(fold.state)
    for move in moves:
        after = fold.apply(Event(fold.seq + 1, move["type"], move["data"]))
        assert after.points(after.seq).get(move["data"]["player"], 0) == move["points"], move
    assert GAME.to_json(fold.state) == before


def test_placements_with_their_points() -> None:
    log = [*started(), *HEXAGON_DEAL, *HEXAGON[:5]]  # Bo to play; he knows only 0-5-5
    moves = _moves(log, "bo")
    assert all(m["type"] == "tile_placed" and m["data"]["tile"] == "0-5-5" for m in moves)
    hexagon = {
        "type": "tile_placed",
        "data": {"player": "bo", "tile": "0-5-5", "cell": [-1, 0], "corners": [5, 0, 5]},
        "points": 60,
        "tags": ["hexagon"],
        "items": [["0-5-5", 10], ["hexagon", 50]],
    }
    assert hexagon in moves
    assert _moves(log, "ann") == []  # not her turn
    assert _moves(log, "cy") == []  # not a player
    _applies(log, moves)


def test_every_placement_is_listed() -> None:
    log = opened("0-5-5")
    moves = _moves(log, "bo")
    # 0-5-5 fits each of the three sides of 5-5-5 one way: with its 0 away from the edge
    assert sorted((tuple(m["data"]["cell"]), tuple(m["data"]["corners"])) for m in moves) == [
        ((-1, 0), (5, 0, 5)),
        ((0, -1), (0, 5, 5)),
        ((1, 0), (5, 5, 0)),
    ]
    assert {m["points"] for m in moves} == {10}


def test_draw_then_pass_when_nothing_fits() -> None:
    log = opened("0-1-2")
    draw_move = {"type": "tile_drawn", "data": {"player": "bo", "tile": None}, "points": -5, "tags": ["draw"]}
    assert _moves(log, "bo") == [draw_move]
    log += [draw("bo", "0-1-3"), draw("bo", "0-1-4"), draw("bo", "1-1-1")]
    assert _moves(log, "bo") == [{"type": "turn_passed", "data": {"player": "bo"}, "points": -10, "tags": ["pass"]}]
    _applies(log, _moves(log, "bo"))


def test_starting_placements() -> None:
    log = [*started(), deal("ann", "0-0-0", "4-4-4", "1-2-3"), deal("bo", "3-3-3")]
    moves = _moves(log, "ann")
    summary = sorted((m["data"]["tile"], m["data"].get("shown", ""), m["points"]) for m in moves)
    assert summary == [("0-0-0", "", 40), ("0-0-0", "4-4-4", 50), ("4-4-4", "", 22)]
    assert _moves(log, "bo") == []  # 3-3-3 is not the highest triple
    _applies(log, moves)


def test_going_out_move_counts_the_bonus_and_the_known_hands() -> None:
    log = [*started(), *STRIP_DEAL, *STRIP_PLACEMENTS[:-1]]
    move = next(m for m in _moves(log, "ann") if m["data"]["cell"] == [16, 0])
    assert move["points"] == 6 + 25 + 0 and move["tags"] == ["going_out"]
    _applies(log, _moves(log, "ann"))


def test_every_suggestion_is_accepted_along_a_match() -> None:
    log = [*started(), *BRIDGE_DEAL]
    for event in BRIDGE:
        for player in ("ann", "bo"):
            _applies(log, _moves(log, player))
        log.append(event)


def test_no_moves_between_rounds() -> None:
    log = [*started(), *STRIP_DEAL, *STRIP_PLACEMENTS]
    assert _moves(log, "ann") == [] and _moves(log, "bo") == []
    assert _moves(started()[:1], "ann") == []


# ---- annotations -----------------------------------------------------------------------------------


def test_annotations_for_a_round() -> None:
    log = opened("0-1-2")
    log += [draw("bo")]
    fold = fold_dicts(log)
    assert fold.describe(2).text == "round 1 started: all 56 tiles back in the well"
    assert fold.describe(3).text == "Ann was dealt 9 tiles (8 unseen)"
    assert fold.describe(3).player == "ann"
    note = fold.describe(5)
    assert (note.text, note.player, note.tags) == (
        "Ann started with 5-5-5 at [0, 0]: 15 + start bonus 10",
        "ann",
        ("start_bonus",),
    )
    assert fold.describe(6).text == "Bo drew a tile (unseen): −5; 2 draws left, 37 in the well"


def test_annotation_for_a_0_0_0_start() -> None:
    log = [*started(), deal("ann", "0-0-0", "4-4-4"), deal("bo")]
    fold = fold_dicts([*log, place("ann", "0-0-0", (0, 0), (0, 0, 0), shown="4-4-4")])
    assert fold.describe(5).text == (
        "Ann started with 0-0-0 at [0, 0], showing 4-4-4: 0 + 0-0-0 start 30 + start bonus 10 + shown 4-4-4 10"
    )


# ---- state JSON ------------------------------------------------------------------------------------


def test_state_json_has_what_a_board_drawing_needs() -> None:
    fold = fold_dicts([*started(), *BRIDGE_DEAL, *BRIDGE[:11]])
    state = GAME.to_json(fold.state)
    assert json.loads(json.dumps(state)) == state  # plain JSON
    assert state["round"] == 1 and state["phase"] == "playing" and state["turn"] == "bo"
    assert state["well"] == 38 and state["draws_this_turn"] == 0 and state["draws_left"] == 3
    assert state["starter"] == "ann"
    bridge = state["board"][-1]
    assert bridge == {
        "cell": [0, 0],
        "up": True,
        "tile": "4-5-5",
        "corners": [4, 5, 5],
        "points_at": [[0, 1], [1, 0], [-1, 0]],
        "player": "ann",
        "order": 11,
        "bridge": True,
        "points": 54,
    }
    assert state["last_placement"] == {
        "cell": [0, 0],
        "tile": "4-5-5",
        "corners": [4, 5, 5],
        "player": "ann",
        "points": 54,
    }
    ann, bo = state["players"]
    assert ann == {
        "id": "ann",
        "name": "Ann",
        "score": 25 + 9 + 7 + 9 + 11 + 54,
        "round_score": 115,
        "dealt": True,
        "hand": ["3-4-5"],
        "hidden": 2,
        "tiles": 3,
    }
    assert (bo["hand"], bo["hidden"], bo["tiles"]) == (["4-4-5"], 3, 4)
    assert [1, 0] in state["open_cells"] and [0, 0] not in state["open_cells"]
    assert state["finished"] is False and state["winners"] == [] and state["round_end"] is None
    assert state["options"]["hexagon_bonuses"] == [50, 60, 70]


def test_state_json_at_the_end_of_a_match() -> None:
    fold = fold_dicts([*started(target_score=100), *STRIP_DEAL, *STRIP_PLACEMENTS])
    state = GAME.to_json(fold.state)
    assert state["finished"] is True and state["winners"] == ["ann"] and state["phase"] == "finished"
    assert state["round_end"] == {"kind": "going_out", "player": "ann", "settled": True, "points": {"ann": 0, "bo": 0}}
    assert state["turn"] is None
