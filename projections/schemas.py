"""Typed models of event data: the events every game shares, the base every game's models extend, and
the checks and JSON Schemas built from a game's descriptor.

The models describe the fields and their JSON types; the rules (is the corner right, is it your turn)
stay in each game's `rules.py`, which answers in the table's words. A live append is checked here for
fields the event does not have, so a misspelled field is named instead of silently ignored.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from projections.protocol import EventSpec, Game
from projections.registry import GAME_NAMES


class EventData(BaseModel):
    """The base of every event's data model: unknown fields are refused, by name."""

    model_config = ConfigDict(extra="forbid")


class PlayerEntry(EventData):
    id: str = Field(min_length=1, description="stable id, used in every later event")
    name: str | None = Field(default=None, description="display name; the id when missing")


class MatchStarted(EventData):
    game: str = Field(description=f"{', '.join(GAME_NAMES[:-1])} or {GAME_NAMES[-1]}")
    players: list[PlayerEntry] = Field(description="clockwise seat order")
    options: dict[str, Any] = Field(default_factory=dict, description="ruleset options; missing ones take defaults")
    meta: dict[str, Any] = Field(default_factory=dict, description="tournament, round, table, date …")
    rules_version: int | None = Field(
        default=None,
        description="the rules version the match is played under (GET /api/games lists the published ones); "
        "left out, the server records the game's current version; a match recorded without one plays version 1",
    )
    bag: Literal["committed"] | None = Field(
        default=None,
        description='"committed": a digital bag — the server deals every draw from a shuffle fixed by a secret seed '
        "and reveals the seed when the match ends (Tri-Ominos, High Five, Hi-Spot)",
    )
    bag_commitment: str | None = Field(
        default=None, description="written by the server with bag \"committed\": the SHA-256 of the bag's seed"
    )


class Note(EventData):
    text: str
    about_seq: int | None = Field(default=None, description="an earlier seq this note is about")
    correction: bool | None = Field(
        default=None, description="true: a request for the referee to correct the event about_seq (open until a "
        "rewind covers that event or a note resolves it)")
    resolves: int | None = Field(
        default=None, description="the seq of a correction request this note closes without a rewind (a referee's)")


class Rewind(EventData):
    to_seq: int = Field(description="the match continues from the state after this seq")
    reason: str


class MatchAbandoned(EventData):
    reason: str = Field(description="why the match stops here: it takes no more game events")


class BagRevealed(EventData):
    seed: str = Field(description="the committed bag's seed, 64 hex digits: its SHA-256 is match_started's "
                      "bag_commitment, and it re-derives every draw")


COMMON_EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "match_started",
        MatchStarted,
        "The first event of every match: the game, the players in seat order, options, meta.",
        {"game": "hats-off", "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}],
         "options": {"target_score": 50}, "meta": {"tournament": "Autumn club night", "table": 4}},
    ),
    EventSpec("note", Note, "An annotation; changes nothing.", {"text": "Bo asks for a ruling", "about_seq": 7}),
    EventSpec(
        "rewind",
        Rewind,
        "A referee's correction: play continues from the state after to_seq; the events between are superseded.",
        {"to_seq": 12, "reason": "tile 3-4-5 was placed on the wrong cell"},
    ),
    EventSpec(
        "match_abandoned",
        MatchAbandoned,
        "A referee's decision: the match stops unfinished; no game event is taken after it (notes and rewinds are), "
        "and it counts in no statistics, standings or ratings. A rewind to before it lets the match go on.",
        {"reason": "Bo was taken ill"},
    ),
    EventSpec(
        "bag_revealed",
        BagRevealed,
        "Recorded by the server after the event that ends a match with a committed bag: the seed every draw came from.",
        {"seed": "5f0c" * 16},
    ),
)
_COMMON = {spec.type: spec for spec in COMMON_EVENTS}


def event_spec(game: Game[Any] | None, type: str) -> EventSpec | None:
    """The spec of `type` for `game` (the shared events for any game), or None when unknown."""
    if type in _COMMON:
        return _COMMON[type]
    if game is None or type not in game.event_types:
        return None
    return game.descriptor.event(type)


def unknown_fields(spec: EventSpec, data: Any) -> list[str]:
    """The fields of `data` that `spec`'s model does not have, as dotted paths (`to.hole.numbr`)."""
    if not isinstance(data, dict):
        return []
    try:
        spec.data.model_validate(data)
    except ValidationError as e:
        found = []
        for err in e.errors():
            if err["type"] != "extra_forbidden":
                continue
            # A union's branch shows up in the location as its model's name: not a field of the data.
            parts = [str(p) for p in err["loc"] if not (isinstance(p, str) and p[:1].isupper())]
            path = ".".join(parts)
            if path not in found:
                found.append(path)
        return found
    return []


# Data found to hold no unknown field, as (the event's model, the data's canonical JSON text): the same text is
# the same data, so the same answer, without validating it again (most of an append's own checking). Bounded:
# emptied when full.
_CLEAN: set[tuple[type[BaseModel], str]] = set()
CLEAN_MAX = 8192


def unknown_field_problem(game: Game[Any] | None, type: str, data: Any, text: str | None = None) -> str | None:
    """A sentence naming the first misspelled or unknown field of an event's data, or None. `text`: the data's
    canonical JSON text, when the caller has it (an answer found clean is then remembered by it)."""
    spec = event_spec(game, type)
    if spec is None:
        return None  # an unknown type is the fold's to refuse
    if text is not None and (spec.data, text) in _CLEAN:
        return None
    extra = unknown_fields(spec, data)
    if not extra:
        if text is not None:
            if len(_CLEAN) >= CLEAN_MAX:
                _CLEAN.clear()
            _CLEAN.add((spec.data, text))
        return None
    fields = ", ".join(spec.data.model_fields) or "none"
    return f"{type}: unknown field {extra[0]!r} (the fields of {type} are: {fields})"


def data_schema(spec: EventSpec) -> dict[str, Any]:
    schema = spec.data.model_json_schema()
    schema.setdefault("description", spec.summary)
    schema["examples"] = [spec.example]
    return schema


def game_schema(game: Game[Any]) -> dict[str, Any]:
    """JSON Schema of every event's data for `game`, the shared events included."""
    specs = (*COMMON_EVENTS, *game.descriptor.events)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.descriptor.title} events",
        "game": game.name,
        "events": {spec.type: data_schema(spec) for spec in specs},
    }


def game_summary(game: Game[Any]) -> dict[str, Any]:
    """What GET /api/games says of a game: players, options with their defaults, event types, the current rules
    version and every published one."""
    d = game.descriptor
    return {
        "name": d.name,
        "title": d.title,
        "min_players": d.min_players,
        "max_players": d.max_players,
        "options": {name: opt.json_schema() for name, opt in d.options.items()},
        "events": [
            {"type": spec.type, "summary": spec.summary, "fields": list(spec.data.model_fields),
             "example": spec.example, "turn": spec.turn, "hidden": [h.path for h in spec.hidden]}
            for spec in (*COMMON_EVENTS, *d.events)
        ],
        "schema": f"/api/games/{d.name}/schema",
        "rules_version": game.rules_version,
        "rules_versions": [{"number": n, "summary": g.rules.summary} for n, g in game.published.items()],
    }
