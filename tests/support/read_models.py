"""Matches for the read-model tests: a few seeded random matches of every game imported, the facts a fresh fold
gives, and facts by match id."""

from __future__ import annotations

import random

from projections.registry import GAME_NAMES, get_game
from projections.stats import MatchFacts, match_date, match_facts
from recorder.facade import Scorebook
from recorder.log.file import format_time, import_lines

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]


def club(sb: Scorebook, per_game: int = 2) -> list[str]:
    ids = []
    for game_name in GAME_NAMES:
        game = get_game(game_name)
        for seed in range(per_game):
            log = game.random_match(random.Random(seed), PLAYERS[: game.descriptor.min_players + seed % 2], None)
            log[0] = {**log[0], "data": {**log[0]["data"], "meta": {"date": f"2026-10-0{seed + 1}"}}}
            ids.append(sb.import_log(import_lines(log), "desk")["match_id"])
    return ids


def expected(sb: Scorebook, match_id: str) -> MatchFacts:
    """The facts folded now, straight from the log: what the read model must hold."""
    summary = sb.summary(match_id)
    return match_facts(sb.fold(match_id), match_id, match_date(summary["meta"], format_time(_created(sb, match_id))))


def _created(sb: Scorebook, match_id: str) -> object:
    from recorder.sql.tables import Match

    with sb.engine.connect() as conn:
        from sqlmodel import Session

        with Session(bind=conn) as s:
            match = s.get(Match, match_id)
            assert match is not None
            return match.created_at


def by_id(facts: list[MatchFacts]) -> dict[str, MatchFacts]:
    return {f.match_id: f for f in facts}
