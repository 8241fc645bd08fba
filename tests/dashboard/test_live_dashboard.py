"""The replay page's live update (dashboard/pages/replay_live.py, docs/LIVE.md) as the browser asks it: the
grown match for a page that has fewer events, nothing but the answer's acknowledgement for one that is up to
date, the step following the end only when asked to, and no hidden tile for a spectator. SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from projections.registry import get_game
from recorder.access.sessions import SESSION_COOKIE
from recorder.facade import Scorebook
from recorder.log.file import NewEvent
from scorebook.app import build_app
from tests.support.hidden_tiles import leaks, secret_tiles

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]
OUTPUTS = ["replay-live-ack.data", "replay-meta.data", "replay-events.data", "replay-slider.max",
           "replay-slider.marks", "score-chart.figure", "status-badge.children", "status-badge.className",
           "live-badge.className", "step-bonus.disabled", "chain-check.children", "chain-check.className"]


def grown(client: TestClient, match_id: str, n: int, follow: bool, value: int) -> dict[str, Any]:
    body = {"output": ".." + "...".join(OUTPUTS) + "..",
            "outputs": [{"id": o.split(".")[0], "property": o.split(".")[1]} for o in OUTPUTS],
            "inputs": [{"id": "replay-live", "property": "data", "value": {"at": 7, "follow": follow}}],
            "state": [{"id": "replay-meta", "property": "data", "value": {"match_id": match_id, "n": n}},
                      {"id": "replay-slider", "property": "value", "value": value}],
            "changedPropIds": ["replay-live.data"]}
    r = client.post("/_dash-update-component", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json()["response"])


@pytest.fixture
def match(scorebook: Scorebook) -> tuple[Scorebook, str, list[dict[str, Any]], int]:
    log = get_game("hi-spot").random_match(random.Random(5), PLAYERS, None)
    cut = len(log) // 3
    match_id = str(scorebook.import_log("".join(json.dumps(x) + "\n" for x in log[:cut]), "fay")["match_id"])
    return scorebook, match_id, log, cut


def test_a_page_behind_gets_the_grown_match_and_a_spectator_no_hidden_tile(match: Any) -> None:
    sb, match_id, log, cut = match
    sb.append(match_id, [NewEvent(e["type"], e["data"]) for e in log[cut:cut + 3]], cut, "fay")
    secret = secret_tiles(get_game("hi-spot"), log[:cut + 3])
    assert secret
    spectator = TestClient(build_app(sb))
    answer = grown(spectator, match_id, cut, follow=True, value=cut)
    assert answer["replay-live-ack"]["data"] == 7
    assert answer["replay-meta"]["data"] == {"match_id": match_id, "n": cut + 3, "bonus": answer["replay-meta"]["data"]
                                             ["bonus"], "finished": False, "abandoned": False}
    assert answer["replay-slider"]["max"] == cut + 3
    assert f'data-seq="{cut + 3}"' in answer["replay-events"]["data"]
    assert f'class="event-row current" data-seq="{cut + 3}"' in answer["replay-events"]["data"]  # followed
    assert answer["score-chart"]["figure"]["layout"]["shapes"][0]["x0"] == cut + 3
    assert answer["status-badge"]["children"] == "in progress" and "hidden" not in answer["live-badge"]["className"]
    assert not leaks(json.dumps(answer), secret)
    assert answer["score-chart"]["figure"]["data"] == reloaded_chart(sb, match_id)  # as a reload draws it
    # the viewer had stepped back to step 3: the grown match is drawn at step 3
    answer = grown(spectator, match_id, cut, follow=False, value=3)
    assert 'class="event-row current" data-seq="3"' in answer["replay-events"]["data"]
    assert answer["score-chart"]["figure"]["layout"]["shapes"][0]["x0"] == 3
    # the referee's session is told the tiles (the spectator's answer was not empty of them by chance)
    token = sb.create_token("ref", "referee")
    referee = TestClient(build_app(sb), cookies={SESSION_COOKIE: sb.sign_in(token).cookie})
    assert leaks(json.dumps(grown(referee, match_id, cut, follow=True, value=cut)), secret)


def test_a_page_up_to_date_gets_only_the_acknowledgement(match: Any) -> None:
    sb, match_id, _, cut = match
    answer = grown(TestClient(build_app(sb)), match_id, cut, follow=True, value=cut)
    assert answer == {"replay-live-ack": {"data": 7}}


def test_the_end_of_the_match_hides_the_live_badge(match: Any) -> None:
    sb, match_id, log, cut = match
    sb.append(match_id, [NewEvent(e["type"], e["data"]) for e in log[cut:]], cut, "fay")
    answer = grown(TestClient(build_app(sb)), match_id, cut, follow=True, value=cut)
    assert answer["replay-meta"]["data"]["finished"] is True
    assert answer["status-badge"]["children"] == "finished" and "hidden" in answer["live-badge"]["className"]
    assert answer["score-chart"]["figure"]["data"] == reloaded_chart(sb, match_id)  # hindsight's marks too


def reloaded_chart(sb: Scorebook, match_id: str) -> list[dict[str, Any]]:
    """The score chart's traces as the replay page draws them when it is loaded (a spectator's)."""
    r = TestClient(build_app(sb)).post("/_dash-update-component", json={
        "output": "..page.children...whoami.children..",
        "outputs": [{"id": "page", "property": "children"}, {"id": "whoami", "property": "children"}],
        "inputs": [{"id": "url", "property": "pathname", "value": f"/matches/{match_id}"}],
        "state": [{"id": "url", "property": "search", "value": ""}], "changedPropIds": ["url.pathname"]})
    assert r.status_code == 200, r.text
    return _figures(r.json())


def _figures(node: Any) -> list[dict[str, Any]]:
    """The traces of the score chart in a page's layout."""
    if isinstance(node, dict):
        props = node.get("props")
        if isinstance(props, dict) and props.get("id") == "score-chart":
            return list(props["figure"]["data"])
        return [t for v in node.values() for t in _figures(v)]
    if isinstance(node, list):
        return [t for v in node for t in _figures(v)]
    return []


@pytest.mark.parametrize("game", ["high-five", "tri-ominos"])
def test_grown_frames_draw_only_the_new_steps_and_equal_a_whole_drawing(scorebook: Scorebook, game: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.model import ReplayCache
    from dashboard.pages import replay_live
    from dashboard.pages.replay import render_parts
    from dashboard.replay_frames import pack, step_frames
    from recorder.access.visibility import ANONYMOUS

    log = get_game(game).random_match(random.Random(8), PLAYERS, None)
    cut = len(log) // 2
    match_id = str(scorebook.import_log("".join(json.dumps(x) + "\n" for x in log[:cut]), "fay")["match_id"])
    drawn: list[int] = []

    def counted(replay: Any, view: Any) -> Any:
        drawn.append(view.step)
        return render_parts(replay, view)

    def replay() -> Any:
        return ReplayCache().replay(scorebook, match_id, scorebook.whole_fold(match_id),
                                    scorebook.view(match_id, ANONYMOUS))

    kept = replay_live.GrownFrames()
    first = replay()
    assert kept.payload(scorebook, first, counted) == pack(step_frames(scorebook, first, render_parts))
    assert drawn == list(range(cut + 1))
    drawn.clear()
    scorebook.append(match_id, [NewEvent(e["type"], e["data"]) for e in log[cut:cut + 2]], cut, "fay")
    grown_replay = replay()
    assert kept.payload(scorebook, grown_replay, counted) == pack(step_frames(scorebook, grown_replay, render_parts))
    assert drawn == [cut + 1, cut + 2]  # only the new steps
    # a rewind changes what earlier frames show (a struck-through event): every step is drawn again
    drawn.clear()
    scorebook.append(match_id, [NewEvent("rewind", {"to_seq": cut, "reason": "wrong tile"})], cut + 2, "referee")
    rewound = replay()
    assert kept.payload(scorebook, rewound, counted) == pack(step_frames(scorebook, rewound, render_parts))
    assert drawn == list(range(cut + 4))


def test_live_now_lists_the_matches_being_played_with_the_filters(match: Any) -> None:
    sb, match_id, _, _ = match
    finished = str(sb.import_log("".join(json.dumps(x) + "\n" for x in get_game("hats-off").random_match(
        random.Random(2), PLAYERS, None)), "fay")["match_id"])
    client = TestClient(build_app(sb))

    def live_now(game: str | None = None, status: str | None = None, offset: int = 0) -> str:
        r = client.post("/_dash-update-component", json={
            "output": "live-now.children", "outputs": {"id": "live-now", "property": "children"},
            "inputs": [{"id": "matches-offset", "property": "data", "value": offset},
                       {"id": "filter-game", "property": "value", "value": game},
                       {"id": "filter-player", "property": "value", "value": None},
                       {"id": "filter-status", "property": "value", "value": status},
                       {"id": "live-refresh", "property": "n_intervals", "value": 3}],
            "changedPropIds": ["live-refresh.n_intervals"]})
        assert r.status_code == 200, r.text
        return json.dumps(r.json())  # Dash's answer escapes every "/"

    shown = live_now()
    assert f"/matches/{match_id}" in shown and "Live now" in shown and f"/matches/{finished}" not in shown
    assert f"/matches/{match_id}" in live_now(game="hi-spot", status="in_progress")
    for quiet in (live_now(game="hats-off"), live_now(status="finished"), live_now(offset=50)):
        assert f"/matches/{match_id}" not in quiet and "Live now" not in quiet


def test_a_match_abandoned_while_its_page_is_open_shows_abandoned_and_the_live_badge_goes(match: Any) -> None:
    sb, match_id, _, cut = match
    sb.append(match_id, [NewEvent("match_abandoned", {"reason": "the hall closed"})], cut, "referee")
    answer = grown(TestClient(build_app(sb)), match_id, cut, follow=True, value=cut)
    assert answer["status-badge"]["children"] == "abandoned"
    assert answer["status-badge"]["className"] == "badge badge-abandoned"
    assert "hidden" in answer["live-badge"]["className"].split()
    assert answer["replay-meta"]["data"]["abandoned"] is True
