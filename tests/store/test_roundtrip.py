"""Every game through the store: random legal matches import, export and re-import with the same hashes
and scores, and the legal-move route suggests events the store accepts."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from projections.registry import GAME_NAMES, get_game
from projections.scores import scores_json
from projections.timeline import fold_dicts
from recorder import Scorebook
from recorder.api import create_api
from recorder.log.file import import_lines

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]


def random_log(game: str, seed: int) -> list[dict]:
    return get_game(game).random_match(random.Random(seed), PLAYERS[: 2 + seed % 2], None)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_export_import_round_trip_keeps_hashes_and_scores(scorebook: Scorebook, game: str) -> None:
    sb = scorebook
    for seed in (1, 2):
        log = random_log(game, seed)
        first = sb.import_log(import_lines(log), "desk")["match_id"]
        expected = scores_json(fold_dicts(log), first)
        assert sb.scores(first) == expected
        assert expected["status"] == "finished" and expected["winners"]
        second = sb.import_log(sb.export(first), "other")["match_id"]
        assert [e["hash"] for e in sb.events(second)] == [e["hash"] for e in sb.events(first)]
        assert sb.scores(second) == {**expected, "match_id": second}
        assert sb.verify(second).ok
        summary = sb.summary(second)
        assert summary["status"] == "finished" and summary["winners"] == expected["winners"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_legal_moves_route_suggests_what_the_store_accepts(scorebook: Scorebook, game: str) -> None:
    client = TestClient(create_api(scorebook))
    desk = {"Authorization": f"Bearer {scorebook.create_token('desk', 'recorder')}"}
    referee = {"Authorization": f"Bearer {scorebook.create_token('ref', 'referee')}"}
    log = random_log(game, 3)
    players = {p["id"] for p in log[0]["data"]["players"]}
    tried = 0
    for cut in (len(log) // 3, len(log) // 2, 2 * len(log) // 3):
        body = "\n".join(json.dumps(e) for e in log[:cut])
        match_id = client.post("/api/matches/import", content=body, headers=desk).json()["match_id"]
        seq = cut
        for player in sorted(players):
            # The desk recorded the match, so it sees the hands the moves name (a spectator gets a 403).
            answer = client.get(f"/api/matches/{match_id}/legal", params={"player": player}, headers=desk)
            moves = answer.json()["moves"]
            for move in moves[:3]:
                hint = {"type": move["type"], "data": move["data"]}
                r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": seq, "events": [hint]},
                                headers=desk)
                assert r.status_code == 201, (move, r.json())
                # a referee undoes it, so that the next hint is tried on the same position
                rewind = {"type": "rewind", "data": {"to_seq": cut, "reason": "trying the next hint"}}
                r = client.post(f"/api/matches/{match_id}/events",
                                json={"expected_seq": seq + 1, "events": [rewind]}, headers=referee)
                assert r.status_code == 201
                seq += 2
                tried += 1
    assert tried > 0
    assert client.get("/api/matches/nope/legal", params={"player": "ann"}).status_code == 404
