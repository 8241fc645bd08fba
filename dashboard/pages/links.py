"""Addresses of the dashboard's pages, built in one place."""

from __future__ import annotations

from urllib.parse import quote


def player_href(player_id: str) -> str:
    return f"/players/{quote(player_id, safe='')}"


def replay_href(match_id: str) -> str:
    return f"/matches/{quote(match_id, safe='')}"


def tournament_href(tournament_id: str, round_: int | None = None) -> str:
    """A tournament's page; with `round_`, its table sheet of that round."""
    href = f"/tournaments/{quote(tournament_id, safe='')}"
    return href if round_ is None else f"{href}?round={round_}"


def ratings_href(game: str | None = None) -> str:
    return "/ratings" if game is None else f"/ratings?game={quote(game, safe='')}"


def standings_csv_href(tournament_id: str) -> str:
    """The API's standings as a CSV file (a download)."""
    return f"/api/tournaments/{quote(tournament_id, safe='')}/standings?format=csv"


def archive_href(tournament_id: str) -> str:
    """The API's archive of the tournament and its matches (a download)."""
    return f"/api/tournaments/{quote(tournament_id, safe='')}/archive"
