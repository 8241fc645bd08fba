"""Ratings per game from every finished match (docs/TOURNAMENTS.md "Ratings"), tournament or not.

openskill's Plackett-Luce model (a Bayesian rating for matches of any number of players: each player's
skill is a mean `mu` and an uncertainty `sigma`), with its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300.
The rating shown is the ordinal mu − 3·sigma: a skill the player is very likely above, so a newcomer starts at
0 and climbs as the matches make the model surer.

A match ranks its players: the winners first (rank 1, a draw among them), the others by their totals, higher
first, equal totals sharing a rank. Matches are taken in order of (date, match id); a match id seen twice
counts once. Players are counted under their registry id (`canonical`: merges followed); a match
left with fewer than 2 distinct players is skipped, and a player named twice in one match (two ids of one
person) counts once, with the better of their places.

Deterministic: only mu and sigma are carried from match to match (never openskill's random rating ids), so
the same matches always give the same ratings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from projections.stats import MatchFacts

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
Z = 3.0  # ordinal = mu - Z * sigma


def _same(pid: str) -> str:
    return pid


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    game: str
    date: str  # ISO day
    players: tuple[str, ...]  # ids, seat order
    totals: Mapping[str, int]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    ordinal: float  # mu - 3·sigma: the rating shown
    matches: int

    def to_json(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "matches": self.matches}


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating just after one match."""

    match_id: str
    date: str
    mu: float
    sigma: float
    ordinal: float

    def to_json(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "date": self.date, "mu": self.mu, "sigma": self.sigma,
                "ordinal": self.ordinal}


@dataclass(frozen=True)
class GameRatings:
    game: str
    players: Mapping[str, Rating]  # highest ordinal first, then by id
    history: Mapping[str, tuple[RatingPoint, ...]]  # per player, one point per match rated, in order

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [{"player": p, **r.to_json()} for p, r in self.players.items()],
            "history": {p: [h.to_json() for h in points] for p, points in self.history.items()},
        }


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def results_from_facts(facts: Iterable[MatchFacts]) -> list[MatchResult]:
    """The finished matches among `facts`, as the ratings read them."""
    return [
        MatchResult(f.match_id, f.game, f.date, tuple(pid for pid, _ in f.players), dict(f.totals), tuple(f.winners))
        for f in facts
        if f.finished
    ]


def ranking(result: MatchResult, canonical: Callable[[str], str] = _same) -> tuple[tuple[str, ...], list[int]]:
    """(the match's distinct players under their canonical ids, seat order; their ranks, 1 best)."""
    winners = {canonical(p) for p in result.winners}
    best: dict[str, int | None] = {}  # player -> their best total (None: no total given)
    for pid in result.players:
        c = canonical(pid)
        total = result.totals.get(pid)
        held = best.get(c)
        best[c] = total if held is None else held if total is None else max(held, total)
    others = sorted({t for p, t in best.items() if p not in winners and t is not None}, reverse=True)
    place = {t: i for i, t in enumerate(others, start=2)}
    last = len(others) + 2  # a player without a total ranks after every total
    players = tuple(best)
    ranks = [1 if p in winners else place[t] if (t := best[p]) is not None else last for p in players]
    return players, ranks


def ratings(results: Iterable[MatchResult], canonical: Callable[[str], str] = _same) -> dict[str, GameRatings]:
    """Each game's ratings (games by name) after every match of `results`, in order of (date, match id)."""
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
    ordered = sorted(results, key=lambda r: (r.date, r.match_id))
    seen: set[str] = set()
    current: dict[str, dict[str, tuple[float, float, int]]] = {}  # game -> player -> (mu, sigma, matches)
    history: dict[str, dict[str, list[RatingPoint]]] = {}
    for result in ordered:
        if result.match_id in seen:
            continue
        seen.add(result.match_id)
        players, ranks = ranking(result, canonical)
        if len(players) < 2:
            continue
        now = current.setdefault(result.game, {})
        teams = [[model.rating(mu=now.get(p, (MU, SIGMA, 0))[0], sigma=now.get(p, (MU, SIGMA, 0))[1])]
                 for p in players]
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        for pid, [after] in zip(players, rated, strict=True):
            now[pid] = (after.mu, after.sigma, now.get(pid, (MU, SIGMA, 0))[2] + 1)
            point = RatingPoint(result.match_id, result.date, after.mu, after.sigma, ordinal(after.mu, after.sigma))
            history.setdefault(result.game, {}).setdefault(pid, []).append(point)
    answer = {}
    for game in sorted(current):
        table = {p: Rating(mu, sigma, ordinal(mu, sigma), n) for p, (mu, sigma, n) in current[game].items()}
        order = sorted(table, key=lambda p: (-table[p].ordinal, p))
        answer[game] = GameRatings(
            game,
            {p: table[p] for p in order},
            {p: tuple(history[game][p]) for p in order},
        )
    return answer
