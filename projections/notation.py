"""The scorepad's one-line notation for any event: the shared events here, each game's in its package
(`projections/games/<game>/notation.py`). One definition serves the pad's keyboard line, the `notation`
of every legal move in the API, and docs/scorepad.md.

Shared lines: `note <text>` (`note #7 <text>` about seq 7) and `rewind <seq> <reason>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from projections.errors import IllegalEvent
from projections.options import is_int
from projections.protocol import Game, S

_NOTE = re.compile(r"^note(?:\s+#(\d+))?(?:\s+(.*))?$", re.S)
_REWIND = re.compile(r"^rewind\s+#?(\d+)(?:\s+(.*))?$", re.S)


def to_notation(game: Game[Any], event: Mapping[str, Any]) -> str:
    """`event` ({type, data}) as the line a scorekeeper would type."""
    data = event.get("data") or {}
    if event["type"] == "note":
        about = data.get("about_seq")
        return f"note{f' #{about}' if is_int(about) else ''} {data.get('text', '')}".rstrip()
    if event["type"] == "rewind":
        return f"rewind {data.get('to_seq')} {data.get('reason', '')}".rstrip()
    if event["type"] == "bag_revealed":  # the server's, never typed
        return f"bag revealed {data.get('seed')}"
    return game.notation(event)


def parse_line(game: Game[S], state: S, text: str) -> dict[str, Any]:
    """The event a typed line records, in `state`; IllegalEvent saying what was not understood."""
    line = " ".join(text.split())
    if not line:
        raise IllegalEvent("type a move, e.g. one of the suggestions")
    if line == "note" or line.startswith("note "):
        m = _NOTE.match(line)
        if m is None or not m.group(2):
            raise IllegalEvent("a note needs its text: note Bo asks for a ruling")
        data: dict[str, Any] = {"text": m.group(2)}
        if m.group(1):
            data["about_seq"] = int(m.group(1))
        return {"type": "note", "data": data}
    if line == "rewind" or line.startswith("rewind "):
        m = _REWIND.match(line)
        if m is None or not m.group(2):
            raise IllegalEvent("a rewind needs the seq to go back to and a reason: rewind 12 tile on the wrong cell")
        return {"type": "rewind", "data": {"to_seq": int(m.group(1)), "reason": m.group(2)}}
    return game.parse_notation(state, line)


def legal_moves(game: Game[S], state: S, players: Iterable[str]) -> list[dict[str, Any]]:
    """Every legal next event of any of `players`, each with its `notation` (duplicates dropped)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    if game.is_finished(state):
        return out
    for player in players:
        for move in game.legal_moves(state, player):
            line = game.notation(move)
            if line not in seen:
                seen.add(line)
                out.append({**move, "notation": line})
    return out
