"""The shared lines of the scorepad notation (note, rewind), read the same for every game."""

from __future__ import annotations

import pytest

from projections.errors import IllegalEvent
from projections.notation import parse_line, to_notation
from projections.registry import get_game
from projections.timeline import fold_dicts

GAME = get_game("hats-off")
START = {"game": "hats-off", "players": [{"id": "ann"}, {"id": "bo"}]}
STATE = fold_dicts([{"type": "match_started", "data": START}]).state


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("note Bo asks for a ruling", {"type": "note", "data": {"text": "Bo asks for a ruling"}}),
        ("note #7 hat under the table", {"type": "note", "data": {"text": "hat under the table", "about_seq": 7}}),
        ("  note   spaces   collapse ", {"type": "note", "data": {"text": "spaces collapse"}}),
        ("rewind 12 on the wrong cell", {"type": "rewind", "data": {"to_seq": 12, "reason": "on the wrong cell"}}),
        ("rewind #3 misheard", {"type": "rewind", "data": {"to_seq": 3, "reason": "misheard"}}),
    ],
)
def test_shared_lines_read(line: str, event: dict[str, object]) -> None:
    assert parse_line(GAME, STATE, line) == event


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "type a move"),
        ("   ", "type a move"),
        ("note", "a note needs its text"),
        ("note #4", "a note needs its text"),
        ("rewind", "a rewind needs the seq"),
        ("rewind 12", "a rewind needs the seq"),
        ("rewind twelve because", "a rewind needs the seq"),
    ],
)
def test_shared_lines_refused_with_a_reason(line: str, reason: str) -> None:
    with pytest.raises(IllegalEvent, match=reason):
        parse_line(GAME, STATE, line)


def test_shared_events_written_as_typed() -> None:
    assert to_notation(GAME, {"type": "note", "data": {"text": "hi", "about_seq": 2}}) == "note #2 hi"
    assert to_notation(GAME, {"type": "note", "data": {"text": "hi"}}) == "note hi"
    assert to_notation(GAME, {"type": "rewind", "data": {"to_seq": 5, "reason": "oops"}}) == "rewind 5 oops"
