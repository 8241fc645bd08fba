"""match_abandoned and correction requests in the fold (projections/timeline.py, projections/corrections.py):
an abandoned match takes no more game events but notes and rewinds, a rewind to before the abandon lets it go
on, the abandon survives `at` and a resumed fold; a request is open until a rewind covers its event or a note
resolves it; the pad's referee lines."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.corrections import open_requests, referee_line, requests
from projections.errors import IllegalEvent
from projections.events import COMMON_EVENT_TYPES, Event
from projections.registry import GAME_NAMES, get_game
from projections.timeline import Fold, fold_dicts

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]


def game_log(game: str, seed: int = 3) -> list[dict[str, Any]]:
    return get_game(game).random_match(random.Random(seed), PLAYERS, {})


def with_seqs(events: list[dict[str, Any]], first: int) -> list[Event]:
    return [Event(first + i, e["type"], e["data"]) for i, e in enumerate(events)]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_abandoned_match_refuses_game_events_and_takes_notes(game: str) -> None:
    log = game_log(game)
    fold = fold_dicts(log[:4])
    fold = fold.apply(Event(5, "match_abandoned", {"reason": "fire alarm"}))
    assert fold.abandoned == 5 and not fold.finished and fold.state is fold.at(4).state
    with pytest.raises(IllegalEvent, match=r"abandoned at #5 \(fire alarm\); only notes"):
        fold.apply(Event(6, log[4]["type"], log[4]["data"]))
    with pytest.raises(IllegalEvent, match="abandoned at #5"):  # the batch path refuses it too
        fold.extend([Event(6, log[4]["type"], log[4]["data"])])
    noted = fold.apply(Event(6, "note", {"text": "players went home"}))
    assert noted.abandoned == 5 and noted.describe(5).text == "match abandoned: fire alarm"
    assert "match_abandoned" in COMMON_EVENT_TYPES


def test_a_rewind_to_before_the_abandon_lets_the_match_go_on() -> None:
    log = game_log("hats-off")
    fold = fold_dicts(log[:4]).extend([Event(5, "match_abandoned", {"reason": "power cut"}),
                                       Event(6, "rewind", {"to_seq": 4, "reason": "power is back"})])
    assert fold.abandoned == 0 and fold.superseded_by == {5: 6}
    fold = fold.extend(with_seqs(log[4:8], 7))  # the game goes on
    assert fold.seq == 10 and fold.at(5).abandoned == 5 and fold.at(4).abandoned == 0
    # a rewind that keeps the abandon (to a seq after it) leaves the match abandoned
    kept = fold_dicts(log[:4]).extend([Event(5, "match_abandoned", {"reason": "x"}), Event(6, "note", {"text": "n"}),
                                       Event(7, "rewind", {"to_seq": 5, "reason": "the note was wrong"})])
    assert kept.abandoned == 5


def test_abandon_is_refused_without_a_reason_twice_or_after_the_end() -> None:
    log = game_log("hats-off")
    fold = fold_dicts(log[:3])
    for data in ({}, {"reason": ""}, {"reason": 3}):
        with pytest.raises(IllegalEvent, match="give the reason"):
            fold.apply(Event(4, "match_abandoned", data))
    once = fold.apply(Event(4, "match_abandoned", {"reason": "x"}))
    with pytest.raises(IllegalEvent, match="abandoned already, at #4"):
        once.apply(Event(5, "match_abandoned", {"reason": "again"}))
    finished = fold_dicts(log)
    assert finished.finished
    with pytest.raises(IllegalEvent, match="finished; a finished match keeps its result"):
        finished.apply(Event(finished.seq + 1, "match_abandoned", {"reason": "late"}))


def test_a_fold_resumed_after_the_abandon_still_refuses() -> None:
    log = game_log("high-five")
    fold = fold_dicts(log[:4]).extend([Event(5, "match_abandoned", {"reason": "x"}), Event(6, "note", {"text": "n"})])
    resumed = Fold.resume(fold.event(1), fold.event(6), fold.state, fold.superseded_by, abandons=fold.abandons)
    assert resumed.abandoned == 5
    with pytest.raises(IllegalEvent, match="abandoned at #5"):
        resumed.apply(Event(7, log[4]["type"], log[4]["data"]))


def events_of(fold: Fold[Any]) -> list[dict[str, Any]]:
    return [{"seq": e.seq, "type": e.type, "data": e.data} for e in fold.events]


def test_a_request_is_open_until_a_rewind_covers_its_event_or_a_note_resolves_it() -> None:
    log = game_log("hats-off")
    fold = fold_dicts(log[:6]).extend([
        Event(7, "note", {"text": "wrong hat", "about_seq": 5, "correction": True}),
        Event(8, "note", {"text": "score?", "about_seq": 6, "correction": True}),
        Event(9, "note", {"text": "a plain note", "about_seq": 6}),
    ])
    assert [(r.seq, r.about_seq) for r in open_requests(events_of(fold))] == [(7, 5), (8, 6)]
    # a rewind to 5 covers #6 only: the request about #5 stays open
    after = fold.extend([Event(10, "rewind", {"to_seq": 5, "reason": "score?"})])
    found = requests(events_of(after))
    assert [(r.seq, r.open, r.resolved_by, r.resolution) for r in found] == [(7, True, None, None),
                                                                              (8, False, 10, "rewind")]
    dismissed = after.extend([Event(11, "note", {"text": "it stands", "resolves": 7})])
    assert open_requests(events_of(dismissed)) == []
    assert requests(events_of(dismissed))[0].resolution == "note"


def test_a_resolving_note_must_name_a_request() -> None:
    fold = fold_dicts(game_log("hats-off")[:3]).apply(Event(4, "note", {"text": "plain"}))
    for bad, why in ((4, "not a correction request"), (9, "earlier correction request"), ("4", "earlier")):
        with pytest.raises(IllegalEvent, match=why):
            fold.apply(Event(5, "note", {"text": "x", "resolves": bad}))
    with pytest.raises(IllegalEvent, match="correction must be true or false"):
        fold.apply(Event(5, "note", {"text": "x", "correction": "yes"}))


def test_the_pad_lines_of_the_referee_panel() -> None:
    assert referee_line("Correction #7 the 3-4-5 is on the wrong cell") == {
        "type": "note", "data": {"text": "the 3-4-5 is on the wrong cell", "about_seq": 7, "correction": True}}
    assert referee_line("resolve #12") == {"type": "note", "data": {"text": "dismissed", "resolves": 12}}
    assert referee_line("abandon  Bo was taken ill") == {"type": "match_abandoned",
                                                         "data": {"reason": "Bo was taken ill"}}
    assert referee_line("ann 4 ann9") is None and referee_line("note hello") is None
    for line, why in (("correction #7", "a few words"), ("abandon", "say why"), ("resolve soon", "the seq")):
        with pytest.raises(IllegalEvent, match=why):
            referee_line(line)
