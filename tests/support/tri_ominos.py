"""Small builders for hand-written Tri-Ominos logs and the scenarios built with them (a hexagon, a bridge, a double
hexagon, a strip of 17 tiles), shared by the Tri-Ominos tests and those of hindsight, the legal route and the
statistics; and the check that every tile is in exactly one place.

A deal padded with `null` keeps the rest of a hand hidden, so a test only spells out the tiles it needs (a hidden
slot may be played as any tile not seen elsewhere)."""

from __future__ import annotations

from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.tri_ominos import GAME, State
from projections.games.tri_ominos.tiles import ALL_TILES
from projections.timeline import Fold, fold_dicts

Log = list[dict[str, Any]]


def started(*players: str, **options: Any) -> Log:
    ps = [{"id": p, "name": p.capitalize()} for p in (players or ("ann", "bo"))]
    data: dict[str, Any] = {"game": "tri-ominos", "players": ps}
    if options:
        data["options"] = options
    return [{"type": "match_started", "data": data}, {"type": "round_started", "data": {}}]


def deal(player: str, *tiles: str | None, size: int = 9) -> dict[str, Any]:
    """A deal of the given tiles, padded with hidden (null) tiles to the deal size."""
    padded: list[str | None] = [*tiles, *([None] * (size - len(tiles)))]
    return {"type": "tiles_dealt", "data": {"player": player, "tiles": padded}}


def place(player: str, tile: str, cell: tuple[int, int], corners: tuple[int, int, int], **extra: Any) -> dict[str, Any]:
    data = {"player": player, "tile": tile, "cell": list(cell), "corners": list(corners), **extra}
    return {"type": "tile_placed", "data": data}


def draw(player: str, tile: str | None = None) -> dict[str, Any]:
    return {"type": "tile_drawn", "data": {"player": player, "tile": tile}}


def pass_turn(player: str) -> dict[str, Any]:
    return {"type": "turn_passed", "data": {"player": player}}


def reveal(**hands: list[str]) -> dict[str, Any]:
    return {"type": "hands_revealed", "data": {"hands": hands}}


def opened(*bo_tiles: str) -> Log:
    """Ann starts with 5-5-5 at [0, 0] (25 points); Bo holds `bo_tiles`, the rest of both hands hidden."""
    return [*started(), deal("ann", "5-5-5"), deal("bo", *bo_tiles), place("ann", "5-5-5", (0, 0), (5, 5, 5))]


def totals(fold: Fold) -> dict[str, int]:
    return GAME.scores(fold.state).totals


def refusal(log: Log, event: dict[str, Any]) -> str:
    """Fold `log`, then offer `event`: it must be refused and leave the state exactly as it was."""
    fold = fold_dicts(log)
    state: State = fold.state
    before = GAME.to_json(state)
    with pytest.raises(IllegalEvent) as err:
        fold.apply(Event(fold.seq + 1, event["type"], event["data"]))
    assert GAME.to_json(state) == before
    assert fold.state is state
    return err.value.reason


# Scenario "hexagon": six tiles around the point (0, 1), which carries a 5 on every tile.
HEXAGON = [
    place("ann", "5-5-5", (0, 0), (5, 5, 5)),  # start: 15 + 10 = 25
    place("bo", "2-5-5", (1, 0), (5, 5, 2)),  # 12
    place("ann", "2-2-5", (1, 1), (2, 2, 5)),  # 9
    place("bo", "0-2-5", (0, 1), (5, 0, 2)),  # 7
    place("ann", "0-0-5", (-1, 1), (0, 5, 0)),  # 5
    place("bo", "0-5-5", (-1, 0), (5, 0, 5)),  # 10 + hexagon 50 = 60
]


HEXAGON_DEAL = [deal("ann", "5-5-5", "2-2-5", "0-0-5"), deal("bo", "2-5-5", "0-2-5", "0-5-5")]


# Scenario "bridge": a loop round [0, 0] closed by a bridge there, extended twice.
#   [0, 0] touches [0, -1] along its bottom edge and [-1, 1], [0, 1], [1, 1] only at its apex (0, 1).
BRIDGE = [
    place("ann", "5-5-5", (0, -1), (5, 5, 5)),  # start: 25
    place("bo", "2-5-5", (-1, -1), (5, 5, 2)),  # 12
    place("ann", "2-2-5", (-2, -1), (2, 2, 5)),  # 9
    place("bo", "2-3-5", (-2, 0), (3, 5, 2)),  # 10
    place("ann", "2-2-3", (-3, 0), (2, 2, 3)),  # 7
    place("bo", "2-3-3", (-3, 1), (3, 3, 2)),  # 8
    place("ann", "3-3-3", (-2, 1), (3, 3, 3)),  # 9
    place("bo", "3-3-4", (-1, 1), (3, 4, 3)),  # 10
    place("ann", "3-4-4", (0, 1), (4, 3, 4)),  # 11
    place("bo", "4-4-4", (1, 1), (4, 4, 4)),  # 12
    place("ann", "4-5-5", (0, 0), (4, 5, 5)),  # 14 + bridge 40 = 54
    place("bo", "4-4-5", (1, 0), (5, 4, 4)),  # 13 + bridge extension 40 = 53
    place("ann", "3-4-5", (-1, 0), (5, 3, 4)),  # 12 + three hexagons 70 + bridge extension 40 = 122
]


BRIDGE_DEAL = [
    deal("ann", "5-5-5", "2-2-5", "2-2-3", "3-3-3", "3-4-4", "4-5-5", "3-4-5"),
    deal("bo", "2-5-5", "2-3-5", "2-3-3", "3-3-4", "4-4-4", "4-4-5"),
]


# Scenario "double hexagon": nine tiles round [0, 0]; the tile there closes the hexagons round
# (0, 1) and (1, 0) at once. [-1, 0] is a bridge: its corner (-1, 0) touches [0, -1].
DOUBLE = [
    place("ann", "5-5-5", (1, 0), (5, 5, 5)),  # start: 25
    place("bo", "0-5-5", (2, 0), (5, 0, 5)),  # 10
    place("ann", "0-1-5", (2, -1), (1, 5, 0)),  # 6
    place("bo", "4-5-5", (1, 1), (4, 5, 5)),  # 14
    place("ann", "3-4-5", (0, 1), (5, 3, 4)),  # 12
    place("bo", "1-1-5", (1, -1), (5, 1, 1)),  # 7
    place("ann", "1-2-5", (0, -1), (1, 2, 5)),  # 8
    place("bo", "2-3-5", (-1, 1), (3, 5, 2)),  # 10
    place("ann", "2-2-5", (-1, 0), (2, 2, 5)),  # 9 + bridge 40 = 49
    place("bo", "2-5-5", (0, 0), (5, 5, 2)),  # 12 + two hexagons 60 (+ extension 40 unless off)
]


DOUBLE_DEAL = [
    deal("ann", "5-5-5", "0-1-5", "3-4-5", "1-2-5", "2-2-5"),
    deal("bo", "0-5-5", "4-5-5", "1-1-5", "2-3-5", "2-5-5"),
]


# Scenario "strip": a row of tiles [0, 0] … [16, 0]; both hands fully known. Ann goes out with the
# 17th tile; Bo keeps 0-0-0.
STRIP = [
    ("ann", "5-5-5", (5, 5, 5)),  # start: 15 + 10 = 25
    ("bo", "0-5-5", (5, 5, 0)),  # 10
    ("ann", "0-4-5", (0, 4, 5)),  # 9
    ("bo", "0-1-4", (4, 0, 1)),  # 5
    ("ann", "1-4-4", (1, 4, 4)),  # 9
    ("bo", "1-2-4", (4, 1, 2)),  # 7
    ("ann", "2-3-4", (2, 3, 4)),  # 9
    ("bo", "2-3-3", (3, 2, 3)),  # 8
    ("ann", "3-3-5", (3, 5, 3)),  # 11
    ("bo", "3-4-5", (5, 3, 4)),  # 12
    ("ann", "4-4-5", (4, 4, 5)),  # 13
    ("bo", "4-4-4", (4, 4, 4)),  # 12
    ("ann", "3-4-4", (4, 3, 4)),  # 11
    ("bo", "0-3-4", (3, 4, 0)),  # 7
    ("ann", "0-3-3", (0, 3, 3)),  # 6
    ("bo", "0-1-3", (3, 0, 1)),  # 4
    ("ann", "1-2-3", (1, 2, 3)),  # 6, and out
]


STRIP_PLACEMENTS = [place(p, t, (q, 0), c) for q, (p, t, c) in enumerate(STRIP)]


STRIP_DEAL = [
    deal("ann", *[t for p, t, _ in STRIP if p == "ann"]),
    deal("bo", *[t for p, t, _ in STRIP if p == "bo"], "0-0-0"),
]


STRIP_ANN = 25 + 9 + 9 + 9 + 11 + 13 + 11 + 6 + 6  # 99 from her tiles


STRIP_BO = 10 + 5 + 7 + 8 + 12 + 12 + 7 + 4  # 65


def check_tiles(state: State) -> None:
    """Every tile is in exactly one place: the board, a known hand, or unknown (well or hidden slot)."""
    if state.phase in ("waiting", "finished") and state.round == 0:
        return
    on_board = [p.tile for p in state.board.values()]
    in_hands = [t for h in state.hands if h is not None for t in h.known]
    seen = on_board + in_hands
    assert len(seen) == len(set(seen)), "a tile is in two places"
    assert set(seen) <= set(ALL_TILES)
    hidden = sum(h.hidden for h in state.hands if h is not None)
    assert len(seen) + hidden + state.well == len(ALL_TILES)
    assert set(state.placed_at) == set(on_board)


# The hands of a round blocked after drawing everything (test_tri_ominos_rules.py):
# 53 tiles stay in hands: every tile but the three on the board (sum 420 − 15 − 11 − 10 = 384).
# Bo (27 tiles) shows the first 27 of the rest in set order: the twenty 0-x-y tiles but 0-5-5 (105 − 10
# = 95), 1-1-1 … 1-1-5 (3+4+5+6+7 = 25), 1-2-2 (5) and 1-2-3 (6): 131. Ann (26 tiles) has the other 253.
BLOCKED_REST = [t for t in ALL_TILES if t not in ("5-5-5", "1-5-5", "0-5-5")]
BLOCKED_BO, BLOCKED_ANN = BLOCKED_REST[:27], BLOCKED_REST[27:]


# The legal and missed routes' matches (tests/api/test_legal_api.py, tests/browser/test_legal_browser.py).
THREE = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]
# Ann starts with 5-5-5 (seq 5); Bo, dealt unseen, draws 0-0-0 in sight (seq 6) and passes (seq 7: one draw
# allowed); Ann places 2-5-5 (seq 8), then Bo 0-5-5 from his unseen hand (seq 9): he held it when he drew
# and passed, and it fitted then.
OPENING: Log = [*started(draw_limit=1), deal("ann", "5-5-5", "2-5-5"), deal("bo"),
                place("ann", "5-5-5", (0, 0), (5, 5, 5)), draw("bo", "0-0-0"), pass_turn("bo")]
LATER: Log = [place("ann", "2-5-5", (1, 0), (5, 5, 2)), place("bo", "0-5-5", (-1, 0), (5, 0, 5))]
