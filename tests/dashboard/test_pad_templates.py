"""The pad's line templates (docs/scorepad.md "Line templates"): along a seeded random match of every
game, each event the legal moves cannot offer complete (a deal, a seen draw, a new round …) is reached
by a template, its prefix being the start of the event's line; a finished match offers none."""

from __future__ import annotations

import random

import pytest

from projections.notation import legal_moves, to_notation
from projections.registry import GAME_NAMES, get_game
from projections.timeline import fold_dicts
from recorder.demo import PLAYERS

TYPED = {
    "tri-ominos": {"round_started", "tiles_dealt", "tile_drawn", "hands_revealed"},
    "high-five": {"game_started", "hand_dealt"},
    "hi-spot": {"round_started", "first_player_drawn", "tiles_drawn", "tiles_exchanged", "racks_revealed"},
    "hats-off": set(),
}


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_templates_lead_to_the_typed_lines(name: str, players: int) -> None:
    game = get_game(name)
    log = game.random_match(random.Random(5), PLAYERS[:players])
    fold = fold_dicts(log)
    ids = [pid for pid, _ in fold.players]
    reached = 0
    for seq in range(1, len(log)):
        state, event = fold.state_at(seq), log[seq]
        offered = game.pad_templates(state)
        assert all(prefix and label for label, prefix in offered)
        if event["type"] not in TYPED[name]:
            continue
        line = to_notation(game, event)
        if line in {m["notation"] for m in legal_moves(game, state, ids)}:
            continue  # clickable as it is (a draw unseen, a whole-rack exchange unseen)
        assert any(line.startswith(prefix) for _, prefix in offered), (seq, line, offered)
        reached += 1
    assert reached or not TYPED[name]
    assert game.is_finished(fold.state)
    assert game.pad_templates(fold.state) == []


def test_hats_off_has_no_templates() -> None:
    game = get_game("hats-off")
    fold = fold_dicts(game.random_match(random.Random(5), PLAYERS[:2]))
    assert all(game.pad_templates(fold.state_at(seq)) == [] for seq in range(1, fold.seq + 1))
