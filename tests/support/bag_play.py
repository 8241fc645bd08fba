"""Committed-bag matches played move by move through the Python API: the game's legal moves choose what a
player does (with every tile known, as the server knows them), and every deal and draw is sent with its
tiles left out, for the server to deal from the bag."""

from __future__ import annotations

import random
from typing import Any

from projections.games.hi_spot import rules as hs
from projections.games.high_five import rules as hf
from projections.games.tri_ominos import rules as tri
from projections.timeline import Fold
from recorder.facade import Scorebook

# Low targets: a match of a few rounds (each round or game a fresh shuffle) rather than a long one.
OPTIONS = {"tri-ominos": {"target_score": 120}, "high-five": {"target_score": 25}, "hi-spot": {"target_score": 80}}
MAX_EVENTS = 3000


def next_event(sb: Scorebook, match_id: str, rng: random.Random, fold: Fold[Any] | None = None) -> dict[str, Any]:
    """The next event of the match (whose fold is `fold`, if given), tiles of draws left out."""
    fold = fold if fold is not None else sb.fold(match_id)
    game, state = fold.game, fold.state
    ids = [pid for pid, _ in fold.players]

    def chosen(players: list[str]) -> dict[str, Any]:
        moves = [m for pid in players for m in game.legal_moves(state, pid)]
        assert moves, f"{game.name}: no legal move in phase {state.phase}"
        move = rng.choice(moves)
        return {"type": move["type"], "data": move["data"]}

    if game.name == tri.NAME:
        if state.phase is tri.Phase.WAITING:
            return {"type": "round_started", "data": {}}
        if state.phase is tri.Phase.DEALING:
            seat = next(i for i, h in enumerate(state.hands) if h is None)
            return {"type": "tiles_dealt", "data": {"player": ids[seat]}}
        if state.phase is tri.Phase.STARTING:
            return chosen(ids)
        return chosen([ids[state.turn]])
    if game.name == hf.NAME:
        if state.phase in (hf.Phase.BEFORE_GAME, hf.Phase.GAME_OVER):
            return {"type": "game_started", "data": {}}
        if state.phase is hf.Phase.AWAITING_DEAL:
            return {"type": "hand_dealt", "data": {}}
        return chosen([ids[state.to_play]])
    assert game.name == hs.NAME
    if state.phase is hs.Phase.BETWEEN_ROUNDS:
        return {"type": "round_started", "data": {}}
    if state.phase is hs.Phase.FIRST_DRAW:
        return {"type": "first_player_drawn", "data": {}}
    if state.phase is hs.Phase.RACKS:
        seat = next(i for i in range(len(ids)) if i not in state.racks_drawn)
        return {"type": "tiles_drawn", "data": {"player": ids[seat]}}
    return chosen([ids[state.current]])


def start(sb: Scorebook, game: str, players: int = 2, recorded_by: str = "desk", **options: Any) -> str:
    data = {"game": game, "players": [{"id": p} for p in ("ann", "bo", "cy", "di")[:players]],
            "options": {**OPTIONS[game], **options}, "bag": "committed"}
    return str(sb.start_match(data, recorded_by)["match_id"])


def play(sb: Scorebook, match_id: str, rng: random.Random, until: int | None = None, recorded_by: str = "desk") -> int:
    """Play the match to its end (or to seq `until`); the last seq."""
    for _ in range(MAX_EVENTS):
        fold = sb.fold(match_id)
        seq = fold.seq
        if fold.finished or (until is not None and seq >= until):
            return seq
        sb.append(match_id, [next_event(sb, match_id, rng, fold)], seq, recorded_by)
    raise AssertionError("the match did not end")
