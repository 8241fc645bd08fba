"""Small builders for hand-written Hi-Spot logs, shared by the test_hi_spot_* files (and checked here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hi_spot import GAME
from projections.timeline import Fold, fold_dicts

PLAYERS = [
    {"id": "ann", "name": "Ann"},
    {"id": "bo", "name": "Bo"},
    {"id": "cy", "name": "Cy"},
    {"id": "di", "name": "Di"},
]


def tile_set(**patterns: list[int]) -> list[dict[str, Any]]:
    """An inline tile set from keyword ids: tile_set(A1=[0], B1=[0, 1])."""
    return [{"id": tid, "dots": dots} for tid, dots in patterns.items()]


def ev(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "data": data}


def place(player: str, tile: str, section: int, dots: list[int]) -> dict[str, Any]:
    return ev("tile_placed", player=player, tile=tile, section=section, dots=dots)


def draw(player: str, *tiles: str | None) -> dict[str, Any]:
    return ev("tiles_drawn", player=player, tiles=list(tiles))


def end(player: str) -> dict[str, Any]:
    return ev("turn_ended", player=player)


def opening(
    racks: Mapping[str, Sequence[str | None]],
    draws: list[dict[str, str]],
    **options: Any,
) -> list[dict[str, Any]]:
    """match_started, round_started, the first-player draws and each player's rack (in the order given)."""
    players = [p for p in PLAYERS if p["id"] in racks]
    lines = [
        ev("match_started", game="hi-spot", players=players, options=options),
        ev("round_started"),
        *(ev("first_player_drawn", draws=d) for d in draws),
    ]
    return lines + [draw(pid, *tiles) for pid, tiles in racks.items()]


def play(lines: list[dict[str, Any]]) -> Fold:
    return fold_dicts(lines)


def refused(lines: list[dict[str, Any]] | Fold, event: dict[str, Any], *words: str) -> str:
    """Assert `event` is refused after `lines`, its reason naming every one of `words`, the state unchanged."""
    fold = lines if isinstance(lines, Fold) else play(lines)
    before = GAME.to_json(fold.state)
    state = fold.state
    with pytest.raises(IllegalEvent) as err:
        fold.apply(Event(fold.seq + 1, event["type"], event["data"]))
    for w in words:
        assert w in err.value.reason, f"{w!r} not in {err.value.reason!r}"
    assert fold.state is state
    assert GAME.to_json(fold.state) == before
    return err.value.reason


def totals(fold: Fold) -> dict[str, int]:
    return GAME.scores(fold.state).totals


def rounds(fold: Fold) -> list[dict[str, int]]:
    return GAME.scores(fold.state).rounds


def state_json(fold: Fold) -> dict[str, Any]:
    return GAME.to_json(fold.state)


# ---------------------------------------------------------------- rounds used by several files

HIDDEN5: list[str | None] = [None] * 5  # a rack drawn unseen

# A light set where going out happens: four 1-dot corner tiles, one centre tile, five 2-dot edges.
LIGHT = tile_set(C1=[0], C2=[0], C3=[0], C4=[0], C5=[4], D1=[0, 1], D2=[0, 1], D3=[0, 1], D4=[0, 1], D5=[0, 1])


def light_start(
    bo: Sequence[str | None] = ("D1", "D2", "D3", "D4", "D5"), tiles: list[dict[str, Any]] = LIGHT, **options: Any
) -> list[dict[str, Any]]:
    """Ann (C1–C5) draws D1 against Bo's C1 and starts; with LIGHT every tile is in a rack, so the bag
    is empty from the start."""
    return opening({"ann": ["C1", "C2", "C3", "C4", "C5"], "bo": bo}, [{"ann": "D1", "bo": "C1"}],
                   tile_set=tiles, **options)  # fmt: skip


# After light_start, Ann empties her rack on section 5 (5 dots).
ANN_OUT = [place("ann", "C1", 5, [0]), place("ann", "C2", 5, [2]), place("ann", "C3", 5, [6]),
           place("ann", "C4", 5, [8]), place("ann", "C5", 5, [4])]  # fmt: skip

# Sixteen 6-dot tiles (two rows), three 5-dot tiles and one corner dot. A 6 leaves a row of 3 free,
# where neither a 5 nor a 6 fits; only P1 does.
SIX = tile_set(**{f"H{i:02d}": [0, 1, 2, 3, 4, 5] for i in range(1, 17)}, F1=[0, 1, 2, 3, 4], F2=[0, 1, 2, 3, 4],
               F3=[0, 1, 2, 3, 4], P1=[0])  # fmt: skip
ROW2 = [0, 1, 2, 3, 4, 5]


def nine_stacks(bo_seen: bool = True) -> list[dict[str, Any]]:
    """Nine turns, each a 6-dot tile on a new section (6 points); the bag keeps H05 only.
    Ann ends with P1 H12 H14 H16 F3, Bo with F1 H11 H13 H15 F2 (every one drawn unseen unless `bo_seen`)."""
    bo = ["H06", "H07", "H08", "H09", "F1"] if bo_seen else HIDDEN5
    lines = opening({"ann": ["H01", "H02", "H03", "H04", "P1"], "bo": bo}, [{"ann": "H01", "bo": "F1"}],
                    tile_set=SIX)  # fmt: skip
    turns = [("ann", "H01", "H10"), ("bo", "H06", "H11"), ("ann", "H02", "H12"), ("bo", "H07", "H13"),
             ("ann", "H03", "H14"), ("bo", "H08", "H15"), ("ann", "H04", "H16"), ("bo", "H09", "F2"),
             ("ann", "H10", "F3")]  # fmt: skip
    for section, (who, tile, drawn) in enumerate(turns, start=1):
        seen = drawn if bo_seen or who != "bo" else None
        lines += [place(who, tile, section, ROW2), draw(who, seen), end(who)]
    return lines


def bo_exchange(bo_seen: bool = True) -> dict[str, Any]:
    """After nine_stacks Bo cannot play and swaps F1 F2 for H05 F1 (returned tiles go back before the draw)."""
    if bo_seen:
        return ev("tiles_exchanged", player="bo", returned=["F1", "F2"], drawn=["H05", "F1"])
    return ev("tiles_exchanged", player="bo", returned=[None, None], drawn=[None, None])


def blocked_round(bo_seen: bool = True) -> list[dict[str, Any]]:
    """nine_stacks, Bo's exchange, then Ann plays P1 (section 1: 7 dots) and draws F2: nothing fits any more."""
    return nine_stacks(bo_seen) + [bo_exchange(bo_seen), place("ann", "P1", 1, [6]), draw("ann", "F2"), end("ann")]


# ---------------------------------------------------------------- the helpers themselves


def test_opening_builds_a_round_ready_for_play() -> None:
    f = play(light_start())
    s = state_json(f)
    assert s["phase"] == "play" and s["to_act"] == "ann" and s["bag"] == 0
    assert [p["rack"] for p in s["players"]] == [["C1", "C2", "C3", "C4", "C5"], ["D1", "D2", "D3", "D4", "D5"]]


def test_refused_reports_the_reason() -> None:
    lines = light_start()
    reason = refused(lines, place("bo", "D1", 1, [0, 1]), "it is Ann's turn, not Bo's")
    assert reason == "tile_placed: it is Ann's turn, not Bo's"
