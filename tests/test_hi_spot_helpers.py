"""Small builders for hand-written Hi-Spot logs, shared by the test_hi_spot_* files (and checked here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from projections.errors import IllegalEvent
from projections.events import Event
from projections.hi_spot import GAME
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


# A light set where going out happens: four 1-dot corner tiles, one centre tile, five 2-dot edges.
LIGHT = tile_set(C1=[0], C2=[0], C3=[0], C4=[0], C5=[4], D1=[0, 1], D2=[0, 1], D3=[0, 1], D4=[0, 1], D5=[0, 1])


def test_opening_builds_a_round_ready_for_play() -> None:
    f = play(
        opening(
            {"ann": ["C1", "C2", "C3", "C4", "C5"], "bo": ["D1", "D2", "D3", "D4", "D5"]},
            [{"ann": "D1", "bo": "C1"}],
            tile_set=LIGHT,
        )
    )
    s = state_json(f)
    assert s["phase"] == "play" and s["to_act"] == "ann" and s["bag"] == 0
    assert [p["rack"] for p in s["players"]] == [["C1", "C2", "C3", "C4", "C5"], ["D1", "D2", "D3", "D4", "D5"]]


def test_refused_reports_the_reason() -> None:
    lines = opening(
        {"ann": ["C1", "C2", "C3", "C4", "C5"], "bo": ["D1", "D2", "D3", "D4", "D5"]},
        [{"ann": "D1", "bo": "C1"}],
        tile_set=LIGHT,
    )
    reason = refused(lines, place("bo", "D1", 1, [0, 1]), "it is Ann's turn, not Bo's")
    assert reason == "tile_placed: it is Ann's turn, not Bo's"
