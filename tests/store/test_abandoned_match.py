"""An abandoned match in the store, on SQLite and PostgreSQL: its status, out of the statistics facts (a rebuild
agrees, a rewind to before the abandon brings them back), missing in the standings and ignored by the ratings of a
tournament; and a fold resumed from a snapshot after the abandon still refuses game events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.clubs.tournament import missing_results
from projections.registry import get_game
from recorder.errors import Refused
from recorder.facade import Scorebook
from recorder.log.file import NewEvent
from tests.support.clubs import NAMES, OPTIONS, play
from tests.support.snapshots import EVERY, log_of, new_store, snapshot_seqs


def hats_off_log(seats: list[str], seed: int) -> list[dict[str, Any]]:
    players = [{"id": p, "name": NAMES[p]} for p in seats]
    return get_game("hats-off").random_match(random.Random(seed), players, OPTIONS)


def started(sb: Scorebook, seats: list[str], seed: int, events: int) -> tuple[str, list[dict[str, Any]]]:
    log = hats_off_log(seats, seed)
    match_id = str(sb.start_match(log[0]["data"], "desk")["match_id"])
    sb.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:events]], 1, "desk")
    return match_id, log


def abandon(sb: Scorebook, match_id: str, reason: str = "the hall closed") -> None:
    sb.append(match_id, [{"type": "match_abandoned", "data": {"reason": reason}}], sb.fold(match_id).seq, "ref")


def test_an_abandoned_match_is_listed_as_such_and_leaves_the_statistics(scorebook: Scorebook) -> None:
    sb = scorebook
    kept, _ = started(sb, ["ann", "bo"], 1, 6)
    gone, log = started(sb, ["cy", "dee"], 2, 6)
    assert {f.match_id for f in sb.facts()} == {kept, gone}
    abandon(sb, gone)
    assert sb.summary(gone)["status"] == "abandoned"
    assert [m["match_id"] for m in sb.matches(status="abandoned")[0]] == [gone]
    assert [f.match_id for f in sb.facts()] == [kept]
    sb.rebuild("match_facts")  # the rebuild agrees with the followed model
    assert [f.match_id for f in sb.facts()] == [kept]
    with pytest.raises(Refused, match="abandoned at #7"):
        sb.append(gone, [{"type": log[6]["type"], "data": log[6]["data"]}], 7, "desk")
    sb.append(gone, [{"type": "note", "data": {"text": "Cy went home"}}], 7, "desk")  # notes are still taken
    assert sb.fold(gone).seq == 8 and sb.summary(gone)["status"] == "abandoned"
    # a referee's rewind to before the abandon: the match goes on, and counts again
    sb.append(gone, [{"type": "rewind", "data": {"to_seq": 6, "reason": "Cy is back"}}], 8, "ref")
    assert sb.summary(gone)["status"] == "in_progress"
    assert {f.match_id for f in sb.facts()} == {kept, gone}
    sb.append(gone, [{"type": log[6]["type"], "data": log[6]["data"]}], 9, "desk")
    assert sb.fold(gone).seq == 10


def test_a_tournaments_abandoned_table_is_missing_in_the_standings_and_ignored_by_ratings(
        scorebook: Scorebook) -> None:
    sb = scorebook
    tid = sb.clubs.create_tournament({"name": "Elm Open", "game": "hats-off", "format": "swiss", "rounds": 2,
                                      "table_size": 2}, "ref")
    for pid in ("ann", "bo", "cy", "dee"):
        sb.clubs.enter(tid, pid, "ref", name=NAMES[pid])
    tables = sb.clubs.pair(tid, "ref")["tables"]
    played = sb.clubs.start_table(tid, 1, 1, "desk", OPTIONS)
    play(sb, played, tables[0]["seats"], 7)
    stopped = sb.clubs.start_table(tid, 1, 2, "desk", OPTIONS)
    log = hats_off_log(tables[1]["seats"], 8)
    sb.append(stopped, [{"type": e["type"], "data": e["data"]} for e in log[1:-1]], 1, "desk")  # all but the end
    assert sb.clubs.collect_results(tid, "ref") == 1  # table 1's
    before = [(s.player, s.match_points, s.game_points, s.played) for s in sb.clubs.standings(tid)]
    rated_before = sb.clubs.ratings("hats-off")["hats-off"].to_json()
    abandon(sb, stopped)
    assert sb.clubs.collect_results(tid, "ref") == 0
    state = sb.clubs.tournament(tid)
    assert [(r, t) for r, t, _ in missing_results(state)] == [(1, 2)]
    after = [(s.player, s.match_points, s.game_points, s.played) for s in sb.clubs.standings(tid)]
    assert after == before  # as a table not played: nothing counts for its players
    assert {p: played for p, _, _, played in after if p in tables[1]["seats"]} == dict.fromkeys(tables[1]["seats"], 0)
    assert sb.clubs.ratings("hats-off")["hats-off"].to_json() == rated_before
    assert set(sb.clubs.ratings("hats-off")["hats-off"].players) == set(tables[0]["seats"])
    with pytest.raises(Refused, match="round 1 is not complete"):
        sb.clubs.pair(tid, "ref")
    # the director's way out: the table's players forfeit (or a new match is assigned to the table)
    sb.clubs.forfeit(tid, 1, 2, tables[1]["seats"], "ref")
    assert sb.clubs.pair(tid, "ref")["round"] == 2


def test_a_fold_resumed_from_a_snapshot_after_the_abandon_still_refuses(scorebook: Scorebook) -> None:
    store = new_store(scorebook.engine)  # a snapshot every EVERY events
    log = list(log_of("hats-off"))
    match_id = str(store.create_match(log[0]["data"], "desk")["match_id"])
    store.append(match_id, [NewEvent(e["type"], e["data"]) for e in log[1:4]], 1, "desk")
    store.append(match_id, [NewEvent("match_abandoned", {"reason": "fire alarm"})], 4, "ref")
    store.append(match_id, [NewEvent("note", {"text": f"note {i}"}) for i in range(EVERY)], 5, "desk")
    assert [s for s in snapshot_seqs(scorebook.engine, match_id) if s > 5]
    cold = new_store(scorebook.engine)  # as after a restart: the fold resumes from the latest snapshot
    fold = cold.fold(match_id)
    assert fold.held_from > 5 and fold.abandoned == 5
    with pytest.raises(Refused, match="abandoned at #5"):
        cold.append(match_id, [NewEvent(log[4]["type"], log[4]["data"])], fold.seq, "desk")
    assert cold.fold(match_id).seq == fold.seq
