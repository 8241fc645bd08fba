"""PostgreSQL's pooled connections are checked without a round trip (recorder.sql.engine._postgres_liveness): one the
server has dropped (a restart, `pg_terminate_backend`, an idle timeout) is replaced before a request uses it,
so no request fails for it."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from recorder.facade import Scorebook
from tests.support.databases import admin
from tests.support.logs import START, launch, round_start

pytestmark = pytest.mark.postgres


def _pooled_pids(engine: Engine, n: int) -> set[int]:
    """Check out `n` connections at once (so the pool holds `n`) and give them back: their backends' pids."""
    conns = [engine.connect() for _ in range(n)]
    try:
        return {int(c.execute(text("SELECT pg_backend_pid()")).scalar_one()) for c in conns}
    finally:
        for c in conns:
            c.close()


def test_connections_the_server_dropped_are_replaced_before_a_request_uses_them(scorebook: Scorebook) -> None:
    if scorebook.engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL pool")
    match_id = scorebook.start_match(dict(START), "desk")["match_id"]
    scorebook.append(match_id, [round_start()], 1, "desk")
    dropped = _pooled_pids(scorebook.engine, 3)
    admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN ({', '.join(map(str, dropped))})")
    time.sleep(0.3)  # the server's goodbye reaches the idle sockets
    stored, replayed = scorebook.append(match_id, [launch("ann", 1, 5)], 2, "desk")
    assert stored[0]["seq"] == 3 and not replayed
    assert scorebook.summary(match_id)["seq"] == 3
    assert not (_pooled_pids(scorebook.engine, 3) & dropped)


def test_a_live_pooled_connection_is_kept(scorebook: Scorebook) -> None:
    if scorebook.engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL pool")
    first = _pooled_pids(scorebook.engine, 1)
    match_id = scorebook.start_match(dict(START), "desk")["match_id"]
    scorebook.append(match_id, [round_start()], 1, "desk")
    assert _pooled_pids(scorebook.engine, 1) == first

