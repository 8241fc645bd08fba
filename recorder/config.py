"""Where the database is: `--db`, else SCOREBOOK_DATABASE_URL, else a SQLite file in ./var."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_SQLITE_PATH = Path("var") / "scorebook.db"


def database_url(explicit: str | None = None) -> str:
    url = explicit or os.environ.get("SCOREBOOK_DATABASE_URL")
    if url:
        if "://" not in url:  # a bare path means a SQLite file
            return f"sqlite:///{url}"
        if url.startswith("postgresql://"):  # psycopg 3 is the driver we ship
            return "postgresql+psycopg://" + url.removeprefix("postgresql://")
        return url
    DEFAULT_SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{DEFAULT_SQLITE_PATH}"
