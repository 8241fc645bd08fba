"""A spectator never sees the hidden tiles of a match in progress, in any read route.

For each game, a seeded random match cut before its end is imported by the recorder "fay". Without a token,
and with the token of a recorder who recorded nothing of it, every read route's body names no tile that
only hidden fields (deals, draws, exchanges) named; a referee, an admin and fay see them all; once the match
is finished everyone does. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from projections.registry import GAME_NAMES, get_game
from recorder.access.sessions import SESSION_COOKIE
from recorder.api import create_api
from recorder.facade import Scorebook
from tests.support.hidden_tiles import in_progress_log, leaks, secret_tiles

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]
SEED = 11


class Table:
    """One game's match in progress, its tokens and its secret tiles."""

    def __init__(self, sb: Scorebook, name: str) -> None:
        self.sb = sb
        self.game = get_game(name)
        self.players = PLAYERS[: max(self.game.descriptor.min_players, 2)]
        import random

        self.full_log = self.game.random_match(random.Random(SEED), self.players, None)
        self.log = in_progress_log(self.game, SEED, self.players)
        self.secret = secret_tiles(self.game, self.log)
        self.headers = {
            who: {"Authorization": f"Bearer {sb.create_token(who, role)}"}
            for who, role in (("fay", "recorder"), ("gus", "recorder"), ("ref", "referee"), ("root", "admin"))
        }
        self.client = TestClient(create_api(sb))
        text = "".join(json.dumps(line) + "\n" for line in self.log)
        r = self.client.post("/api/matches/import", content=text, headers=self.headers["fay"])
        assert r.status_code == 201, r.text
        self.match_id: str = r.json()["match_id"]
        self.seq: int = r.json()["seq"]

    def bodies(self, headers: dict[str, str] | None = None, cookies: dict[str, str] | None = None) -> dict[str, str]:
        """Every read route's body about the match, by route."""
        m = f"/api/matches/{self.match_id}"
        client = TestClient(self.client.app, cookies=cookies) if cookies else self.client
        routes = {
            "state": f"{m}/state", "state_at": f"{m}/state?at={max(2, self.seq - 1)}", "events": f"{m}/events",
            "events_range": f"{m}/events?from=2&to={self.seq}", "export": f"{m}/export", "summary": m,
            "scores": f"{m}/scores", "list": "/api/matches", "verify": f"{m}/verify",
        }
        out = {}
        for route, url in routes.items():
            r = client.get(url, headers=headers)
            assert r.status_code == 200, (route, r.text)
            out[route] = r.text
        followed = client.get("/api/events?after=0", headers=headers)
        assert followed.status_code == 200
        out["follow"] = json.dumps([e for e in followed.json()["events"] if e["match_id"] == self.match_id])
        for pid in (p["id"] for p in self.players):
            r = client.get(f"{m}/legal?player={pid}", headers=headers)
            out[f"legal {pid}"] = r.text
            out[f"legal {pid} status"] = str(r.status_code)
        for step in range(1, self.seq + 1, max(1, self.seq // 20)):  # the player to move, as the replay asks
            r = client.get(f"{m}/legal?at={step}", headers=headers)
            assert r.status_code == 200, r.text
            out[f"legal at {step}"] = r.text
        r = client.get(f"{m}/missed", headers=headers)
        out["missed"], out["missed status"] = r.text, str(r.status_code)
        return out


@pytest.fixture(params=GAME_NAMES)
def table(request: pytest.FixtureRequest, scorebook: Scorebook) -> Table:
    return Table(scorebook, request.param)


def assert_redacted(t: Table, bodies: dict[str, str]) -> None:
    for route, body in bodies.items():
        assert not leaks(body, t.secret), f"{t.game.name}: {route} shows hidden tiles"
    if t.game.descriptor.has_hidden_information:
        assert t.secret, "the cut match holds tiles nobody saw"
        # A spectator gets the table's legal moves (worked out from the redacted log) instead of a
        # 403; the leak check above covers their bodies, and hindsight is not given to them.
        assert all(bodies[f"legal {p['id']} status"] == "200" for p in t.players)
        for p in t.players:
            legal = json.loads(bodies[f"legal {p['id']}"])
            assert legal["view"] == "table" and legal["missed"] is None and legal["player"] == p["id"]
        assert bodies["missed status"] == "403" and "hindsight" in json.loads(bodies["missed"])["reason"]
        events = json.loads(bodies["events"])["events"]
        assert any(e.get("redacted") for e in events)
        lines = [json.loads(x) for x in bodies["export"].splitlines()]
        assert [e.get("redacted") for e in events] == [x.get("redacted") for x in lines]


def assert_full(t: Table, bodies: dict[str, str]) -> None:
    assert set(leaks(bodies["events"], t.secret)) == t.secret
    assert set(leaks(bodies["export"], t.secret)) == t.secret
    assert set(leaks(bodies["follow"], t.secret)) == t.secret
    assert "redacted" not in bodies["events"] + bodies["export"] + bodies["follow"]
    assert all(bodies[f"legal {p['id']} status"] == "200" for p in t.players)
    assert bodies["missed status"] == "200"
    assert all(json.loads(bodies[f"legal {p['id']}"])["view"] == "recorded" for p in t.players)
    assert bodies["export"] == t.sb.export(t.match_id)  # the very file the Python API exports


def test_spectators_and_other_recorders_get_no_hidden_tile_in_any_read(table: Table) -> None:
    assert_redacted(table, table.bodies())
    assert_redacted(table, table.bodies(table.headers["gus"]))


def test_referees_admins_and_the_recorder_of_the_match_see_every_tile(table: Table) -> None:
    for who in ("ref", "root", "fay"):
        assert_full(table, table.bodies(table.headers[who]))
    signed = table.sb.sign_in(table.headers["ref"]["Authorization"].removeprefix("Bearer "))
    assert_full(table, table.bodies(cookies={SESSION_COOKIE: signed.cookie}))  # a sign-in session reads too


def test_a_recorder_who_records_one_event_of_the_match_then_sees_it(table: Table) -> None:
    m = f"/api/matches/{table.match_id}"
    r = table.client.post(f"{m}/events", headers=table.headers["gus"],
                          json={"expected_seq": table.seq, "events": [{"type": "note", "data": {"text": "gus here"}}]})
    assert r.status_code == 201, r.text
    table.seq += 1
    assert_full(table, table.bodies(table.headers["gus"]))
    assert_redacted(table, table.bodies())


def test_once_the_match_is_finished_everyone_sees_every_tile(table: Table) -> None:
    rest = table.full_log[len(table.log):]
    table.sb.append(table.match_id, rest, expected_seq=table.seq, recorded_by="fay")
    table.seq += len(rest)
    assert table.sb.fold(table.match_id).finished
    spectator = table.bodies()
    assert_full(table, spectator)
    assert spectator["legal ann status"] == "200" and json.loads(spectator["legal ann"])["moves"] == []


def test_a_bad_token_on_a_read_is_401_and_a_redacted_export_does_not_import(table: Table) -> None:
    m = f"/api/matches/{table.match_id}"
    for url in (f"{m}/state", f"{m}/events", f"{m}/export", "/api/events", f"{m}/legal?player=ann"):
        r = table.client.get(url, headers={"Authorization": "Bearer not-a-token"})
        assert r.status_code == 401 and r.json()["error"] == "unauthorized", url
    token_id = next(t["id"] for t in table.sb.list_tokens() if t["name"] == "ref")
    table.sb.revoke_token(token_id)
    assert table.client.get(f"{m}/state", headers=table.headers["ref"]).status_code == 401
    if table.game.descriptor.has_hidden_information:
        redacted = table.client.get(f"{m}/export").text
        r = table.client.post("/api/matches/import", content=redacted, headers=table.headers["fay"])
        assert r.status_code in (400, 422) and r.json()["error"] == "import_refused", r.text
        assert "redacted" in r.json()["reason"]


def test_the_follow_feed_redacts_only_the_matches_in_progress(table: Table) -> None:
    import random

    other = table.game.random_match(random.Random(SEED + 1), table.players, None)
    finished = table.sb.import_log("".join(json.dumps(x) + "\n" for x in other), recorded_by="fay")["match_id"]
    events = table.client.get("/api/events?after=0").json()["events"]
    shown = [e for e in events if e["match_id"] == finished]
    assert len(shown) == len(other) and not any(e.get("redacted") for e in shown)
    assert [e["data"] for e in shown] == [x["data"] for x in table.sb.events(finished)]
    mine = [e for e in events if e["match_id"] == table.match_id]
    assert any(e.get("redacted") for e in mine) == table.game.descriptor.has_hidden_information


def test_the_python_api_reads_everything_unless_given_a_viewer(scorebook: Scorebook) -> None:
    from recorder.access.visibility import ANONYMOUS, reader

    t = Table(scorebook, "hi-spot")
    assert set(leaks(json.dumps(scorebook.events(t.match_id)), t.secret)) == t.secret
    drawn = next(i for i, x in enumerate(t.log, start=1) if x["type"] == "tiles_drawn")  # a rack is known
    racks = [p["rack"] for p in scorebook.state(t.match_id, at=drawn)["state"]["players"]]
    assert any(len(r) == 5 and all(isinstance(x, str) for x in r) for r in racks)
    assert not leaks(json.dumps(scorebook.events(t.match_id, viewer=ANONYMOUS)), t.secret)
    assert not leaks(json.dumps(scorebook.state(t.match_id, at=drawn, viewer=ANONYMOUS)), t.secret)
    assert not leaks(scorebook.export(t.match_id, viewer=ANONYMOUS), t.secret)
    fay = scorebook.authenticate(t.headers["fay"]["Authorization"].removeprefix("Bearer "))
    assert scorebook.export(t.match_id, viewer=reader(fay)) == scorebook.export(t.match_id)
    state: Any = scorebook.state(t.match_id, at=drawn, viewer=ANONYMOUS)["state"]
    assert state["patterns"] == {} and [None] * 5 in [p["rack"] for p in state["players"]]
