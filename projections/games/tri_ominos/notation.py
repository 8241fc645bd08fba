"""Tri-Ominos on the scorepad: each event as one typed line, a typed line read back into its event, and
the click path to every legal move (docs/scorepad.md "Tri-Ominos").

    round                              round_started
    deal ann 1-3-4 ? ? ? ? ? ? ? ?     tiles_dealt: Ann's deal, `?` for a tile dealt unseen
    ann 2-5-5 @-1,0 525                tile_placed: tile, cell [q, r], corners apex first, clockwise
    ann 0-0-0 @0,0 000 show 4-4-4      tile_placed with `shown` (a 0-0-0 start showing a triple)
    bo draw 1-3-4                      tile_drawn (`bo draw ?`: drawn unseen)
    bo pass                            turn_passed
    reveal ann - | bo 0-1-4 4-4-4      hands_revealed (`-`: an empty hand)

Keywords (round, deal, reveal, draw, pass, show) are read in any case; player ids exactly. A tile is read
in any order of its numbers (`5-2-5` is 2-5-5) and written smallest first; a cell may be typed `@-1,0`,
`@ -1, 0`, `@(-1,0)` or `-1,0`; corners `525`, `5-2-5` or `5 2 5`. A triple's corners may be left out
(it has one reading). Parsing checks the spelling, the players and the numbers; whether the move is legal
is the reducer's to say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from projections.errors import IllegalEvent
from projections.games.tri_ominos.grid import corners as cell_corners
from projections.games.tri_ominos.moves import legal_moves
from projections.games.tri_ominos.rules import Phase, State, fits
from projections.games.tri_ominos.tiles import Corners, is_triple, rotations, tile_of
from projections.protocol import PadStep

KEYWORDS = ("round", "deal", "reveal")
HIDDEN = "?"
EMPTY_HAND = "-"

_TILE = re.compile(r"^(\d+)-(\d+)-(\d+)$")
_CELL = re.compile(r"^@?[\[(]?(-?\d+),(-?\d+)[\])]?$")
_CORNERS = re.compile(r"^(\d)[-,/]?(\d)[-,/]?(\d)$")
_DIGIT = re.compile(r"^\d$")
_TILE_LIKE = re.compile(r"^[\d-]+$")  # read as a tile, to say what is wrong with it


# --- writing -------------------------------------------------------------------------------------


def _tiles_text(tiles: Sequence[str | None]) -> str:
    return " ".join(HIDDEN if t is None else t for t in tiles)


def to_notation(event: Mapping[str, Any]) -> str:
    """`event` ({type, data}) as the line a scorekeeper types."""
    kind = event["type"]
    data = event.get("data") or {}
    if kind == "round_started":
        return "round"
    if kind == "tiles_dealt":
        return f"deal {data['player']} {_tiles_text(data['tiles'])}".rstrip()
    if kind == "tile_placed":
        q, r = data["cell"]
        line = f"{data['player']} {data['tile']} @{q},{r} {''.join(str(n) for n in data['corners'])}"
        if data.get("shown") is not None:
            line += f" show {data['shown']}"
        return line
    if kind == "tile_drawn":
        tile = data.get("tile")
        return f"{data['player']} draw {HIDDEN if tile is None else tile}"
    if kind == "turn_passed":
        return f"{data['player']} pass"
    if kind == "hands_revealed":
        hands = data.get("hands") or {}
        parts = [f"{pid} {_tiles_text(tiles) or EMPTY_HAND}" for pid, tiles in hands.items()]
        return ("reveal " + " | ".join(parts)).rstrip()
    raise ValueError(f"tri-ominos has no notation for {kind!r}")


# --- reading -------------------------------------------------------------------------------------


def _ids(state: State) -> list[str]:
    return [p.id for p in state.players]


def _example_player(state: State) -> str:
    """The player the examples in a reason name: whoever is to play, else the first seat."""
    seat = state.turn if state.turn is not None else 0
    return state.players[seat].id


def _unknown_player(state: State, token: str, context: str = "") -> IllegalEvent:
    ids = _ids(state)
    near = [pid for pid in ids if pid.lower() == token.lower()]
    hint = f" (ids are written exactly: {near[0]})" if near else ""
    prefix = f"{context}: " if context else ""
    return IllegalEvent(f"{prefix}unknown player {token!r}; players: {', '.join(ids)}{hint}")


def _player(state: State, token: str, context: str) -> str:
    if token in _ids(state):
        return token
    raise _unknown_player(state, token, context)


def read_tile(token: str, context: str) -> str:
    """A tile as typed (`2-5-5`, its numbers in any order), named smallest first; a refusal saying why not."""
    m = _TILE.match(token)
    if m is None:
        raise IllegalEvent(f"{context}: {token!r} is not a tile; write its three numbers a-b-c, e.g. 2-5-5")
    nums = [int(g) for g in m.groups()]
    if max(nums) > 5:
        raise IllegalEvent(f"{context}: {token} is not a Tri-Ominos tile: the numbers run from 0 to 5")
    return tile_of((nums[0], nums[1], nums[2]))


def _tile_or_hidden(token: str, context: str) -> str | None:
    return None if token == HIDDEN else read_tile(token, context)


def _read_cell(token: str, context: str) -> list[int]:
    m = _CELL.match(token)
    if m is None:
        raise IllegalEvent(f"{context}: {token!r} is not a cell; write it @q,r, e.g. @-1,0")
    return [int(m.group(1)), int(m.group(2))]


def _read_corners(token: str, context: str) -> list[int]:
    m = _CORNERS.match(token)
    if m is None:
        raise IllegalEvent(
            f"{context}: {token!r} are not corners; write the three numbers apex first, clockwise, e.g. 525"
        )
    nums = [int(g) for g in m.groups()]
    if max(nums) > 5:
        raise IllegalEvent(f"{context}: corner numbers run from 0 to 5 (got {token})")
    return nums


def _fitting_readings(state: State, tile: str, cell: list[int]) -> list[Corners]:
    """The tile's readings, those that fit the numbers already at the cell's corners first."""
    points = cell_corners((cell[0], cell[1]))
    readings = list(rotations(tile))
    return sorted(readings, key=lambda rot: not fits(state.values, points, rot))


def _placement(state: State, pid: str, rest: list[str], line: str) -> dict[str, Any]:
    """`<player> <tile> @<q>,<r> <corners> [show <tile>]`, `rest` being what follows the player."""
    if rest[0] == HIDDEN:
        raise IllegalEvent(f"{line}: name the tile placed, e.g. {pid} 2-5-5 @-1,0 525")
    tile = read_tile(rest[0], line)
    if len(rest) < 2:
        raise IllegalEvent(f"{line}: where? write the cell and the corners, e.g. {pid} {tile} @-1,0 525")
    cell = _read_cell(rest[1], line)
    tail = rest[2:]
    if len(tail) >= 3 and all(_DIGIT.match(t) for t in tail[:3]):  # `5 2 5`
        tail = ["".join(tail[:3]), *tail[3:]]
    if not tail or tail[0].lower() == "show":
        if not is_triple(tile):
            readings = " or ".join("".join(map(str, r)) for r in _fitting_readings(state, tile, cell))
            raise IllegalEvent(f"{line}: the corners are missing, e.g. {readings} (apex first, clockwise)")
        tail = ["".join(str(n) for n in rotations(tile)[0]), *tail]  # a triple reads one way only
    data: dict[str, Any] = {"player": pid, "tile": tile, "cell": cell, "corners": _read_corners(tail[0], line)}
    extra = tail[1:]
    if extra:
        if extra[0].lower() != "show":
            raise IllegalEvent(
                f"{line}: {' '.join(extra)!r} is not understood after the corners; only show <tile> may follow"
            )
        if len(extra) != 2:
            raise IllegalEvent(f"{line}: show names one tile, the triple shown, e.g. show 4-4-4")
        data["shown"] = read_tile(extra[1], line)
    return data


def _player_line(state: State, pid: str, rest: list[str], line: str) -> dict[str, Any]:
    if not rest:
        raise IllegalEvent(f"{line}: what did {pid} do? e.g. {pid} 2-5-5 @-1,0 525, {pid} draw ? or {pid} pass")
    verb = rest[0].lower()
    if verb == "pass":
        if len(rest) > 1:
            raise IllegalEvent(f"{line}: a pass is just {pid} pass")
        return {"type": "turn_passed", "data": {"player": pid}}
    if verb == "draw":
        if len(rest) > 2:
            raise IllegalEvent(f"{line}: one tile per draw line, e.g. {pid} draw 1-3-4 (or {pid} draw ? unseen)")
        tile = _tile_or_hidden(rest[1], line) if len(rest) == 2 else None
        return {"type": "tile_drawn", "data": {"player": pid, "tile": tile}}
    if rest[0] != HIDDEN and _TILE_LIKE.match(rest[0]) is None:
        raise IllegalEvent(
            f"{line}: after the player comes a placement ({pid} 2-5-5 @-1,0 525), draw <tile|?> or pass; "
            f"{rest[0]!r} is none of these"
        )
    return {"type": "tile_placed", "data": _placement(state, pid, rest, line)}


def _deal(state: State, tokens: list[str]) -> dict[str, Any]:
    if len(tokens) < 2:
        raise IllegalEvent(f"deal: whose deal? e.g. deal {_example_player(state)} 1-3-4 ? ? …")
    pid = _player(state, tokens[1], "deal")
    context = f"deal {pid}"
    if len(tokens) < 3:
        raise IllegalEvent(f"{context}: the tiles are missing, e.g. deal {pid} 1-3-4 ? ? … (? for a tile unseen)")
    return {"type": "tiles_dealt", "data": {"player": pid, "tiles": [_tile_or_hidden(t, context) for t in tokens[2:]]}}


def _reveal(state: State, tokens: list[str]) -> dict[str, Any]:
    hands: dict[str, list[str]] = {}
    body = " ".join(tokens[1:])
    parts = [part.strip() for part in body.split("|")] if body else []
    for part in parts:
        words = part.split()
        if not words:
            raise IllegalEvent("reveal: an empty part between |; write each hand as <player> <tiles…> or <player> -")
        pid = _player(state, words[0], "reveal")
        context = f"reveal {pid}"
        if pid in hands:
            raise IllegalEvent(f"{context}: {pid}'s hand is revealed twice")
        tiles = words[1:]
        if not tiles:
            raise IllegalEvent(f"{context}: the tiles are missing (write {pid} - for an empty hand)")
        if tiles == [EMPTY_HAND]:
            hands[pid] = []
            continue
        if HIDDEN in tiles:
            raise IllegalEvent(f"{context}: every revealed tile is named; ? is for deals and draws")
        if EMPTY_HAND in tiles:
            raise IllegalEvent(f"{context}: - stands alone for an empty hand")
        hands[pid] = [read_tile(t, context) for t in tiles]
    return {"type": "hands_revealed", "data": {"hands": hands}}


def _keyword_line(state: State, key: str, tokens: list[str]) -> dict[str, Any]:
    if key == "round":
        if len(tokens) > 1:
            raise IllegalEvent(f"round takes nothing after it (got {' '.join(tokens)!r})")
        return {"type": "round_started", "data": {}}
    if key == "deal":
        return _deal(state, tokens)
    return _reveal(state, tokens)


def _is_keyword_line(state: State, tokens: list[str]) -> bool:
    """Whether the line is a keyword's (round, deal, reveal) rather than a player's: a player whose id
    is a keyword still has player lines (`round draw ?`), never one of a single word or naming a player
    second."""
    key = tokens[0].lower()
    if key not in KEYWORDS:
        return False
    if tokens[0] not in _ids(state):
        return True
    if key == "round":
        return len(tokens) == 1
    return len(tokens) > 1 and tokens[1].split("|")[0] in _ids(state)


def _tidy(text: str) -> str:
    """The line with spaces collapsed, `@ q` and `q, r` closed up and `|` spaced."""
    line = " ".join(text.split())
    line = re.sub(r"@ ", "@", line)
    line = re.sub(r" ?, ?", ",", line)
    line = re.sub(r" ?\| ?", " | ", line)
    return line.strip()


def parse(state: State, text: str) -> dict[str, Any]:
    """The event ({type, data}) a typed line records; IllegalEvent saying what was not understood."""
    line = _tidy(text)
    tokens = line.split(" ") if line else []
    if not tokens:
        raise IllegalEvent("type a move, e.g. ann 2-5-5 @-1,0 525")
    if _is_keyword_line(state, tokens):
        return _keyword_line(state, tokens[0].lower(), tokens)
    head = tokens[0]
    if head in _ids(state):
        return _player_line(state, head, tokens[1:], line)
    example = _example_player(state)
    if head.lower() in ("draw", "pass"):
        raise IllegalEvent(f"{line}: whose {head.lower()}? write the player first, e.g. {example} {head.lower()}")
    if _TILE.match(head) or head == HIDDEN:
        raise IllegalEvent(f"{line}: who placed it? write the player first, e.g. {example} {line}")
    error = _unknown_player(state, head)
    raise IllegalEvent(f"{error} (or start the line with round, deal or reveal)")


# --- the click path ------------------------------------------------------------------------------


def cell_value(cell: Sequence[int]) -> str:
    """A cell as a pad value and a board target's customdata: `-1,0`."""
    return f"{cell[0]},{cell[1]}"


def pad_path(move: Mapping[str, Any]) -> tuple[PadStep, ...]:
    """The point-and-click path to a legal move: a placement is the hand tile, the cell (clickable on the
    board), then the reading of its corners (with the triple shown, for a 0-0-0 start that shows one);
    a draw and a pass are one button each."""
    kind = move["type"]
    data = move.get("data") or {}
    if kind == "tile_placed":
        cell = cell_value(data["cell"])
        reading = "".join(str(n) for n in data["corners"])
        if data.get("shown") is not None:
            reading += f" show {data['shown']}"
        return (
            PadStep("hand", data["tile"], data["tile"]),
            PadStep("board", cell, f"@{cell}"),
            PadStep("option", reading, reading),
        )
    if kind == "tile_drawn":
        tile = data.get("tile")
        draw = PadStep("action", "draw", "draw")
        return (draw,) if tile is None else (draw, PadStep("option", tile, tile))
    if kind == "turn_passed":
        return (PadStep("action", "pass", "pass"),)
    if kind == "round_started":
        return (PadStep("action", "round", "new round"),)
    return ()


# --- line templates ------------------------------------------------------------------------------


def templates(state: State) -> list[tuple[str, str]]:
    """The pad's line templates (label, line prefix) for the events typed with tiles read off the table:
    the next round, each deal still to come, a tile drawn and seen by the player to move, the reveal."""
    if state.phase is Phase.WAITING:
        return [("new round", "round")]
    if state.phase is Phase.DEALING:
        return [(f"deal {p.id}", f"deal {p.id} ") for p, hand in zip(state.players, state.hands, strict=True)
                if hand is None]
    if state.phase is Phase.REVEALING:
        hidden = [p.id for p, hand in zip(state.players, state.hands, strict=True) if hand is not None and hand.hidden]
        return [(f"reveal {' | '.join(hidden)}", f"reveal {hidden[0]} ")] if hidden else []
    if state.phase is Phase.PLAYING and state.turn is not None:
        pid = state.players[state.turn].id
        if any(m["type"] == "tile_drawn" for m in legal_moves(state, pid)):
            return [(f"{pid} draws a seen tile", f"{pid} draw ")]
    return []
