"""`schemas.unknown_field_problem` remembers data it found clean by (model, canonical text): what an append checks
on every event, answered from memory when the same data comes again. The memory never hides an unknown field,
never answers for another game's or event type's model, and stays bounded."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import projections.schemas as schemas
from projections.games import hats_off, hi_spot, high_five, tri_ominos
from projections.schemas import unknown_field_problem
from recorder.log.readable import dumps_strictly

GAMES = {g.GAME.name: g.GAME for g in (hats_off, hi_spot, high_five, tri_ominos)}


def _problem(game: Any, type: str, data: Any) -> str | None:
    """The answer with the text given (memory used), checked against the answer without it."""
    with_text = unknown_field_problem(game, type, data, dumps_strictly(data))
    assert with_text == unknown_field_problem(game, type, data)
    return with_text


@pytest.fixture(autouse=True)
def empty_memory() -> None:
    schemas._CLEAN.clear()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_example_is_clean_and_remembered_and_a_misspelling_is_still_named(name: str) -> None:
    game = GAMES[name]
    for spec in game.descriptor.events:
        data = dict(spec.example)
        assert _problem(game, spec.type, data) is None
        assert (spec.data, dumps_strictly(data)) in schemas._CLEAN
        assert _problem(game, spec.type, data) is None  # from memory now
        wrong = {**data, "colour": "red"}  # the clean data with one field more: never answered from memory
        problem = _problem(game, spec.type, wrong)
        assert problem is not None and "'colour'" in problem


def test_the_memory_answers_only_for_the_model_it_checked() -> None:
    """The same text is clean for one event type and not for another."""
    game = GAMES["hats-off"]
    data = {"caller": "ann"}
    assert _problem(game, "round_started", data) is None
    problem = _problem(game, "hats_off_called", data)
    assert problem is not None and "'caller'" in problem


def test_a_nested_misspelling_is_named_with_or_without_memory() -> None:
    game = GAMES["hats-off"]
    good = {"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "number": 5}}}
    bad = {"player": "ann", "hat": 1, "to": {"hole": {"area": "ann", "numbr": 5}}}
    assert _problem(game, "hat_launched", good) is None
    problem = _problem(game, "hat_launched", bad)
    assert problem is not None and "to.hole.numbr" in problem


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schemas, "CLEAN_MAX", 5)
    game = GAMES["hats-off"]
    for n in range(1, 10):
        data = {"player": "ann", "hat": 1, "to": {"hole": {"area": "bo", "number": n}}}
        assert _problem(game, "hat_launched", data) is None
        assert len(schemas._CLEAN) <= 5


_KEYS = st.sampled_from(["player", "hat", "to", "hole", "area", "number", "in_hat", "in_flight", "numbr", "x"])
_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["ann", "bo", "off"]),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
                       max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(type=st.sampled_from(["hat_launched", "hat_moved", "round_started", "hats_off_called"]),
       data=st.dictionaries(_KEYS, _VALUES, max_size=4))
def test_with_memory_the_answer_is_the_answer_without(type: str, data: dict[str, Any]) -> None:
    game = GAMES["hats-off"]
    _problem(game, type, data)
    _problem(game, type, data)  # a second time: from memory when the first found it clean
