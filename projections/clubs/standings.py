"""A tournament's standings, read off its settled tables and byes (docs/TOURNAMENTS.md "Standings").

- **Match points**: a table's win is worth `scoring.win` (1), shared equally by joint winners; everyone else
  at the table, forfeiters included, gets 0. A bye is worth `scoring.bye` (1) and 0 game points. A player
  the forfeits leave alone at a table wins it.
- **Game points**: the player's match totals, summed.
- **Spread**: at each table with a result, the player's total minus the mean of the other players' totals
  there; summed exactly over the tables, then rounded to a whole number (halves away from zero) at the end,
  so rounding never piles up.
- **Buchholz**: the current match points of every opponent met (everyone seated at a table with the
  player, a forfeit too; once per meeting), summed; a bye meets nobody.
- **Order**: match points, Buchholz, game points, spread (each higher first), then the player id, so the
  order is always the same. Two players share a rank only when all but the id are equal.

Everything is counted exactly (fractions) and given as numbers at the end: the same events always give the
same standings. `canonical` maps a tournament's ids to the registry's (merges followed).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from projections.clubs.tournament import Tournament, missing_results

__all__ = ["Standing", "missing_results", "standing_order", "standings"]


def _same(pid: str) -> str:
    return pid


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    name: str
    match_points: float
    game_points: int
    spread: int
    buchholz: float
    played: int  # settled tables the player did not forfeit (a win by the others' forfeit counts)
    byes: int
    withdrawn: bool

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "name": self.name, "match_points": self.match_points,
                "game_points": self.game_points, "spread": self.spread, "buchholz": self.buchholz,
                "played": self.played, "byes": self.byes, "withdrawn": self.withdrawn}


@dataclass
class _Tally:
    """One player's sums while the rounds are read (local to `standings`, never shared)."""

    name: str
    active: bool = False
    match_points: Fraction = Fraction(0)
    game_points: int = 0
    spread: Fraction = Fraction(0)
    played: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def _rounded(x: Fraction) -> int:
    """To the nearest whole number, halves away from zero (Python's `round` sends halves to the even one)."""
    whole = math.floor(abs(x) + Fraction(1, 2))
    return whole if x >= 0 else -whole


def standings(state: Tournament, canonical: Callable[[str], str] = _same) -> list[Standing]:
    """Every entrant (withdrawn ones too, marked), best first."""
    tallies: dict[str, _Tally] = {}
    for pid, entrant in state.entrants.items():
        kept = canonical(pid)
        tally = tallies.setdefault(kept, _Tally(entrant.name))
        tally.active = tally.active or not entrant.withdrawn
        if pid == kept:  # merged entries stand under the kept id's own name
            tally.name = entrant.name

    def of(pid: str) -> _Tally:
        return tallies.setdefault(canonical(pid), _Tally(pid))  # every seated player has entered: a guard

    win, bye = Fraction(state.scoring.win), Fraction(state.scoring.bye)
    for rnd in state.paired:
        for pid in rnd.byes:
            of(pid).match_points += bye
            of(pid).byes += 1
        for table in rnd.tables:
            for pid in table.seats:
                me = canonical(pid)
                of(pid).opponents.extend(o for o in map(canonical, table.seats) if o != me)
            if not table.settled:
                continue
            winners = table.winners
            for pid in winners:
                of(pid).match_points += win / len(winners)
            for pid in table.present:
                of(pid).played += 1
            if table.result is not None:
                totals = table.result.totals
                for pid, total in totals.items():
                    others = [v for q, v in totals.items() if q != pid]
                    of(pid).game_points += total
                    of(pid).spread += total - Fraction(sum(others), len(others))

    rows = []
    for pid, t in tallies.items():
        buchholz = sum((tallies[o].match_points for o in t.opponents), Fraction(0))
        rows.append((t.match_points, buchholz, t.game_points, _rounded(t.spread), pid, t))
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2], -r[3], r[4]))
    result: list[Standing] = []
    last: tuple[Fraction, Fraction, int, int] | None = None
    for i, (mp, bh, gp, spread, pid, t) in enumerate(rows):
        key = (mp, bh, gp, spread)
        rank = result[-1].rank if key == last else i + 1
        last = key
        result.append(Standing(rank, pid, t.name, float(mp), gp, spread, float(bh), t.played, t.byes, not t.active))
    return result


def standing_order(state: Tournament, canonical: Callable[[str], str] = _same) -> list[str]:
    """The players' ids best first (the pairing's order from round 2 on)."""
    return [s.player for s in standings(state, canonical)]
