"""What a read shows for a stored value that cannot be served as it is.

A row may hold anything: it may have been written before `recorder.log.inputs`' limits, or by someone
with database access. JSON text that does not parse (SQLite's JSON column is TEXT), data that is not
an object, nested too deep to serialize, NaN (not JSON), a lone surrogate (not UTF-8): serving any of
these would fail the whole answer, and with it every read that includes the row. Instead the value is
replaced by a marker, `{"unreadable": "<why>"}`; the marker is not what was hashed, so the chain check
then fails at that seq, honestly, while every other row still reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import c_make_encoder  # type: ignore[attr-defined]
from typing import Any

from recorder.log.inputs import MAX_META_BYTES, data_problem, json_bytes, json_problem

UNREADABLE = "unreadable"


def unreadable(why: str) -> dict[str, str]:
    return {UNREADABLE: why}


def unreadable_reason(value: Any) -> str | None:
    """The reason of a marker, or None when `value` is not one."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get(UNREADABLE), str):
        return str(value[UNREADABLE])
    return None


def loads_leniently(text: str | bytes) -> Any:
    """The engines' JSON column reader: JSON text as Python, or a marker saying why it is not JSON.

    NaN and Infinity parse (Python's json takes them) and are caught by `readable_data`."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as e:
        why = "nested too deeply to read" if isinstance(e, RecursionError) else str(e)[:200]
        return unreadable(f"the stored text is not JSON ({why})")


# The hash chain's canonical spelling (recorder.log.file.canonical_json): an event's stored data text is then
# the very bytes its hash covers, and a read checks the hash without encoding the data again.
def one_shot(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """`encoder.encode`, with its C encoder made once instead of on every call (40% of encoding an event's data).
    Made without the circular-reference markers, which every thread would share: values come here checked for
    depth (recorder.log.inputs) or built by the code, and a cycle would still fail, as a RecursionError."""
    if c_make_encoder is None or encoder.indent is not None:
        return encoder.encode
    string = json.encoder.encode_basestring_ascii if encoder.ensure_ascii else json.encoder.encode_basestring
    made = c_make_encoder(None, encoder.default, string, None, encoder.key_separator, encoder.item_separator,
                          encoder.sort_keys, encoder.skipkeys, encoder.allow_nan)
    join = "".join

    def encode(value: Any) -> str:
        return string(value) if value.__class__ is str else join(made(value, 0))  # a string: as `encode` does

    return encode


_STORED = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_STORED_TEXT = one_shot(_STORED)


def dumps_strictly(value: Any) -> str:
    """The engines' JSON column writer: standard JSON only (NaN and Infinity raise ValueError), in the
    canonical spelling (sorted keys, no spaces, text as is)."""
    return _STORED_TEXT(value)


def readable_data(value: Any) -> dict[str, Any]:
    """An event's stored data as served: the data, or a marker when it breaks the limits."""
    if unreadable_reason(value) is not None:
        return dict(value)
    if not isinstance(value, dict):
        return unreadable(f"data: a JSON {_kind(value)}, not an object")
    problem = data_problem(value, "data")
    if problem is None:
        return dict(value)
    return unreadable(problem)


def readable_meta(value: Any) -> dict[str, Any]:
    """A match's stored meta as served (the summary and the list): the meta, or a marker."""
    if unreadable_reason(value) is not None:
        return dict(value)
    if not isinstance(value, dict):
        return unreadable(f"meta: a JSON {_kind(value)}, not an object")
    problem = json_problem(value, "meta")
    if problem is None and json_bytes(value) > MAX_META_BYTES:
        problem = f"meta: over {MAX_META_BYTES} bytes as JSON (the limit)"
    return dict(value) if problem is None else unreadable(problem)


def readable_players(value: Any) -> list[dict[str, str]]:
    """A match's stored seats as served: [{id, name}], leaving out any seat that is not one."""
    if not isinstance(value, list):
        return []
    return [
        {"id": p["id"], "name": p["name"]}
        for p in value
        if isinstance(p, dict) and _servable(p.get("id")) and _servable(p.get("name"))
    ]


def readable_winners(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [w for w in value if _servable(w)]


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "null" if value is None else type(value).__name__


def _servable(s: Any) -> bool:
    return isinstance(s, str) and json_problem(s, "") is None


__all__ = [
    "UNREADABLE",
    "dumps_strictly",
    "loads_leniently",
    "readable_data",
    "readable_meta",
    "readable_players",
    "readable_winners",
    "unreadable",
    "unreadable_reason",
]
