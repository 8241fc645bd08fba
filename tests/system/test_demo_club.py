"""`make run` seeds an empty database with demo matches and a demo club: registered players and a finished
Swiss, so the tournaments, ratings and player pages have something to show."""

from __future__ import annotations

from pathlib import Path

from recorder.demo import PLAYERS, seed_if_empty
from recorder.facade import Scorebook


def test_an_empty_database_gets_demo_matches_and_a_finished_demo_tournament(tmp_path: Path) -> None:
    with Scorebook.open(f"sqlite:///{tmp_path / 'demo.db'}") as sb:
        made = seed_if_empty(sb, 1)
        assert made == 4
        assert [p.id for p in sb.clubs.club_players()] == [p["id"] for p in PLAYERS]
        [tournament] = sb.clubs.tournaments()
        state = sb.clubs.tournament(tournament["id"])
        assert state.closed and state.current_round == 3
        assert sb.clubs.tournament_json(tournament["id"])["missing_results"] == []
        assert sum(s.match_points for s in sb.clubs.standings(tournament["id"])) == 9  # 3 tables a round
        assert set(sb.clubs.ratings("hats-off")["hats-off"].players) == {p["id"] for p in PLAYERS}
        assert seed_if_empty(sb, 1) == 0 and len(sb.clubs.tournaments()) == 1  # a database in use is left alone
