"""A seeded random Hats Off table: realistic rounds built on `legal_moves`, for demo data and property tests.

Each player gets an accuracy for the match; a launch mostly lands point down in the player's own area,
sometimes nests into a stack there, sometimes hits another area, the board or the floor. Now and then a
hat is knocked, two players call HATS OFF together, and hats still flying at the call land afterwards.
"""

from __future__ import annotations

import random
from typing import Any

from projections.games.hats_off.board import HAT_NUMBERS
from projections.games.hats_off.moves import legal_moves
from projections.games.hats_off.rules import HANDLERS, NAME, State, is_finished, start

# After this many rounds only the READY-SET-GO caller plays (others hold back): the caller alone gains
# every round, so ties at the top break and the target is reached — every match terminates.
ENDGAME_ROUND = 30

KNOCK_CHANCE = 0.05
TOGETHER_CHANCE = 0.15  # a player one hat short launches it and calls HATS OFF together
IN_FLIGHT_CHANCE = 0.4
LATE_LAUNCH_CHANCE = 0.15  # a launch after the call that counts for nothing


def _kind(move: dict[str, Any]) -> str:
    """own_hole, own_nest, other (another area), board or off."""
    to = move["data"]["to"]
    if isinstance(to, str):
        return to
    if move["area"] != move["data"]["player"]:
        return "other"
    return "own_nest" if "in_hat" in to else "own_hole"


class _Table:
    def __init__(self, rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None) -> None:
        self.rng = rng
        data = {"game": NAME, "players": [dict(p) for p in players], "options": dict(options or {})}
        self.log: list[dict[str, Any]] = [{"type": "match_started", "data": data}]
        self.state: State = start(data)
        self.ids = [p.id for p in self.state.players]
        self.accuracy = {p: rng.uniform(0.45, 0.8) for p in self.ids}

    def record(self, move: dict[str, Any]) -> None:
        event = {"type": move["type"], "data": move["data"]}
        self.state = HANDLERS[event["type"]](self.state, event["data"])
        self.log.append(event)

    def unlaunched(self, player: str) -> list[int]:
        return [n for n in HAT_NUMBERS if (player, n) not in self.state.hats]

    def aim(self, player: str, hat: int, careful: bool, in_flight: bool = False) -> dict[str, Any]:
        moves = [
            m for m in legal_moves(self.state, player)
            if m["type"] == "hat_launched" and m["data"]["hat"] == hat and m["counts"]
            and bool(m["data"].get("in_flight")) == in_flight
        ]
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for m in moves:
            by_kind.setdefault(_kind(m), []).append(m)
        acc = 1.0 if careful else self.accuracy[player]
        weights = {
            "own_hole": acc * 0.85, "own_nest": acc * 0.15 + 0.03,
            "other": (1 - acc) * 0.4, "board": (1 - acc) * 0.35, "off": (1 - acc) * 0.25,
        }
        kinds = [k for k in weights if by_kind.get(k) and weights[k] > 0] or ["off"]
        kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
        return self.rng.choice(by_kind[kind])

    def knock(self) -> None:
        """A hat on the table gets knocked somewhere else: mostly out of place, sometimes into a hole."""
        owners = [p for p in self.ids if any(h[0] == p and ld.counts for h, ld in self.state.hats.items())]
        if not owners:
            return
        owner = self.rng.choice(owners)
        moves = [m for m in legal_moves(self.state, owner) if m["type"] == "hat_moved"]
        hat = self.rng.choice(sorted({m["data"]["hat"] for m in moves}))
        moves = [m for m in moves if m["data"]["hat"] == hat]
        kinds = sorted({_kind(m) for m in moves})
        kind = self.rng.choice(kinds)
        self.record(self.rng.choice([m for m in moves if _kind(m) == kind]))

    def play_round(self) -> None:
        caller = self.ids[self.state.round % len(self.ids)]
        self.record(legal_moves(self.state, caller)[0])
        endgame = self.state.round > ENDGAME_ROUND
        # Before the call: players launch in a random interleaving until someone has launched all 6.
        while not self.state.called:
            if not endgame and self.rng.random() < KNOCK_CHANCE:
                self.knock()
                continue
            shooters = [caller] if endgame else [p for p in self.ids if self.unlaunched(p)]
            player = self.rng.choice(shooters)
            self.record(self.aim(player, self.rng.choice(self.unlaunched(player)), careful=endgame))
            if not self.unlaunched(player):
                self.call_hats_off(player)
        # After the call: hats in flight land, some late launches are written down for nothing.
        for player in self.rng.sample(self.ids, len(self.ids)):
            left = self.unlaunched(player)
            if not left or endgame:
                continue
            if self.rng.random() < IN_FLIGHT_CHANCE:
                self.record(self.aim(player, left.pop(self.rng.randrange(len(left))), False, in_flight=True))
            if left and self.rng.random() < LATE_LAUNCH_CHANCE:
                late = [
                    m for m in legal_moves(self.state, player)
                    if m["type"] == "hat_launched" and not m["counts"] and m["data"]["hat"] == left[0]
                ]
                self.record(self.rng.choice(late))
        if not endgame and self.rng.random() < KNOCK_CHANCE * 2:
            self.knock()
        self.record({"type": "round_ended", "data": {}})

    def call_hats_off(self, player: str) -> None:
        almost = [p for p in self.ids if p != player and len(self.unlaunched(p)) == 1]
        callers = [player]
        if almost and self.rng.random() < TOGETHER_CHANCE:
            other = self.rng.choice(almost)
            self.record(self.aim(other, self.unlaunched(other)[0], careful=False))
            callers.append(other)
        callers.sort(key=self.ids.index)
        self.record({"type": "hats_off_called", "data": {"players": callers}})


def random_match(
    rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """A complete legal match log in import form, deterministic for the state of `rng`."""
    table = _Table(rng, players, options)
    while not is_finished(table.state):
        table.play_round()
    return table.log
