"""What every store of hash-chained streams shares: matches (recorder/store/matches.py) and club streams
(recorder/store/streams.py) are two kinds of one thing, a stream of events under a head row, and write through
one append path per database (recorder/sql/append.py says how it locks on each): the stores of one database in
one process share it, so that on SQLite their writers take their turns in one queue.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine

from recorder.sql.append import Appender
from recorder.sql.postgres import PostgresAppender
from recorder.sql.sqlite import SqliteAppender


def appender(engine: Engine) -> Appender:
    """The append path of `engine`'s database (recorder/sql/sqlite.py, recorder/sql/postgres.py)."""
    return SqliteAppender(engine) if engine.dialect.name == "sqlite" else PostgresAppender(engine)


class ChainedStore:
    """A store of one kind of hash-chained stream. Its appends take the writer's transaction of `writer` (the
    database's append path): given the one another store of the database has, they take their turns with its."""

    def __init__(self, engine: Engine, writer: Appender | None = None) -> None:
        self.engine = engine
        self._sql = writer if writer is not None else appender(engine)

    @property
    def writer(self) -> Appender:
        """The database's append path this store writes through (another store of the database may share it)."""
        return self._sql

    def close(self) -> None:
        """Give back the connection appends keep (recorder/sql/sqlite.py); the store stays usable."""
        self._sql.close()
