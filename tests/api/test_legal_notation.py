"""GET /api/matches/{id}/legal: every legal move carries its scorepad `notation`, and the notation reads
back (projections.notation.parse_line, in the position it was offered in) to exactly the move's event."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from projections.notation import parse_line
from projections.registry import GAME_NAMES, get_game
from recorder.api import create_api
from recorder.demo import PLAYERS
from recorder.facade import Scorebook
from recorder.log.file import import_lines

SAMPLES = 12  # positions per match


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_every_legal_move_has_a_notation_that_reads_back_to_its_event(scorebook: Scorebook, game_name: str) -> None:
    game = get_game(game_name)
    client = TestClient(create_api(scorebook))
    checked = 0
    for seed, players in ((3, PLAYERS[:2]), (8, PLAYERS[:3])):
        log = game.random_match(random.Random(seed), players)
        match_id = scorebook.import_log(import_lines(log), "test")["match_id"]
        fold = scorebook.fold(match_id)
        rng = random.Random(seed)
        seqs = sorted(set(rng.sample(range(1, len(log)), min(SAMPLES, len(log) - 1))) | {1, len(log)})
        for at in seqs:
            state = fold.state_at(at)
            for p in players:
                r = client.get(f"/api/matches/{match_id}/legal", params={"player": p["id"], "at": at})
                assert r.status_code == 200, r.text
                body = r.json()
                assert body["seq"] == at and body["player"] == p["id"]
                for move in body["moves"]:
                    line = move["notation"]
                    assert isinstance(line, str) and line, move
                    assert parse_line(game, state, line) == {"type": move["type"], "data": move["data"]}, line
                    checked += 1
    assert checked > 0, f"no legal move offered in any sampled {game_name} position"


def test_a_finished_match_offers_no_move(scorebook: Scorebook) -> None:
    log = get_game("hats-off").random_match(random.Random(1), PLAYERS[:2])
    match_id = scorebook.import_log(import_lines(log), "test")["match_id"]
    r = TestClient(create_api(scorebook)).get(f"/api/matches/{match_id}/legal", params={"player": "ann"})
    assert r.status_code == 200 and r.json()["moves"] == []
