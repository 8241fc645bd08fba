"""Addresses of the dashboard's pages, built in one place."""

from __future__ import annotations

from urllib.parse import quote


def player_href(player_id: str) -> str:
    return f"/players/{quote(player_id, safe='')}"


def replay_href(match_id: str) -> str:
    return f"/matches/{quote(match_id, safe='')}"
