"""Small builders for hand-written Hi-Spot logs, shared by the Hi-Spot tests (checked in test_hi_spot_helpers.py),
the opening the rules tests build on, and the check that every tile is accounted for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.games.hi_spot import GAME
from projections.games.hi_spot.rules import State, stack_points, tiles_held, turn_points
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


# 22 tiles, light enough for the bag to empty, so rounds end by going out (the property runs).
LIGHT22 = tile_set(
    L01=[0], L02=[4], L03=[1], L04=[0, 1], L05=[0, 2], L06=[1, 3], L07=[0, 4], L08=[2, 6], L09=[4], L10=[0],
    L11=[1, 4], L12=[0, 8], L13=[0, 1, 2], L14=[3, 4], L15=[4, 8], L16=[0], L17=[1], L18=[2], L19=[5], L20=[6],
    L21=[7, 8], L22=[0, 4, 8],
)  # fmt: skip


def check_accounting(s: State) -> None:
    """Every tile is in exactly one place: the tray, a rack (known or hidden), set aside, or the bag."""
    on_tray = [t for st_ in s.tray if st_ is not None for t, _ in st_[2]]  # the stacks' layers
    known = on_tray + [t for r in s.racks for t in r[0]] + list(s.aside)
    assert len(known) == len(set(known))
    assert set(known) == s.located
    if s.round_no:
        assert len(on_tray) + sum(tiles_held(r) for r in s.racks) + len(s.aside) + s.bag == len(s.tiles)
    for stack in s.tray:
        if stack is not None:  # no dot covers another
            _, mask, layers, _ = stack
            assert sum(bin(m).count("1") for _, m in layers) == bin(mask).count("1")
    # The points a turn keeps up to date are those its stacks score now.
    assert turn_points(s, s.turn) == (sum(stack_points(s, s.turn).values()) if s.turn is not None else 0)


# TRI: a row of 3; MID: the middle row; DUO: 2 side by side; ONE: a corner dot; CEN: the centre; SIX: two rows.
SET = tile_set(
    TRI1=[0, 1, 2], TRI2=[0, 1, 2], TRI3=[0, 1, 2], TRI4=[0, 1, 2],
    MID1=[3, 4, 5], MID2=[3, 4, 5],
    DUO1=[0, 1], DUO2=[0, 1], DUO3=[0, 1], DUO4=[0, 1],
    ONE1=[0], ONE2=[0], ONE3=[0], ONE4=[0], ONE5=[0], ONE6=[0],
    CEN1=[4], CEN2=[4],
    SIX1=[0, 1, 2, 3, 4, 5],
)  # fmt: skip


def start(**options: Any) -> list[dict[str, Any]]:
    """Ann draws SIX1 (6 dots) against Bo's ONE4 (1) and starts; both go back, so the bag holds
    TRI4 MID2 DUO3 DUO4 ONE4 ONE5 ONE6 CEN2 SIX1 (9 tiles)."""
    return opening(
        {"ann": ["TRI1", "TRI2", "ONE1", "ONE2", "CEN1"], "bo": ["TRI3", "MID1", "DUO1", "DUO2", "ONE3"]},
        [{"ann": "SIX1", "bo": "ONE4"}],
        tile_set=SET,
        **options,
    )


def lone_three(**options: Any) -> list[dict[str, Any]]:
    """Ann starts section 1 with TRI1 (3 points) and refills ONE4."""
    return start(**options) + [place("ann", "TRI1", 1, [0, 1, 2]), draw("ann", "ONE4"), end("ann")]


def bo_adds_three_and_two(**options: Any) -> list[dict[str, Any]]:
    """After lone_three, Bo adds MID1 (3) and DUO1 (2) to section 1, 8 dots and 8 points, and refills TRI4 DUO3."""
    bo_turn = [place("bo", "MID1", 1, [3, 4, 5]), place("bo", "DUO1", 1, [6, 7]), draw("bo", "TRI4", "DUO3"), end("bo")]
    return lone_three(**options) + bo_turn
