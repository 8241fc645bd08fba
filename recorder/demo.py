"""Demo matches of every game, played by the projections' seeded random legal players."""

from __future__ import annotations

import random
from datetime import date, timedelta

from projections.registry import GAME_NAMES, get_game
from recorder.facade import Scorebook
from recorder.logfile import import_lines

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


def seed_if_empty(sb: Scorebook, matches_per_game: int, seed: int = 1) -> int:
    _, total = sb.matches(limit=1)
    return 0 if total else record_demo(sb, matches_per_game, seed)
