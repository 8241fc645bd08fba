"""The value limits' fast paths never accept what the careful checks refuse: for any value, `data_problem` (by
`inputs._plain_size`) says None exactly when `json_problem` and the canonical size do, and `check_event` passes
a type and an event_id exactly when `check_string` does, with the same words."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from recorder.errors import BadRequest
from recorder.log.inputs import (
    MAX_DATA_BYTES,
    MAX_DEPTH,
    MAX_EVENT_ID_CHARS,
    MAX_KEY_CHARS,
    MAX_SAFE_INTEGER,
    MAX_STRING_CHARS,
    MAX_TYPE_CHARS,
    check_event,
    check_string,
    data_problem,
    json_bytes,
    json_problem,
)

# Text near every string limit, with NUL, lone surrogates, escapes and characters of every UTF-8 width.
texts = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=st.sampled_from(["a", "\x00", "\ud800", "\udfff", '"', "\\", "\n", "é", "€", "😀"]), max_size=8),
    st.sampled_from(["x" * MAX_KEY_CHARS, "x" * (MAX_KEY_CHARS + 1), "y" * MAX_STRING_CHARS,
                     "y" * (MAX_STRING_CHARS + 1), "😀" * 3000]),
)
scalars = st.one_of(
    st.none(), st.booleans(), texts, st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.sampled_from([MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER - 1]),
)
keys = st.one_of(texts, st.integers(max_value=5, min_value=0))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4),
                            st.tuples(inner)),
    max_leaves=30,
)


def careful(data: dict[Any, Any]) -> str | None:
    """What `data_problem` says without its fast path."""
    problem = json_problem(data, "data")
    if problem is not None:
        return problem
    return "too large" if json_bytes(data) > MAX_DATA_BYTES else None


def nested(depth: int) -> dict[str, Any]:
    data: dict[str, Any] = {}
    inner = data
    for _ in range(depth - 1):
        inner["n"] = {}
        inner = inner["n"]
    return data


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(keys, values, max_size=5))
def test_the_fast_path_agrees_with_the_careful_walk(data: dict[Any, Any]) -> None:
    assert (data_problem(data, "data") is None) == (careful(data) is None)


def test_the_fast_path_at_the_depth_and_size_limits() -> None:
    for data in (nested(MAX_DEPTH), nested(MAX_DEPTH + 1), {"k": "z" * 4000, "l": ["z" * 4000] * 15},
                 {"k": ["z" * 4000] * 17}, {"k": ["é" * 4000] * 9}):
        assert (data_problem(data, "data") is None) == (careful(data) is None)
    assert data_problem(nested(MAX_DEPTH + 1), "data") is not None
    assert "over 65536" in (data_problem({"k": ["z" * 4000] * 17}, "data") or "")


def test_strings_remembered_as_plain_pass_only_where_they_are_within_the_limit() -> None:
    # A value seen first is remembered only if it is short enough to be a key too: a longer one, accepted as
    # a value, is still refused as a key afterwards; text with a NUL is never remembered.
    long_text, key_size = "v" * (MAX_KEY_CHARS + 1), "k" * MAX_KEY_CHARS
    for _ in range(2):
        assert data_problem({"note": long_text, key_size: 1}, "data") is None
        assert "256" in (data_problem({long_text: 1}, "data") or "")
        assert "NUL" in (data_problem({"note": "a\x00b"}, "data") or "")
        assert "NUL" in (data_problem({"a\x00b": 1}, "data") or "")


def _refusal(check: Any) -> str | None:
    try:
        check()
    except BadRequest as e:
        return e.message
    return None


fields = st.one_of(
    texts, st.none(), st.integers(), st.sampled_from(["", "t" * MAX_TYPE_CHARS, "t" * (MAX_TYPE_CHARS + 1),
                                                      "e" * MAX_EVENT_ID_CHARS, "e" * (MAX_EVENT_ID_CHARS + 1)]),
)


@settings(max_examples=400)
@given(fields, fields, st.booleans())
@example("t" * (MAX_TYPE_CHARS + 1), None, True)
@example("note", "e\x00", False)
@example("note", "\ud800", False)
@example("note", "", False)
@example("note", "é" * MAX_EVENT_ID_CHARS, False)
def test_check_event_words_a_type_and_an_event_id_as_check_string_does(type_: Any, event_id: Any, seen: bool) -> None:
    """`seen`: the type was met before as a value of some data (the fast path's set of plain strings holds it,
    whatever its length)."""
    if seen:
        data_problem({"x": type_}, "data")
    expected = (_refusal(lambda: check_string(type_, "events[0].type", MAX_TYPE_CHARS))
                or (None if event_id is None
                    else _refusal(lambda: check_string(event_id, "events[0].event_id", MAX_EVENT_ID_CHARS))))
    assert _refusal(lambda: check_event(type_, {}, event_id, "events[0]")) == expected
