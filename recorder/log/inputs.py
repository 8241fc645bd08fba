"""What the store accepts: the limits on everything that comes in, checked at the boundary.

Pure (no database). The store calls these on every start and append, the import on every line, so
the HTTP API, the CLI, the dashboard's scorepad and the Python API all share one set of limits, and a
value that either database (or JavaScript) would keep differently, or refuse with an error, never gets
as far as SQL. Every refusal is a BadRequest naming the field and the limit.

The limits leave at least 10x headroom over real matches. Measured (2026-12-01) over 189,688 events:
`random_match` of every game, every player count, seeds 0-29, and every log in tests/data:
- largest data: 355 bytes of canonical JSON (high-five, 7 players, hand_dealt)   -> 64 KiB
- deepest data: 3 levels (match_started: data > options/players > list/object)  -> 32 levels
- longest string: 15 characters; longest event type: 18                        -> 4096; 64
- widest object or array: 19 members; largest integer: 150                      -> (bounded by size); 2^53-1
`meta` and note `text` are free text from the table, so their limits are set by what a person types.
Members per object and items per array get no limit of their own: 64 KiB bounds them (to about 32k),
and nothing downstream is slower than linear in them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from recorder.errors import BadRequest

MAX_DEPTH = 32  # levels of objects and arrays, the data object itself being level 1
MAX_DATA_BYTES = 64 * 1024  # an event's data as canonical JSON (UTF-8)
MAX_META_BYTES = 16 * 1024  # match_started's `meta`, within its data
MAX_STRING_CHARS = 4096  # any string value in data (a note's text, a name)
MAX_KEY_CHARS = 256  # any object key in data
MAX_SAFE_INTEGER = 2**53 - 1  # JavaScript, SQLite and PostgreSQL all keep integers up to here exactly
MAX_TYPE_CHARS = 64  # an event's type (the column is VARCHAR(64))
MAX_EVENT_ID_CHARS = 128  # a client's event_id (VARCHAR(128))
MAX_PLAYER_ID_CHARS = 64  # a player's id (match_players.player_id is VARCHAR(64))
MAX_NAME_CHARS = 128  # a player's name, and `recorded_by` (both VARCHAR(128))
MAX_SEQ = 2**31 - 1  # a seq in a query (`from`, `to`, `at`): PostgreSQL's INTEGER column
MAX_POSITION = MAX_SAFE_INTEGER  # `after` and `offset` in a query

_SURROGATE = re.compile("[\ud800-\udfff]")
_MATCH_ID = re.compile("[0-9a-f]{32}")


def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _string_problem(s: str, limit: int) -> str | None:
    if len(s) > limit:
        return f"longer than {limit} characters (the limit)"
    if "\x00" in s:
        return "holds a NUL character (\\u0000), which PostgreSQL cannot store"
    if _SURROGATE.search(s):
        return "holds a lone surrogate (such as \\ud800), which is not Unicode text"
    return None


def json_problem(value: Any, where: str) -> str | None:
    """The first thing in `value` that breaks the limits, as "<field>: <why>", or None.

    Walked without recursion, so that a value nested far deeper than the limit is refused, not a crash."""
    stack: list[tuple[Any, str, int]] = [(value, where, 1)]
    while stack:
        v, at, depth = stack.pop()
        if isinstance(v, Mapping) or isinstance(v, (list, tuple)):
            if depth > MAX_DEPTH:
                return f"{where or 'the value'}: nested deeper than {MAX_DEPTH} levels (the limit)"
            if isinstance(v, Mapping):
                for k, item in v.items():
                    if not isinstance(k, str):
                        return f"{at or 'the value'}: key {k!r} is not a string"
                    problem = _string_problem(k, MAX_KEY_CHARS)
                    if problem is not None:
                        return f"{at or 'the value'}: a key {problem}"
                    stack.append((item, _at(at, k), depth + 1))
            else:
                stack.extend((item, _at(at, i), depth + 1) for i, item in enumerate(v))
        elif isinstance(v, str):
            problem = _string_problem(v, MAX_STRING_CHARS)
            if problem is not None:
                return f"{at}: {problem}"
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if abs(v) > MAX_SAFE_INTEGER:
                return f"{at}: integer outside ±{MAX_SAFE_INTEGER} (±(2^53-1), the limit)"
        elif isinstance(v, float):
            if not math.isfinite(v):
                kind = "NaN" if math.isnan(v) else "Infinity"
                return f"{at}: {kind} is not a JSON number (NaN and Infinity are refused)"
        else:
            return f"{at}: a {type(v).__name__} is not a JSON value"
    return None


def json_bytes(value: Any) -> int:
    """The size of `value` as canonical JSON (UTF-8); only for a value `json_problem` passed."""
    return len(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


# Short strings already found plain. Keys and most values ("player", "hat", the players' ids) come back event
# after event: a set look-up then replaces the check. Bounded; a string in it is plain under every limit.
_PLAIN: set[str] = set()
_PLAIN_MAX = 4096


def _plain_text(s: str, limit: int) -> bool:
    """`_string_problem` finds nothing (the regex only for text that is not ASCII)."""
    plain = len(s) <= limit and "\x00" not in s and (s.isascii() or _SURROGATE.search(s) is None)
    if plain and len(s) <= MAX_KEY_CHARS and len(_PLAIN) < _PLAIN_MAX:
        _PLAIN.add(s)
    return plain


def _plain_size(value: Any, depth: int) -> int | None:
    """An upper bound of `value`'s size as canonical JSON, if it is made only of plain JSON values within
    every limit; None for anything `json_problem` must look at (it then words the refusal, if any). One walk
    with no field paths built and no JSON written: the check of every append and every imported line. The
    strings and integers inside an object or a list, most of an event's values, are checked where they stand
    (a call for each cost as much as the check)."""
    t = type(value)
    if t is str:
        # at most 6 bytes a character (a \uXXXX escape), and the quotes
        return 6 * len(value) + 2 if value in _PLAIN or _plain_text(value, MAX_STRING_CHARS) else None
    if t is int:
        return 17 if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else None
    if t is bool or value is None:
        return 5
    if depth > MAX_DEPTH:
        return None
    size = 2
    if t is dict:
        for k, v in value.items():
            if type(k) is not str or (k not in _PLAIN and not _plain_text(k, MAX_KEY_CHARS)):
                return None
            size += 6 * len(k) + 4  # the quoted key, a colon and a comma
            tv = type(v)
            if tv is str:
                if v not in _PLAIN and not _plain_text(v, MAX_STRING_CHARS):
                    return None
                size += 6 * len(v) + 2
            elif tv is int:
                if not -MAX_SAFE_INTEGER <= v <= MAX_SAFE_INTEGER:
                    return None
                size += 17
            else:
                item = _plain_size(v, depth + 1)
                if item is None:
                    return None
                size += item
        return size
    if t is list:
        for v in value:
            tv = type(v)
            if tv is str:
                if v not in _PLAIN and not _plain_text(v, MAX_STRING_CHARS):
                    return None
                size += 6 * len(v) + 3
            elif tv is int:
                if not -MAX_SAFE_INTEGER <= v <= MAX_SAFE_INTEGER:
                    return None
                size += 18
            else:
                item = _plain_size(v, depth + 1)
                if item is None:
                    return None
                size += item + 1
        return size
    if t is float:
        return 32 if math.isfinite(value) else None
    return None  # a Mapping that is not a dict, a tuple, a subclass: the careful walk decides


def _plain_data(data: Any) -> bool:
    """The usual data: a dict of plain values, far under every limit (nothing for `data_problem` to word)."""
    if type(data) is not dict:
        return False
    bound = _plain_size(data, 1)
    return bound is not None and bound <= MAX_DATA_BYTES


def data_problem(data: Any, where: str) -> str | None:
    """Why an event's data breaks the limits, or None: not an object, too deep, too large, a bad value."""
    if _plain_data(data):
        return None
    if not isinstance(data, Mapping):
        return f"{where}: must be a JSON object"
    problem = json_problem(data, where)
    if problem is not None:
        return problem
    size = json_bytes(data)
    if size > MAX_DATA_BYTES:
        return f"{where}: {size} bytes as JSON, over {MAX_DATA_BYTES} (the limit)"
    return None


def check_string(value: Any, where: str, limit: int, *, empty: bool = False) -> None:
    """A string field of the envelope or the request (type, event_id, recorded_by, a player's id)."""
    if not isinstance(value, str):
        raise BadRequest(f"{where}: must be a string")
    if not value and not empty:
        raise BadRequest(f"{where}: must not be empty")
    problem = _string_problem(value, limit)
    if problem is not None:
        raise BadRequest(f"{where}: {problem}")


def check_data(data: Any, where: str = "data") -> None:
    problem = data_problem(data, where)
    if problem is not None:
        raise BadRequest(problem)


def check_event(type: Any, data: Any, event_id: Any = None, where: str = "") -> None:
    """An event as it comes in: its type, its data and its optional event_id (`where` prefixes the fields)."""
    # A type checked before, and an event_id of plain ASCII, pass without their places spelled out (an append's
    # and every imported line's check: most of its cost was wording places for refusals that did not come).
    if not (type.__class__ is str and 0 < len(type) <= MAX_TYPE_CHARS and type in _PLAIN):
        check_string(type, _at(where, "type"), MAX_TYPE_CHARS)
        if len(_PLAIN) < _PLAIN_MAX:
            _PLAIN.add(type)
    if event_id is not None and not (event_id.__class__ is str and 0 < len(event_id) <= MAX_EVENT_ID_CHARS
                                     and event_id.isascii() and "\x00" not in event_id):
        check_string(event_id, _at(where, "event_id"), MAX_EVENT_ID_CHARS)
    if type == "match_started" and isinstance(data, Mapping):
        check_match_started(data, _at(where, "data"))
    elif not _plain_data(data):
        check_data(data, _at(where, "data"))


def check_match_started(data: Mapping[str, Any], where: str = "") -> None:
    """What match_started adds to the data limits: `meta`'s size, and the players' ids and names, which
    go into VARCHAR columns. (Their shape — a list of {id, name} — is the game's to refuse, with a 422.)"""
    check_data(data, where or "data")
    if "meta" in data:
        size = json_bytes(data["meta"])
        if size > MAX_META_BYTES:
            raise BadRequest(f"{_at(where, 'meta')}: {size} bytes as JSON, over {MAX_META_BYTES} (the limit)")
    players = data.get("players")
    if not isinstance(players, list):
        return
    for i, p in enumerate(players):
        if not isinstance(p, Mapping):
            continue
        at = _at(_at(where, "players"), i)
        if isinstance(p.get("id"), str):
            check_string(p["id"], _at(at, "id"), MAX_PLAYER_ID_CHARS)
        if isinstance(p.get("name"), str):
            check_string(p["name"], _at(at, "name"), MAX_NAME_CHARS, empty=True)


def check_recorded_by(name: Any, where: str = "recorded_by") -> None:
    """Who recorded: a token's name, or an imported line's `recorded_by`."""
    check_string(name, where, MAX_NAME_CHARS, empty=True)


def is_match_id(value: str) -> bool:
    """Match ids are uuid4().hex: 32 lowercase hex digits. Any other id names no match."""
    return _MATCH_ID.fullmatch(value) is not None


__all__ = [
    "MAX_DATA_BYTES",
    "MAX_DEPTH",
    "MAX_EVENT_ID_CHARS",
    "MAX_KEY_CHARS",
    "MAX_META_BYTES",
    "MAX_NAME_CHARS",
    "MAX_PLAYER_ID_CHARS",
    "MAX_POSITION",
    "MAX_SAFE_INTEGER",
    "MAX_SEQ",
    "MAX_STRING_CHARS",
    "MAX_TYPE_CHARS",
    "check_data",
    "check_event",
    "check_match_started",
    "check_recorded_by",
    "check_string",
    "data_problem",
    "is_match_id",
    "json_bytes",
    "json_problem",
]
