"""Hi-Spot's scorepad notation (docs/scorepad.md): one line per event, read back in the state it is
typed in, and the point-and-click path to each legal move.

```text
round                                 round_started
first ann=T13 bo=T08                  first_player_drawn (the tiles written: the dots decide who starts;
                                      `first ann=? bo=?`: a committed bag deals them)
ann draw T34 T13 ? ? ?                tiles_drawn (? for a tile the recorder did not see)
ann T52 5:24678                       tile_placed: tile, section 1–9, the dots it covers as placed
ann exchange T55 ? for T31 ?          tiles_exchanged (returned for drawn)
ann end                               turn_ended
reveal ann T10 T26 | bo -             racks_revealed (- for an empty rack)
blocked                               round_ended {reason: blocked}
```

Parsing checks the spelling only: the players exist, the tiles are in the match's tile set, the
section and dot positions are numbers in range. Whether the move is legal is the reducer's to say.
Keywords are read case-insensitively, tiles too (`t52`, `T5` for `T05`); player ids exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from projections.errors import IllegalEvent
from projections.games.hi_spot.moves import legal_moves
from projections.games.hi_spot.rules import SECTIONS, Phase, State
from projections.games.hi_spot.tiles import TileSet
from projections.protocol import PadStep

HIDDEN = "?"
EMPTY_RACK = "-"
KEYWORDS = ("round", "first", "reveal", "blocked")
ACTIONS = ("draw", "exchange", "end")
EXAMPLES = "ann T52 5:24678, ann draw T16, ann draw ?, ann end, ann exchange T55 for ?"
_PLACE = re.compile(r"^(\d+)(?::(.*))?$")


# ---------------------------------------------------------------- events as lines


def _tiles(tiles: Sequence[str | None]) -> str:
    return " ".join(HIDDEN if t is None else t for t in tiles)


def _joined(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def to_notation(event: Mapping[str, Any]) -> str:
    """`event` ({type, data}) as the line a scorekeeper types."""
    t, d = event["type"], event.get("data") or {}
    if t == "round_started":
        return "round"
    if t == "first_player_drawn":
        return _joined("first", " ".join(f"{p}={tile}" for p, tile in d["draws"].items()))
    if t == "tiles_drawn":
        return _joined(d["player"], "draw", _tiles(d["tiles"]))
    if t == "tile_placed":
        dots = "".join(str(p) for p in d["dots"])
        return f"{d['player']} {d['tile']} {d['section']}:{dots}"
    if t == "tiles_exchanged":
        return _joined(d["player"], "exchange", _tiles(d["returned"]), "for", _tiles(d["drawn"]))
    if t == "turn_ended":
        return f"{d['player']} end"
    if t == "racks_revealed":
        racks = " | ".join(f"{p} {_tiles(tiles) or EMPTY_RACK}" for p, tiles in d["racks"].items())
        return _joined("reveal", racks)
    if t == "round_ended":
        return "blocked"
    raise ValueError(f"hi-spot has no notation for {t!r}")


# ---------------------------------------------------------------- lines as events


@lru_cache(maxsize=16)
def _aliases(tiles: TileSet) -> dict[str, str]:
    """Every spelling a tile id may be typed in → the id: any case, and `T5` / `5` for `T05` when
    that spelling names one tile only."""
    exact = {t.lower(): t for t in tiles.ids}
    loose: dict[str, set[str]] = {}
    for t in tiles.ids:
        m = re.fullmatch(r"([A-Za-z]*)0*(\d+)", t)
        if m:
            for alias in (m.group(1).lower() + m.group(2), m.group(2)):
                loose.setdefault(alias, set()).add(t)
    out = {a: next(iter(ids)) for a, ids in loose.items() if len(ids) == 1 and a not in exact}
    return out | exact


def _tile_range(tiles: TileSet) -> str:
    ids = sorted(tiles.ids)
    return f"{ids[0]}–{ids[-1]}" if len(ids) > 2 else ", ".join(ids)


class _Reader:
    """One line being read in `state`: its players and tile spellings, and refusals that quote it."""

    def __init__(self, state: State, line: str) -> None:
        self.state, self.line = state, line
        self.ids = [p.id for p in state.players]
        self.aliases = _aliases(state.tiles)

    def refuse(self, why: str) -> IllegalEvent:
        return IllegalEvent(f"{self.line}: {why}")

    def player(self, token: str) -> str:
        if token not in self.ids:
            raise self.refuse(f"unknown player {token!r}; players: {', '.join(self.ids)}")
        return token

    def tile(self, token: str, hidden_ok: bool, what: str) -> str | None:
        if token == HIDDEN:
            if hidden_ok:
                return None
            raise self.refuse(f"{what} must be written, not {HIDDEN}")
        tile = self.aliases.get(token.lower())
        if tile is None:
            raise self.refuse(f"unknown tile {token!r} (this set has {_tile_range(self.state.tiles)})")
        return tile

    def tiles(self, tokens: Sequence[str], hidden_ok: bool, what: str) -> list[str | None]:
        return [self.tile(t, hidden_ok, what) for tok in tokens for t in tok.split(",") if t]


def parse(state: State, text: str) -> dict[str, Any]:
    """The event a typed line records (whitespace already collapsed), or IllegalEvent saying what
    was not understood."""
    line = " ".join(text.split())
    r = _Reader(state, line)
    words = line.split(" ")
    head, rest = words[0], words[1:]
    if (
        head in r.ids
        and rest
        and (head.lower() not in KEYWORDS or rest[0].lower() in ACTIONS or rest[0].lower() in r.aliases)
    ):  # a player called "round" or "reveal" still has lines of his own
        return _player_line(r, head, rest)
    key = head.lower()
    if key == "round":
        if rest:
            raise r.refuse("a new round is just `round`")
        return {"type": "round_started", "data": {}}
    if key == "blocked":
        if rest:
            raise r.refuse("a blocked round is just `blocked`")
        return {"type": "round_ended", "data": {"reason": "blocked"}}
    if key == "first":
        return _first(r, rest)
    if key == "reveal":
        return _reveal(r, " ".join(rest))
    if head in r.ids:
        raise r.refuse(f"what did {head} do? e.g. {EXAMPLES.replace('ann', head)}")
    raise r.refuse(
        f"unknown player {head!r}; players: {', '.join(r.ids)} "
        f"(a line starts with a player or with {', '.join(KEYWORDS)})"
    )


def _player_line(r: _Reader, pid: str, rest: list[str]) -> dict[str, Any]:
    action = rest[0].lower()
    if action == "draw":
        return {"type": "tiles_drawn", "data": {"player": pid, "tiles": r.tiles(rest[1:], True, "a tile")}}
    if action == "end":
        if len(rest) > 1:
            raise r.refuse(f"the end of a turn is just `{pid} end`")
        return {"type": "turn_ended", "data": {"player": pid}}
    if action == "exchange":
        return _exchange(r, pid, rest[1:])
    return _placement(r, pid, rest)


def _exchange(r: _Reader, pid: str, rest: list[str]) -> dict[str, Any]:
    lowered = [w.lower() for w in rest]
    example = f"e.g. {pid} exchange T55 ? for ? ?"
    if "for" not in lowered:
        raise r.refuse(f"the tiles drawn are missing: returned … for drawn …, {example}")
    cut = lowered.index("for")
    returned = r.tiles(rest[:cut], True, "a tile")
    drawn = r.tiles(rest[cut + 1 :], True, "a tile")
    if not returned:
        raise r.refuse(f"the tiles returned are missing (? for one not seen), {example}")
    if not drawn:
        raise r.refuse(f"the tiles drawn are missing (? for one not seen), {example}")
    return {"type": "tiles_exchanged", "data": {"player": pid, "returned": returned, "drawn": drawn}}


def _placement(r: _Reader, pid: str, rest: list[str]) -> dict[str, Any]:
    example = f"e.g. {pid} T52 5:24678"
    looks_placed = len(rest) > 1 and _PLACE.match(rest[1]) is not None  # "T99 5:24": a misspelled tile
    if rest[0].lower() not in r.aliases and rest[0] != HIDDEN and not looks_placed:
        raise r.refuse(
            f"{rest[0]!r} is neither a tile nor one of {', '.join(ACTIONS)}; e.g. {EXAMPLES.replace('ann', pid)}"
        )
    tile = r.tile(rest[0], False, "the tile placed")
    assert tile is not None
    where = rest[1:]
    if not where:
        raise r.refuse(f"the section and the dots are missing, {example}")
    if len(where) == 2 and ":" not in where[0]:  # "5 24678" for "5:24678"
        where = [f"{where[0]}:{where[1]}"]
    if len(where) > 1:
        raise r.refuse(f"one section:dots after the tile, {example}")
    m = _PLACE.match(where[0])
    if m is None:
        raise r.refuse(f"{where[0]!r} is not a section:dots, {example}")
    section = int(m.group(1))
    if not 1 <= section <= SECTIONS:
        raise r.refuse(f"section {section}: the tray's sections are 1–{SECTIONS}, row by row from the top left")
    dots_text = (m.group(2) or "").replace(",", "")
    if not dots_text:
        raise r.refuse(
            f"the dots are missing: the positions 0–8 the tile covers as it lies, row by row from the top left, "
            f"{example}"
        )
    bad = next((c for c in dots_text if c not in "012345678"), None)
    if bad is not None:
        raise r.refuse(f"{bad!r} is not a dot position; positions are 0–8, row by row from the top left")
    dots = [int(c) for c in dots_text]
    return {"type": "tile_placed", "data": {"player": pid, "tile": tile, "section": section, "dots": dots}}


def _first(r: _Reader, rest: list[str]) -> dict[str, Any]:
    example = "e.g. first ann=T13 bo=T08"
    if not rest:
        raise r.refuse(f"each player's tile is missing, {example}")
    draws: dict[str, str | None] = {}
    for pair in rest:
        pid, eq, tile = pair.partition("=")
        if not eq or not pid or not tile:
            raise r.refuse(f"write each draw as player=tile, {example}")
        r.player(pid)
        if pid in draws:
            raise r.refuse(f"{pid} is listed twice")
        # `?` is for a committed bag's draw (the server writes the tile); elsewhere the rules ask for the tile.
        draws[pid] = r.tile(tile, True, f"{pid}'s tile (the dots decide who starts)")
    return {"type": "first_player_drawn", "data": {"draws": draws}}


def _reveal(r: _Reader, rest: str) -> dict[str, Any]:
    example = "e.g. reveal ann T10 T26 | bo -"
    if not rest.strip():
        raise r.refuse(f"the racks are missing, {example}")
    racks: dict[str, list[str]] = {}
    for part in rest.split("|"):
        words = part.split()
        if not words:
            raise r.refuse(f"an empty part between |, {example}")
        pid = r.player(words[0])
        if pid in racks:
            raise r.refuse(f"{pid}'s rack is listed twice")
        tokens = words[1:]
        if not tokens:
            raise r.refuse(f"{pid}'s tiles are missing ({EMPTY_RACK} for an empty rack), {example}")
        if tokens == [EMPTY_RACK]:
            racks[pid] = []
            continue
        tiles = r.tiles(tokens, False, f"{pid}'s revealed tiles")
        racks[pid] = [t for t in tiles if t is not None]
    return {"type": "racks_revealed", "data": {"racks": racks}}


# ---------------------------------------------------------------- click paths


def _picture(dots: Sequence[int]) -> str:
    """The dots as they lie, three rows of three: `●·● ·●· ●●●`."""
    on = set(dots)
    return " ".join("".join("●" if 3 * row + col in on else "·" for col in range(3)) for row in range(3))


def pad_path(move: Mapping[str, Any]) -> tuple[PadStep, ...]:
    """The scorepad's clicks to `move` (as `legal_moves` gives it): a placement is rack tile → section →
    orientation; a draw, an exchange, the end of a turn and a blocked round are one button each."""
    t, d = move["type"], move.get("data") or {}
    if t == "tile_placed":
        dots = list(d["dots"])
        return (
            PadStep("hand", d["tile"], f"{d['tile']} · {len(dots)} dot{'s' if len(dots) != 1 else ''}"),
            PadStep("board", str(d["section"]), f"section {d['section']}"),
            PadStep("option", "".join(str(p) for p in dots), _picture(dots)),
        )
    if t == "tiles_drawn":
        tiles = d["tiles"]
        value = _joined("draw", d["player"], _tiles(tiles) if any(x is not None for x in tiles) else "")
        return (PadStep("action", value, f"{d['player']}: draw {len(tiles)}"),)
    if t == "tiles_exchanged":
        n = len(d["returned"])
        return (PadStep("action", "exchange", f"exchange {n}"),)
    if t == "turn_ended":
        return (PadStep("action", "end", "end turn"),)
    if t == "round_ended":
        return (PadStep("action", "blocked", "round blocked"),)
    if t == "round_started":
        return (PadStep("action", "round", "new round"),)
    if t == "first_player_drawn":
        return (PadStep("action", to_notation(move), "first draw"),)
    if t == "racks_revealed":
        return (PadStep("action", "reveal", "reveal racks"),)
    return ()


# ---------------------------------------------------------------- line templates


def templates(state: State) -> list[tuple[str, str]]:
    """The pad's line templates (label, line prefix) for the events typed with tiles read off the table:
    the next round, the first-player draw, racks and refills drawn seen, a partial exchange, the reveal."""
    ids = [p.id for p in state.players]
    if state.phase is Phase.BETWEEN_ROUNDS:
        return [("new round", "round")]
    if state.phase is Phase.FIRST_DRAW and state.to_draw:
        drawing = [ids[s] for s in state.to_draw]
        return [(f"first-player draw ({', '.join(drawing)})", f"first {drawing[0]}=")]
    if state.phase is Phase.RACKS:
        return [(f"{pid} draws a seen rack", f"{pid} draw ") for s, pid in enumerate(ids)
                if s not in state.racks_drawn]
    if state.phase is Phase.REVEAL:
        return [(f"reveal {' | '.join(ids)}", f"reveal {ids[0]} ")]
    if state.phase is Phase.PLAY and state.current is not None:
        pid = ids[state.current]
        kinds = {m["type"] for m in legal_moves(state, pid)}
        out = []
        if "tiles_drawn" in kinds:
            out.append((f"{pid} draws seen tiles", f"{pid} draw "))
        if "tiles_exchanged" in kinds:
            out.append((f"{pid} exchanges part of the rack", f"{pid} exchange "))
        return out
    return []
