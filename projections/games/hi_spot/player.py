"""A seeded random legal Hi-Spot player: plays whole matches for the demo data and the property tests.

The table keeps the real bag and racks (shuffled with `rng`) and asks the reducer what is legal, so
every event it writes has already been accepted by the rules' handler (the package's `GAME` is not
imported here: it is built from this module). With `hidden` > 0 some draws are
written as `null`, as a recorder who does not see the racks would, and the racks are revealed at the
round's end.
"""

from __future__ import annotations

import random
from typing import Any

from projections.games.hi_spot.moves import placements
from projections.games.hi_spot.rules import HANDLERS, NAME, Phase, State, is_blocked, refill_needed, start

STOP_EARLY = 0.15  # chance of ending a turn that could go on: a real player sometimes keeps tiles back
GREEDY = 0.5  # chance of taking the best-scoring placement rather than any legal one


class _Table:
    def __init__(self, rng: random.Random, match_started: dict[str, Any], hidden: float) -> None:
        self.rng, self.hidden = rng, hidden
        self.log: list[dict[str, Any]] = []
        self.state: State = start(match_started["data"])
        self.log.append(match_started)
        self.ids = [p.id for p in self.state.players]
        self.bag: list[str] = []
        self.racks: list[list[str]] = []

    def emit(self, type_: str, data: dict[str, Any]) -> None:
        self.state = HANDLERS[type_](self.state, data)
        self.log.append({"type": type_, "data": data})

    def draw(self, n: int) -> list[str]:
        return [self.bag.pop() for _ in range(n)]

    def written(self, tiles: list[str]) -> list[str | None]:
        """Tiles as the recorder writes them: all shown, or (with chance `hidden`) all unseen."""
        return [None] * len(tiles) if self.rng.random() < self.hidden else list(tiles)

    def play_round(self) -> None:
        self.emit("round_started", {})
        self.bag = sorted(self.state.tiles.ids)
        self.rng.shuffle(self.bag)
        self.racks = [[] for _ in self.ids]
        self.first_player_draw()
        for seat, pid in enumerate(self.ids):
            tiles = self.draw(min(self.state.rack_size, len(self.bag)))
            self.racks[seat] = tiles
            self.emit("tiles_drawn", {"player": pid, "tiles": self.written(tiles)})
        while self.state.phase is Phase.PLAY:
            if is_blocked(self.state):
                self.emit("round_ended", {"reason": "blocked"})
            else:
                assert self.state.current is not None
                self.play_turn(self.state.current)
        if self.state.phase is Phase.REVEAL:
            self.emit("racks_revealed", {"racks": {pid: list(self.racks[s]) for s, pid in enumerate(self.ids)}})

    def first_player_draw(self) -> None:
        aside: list[str] = []
        to_draw = list(range(len(self.ids)))
        while self.state.phase is Phase.FIRST_DRAW:
            if len(self.bag) < len(to_draw):  # the reducer's rule: the set-aside tiles go back first
                self.bag += aside
                aside = []
                self.rng.shuffle(self.bag)
            draws = {self.ids[s]: self.bag.pop() for s in to_draw}
            aside += draws.values()
            self.emit("first_player_drawn", {"draws": draws})
            to_draw = list(self.state.to_draw)
        self.bag += aside
        self.rng.shuffle(self.bag)

    def play_turn(self, seat: int) -> None:
        pid, rack = self.ids[seat], self.racks[seat]
        if not placements(self.state, seat, rack):
            self.exchange(seat)
            return
        while True:
            if not rack:
                if not self.bag:
                    break  # gone out
                drawn = self.draw(refill_needed(self.state, seat))  # the mid-turn refill
                rack += drawn
                self.emit("tiles_drawn", {"player": pid, "tiles": self.written(drawn)})
            moves = placements(self.state, seat, rack)
            if not moves or (self.state.turn is not None and self.rng.random() < STOP_EARLY):
                break
            if self.rng.random() < GREEDY:
                move = max(moves, key=lambda m: m["points"])
            else:
                move = self.rng.choice(moves)
            rack.remove(move["data"]["tile"])
            stack = self.state.tray[move["data"]["section"] - 1]
            self.emit("tile_placed", move["data"])
            last = self.state.last
            if last is not None and last[8]:  # cleared (clear_full_stacks): the stack goes back into the bag
                self.bag += [t for t, _ in stack[2]] if stack is not None else []  # its layers
                self.bag.append(move["data"]["tile"])
                self.rng.shuffle(self.bag)
        need = refill_needed(self.state, seat)
        if need:
            drawn = self.draw(need)
            rack += drawn
            self.emit("tiles_drawn", {"player": pid, "tiles": self.written(drawn)})
        self.emit("turn_ended", {"player": pid})

    def exchange(self, seat: int) -> None:
        rack = self.racks[seat]
        returned = self.rng.sample(rack, self.rng.randint(1, len(rack)))
        known = set(self.state.racks[seat][0])
        for t in returned:
            rack.remove(t)
        self.bag += returned
        self.rng.shuffle(self.bag)
        drawn = self.draw(len(returned))
        rack += drawn
        shown = [t if t in known else None for t in returned]  # an unseen tile goes back unseen
        self.emit(
            "tiles_exchanged",
            {"player": self.ids[seat], "returned": shown, "drawn": self.written(drawn)},
        )


def random_match(
    rng: random.Random,
    players: list[dict[str, str]],
    options: dict[str, Any] | None = None,
    hidden: float = 0.0,
) -> list[dict[str, Any]]:
    """A complete match log in import form. `hidden`: the chance that a draw is written unseen (null)."""
    first = {
        "type": "match_started",
        "data": {"game": NAME, "players": [dict(p) for p in players], "options": dict(options or {})},
    }
    table = _Table(rng, first, hidden)
    while table.state.phase is not Phase.FINISHED:
        table.play_round()
    return table.log
