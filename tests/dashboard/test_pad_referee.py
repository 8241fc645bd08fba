"""The referee's part in the pages without a browser: the pad's referee panel (a recorder asks for a correction,
a referee undoes or dismisses it, marks the match abandoned), the tournament page's open requests and abandoned
tables, the abandoned badges of the match list and the replay, and the statistics page without the abandoned
match."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dashboard.model import ReplayCache
from dashboard.pages import matches as matches_page
from dashboard.pages import pad, pad_referee
from dashboard.pages import replay as replay_page
from dashboard.pages import stats as stats_page
from dashboard.pages import tournaments as tournaments_page
from projections.corrections import open_requests
from projections.registry import get_game
from recorder.access.auth import Principal
from recorder.facade import Scorebook
from recorder.log.file import import_lines
from tests.support.clubs import build_club

RECORDER = Principal("desk-1", "recorder")
REFEREE = Principal("ref-1", "referee")
PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]


def tree(component: Any) -> Any:
    return json.loads(json.dumps(component, default=lambda c: c.to_plotly_json()))


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, list):
        for n in node:
            yield from nodes(n)
    elif isinstance(node, dict) and "props" in node:
        yield node
        yield from nodes(node["props"].get("children"))


def text(node: Any) -> str:
    if isinstance(node, str | int | float) and not isinstance(node, bool):
        return str(node)
    if isinstance(node, list):
        return " ".join(text(n) for n in node)
    if isinstance(node, dict) and "props" in node:
        return text(node["props"].get("children"))
    return ""


def ids(node: Any) -> dict[str, dict[str, Any]]:
    return {n["props"]["id"]: n["props"] for n in nodes(node) if isinstance(n["props"].get("id"), str)}


def panel(sb: Scorebook, match_id: str, who: Principal) -> Any:
    return tree(pad_referee.panel(sb, match_id, who))


def a_match(sb: Scorebook, events: int = 6) -> str:
    log = get_game("hats-off").random_match(random.Random(2), PLAYERS, {"target_score": 20})
    return str(sb.import_log(import_lines(log[:events]), RECORDER.name)["match_id"])


def record(sb: Scorebook, who: Principal, match_id: str, line: str) -> pad.Outcome:
    return pad.record_line(sb, who, match_id, line, str(uuid.uuid4()), sb.fold(match_id).seq)


def test_a_recorder_asks_and_a_referee_undoes_in_one_click(scorebook: Scorebook) -> None:
    sb = scorebook
    match_id = a_match(sb)
    shown = ids(panel(sb, match_id, RECORDER))
    assert "referee-ask" in shown and "referee-abandon" not in shown and "referee-requests" not in shown
    options = [n["props"]["value"] for n in nodes(panel(sb, match_id, RECORDER)) if n["type"] == "Option"]
    assert options[0] == "6"  # the last event first
    outcome = record(sb, RECORDER, match_id, "Correction #5 the hat went to the wrong hole")
    assert outcome.stored, outcome.message
    assert sb.fold(match_id).event(7).data == {"text": "the hat went to the wrong hole", "about_seq": 5,
                                               "correction": True}
    mine = panel(sb, match_id, RECORDER)
    assert "Waiting for a referee" in text(mine) and "referee-undo-7" not in ids(mine)
    theirs = ids(panel(sb, match_id, REFEREE))
    assert theirs["referee-undo-7"]["children"] == "Undo #5"
    assert theirs["referee-undo-7"]["data-line"] == "rewind 4 the hat went to the wrong hole"
    assert theirs["referee-dismiss-7"]["data-line"] == "resolve #7 dismissed by the referee"
    # a recorder cannot send the referee's lines
    assert "Not allowed" in record(sb, RECORDER, match_id, theirs["referee-undo-7"]["data-line"]).message
    assert "Not allowed" in record(sb, RECORDER, match_id, theirs["referee-dismiss-7"]["data-line"]).message
    assert sb.fold(match_id).seq == 7
    assert record(sb, REFEREE, match_id, theirs["referee-undo-7"]["data-line"]).stored
    fold = sb.fold(match_id)
    assert fold.event(8).type == "rewind" and fold.event(8).data == {"to_seq": 4,
                                                                     "reason": "the hat went to the wrong hole"}
    assert open_requests({"seq": e.seq, "type": e.type, "data": e.data} for e in fold.events) == []
    assert "referee-requests" not in ids(panel(sb, match_id, REFEREE))


def test_a_referee_dismisses_a_request(scorebook: Scorebook) -> None:
    sb = scorebook
    match_id = a_match(sb)
    assert record(sb, RECORDER, match_id, "correction #6 score?").stored
    assert record(sb, REFEREE, match_id, "resolve #7 dismissed by the referee").stored
    assert sb.fold(match_id).event(8).data == {"text": "dismissed by the referee", "resolves": 7}
    assert "referee-requests" not in ids(panel(sb, match_id, REFEREE))


def test_a_referee_marks_the_match_abandoned_from_the_pad(scorebook: Scorebook) -> None:
    sb = scorebook
    match_id = a_match(sb)
    assert "Not allowed" in record(sb, RECORDER, match_id, "abandon we are going home").message
    assert "referee-abandon" in ids(panel(sb, match_id, REFEREE))
    assert record(sb, REFEREE, match_id, "abandon Bo was taken ill").stored
    shown = panel(sb, match_id, RECORDER)
    banner = next(n for n in nodes(shown) if n["props"].get("id") == "referee-abandoned")
    assert "Abandoned at #7" in text(banner) and "Bo was taken ill" in text(banner)
    assert "referee-abandon" not in ids(panel(sb, match_id, REFEREE))  # once is enough
    refused = record(sb, RECORDER, match_id, "bo 1 off")
    assert not refused.stored and "abandoned at #7 (Bo was taken ill)" in refused.message
    assert record(sb, RECORDER, match_id, "note the players left").stored
    replay = tree(replay_page.layout(sb, ReplayCache(), match_id, None))
    badge = ids(replay)["status-badge"]
    assert badge["children"] == "abandoned" and "badge-abandoned" in badge["className"]
    listed = tree(matches_page.table(sb.matches(status="abandoned")[0]))
    assert "abandoned" in text(listed) and any("badge-abandoned" in str(n["props"].get("className"))
                                               for n in nodes(listed))


def test_the_tournament_page_lists_open_requests_and_abandoned_tables(tmp_path: Path) -> None:
    sb, tid, playing = build_club(tmp_path / "club.db")
    try:
        page = ids(tree(tournaments_page.layout(sb, tid)))
        assert "none open" in text(tree(page["corrections"]["children"])).lower()
        sb.append(playing, [{"type": "note", "data": {"text": "wrong hat", "about_seq": 1, "correction": True}}],
                  1, "desk")
        shown = tree(tournaments_page.layout(sb, tid))
        items = [n for n in nodes(shown) if "correction" in str(n["props"].get("className", "")).split()]
        assert len(items) == 1 and items[0]["props"]["data-match"] == playing
        assert "Round 2, table 2" in text(items[0]) and "wrong hat" in text(items[0])
        assert any(n["props"].get("href") == f"/record/{playing}" for n in nodes(items[0]))
        sb.append(playing, [{"type": "match_abandoned", "data": {"reason": "fire alarm"}}], 2, "ref")
        shown = tree(tournaments_page.layout(sb, tid))
        block = next(n for n in nodes(shown) if n["props"].get("data-table") == "2" and
                     "table-block" in str(n["props"].get("className")))
        assert "abandoned" in text(block)
        missing = ids(shown)["missing-results"]
        assert "assign a new match to the table, or record forfeits" in text(tree(missing["children"]))
    finally:
        sb.close()


def test_the_statistics_page_leaves_an_abandoned_match_out(scorebook: Scorebook) -> None:
    sb = scorebook
    kept, gone = a_match(sb), a_match(sb, 5)
    summary = stats_page.charts(stats_page.page_facts(sb, "hats-off"), "hats-off", None, None, None)["stats-summary"]
    assert summary.startswith("Hats Off: 2 matches")
    assert record(sb, REFEREE, gone, "abandon the hall closed").stored
    summary = stats_page.charts(stats_page.page_facts(sb, "hats-off"), "hats-off", None, None, None)["stats-summary"]
    assert summary.startswith("Hats Off: 1 match,") and {f.match_id for f in sb.facts()} == {kept}
