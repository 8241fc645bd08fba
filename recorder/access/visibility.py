"""Who sees the hidden tiles of a match (hands, racks, draws: each game's descriptor names them).

- A finished match: everything, to everyone.
- A match in progress, to a referee or an admin (token or sign-in session): everything.
- A match in progress, to a recorder whose name recorded one of its events (`recorded_by`, the match's
  creator included): everything — they sit at that table.
- A match in progress, to anyone else (no token, a recorder of other matches): the redacted view
  (projections/redaction.py): hidden tiles are null.

The Python API and the CLI have the database itself, so they read with `EVERYTHING` unless told otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from projections.redaction import FULL, SPECTATOR, View
from projections.registry import GAME_NAMES, get_game
from projections.timeline import Fold
from recorder.access.auth import Principal
from recorder.sql.tables import Match, StoredEvent


@dataclass(frozen=True)
class Viewer:
    """Who reads: a principal (None: nobody signed in), or `everything` for readers with database access."""

    principal: Principal | None = None
    everything: bool = False


EVERYTHING = Viewer(everything=True)
ANONYMOUS = Viewer()


def reader(who: Principal | None) -> Viewer:
    """The viewer behind a request's token or session (None: a spectator)."""
    return Viewer(who)


def sees_everything_always(viewer: Viewer) -> bool:
    """A viewer who sees every match's tiles, whoever recorded it (no database look-up needed)."""
    return viewer.everything or (viewer.principal is not None and viewer.principal.may("referee"))


def view_of(engine: Engine, match_id: str, fold: Fold[Any], viewer: Viewer) -> View:
    """What `viewer` may see of the match `match_id` whose current fold is `fold`."""
    if sees_everything_always(viewer) or fold.finished or not fold.game.descriptor.has_hidden_information:
        return FULL
    who = viewer.principal
    if who is not None and recorded_any(engine, who.name, [match_id]):
        return FULL
    return SPECTATOR


def recorded_any(engine: Engine, name: str, match_ids: Iterable[str]) -> set[str]:
    """The matches among `match_ids` with an event recorded by `name`."""
    ids = sorted(set(match_ids))
    if not ids:
        return set()
    with Session(engine) as s:
        q = select(StoredEvent.match_id).where(col(StoredEvent.match_id).in_(ids), StoredEvent.recorded_by == name)
        return set(s.exec(q.distinct()))


def redacted_matches(engine: Engine, match_ids: Iterable[str], viewer: Viewer) -> dict[str, str]:
    """The matches among `match_ids` that `viewer` reads redacted (in progress, of a game with hidden
    tiles, not recorded by them), with their game. Read from the matches table (its status and game), so
    that following every match's events costs two queries a page, not a fold per match."""
    ids = sorted(set(match_ids))
    if not ids or sees_everything_always(viewer):
        return {}
    hiding = {name for name in GAME_NAMES if get_game(name).descriptor.has_hidden_information}
    with Session(engine) as s:
        q = select(Match.id, Match.game).where(
            col(Match.id).in_(ids), Match.status != "finished", col(Match.game).in_(hiding)
        )
        redacted = {match_id: game for match_id, game in s.exec(q)}
    if viewer.principal is not None:
        for match_id in recorded_any(engine, viewer.principal.name, redacted):
            del redacted[match_id]
    return redacted
