"""In the dashboard: every callback answer about a match in progress — the replay
page (the route callback: board, panels, the event list's words, and every step's frame it carries for the
browser to step through), and the scorepad —
holds no hidden tile for a viewer who may not see them; the referee's session and the recorder of the
match see them. A redacted replay and a full one are cached apart. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from projections.registry import GAME_NAMES, get_game
from recorder.access.sessions import SESSION_COOKIE
from recorder.facade import Scorebook
from scorebook.app import build_app
from tests.support.hidden_tiles import in_progress_log, leaks, secret_tiles
from tests.support.replay_payload import frames_request, split_frames

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]
PAD_OUTPUTS = ["pad-ack.data", "pad-echo.children", "pad-echo.className", "move-input.value", "pad-meta.data",
               "pad-choice.data", "pad-totals.children", "pad-turn.children", "pad-steps.children",
               "pad-board.figure", "pad-board.clickData", "pad-moves-data.data", "pad-last.children",
               "pad-panel.children", "pad-undo-wrap.children"]


def _outputs(names: list[str]) -> dict[str, Any]:
    return {"output": ".." + "...".join(names) + "..",
            "outputs": [{"id": o.split(".")[0], "property": o.split(".")[1]} for o in names]}


class Dashboard:
    def __init__(self, sb: Scorebook, name: str) -> None:
        self.sb = sb
        self.game = get_game(name)
        players = PLAYERS[: max(self.game.descriptor.min_players, 2)]
        self.log = in_progress_log(self.game, 11, players)
        self.secret = secret_tiles(self.game, self.log)
        self.match_id = str(sb.import_log("".join(json.dumps(x) + "\n" for x in self.log), "fay")["match_id"])
        self.n = len(self.log)
        self.tokens = {who: sb.create_token(who, role) for who, role in
                       (("fay", "recorder"), ("gus", "recorder"), ("ref", "referee"))}
        self.app = build_app(sb)

    def client(self, who: str | None) -> TestClient:
        cookies = {SESSION_COOKIE: self.sb.sign_in(self.tokens[who]).cookie} if who else None
        return TestClient(self.app, cookies=cookies)

    def answers(self, who: str | None) -> dict[str, str]:
        """The text of every callback answer a viewer's replay page and scorepad get, by name."""
        client = self.client(who)
        out: dict[str, str] = {}
        for path, search in ((f"/matches/{self.match_id}", ""), (f"/matches/{self.match_id}", f"?step={self.n // 2}"),
                             (f"/record/{self.match_id}", ""), ("/", "")):
            body = {**_outputs(["page.children", "whoami.children"]),
                    "inputs": [{"id": "url", "property": "pathname", "value": path}],
                    "state": [{"id": "url", "property": "search", "value": search}],
                    "changedPropIds": ["url.pathname"]}
            r = client.post("/_dash-update-component", json=body)
            assert r.status_code == 200, r.text
            out[f"route {path}{search}"] = r.text
        r = client.post("/_dash-update-component", json=frames_request(self.match_id, self.n))
        assert r.status_code == 200, r.text
        out["frames"], frames = split_frames(r.text)
        assert len(frames) == self.n + 1
        for step, frame in enumerate(frames):  # what the browser steps through, without asking again
            out[f"frame {step}"] = frame
        pad_meta = {"match_id": self.match_id, "seq": self.n, "game": self.game.name}
        body = {**_outputs(PAD_OUTPUTS),
                "inputs": [{"id": "pad-send", "property": "data", "value": None},
                           {"id": "pad-click", "property": "data", "value": None},
                           {"id": "pad-board", "property": "clickData", "value": None},
                           {"id": "pad-hints", "property": "value", "value": ["on"]}],
                "state": [{"id": "pad-meta", "property": "data", "value": pad_meta},
                          {"id": "pad-choice", "property": "data", "value": {"seq": self.n, "chosen": []}}],
                "changedPropIds": ["pad-hints.value"]}
        r = client.post("/_dash-update-component", json=body)
        assert r.status_code == 200, r.text
        out["pad"] = r.text
        return out


@pytest.fixture(params=GAME_NAMES)
def dash(request: pytest.FixtureRequest, scorebook: Scorebook) -> Dashboard:
    return Dashboard(scorebook, request.param)


def test_a_spectator_s_replay_and_a_stranger_s_scorepad_hold_no_hidden_tile(dash: Dashboard) -> None:
    if dash.game.descriptor.has_hidden_information:
        assert dash.secret
    for who in (None, "gus"):
        for name, text in dash.answers(who).items():
            assert not leaks(text, dash.secret), f"{dash.game.name}, {who or 'no sign-in'}: {name}"


def test_the_referee_and_the_recorder_of_the_match_see_the_tiles_and_the_caches_stay_apart(dash: Dashboard) -> None:
    spectator = dash.answers(None)  # first: a redacted replay is now cached
    for who in ("ref", "fay"):
        seen = dash.answers(who)
        named = set().union(*(leaks(text, dash.secret) for text in seen.values()))
        if dash.game.name in ("hi-spot", "tri-ominos"):  # their event words name the tiles drawn
            assert named, f"{who} sees no tile"
        if dash.game.descriptor.has_hidden_information:
            assert "pad-hidden-hints" not in seen["pad"]
            assert json.loads(seen["pad"])["response"]["pad-moves-data"]["data"]  # the legal moves
    again = dash.answers(None)  # after the full ones: still the redacted replay
    assert not any(leaks(text, dash.secret) for text in again.values())
    assert again.keys() == spectator.keys()
    if dash.game.descriptor.has_hidden_information:
        pad = json.loads(dash.answers("gus")["pad"])["response"]
        assert pad["pad-moves-data"]["data"] == [] and "pad-hidden-hints" in json.dumps(pad["pad-steps"])


def test_once_finished_the_spectator_s_replay_shows_every_tile(scorebook: Scorebook) -> None:
    import random

    dash = Dashboard(scorebook, "hi-spot")
    full = dash.game.random_match(random.Random(11), PLAYERS[:2], None)
    scorebook.append(dash.match_id, full[dash.n:], expected_seq=dash.n, recorded_by="fay")
    dash.n = len(full)
    key = f"route /matches/{dash.match_id}"
    spectator, referee = dash.answers(None), dash.answers("ref")
    assert leaks(spectator[key], dash.secret)
    assert json.loads(spectator[key])["response"]["page"] == json.loads(referee[key])["response"]["page"]
    assert spectator[f"frame {dash.n // 2}"] == referee[f"frame {dash.n // 2}"]
    assert any(leaks(spectator[f"frame {k}"], dash.secret) for k in range(dash.n + 1))  # the hands, drawn
