"""A whole club season: 24 registered players, three tournaments of five rounds in three games (a Swiss of
High Five, tables of four at Tri-Ominos, tables of three at Hi-Spot), every table's match played by the seeded
random players and recorded through the store. Checked: pairings (no rematch in the Swiss, seats rotated and
few repeat meetings at the tables), standings against the matches' own results, ratings moving the way the
results say, and each tournament's archive stored again elsewhere with every hash.

Slow: a long seeded random run (some 150 matches, 15 s and more of a worker), run in CI and by
`make test-full`; the club's parts have their own quick tests (tests/domain/test_clubs_*.py,
tests/api/test_clubs_api.py, tests/system/test_demo_club.py)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from projections.registry import get_game
from recorder.facade import Scorebook

pytestmark = pytest.mark.slow

PLAYERS = [(f"m{i:02d}", f"Member {i:02d}") for i in range(24)]
# Short matches: a season's worth of tables in seconds.
SHORT = {"tri-ominos": {"target_score": 120}, "high-five": {"target_score": 30}, "hi-spot": {"target_score": 40}}
SEASON = [
    ("Autumn Swiss", "high-five", "swiss", 2),
    ("Winter tables", "tri-ominos", "tables", 4),
    ("Spring tables", "hi-spot", "tables", 3),
]


def _play_round(sb: Scorebook, tid: str, round_: int, seed: int) -> None:
    state = sb.clubs.tournament(tid)
    game = get_game(state.game)
    for table in state.round(round_).tables:
        match_id = sb.clubs.start_table(tid, round_, table.number, "director", SHORT[state.game])
        players = [{"id": p, "name": state.entrants[p].name} for p in table.seats]
        log = game.random_match(random.Random(seed * 1000 + round_ * 50 + table.number), players,
                                dict(SHORT[state.game]))
        sb.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:]], 1, "desk")


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Scorebook, dict[str, str], Path]:
    tmp = tmp_path_factory.mktemp("season")
    sb = Scorebook.open(f"sqlite:///{tmp / 'club.db'}")
    for pid, name in PLAYERS:
        sb.clubs.register_player(pid, name, "desk", club="Elm")
    tids = {}
    for n, (name, game, fmt, size) in enumerate(SEASON):
        tid = sb.clubs.create_tournament({"name": name, "game": game, "format": fmt, "rounds": 5,
                                          "table_size": size, "date": f"2026-{9 + n:02d}-01"}, "director")
        for pid, _ in PLAYERS:
            sb.clubs.enter(tid, pid, "director")
        for round_ in range(1, 6):
            sb.clubs.pair(tid, "director")
            _play_round(sb, tid, round_, n)
        sb.clubs.close(tid, "director")
        tids[game] = tid
    return sb, tids, tmp


def _tables(sb: Scorebook, tid: str) -> list[tuple[int, tuple[str, ...]]]:
    state = sb.clubs.tournament(tid)
    return [(r.number, t.seats) for r in state.paired for t in r.tables]


def test_every_round_was_played_and_every_result_taken(season: tuple[Scorebook, dict[str, str], Path]) -> None:
    sb, tids, _ = season
    for tid in tids.values():
        state = sb.clubs.tournament(tid)
        assert state.closed and state.current_round == 5
        assert all(t.result is not None for r in state.paired for t in r.tables)
        assert sb.clubs.tournament_json(tid)["missing_results"] == []


def test_the_swiss_has_no_rematch(season: tuple[Scorebook, dict[str, str], Path]) -> None:
    sb, tids, _ = season
    pairs = [frozenset(seats) for _, seats in _tables(sb, tids["high-five"])]
    assert len(pairs) == 5 * 12 and len(set(pairs)) == len(pairs)


@pytest.mark.parametrize("game, size", [("tri-ominos", 4), ("hi-spot", 3)])
def test_tables_rotate_seats_and_keep_repeat_meetings_few(season: tuple[Scorebook, dict[str, str], Path],
                                                          game: str, size: int) -> None:
    sb, tids, _ = season
    tables = _tables(sb, tids[game])
    assert all(len(seats) == size for _, seats in tables)
    first = Counter(seats[0] for _, seats in tables)
    counts = [first.get(pid, 0) for pid, _ in PLAYERS]
    assert max(counts) - min(counts) <= 2  # going first is spread over the season's five rounds
    met = Counter(frozenset(pair) for _, seats in tables for pair in combinations(seats, 2))
    repeats = sum(n - 1 for n in met.values())
    # each player meets 5 × (size − 1) others among 23: a few repeats are unavoidable with tables by standing,
    # but far fewer than the meetings themselves
    assert repeats <= len(met) // 4, (repeats, len(met))


def test_standings_are_the_matches_results(season: tuple[Scorebook, dict[str, str], Path]) -> None:
    """Match points recomputed from every table's match as the match itself scores it."""
    sb, tids, _ = season
    for tid in tids.values():
        state = sb.clubs.tournament(tid)
        expected: Counter[str] = Counter()
        game_points: Counter[str] = Counter()
        for rnd in state.paired:
            for p in rnd.byes:
                expected[p] += 1
            for t in rnd.tables:
                assert t.match_id is not None
                scores = sb.scores(t.match_id)
                assert scores["status"] == "finished"
                for w in scores["winners"]:
                    expected[w] += 1 / len(scores["winners"])
                for p in scores["players"]:
                    game_points[p["id"]] += p["score"]
        rows = sb.clubs.standings(tid)
        assert {r.player: r.match_points for r in rows} == pytest.approx({p: expected[p] for p, _ in PLAYERS})
        assert {r.player: r.game_points for r in rows} == {p: game_points[p] for p, _ in PLAYERS}
        points = [(r.match_points, r.buchholz) for r in rows]
        assert points == sorted(points, reverse=True)  # ordered by points, then Buchholz
        assert [r.rank for r in rows][0] == 1


def test_ratings_move_the_way_the_results_say(season: tuple[Scorebook, dict[str, str], Path]) -> None:
    """Each player's rating history, match by match in the order rated: a sole winner's mu goes up, a table's
    sole last (not among the winners, and no one else on its lowest total) goes down.

    Only a sole last: under Plackett-Luce a player tied for last with a higher-rated player gains (the tie says
    they played as well as someone rated above them), and who of the two is rated higher depends on the order
    the matches are rated in. That order is (date, match id), and every match of a tournament has the
    tournament's date, so within a tournament it is the order of the random (uuid4) match ids, which differs
    from run to run: a tied last went up in about one run in thirty."""
    sb, tids, _ = season
    for game, tid in tids.items():
        rated = sb.clubs.ratings(game)[game]
        assert set(rated.players) == {p for p, _ in PLAYERS}
        assert all(r.matches == 5 for r in rated.players.values())  # every player sat at a table each round
        results = {t.match_id: t.result for r in sb.clubs.tournament(tid).paired for t in r.tables}
        ups = downs = 0
        for p, points in rated.history.items():
            mu = 25.0
            for point in points:
                result = results[point.match_id]
                assert result is not None
                lowest = min(result.totals.values())
                sole_last = result.totals[p] == lowest and list(result.totals.values()).count(lowest) == 1
                if result.winners == (p,):
                    assert point.mu > mu, (p, point, result)
                    ups += 1
                elif sole_last and p not in result.winners:
                    assert point.mu < mu, (p, point, result)
                    downs += 1
                mu = point.mu
        assert ups and downs
        best = next(iter(rated.players))
        assert rated.players[best].ordinal == max(r.ordinal for r in rated.players.values())


def test_each_tournament_archive_is_stored_elsewhere_with_every_hash(
        season: tuple[Scorebook, dict[str, str], Path]) -> None:
    sb, tids, tmp = season
    with Scorebook.open(f"sqlite:///{tmp / 'elsewhere.db'}") as other:
        for tid in tids.values():
            text = sb.clubs.archive(tid)
            imported = other.clubs.import_archive(text, "other desk")
            assert imported["tournament_id"] == tid and not imported["existing"]
            assert other.clubs.streams.envelopes(tid) == sb.clubs.streams.envelopes(tid)
            assert [s.to_json() for s in other.clubs.standings(tid)] == [s.to_json() for s in sb.clubs.standings(tid)]
            for match_id in sb.clubs.tournament(tid).assigned:
                assert other.export_lines(match_id) == sb.export_lines(match_id)
            assert other.clubs.import_archive(text, "other desk")["existing"]
        assert other.verify_all().ok
