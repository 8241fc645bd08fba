"""The OpenAPI document matches the answers: a short deterministic schemathesis run
against a live server, without a token and with a recorder's and an admin's token, finds no 5xx and no
answer whose status, content type or body the document does not describe.

Every operation gets the same fixed number of cases (positive and negative), a derandomized Hypothesis
run with no example database: 40 in CI, 15 outside it (`FUZZ_EXAMPLES` sets the count, for a longer probe);
most match ids are those of demo matches, so that the routes past the 404 are reached. Failures are collected
over the whole run and listed together, each with its curl command. SQLite and PostgreSQL.

Marked slow (a minute or more even at 15 cases): CI's full run and `make test-full` run it, the quick run and
a local `make test` leave it out. schemathesis is imported when the run starts, not when the module is
collected: every pytest worker collects this module, and the import costs about a second.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from recorder.demo import record_demo
from recorder.facade import Scorebook
from scorebook.app import build_app
from tests.support.servers import served

# Per operation, mode and token: 40 in CI's full run; 15 outside CI (`make test-full`), as 40 alone took near
# four minutes on a slow machine.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40" if os.environ.get("CI") else "15"))


def _ndjson(_: Any, value: Any) -> bytes:
    """The import body as sent: a string as is (lone surrogates too), anything else as JSON."""
    text = value if isinstance(value, str) else json.dumps(value)
    return text.encode("utf-8", errors="surrogatepass")


def _checks() -> list[Any]:
    """schemathesis's checks, schemathesis imported (once) with the import body's serializer registered."""
    import schemathesis
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    schemathesis.serializer("application/x-ndjson")(_ndjson)
    return [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@dataclass
class Live:
    url: str
    match_ids: list[str]
    tokens: dict[str, str]  # role -> token
    token_ids: set[int]


@pytest.fixture
def live(bare_url: str) -> Iterator[Live]:
    """A server on a database with one demo match per game, a recorder's and an admin's token."""
    sb = Scorebook.open(bare_url, session_secret="s" * 32)
    record_demo(sb, 1, seed=7)
    tokens = {role: sb.create_token(f"fuzz-{role}", role) for role in ("recorder", "admin")}
    token_ids = {t["id"] for t in sb.list_tokens()}
    match_ids = [m["match_id"] for m in sb.matches(limit=100)[0]]
    try:
        with served(build_app(sb), log_level="critical") as url:
            yield Live(url, match_ids, tokens, token_ids)
    finally:
        sb.close()


def _summary(case: Any, status: int, error: BaseException) -> str:
    from schemathesis.core.failures import FailureGroup

    found = list(error.exceptions) if isinstance(error, FailureGroup) else [error]
    titles = "; ".join(getattr(f, "title", type(f).__name__) for f in found)
    return f"{case.method} {case.operation.path} -> {status}: {titles}\n    {case.as_curl_command()[:1500]}"


def _run(live: Live, token: str | None) -> list[str]:
    checks = _checks()
    import schemathesis
    from schemathesis import GenerationMode
    from schemathesis.core.failures import FailureGroup

    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        has_match_id = any(p.name == "match_id" for p in operation.path_parameters)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies = [operation.as_strategy(generation_mode=mode)]
            if has_match_id:
                strategies += [
                    operation.as_strategy(generation_mode=mode, path_parameters={"match_id": m})
                    for m in live.match_ids[:3]
                ]

            @settings(
                max_examples=EXAMPLES,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=st.one_of(strategies))
            def check(case: Any) -> None:
                if case.method.upper() == "DELETE" and (case.path_parameters or {}).get("token_id") in (
                    live.token_ids
                ):
                    return  # revoking the run's own tokens would leave the rest of it unauthorized
                if case.path.endswith("/stream"):  # an event stream lasts until told otherwise (docs/LIVE.md)
                    case.query = {**(case.query or {}), "timeout": 0.05}
                response = case.call(base_url=live.url, headers=headers, timeout=30)
                try:
                    case.validate_response(response, checks=checks, headers=headers)
                except (FailureGroup, AssertionError) as e:  # a failed check: kept, the run goes on
                    failures.append(_summary(case, response.status_code, e))

            try:
                check()
            except Unsatisfiable:  # nothing to negate (a route without parameters or body)
                assert mode is GenerationMode.NEGATIVE, operation.label
    return failures


@pytest.mark.slow
@pytest.mark.parametrize("bare_engine", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
def test_every_answer_is_documented_and_none_is_a_server_error(live: Live) -> None:
    failures = []
    for role in (None, "recorder", "admin"):
        failures += _run(live, live.tokens[role] if role else None)
    assert not failures, f"{len(failures)} undocumented answers:\n" + "\n".join(sorted(set(failures)))
