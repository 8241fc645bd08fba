"""A tournament's stream: creation, entries, rounds, matches, forfeits, results, closing, and every refusal."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from projections.clubs.tournament import TOURNAMENT, Tournament, missing_results, to_json
from projections.errors import IllegalEvent
from projections.events import Event

Line = tuple[str, dict[str, Any]]


def created(**over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Spring Open", "game": "tri-ominos", "format": "swiss", "rounds": 3,
                            "table_size": 2}
    data.update(over)
    return {k: v for k, v in data.items() if v is not None}


def fold(*lines: Line, **over: Any) -> Tournament:
    events = [Event(1, "tournament_created", created(**over))]
    events += [Event(n, t, d) for n, (t, d) in enumerate(lines, start=2)]
    return TOURNAMENT.fold(events)


def enter(*pids: str) -> list[Line]:
    return [("player_entered", {"player": p, "name": p.upper()}) for p in pids]


def paired(number: int, *tables: list[str], byes: tuple[str, ...] = ()) -> Line:
    return ("round_paired", {"round": number, "tables": [{"table": n, "seats": s} for n, s in enumerate(tables, 1)],
                             "byes": list(byes), "by_hand": True})


def assign(rnd: int, table: int, match_id: Any) -> Line:
    return ("match_assigned", {"round": rnd, "table": table, "match_id": match_id})


def result(rnd: int, table: int, match_id: str, totals: dict[str, int], winners: list[str]) -> Line:
    return ("result_taken", {"round": rnd, "table": table, "match_id": match_id, "totals": totals, "winners": winners})


def forfeit(rnd: int, table: int, *pids: str) -> Line:
    return ("forfeit_recorded", {"round": rnd, "table": table, "players": list(pids)})


def refused(state: Tournament, line: Line, needle: str) -> None:
    """`line` is refused with a reason holding `needle`, and `state` is left exactly as it was."""
    before, before_json = copy.deepcopy(state), to_json(state)
    with pytest.raises(IllegalEvent) as caught:
        TOURNAMENT.apply(state, Event(99, *line))
    assert needle in caught.value.reason, caught.value.reason
    assert state == before
    assert to_json(state) == before_json


FOUR = enter("ann", "bo", "cy", "dee")
ROUND_1 = paired(1, ["ann", "bo"], ["cy", "dee"])
PLAYED_1 = [ROUND_1, assign(1, 1, "m1"), result(1, 1, "m1", {"ann": 60, "bo": 40}, ["ann"]),
            assign(1, 2, "m2"), result(1, 2, "m2", {"cy": 50, "dee": 50}, ["cy", "dee"])]


# --- creation ------------------------------------------------------------------------------------------


def test_a_tournament_is_created_with_its_defaults() -> None:
    state = fold()
    assert (state.name, state.game, state.format, state.rounds, state.table_size) == (
        "Spring Open", "tri-ominos", "swiss", 3, 2)
    assert (state.scoring.win, state.scoring.bye, state.date, dict(state.meta)) == (1, 1, None, {})
    assert state.current_round == 0 and state.complete(0) and not state.closed
    tables = fold(format="tables", table_size=4, game="hi-spot", scoring={"win": 3}, date="2025-04-12",
                  meta={"venue": "Hall"})
    assert (tables.scoring.win, tables.scoring.bye, tables.date, tables.meta) == (3, 1, "2025-04-12", {"venue": "Hall"})
    assert tables.min_players == 2


@pytest.mark.parametrize(
    ("over", "needle"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"format": "knockout"}, "format must be one of swiss, tables"),
        ({"rounds": 0}, "rounds must be 1 to 50"),
        ({"rounds": 51}, "rounds must be 1 to 50"),
        ({"rounds": "3"}, "rounds must be an integer"),
        ({"rounds": True}, "rounds must be an integer"),
        ({"table_size": 3}, "a Swiss tournament seats 2 a table, not 3"),
        ({"format": "tables", "table_size": 2}, "table_size must be 3 to 8"),
        ({"format": "tables", "table_size": 9}, "table_size must be 3 to 8"),
        ({"format": "tables", "table_size": 5, "game": "hi-spot"}, "Hi-Spot is played by 2 to 4, not 5 a table"),
        ({"format": "tables", "table_size": 7, "game": "tri-ominos"}, "played by 2 to 6, not 7"),
        ({"scoring": {"win": -1}}, "scoring.win must be a number ≥ 0"),
        ({"scoring": {"bye": "1"}}, "scoring.bye must be a number ≥ 0"),
        ({"scoring": {"draw": 1}}, "unknown field 'draw'"),
        ({"scoring": [1, 1]}, "scoring must be a JSON object"),
        ({"date": "12/04/2025"}, "date must be a day written YYYY-MM-DD"),
        ({"date": "2025-02-30"}, "date must be a day written YYYY-MM-DD"),
        ({"meta": [1]}, "meta must be a JSON object"),
        ({"name": ""}, "name must be 1 to 100 characters"),
        ({"name": None}, "missing 'name'"),
        ({"venue": "Hall"}, "unknown field 'venue'"),
    ],
)
def test_creation_refusals(over: dict[str, Any], needle: str) -> None:
    with pytest.raises(IllegalEvent) as caught:
        fold(**over)
    assert needle in caught.value.reason, caught.value.reason


# --- entries -------------------------------------------------------------------------------------------


def test_entries_withdrawals_and_late_entries() -> None:
    state = fold(*FOUR, *PLAYED_1, *enter("ed"), ("player_withdrawn", {"player": "dee"}))
    assert state.active == ("ann", "bo", "cy", "ed")
    assert state.entrants["ed"].entered_after == 1
    assert state.entrants["dee"].withdrawn_after == 1
    # the late entrant is seated, the withdrawn player is not
    later = TOURNAMENT.apply(state, Event(99, *paired(2, ["ann", "cy"], ["bo", "ed"])))
    assert later.current_round == 2


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (enter("ann")[0], "ann (ANN) has already entered; a player enters once"),
        (enter("dee")[0], "dee (DEE) has already entered and has withdrawn"),
        (("player_entered", {"player": "Ed", "name": "Ed"}), "player must be an id"),
        (("player_entered", {"player": "ed"}), "missing 'name'"),
        (("player_withdrawn", {"player": "zed"}), "'zed' has not entered this tournament"),
        (("player_withdrawn", {"player": "dee"}), "dee (DEE) has already withdrawn (after round 0)"),
    ],
)
def test_entry_refusals(line: Line, needle: str) -> None:
    refused(fold(*FOUR, ("player_withdrawn", {"player": "dee"})), line, needle)


# --- pairing -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (paired(2, ["ann", "bo"], ["cy", "dee"]), "the next round is 1, not 2"),
        (paired(4, ["ann", "bo"], ["cy", "dee"]), "the tournament has 3 rounds; there is no round 4"),
        (paired(1, ["ann", "bo"]), "missing: cy (CY), dee (DEE)"),
        (paired(1, ["ann", "bo"], ["cy", "ann"], byes=("dee",)), "ann (ANN) appears twice (table 1 and table 2)"),
        (paired(1, ["ann", "bo"], ["cy", "dee"], byes=("ann",)), "ann (ANN) appears twice (table 1 and the byes)"),
        (paired(1, ["ann", "bo"], ["cy", "dee"], byes=("zed",)), "'zed' at the byes has not entered"),
        (paired(1, ["ann", "bo", "cy"], ["dee"]), "table 1 seats 3 players; a table seats exactly 2"),
        (paired(1, byes=("ann", "bo", "cy", "dee")), "tables must be a non-empty list"),
        (("round_paired", {"round": 1, "tables": [{"table": 2, "seats": ["ann", "bo"]}], "byes": ["cy", "dee"]}),
         "tables are numbered 1, 2, … in order; table 1 is numbered 2"),
        (("round_paired", {"round": 1, "tables": [{"table": 1, "seats": ["ann", "bo"], "match": "m"}]}),
         "unknown field 'match'"),
        (("round_paired", {"round": 1, "tables": [{"table": 1, "seats": ["ann", "bo"]}, {"table": 2, "seats": [
            "cy", "dee"]}], "by_hand": "yes"}), "by_hand must be true or false"),
        (("round_paired", {"round": 1, "tables": [{"table": 1, "seats": "ann bo"}]}), "must be a list of player ids"),
    ],
)
def test_round_paired_refusals(line: Line, needle: str) -> None:
    refused(fold(*FOUR), line, needle)


def test_a_withdrawn_player_is_not_seated_again() -> None:
    state = fold(*FOUR, *PLAYED_1, ("player_withdrawn", {"player": "dee"}))
    refused(state, paired(2, ["ann", "cy"], ["bo", "dee"]), "dee (DEE) at table 2 has withdrawn")


def test_a_round_waits_for_the_last_one_to_be_complete() -> None:
    state = fold(*FOUR, *PLAYED_1[:3])
    refused(state, paired(2, ["ann", "cy"], ["bo", "dee"]),
            "round 1 is not complete; no result yet at table 2 (cy, dee)")
    assert missing_results(state) == [(1, 2, ("cy", "dee"))]
    assert state.complete(0) and not state.complete(1)


def test_tables_seat_the_games_minimum_to_the_table_size() -> None:
    state = fold(*enter("a", "b", "c", "d", "e", "f", "g"), format="tables", table_size=4, game="hi-spot")
    refused(state, paired(1, ["a", "b", "c", "d", "e"], ["f", "g"]), "table 1 seats 5 players; a table seats 2 to 4")
    refused(state, paired(1, ["a", "b", "c", "d", "e", "f"], byes=("g",)), "seats 6 players; a table seats 2 to 4")
    refused(state, paired(1, ["a", "b", "c", "d"], ["e", "f"], ["g"]), "table 3 seats 1 players; a table seats 2 to 4")
    ok = TOURNAMENT.apply(state, Event(9, *paired(1, ["a", "b", "c", "d"], ["e", "f", "g"])))
    assert [t.seats for t in ok.round(1).tables] == [("a", "b", "c", "d"), ("e", "f", "g")]


# --- matches and results -------------------------------------------------------------------------------


def test_a_round_played_out() -> None:
    state = fold(*FOUR, *PLAYED_1)
    assert state.complete(1) and missing_results(state) == []
    t1, t2 = state.round(1).tables
    assert t1.winners == ("ann",) and t2.winners == ("cy", "dee")
    assert dict(state.assigned) == {"m1": (1, 1), "m2": (1, 2)}
    j = to_json(state)
    json.dumps(j)
    assert j["paired_rounds"][0]["tables"][0] == {
        "table": 1, "seats": ["ann", "bo"], "match_id": "m1", "forfeits": [],
        "result": {"match_id": "m1", "totals": {"ann": 60, "bo": 40}, "winners": ["ann"]},
        "settled": True, "winners": ["ann"]}
    assert j["current_round"] == 1 and j["missing_results"] == []


def test_a_table_can_be_reassigned_before_its_result() -> None:
    state = fold(*FOUR, ROUND_1, assign(1, 1, "m1"), assign(1, 1, "m9"), assign(1, 2, "m1"))
    assert state.round(1).tables[0].match_id == "m9"
    assert dict(state.assigned) == {"m9": (1, 1), "m1": (1, 2)}  # m1 was freed by the reassignment
    refused(state, result(1, 1, "m1", {"ann": 1, "bo": 0}, ["ann"]), "round 1 table 1 plays match m9, not 'm1'")
    again = TOURNAMENT.apply(state, Event(99, *assign(1, 1, "m9")))  # the same match again: nothing changes
    assert again == state


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (assign(2, 1, "m5"), "there is no round 2 (rounds 1 to 1 are paired)"),
        (assign(1, 3, "m5"), "round 1 has tables 1 to 2, not 3"),
        (assign(1, 1, "m2"), "match m2 is already assigned to round 1 table 2"),
        (assign(1, 1, ""), "match_id must be 1 to 200 characters"),
        (assign(1, 1, 5), "match_id must be 1 to 200 characters"),
        (result(1, 1, "m1", {"ann": 60}, ["ann"]), "totals must name the players who played at round 1 table 1"),
        (result(1, 1, "m1", {"ann": 60, "bo": 40, "cy": 0}, ["ann"]), "totals must name the players who played"),
        (result(1, 1, "m1", {"ann": 60, "bo": "40"}, ["ann"]), "totals must map each player to an integer"),
        (result(1, 1, "m1", {"ann": 60, "bo": 40}, []), "winners must be some of the players who played"),
        (result(1, 1, "m1", {"ann": 60, "bo": 40}, ["cy"]), "winners must be some of the players who played"),
        (result(1, 1, "m1", {"ann": 60, "bo": 40}, ["ann", "ann"]), "winners must be some of the players"),
        (result(1, 1, "m2", {"ann": 60, "bo": 40}, ["ann"]), "round 1 table 1 plays match m1, not 'm2'"),
        (result(1, 2, "m2", {"cy": 1, "dee": 0}, ["cy"]), "round 1 table 2 already has its result (match m2)"),
        (("result_taken", {"round": 1, "table": 1, "match_id": "m1", "totals": {}}), "missing 'winners'"),
        (forfeit(1, 2, "cy"), "round 1 table 2 already has its result (match m2)"),
        (forfeit(1, 1, "cy"), "cy (CY) is not seated at round 1 table 1"),
        (forfeit(1, 1), "name at least one player who forfeits"),
        (forfeit(1, 1, "ann", "ann"), "ann (ANN) has already forfeited at this table"),
        (assign(1, 2, "m7"), "round 1 table 2 already has its result (match m2)"),
    ],
)
def test_match_and_result_refusals(line: Line, needle: str) -> None:
    state = fold(*FOUR, ROUND_1, assign(1, 1, "m1"), assign(1, 2, "m2"),
                 result(1, 2, "m2", {"cy": 50, "dee": 50}, ["cy", "dee"]))
    refused(state, line, needle)


def test_a_result_needs_its_match_assigned() -> None:
    refused(fold(*FOUR, ROUND_1), result(1, 1, "m1", {"ann": 1, "bo": 0}, ["ann"]),
            "no match is assigned to round 1 table 1")


def test_forfeits_settle_a_table_the_last_player_wins() -> None:
    state = fold(*FOUR, ROUND_1, assign(1, 1, "m1"), forfeit(1, 1, "bo"), forfeit(1, 2, "cy", "dee"))
    t1, t2 = state.round(1).tables
    assert t1.settled and t1.winners == ("ann",) and t1.present == ("ann",)
    assert t2.settled and t2.winners == ()  # both forfeited: nobody wins
    assert state.complete(1)
    refused(state, result(1, 1, "m1", {"ann": 1}, ["ann"]), "round 1 table 1 is settled by forfeits")
    refused(state, assign(1, 1, "m8"), "round 1 table 1 is settled by forfeits")
    refused(state, forfeit(1, 1, "ann"), "round 1 table 1 is settled by forfeits")


def test_a_forfeit_at_a_bigger_table_leaves_the_others_to_play() -> None:
    state = fold(*enter("a", "b", "c", "d"), paired(1, ["a", "b", "c", "d"]), assign(1, 1, "m1"), forfeit(1, 1, "b"),
                 format="tables", table_size=4)
    table = state.round(1).tables[0]
    assert not table.settled and table.present == ("a", "c", "d")
    refused(state, result(1, 1, "m1", {"a": 1, "b": 0, "c": 2, "d": 3}, ["d"]), "(a, c, d), not a, b, c, d")
    done = TOURNAMENT.apply(state, Event(99, *result(1, 1, "m1", {"a": 1, "c": 2, "d": 3}, ["d"])))
    assert done.complete(1) and done.round(1).tables[0].winners == ("d",)


def test_a_closed_tournament_refuses_everything() -> None:
    state = fold(*FOUR, ROUND_1, assign(1, 1, "m1"), ("tournament_closed", {}))
    assert state.closed
    for line in [enter("ed")[0], ("player_withdrawn", {"player": "ann"}), paired(2, ["ann", "bo"], ["cy", "dee"]),
                 assign(1, 2, "m2"), forfeit(1, 1, "bo"), result(1, 1, "m1", {"ann": 1, "bo": 0}, ["ann"]),
                 ("tournament_closed", {})]:
        refused(state, line, "the tournament is closed")
    assert to_json(state)["missing_results"] == [{"round": 1, "table": 1, "seats": ["ann", "bo"]},
                                                 {"round": 1, "table": 2, "seats": ["cy", "dee"]}]


def test_closing_takes_no_data() -> None:
    refused(fold(), ("tournament_closed", {"reason": "rain"}), "unknown field 'reason'")


def test_the_stream_begins_with_tournament_created() -> None:
    with pytest.raises(IllegalEvent, match="begins with tournament_created"):
        TOURNAMENT.fold([Event(1, "player_entered", {"player": "a", "name": "A"})])
