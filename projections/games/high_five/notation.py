"""High Five on the scorepad: each event as one typed line, a typed line read back into its event, and
the click path to every legal move (docs/scorepad.md "High Five").

    game 0-5 1-4 2-3 6-9 7-7                   game_started: the 5 layout tiles (`game ? ? ? ? ?`: a committed
                                               bag deals them)
    deal ann 5-5 12-13 9-11 2-2 8-8 | bo ? ? ? ? ?
                                               hand_dealt: every hand, `?` for a tile dealt face down
    deal ann … | bo … layout 12-15             hand_dealt, the last hand: `layout …` is to_layout
    ann 5-5                                    tile_played, no capture (the tile stays in the layout)
    ann 5-5 x 0-5                              tile_played capturing the layout tile 0-5
    ann claim 3-7 7-7                          pair_claimed (`ann claim 3-7+7-7` reads the same)

Keywords (game, deal, layout, x, claim) are read in any case; player ids exactly. A tile is read with
its ends in either order and leading zeros (`9-2`, `02-09` are 2-9) and written smallest end first.
Parsing checks the spelling, the players and the numbers; whether the move is legal is the reducer's to
say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from projections.errors import IllegalEvent
from projections.games.high_five import tiles as hf
from projections.games.high_five.rules import LAYOUT_SIZE, Phase, State, hand_sizes
from projections.protocol import PadStep

HIDDEN = "?"
NO_CAPTURE = "none"  # the pad's value for a play that captures nothing
CLAIM = "claim"
KEYWORDS = ("game", "deal")

_TILE = re.compile(r"^(\d{1,2})-(\d{1,2})$")
_TILE_LIKE = re.compile(r"^[\d?-]*\d[\d?-]*$")  # read as a (misspelled) tile, to say what is wrong with it

EXAMPLE_LAYOUT = "game 0-5 1-4 2-3 6-9 7-7"
EXAMPLE_DEAL = "deal ann 5-5 12-13 9-11 2-2 8-8 | bo ? ? ? ? ?"


# --- writing -------------------------------------------------------------------------------------


def _tiles_text(tiles: Sequence[str | None]) -> str:
    return " ".join(HIDDEN if t is None else t for t in tiles)


def to_notation(event: Mapping[str, Any]) -> str:
    """`event` ({type, data}) as the line a scorekeeper types."""
    kind = event["type"]
    data = event.get("data") or {}
    if kind == "game_started":
        return f"game {_tiles_text(data['layout'])}".rstrip()
    if kind == "hand_dealt":
        hands = data.get("hands") or {}
        line = "deal " + " | ".join(f"{pid} {_tiles_text(tiles)}".rstrip() for pid, tiles in hands.items())
        to_layout = data.get("to_layout")
        if to_layout is not None:
            line += f" layout {_tiles_text(to_layout)}"
        return line.rstrip()
    if kind == "tile_played":
        line = f"{data['player']} {data['tile']}"
        capture = data.get("capture")
        return line if capture is None else f"{line} x {capture}"
    if kind == "pair_claimed":
        return f"{data['player']} claim {_tiles_text(data['tiles'])}"
    raise ValueError(f"high-five has no notation for {kind!r}")


# --- reading -------------------------------------------------------------------------------------


def _ids(state: State) -> list[str]:
    return [p.id for p in state.players]


def _unknown_player(word: str, ids: Sequence[str], context: str = "") -> IllegalEvent:
    close = next((pid for pid in ids if pid.lower() == word.lower()), None)
    hint = f" (player ids are matched exactly: {close})" if close else ""
    return IllegalEvent(f"{context}unknown player {word!r}; players: {', '.join(ids)}{hint}")


def _tile(word: str, context: str) -> str:
    """A tile as written ("9-2", "02-09" are read as 2-9), or IllegalEvent saying what is wrong."""
    if word == HIDDEN:
        raise IllegalEvent(f"{context}{word}: this tile is face up, write it, e.g. 5-5")
    m = _TILE.match(word)
    if m is None:
        if "-" not in word and word.isdigit():
            raise IllegalEvent(f"{context}{word!r} is not a tile: write its two ends as a-b, e.g. 5-5 or 12-13")
        raise IllegalEvent(f"{context}{word!r} is not a tile: write a-b with ends 0 to 15, e.g. 5-5 or 12-13")
    a, b = sorted((int(m.group(1)), int(m.group(2))))
    if b > hf.HIGHEST_PIP:
        raise IllegalEvent(f"{context}{word!r} is not a High Five tile: the ends go from 0 to {hf.HIGHEST_PIP}")
    return f"{a}-{b}"


def _tile_or_hidden(word: str, context: str) -> str | None:
    return None if word == HIDDEN else _tile(word, context)


def parse(state: State, text: str) -> dict[str, Any]:
    """The event a typed line records (whitespace already collapsed), or IllegalEvent saying what was not
    understood."""
    words = text.split()
    if not words:
        raise IllegalEvent("type a move, e.g. ann 5-5 x 0-5")
    ids = _ids(state)
    first = words[0]
    # A player id wins over a keyword when the line has the shape of a play or a claim.
    if first in ids and (len(words) <= 4 or words[1].lower() == CLAIM):
        return _player_line(first, words[1:])
    if first.lower() == "game":
        return _game_line(words[1:])
    if first.lower() == "deal":
        return _deal_line(ids, text.split(None, 1)[1] if len(words) > 1 else "")
    if first in ids:
        return _player_line(first, words[1:])
    if _TILE_LIKE.match(first):
        raise IllegalEvent(f"{text}: a play starts with the player, e.g. {ids[0]} {first}")
    raise _unknown_player(first, ids)


def _game_line(words: Sequence[str]) -> dict[str, Any]:
    if len(words) != LAYOUT_SIZE:
        got = "none" if not words else f"{len(words)}"
        raise IllegalEvent(f"game: name the {LAYOUT_SIZE} layout tiles ({got} given), e.g. {EXAMPLE_LAYOUT}")
    # `?` is for a committed bag's deal (the server writes the tiles); elsewhere the rules ask for the tiles.
    return {"type": "game_started", "data": {"layout": [_tile_or_hidden(w, "game: ") for w in words]}}


def _deal_line(ids: Sequence[str], rest: str) -> dict[str, Any]:
    words = rest.replace("|", " | ").split()
    if not [w for w in words if w != "|"]:
        raise IllegalEvent(f"deal: name each player's hand, e.g. {EXAMPLE_DEAL}")
    hands: dict[str, list[str | None]] = {}
    to_layout: list[str] | None = None
    player: str | None = None  # whose tiles are being read; None at the start of a hand
    for w in words:
        if w == "|":
            if to_layout is not None:
                raise IllegalEvent("deal: `layout …` comes last, after every hand")
            if player is None:
                raise IllegalEvent(f"deal: a hand is missing between two `|`, e.g. {EXAMPLE_DEAL}")
            player = None
        elif to_layout is not None:
            if w == HIDDEN:
                raise IllegalEvent("deal: the tiles turned into the layout are face up; write each of them")
            to_layout.append(_tile(w, "deal layout: "))
        elif player is None:
            if w not in ids:
                raise _unknown_player(w, ids, "deal: ")
            if w in hands:
                raise IllegalEvent(f"deal: {w}'s hand is written twice")
            player = w
            hands[w] = []
        elif w.lower() == "layout":
            to_layout = []
        else:
            hands[player].append(_tile_or_hidden(w, f"deal ({player}): "))
    if player is None and to_layout is None:
        raise IllegalEvent(f"deal: a hand is missing after the last `|`, e.g. {EXAMPLE_DEAL}")
    empty = [pid for pid, tiles in hands.items() if not tiles]
    if empty:
        raise IllegalEvent(f"deal: no tiles for {empty[0]}; write each tile, `?` for one dealt face down")
    data: dict[str, Any] = {"hands": hands}
    if to_layout is not None:
        data["to_layout"] = to_layout
    return {"type": "hand_dealt", "data": data}


def _player_line(player: str, words: Sequence[str]) -> dict[str, Any]:
    if not words:
        raise IllegalEvent(
            f"{player}: say what {player} did: {player} 5-5 (a play), {player} 5-5 x 0-5 (a capture) "
            f"or {player} claim 3-7 7-7"
        )
    if words[0].lower() == CLAIM:
        pair = [t for w in words[1:] for t in w.split("+") if t]
        if len(pair) != 2:
            raise IllegalEvent(
                f"{player} claim: a claim names the two tiles of the pair ({len(pair)} given), "
                f"e.g. {player} claim 3-7 7-7"
            )
        return {"type": "pair_claimed", "data": {"player": player, "tiles": [_tile(t, "claim: ") for t in pair]}}
    tile = _tile(words[0], f"{player}: ")
    rest = list(words[1:])
    if len(rest) == 1 and rest[0][:1].lower() == "x" and len(rest[0]) > 1:
        rest = ["x", rest[0][1:]]  # `x0-5`
    capture: str | None = None
    if rest:
        if rest[0].lower() != "x":
            raise IllegalEvent(
                f"{player} {words[0]} {' '.join(rest)}: after the tile only `x <layout tile>` (a capture) "
                f"may follow, e.g. {player} {tile} x 0-5"
            )
        if len(rest) != 2:
            what = "the captured layout tile is missing" if len(rest) == 1 else "one tile is captured at a time"
            raise IllegalEvent(f"{player} {words[0]} x: {what}, e.g. {player} {tile} x 0-5")
        capture = _tile(rest[1], f"{player} {tile} x: ")
    return {"type": "tile_played", "data": {"player": player, "tile": tile, "capture": capture}}


# --- the click path ------------------------------------------------------------------------------


def pad_path(move: Mapping[str, Any]) -> tuple[PadStep, ...]:
    """The pad's clicks to a legal move (`moves.legal_moves`):

    - a play: the hand tile ("hand", "5-5") → the layout tile it captures ("board", "0-5": also tapped on
      the board) or no capture ("option", "none"). A tile from a hand dealt face down: "?" ("hand") → its
      lower end ("option", "5-") → the tile ("option", "5-9") → the capture, so no step offers more than
      16 buttons.
    - a claim: "claim" ("action") → the pair ("option", "3-7+7-7") → the claimer ("option", "ann"); the pad
      records at once when only one player may claim that pair, so the last step shows only when the player
      who just played and the player to play may both claim it.
    """
    data = move["data"]
    if move["type"] == "tile_played":
        tile, capture = data["tile"], data.get("capture")
        if move.get("hidden"):
            low = tile.split("-")[0]
            steps: tuple[PadStep, ...] = (
                PadStep("hand", HIDDEN, "? hidden tile"),
                PadStep("option", f"{low}-", f"{low}-…"),
                PadStep("option", tile, tile),
            )
        else:
            steps = (PadStep("hand", tile, tile),)
        if capture is None:
            return (*steps, PadStep("option", NO_CAPTURE, "no capture"))
        points = hf.value(tile) + hf.value(capture)
        return (*steps, PadStep("board", capture, f"x {capture} +{points}"))
    if move["type"] == "pair_claimed":
        a, b = data["tiles"]
        player = data["player"]
        return (
            PadStep("action", CLAIM, "claim a pair"),
            PadStep("option", f"{a}+{b}", f"{a}+{b} +{hf.value(a) + hf.value(b)}"),
            PadStep("option", player, f"{player} claims"),
        )
    return ()


# --- line templates ------------------------------------------------------------------------------


def templates(state: State) -> list[tuple[str, str]]:
    """The pad's line templates (label, line prefix): a new game's layout, and the next deal (the game's
    last hand ends with `layout …`, the rest of the boneyard turned face up)."""
    if state.phase in (Phase.BEFORE_GAME, Phase.GAME_OVER):
        return [("new game (its 5 layout tiles)", "game ")]
    if state.phase is Phase.AWAITING_DEAL:
        first, later = hand_sizes(state.n)
        remaining = state.boneyard - (first if state.hand_number == 0 else later) * state.n
        hands = " | ".join(p.id for p in state.players)
        label = f"deal {hands}" + (f" layout ({remaining} tiles)" if remaining < later * state.n else "")
        return [(label, f"deal {state.players[0].id} ")]
    return []
