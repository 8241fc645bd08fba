"""Small Hats Off logs for the store, API and CLI tests (Hats Off: any launch order is legal)."""

from __future__ import annotations

from typing import Any

PLAYERS = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]
START: dict[str, Any] = {"game": "hats-off", "players": PLAYERS, "options": {}}


def launch(player: str, hat: int, hole: int | None = None, area: str | None = None) -> dict[str, Any]:
    to: Any = "off" if hole is None else {"hole": {"area": area or player, "number": hole}}
    return {"type": "hat_launched", "data": {"player": player, "hat": hat, "to": to}}


def round_start(caller: str = "ann") -> dict[str, Any]:
    return {"type": "round_started", "data": {"caller": caller}}


def illegal_launch() -> dict[str, Any]:
    """Hat 7 does not exist."""
    return {"type": "hat_launched", "data": {"player": "ann", "hat": 7, "to": "off"}}
