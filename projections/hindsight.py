"""Hindsight: the plays a player missed, as the log came to know them by the end ("could they have played?").

A club dispute: "you drew, but you were holding 2-3-4, and it fitted!". At the table nobody saw the tile;
the log often learns it later — the player places it from a hidden slot, an exchange returns it by name, or
the round's end reveals the hand. This module walks a fold and finds:

- **missed placements**: a draw, pass or exchange (each game's `NO_PLAY` events) made while a tile the
  player held fitted. A game's rules already refuse one while a *known* tile fits, so what is found here are
  tiles held in hidden slots at the time and revealed afterwards;
- **missed bonuses** (a game's `BONUS_TAGS`: Tri-Ominos' hexagon, bridge and bridge extension): a placement
  that scored none of them while one of the player's placements would have.

Only certain misses are flagged. A tile drawn unseen and never revealed stays unknown. A tile revealed later
was held at the time only if it cannot be one that entered the hand since: a revealed tile is *certainly
held* when no hidden tile entered the player's hand between the play and its reveal. When hidden tiles did
enter, counting still settles some cases: if more of the tiles revealed by some event fitted than hidden
tiles had entered by then, at least one of those that fitted was held (`certain` is then False: the miss is
certain, which tile it was is not).

Each game says how its hands work in its `Game.hindsight` (its package's hindsight module, a
`protocol.Hindsight`): `NO_PLAY`, `PLACED`, `BONUS_TAGS`, `held(state, player)` (known tiles and hidden slots),
`holding(state, player, tiles)` (the state with `tiles` taken out of hidden slots into the known hand) and
`flow(before, event, player)` (what an event reveals of the player's hidden slots, how many hidden tiles it
adds, whether it starts a new round), `bonus_counts(state)`, and `as_table(state, sees)` (hands turned face
down, for a spectator's legal moves: recorder/legal.py). Pure and deterministic: the moves are the game's own
`legal_moves`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from projections.events import COMMON_EVENT_TYPES, Event
from projections.protocol import Flow, Game, Hindsight
from projections.timeline import Fold

MOVES_SHOWN = 5  # the best placements listed with a miss


NOTHING = Flow()  # an event that neither reveals nor hides a tile of the player's


# A game with nothing to find (no draw, pass or bonus: `NO_PLAY` and `BONUS_TAGS` empty) takes these for its
# `holding`, `bonus_counts` and `flow`; `missed_plays` stops before asking them anyway.


def holding_unchanged(state: Any, player: str, tiles: tuple[str, ...]) -> Any:
    return state


def no_bonus(state: Any) -> bool:
    return False


def no_flow(before: Any, event: Event, player: str) -> Flow:
    return NOTHING


@dataclass(frozen=True)
class Missed:
    """One missed play: event `seq`, recorded by `player`, left a placement (or a bonus) on the table."""

    seq: int
    player: str
    type: str  # the event they recorded instead: tile_drawn, turn_passed, tiles_exchanged, tile_placed
    kind: str  # "placement" (a draw, pass or exchange while a tile fitted) or "bonus"
    tiles: tuple[str, ...]  # the held tiles that fitted (or would have scored the bonus)
    certain: bool  # each of `tiles` was held (False: at least one of them was)
    moves: tuple[Mapping[str, Any], ...]  # the best of the moves they could have made, with notation
    bonus: tuple[str, ...] = ()  # kind "bonus": the bonus tags that were available
    revealed_at: tuple[int, ...] = ()  # the seqs that revealed `tiles` (none: they were known then)
    text: str = field(default="")

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "player": self.player, "type": self.type, "kind": self.kind, "tiles": list(self.tiles),
            "certain": self.certain, "moves": [dict(m) for m in self.moves], "bonus": list(self.bonus),
            "revealed_at": list(self.revealed_at), "text": self.text,
        }


def missed_plays(fold: Fold[Any]) -> list[Missed]:
    """Every certain missed play of the match, in seq order (events a rewind superseded are skipped)."""
    rules = fold.game.hindsight
    if not rules.NO_PLAY and not rules.BONUS_TAGS:
        return []
    events = [e for e in fold.events if e.type not in COMMON_EVENT_TYPES and e.seq not in fold.superseded_by]
    names = dict(fold.players)
    out: list[Missed] = []
    for i, e in enumerate(events):
        player = e.data.get("player")
        if not isinstance(player, str) or player not in names:
            continue
        if e.type in rules.NO_PLAY:
            found = _missed_placement(fold, rules, events, i, player, names)
        elif e.type == rules.PLACED and rules.BONUS_TAGS:
            found = _missed_bonus(fold, rules, events, i, player, names)
        else:
            continue
        if found is not None:
            out.append(found)
    return out


class _Reveal(NamedTuple):
    tile: str
    entered: int  # hidden tiles that had entered the hand since the play, when this one was revealed
    seq: int


def _reveals(fold: Fold[Any], rules: Hindsight, events: Sequence[Event], i: int, player: str,
             until_entry: bool) -> list[_Reveal]:
    """The tiles revealed from `player`'s hidden slots from event i to the end of the round, each with the
    number of hidden tiles that had entered the hand by then (`until_entry`: stop at the first that enters)."""
    out: list[_Reveal] = []
    entered = 0
    seen: set[str] = set()
    for j in range(i, len(events)):
        e = events[j]
        flow = rules.flow(fold.state_at(e.seq - 1), e, player)
        if flow.new_round and j > i:
            break
        for tile in flow.revealed:
            if tile not in seen:
                seen.add(tile)
                out.append(_Reveal(tile, entered, e.seq))
        entered += flow.entered
        if until_entry and entered:
            break
    return out


def _placements(
    game: Game[Any], rules: Hindsight, state: Any, player: str, tiles: Sequence[str]
) -> list[dict[str, Any]]:
    """The placements `player` could record in `state` holding `tiles` besides the known hand, each with its
    notation, best first (points, then notation: deterministic)."""
    moves = game.legal_moves(rules.holding(state, player, tuple(tiles)), player) if tiles else (
        game.legal_moves(state, player))
    out = [{**m, "notation": game.notation(m)} for m in moves if m["type"] == rules.PLACED]
    return sorted(out, key=lambda m: (-int(m.get("points", 0)), m["notation"]))


def _missed_placement(fold: Fold[Any], rules: Hindsight, events: Sequence[Event], i: int, player: str,
                      names: Mapping[str, str]) -> Missed | None:
    e = events[i]
    before = fold.state_at(e.seq - 1)
    held = rules.held(before, player)
    if held is None or held[1] == 0:
        return None  # nothing hidden in hand: the rules refuse a draw or pass while a known tile fits
    reveals = _reveals(fold, rules, events, i, player, until_entry=False)
    fits: dict[str, list[dict[str, Any]]] = {}
    for r in reveals:
        moves = [m for m in _placements(fold.game, rules, before, player, [r.tile]) if m["data"].get("tile") == r.tile]
        if moves:
            fits[r.tile] = moves
    certain = [r for r in reveals if r.entered == 0 and r.tile in fits]
    if certain:
        chosen, is_certain = certain, True
    else:
        chosen, is_certain = [], False
        fitted: list[_Reveal] = []
        for r in reveals:
            if r.tile in fits:
                fitted.append(r)
            if len(fitted) > r.entered:  # more fitted than could have entered since: one of them was held
                chosen = list(fitted)
                break
        if not chosen:
            return None
    tiles = tuple(r.tile for r in chosen)
    moves = sorted((m for t in tiles for m in fits[t]), key=lambda m: (-int(m.get("points", 0)), m["notation"]))
    who = names[player]
    did = {"tile_drawn": "drew", "turn_passed": "passed", "tiles_exchanged": "exchanged"}.get(e.type, e.type)
    when = ", ".join(f"#{s}" for s in sorted({r.seq for r in chosen}))
    if is_certain:
        held_text = f"held {_and(tiles)} (revealed at {when}), which fitted"
    else:
        held_text = f"held at least one of {_and(tiles, 'or')} (revealed at {when}), and each of them fitted"
    best = moves[0]
    text = f"{who} {did} although they {held_text}: {best['notation']} for {best.get('points', 0)}"
    return Missed(e.seq, player, e.type, "placement", tiles, is_certain, tuple(moves[:MOVES_SHOWN]),
                  revealed_at=tuple(sorted({r.seq for r in chosen})), text=text)


def _missed_bonus(fold: Fold[Any], rules: Hindsight, events: Sequence[Event], i: int, player: str,
                  names: Mapping[str, str]) -> Missed | None:
    e = events[i]
    before = fold.state_at(e.seq - 1)
    if not rules.bonus_counts(before):
        return None  # e.g. a round's starting tile: no placement bonus to miss
    made = {t.split(":", 1)[0] for t in fold.marks(e.seq)[1]}  # "hexagon:2" is a hexagon taken
    if made & set(rules.BONUS_TAGS):
        return None
    held = rules.held(before, player)
    if held is None:
        return None
    certain: list[_Reveal] = []
    if held[1]:  # hidden slots: the tiles certainly in them then (revealed before any other hidden entered)
        certain = [r for r in _reveals(fold, rules, events, i, player, until_entry=True) if r.entered == 0]
    moves = _placements(fold.game, rules, before, player, [r.tile for r in certain])
    taking = [m for m in moves if {t.split(":", 1)[0] for t in m.get("tags", ())} & set(rules.BONUS_TAGS)]
    if not taking:
        return None
    tiles = tuple(dict.fromkeys(m["data"]["tile"] for m in taking))
    bonus = tuple(dict.fromkeys(t for m in taking for t in m.get("tags", ()) if t.split(":", 1)[0] in rules.BONUS_TAGS))
    revealed = tuple(sorted({r.seq for r in certain if r.tile in tiles and r.seq != e.seq}))
    best = taking[0]
    kinds = _and(tuple(rules.TAG_WORDS.get(t.split(":", 1)[0], t) for t in bonus), "or")
    text = (f"{fold.describe(e.seq).text}, with no {kinds}, although {best['notation']} "
            f"would have scored {best.get('points', 0)} ({', '.join(best.get('tags', ()))})")
    return Missed(e.seq, player, e.type, "bonus", tiles, True, tuple(taking[:MOVES_SHOWN]), bonus, revealed, text)


def _and(items: Sequence[str], word: str = "and") -> str:
    items = list(dict.fromkeys(items))
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"
