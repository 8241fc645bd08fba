"""Ruleset options: defaults, types, and the players list every `match_started` carries."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from projections.errors import IllegalEvent

Check = Callable[[Any], str | None]  # an error message, or None when the value is fine


# JSON Schemas of the checks below, so a game's options can be published (GET /api/games).
_SCHEMAS: dict[Check, dict[str, Any]] = {}


def _with_schema(check: Check, schema: dict[str, Any]) -> Check:
    _SCHEMAS[check] = schema
    return check


@dataclass(frozen=True)
class Option:
    default: Any
    check: Check
    description: str = ""
    schema: dict[str, Any] | None = None  # JSON Schema of the value; derived from `check` when it is ours

    def json_schema(self) -> dict[str, Any]:
        schema = self.schema or _SCHEMAS.get(self.check, {})
        return {**schema, "default": self.default, "description": self.description}


def is_int(v: Any) -> TypeGuard[int]:
    """A JSON integer: Python's bool is an int, but `true` is not a number."""
    return isinstance(v, int) and not isinstance(v, bool)


def positive_int(v: Any) -> str | None:
    return None if is_int(v) and v > 0 else "must be a positive integer"


def non_negative_int(v: Any) -> str | None:
    return None if is_int(v) and v >= 0 else "must be an integer ≥ 0"


def boolean(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def one_of(*choices: Any) -> Check:
    def check(v: Any) -> str | None:
        return None if v in choices else "must be one of " + ", ".join(map(str, choices))

    return _with_schema(check, {"enum": list(choices)})


def int_list(length: int) -> Check:
    def check(v: Any) -> str | None:
        ok = isinstance(v, list) and len(v) == length and all(is_int(x) and x >= 0 for x in v)
        return None if ok else f"must be a list of {length} integers ≥ 0"

    schema = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": length, "maxItems": length}
    return _with_schema(check, schema)


_with_schema(positive_int, {"type": "integer", "minimum": 1})
_with_schema(non_negative_int, {"type": "integer", "minimum": 0})
_with_schema(boolean, {"type": "boolean"})


def parse_options(given: Any, spec: Mapping[str, Option], game: str) -> dict[str, Any]:
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise IllegalEvent("options must be a JSON object")
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise IllegalEvent(f"unknown option {unknown[0]!r} for {game}; known: {', '.join(sorted(spec))}")
    options = {}
    for name, opt in spec.items():
        if name in given:
            problem = opt.check(given[name])
            if problem:
                raise IllegalEvent(f"option {name} {problem} (got {given[name]!r})")
            options[name] = given[name]
        else:
            options[name] = opt.default
    return options


@dataclass(frozen=True)
class Player:
    id: str
    name: str


def parse_players(data: Mapping[str, Any], game: str, low: int, high: int) -> tuple[Player, ...]:
    raw = data.get("players")
    if not isinstance(raw, list):
        raise IllegalEvent("players must be a list of {id, name}")
    if not low <= len(raw) <= high:
        raise IllegalEvent(f"{game} is played by {low} to {high} players, not {len(raw)}")
    players = []
    for p in raw:
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not p["id"]:
            raise IllegalEvent("every player needs a non-empty string id")
        name = p.get("name", p["id"])
        if not isinstance(name, str):
            raise IllegalEvent(f"player {p['id']}'s name must be a string")
        players.append(Player(p["id"], name or p["id"]))
    ids = [p.id for p in players]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup is not None:
        raise IllegalEvent(f"player id {dup!r} appears twice")
    return tuple(players)


def player_seat(players: Sequence[Player], data: Mapping[str, Any], what: str) -> int:
    """The seat of the event's `player` field, or a refusal naming the players."""
    pid = data.get("player")
    if type(pid) is str:  # the usual case, without `require`'s call; anything else is refused by it
        for i, p in enumerate(players):
            if p.id == pid:
                return i
    pid = require(data, "player", str, what)
    for i, p in enumerate(players):
        if p.id == pid:
            return i
    raise IllegalEvent(f"{what}: unknown player {pid!r}; players: {', '.join(p.id for p in players)}")


def require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    """A field of an event's data, of the right JSON type, or a refusal naming it."""
    value = data.get(key)
    if type(value) is kind:  # the usual case in one test (a bool is never taken for an int: its type is bool)
        return value
    if key not in data:
        raise IllegalEvent(f"{what}: missing {key!r}")
    value = data[key]
    if isinstance(value, bool) and kind is int:
        raise IllegalEvent(f"{what}: {key} must be an integer")
    if not isinstance(value, kind):
        raise IllegalEvent(f"{what}: {key!r} has the wrong type ({value!r})")
    return value
