"""The "could they have played?" answer: `GET /api/matches/{id}/legal` (the player to move by default, as the
reader may know the tiles) and `GET /api/matches/{id}/missed` (hindsight), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from projections.errors import IllegalEvent
from projections.events import Event
from projections.redaction import SPECTATOR, redact_data
from projections.registry import get_game
from projections.timeline import fold, fold_dicts
from recorder.api import create_api
from recorder.facade import Scorebook
from recorder.legal import table_fold
from tests.support.hidden_tiles import leaks, secret_tiles
from tests.support.tri_ominos import LATER, OPENING, THREE, Log

TRI = get_game("tri-ominos")


class Club:
    def __init__(self, sb: Scorebook) -> None:
        self.sb = sb
        self.client = TestClient(create_api(sb))
        self.headers = {who: {"Authorization": f"Bearer {sb.create_token(who, role)}"}
                        for who, role in (("fay", "recorder"), ("ref", "referee"))}

    def import_log(self, log: Log) -> str:
        text = "".join(json.dumps(line) + "\n" for line in log)
        r = self.client.post("/api/matches/import", content=text, headers=self.headers["fay"])
        assert r.status_code == 201, r.text
        return str(r.json()["match_id"])

    def get(self, url: str, who: str | None = None) -> Any:
        return self.client.get(url, headers=self.headers[who] if who else None)


@pytest.fixture
def club(scorebook: Scorebook) -> Club:
    return Club(scorebook)


def test_without_a_player_the_answer_is_the_player_to_move(club: Club) -> None:
    m = club.import_log(OPENING)
    body = club.get(f"/api/matches/{m}/legal?at=5", "ref").json()
    assert (body["seq"], body["player"], body["to_move"], body["view"]) == (5, "bo", "bo", "recorded")
    assert [x["notation"] for x in body["moves"]] == ["bo draw ?"]  # nothing known fits: a draw, unseen
    assert {x["data"]["player"] for x in body["moves"]} == {"bo"} and body["unseen"] == {"bo": 9}
    # Asking for a player still works as before (and a player not to move has no move).
    assert club.get(f"/api/matches/{m}/legal?at=5&player=ann", "ref").json()["moves"] == []
    assert club.get(f"/api/matches/{m}/legal?player=bo&at=5", "ref").json() == body
    assert body == club.sb.legal(m, None, 5)


def test_a_game_that_names_nobody_to_move_answers_every_player(club: Club) -> None:
    log = get_game("hats-off").random_match(random.Random(3), THREE[:2], None)[:6]
    m = club.import_log(log)
    body = club.get(f"/api/matches/{m}/legal").json()
    assert body["player"] is None and body["to_move"] is None and body["view"] == "recorded"
    assert {x["data"].get("player") for x in body["moves"] if "player" in x["data"]} == {"ann", "bo"}


@pytest.mark.parametrize(("query", "reason"), [
    ("at=0", "at: Input should be greater than or equal to 1"),
    ("at=x", "at: Input should be a valid integer"),
    ("at=99", "at must be a seq of this match, 1..7"),
    ("player=zed", "player 'zed' does not play in this match; its players: ann, bo"),
])
def test_a_bad_at_or_player_is_a_400_naming_it(club: Club, query: str, reason: str) -> None:
    m = club.import_log(OPENING)
    r = club.get(f"/api/matches/{m}/legal?{query}", "ref")
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert reason in r.json()["reason"]
    assert club.sb.fold(m).seq == 7  # nothing stored


def test_a_spectator_gets_the_table_s_moves_and_no_hidden_tile(club: Club) -> None:
    m = club.import_log(OPENING)
    secret = secret_tiles(TRI, OPENING)
    assert {"2-5-5", "0-0-0"} <= secret  # Ann's deal and Bo's draw: hidden fields only
    for seq in range(1, 8):
        r = club.get(f"/api/matches/{m}/legal?at={seq}")
        assert r.status_code == 200 and not leaks(r.text, secret), (seq, r.text)
        assert r.json()["view"] == "table" and r.json()["missed"] is None
    # After Bo's pass Ann is to move: as the table knew her hand, she holds 8 tiles nobody saw (the referee
    # sees 2-5-5 among them, and its placements).
    table = club.get(f"/api/matches/{m}/legal?at=7").json()
    assert (table["player"], table["unseen"]) == ("ann", {"ann": 8})
    assert table["moves"][0]["type"] == "tile_drawn" and table["moves"][0]["data"]["tile"] is None
    full = club.get(f"/api/matches/{m}/legal?at=7", "ref").json()
    assert full["unseen"] == {"ann": 7} and {x["data"].get("tile") for x in full["moves"]} == {"2-5-5"}
    # The recorder of the match sees what the referee sees.
    assert club.get(f"/api/matches/{m}/legal?at=7", "fay").json() == full


def test_hindsight_names_the_missed_placements_to_those_who_may_see_them(club: Club) -> None:
    m = club.import_log([*OPENING, *LATER])
    r = club.get(f"/api/matches/{m}/missed")
    assert r.status_code == 403 and "hindsight" in r.json()["reason"]  # in progress, a spectator
    body = club.get(f"/api/matches/{m}/missed", "ref").json()
    assert (body["seq"], body["finished"]) == (9, False)
    assert [(x["seq"], x["type"], x["tiles"], x["certain"]) for x in body["missed"]] == [
        (6, "tile_drawn", ["0-5-5"], True), (7, "turn_passed", ["0-5-5"], True)]
    assert body["missed"][1]["text"].startswith("Bo passed although they held 0-5-5 (revealed at #9)")
    assert all(x["notation"].startswith("bo 0-5-5 @") for x in body["missed"][1]["moves"])
    assert body == club.sb.missed(m)
    # The legal answer at seq 5 carries what was missed next (the draw at seq 6).
    legal = club.get(f"/api/matches/{m}/legal?at=5", "ref").json()
    assert [x["seq"] for x in legal["missed"]] == [6]
    assert club.get(f"/api/matches/{m}/legal?at=7", "ref").json()["missed"] == []


def test_a_finished_match_s_hindsight_is_everyone_s(club: Club) -> None:
    log = TRI.random_match(random.Random(0), THREE, None)  # finished; Ann left a hexagon at seq 22
    m = club.import_log(log)
    body = club.get(f"/api/matches/{m}/missed").json()
    assert body["finished"] and body["missed"]
    first = body["missed"][0]
    assert (first["seq"], first["kind"], first["bonus"], first["player"]) == (22, "bonus", ["hexagon"], "ann")
    legal = club.get(f"/api/matches/{m}/legal?at=21").json()
    assert legal["view"] == "recorded" and legal["player"] == "ann" and legal["missed"] == [first]
    assert any(x["notation"] == first["moves"][0]["notation"] for x in legal["moves"])


def test_the_missed_route_answers_404_for_no_such_match(club: Club) -> None:
    r = club.get("/api/matches/m_nope/missed")
    assert r.status_code == 404


def test_the_table_fold_goes_on_where_the_redacted_log_stops_being_a_log() -> None:
    # A random match recorded with every hand known: each round ends at once, with no reveal recorded. The
    # redacted log alone waits for one at the first round's end; the table's fold goes on with those hands
    # face down, and then refolds the next round's redacted deals.
    log = TRI.random_match(random.Random(0), THREE, None)
    whole = fold_dicts(log)
    redacted = [Event(e.seq, e.type, redact_data(TRI.descriptor, e.type, e.data, SPECTATOR)[0]) for e in whole.events]
    with pytest.raises(IllegalEvent, match="record hands_revealed first"):
        fold(redacted)
    table = table_fold(whole, SPECTATOR)
    assert table.seq == whole.seq
    for seq in range(1, whole.seq + 1):
        mine, recorded = table.state_at(seq), whole.state_at(seq)
        if mine.phase != "revealing":  # a round's end waits for the hands at the table: its points come after
            assert mine.totals == recorded.totals  # the scores are public
        assert [h.size if h else None for h in mine.hands] == [h.size if h else None for h in recorded.hands]
        assert all(not h.known for h in mine.hands if h is not None), seq  # no tile of a hand is known
