"""A seeded random legal High Five player: whole match logs for demos, the dashboard and property tests.

It deals from a shuffled double-fifteen set and picks among `moves.legal_moves`, so every event it writes
is one the reducer accepts. It mostly captures, sometimes misses a capture on purpose (so claims happen),
and claims some pairs before its play and some after.
"""

from __future__ import annotations

import random
from typing import Any

from projections.games.high_five import rules
from projections.games.high_five import tiles as hf
from projections.games.high_five.moves import legal_moves
from projections.games.high_five.rules import LAYOUT_SIZE, Phase, State, hand_sizes

# After this many games the player turns greedy (always takes the best capture and every claim), so
# points keep coming and the target is always reached.
GREEDY_AFTER_GAMES = 20


class _Table:
    """The match being played: the log, the reducer state and the shuffled boneyard."""

    def __init__(self, rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None) -> None:
        self.rng = rng
        data = {"game": rules.NAME, "players": [dict(p) for p in players], "options": dict(options or {})}
        self.log: list[dict[str, Any]] = [{"type": "match_started", "data": data}]
        self.state: State = rules.start(data)
        self.deck: list[str] = []

    def push(self, type_: str, data: dict[str, Any]) -> None:
        self.state = rules.HANDLERS[type_](self.state, data)
        self.log.append({"type": type_, "data": data})

    @property
    def greedy(self) -> bool:
        return self.state.game > GREEDY_AFTER_GAMES

    def new_game(self) -> None:
        self.deck = list(hf.TILES)
        self.rng.shuffle(self.deck)
        self.push("game_started", {"layout": self.deck[:LAYOUT_SIZE]})
        del self.deck[:LAYOUT_SIZE]

    def deal(self) -> None:
        n = self.state.n
        first, later = hand_sizes(n)
        size = first if self.state.hand_number == 0 else later
        hands = {p.id: self.deck[i * size : (i + 1) * size] for i, p in enumerate(self.state.players)}
        del self.deck[: size * n]
        data: dict[str, Any] = {"hands": hands}
        if len(self.deck) < later * n:
            data["to_layout"] = self.deck[:]
            self.deck.clear()
        self.push("hand_dealt", data)

    def claims(self, seat: int | None, eagerness: float) -> None:
        """Some of the pairs this seat may claim now, one by one."""
        while seat is not None and self.state.winner is None:
            pid = self.state.players[seat].id
            moves = [m for m in legal_moves(self.state, pid) if m["type"] == "pair_claimed"]
            if not moves or (not self.greedy and self.rng.random() >= eagerness):
                return
            self.push("pair_claimed", self.rng.choice(moves)["data"])

    def play(self, seat: int) -> None:
        pid = self.state.players[seat].id
        plays = [m for m in legal_moves(self.state, pid) if m["type"] == "tile_played"]
        captures = [m for m in plays if m["data"]["capture"] is not None]
        if captures and self.greedy:
            move = max(captures, key=lambda m: m["points"])
        elif captures and self.rng.random() < 0.85:
            move = self.rng.choice(captures)
        else:
            move = self.rng.choice(plays)
        self.push("tile_played", move["data"])


def random_match(
    rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """A complete legal match in import form, the same for the same seed."""
    table = _Table(rng, players, options)
    while table.state.winner is None:
        state = table.state
        phase = state.phase
        if phase in (Phase.BEFORE_GAME, Phase.GAME_OVER, Phase.AWAITING_DEAL):
            table.claims(state.claimer_after_play, 0.5)  # the last player's claims before the deal
            if table.state.winner is not None:
                break
            if phase is Phase.AWAITING_DEAL:
                table.deal()
            else:
                table.new_game()
            continue
        table.claims(state.claimer_after_play, 0.3)  # claims after one's own play
        if table.state.winner is not None:
            break
        assert state.to_play is not None
        table.claims(state.to_play, 0.7)  # claims before one's play
        if table.state.winner is None:
            table.play(state.to_play)
    return table.log
