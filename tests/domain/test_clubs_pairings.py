"""Pairing the next round: Swiss without rematches, tables with few repeat meetings, byes and seats spread."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.clubs.pairings import (
    History,
    check_by_hand,
    order,
    pair_next_round,
    seat_order,
    swiss,
    table_groups,
    table_sizes,
)
from projections.clubs.tournament import TOURNAMENT, Tournament
from projections.errors import IllegalEvent
from projections.events import Event

Pairer = Callable[[Tournament], dict[str, Any]]


def apply(state: Tournament, type: str, data: dict[str, Any]) -> Tournament:
    return TOURNAMENT.apply(state, Event(state.current_round + 2, type, data))


def tournament(players: int, fmt: str = "swiss", size: int = 2, rounds: int = 5,
               game: str = "tri-ominos") -> Tournament:
    state = TOURNAMENT.start({"name": "Club night", "game": game, "format": fmt, "rounds": rounds, "table_size": size})
    for i in range(players):
        state = apply(state, "player_entered", {"player": f"p{i:02d}", "name": f"Player {i}"})
    return state


def play_round(state: Tournament, rng: random.Random, strength: Callable[[str], int] = lambda p: 0) -> Tournament:
    """Every table of the last round played: totals drawn around each player's strength, the best total wins."""
    rnd = state.round(state.current_round)
    for table in rnd.tables:
        match_id = f"r{rnd.number}t{table.number}"
        state = apply(state, "match_assigned", {"round": rnd.number, "table": table.number, "match_id": match_id})
        totals = {p: strength(p) + rng.randint(0, 60) for p in table.seats}
        best = max(totals.values())
        winners = [p for p in table.seats if totals[p] == best]
        state = apply(state, "result_taken", {"round": rnd.number, "table": table.number, "match_id": match_id,
                                              "totals": totals, "winners": winners})
    return state


def run(state: Tournament, seed: int = 0, pairer: Pairer = pair_next_round,
        strength: Callable[[str], int] = lambda p: 0) -> Tournament:
    """Every round paired (each pairing checked by the reducer) and played."""
    rng = random.Random(seed)
    while state.current_round < state.rounds:
        data = pairer(state)
        assert pairer(state) == data  # the same state, the same pairing
        state = apply(state, "round_paired", data)
        state = play_round(state, rng, strength)
    return state


def meetings(state: Tournament) -> Counter[tuple[str, str]]:
    return Counter((min(a, b), max(a, b)) for r in state.paired for t in r.tables for a, b in combinations(t.seats, 2))


def repeat_meetings(state: Tournament) -> int:
    return sum(n - 1 for n in meetings(state).values())


def first_seats(state: Tournament) -> list[int]:
    firsts = Counter(t.seats[0] for r in state.paired for t in r.tables)
    return [firsts[p] for p in state.entrants]


def strong_first(pid: str) -> int:
    """p00 the strongest, then p01 …: the same players keep finishing together (the hard case for repeats)."""
    return 100 - 4 * int(pid[1:])


# --- swiss ---------------------------------------------------------------------------------------------


def test_round_one_pairs_in_entry_order_lower_placed_first() -> None:
    data = pair_next_round(tournament(4))
    assert data == {"round": 1, "byes": [], "by_hand": False,
                    "tables": [{"table": 1, "seats": ["p01", "p00"]}, {"table": 2, "seats": ["p03", "p02"]}]}


@pytest.mark.parametrize("seed", range(4))
def test_a_swiss_of_eight_over_five_rounds_has_no_rematch(seed: int) -> None:
    state = run(tournament(8), seed, strength=strong_first if seed % 2 else lambda p: 0)
    assert state.current_round == 5
    assert max(meetings(state).values()) == 1
    assert all(len(t.seats) == 2 for r in state.paired for t in r.tables)
    assert max(first_seats(state)) - min(first_seats(state)) <= 1  # 5 rounds: each sits first 2 or 3 times


@pytest.mark.parametrize("seed", range(4))
def test_a_swiss_of_seven_gives_each_bye_to_another_player(seed: int) -> None:
    state = run(tournament(7), seed, strength=strong_first if seed % 2 else lambda p: 0)
    byes = [p for r in state.paired for p in r.byes]
    assert len(byes) == 5 and len(set(byes)) == 5
    assert max(meetings(state).values()) == 1


def test_the_bye_goes_to_the_lowest_placed_without_one() -> None:
    state = tournament(5, rounds=2)
    state = apply(state, "round_paired", pair_next_round(state))
    assert state.round(1).byes == ("p04",)  # round 1: the last entrant
    state = play_round(state, random.Random(3))
    standing = order(state)
    data = pair_next_round(state)
    assert data["byes"] == [next(p for p in reversed(standing) if p != "p04")]


def test_backtracking_avoids_a_rematch_top_down_pairing_would_make() -> None:
    # top-down, a takes b and leaves c and d, who have met; backtracking pairs a-c and b-d instead
    history = History(met={("c", "d"): 1}, byes={}, seats={})
    tables, byes = swiss(["a", "b", "c", "d"], history)
    assert sorted(tuple(sorted(t)) for t in tables) == [("a", "c"), ("b", "d")]
    assert byes == []


def test_a_rematch_only_when_every_pairing_has_one_and_as_few_as_can_be() -> None:
    state = run(tournament(4, rounds=4))  # 4 players have 3 rounds of new opponents
    assert repeat_meetings(state) == 2  # round 4: both tables are rematches, no fewer is possible
    assert max(meetings(state).values()) == 2


def test_an_odd_bye_skips_a_player_whose_bye_would_force_a_rematch() -> None:
    # e is the lowest-placed, but a has met b, c and d: every pairing of a, b, c, d has a rematch, so d gets it
    history = History(met={("a", "b"): 1, ("a", "c"): 1, ("a", "d"): 1}, byes={}, seats={})
    tables, byes = swiss(["a", "b", "c", "d", "e"], history)
    assert byes == ["d"]
    assert all(history.times_met(*t) == 0 for t in tables)


def test_the_player_who_sat_first_less_goes_first() -> None:
    history = History(met={}, byes={}, seats={"a": {0: 1}, "b": {0: 2}})
    assert swiss(["a", "b"], history)[0] == [("a", "b")]
    assert swiss(["b", "a"], History(met={}, byes={}, seats={}))[0] == [("a", "b")]  # tie: the lower-placed


def reference(players: list[str], history: History) -> list[tuple[str, str]] | None:
    """The pairing a plain backtracking search finds: top-down, unmet opponents first in placing order, then met
    ones (fewest meetings first), no rematch if any pairing has none, else one, … (exponential: small fields)."""
    def go(left: tuple[str, ...], allowed: int) -> list[tuple[str, str]] | None:
        if not left:
            return []
        top, rest = left[0], left[1:]
        for j in sorted(range(len(rest)), key=lambda j: history.times_met(top, rest[j])):
            cost = history.times_met(top, rest[j]) > 0
            if cost > allowed:
                break
            sub = go(rest[:j] + rest[j + 1:], allowed - cost)
            if sub is not None:
                return [(top, rest[j]), *sub]
        return None

    for allowed in range(len(players) // 2 + 1):
        found = go(tuple(players), allowed)
        if found is not None:
            return found
    return None


def rematches(pairs: list[tuple[str, str]], history: History) -> int:
    return sum(history.times_met(a, b) > 0 for a, b in pairs)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 10), st.data())
def test_swiss_pairs_as_an_exhaustive_search_would(n: int, data: st.DataObject) -> None:
    players = [f"p{i}" for i in range(n)]
    pairs = list(combinations(players, 2))
    met = data.draw(st.dictionaries(st.sampled_from(pairs), st.integers(1, 3), max_size=len(pairs)))
    byes = data.draw(st.dictionaries(st.sampled_from(players), st.integers(1, 2)))
    history = History(met=met, byes=byes, seats={})
    tables, given_byes = swiss(players, history)
    rest = players
    if n % 2:
        # the fewest byes, then the fewest rematches left, then the lowest-placed
        def key(c: str) -> tuple[int, int, int]:
            left = reference([p for p in players if p != c], history)
            assert left is not None
            return (byes.get(c, 0), rematches(left, history), -players.index(c))
        bye = min(players, key=key)
        assert given_byes == [bye]
        rest = [p for p in players if p != bye]
    expected = reference(rest, history)
    assert expected is not None
    assert [set(t) for t in tables] == [set(pair) for pair in expected]


# --- tables --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "low", "high", "sizes", "byes"),
    [
        (24, 2, 4, [4, 4, 4, 4, 4, 4], 0),
        (7, 2, 4, [4, 3], 0),
        (5, 2, 4, [3, 2], 0),
        (9, 2, 4, [4, 3, 2], 0),
        (13, 2, 6, [6, 4, 3], 0),
        (5, 3, 4, [4], 1),
        (7, 3, 4, [4, 3], 0),
        (11, 3, 3, [3, 3, 3], 2),
        (2, 2, 8, [2], 0),
    ],
)
def test_table_sizes(count: int, low: int, high: int, sizes: list[int], byes: int) -> None:
    assert table_sizes(count, low, high) == (sizes, byes)
    assert sum(sizes) + byes == count


def test_too_few_players_for_a_table() -> None:
    with pytest.raises(IllegalEvent, match="needs at least 2 players"):
        table_sizes(1, 2, 4)


def test_round_one_tables_go_down_the_entry_order() -> None:
    data = pair_next_round(tournament(7, "tables", 4))
    assert data["tables"] == [{"table": 1, "seats": ["p03", "p02", "p01", "p00"]},
                              {"table": 2, "seats": ["p06", "p05", "p04"]}]


def test_byes_at_tables_go_to_the_lowest_placed_with_fewest_byes() -> None:
    history = History(met={}, byes={"e": 1}, seats={})
    tables, byes = table_groups(["a", "b", "c", "d", "e"], history, 3, 4)  # 4 seated, 1 bye
    assert byes == ["d"]
    assert [sorted(t) for t in tables] == [["a", "b", "c", "e"]]


def naive_tables(state: Tournament) -> dict[str, Any]:
    """Tables of 4 straight down the standings, no swaps: what the swaps must beat."""
    players = order(state)
    tables = [{"table": n + 1, "seats": players[4 * n: 4 * n + 4]} for n in range(len(players) // 4)]
    return {"round": state.current_round + 1, "tables": tables, "byes": [], "by_hand": True}


@pytest.mark.parametrize("seed", range(3))
def test_tables_of_four_repeat_fewer_meetings_than_straight_groups(seed: int) -> None:
    start = tournament(24, "tables", 4, game="high-five")
    for strength in (strong_first, lambda p: 0):
        state = run(start, seed, strength=strength)
        naive = run(start, seed, naive_tables, strength=strength)
        assert all(len(t.seats) == 4 for r in state.paired for t in r.tables)
        assert repeat_meetings(state) < repeat_meetings(naive)
        firsts = first_seats(state)
        assert max(firsts) - min(firsts) <= 2


def test_swaps_separate_a_table_that_met_before() -> None:
    history = History(met={("a", "b"): 1, ("c", "d"): 1, ("a", "c"): 1, ("b", "d"): 1, ("a", "d"): 1,
                           ("b", "c"): 1}, byes={}, seats={})
    tables, _ = table_groups(["a", "b", "c", "d", "e", "f", "g", "h"], history, 2, 4)
    # a, b, c and d have all met: straight down the standings they would sit together (6 repeats); split 2 and 2,
    # the fewest two tables allow
    assert sum(history.times_met(x, y) for t in tables for x, y in combinations(t, 2)) == 2
    assert [sum(p in "abcd" for p in t) for t in tables] == [2, 2]


def test_seats_rotate_by_the_times_in_each_seat() -> None:
    history = History(met={}, byes={}, seats={"a": {0: 2}, "b": {0: 1, 1: 1}, "c": {0: 1, 1: 0}, "d": {0: 1}})
    # seat 0: b, c and d sat there once: the lowest-placed (d) goes; seat 1: c never sat there; seat 2: a tie
    assert seat_order(["a", "b", "c", "d"], history) == ("d", "c", "b", "a")


# --- what the pairing needs and refuses ----------------------------------------------------------------


def test_withdrawn_players_are_left_out_and_late_ones_come_in() -> None:
    state = tournament(6, rounds=2)
    state = play_round(apply(state, "round_paired", pair_next_round(state)), random.Random(0))
    state = apply(state, "player_withdrawn", {"player": "p00"})
    state = apply(state, "player_entered", {"player": "late", "name": "Late"})
    data = pair_next_round(state)
    seated = [p for t in data["tables"] for p in t["seats"]] + data["byes"]
    assert sorted(seated) == ["late", "p01", "p02", "p03", "p04", "p05"]
    assert data["byes"] == []
    apply(state, "round_paired", data)


def test_pairing_refusals() -> None:
    state = apply(tournament(4, rounds=2), "round_paired", pair_next_round(tournament(4, rounds=2)))
    with pytest.raises(IllegalEvent, match="round 1 is not complete; no result yet at table 1"):
        pair_next_round(state)
    done = run(play_round(state, random.Random(1)))
    with pytest.raises(IllegalEvent, match="all 2 rounds are paired"):
        pair_next_round(done)
    with pytest.raises(IllegalEvent, match="the tournament is closed"):
        pair_next_round(apply(tournament(4), "tournament_closed", {}))
    with pytest.raises(IllegalEvent, match="at least 2 players"):
        pair_next_round(tournament(1))


def test_a_hand_pairing_is_checked_and_its_rematches_named() -> None:
    state = apply(tournament(4, rounds=3), "round_paired", {"round": 1, "tables": [
        {"table": 1, "seats": ["p00", "p01"]}, {"table": 2, "seats": ["p02", "p03"]}]})
    state = play_round(state, random.Random(0))
    hand = {"round": 2, "tables": [{"table": 1, "seats": ["p01", "p00"]}, {"table": 2, "seats": ["p02", "p03"]}],
            "by_hand": True}
    assert check_by_hand(state, hand) == ["table 1: p01 and p00 have met 1 time before",
                                          "table 2: p02 and p03 have met 1 time before"]
    assert check_by_hand(state, pair_next_round(state)) == []
    with pytest.raises(IllegalEvent, match="missing: p03"):
        check_by_hand(state, {"round": 2, "tables": [{"table": 1, "seats": ["p01", "p02"]}], "byes": ["p00"]})


# --- properties ----------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 26),
    fmt=st.sampled_from([("swiss", 2, "tri-ominos"), ("tables", 3, "hats-off"), ("tables", 4, "hi-spot"),
                         ("tables", 6, "tri-ominos"), ("tables", 8, "high-five")]),
    rounds=st.integers(1, 7),
    seed=st.integers(0, 10_000),
)
def test_every_pairing_is_one_the_tournament_accepts(players: int, fmt: tuple[str, int, str], rounds: int,
                                                     seed: int) -> None:
    rng = random.Random(seed)
    state = tournament(players, fmt[0], fmt[1], rounds, fmt[2])
    while state.current_round < state.rounds:
        if state.current_round and rng.random() < 0.3 and len(state.active) > 2:
            state = apply(state, "player_withdrawn", {"player": rng.choice(state.active)})
        if state.current_round and rng.random() < 0.3:
            state = apply(state, "player_entered", {"player": f"late{state.current_round}", "name": "Late"})
        data = pair_next_round(state)
        assert pair_next_round(state) == data
        played_before = state.current_round
        history = History.of(state)
        state = apply(state, "round_paired", data)  # the reducer accepts it
        if fmt[0] == "swiss":
            # each player has met at most one opponent a round: with at most m/2 - 1 rounds behind them, m players
            # can always be paired anew (Dirac), so the search must find such a pairing
            m = 2 * len(data["tables"])
            if played_before <= m // 2 - 1:
                assert all(history.times_met(*t["seats"]) == 0 for t in data["tables"])
        else:
            assert not data["byes"]  # every game is played by 2: tables never need a bye
        state = play_round(state, rng)
