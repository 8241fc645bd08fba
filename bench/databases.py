"""The databases a benchmark runs on: SQLite in a temporary folder, and PostgreSQL too when
SCOREBOOK_TEST_POSTGRES names a server (each run in its own schema, dropped afterwards)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, make_url, text


@contextmanager
def database(backend: str, folder: str, name: str) -> Iterator[str]:
    """The URL of a new, empty database on `backend` ("sqlite" or "postgresql")."""
    if backend == "sqlite":
        yield f"sqlite:///{Path(folder) / f'{name}.db'}"
        return
    server = os.environ["SCOREBOOK_TEST_POSTGRES"]
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield make_url(server).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get("SCOREBOOK_TEST_POSTGRES") else ["sqlite"]
