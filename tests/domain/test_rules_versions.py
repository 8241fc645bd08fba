"""Rules versions (docs/FORMAT.md, "Versions and upcasters"): a match plays the version its match_started
names for ever, absence meaning 1; new matches get the game's current version; event shapes change through
named upcasters applied on reading, never on the stored rows.

The rule change here is test-only: Hats Off version 2, whose default target is 50 instead of 75, registered
by the `hats_off_v2` fixture. hats-off-01 (no target named) reaches 55 after round 2 and 75 after round 3.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from projections import registry, upcasters
from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hats_off import GAME as HATS_OFF
from projections.games.hats_off import rules as hats_off_rules
from projections.protocol import Game
from projections.schemas import game_summary
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts
from projections.upcasters import Upcaster
from recorder.access import auth
from recorder.api import create_api
from recorder.facade import Scorebook
from tests.support.examples import example_names, examples_dir, load_example
from tests.support.logs import PLAYERS
from tests.support.paths import DOCS
from tests.support.upcasters import CALLED_BY

V2_SUMMARY = "the default target is 50 (test only)"


def _start_v2(data: Mapping[str, Any]) -> hats_off_rules.State:
    options = data.get("options")
    if isinstance(options, dict) and "target_score" not in options:
        data = {**data, "options": {**options, "target_score": 50}}
    return hats_off_rules.start(data)


def version_2() -> Game[Any]:
    """Hats Off's test-only version 2: its start, and its descriptor's default target (what the forms show)."""
    options = HATS_OFF.descriptor.options
    descriptor = replace(HATS_OFF.descriptor, options={**options, "target_score": replace(options["target_score"],
                                                                                         default=50)})
    return HATS_OFF.next_version(V2_SUMMARY, start=_start_v2, descriptor=descriptor)


@pytest.fixture
def hats_off_v2(monkeypatch: pytest.MonkeyPatch) -> Game[Any]:
    """Hats Off with a version 2 published, in the registry for this test only."""
    v2 = version_2()
    load = registry._load
    monkeypatch.setattr(registry, "_load", lambda name: v2 if name == "hats-off" else load(name))
    return v2


def _with_version(lines: list[dict[str, Any]], version: int | None) -> list[dict[str, Any]]:
    started = {k: v for k, v in lines[0]["data"].items() if k != "rules_version"}
    if version is not None:
        started["rules_version"] = version
    return [{"type": "match_started", "data": started}, *lines[1:]]


def _rounds_ended(lines: list[dict[str, Any]], rounds: int) -> list[dict[str, Any]]:
    """The log up to the end of its `rounds`-th round."""
    ends = [i for i, line in enumerate(lines) if line["type"] == "round_ended"]
    return lines[: ends[rounds - 1] + 1]


# -- the fold ------------------------------------------------------------------------------------------


def test_every_game_publishes_version_1_as_current() -> None:
    for game in registry.all_games():
        assert game.rules_version == 1 and list(game.published) == [1]
        assert game.version(1) is game
        assert game_summary(game)["rules_version"] == 1
        assert [v["number"] for v in game_summary(game)["rules_versions"]] == [1]


def test_a_version_is_published_after_the_last_and_unknown_ones_are_named() -> None:
    v2 = version_2()
    assert v2.rules_version == 2 and v2.published == {1: HATS_OFF, 2: v2}
    assert v2.version(1) is HATS_OFF and v2.version(2) is v2
    for wrong in (3, 0, "2", True, None, 1.0):
        with pytest.raises(IllegalEvent, match=r"hats-off has no rules version .*published: 1, 2 \(current 2\)"):
            v2.version(wrong)
    with pytest.raises(ValueError, match="published as 1, 2, 3"):
        Game(**{**{f: getattr(v2, f) for f in v2.__dataclass_fields__}, "earlier_versions": ()})


def test_old_matches_replay_unchanged_and_new_ones_follow_version_2(hats_off_v2: Game[Any]) -> None:
    lines, expected = load_example("hats-off-01")
    assert "rules_version" not in lines[0]["data"]
    for version in (None, 1):  # an old log, and one that names version 1
        fold = fold_dicts(_with_version(lines, version))
        assert fold.game is HATS_OFF  # version 1's handlers, chosen once at match_started
        assert scores_json(fold) == expected
    # The same table under version 2: the default target is 50, reached (55) at the end of round 2.
    two = _rounds_ended(lines, 2)
    fold = fold_dicts(_with_version(two, 2))
    assert fold.game is hats_off_v2 and fold.finished
    assert scores_json(fold)["winners"] == ["ann"] and scores_json(fold)["players"][0]["score"] == 55
    assert not fold_dicts(_with_version(two, 1)).finished  # version 1 plays on to 75
    with pytest.raises(IllegalEvent, match="finished"):
        fold_dicts(_with_version(lines, 2))


def test_the_version_is_looked_up_once_per_match_not_per_event(
    hats_off_v2: Game[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import projections.timeline as timeline

    asked: list[object] = []
    version = Game.version
    monkeypatch.setattr(Game, "version", lambda self, n: asked.append(n) or version(self, n))

    def per_event(*_: Any) -> Any:
        raise AssertionError("no game has an upcaster after match_started: the fold must not wrap its events")

    monkeypatch.setattr(timeline, "upcast_all", per_event)
    monkeypatch.setattr(timeline, "upcast", lambda game, e: e if e.type != "match_started" else per_event())
    lines, expected = load_example("hats-off-01")
    with pytest.raises(AssertionError):  # match_started alone goes through the upcasters
        fold_dicts(lines)
    monkeypatch.setattr(timeline, "upcast", upcasters.upcast)
    assert scores_json(fold_dicts(lines)) == expected and asked == [1]


def test_examples_give_their_scores_with_a_version_2_published(hats_off_v2: Game[Any]) -> None:
    for name in example_names():
        lines, expected = load_example(name)
        assert scores_json(fold_dicts(lines)) == expected, name


def test_a_resumed_fold_plays_the_version_of_its_match_started(hats_off_v2: Game[Any]) -> None:
    lines = _with_version(_rounds_ended(load_example("hats-off-01")[0], 1), 2)
    whole = fold_dicts(lines)
    start = Event(1, "match_started", lines[0]["data"])
    resumed = Fold.resume(start, whole.event(whole.seq), whole.state, {})
    assert resumed.game is hats_off_v2
    old = Fold.resume(Event(1, "match_started", _with_version(lines, None)[0]["data"]), whole.event(whole.seq),
                      whole.state, {})
    assert old.game is HATS_OFF and "rules_version" not in old.event(1).data


# -- upcasters -------------------------------------------------------------------------------------------


def test_match_started_without_a_version_is_read_as_version_1() -> None:
    data = {"game": "hats-off", "players": PLAYERS, "options": {}}
    fold = Fold.begin(Event(1, "match_started", data))
    assert fold.game.rules_version == 1
    assert fold.event(1).data == data and "rules_version" not in data  # the stored event is kept as it is
    assert upcasters.upcast("hats-off", fold.event(1)).data == {**data, "rules_version": 1}
    named = [u.name for u in upcasters.UPCASTERS]
    assert "match_started_rules_version_1" in named
    assert upcasters.match_started_rules_version_1({"game": "x"}) == {"game": "x", "rules_version": 1}


SHOUTED_BY = Upcaster("every_round_started_shouted_by", "*", "round_started", 0,
                      lambda data: "shouted_by" in data,
                      lambda data: {("called_by" if k == "shouted_by" else k): v for k, v in data.items()},
                      "round_started: shouted_by → called_by")


def _old_shape(lines: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    return [{"type": "round_started", "data": {field: line["data"]["caller"]}} if line["type"] == "round_started"
            else line for line in lines]


def test_a_registered_upcaster_reads_the_old_shape_as_the_new() -> None:
    lines, expected = load_example("hats-off-01")
    old = _old_shape(lines, "called_by")
    with pytest.raises(IllegalEvent):
        fold_dicts(old)  # without the upcaster the old shape is not understood
    with upcasters.registered(CALLED_BY):
        fold = fold_dicts(old)
        assert scores_json(fold) == expected
        first_round = next(e for e in fold.events if e.type == "round_started")
        assert first_round.data == {"caller": "ann"}
        # A chain runs in version order, a "*" upcaster (every game) with the game's own.
        with pytest.raises(IllegalEvent):
            fold_dicts(_old_shape(lines, "shouted_by"))
        with upcasters.registered(SHOUTED_BY):
            assert [u.name for u in upcasters.chains_of("hats-off")["round_started"]] == [
                "every_round_started_shouted_by", "hats_off_round_started_called_by"]
            assert scores_json(fold_dicts(_old_shape(lines, "shouted_by"))) == expected
            # Applied one event at a time too (a live append reads the same).
            one = fold_dicts(lines[:1]).apply(Event(2, "round_started", {"shouted_by": "ann"}))
            assert one.event(2).data == {"caller": "ann"}
    assert upcasters.after_start("hats-off") == {}  # gone with the block
    assert upcasters.chains_of("tri-ominos").keys() == {"match_started"}


# -- the store and the API (SQLite, and PostgreSQL with SCOREBOOK_TEST_POSTGRES) ---------------------------


@pytest.fixture
def client(scorebook: Scorebook) -> TestClient:
    return TestClient(create_api(scorebook))


@pytest.fixture
def headers(scorebook: Scorebook) -> dict[str, str]:
    return {"Authorization": f"Bearer {scorebook.create_token('desk', auth.ROLES[0])}"}


START = {"game": "hats-off", "players": PLAYERS, "options": {}}


def test_a_new_match_gets_the_current_version(client: TestClient, headers: dict[str, str]) -> None:
    r = client.post("/api/matches", json=START, headers=headers)
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    assert client.get(f"/api/matches/{match_id}/events").json()["events"][0]["data"]["rules_version"] == 1
    assert client.get(f"/api/matches/{match_id}/state").json()["rules_version"] == 1
    assert client.get(f"/api/matches/{match_id}").json()["rules_version"] == 1
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["hats-off"]["rules_version"] == 1
    assert games["hats-off"]["rules_versions"] == [{"number": 1, "summary": "the rules as first published"}]


def test_version_2_published_new_matches_follow_it_and_old_ones_stay(
    client: TestClient, headers: dict[str, str], hats_off_v2: Game[Any]
) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["hats-off"]["rules_version"] == 2
    assert [v["number"] for v in games["hats-off"]["rules_versions"]] == [1, 2]
    lines, _ = load_example("hats-off-01")
    two = _rounds_ended(lines, 2)

    def play(version: int | None) -> str:
        data = _with_version(two, version)[0]["data"]
        r = client.post("/api/matches", json=data, headers=headers)
        assert r.status_code == 201, r.text
        match_id = r.json()["match_id"]
        r = client.post(f"/api/matches/{match_id}/events", json={"expected_seq": 1, "events": two[1:]},
                        headers=headers)
        assert r.status_code == 201, r.text
        return str(match_id)

    new, old = play(None), play(1)
    assert client.get(f"/api/matches/{new}/events?to=1").json()["events"][0]["data"]["rules_version"] == 2
    assert client.get(f"/api/matches/{new}").json()["rules_version"] == 2
    assert client.get(f"/api/matches/{new}/scores").json()["status"] == "finished"
    assert client.get(f"/api/matches/{old}").json()["rules_version"] == 1
    assert client.get(f"/api/matches/{old}/scores").json()["status"] == "in_progress"
    assert client.get(f"/api/matches/{old}/state").json()["rules_version"] == 1


@pytest.mark.parametrize("version", [7, 0, "2", [1]])
def test_an_unknown_version_is_refused_naming_the_published_ones_and_nothing_is_stored(
    client: TestClient, headers: dict[str, str], hats_off_v2: Game[Any], version: Any
) -> None:
    r = client.post("/api/matches", json={**START, "rules_version": version}, headers=headers)
    assert r.status_code in (400, 422), r.text
    assert f"no rules version {version!r}" in r.json()["reason"] and "published: 1, 2" in r.json()["reason"]
    assert client.get("/api/matches").json()["total"] == 0


def test_an_old_file_imports_and_replays_unchanged_with_its_hashes(
    client: TestClient, headers: dict[str, str], scorebook: Scorebook, hats_off_v2: Game[Any]
) -> None:
    _, expected = load_example("hats-off-01")
    r = client.post("/api/matches/import", content=(examples_dir() / "hats-off-01.jsonl").read_bytes(),
                    headers=headers)
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    assert client.get(f"/api/matches/{match_id}/scores").json() == {**expected, "match_id": match_id}
    assert client.get(f"/api/matches/{match_id}").json()["rules_version"] == 1
    exported = client.get(f"/api/matches/{match_id}/export").text
    rows = [json.loads(x) for x in exported.splitlines()]
    assert "rules_version" not in rows[0]["data"]  # stored as given: the hash is over what is stored
    assert client.get(f"/api/matches/{match_id}/verify").json() == {"ok": True, "events": expected["seq"]}
    # Imported again into another database's copy (here: the same one) it is recognised by its hashes.
    again = client.post("/api/matches/import", content=exported.encode(), headers=headers).json()
    assert again["match_id"] == match_id and again["existing"] is True
    # A fresh read (no cached fold) plays version 1 too.
    fresh = Scorebook.from_engine(scorebook.engine)
    assert fresh.scores(match_id) == {**expected, "match_id": match_id}


def test_a_stored_event_in_an_old_shape_is_upcast_on_reading_and_its_hash_kept(
    scorebook: Scorebook,
) -> None:
    lines, expected = load_example("hats-off-01")
    with upcasters.registered(CALLED_BY):
        text = "".join(json.dumps(line) + "\n" for line in _old_shape(lines, "called_by"))
        match_id = scorebook.import_log(text)["match_id"]
        assert scorebook.scores(match_id) == {**expected, "match_id": match_id}
        assert scorebook.verify(match_id).ok
        stored = [e for e in scorebook.events(match_id) if e["type"] == "round_started"]
        assert stored[0]["data"] == {"called_by": "ann"}  # the row as stored
        assert Scorebook.from_engine(scorebook.engine).scores(match_id)["winners"] == ["ann"]


def test_the_scorepad_and_clubs_path_stamps_too(scorebook: Scorebook, hats_off_v2: Game[Any]) -> None:
    started = scorebook.start_match(dict(START), recorded_by="pad", event_id="pad-1")
    assert started["event"]["data"]["rules_version"] == 2
    again = scorebook.start_match(dict(START), recorded_by="pad", event_id="pad-1")  # a retry
    assert again["replayed"] is True and again["match_id"] == started["match_id"]
    assert scorebook.fold(started["match_id"]).game is hats_off_v2


@pytest.fixture(autouse=True)
def _no_upcaster_left() -> Iterator[None]:
    yield
    assert upcasters.after_start("hats-off") == {}


def test_format_md_lists_every_upcaster_and_every_games_versions() -> None:
    text = (DOCS / "FORMAT.md").read_text(encoding="utf-8")
    section = text.split("## Versions and upcasters", 1)[1].split("\n## ", 1)[0]
    for u in upcasters.UPCASTERS:
        assert f"| `{u.name}` | `{u.game}` | `{u.type}` | {u.version} |" in section, u.name
    for game in registry.all_games():
        published = "; ".join(f"{n} — {g.rules.summary}" for n, g in game.published.items())
        assert f"| `{game.name}` | {game.rules_version} | {published} |" in section, game.name
        rules_page = (DOCS / "rules" / f"{game.name}.md").read_text("utf-8")
        assert f"**Rules version {game.rules_version}**, the current one" in rules_page, game.name


def test_the_replay_page_names_the_rules_version(scorebook: Scorebook, hats_off_v2: Game[Any]) -> None:
    from scorebook.app import build_app

    lines, _ = load_example("hats-off-01")
    old = scorebook.import_log("".join(json.dumps(line) + "\n" for line in lines))["match_id"]
    new = scorebook.start_match(dict(START))["match_id"]
    client = TestClient(build_app(scorebook))
    for match_id, version in ((old, 1), (new, 2)):
        body = {
            "output": "..page.children...whoami.children..",
            "outputs": [{"id": "page", "property": "children"}, {"id": "whoami", "property": "children"}],
            "inputs": [{"id": "url", "property": "pathname", "value": f"/matches/{match_id}"}],
            "state": [{"id": "url", "property": "search", "value": ""}],
            "changedPropIds": ["url.pathname"],
        }
        r = client.post("/_dash-update-component", json=body)
        assert r.status_code == 200, r.text
        assert f"rules version {version}" in json.dumps(r.json()["response"]["page"])


def test_an_imported_file_naming_an_unknown_version_is_refused_and_nothing_stored(
    client: TestClient, headers: dict[str, str]
) -> None:
    lines, _ = load_example("hats-off-01")
    body = "".join(json.dumps(line) + "\n" for line in _with_version(lines, 3))
    r = client.post("/api/matches/import", content=body.encode(), headers=headers)
    assert r.status_code in (400, 422), r.text
    assert "no rules version 3" in r.text and "published: 1" in r.text
    assert client.get("/api/matches").json()["total"] == 0


def test_the_scorepad_offers_the_published_versions_once_there_are_two(
    scorebook: Scorebook, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard.pages import record

    names = ["Ann", "Bo"]
    assert record.rules_version_field("hats-off") is None  # one version: nothing to choose
    assert "rules_version" not in record.match_data("hats-off", names, {}, {})
    v2 = version_2()
    load = registry._load
    monkeypatch.setattr(registry, "_load", lambda name: v2 if name == "hats-off" else load(name))
    field = json.dumps(record.rules_version_field("hats-off").to_plotly_json(), default=lambda o: o.to_plotly_json())
    assert "2 (current)" in field and V2_SUMMARY in field and "the rules as first published" in field
    assert record.rules_version_field("tri-ominos") is None
    # The current version is left for the server to write; an older one is named, and the options are
    # written where they differ from that version's defaults: the form's 50 is version 2's default only.
    assert record.match_data("hats-off", names, {"rules_version": 2, "target_score": 50}, {}) == {
        "game": "hats-off", "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]}
    old = record.match_data("hats-off", names, {"rules_version": 1, "target_score": 50}, {})
    assert old["rules_version"] == 1 and old["options"] == {"target_score": 50}
    assert "options" not in record.match_data("hats-off", names, {"rules_version": 1, "target_score": 75}, {})
    who = scorebook.authenticate(scorebook.create_token("desk", "recorder"))
    match_id = record.start(scorebook, who, old, None)
    assert scorebook.fold(match_id).game is HATS_OFF
    assert scorebook.summary(match_id)["rules_version"] == 1
