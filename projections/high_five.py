"""High Five (RULES.md §2): the double-fifteen capture game, as a pure reducer.

A match is a series of games (passes through the set); a game is a series of hands played into a face-up
layout. The state is a frozen dataclass of tuples, so `apply` builds a new state with `dataclasses.replace`
and never touches the one it was given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from projections import high_five_tiles as hf
from projections.errors import IllegalEvent
from projections.events import Event
from projections.options import Option, Player, parse_options, parse_players, positive_int, require
from projections.protocol import Annotation, ScoreSheet

LAYOUT_SIZE = 5
NO_GAME = f"no game is running; game_started with the {LAYOUT_SIZE} layout tiles comes first"

OPTIONS = {
    "target_score": Option(100, positive_int, "the first player whose score reaches it wins at once"),
    "first_player": Option(
        None,
        lambda v: None if isinstance(v, str) and v else "must be a player id",
        "the player who leads every hand (default: the first seat)",
    ),
}


def hand_sizes(n_players: int) -> tuple[int, int]:
    """(first hand, later hands) per player, by player count."""
    if n_players <= 4:
        return 5, 5
    if n_players <= 6:
        return 4, 4
    return 4, 3


@dataclass(frozen=True)
class Hand:
    known: tuple[str, ...] = ()
    hidden: int = 0  # tiles dealt face down to the recorder (`null`)

    @property
    def size(self) -> int:
        return len(self.known) + self.hidden


@dataclass(frozen=True)
class MissedPair:
    """A claimable pair: a tile played and left in the layout, with a layout tile it matched then."""

    played: str
    partner: str
    seat: int  # who left it
    turn: int  # the play (match-wide count) that left it

    def tiles(self) -> frozenset[str]:
        return frozenset((self.played, self.partner))


@dataclass(frozen=True)
class LastPlay:
    seat: int
    tile: str
    capture: str | None


@dataclass(frozen=True)
class HighFiveState:
    players: tuple[Player, ...]
    target_score: int
    leader: int  # seat leading every hand
    totals: tuple[int, ...]  # match score per seat
    rounds: tuple[tuple[int, ...], ...] = ()  # points per seat for each game, the running one last
    game: int = 0  # games started so far
    layout: tuple[str, ...] = ()
    boneyard: int = 0
    hands: tuple[Hand, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()  # this game's captured tiles per seat
    seen: frozenset[str] = frozenset()  # this game's tiles whose place is known (layout, piles, known hands)
    hand_number: int = 0  # hands dealt in this game
    last_hand: bool = False  # the boneyard's remainder went into the layout
    to_play: int | None = None  # seat whose play is next; None when every hand is empty
    claimer_after_play: int | None = None  # the seat that just played and may still claim
    plays: int = 0
    missed: tuple[MissedPair, ...] = ()
    last_play: LastPlay | None = None
    winner: int | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    def name(self, seat: int) -> str:
        return self.players[seat].name

    @property
    def phase(self) -> str:
        if self.winner is not None:
            return "finished"
        if self.game == 0:
            return "before_game"
        if self.to_play is not None:
            return "playing"
        return "game_over" if self.last_hand else "awaiting_deal"


# --- small helpers -----------------------------------------------------------------------------------


def _seat(state: HighFiveState, player: Any, what: str) -> int:
    if not isinstance(player, str):
        raise IllegalEvent(f"{what}: player must be a player id string (got {player!r})")
    for i, p in enumerate(state.players):
        if p.id == player:
            return i
    known = ", ".join(p.id for p in state.players)
    raise IllegalEvent(f"{what}: unknown player {player!r}; players are {known}")


def _tile(x: Any, what: str) -> str:
    if not hf.is_tile(x):
        raise IllegalEvent(f'{what}: {x!r} is not a High Five tile (write "a-b" with a ≤ b, 0 to 15)')
    return str(x)


def _where(state: HighFiveState, tile: str) -> str | None:
    """Where a tile of the running game is known to be, in words, or None."""
    if tile in state.layout:
        return "in the layout"
    for i, pile in enumerate(state.piles):
        if tile in pile:
            return f"in {state.name(i)}'s pile"
    for i, hand in enumerate(state.hands):
        if tile in hand.known:
            return f"in {state.name(i)}'s hand"
    return None


def _hand_text(hand: Hand) -> str:
    parts = list(hand.known) + (["hidden"] * hand.hidden if hand.hidden else [])
    return ", ".join(parts) if parts else "nothing"


def _without(tiles: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    return tuple(t for t in tiles if t not in gone)


def _set_seat(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def _not_in_layout(state: HighFiveState, tile: str, verb: str) -> str:
    where = _where(state, tile)
    return f"cannot {verb} {tile}: it is not in the layout" + (f" (it is {where})" if where else "")


def _no_match(t: str, u: str) -> str:
    return f"{t} does not match {u}: no end in common"


# --- the game ------------------------------------------------------------------------------------------


class HighFive:
    name = "high-five"
    min_players = 2
    max_players = 8
    event_types = frozenset({"game_started", "hand_dealt", "tile_played", "pair_claimed"})

    def start(self, data: Mapping[str, Any]) -> HighFiveState:
        players = parse_players(data, self.name, self.min_players, self.max_players)
        options = parse_options(data.get("options"), OPTIONS, self.name)
        ids = [p.id for p in players]
        first = options["first_player"]
        if first is not None and first not in ids:
            raise IllegalEvent(f"option first_player {first!r} is not a player; players are {', '.join(ids)}")
        return HighFiveState(
            players=players,
            target_score=options["target_score"],
            leader=ids.index(first) if first is not None else 0,
            totals=(0,) * len(players),
        )

    # --- events --------------------------------------------------------------------------------------

    def apply(self, state: HighFiveState, event: Event) -> HighFiveState:
        handler = {
            "game_started": self._game_started,
            "hand_dealt": self._hand_dealt,
            "tile_played": self._tile_played,
            "pair_claimed": self._pair_claimed,
        }.get(event.type)
        if handler is None:
            raise IllegalEvent(f"{event.type} is not a High Five event")
        if state.winner is not None:
            raise IllegalEvent("the match is finished; only notes and rewinds are accepted")
        if not isinstance(event.data, Mapping):
            raise IllegalEvent(f"{event.type}: data must be a JSON object")
        return handler(state, event.data)

    def _game_started(self, state: HighFiveState, data: Mapping[str, Any]) -> HighFiveState:
        what = "game_started"
        if state.game and state.phase != "game_over":
            if not state.last_hand:
                left = f"{state.boneyard} tiles are still in the boneyard"
            else:
                left = f"the hands still hold {sum(h.size for h in state.hands)} tiles"
            raise IllegalEvent(f"game {state.game} is still running: {left}")
        layout = require(data, "layout", list, what)
        if len(layout) != LAYOUT_SIZE:
            raise IllegalEvent(f"{what}: the layout is {LAYOUT_SIZE} face-up tiles, not {len(layout)}")
        tiles = tuple(_tile(t, f"{what} layout") for t in layout)
        dup = next((t for t in tiles if tiles.count(t) > 1), None)
        if dup is not None:
            raise IllegalEvent(f"{what}: {dup} is in the layout twice")
        return replace(
            state,
            rounds=state.rounds + ((0,) * state.n,),
            game=state.game + 1,
            layout=tiles,
            boneyard=hf.SET_SIZE - LAYOUT_SIZE,
            hands=(Hand(),) * state.n,
            piles=((),) * state.n,
            seen=frozenset(tiles),
            hand_number=0,
            last_hand=False,
            to_play=None,
            claimer_after_play=None,
            missed=(),
            last_play=None,
        )

    def _hand_dealt(self, state: HighFiveState, data: Mapping[str, Any]) -> HighFiveState:
        what = "hand_dealt"
        if state.game == 0:
            raise IllegalEvent(f"{what}: {NO_GAME}")
        if state.last_hand and state.to_play is None:
            raise IllegalEvent(
                f"{what}: the set is used up (the last hand of game {state.game} was dealt); "
                "start a new game with game_started"
            )
        if state.to_play is not None:
            holder = next(i for i, h in enumerate(state.hands) if h.size)
            raise IllegalEvent(
                f"{what}: {state.name(holder)} still holds {state.hands[holder].size} tile(s); "
                "a new hand is dealt when every hand is empty"
            )
        hands = require(data, "hands", dict, what)
        first, later = hand_sizes(state.n)
        size = first if state.hand_number == 0 else later
        kind = "first" if state.hand_number == 0 else "later"
        ids = [p.id for p in state.players]
        for pid in hands:
            if pid not in ids:
                raise IllegalEvent(f"{what}: unknown player {pid!r}; players are {', '.join(ids)}")
        new_hands = []
        dealt: set[str] = set()
        for seat, pid in enumerate(ids):
            if pid not in hands:
                raise IllegalEvent(f"{what}: no hand for {state.name(seat)}")
            raw = hands[pid]
            if not isinstance(raw, list):
                raise IllegalEvent(f"{what}: {state.name(seat)}'s hand must be a list of tiles or nulls")
            if len(raw) != size:
                raise IllegalEvent(
                    f"{what}: {state.name(seat)} is dealt {len(raw)} tiles; a {kind} hand for "
                    f"{state.n} players is {size}"
                )
            known = []
            for t in raw:
                if t is None:
                    continue
                tile = _tile(t, f"{what} ({state.name(seat)})")
                self._check_unseen(state, tile, dealt, what)
                dealt.add(tile)
                known.append(tile)
            new_hands.append(Hand(tuple(known), size - len(known)))
        total = size * state.n
        if total > state.boneyard:  # cannot happen with the table's counts; kept as a guard
            raise IllegalEvent(f"{what}: the boneyard holds only {state.boneyard} tiles, not {total}")
        remaining = state.boneyard - total
        last = remaining < later * state.n
        raw_layout = data.get("to_layout")
        if raw_layout is not None and not isinstance(raw_layout, list):
            raise IllegalEvent(f"{what}: to_layout must be a list of face-up tiles (got {raw_layout!r})")
        to_layout: tuple[str, ...] = ()
        if last:
            if raw_layout is None or len(raw_layout) != remaining:
                got = "none" if raw_layout is None else len(raw_layout)
                raise IllegalEvent(
                    f"{what}: this is the game's last hand: the {remaining} tile(s) left in the "
                    f"boneyard go face up into the layout as to_layout (got {got})"
                )
            for t in raw_layout:
                tile = _tile(t, f"{what} to_layout")
                self._check_unseen(state, tile, dealt, what)
                dealt.add(tile)
            to_layout = tuple(raw_layout)
        elif raw_layout:
            raise IllegalEvent(
                f"{what}: to_layout comes only with the game's last hand; {remaining} tiles stay in the boneyard"
            )
        return replace(
            state,
            layout=state.layout + to_layout,
            boneyard=0 if last else remaining,
            hands=tuple(new_hands),
            seen=state.seen | dealt,
            hand_number=state.hand_number + 1,
            last_hand=last,
            to_play=state.leader,
            claimer_after_play=None,
        )

    def _check_unseen(self, state: HighFiveState, tile: str, dealt: set[str], what: str) -> None:
        if tile in dealt:
            raise IllegalEvent(f"{what}: {tile} is dealt twice")
        if tile in state.seen:
            raise IllegalEvent(f"{what}: {tile} cannot be dealt, it is already {_where(state, tile)}")

    def _tile_played(self, state: HighFiveState, data: Mapping[str, Any]) -> HighFiveState:
        what = "tile_played"
        seat = _seat(state, data.get("player"), what)
        self._check_can_play(state, seat)
        tile = _tile(require(data, "tile", str, what), what)
        capture = data.get("capture")
        hand = state.hands[seat]
        if tile in hand.known:
            new_hand = Hand(_without(hand.known, tile), hand.hidden)
        elif tile in state.seen:
            raise IllegalEvent(f"{state.name(seat)} cannot play {tile}: it is {_where(state, tile)}")
        elif hand.hidden:
            new_hand = Hand(hand.known, hand.hidden - 1)
        else:
            raise IllegalEvent(f"{state.name(seat)} does not hold {tile}; the hand is {_hand_text(hand)}")
        if capture is not None:
            capture = _tile(capture, f"{what} capture")
            if capture not in state.layout:
                raise IllegalEvent(_not_in_layout(state, capture, "capture"))
            if not hf.matches(tile, capture):
                raise IllegalEvent(_no_match(tile, capture))
        plays = state.plays + 1
        nxt = (seat + 1) % state.n
        hands = _set_seat(state.hands, seat, new_hand)
        changes: dict[str, Any] = {
            "hands": hands,
            "seen": state.seen | {tile},
            "plays": plays,
            "to_play": nxt if hands[nxt].size else None,
            "claimer_after_play": seat,
            "last_play": LastPlay(seat, tile, capture),
        }
        if capture is not None:
            changes["layout"] = _without(state.layout, capture)
            # Pairs that needed the captured tile are gone with it.
            changes["missed"] = tuple(p for p in state.missed if capture not in (p.played, p.partner))
            state = _score(state, seat, (capture, tile))
        else:
            # A tile left beside a layout tile it matches is a missed capture: a claimable pair with each.
            left = tuple(MissedPair(tile, t, seat, plays) for t in state.layout if hf.matches(tile, t))
            changes["layout"] = state.layout + (tile,)
            changes["missed"] = state.missed + left
        return replace(state, **changes)

    def _check_can_play(self, state: HighFiveState, seat: int) -> None:
        if state.game == 0:
            raise IllegalEvent(NO_GAME)
        if state.to_play is None:
            if state.last_hand:
                raise IllegalEvent(f"game {state.game} is over (the set is used up): start a new game")
            raise IllegalEvent("every hand is empty: the next hand must be dealt (hand_dealt) first")
        if seat != state.to_play:
            raise IllegalEvent(f"it is {state.name(state.to_play)}'s turn, not {state.name(seat)}'s")

    def _pair_claimed(self, state: HighFiveState, data: Mapping[str, Any]) -> HighFiveState:
        what = "pair_claimed"
        seat = _seat(state, data.get("player"), what)
        self._check_can_claim(state, seat)
        raw = require(data, "tiles", list, what)
        if len(raw) != 2:
            raise IllegalEvent(f"a claim is exactly two matching tiles, not {len(raw)}")
        a, b = (_tile(t, what) for t in raw)
        if a == b:
            raise IllegalEvent(f"a claim is two different tiles, not {a} twice")
        for t in (a, b):
            if t not in state.layout:
                raise IllegalEvent(_not_in_layout(state, t, "claim"))
        if not hf.matches(a, b):
            raise IllegalEvent(_no_match(a, b))
        pair = frozenset((a, b))
        found = [p for p in state.missed if p.tiles() == pair]
        if not found:
            raise IllegalEvent(
                f"{a} and {b} are not a missed capture: only a tile played and left in the layout "
                "together with a layout tile it matched can be claimed"
            )
        allowed = [p for p in found if not (p.seat == seat and p.turn == state.plays)]
        if not allowed:
            p = found[0]
            raise IllegalEvent(
                f"{state.name(seat)} left {p.played} beside {p.partner} on this turn and may claim "
                "that pair only on a later turn"
            )
        changes: dict[str, Any] = {
            "layout": _without(state.layout, a, b),
            "missed": tuple(p for p in state.missed if a not in p.tiles() and b not in p.tiles()),
        }
        if seat == state.to_play:  # the next player has acted: the previous player's claims are over
            changes["claimer_after_play"] = None
        return replace(_score(state, seat, (a, b)), **changes)

    def _check_can_claim(self, state: HighFiveState, seat: int) -> None:
        if state.game == 0:
            raise IllegalEvent(NO_GAME)
        if seat in (state.to_play, state.claimer_after_play):
            return
        name = state.name(seat)
        after = state.claimer_after_play
        also = f" ({state.name(after)} may still claim after their play)" if after is not None else ""
        if state.to_play is not None:
            raise IllegalEvent(f"it is {state.name(state.to_play)}'s turn, not {name}'s{also}")
        if state.hand_number == 0:
            raise IllegalEvent("no hand has been dealt yet: nobody may claim")
        if after is None:
            raise IllegalEvent(f"{name} may not claim now: claims are made on one's own turn")
        when = "the game is over" if state.last_hand else "every hand is empty"
        raise IllegalEvent(f"{when}: only {state.name(after)}, who played last, may still claim, not {name}")

    # --- read models ---------------------------------------------------------------------------------

    def is_finished(self, state: HighFiveState) -> bool:
        return state.winner is not None

    def scores(self, state: HighFiveState) -> ScoreSheet:
        ids = [p.id for p in state.players]
        return ScoreSheet(
            totals=dict(zip(ids, state.totals, strict=True)),
            rounds=[dict(zip(ids, r, strict=True)) for r in state.rounds],
            finished=state.winner is not None,
            winners=[ids[state.winner]] if state.winner is not None else [],
        )

    def to_json(self, state: HighFiveState) -> dict[str, Any]:
        ids = [p.id for p in state.players]
        claimers = [s for s in (state.claimer_after_play, state.to_play) if s is not None]
        return {
            "game": self.name,
            "phase": state.phase,
            "target_score": state.target_score,
            "leader": ids[state.leader],
            "game_number": state.game,
            "hand_number": state.hand_number,
            "last_hand": state.last_hand,
            "layout": list(state.layout),
            "boneyard": state.boneyard,
            "to_play": ids[state.to_play] if state.to_play is not None else None,
            "may_claim": [ids[s] for s in claimers] if state.winner is None else [],
            "claimable": [
                {"tiles": [p.played, p.partner], "left_by": ids[p.seat], "value": _pair_value(p)} for p in state.missed
            ],
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "score": state.totals[i],
                    "game_points": state.rounds[-1][i] if state.rounds else 0,
                    "hand": {
                        "tiles": list(state.hands[i].known) if state.hands else [],
                        "hidden": state.hands[i].hidden if state.hands else 0,
                        "count": state.hands[i].size if state.hands else 0,
                    },
                    "pile": list(state.piles[i]) if state.piles else [],
                    "pile_value": sum(hf.value(t) for t in state.piles[i]) if state.piles else 0,
                }
                for i, p in enumerate(state.players)
            ],
            "last_play": (
                {"player": ids[state.last_play.seat], "tile": state.last_play.tile, "capture": state.last_play.capture}
                if state.last_play
                else None
            ),
            "rounds": [dict(zip(ids, r, strict=True)) for r in state.rounds],
            "finished": state.winner is not None,
            "winners": [ids[state.winner]] if state.winner is not None else [],
        }

    def legal_moves(self, state: HighFiveState, player: str) -> list[dict[str, Any]]:
        seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
        if seat is None or state.winner is not None or state.game == 0:
            return []
        moves: list[dict[str, Any]] = []
        if seat in (state.to_play, state.claimer_after_play):
            for p in state.missed:
                if p.seat == seat and p.turn == state.plays:
                    continue  # left on this very turn
                tiles = sorted((p.played, p.partner), key=hf.sort_key)
                moves.append(
                    {
                        "type": "pair_claimed",
                        "data": {"player": player, "tiles": tiles},
                        "points": _pair_value(p),
                    }
                )
        if seat == state.to_play:
            moves.extend(self._plays(state, seat))
        return moves

    def _plays(self, state: HighFiveState, seat: int) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        pid = state.players[seat].id
        # A hidden slot may be any tile whose place is not known.
        candidates = list(dict.fromkeys(hand.known))
        if hand.hidden:
            candidates += [t for t in hf.TILES if t not in state.seen]
        moves = []
        for tile in candidates:
            hidden = tile not in hand.known
            matching = [t for t in state.layout if hf.matches(tile, t)]
            for capture in matching:
                moves.append(
                    {
                        "type": "tile_played",
                        "data": {"player": pid, "tile": tile, "capture": capture},
                        "points": hf.value(tile) + hf.value(capture),
                        "hidden": hidden,
                    }
                )
            moves.append(
                {
                    "type": "tile_played",
                    "data": {"player": pid, "tile": tile, "capture": None},
                    "points": 0,
                    "hidden": hidden,
                    "misses": matching,  # layout tiles it would leave a claimable pair with
                }
            )
        return moves

    def describe(self, before: HighFiveState, event: Event, after: HighFiveState) -> Annotation:
        d = event.data
        if event.type == "game_started":
            return Annotation(f"game {after.game} started: layout {', '.join(after.layout)}")
        if event.type == "hand_dealt":
            text = f"hand {after.hand_number} of game {after.game} dealt, {after.hands[0].size} tiles each"
            hidden = sum(h.hidden for h in after.hands)
            if hidden:
                text += f" ({hidden} hidden)"
            if after.last_hand:
                turned = after.layout[len(before.layout) :]
                text += f"; last hand: {len(turned)} tile(s) into the layout: {', '.join(turned)}"
            return Annotation(text)
        seat = next(i for i, p in enumerate(after.players) if p.id == d.get("player"))
        name, pid = after.name(seat), after.players[seat].id
        gained = after.totals[seat] - before.totals[seat]
        won = f"; {name} reaches {after.totals[seat]} and wins" if after.winner == seat else ""
        if event.type == "tile_played":
            tile, capture = d["tile"], d.get("capture")
            if capture is not None:
                text = f"{name} played {tile} and captured {capture}: {gained}{won}"
                return Annotation(text, pid, ("capture", f"capture:{gained}"))
            missed = [p.partner for p in after.missed if p.played == tile]
            if missed:
                text = f"{name} played {tile} into the layout, missing a capture with {', '.join(missed)}"
                return Annotation(text, pid, ("missed",))
            return Annotation(f"{name} played {tile} into the layout", pid)
        a, b = d["tiles"]
        pair = next(p for p in before.missed if p.tiles() == frozenset((a, b)))
        text = f"{name} claimed {a} and {b}, left by {after.name(pair.seat)}: {gained}{won}"
        return Annotation(text, pid, ("claim", f"claim:{gained}"))

    def random_match(
        self, rng: random.Random, players: list[dict[str, str]], options: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        from projections.high_five_player import random_match  # the player builds on this module

        return random_match(rng, players, options)


def _pair_value(p: MissedPair) -> int:
    return hf.value(p.played) + hf.value(p.partner)


def _score(state: HighFiveState, seat: int, tiles: tuple[str, str]) -> HighFiveState:
    """Both tiles into the seat's pile; the match is won at once when the target is reached."""
    points = hf.value(tiles[0]) + hf.value(tiles[1])
    total = state.totals[seat] + points
    return replace(
        state,
        piles=_set_seat(state.piles, seat, state.piles[seat] + tiles),
        totals=_set_seat(state.totals, seat, total),
        rounds=state.rounds[:-1] + (_set_seat(state.rounds[-1], seat, state.rounds[-1][seat] + points),),
        winner=seat if total >= state.target_score else None,
    )


GAME = HighFive()
