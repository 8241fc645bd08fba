"""A small club built with the service, for the club's pages with and without a browser: five registered players
and a sixth without a match, an alias, and a Swiss of Hats Off with round 1 played, round 2's table 1 played and
its table 2 started and unfinished."""

from __future__ import annotations

import random
from pathlib import Path

from projections.registry import get_game
from recorder.facade import Scorebook

NAMES = {"ann": "Ann Lee", "bo": "Bo Chan", "cy": "Cy Park", "dee": "Dee Moss", "ed": "Ed Gray"}
OPTIONS = {"target_score": 60}


def play(sb: Scorebook, match_id: str, seats: list[str], seed: int) -> None:
    """Record a whole random Hats Off match (to 60) on a table's started match."""
    players = [{"id": p, "name": NAMES[p]} for p in seats]
    log = get_game("hats-off").random_match(random.Random(seed), players, OPTIONS)
    sb.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:]], 1, "desk")


def build_club(path: Path) -> tuple[Scorebook, str, str]:
    """(the Scorebook, the tournament's id, the match still playing): round 1 played and taken, round 2's
    table 1 played and taken, its table 2 started and unfinished; "fay" registered without a match."""
    sb = Scorebook.open(f"sqlite:///{path}")
    for pid, name in NAMES.items():
        sb.clubs.register_player(pid, name, "desk", club="Elm Club")
    sb.clubs.register_player("fay", "Fay Wu", "desk")
    sb.clubs.add_alias("ann", "Annie", "desk")
    tid = sb.clubs.create_tournament({"name": "Elm Open", "game": "hats-off", "format": "swiss", "rounds": 3,
                                      "table_size": 2, "date": "2026-03-01"}, "ref")
    for pid in NAMES:
        sb.clubs.enter(tid, pid, "ref")
    playing = ""
    for number in (1, 2):
        paired = sb.clubs.pair(tid, "ref")
        assert len(paired["tables"]) == 2 and len(paired["byes"]) == 1
        for t in paired["tables"]:
            match_id = sb.clubs.start_table(tid, number, t["table"], "desk", OPTIONS)
            if (number, t["table"]) == (2, 2):
                playing = match_id  # started, not played: its result is missing
                continue
            play(sb, match_id, t["seats"], number * 10 + t["table"])
        sb.clubs.collect_results(tid, "desk")
    return sb, tid, playing
