"""The OpenAPI document, completed with what FastAPI cannot infer.

* The append body's events are typed: `events[]` is an `anyOf` of every game's events — `type` a
  constant, `data` a `$ref` to the event's data model — collected from the games' descriptors and the
  shared events, so /docs and /redoc show the real fields. (The route still takes any object as `data`;
  the store checks it against the match's game and names a misspelled field.)
* The start-a-match body is match_started's data model (with the optional `event_id`).
* FastAPI documents a 422 "Validation Error" for every route with parameters; this API answers a
  malformed request with 400 (`recorder.api.errors`), so those entries go. The 422s a route really
  answers (a rule broken) are documented by the route itself, with the ErrorBody model. An error body
  is JSON even on the route that answers JSON Lines (export).

Component names of event data models are `<game>.<Model>` (`hi-spot.TilePlaced`), the shared events'
`common.<Model>`, so two games may name their models alike.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI

from projections.protocol import EventSpec
from projections.registry import all_games
from projections.schemas import COMMON_EVENTS
from recorder.api.routers.events import APPEND_PATH

API_PREFIX = "/api"
REF = "#/components/schemas/"
EVENT_ID = {"type": "string", "minLength": 1, "maxLength": 128, "description": "client id for retries"}


class _Components:
    """Schemas added to components.schemas, renamed on a clash with a different schema."""

    def __init__(self, schemas: dict[str, Any]) -> None:
        self.schemas = schemas

    def add(self, name: str, schema: dict[str, Any]) -> str:
        candidate, n = name, 1
        while candidate in self.schemas and self.schemas[candidate] != schema:
            n += 1
            candidate = f"{name}{n}"
        self.schemas[candidate] = schema
        return candidate

    def add_model(self, prefix: str, spec: EventSpec) -> str:
        """The data model of `spec` (and the models it uses) as components; returns the model's name."""
        model = spec.data
        schema = model.model_json_schema(ref_template=f"{REF}{prefix}.{{model}}")
        for name, sub in schema.pop("$defs", {}).items():
            # A nested model's name is fixed by the ref_template: a clash here would break the refs.
            if self.schemas.get(f"{prefix}.{name}", sub) != sub:
                raise ValueError(f"{prefix}: two data models named {name}")
            self.schemas[f"{prefix}.{name}"] = sub
        schema.setdefault("description", spec.summary)
        return self.add(f"{prefix}.{model.__name__}", schema)


def _event_branch(prefix: str, spec: EventSpec, model: str) -> dict[str, Any]:
    return {
        "title": f"{prefix}: {spec.type}",
        "description": spec.summary,
        "type": "object",
        "properties": {
            "type": {"const": spec.type},
            "data": {"$ref": REF + model},
            "event_id": EVENT_ID,
        },
        "required": ["type", "data"],
        "additionalProperties": False,
        "examples": [{"type": spec.type, "data": spec.example}],
    }


def event_groups() -> list[tuple[str, tuple[EventSpec, ...]]]:
    """(prefix, specs): the shared events a match may carry after its start, then each game's."""
    common = tuple(spec for spec in COMMON_EVENTS if spec.type != "match_started")
    return [("common", common), *((g.name, g.descriptor.events) for g in all_games())]


def _operations(schema: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for path in schema.get("paths", {}).values():
        for method, op in path.items():
            if method in {"get", "put", "post", "delete", "patch", "head", "options", "trace"}:
                yield op


def _json_body(op: dict[str, Any]) -> dict[str, Any]:
    content: dict[str, Any] = op["requestBody"]["content"]["application/json"]
    return content


def _fix_error_responses(schema: dict[str, Any]) -> None:
    """Drop FastAPI's validation 422s; an error body is JSON even where the route answers JSON Lines."""
    for op in _operations(schema):
        answers = op.get("responses", {})
        for status, answer in list(answers.items()):
            content = answer.get("content", {})
            if status == "422" and content.get("application/json", {}).get("schema", {}).get("$ref", "").endswith(
                "/HTTPValidationError"
            ):
                del answers[status]
            elif status[:1] in "45" and content and "application/json" not in content:
                answer["content"] = {"application/json": next(iter(content.values()))}
    _drop_unused(schema, "HTTPValidationError", "ValidationError")


def _drop_unused(schema: dict[str, Any], *names: str) -> None:
    components = schema.get("components", {}).get("schemas", {})
    for name in names:
        if name not in components:
            continue
        rest = {k: v for k, v in components.items() if k != name}
        text = json.dumps({"paths": schema.get("paths"), "schemas": rest})
        if f'"{REF}{name}"' not in text:
            del components[name]


def document_events(schema: dict[str, Any]) -> None:
    """Type the append body's events and the start-a-match body (see the module's docstring)."""
    components = _Components(schema.setdefault("components", {}).setdefault("schemas", {}))
    branches: list[dict[str, Any]] = []
    examples: list[dict[str, Any]] = []
    for prefix, specs in event_groups():
        for spec in specs:
            branches.append(_event_branch(prefix, spec, components.add_model(prefix, spec)))
            if prefix != "common" and spec.turn and spec.example and not examples:  # a real move, with fields
                examples.append({"expected_seq": 2, "events": [{"type": spec.type, "data": spec.example}]})

    append = schema["paths"][API_PREFIX + APPEND_PATH]["post"]
    body = _json_body(append)
    name = body["schema"]["$ref"].removeprefix(REF)  # AppendIn
    append_in = copy.deepcopy(components.schemas[name])
    append_in["properties"]["events"]["items"] = {"anyOf": branches}
    if examples:
        append_in["examples"] = examples
    components.schemas[name] = append_in
    _drop_unused(schema, "EventIn")

    start = next(spec for spec in COMMON_EVENTS if spec.type == "match_started")
    start_in = copy.deepcopy(components.schemas[components.add_model("common", start)])
    start_in["title"] = "MatchStartIn"
    start_in["description"] = "match_started's data; with an `event_id`, a retried start answers the match it started"
    start_in["properties"]["event_id"] = EVENT_ID
    start_in["examples"] = [start.example]
    components.add("MatchStartIn", start_in)
    _json_body(schema["paths"][API_PREFIX + "/matches"]["post"])["schema"] = {"$ref": REF + "MatchStartIn"}


def install(app: FastAPI) -> None:
    """Replace `app.openapi` by FastAPI's document completed as the module's docstring says."""
    base: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = base()  # FastAPI's, cached on the app: completed in place, once
            _fix_error_responses(schema)
            document_events(schema)
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]
