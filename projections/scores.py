"""FORMAT.md's scores JSON, from a fold at any seq."""

from __future__ import annotations

from typing import Any

from projections.timeline import Fold


def scores_json(fold: Fold, match_id: str | None = None) -> dict[str, Any]:
    sheet = fold.game.scores(fold.state)
    return {
        "match_id": match_id,
        "game": fold.game.name,
        "seq": fold.seq,
        "status": "finished" if sheet.finished else "in_progress",
        "players": [{"id": pid, "name": name, "score": sheet.totals.get(pid, 0)} for pid, name in fold.players],
        "winners": [pid for pid, _ in fold.players if pid in sheet.winners] if sheet.finished else [],
        "rounds": [{"number": i, "scores": dict(r)} for i, r in enumerate(sheet.rounds, start=1)],
    }
