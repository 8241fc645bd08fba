"""PostgreSQL for the tests: SCOREBOOK_TEST_POSTGRES names the server; each test gets its own schema, so
parallel workers and tests never see each other's rows (the fixtures are in tests/conftest.py)."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.engine import Engine

from recorder.sql.engine import make_engine

POSTGRES_URL = os.environ.get("SCOREBOOK_TEST_POSTGRES")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def admin(sql: str) -> None:
    """Run `sql` on the PostgreSQL server outside any test's schema."""
    assert POSTGRES_URL
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as conn:
        conn.execute(text(sql))
    engine.dispose()


def postgres_engine(schema: str) -> Engine:
    """A new schema `schema` and an engine whose URL reaches it."""
    assert POSTGRES_URL
    admin(f'CREATE SCHEMA "{schema}"')
    # The schema goes in the URL (psycopg's `options`), so that the URL alone reaches the same tables.
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    return make_engine(url.render_as_string(hide_password=False))
