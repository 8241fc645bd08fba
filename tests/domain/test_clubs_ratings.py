"""Ratings per game (openskill Plackett-Luce): ranks, order, merges, determinism."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from openskill.models import PlackettLuce

from projections.clubs.ratings import (
    BETA,
    MU,
    SIGMA,
    TAU,
    MatchResult,
    ordinal,
    ranking,
    ratings,
    results_from_facts,
)
from projections.stats import MatchFacts


def match(n: int, players: tuple[str, ...], totals: dict[str, int], winners: tuple[str, ...],
          game: str = "tri-ominos", date: str = "2025-03-01") -> MatchResult:
    return MatchResult(f"m{n:03d}", game, date, players, totals, winners)


def club_season(seed: int = 7, count: int = 40) -> list[MatchResult]:
    """`ace` wins every match; the others' totals are drawn at random."""
    rng = random.Random(seed)
    others = ["bo", "cy", "dee", "ed", "fay"]
    results = []
    for n in range(count):
        seated = ("ace", *rng.sample(others, rng.randint(1, 3)))
        totals = {p: rng.randint(0, 200) for p in seated}
        totals["ace"] = 300
        results.append(match(n, seated, totals, ("ace",), date=f"2025-03-{1 + n % 28:02d}"))
    return results


def test_the_ranks_of_a_match() -> None:
    m = match(1, ("a", "b", "c", "d", "e"), {"a": 10, "b": 50, "c": 30, "d": 30, "e": 5}, ("b",))
    assert ranking(m) == (("a", "b", "c", "d", "e"), [3, 1, 2, 2, 4])
    shared = match(2, ("a", "b", "c"), {"a": 9, "b": 9, "c": 1}, ("a", "b"))
    assert ranking(shared) == (("a", "b", "c"), [1, 1, 2])
    no_total = match(3, ("a", "b", "c"), {"a": 9}, ("b",))
    assert ranking(no_total) == (("a", "b", "c"), [2, 1, 3])
    # two ids of one person count once, with the better place
    assert ranking(m, lambda p: "c" if p == "e" else p) == (("a", "b", "c", "d"), [3, 1, 2, 2])


def test_one_match_as_openskill_rates_it() -> None:
    result = ratings([match(1, ("ann", "bo"), {"ann": 10, "bo": 5}, ("ann",))])
    game = result["tri-ominos"]
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
    [[ann], [bo]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    assert (game.players["ann"].mu, game.players["ann"].sigma) == (ann.mu, ann.sigma)
    assert game.players["bo"].mu == bo.mu < MU < ann.mu
    assert game.players["ann"].ordinal == ordinal(ann.mu, ann.sigma) == pytest.approx(ann.mu - 3 * ann.sigma)
    assert list(game.players) == ["ann", "bo"]


def test_a_player_who_always_wins_rates_highest() -> None:
    game = ratings(club_season())["tri-ominos"]
    best = max(game.players, key=lambda p: game.players[p].ordinal)
    assert best == "ace" == next(iter(game.players))
    ordinals = [r.ordinal for r in game.players.values()]
    assert ordinals == sorted(ordinals, reverse=True)


def test_history_has_one_point_per_match_played() -> None:
    season = club_season()
    game = ratings(season)["tri-ominos"]
    played = Counter(p for m in season for p in m.players)
    for pid, rating in game.players.items():
        assert rating.matches == played[pid] == len(game.history[pid])
        last = game.history[pid][-1]
        assert (last.mu, last.sigma, last.ordinal) == (rating.mu, rating.sigma, rating.ordinal)
    dates = [(h.date, h.match_id) for h in game.history["ace"]]
    assert dates == sorted(dates)  # matches taken in order of (date, match id)


def test_the_same_matches_give_the_same_ratings_in_any_order() -> None:
    season = club_season()
    first = ratings(season)
    assert ratings(season) == first
    shuffled = season[:]
    random.Random(1).shuffle(shuffled)
    assert ratings(shuffled) == first
    assert ratings(season + season[:5]) == first  # a match id counts once
    assert first["tri-ominos"].to_json() == ratings(club_season())["tri-ominos"].to_json()


def test_a_merged_ids_matches_count_for_the_kept_id() -> None:
    season = [match(1, ("old", "bo"), {"old": 9, "bo": 1}, ("old",), date="2025-01-01"),
              match(2, ("new", "bo"), {"new": 9, "bo": 1}, ("new",), date="2025-01-02"),
              match(3, ("old", "new"), {"old": 9, "new": 1}, ("old",), date="2025-01-03")]  # one person: skipped
    game = ratings(season, canonical=lambda p: "new" if p == "old" else p)["tri-ominos"]
    assert set(game.players) == {"new", "bo"}
    assert game.players["new"].matches == 2 and [h.match_id for h in game.history["new"]] == ["m001", "m002"]
    apart = ratings(season)["tri-ominos"]
    assert apart.players["old"].matches == 2 and apart.players["new"].matches == 2
    # as one player, two wins over bo: a higher rating than either id's alone after its one win over bo
    assert game.players["new"].mu > apart.history["new"][0].mu


def test_each_game_is_rated_apart() -> None:
    season = [match(1, ("a", "b"), {"a": 2, "b": 1}, ("a",), game="hi-spot"),
              match(2, ("a", "b"), {"a": 1, "b": 2}, ("b",), game="hats-off")]
    result = ratings(season)
    assert list(result) == ["hats-off", "hi-spot"]
    assert result["hi-spot"].players["a"].mu > MU > result["hats-off"].players["a"].mu
    assert ratings([]) == {}


def facts(match_id: str, finished: bool) -> MatchFacts:
    return MatchFacts(match_id=match_id, game="high-five", date="2025-05-05", players=(("a", "Ann"), ("b", "Bo")),
                      finished=finished, winners=("b",) if finished else (), totals={"a": 3, "b": 7},
                      first_player="a", moves=10, events=12, rounds=1, turn_points={})


def test_results_from_facts_keep_finished_matches() -> None:
    assert results_from_facts([facts("x", True), facts("y", False)]) == [
        MatchResult("x", "high-five", "2025-05-05", ("a", "b"), {"a": 3, "b": 7}, ("b",))]
