"""The read models kept from the log (recorder/readmodels/projector.py): the statistics facts of every match, caught up
by global position with a checkpoint, rebuilt by `scorebook rebuild`, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import fields

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from projections.stats import FACTS_VERSION, MatchFacts, MatchSummary
from recorder.errors import BadRequest
from recorder.facade import Scorebook
from recorder.readmodels.facts import FACTS, FactsReader
from recorder.readmodels.projector import MANY
from recorder.store.matches import EventStore
from scorebook.cli import app
from tests.support.examples import examples_dir
from tests.support.logs import START, launch, round_start
from tests.support.read_models import by_id, club, expected


def test_the_facts_equal_a_fresh_fold_of_every_match_and_round_trip_through_json(scorebook: Scorebook) -> None:
    ids = club(scorebook)
    facts = by_id(scorebook.facts())
    assert set(facts) == set(ids)
    for match_id in ids:
        assert facts[match_id] == expected(scorebook, match_id)
        assert MatchFacts.from_json(facts[match_id].to_json()) == facts[match_id]
    assert {f.game for f in scorebook.facts("hi-spot")} == {"hi-spot"}


def test_every_append_shows_in_the_next_read_and_a_checkpoint_follows_the_log(scorebook: Scorebook) -> None:
    match_id = scorebook.start_match(dict(START), "desk")["match_id"]
    assert by_id(scorebook.facts())[match_id].events == 1
    scorebook.append(match_id, [round_start(), launch("ann", 1, 5)], 1)
    now = by_id(scorebook.facts())[match_id]
    assert now.events == 3 and now.totals["ann"] == 5
    projector = scorebook.projector
    assert projector.checkpoint() == projector.head()
    assert projector.catch_up() == projector.head()  # nothing new: nothing done


def test_an_interrupted_catch_up_resumes_where_it_stopped(scorebook: Scorebook) -> None:
    ids = club(scorebook)
    fresh = FactsReader.of(EventStore(scorebook.engine))  # another process, its own caches
    fresh.projector.reset()
    fresh.projector.catch_up(limit=50)  # "crashes" after one batch: the checkpoint says how far it got
    assert 0 < fresh.projector.checkpoint() == 50 < fresh.projector.head()
    again = FactsReader.of(EventStore(scorebook.engine))
    assert again.projector.catch_up() == again.projector.head()
    assert by_id(again.facts(catch_up=False)) == {m: expected(scorebook, m) for m in ids}
    seen: list[tuple[int, int]] = []
    assert scorebook.rebuild("match_facts", lambda done, total: seen.append((done, total))) == again.projector.head()
    assert seen and seen[-1][0] == seen[-1][1] == sum(scorebook.summary(m)["seq"] for m in ids)
    assert by_id(scorebook.facts()) == {m: expected(scorebook, m) for m in ids}
    with pytest.raises(BadRequest, match="no read model"):
        scorebook.rebuild("moon")


def test_a_catch_up_of_many_matches_reads_their_rows_and_agrees_with_the_store(scorebook: Scorebook) -> None:
    ids = club(scorebook, per_game=5)  # 20 matches: more than a catch-up folds one by one through the store
    assert len(ids) > MANY
    scorebook.projector.reset()
    assert by_id(scorebook.facts()) == {m: expected(scorebook, m) for m in ids}


def test_rows_of_an_older_format_are_recomputed_not_misread(scorebook: Scorebook) -> None:
    (match_id,) = club(scorebook, per_game=1)[:1]
    scorebook.facts()
    with scorebook.engine.begin() as conn:
        conn.execute(text("UPDATE match_facts SET version = :v, facts = :f WHERE match_id = :m"),
                     {"v": FACTS_VERSION - 1, "f": '{"old": true}', "m": match_id})
    assert by_id(scorebook.facts())[match_id] == expected(scorebook, match_id)


def summary_of(facts: MatchFacts) -> MatchSummary:
    return MatchSummary(**{f.name: getattr(facts, f.name) for f in fields(MatchSummary)})


def test_summaries_decode_only_the_charted_game_in_full(scorebook: Scorebook) -> None:
    ids = club(scorebook, per_game=3)
    want = {m: expected(scorebook, m) for m in ids}
    reader = FactsReader.of(EventStore(scorebook.engine))  # a process just started: nothing decoded
    brief = reader.summaries()
    assert reader.decoded() == 0
    assert [s.match_id for s in brief] == [f.match_id for f in scorebook.facts()]  # in the same order
    assert all(type(s) is MatchSummary and s == summary_of(want[s.match_id]) for s in brief)
    page = reader.summaries(full="hi-spot", catch_up=False)
    assert reader.decoded() == sum(1 for f in want.values() if f.game == "hi-spot") > 0
    assert page == [want[s.match_id] if s.game == "hi-spot" else summary_of(want[s.match_id]) for s in brief]
    live = scorebook.start_match(dict(START), "desk")["match_id"]  # a new match and an append show at once
    scorebook.append(live, [round_start(), launch("ann", 1, 5)], 1)
    assert by_id(reader.summaries(full="hats-off"))[live] == expected(scorebook, live)
    assert by_id(reader.summaries())[live] == expected(scorebook, live)  # whole facts are summaries too


def test_summaries_survive_rows_of_an_older_format_and_rows_that_are_not_an_object(scorebook: Scorebook) -> None:
    ids = club(scorebook, per_game=1)
    scorebook.facts()
    with scorebook.engine.begin() as conn:
        conn.execute(text("UPDATE match_facts SET version = :v, facts = :f WHERE match_id = :m"),
                     {"v": FACTS_VERSION - 1, "f": '{"old": true}', "m": ids[0]})
        conn.execute(text("UPDATE match_facts SET facts = :f WHERE match_id = :m"), {"f": "[1]", "m": ids[1]})
        if conn.dialect.name == "sqlite":  # PostgreSQL's json column takes JSON only
            conn.execute(text("UPDATE match_facts SET facts = :f WHERE match_id = :m"), {"f": "{not json", "m": ids[2]})
    fresh = FactsReader.of(EventStore(scorebook.engine))
    read = fresh.summaries()  # rows SQLite cannot read as JSON are decoded whole (whole facts are summaries too)
    assert {f.match_id: summary_of(f) if isinstance(f, MatchFacts) else f for f in read} == {
        m: summary_of(expected(scorebook, m)) for m in ids}
    assert by_id(fresh.facts()) == {m: expected(scorebook, m) for m in ids}


def test_two_projectors_catching_up_at_once_agree(scorebook: Scorebook) -> None:
    ids = club(scorebook)
    scorebook.projector.reset()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            FactsReader.of(EventStore(scorebook.engine)).projector.catch_up()
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert by_id(scorebook.fact_reader.facts(catch_up=False)) == {m: expected(scorebook, m) for m in ids}


def test_a_match_broken_at_its_first_event_has_no_facts(scorebook: Scorebook) -> None:
    from recorder.sql.triggers import drop_triggers

    ids = club(scorebook, per_game=1)
    scorebook.facts()
    with scorebook.engine.begin() as conn:
        drop_triggers(conn)
        conn.execute(text("UPDATE events SET recorded_by = 'x' WHERE match_id = :m AND seq = 1"), {"m": ids[0]})
    sb = Scorebook(EventStore(scorebook.engine))
    sb.rebuild()
    assert set(by_id(sb.facts())) == set(ids[1:])


def test_scorebook_rebuild_from_the_command_line(bare_url: str) -> None:
    with Scorebook.open(bare_url) as sb:
        ids = club(sb, per_game=1)
    result = CliRunner().invoke(app, ["rebuild", "--db", bare_url])
    assert result.exit_code == 0, result.stderr
    assert "hold the log up to position" in result.stdout
    with Scorebook.open(bare_url) as sb:
        assert set(by_id(sb.fact_reader.facts(catch_up=False))) == set(ids)
        assert sb.projector.checkpoint() == sb.projector.head()
    result = CliRunner().invoke(app, ["rebuild", "nothing", "--db", bare_url])
    assert result.exit_code == 1 and "no read model" in result.stderr
    assert FACTS.name == "match_facts"


def test_the_match_list_counts_follow_every_new_match_and_every_finish(scorebook: Scorebook) -> None:
    def totals() -> tuple[int, int, int, int]:
        return (scorebook.matches()[1], scorebook.matches(status="in_progress")[1],
                scorebook.matches(status="finished")[1], scorebook.matches(player="ann")[1])

    assert totals() == (0, 0, 0, 0)
    live = scorebook.start_match(dict(START), "desk")["match_id"]
    assert totals() == (1, 1, 0, 1)
    assert totals() == (1, 1, 0, 1)  # asked again: the kept counts
    finished = (examples_dir() / "hats-off-01.jsonl").read_text()  # a whole match, finished
    scorebook.import_log(finished, "desk")
    assert totals()[:3] == (2, 1, 1)
    scorebook.append(live, [round_start(), launch("ann", 1, 5)], 1)
    assert totals()[:3] == (2, 1, 1)  # the log moved: counted again, the same


def test_rebuilding_snapshots_keeps_every_read_the_same(scorebook: Scorebook) -> None:
    sb = Scorebook(EventStore(scorebook.engine, snapshot_every=20, snapshot_secret="s"))
    ids = club(sb, per_game=1)
    before = {m: sb.scores(m) for m in ids}
    with sb.engine.begin() as conn:
        conn.execute(text("DELETE FROM snapshots"))
    assert sb.rebuild("snapshots") == sb.projector.head()
    with sb.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM snapshots")).scalar_one() > 0
    cold = Scorebook(EventStore(scorebook.engine, snapshot_every=20, snapshot_secret="s"))
    assert {m: cold.scores(m) for m in ids} == before


def test_the_match_list_counts_stay_exact_without_their_version_row(scorebook: Scorebook) -> None:
    scorebook.start_match(dict(START), "desk")
    assert scorebook.matches()[1] == 1
    with scorebook.engine.begin() as conn:  # a row deleted by hand: the counts are then counted every time
        conn.execute(text("DELETE FROM match_list_version"))
    scorebook.start_match(dict(START), "desk")
    assert scorebook.matches()[1] == 2 and scorebook.matches(player="ann")[1] == 2


def test_the_follower_catches_up_decodes_every_row_first_and_follows_appends(scorebook: Scorebook) -> None:
    import time

    from recorder.readmodels.projector import Follower

    ids = club(scorebook, per_game=1)
    live = scorebook.start_match(dict(START), "desk")["match_id"]
    reader = FactsReader.of(EventStore(scorebook.engine))  # a server just started: nothing read yet
    assert reader.decoded() == 0

    def soon(check: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 20
        while not check() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert check()

    follower = Follower(reader.projector, interval=0.05, warm=reader.warm).start()
    try:
        soon(lambda: reader.projector.checkpoint() == reader.projector.head() and reader.decoded() == len(ids) + 1)
        scorebook.append(live, [round_start(), launch("ann", 1, 5)], 1)
        soon(lambda: by_id(reader.facts(catch_up=False))[live].events == 3)
    finally:
        follower.stop()
    assert by_id(reader.facts(catch_up=False)) == {m: expected(scorebook, m) for m in [*ids, live]}
