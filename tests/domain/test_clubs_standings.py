"""Standings: match points, game points, spread, Buchholz, order and ranks, checked against sums done by hand."""

from __future__ import annotations

from typing import Any

from projections.clubs.standings import Standing, missing_results, standing_order, standings
from projections.clubs.tournament import TOURNAMENT, Tournament
from projections.events import Event

Line = tuple[str, dict[str, Any]]


def fold(*lines: Line, **over: Any) -> Tournament:
    data = {"name": "Cup", "game": "tri-ominos", "format": "tables", "rounds": 2, "table_size": 3, **over}
    events = [Event(1, "tournament_created", data)] + [Event(n, t, d) for n, (t, d) in enumerate(lines, start=2)]
    return TOURNAMENT.fold(events)


def enter(*pids: str) -> list[Line]:
    return [("player_entered", {"player": p, "name": p.title()}) for p in pids]


def paired(number: int, *tables: list[str], byes: tuple[str, ...] = ()) -> Line:
    return ("round_paired", {"round": number, "tables": [{"table": n, "seats": s} for n, s in enumerate(tables, 1)],
                             "byes": list(byes), "by_hand": True})


def played(rnd: int, table: int, totals: dict[str, int], winners: list[str]) -> list[Line]:
    match_id = f"m{rnd}{table}"
    return [("match_assigned", {"round": rnd, "table": table, "match_id": match_id}),
            ("result_taken", {"round": rnd, "table": table, "match_id": match_id, "totals": totals,
                              "winners": winners})]


# Round 1: ann, bo and cy at table 1 (ann 50, bo 50, cy 20: ann and bo share the win); dee has a bye.
# Round 2: dee and ann at table 1, ann forfeits (dee wins without a match); bo and cy at table 2 (30 - 40, cy wins).
SMALL = [
    *enter("ann", "bo", "cy", "dee"),
    paired(1, ["ann", "bo", "cy"], byes=("dee",)),
    *played(1, 1, {"ann": 50, "bo": 50, "cy": 20}, ["ann", "bo"]),
    paired(2, ["dee", "ann"], ["bo", "cy"]),
    ("forfeit_recorded", {"round": 2, "table": 1, "players": ["ann"]}),
    *played(2, 2, {"bo": 30, "cy": 40}, ["cy"]),
]


def test_a_small_tournament_by_hand() -> None:
    # match points: ann 1/2 + 0 (forfeit); bo 1/2 + 0; cy 0 + 1; dee 1 (bye) + 1 (the forfeit left dee alone)
    # game points: ann 50; bo 50 + 30; cy 20 + 40; dee 0 (a bye and a forfeit win score none)
    # spread: round 1: ann 50 - (50 + 20)/2 = 15, bo 15, cy 20 - 50 = -30; round 2: bo 30 - 40 = -10, cy +10
    # Buchholz: ann met bo, cy, dee: 0.5 + 1 + 2; bo met ann, cy, cy: 0.5 + 1 + 1; cy met ann, bo, bo: 0.5 * 3;
    #           dee met ann: 0.5
    assert standings(fold(*SMALL)) == [
        Standing(1, "dee", "Dee", 2.0, 0, 0, 0.5, played=1, byes=1, withdrawn=False),
        Standing(2, "cy", "Cy", 1.0, 60, -20, 1.5, played=2, byes=0, withdrawn=False),
        Standing(3, "ann", "Ann", 0.5, 50, 15, 3.5, played=1, byes=0, withdrawn=False),
        Standing(4, "bo", "Bo", 0.5, 80, 5, 2.5, played=2, byes=0, withdrawn=False),
    ]


def test_scoring_changes_the_points_of_a_win_and_a_bye() -> None:
    rows = {s.player: s for s in standings(fold(*SMALL, scoring={"win": 3, "bye": 2}))}
    assert {p: s.match_points for p, s in rows.items()} == {"ann": 1.5, "bo": 1.5, "cy": 3.0, "dee": 5.0}
    assert rows["ann"].buchholz == 1.5 + 3 + 5


def test_only_settled_tables_count() -> None:
    state = fold(*SMALL[:-2])  # bo - cy of round 2 not played yet
    rows = {s.player: s for s in standings(state)}
    assert (rows["cy"].match_points, rows["cy"].game_points, rows["cy"].played) == (0.0, 20, 1)
    assert rows["bo"].buchholz == 0.5 + 0 + 0  # met ann, cy, and cy again (paired: a meeting already)
    assert missing_results(state) == [(2, 2, ("bo", "cy"))]


def test_equal_players_share_a_rank_and_stand_by_id() -> None:
    state = fold(*enter("zed", "amy", "kim"), paired(1, ["zed", "amy"], byes=("kim",)),
                 *played(1, 1, {"zed": 10, "amy": 10}, ["zed", "amy"]), format="swiss", table_size=2)
    rows = standings(state)
    assert [(s.rank, s.player, s.match_points, s.buchholz) for s in rows] == [
        (1, "kim", 1.0, 0.0), (2, "amy", 0.5, 0.5), (2, "zed", 0.5, 0.5)]
    assert standing_order(state) == ["kim", "amy", "zed"]


def test_spread_is_summed_exactly_and_rounded_once() -> None:
    # each round at a table of 3 totals 1, 0, 0: the two at 0 get 0 - 1/2 = -0.5 a round
    lines = [*enter("a", "b", "c"),
             paired(1, ["a", "b", "c"]), *played(1, 1, {"a": 1, "b": 0, "c": 0}, ["a"])]
    one = {s.player: s.spread for s in standings(fold(*lines))}
    assert one == {"a": 1, "b": -1, "c": -1}  # -0.5 rounds away from zero (Python's round would give 0)
    two = lines + [paired(2, ["a", "b", "c"]), *played(2, 1, {"a": 0, "b": 1, "c": 0}, ["b"])]
    rows = {s.player: s.spread for s in standings(fold(*two))}
    # a: 1 - 0 then 0 - 1/2 = 0.5 -> 1; b: -0.5 then 1 -> 0.5 -> 1; c: -0.5 - 0.5 = -1 (not -1 - 1 = -2)
    assert rows == {"a": 1, "b": 1, "c": -1}


def test_withdrawn_and_late_players_stand_with_what_they_have() -> None:
    lines = [*SMALL[:7], ("player_withdrawn", {"player": "cy"}), *enter("eve"),
             paired(2, ["dee", "ann"], ["bo", "eve"])]
    rows = {s.player: s for s in standings(fold(*lines))}
    assert rows["cy"].withdrawn and rows["cy"].game_points == 20
    assert not rows["eve"].withdrawn and rows["eve"].match_points == 0 and rows["eve"].played == 0


def test_merged_ids_stand_as_one() -> None:
    state = fold(*SMALL)
    rows = standings(state, canonical=lambda p: "bo" if p == "ann" else p)
    merged = next(s for s in rows if s.player == "bo")
    # ann's and bo's sums together; the table they shared is no meeting of bo with himself
    assert (merged.match_points, merged.game_points, merged.played) == (1.0, 130, 3)
    assert [s.player for s in rows] == ["dee", "bo", "cy"]
    assert (merged.name, merged.to_json()["player"]) == ("Bo", "bo")  # the kept id's own name
