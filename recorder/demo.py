"""Demo matches of every game, played by the projections' seeded random legal players."""

from __future__ import annotations

import random
from datetime import date, timedelta

from projections.registry import GAME_NAMES, get_game
from recorder.facade import Scorebook
from recorder.log.file import import_lines

PLAYERS = [
    {"id": "ann", "name": "Ann"},
    {"id": "bo", "name": "Bo"},
    {"id": "cy", "name": "Cy"},
    {"id": "dee", "name": "Dee"},
    {"id": "eli", "name": "Eli"},
    {"id": "fay", "name": "Fay"},
]


def demo_logs(matches_per_game: int, seed: int = 1) -> list[list[dict]]:
    rng = random.Random(seed)
    logs = []
    first_day = date(2026, 9, 5)
    for game_name in GAME_NAMES:
        game = get_game(game_name)
        for i in range(matches_per_game):
            count = rng.randint(game.descriptor.min_players, min(game.descriptor.max_players, 4))
            players = rng.sample(PLAYERS, count)
            log = game.random_match(random.Random(rng.getrandbits(32)), players, None)
            meta = {"tournament": "Autumn club night", "round": i + 1, "table": rng.randint(1, 6),
                    "date": (first_day + timedelta(days=7 * i)).isoformat()}
            log[0] = {"type": "match_started", "data": {**log[0]["data"], "meta": meta}}
            logs.append(log)
    return logs


def record_demo(sb: Scorebook, matches_per_game: int, seed: int = 1) -> int:
    logs = demo_logs(matches_per_game, seed)
    for log in logs:
        sb.import_log(import_lines(log), "demo")
    return len(logs)


def record_demo_club(sb: Scorebook, seed: int = 1) -> str:
    """The demo players registered, and a finished three-round Swiss of Hats Off among them (short matches,
    played by the seeded random player): something on the tournaments, ratings and player pages. Returns the
    tournament's id."""
    rng = random.Random(seed)
    for p in PLAYERS:
        sb.clubs.register_player(p["id"], p["name"], "demo", club="Elm Street club")
    short = {"target_score": 60}
    tid = sb.clubs.create_tournament({"name": "Demo Swiss", "game": "hats-off", "format": "swiss", "rounds": 3,
                                      "table_size": 2, "date": "2026-11-28"}, "demo")
    for p in PLAYERS:
        sb.clubs.enter(tid, p["id"], "demo")
    for round_ in (1, 2, 3):
        sb.clubs.pair(tid, "demo")
        state = sb.clubs.tournament(tid)
        for table in state.round(round_).tables:
            match_id = sb.clubs.start_table(tid, round_, table.number, "demo", short)
            players = [{"id": p, "name": state.entrants[p].name} for p in table.seats]
            log = get_game("hats-off").random_match(random.Random(rng.getrandbits(32)), players, dict(short))
            sb.append(match_id, [{"type": e["type"], "data": e["data"]} for e in log[1:]], 1, "demo")
    sb.clubs.close(tid, "demo")
    return tid


def seed_if_empty(sb: Scorebook, matches_per_game: int, seed: int = 1) -> int:
    """On an empty database: the demo matches, and the demo club (`record_demo_club`)."""
    _, total = sb.matches(limit=1)
    if total:
        return 0
    made = record_demo(sb, matches_per_game, seed)
    record_demo_club(sb, seed)
    return made
