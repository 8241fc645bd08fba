"""The log machinery every game shares: match_started, note, rewind, finished matches, states at a seq."""

from __future__ import annotations

import pytest

from projections.errors import IllegalEvent, UnknownEventType
from projections.events import Event
from projections.scores import scores_json
from projections.timeline import Fold, fold_dicts
from tests.support.examples import load_example
from tests.support.logs import START, launch, round_start


def base() -> Fold:
    return fold_dicts([{"type": "match_started", "data": START}, round_start(), launch("ann", 1, 5)])


def test_first_event_must_be_match_started_and_only_once() -> None:
    with pytest.raises(IllegalEvent, match="first event must be match_started"):
        Fold.begin(Event(1, "note", {"text": "hi"}))
    with pytest.raises(IllegalEvent, match="already started"):
        base().apply(Event(4, "match_started", START))
    with pytest.raises(IllegalEvent, match="unknown game"):
        Fold.begin(Event(1, "match_started", {**START, "game": "chess"}))
    with pytest.raises(IllegalEvent, match="meta must be a JSON object"):
        Fold.begin(Event(1, "match_started", {**START, "meta": "Autumn night"}))
    assert Fold.begin(Event(1, "match_started", {**START, "meta": {"table": 3}})).seq == 1
    with pytest.raises(IllegalEvent, match="does not follow"):
        base().apply(Event(7, "note", {"text": "gap"}))


def test_unknown_type_is_its_own_error() -> None:
    with pytest.raises(UnknownEventType, match="tile_placed"):
        base().apply(Event(4, "tile_placed", {}))
    for bad in (None, ["note"], ""):
        with pytest.raises(UnknownEventType, match="non-empty string"):
            base().apply(Event(4, bad, {}))  # type: ignore[arg-type]
    with pytest.raises(IllegalEvent, match="data must be a JSON object"):
        base().apply(Event(4, "note", None))  # type: ignore[arg-type]
    with pytest.raises(UnknownEventType):
        fold_dicts([{"type": "match_started", "data": START}, {"data": {}}])


def test_note_changes_no_state_and_checks_about_seq() -> None:
    f = base()
    noted = f.apply(Event(4, "note", {"text": "Bo disputes hat 1", "about_seq": 3}))
    assert noted.state is f.state and noted.seq == 4
    assert "Bo disputes" in noted.describe(4).text
    with pytest.raises(IllegalEvent, match="about_seq"):
        f.apply(Event(4, "note", {"text": "x", "about_seq": 9}))
    with pytest.raises(IllegalEvent, match="text"):
        f.apply(Event(4, "note", {"about_seq": 1}))


def test_rewind_restores_the_state_and_supersedes() -> None:
    f = base().extend([Event(4, "hat_launched", launch("ann", 2, 6)["data"])])
    r = f.apply(Event(5, "rewind", {"to_seq": 3, "reason": "hat 2 bounced out"}))
    assert r.state is f.state_at(3)
    assert dict(r.superseded_by) == {4: 5}
    # the superseded launch no longer counts: hat 2 can be launched again
    again = r.apply(Event(6, "hat_launched", launch("ann", 2, 7)["data"]))
    assert again.seq == 6
    with pytest.raises(IllegalEvent, match="already superseded"):
        again.apply(Event(7, "rewind", {"to_seq": 4, "reason": "x"}))
    with pytest.raises(IllegalEvent, match="to_seq"):
        again.apply(Event(7, "rewind", {"to_seq": 7, "reason": "x"}))
    with pytest.raises(IllegalEvent, match="reason"):
        again.apply(Event(7, "rewind", {"to_seq": 2}))
    # the fold before the rewind is untouched (persistent)
    assert f.seq == 4 and not f.superseded_by


def test_extending_an_old_fold_a_second_way_leaves_both_valid() -> None:
    f = base()
    a = f.apply(Event(4, "hat_launched", launch("ann", 2, 6)["data"]))
    b = f.apply(Event(4, "hat_launched", launch("bo", 2, 6)["data"]))
    assert a.event(4).data["player"] == "ann" and b.event(4).data["player"] == "bo"
    assert f.seq == 3 and a.state is not b.state


def test_extend_is_apply_event_by_event_and_a_refusal_leaves_nothing_behind() -> None:
    f = base()
    events = [
        Event(4, "note", {"text": "hat 2 next"}),
        Event(5, "hat_launched", launch("ann", 2, 6)["data"]),
        Event(6, "rewind", {"to_seq": 4, "reason": "hat 2 bounced out"}),
        Event(7, "hat_launched", launch("ann", 2, 7)["data"]),
    ]
    one_by_one = f
    for e in events:
        one_by_one = one_by_one.apply(e)
    extended = f.extend(events)
    assert extended.seq == one_by_one.seq == 7 and dict(extended.superseded_by) == {5: 6}
    assert [extended.event(s) for s in range(1, 8)] == [one_by_one.event(s) for s in range(1, 8)]
    assert extended.state_at(6) is extended.state_at(4) and extended.state_at(3) is f.state
    # Refused part-way (the hat is in a hole already): an error, and `f` extends as if nothing happened.
    with pytest.raises(IllegalEvent):
        f.extend([*events[:2], Event(6, "hat_launched", launch("ann", 2, 6)["data"])])
    assert f.seq == 3 and f.extend(events[:1]).seq == 4 and f.state is extended.state_at(3)


def test_finished_match_takes_only_notes_and_rewinds() -> None:
    lines, expected = load_example("hats-off-01")
    f = fold_dicts(lines)
    assert f.finished
    with pytest.raises(IllegalEvent, match="finished"):
        f.apply(Event(f.seq + 1, "round_started", {"caller": "ann"}))
    noted = f.apply(Event(f.seq + 1, "note", {"text": "well played"}))
    assert scores_json(noted)["status"] == "finished" and scores_json(noted)["seq"] == expected["seq"] + 1
    reopened = noted.apply(Event(noted.seq + 1, "rewind", {"to_seq": expected["seq"] - 1, "reason": "recount"}))
    assert not reopened.finished


def test_state_and_scores_at_any_seq() -> None:
    lines, expected = load_example("hats-off-01")
    f = fold_dicts(lines)
    mid = f.at(14)
    assert mid.seq == 14 and mid.state is f.state_at(14)
    assert scores_json(mid)["rounds"][0]["scores"] == expected["rounds"][0]["scores"]
    total = {p["id"]: 0 for p in expected["players"]}
    for seq in range(1, f.seq + 1):
        for pid, delta in f.points(seq).items():
            total[pid] += delta
    assert total == {p["id"]: p["score"] for p in expected["players"]}
