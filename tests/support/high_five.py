"""High Five log builders for the tests (checked by tests/games/high_five/test_high_five_logs.py, which plays
whole games with them), and the hands of a log hidden."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.high_five import GAME
from projections.games.high_five.tiles import TILES
from projections.scores import scores_json
from projections.timeline import Fold

IDS = ["ann", "bo", "cy", "dee", "eli", "fay", "gus", "hal"]
Line = dict[str, Any]


def match(n: int = 2, **options: Any) -> Line:
    players = [{"id": p, "name": p.capitalize()} for p in IDS[:n]]
    return {"type": "match_started", "data": {"game": "high-five", "players": players, "options": options}}


def game(*layout: str) -> Line:
    return {"type": "game_started", "data": {"layout": list(layout)}}


def deal(hands: Mapping[str, Sequence[str | None]], to_layout: Sequence[str] | None = None) -> Line:
    data: dict[str, Any] = {"hands": {p: list(h) for p, h in hands.items()}}
    if to_layout is not None:
        data["to_layout"] = list(to_layout)
    return {"type": "hand_dealt", "data": data}


def play(player: str, tile: str, capture: str | None = None) -> Line:
    return {"type": "tile_played", "data": {"player": player, "tile": tile, "capture": capture}}


def claim(player: str, a: str, b: str) -> Line:
    return {"type": "pair_claimed", "data": {"player": player, "tiles": [a, b]}}


def then(f: Fold, *lines: Line) -> Fold:
    for line in lines:
        f = f.apply(Event(f.seq + 1, line["type"], line["data"]))
    return f


def totals(f: Fold) -> dict[str, int]:
    return {p["id"]: p["score"] for p in scores_json(f)["players"]}


def rounds(f: Fold) -> list[dict[str, int]]:
    return [r["scores"] for r in scores_json(f)["rounds"]]


def refused(f: Fold, line: Line, *words: str) -> str:
    """The event is refused with a reason naming `words`, and the state is exactly as it was."""
    before = GAME.to_json(f.state)
    state = f.state
    with pytest.raises(IllegalEvent) as err:
        GAME.apply(state, Event(f.seq + 1, line["type"], line["data"]))
    for w in words:
        assert w in err.value.reason, err.value.reason
    assert GAME.to_json(state) == before
    return err.value.reason


def fillers(used: set[str], count: int) -> list[str]:
    """Tiles not yet used anywhere, for hand slots a test never plays."""
    out = [t for t in TILES if t not in used][:count]
    used.update(out)
    return out


def hide_hands(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for line in log:
        if line["type"] == "hand_dealt":
            hands = {p: [None] * len(h) for p, h in line["data"]["hands"].items()}
            line = {"type": "hand_dealt", "data": {**line["data"], "hands": hands}}
        out.append(line)
    return out
