"""A seeded random legal Tri-Ominos player: it deals from a shuffled set and plays whole matches.

Every move comes from `legal_moves` on a state where every hand is known (the table's truth). With
`hidden=True` the log it writes records deals and draws as `null`, as a scorekeeper who does not see
the tiles would, and adds `hands_revealed` at each round's end; both logs give the same scores.
"""

from __future__ import annotations

import random
from typing import Any

from projections.games.tri_ominos.moves import legal_moves
from projections.games.tri_ominos.rules import HANDLERS, NAME, Phase, State, deal_size, is_finished, start
from projections.games.tri_ominos.tiles import ALL_TILES

MAX_ROUNDS = 1000  # far beyond any real match; a guard so a broken rule can never loop forever
GREEDY = 0.6  # how often the player takes its best-scoring placement (keeps matches short)


class _Table:
    """The recorded log and the two states it is folded into: as recorded, and with all tiles known."""

    def __init__(self, data: dict[str, Any], hidden: bool) -> None:
        self.hidden = hidden
        self.log: list[dict[str, Any]] = [{"type": "match_started", "data": data}]
        self.recorded: State = start(data)
        self.truth: State = self.recorded

    def record(self, type_: str, data: dict[str, Any], truth_data: dict[str, Any] | None = None) -> None:
        """Append an event; `truth_data` is what really happened where the log hides it."""
        self.log.append({"type": type_, "data": data})
        # The rules' handlers directly: the player never records into a finished match.
        handler = HANDLERS[type_]
        self.recorded = handler(self.recorded, data)
        if type_ != "hands_revealed":
            self.truth = handler(self.truth, truth_data if truth_data is not None else data)


def random_match(
    rng: random.Random,
    players: list[dict[str, str]],
    options: dict[str, Any] | None = None,
    hidden: bool = False,
) -> list[dict[str, Any]]:
    """A complete legal match log in import form, deterministic for the state of `rng`.

    `hidden=True` records deals and draws as null, with a `hands_revealed` where a round needs it."""
    data: dict[str, Any] = {"game": NAME, "players": [dict(p) for p in players]}
    if options:
        data["options"] = dict(options)
    table = _Table(data, hidden)
    ids = [p["id"] for p in players]
    for _ in range(MAX_ROUNDS):
        if is_finished(table.recorded):
            return table.log
        _play_round(table, ids, rng)
    raise RuntimeError(f"no one reached the target score in {MAX_ROUNDS} rounds")


def _play_round(table: _Table, ids: list[str], rng: random.Random) -> None:
    table.record("round_started", {})
    well = list(ALL_TILES)
    rng.shuffle(well)
    size = deal_size(len(ids))
    for pid in ids:
        hand, well = well[:size], well[size:]
        shown_hand: list[str | None] = [None] * size if table.hidden else list(hand)
        table.record("tiles_dealt", {"player": pid, "tiles": shown_hand}, {"player": pid, "tiles": hand})
    assert table.truth.phase is Phase.STARTING
    starts = [m for pid in ids for m in legal_moves(table.truth, pid)]
    _play(table, rng.choice(starts))
    while table.truth.phase is Phase.PLAYING:
        turn = table.truth.turn
        assert turn is not None
        moves = legal_moves(table.truth, ids[turn])
        placements = [m for m in moves if m["type"] == "tile_placed"]
        if placements:
            if rng.random() < GREEDY:
                best = max(m["points"] for m in placements)
                placements = [m for m in placements if m["points"] == best]
            _play(table, rng.choice(placements))
        elif moves[0]["type"] == "tile_drawn":
            tile = well.pop()
            drawn = {"player": ids[turn], "tile": None if table.hidden else tile}
            table.record("tile_drawn", drawn, {"player": ids[turn], "tile": tile})
        else:
            _play(table, moves[0])
    if table.recorded.phase is Phase.REVEALING:
        hands = {
            pid: list(hand.known)
            for pid, hand, rec in zip(ids, table.truth.hands, table.recorded.hands, strict=True)
            if hand is not None and rec is not None and rec.hidden
        }
        table.record("hands_revealed", {"hands": hands})
    assert table.recorded.phase in (Phase.WAITING, Phase.FINISHED) and table.recorded.totals == table.truth.totals


def _play(table: _Table, move: dict[str, Any]) -> None:
    table.record(move["type"], move["data"])
