"""Databases for the store tests: SQLite always, PostgreSQL when SCOREBOOK_TEST_POSTGRES names one.

With SCOREBOOK_TEST_POSTGRES set, an unreachable server fails the run rather than skipping it.
Each PostgreSQL test gets its own schema, so parallel workers and tests never see each other's rows.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from recorder.facade import Scorebook
from recorder.sql.engine import make_engine
from recorder.sql.migrate import upgrade
from recorder.store.matches import EventStore
from tests.support.databases import BACKENDS, POSTGRES_URL, admin, postgres_engine


@pytest.fixture(params=BACKENDS)
def bare_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database (no schema yet), on each backend."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'scorebook.db'}")
        yield engine
        engine.dispose()
        return
    if not POSTGRES_URL:
        pytest.skip("SCOREBOOK_TEST_POSTGRES is not set")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine = postgres_engine(schema)
    try:
        yield engine
    finally:
        engine.dispose()
        admin(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def bare_url(bare_engine: Engine) -> str:
    """The URL of `bare_engine`'s database, for what opens it by URL (the CLI, Scorebook.open)."""
    return bare_engine.url.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database file that Alembic brought to head, once per process (each xdist worker): what a new
    SQLite `engine` starts from."""
    path = tmp_path_factory.mktemp("migrated") / "scorebook.db"
    template = make_engine(f"sqlite:///{path}")
    upgrade(template)
    template.dispose()  # every connection closed: the WAL is checkpointed into the file and removed
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def engine(bare_engine: Engine, migrated_sqlite: Path) -> Engine:
    """A database at head, on each backend. On SQLite a copy of `migrated_sqlite` (a file copy instead of
    Alembic's dozen migrations, about 60 ms a test); PostgreSQL's schema is migrated for each test."""
    if bare_engine.dialect.name == "sqlite" and bare_engine.url.database:
        bare_engine.dispose()
        shutil.copyfile(migrated_sqlite, bare_engine.url.database)
        return bare_engine
    upgrade(bare_engine)
    return bare_engine


@pytest.fixture
def store(engine: Engine) -> EventStore:
    return EventStore(engine)


@pytest.fixture
def scorebook(engine: Engine) -> Scorebook:
    """The Python API on a migrated database, on each backend."""
    return Scorebook.from_engine(engine)
