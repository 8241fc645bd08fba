"""Hand-written Hats Off logs with known statistics: an unfinished match with a note and a referee's rewind, and a
finished one."""

from __future__ import annotations

from typing import Any

ANN_BO = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]


def start(target: int = 75, date: str = "2026-09-05") -> dict[str, Any]:
    return {"type": "match_started", "data": {"game": "hats-off", "players": ANN_BO,
                                              "options": {"target_score": target}, "meta": {"date": date}}}


def hole(player: str, hat: int, number: int, area: str | None = None) -> dict[str, Any]:
    return {"type": "hat_launched",
            "data": {"player": player, "hat": hat, "to": {"hole": {"area": area or player, "number": number}}}}


def nest(player: str, hat: int, owner: str, into: int) -> dict[str, Any]:
    return {"type": "hat_launched", "data": {"player": player, "hat": hat, "to": {"in_hat": {"player": owner,
                                                                                              "hat": into}}}}


def off(player: str, hat: int) -> dict[str, Any]:
    return {"type": "hat_launched", "data": {"player": player, "hat": hat, "to": "off"}}


ROUND = {"type": "round_started", "data": {"caller": "ann"}}


# An unfinished match with a note and a referee's rewind: seq 7 is undone by the rewind at seq 8.
REWOUND = [
    start(),                                    # 1
    ROUND,                                      # 2
    hole("ann", 1, 1),                          # 3  Ann +5 (hole)
    hole("bo", 1, 1),                           # 4  Bo +5 (hole)
    nest("ann", 2, "ann", 1),                   # 5  Ann +10 (nested)
    off("bo", 2),                               # 6  Bo 0
    hole("bo", 3, 2),                           # 7  Bo +5 — superseded
    {"type": "rewind", "data": {"to_seq": 6, "reason": "hat 3 bounced out"}},  # 8
    {"type": "note", "data": {"text": "checked with both players"}},          # 9
    off("bo", 3),                               # 10 Bo 0
]


# A finished match: Ann throws all six (one in a hole), calls HATS OFF (+5), reaches the target of 10.
FINISHED = [
    start(target=10, date="2026-09-12"),
    ROUND,
    hole("ann", 1, 1),
    off("ann", 2), off("ann", 3), off("ann", 4), off("ann", 5), off("ann", 6),
    hole("bo", 1, 3),
    {"type": "hats_off_called", "data": {"players": ["ann"]}},
    {"type": "round_ended", "data": {}},
]
