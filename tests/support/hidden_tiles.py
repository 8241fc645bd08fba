"""Finding hidden tiles in what a reader gets: which tile ids of a match were never shown to the table,
and where any of them appears in a body or a text.

A tile id is matched as a whole token: not preceded or followed by a word character or a hyphen, so
"5-5" is not found inside "5-5-5" or "15-5", nor "T2" inside "T20" (no false positives from ids that
contain one another, dates or hashes)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from projections.protocol import Game


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def secret_tiles(game: Game[Any], log: Iterable[Mapping[str, Any]]) -> set[str]:
    """Tile ids named only in hidden fields of the log's events (a deal, a draw, an exchange), never in a
    public one (a placement, a first-player draw, a reveal): what a spectator must not learn."""
    hidden: set[str] = set()
    public: set[str] = set()
    d = game.descriptor
    for line in log:
        data = line.get("data") or {}
        specs = d.event(line["type"]).hidden if line["type"] in d.event_types else ()
        fields = {h.path.split(".")[0] for h in specs}
        for key, value in data.items():
            (hidden if key in fields else public).update(_strings(value))
    player_ids = {p["id"] for line in log if line["type"] == "match_started" for p in line["data"]["players"]}
    return hidden - public - player_ids


def leaks(text: str, secret: Iterable[str]) -> list[str]:
    """The secret tile ids that `text` names, as whole tokens."""
    return sorted(t for t in secret if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text))


def in_progress_log(game: Game[Any], seed: int, players: list[dict[str, str]], fraction: float = 0.4) -> list[
        dict[str, Any]]:
    """A seeded random match cut before its end (at `fraction` of its events), with secret tiles in hands."""
    import random

    log = game.random_match(random.Random(seed), players, None)
    return log[: max(2, int(len(log) * fraction))]
