"""The next round's pairing (docs/TOURNAMENTS.md "Pairing"): a `round_paired` event's data, the same for the
same tournament every time (no lot is drawn: every tie is broken by the standings, then the player id).

The standing order is the entry order for round 1, then `standings.standing_order` (match points, Buchholz,
game points, spread, id). Withdrawn players are left out; late entrants stand where their points put them.

- **swiss** (2 a table): top-down, each player meets the highest-placed player they have not met yet, as
  long as the others can still be paired without a rematch; a rematch happens only when every pairing of the
  round has one, and then as few as can be. (This is the pairing a backtracking search finds; a maximum
  matching of the "have not met" graph, Edmonds' blossom algorithm, says at each step how few rematches the
  rest needs, so no search is made and a round of a hundred players takes a fraction of a second.) With an
  odd count the bye goes to a player with the fewest byes so far, the one whose bye leaves the fewest
  rematches, then the lowest-placed.
- **tables** (3 to 8): as many full tables as fit; the rest spread so that no table seats fewer than the
  game's minimum (byes, to the lowest-placed with the fewest byes, only if no spread fits). Tables are filled
  down the standings (table 1 the top group), then players of neighbouring tables are swapped, the best swap
  first, while a swap lowers the number of repeat meetings (pairs of players who have shared a table before,
  counted once per earlier meeting).
- **Seats**: seat 0 goes to whoever has sat in seat 0 least often, seat 1 to whoever of the rest has sat in
  seat 1 least often, and so on; ties go to the lower-placed player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from projections.clubs.standings import standing_order
from projections.clubs.tournament import TOURNAMENT, Tournament, missing_results
from projections.errors import IllegalEvent

Pair = tuple[str, str]
Seating = tuple[list[tuple[str, ...]], list[str]]  # (each table's seats, the byes)


def pair_key(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class History:
    """What earlier rounds say about the players: meetings, byes, seats."""

    met: Mapping[Pair, int]  # times each pair (sorted ids) shared a table
    byes: Mapping[str, int]
    seats: Mapping[str, Mapping[int, int]]  # player -> seat position -> times sat there

    @classmethod
    def of(cls, state: Tournament) -> History:
        met: Counter[Pair] = Counter()
        byes: Counter[str] = Counter()
        seats: dict[str, Counter[int]] = {}
        for rnd in state.paired:
            byes.update(rnd.byes)
            for table in rnd.tables:
                met.update(pair_key(a, b) for a, b in combinations(table.seats, 2))
                for position, pid in enumerate(table.seats):
                    seats.setdefault(pid, Counter())[position] += 1
        return cls(met, byes, seats)

    def times_met(self, a: str, b: str) -> int:
        return self.met.get(pair_key(a, b), 0)

    def times_in_seat(self, pid: str, position: int) -> int:
        return self.seats.get(pid, {}).get(position, 0)


def order(state: Tournament) -> list[str]:
    """The players still in, best first: entry order before round 1, then the standings."""
    active = set(state.active)
    if state.current_round == 0:
        return list(state.active)
    return [p for p in standing_order(state) if p in active]


def pair_next_round(state: Tournament) -> dict[str, Any]:
    """The data of the next `round_paired` (by_hand false), or IllegalEvent saying why it cannot be paired."""
    what = "pairing"
    if state.closed:
        raise IllegalEvent(f"{what}: the tournament is closed")
    number = state.current_round + 1
    if number > state.rounds:
        raise IllegalEvent(f"{what}: all {state.rounds} rounds are paired")
    missing = missing_results(state)
    if missing:
        waiting = "; ".join(f"table {t} ({', '.join(s)})" for _, t, s in missing)
        raise IllegalEvent(f"{what}: round {state.current_round} is not complete; no result yet at {waiting}")
    players = order(state)
    history = History.of(state)
    if state.format == "swiss":
        tables, byes = swiss(players, history)
    else:
        tables, byes = table_groups(players, history, state.min_players, state.table_size)
    return {
        "round": number,
        "tables": [{"table": n, "seats": list(seats)} for n, seats in enumerate(tables, start=1)],
        "byes": list(byes),
        "by_hand": False,
    }


def check_by_hand(state: Tournament, data: Mapping[str, Any]) -> list[str]:
    """Refuse a hand-made pairing the tournament would refuse (IllegalEvent, as `round_paired` does); else the
    repeat meetings it holds, in words (allowed, but worth a second look)."""
    TOURNAMENT.handlers["round_paired"](state, data)
    history = History.of(state)
    notes = []
    for raw in data["tables"]:
        for a, b in combinations(raw["seats"], 2):
            times = history.times_met(a, b)
            if times:
                notes.append(f"table {raw['table']}: {a} and {b} have met {times} time{'s' * (times > 1)} before")
    return notes


def _bye_candidates(players: Sequence[str], history: History) -> list[str]:
    """Lowest-placed first among those with the fewest byes."""
    return sorted(reversed(players), key=lambda p: history.byes.get(p, 0))


# --- swiss ---------------------------------------------------------------------------------------------


def swiss(players: Sequence[str], history: History) -> Seating:
    """(tables' seats, byes) for a Swiss round of `players` (best first)."""
    if len(players) < 2:
        raise IllegalEvent("pairing: a round needs at least 2 players still in")
    index = {p: i for i, p in enumerate(players)}
    fresh = [[index[q] for q in players if q != p and not history.times_met(p, q)] for p in players]
    matching = _Matching.of(fresh)
    byes: list[str] = []
    if len(players) % 2 == 1:
        # the fewest byes first, then the fewest rematches left for the others, then the lowest-placed
        candidates = _bye_candidates(players, history)
        without = {c: matching.without(index[c]) for c in candidates}
        bye = min(candidates, key=lambda c: (history.byes.get(c, 0), without[c].rematches))  # `min`: the first
        byes, matching = [bye], without[bye]
    pairs = _top_down([index[p] for p in players if p not in byes], matching, history, players)
    return [(players[a], players[b]) if _first(players[a], players[b], history) else (players[b], players[a])
            for a, b in pairs], byes


def _first(a: str, b: str, history: History) -> bool:
    """Whether `a` (placed above `b`) sits first: only if they have sat first fewer times (a tie: `b` does)."""
    return history.times_in_seat(a, 0) < history.times_in_seat(b, 0)


def _top_down(left: list[int], matching: _Matching, history: History,
              players: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs of player indices (0 the best placed): the highest-placed unpaired player takes the highest-placed
    opponent they have not met, then those met (fewest meetings first), but only while the others can still be
    paired with no more rematches than the fewest the round allows (what a full backtracking search would find,
    without its search: `matching` says at once how few rematches the rest needs)."""
    allowed = matching.rematches
    pairs = []
    while left:
        top, rest = left[0], left[1:]
        new = set(matching.adjacent[top])
        options = [q for q in rest if q in new]
        options += sorted((q for q in rest if q not in new), key=lambda q: history.times_met(players[top], players[q]))
        for q in options:
            cost = q not in new
            after = matching.without(top, q)
            if cost <= allowed and after.rematches <= allowed - cost:
                break
        else:  # the matching always leaves one: `allowed` was reached by some pairing
            raise AssertionError("no pairing within the fewest rematches")
        pairs.append((top, q))
        left = [p for p in rest if p != q]
        matching, allowed = after, allowed - cost
    return pairs


class _Matching:
    """A maximum matching of the "have not met" graph among the players still to pair (Edmonds' blossom
    algorithm): the players it leaves unmatched must meet someone again, so `rematches` is the fewest a pairing
    of those players can have. Players are indices; `without` gives the matching once some are paired."""

    def __init__(self, adjacent: list[list[int]], alive: list[bool], mate: list[int], size: int) -> None:
        self.adjacent, self.alive, self.mate, self.size = adjacent, alive, mate, size

    @classmethod
    def of(cls, adjacent: list[list[int]]) -> _Matching:
        n = len(adjacent)
        matching = cls(adjacent, [True] * n, [-1] * n, 0)
        for v in range(n):
            if matching.mate[v] == -1:
                matching._augment(v)
        return matching

    @property
    def rematches(self) -> int:
        return sum(self.alive) // 2 - self.size

    def without(self, *gone: int) -> _Matching:
        """The matching once the players `gone` are paired: their partners are matched anew where they can be.
        (An augmenting path left after that would have been one before, so only those partners are tried.)"""
        m = _Matching(self.adjacent, self.alive[:], self.mate[:], self.size)
        exposed = []
        for v in gone:
            m.alive[v] = False
            u = m.mate[v]
            if u != -1:
                m.mate[u] = m.mate[v] = -1
                m.size -= 1
                exposed.append(u)
        for u in exposed:
            if m.alive[u] and m.mate[u] == -1:
                m._augment(u)
        return m

    def _augment(self, root: int) -> None:
        """Match `root` along an augmenting path, if there is one (a breadth-first search shrinking blossoms)."""
        n, adjacent, alive, mate = len(self.adjacent), self.adjacent, self.alive, self.mate
        parent, base = [-1] * n, list(range(n))
        used = [False] * n
        used[root] = True
        queue = [root]

        def common_base(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adjacent[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    b = common_base(v, to)
                    blossom = [False] * n
                    mark(v, b, to, blossom)
                    mark(to, b, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = b
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:  # an unmatched player: flip the path back to the root
                        while to != -1:
                            before = mate[parent[to]]
                            mate[to], mate[parent[to]] = parent[to], to
                            to = before
                        self.size += 1
                        return
                    used[mate[to]] = True
                    queue.append(mate[to])


# --- tables --------------------------------------------------------------------------------------------


def table_sizes(count: int, low: int, high: int) -> tuple[list[int], int]:
    """(table sizes, largest first, and how many byes) seating `count` players `low` to `high` a table: as many
    full tables as fit, the others as full as they can be, byes only when no such spread exists."""
    for byes in range(count + 1):
        seated = count - byes
        tables = -(-seated // high)  # the fewest tables: any more would only make them emptier
        if tables == 0 or tables * low > seated:
            continue
        short = tables * high - seated  # seats left empty, taken off the last tables
        reduced = 0 if short == 0 else -(-short // (high - low))
        cut, extra = divmod(short, reduced) if reduced else (0, 0)
        smaller = sorted((high - cut - (i < extra) for i in range(reduced)), reverse=True)
        return [high] * (tables - reduced) + smaller, byes
    raise IllegalEvent(f"pairing: a round needs at least {low} players still in")


def table_groups(players: Sequence[str], history: History, low: int, high: int) -> Seating:
    """(tables' seats, byes) for a round at tables of `low` to `high` of `players` (best first)."""
    sizes, bye_count = table_sizes(len(players), low, high)
    byes = _bye_candidates(players, history)[:bye_count]
    seated = [p for p in players if p not in byes]
    groups, start = [], 0
    for size in sizes:
        groups.append(seated[start:start + size])
        start += size
    groups = fewer_repeats(groups, history)
    place = {p: i for i, p in enumerate(players)}
    return [seat_order(sorted(g, key=place.__getitem__), history) for g in groups], byes


def repeats(group: Sequence[str], history: History) -> int:
    """Earlier meetings between the players of `group` (a pair that met twice counts 2)."""
    return sum(history.times_met(a, b) for a, b in combinations(group, 2))


def fewer_repeats(groups: list[list[str]], history: History) -> list[list[str]]:
    """`groups` after swapping players of neighbouring tables, the swap that lowers the repeat meetings most
    first (the first found on a tie), until no swap lowers them."""
    groups = [list(g) for g in groups]
    met = history.times_met
    while True:
        # ties[t][p]: p's earlier meetings with the players of table t (p's own table and its neighbours')
        ties = [{p: sum(met(p, x) for x in group) for near in groups[max(t - 1, 0):t + 2] for p in near}
                for t, group in enumerate(groups)]
        best: tuple[int, int, int, int] | None = None  # (change in repeats, table index, index of a, index of b)
        for t in range(len(groups) - 1):
            here, there = ties[t], ties[t + 1]
            for i, a in enumerate(groups[t]):
                for j, b in enumerate(groups[t + 1]):
                    # b takes a's seat here, a takes b's there; the pair a-b itself is counted in both `ties`
                    delta = here[b] - here[a] + there[a] - there[b] - 2 * met(a, b)
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, t, i, j)
        if best is None:
            return groups
        _, t, i, j = best
        groups[t][i], groups[t + 1][j] = groups[t + 1][j], groups[t][i]


def seat_order(group: Sequence[str], history: History) -> tuple[str, ...]:
    """`group` (best first) seated: each seat in turn to whoever has sat there least; ties to the lower-placed."""
    left = list(reversed(group))  # lower-placed first, so `min` breaks ties their way
    seats = []
    for position in range(len(group)):
        chosen = min(left, key=lambda p: history.times_in_seat(p, position))
        left.remove(chosen)
        seats.append(chosen)
    return tuple(seats)
