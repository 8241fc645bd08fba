"""Games: what Scorebook records, each game's options and events, and the JSON Schema of every event's data."""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

from fastapi import APIRouter

from recorder.api.deps import Book
from recorder.api.errors import responses
from recorder.api.models import GameList, GameSchema

router = APIRouter(prefix="/games", tags=["games"])


@router.get("", summary="Every game: players, options with their defaults, event types")
def list_games(sb: Book) -> GameList:
    return GameList.model_validate({"games": sb.games()})


@router.get(
    "/{game}/schema",
    summary="JSON Schema of every event's data for a game (the shared events included)",
    responses=responses(404, s404="No such game (the answer names the known ones)"),
)
def game_schema(sb: Book, game: str) -> GameSchema:
    return GameSchema.model_validate(sb.game_schema(game))
