"""Matches for the snapshot tests: a seeded random in-progress match of each game, a store that takes a snapshot
every EVERY events signed with SECRET (as after a restart: an empty fold cache), and reads of what is stored."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from projections.registry import get_game
from projections.timeline import Fold
from recorder.demo import PLAYERS
from recorder.sql.tables import MatchSnapshot
from recorder.store.matches import EventStore

SECRET = "the server's secret, for these tests"
EVERY = 10
LENGTH = 57
GAMES = ["tri-ominos", "high-five", "hi-spot", "hats-off"]


@cache
def log_of(game_name: str, length: int = LENGTH) -> tuple[dict[str, Any], ...]:
    """A seeded random legal match of `game_name`, cut to `length` events (an in-progress match)."""
    game = get_game(game_name)
    for seed in range(1, 40):
        log = game.random_match(random.Random(seed), PLAYERS[:3], {})
        if len(log) >= length:
            return tuple(log[:length])
    raise AssertionError(f"no {game_name} match of {length} events")


def new_store(engine: Engine, secret: str = SECRET) -> EventStore:
    """A store on `engine` with an empty fold cache: as after a restart."""
    return EventStore(engine, snapshot_every=EVERY, snapshot_secret=secret)


def snapshot_seqs(engine: Engine, match_id: str) -> list[int]:
    with Session(engine) as s:
        return list(s.exec(select(MatchSnapshot.seq).where(MatchSnapshot.match_id == match_id)
                           .order_by(col(MatchSnapshot.seq))).all())


def as_json(fold: Fold[Any]) -> Any:
    return fold.game.to_json(fold.state)


def full_hash(engine: Engine, match_id: str, seq: int) -> str:
    with engine.connect() as conn:
        return str(conn.execute(text("SELECT hash FROM events WHERE match_id = :m AND seq = :s"),
                                {"m": match_id, "s": seq}).scalar_one())
