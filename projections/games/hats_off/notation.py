"""Hats Off on the scorepad: each event as one typed line, a typed line read back, and the click path
to every legal move (docs/scorepad.md "Hats Off").

    round ann                  round_started (ann calls READY-SET-GO)
    ann 4 ann9                 hat_launched: Ann's hat 4 into hole 9 of Ann's area
    bo 1 in ann5               hat_launched: Bo's hat 1 nested in Ann's hat 5
    bo 1 board flying          hat_launched: on the board, in flight at the HATS OFF call
    hatsoff ann bo             hats_off_called: Ann and Bo call together
    move ann 1 bo7             hat_moved: Ann's hat 1 knocked into hole 7 of Bo's area
    end                        round_ended

A place is `<area><hole>` (the hole's number 1–9 written after the area's player id, `ann9`), `in
<player><hat>` (`in bo4`), `board` or `off`. A player id that ends in a digit stays readable: the last
digit is the hole (`p19` is hole 9 of p1's area). Keywords are read in any case; player ids exactly.
Parsing checks the spelling, the players and the numbers; whether the move is legal is the reducer's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from projections.errors import IllegalEvent
from projections.games.hats_off.board import HAT_NUMBERS, HOLE_NUMBERS
from projections.games.hats_off.rules import State
from projections.protocol import PadStep

KEYWORDS = ("round", "hatsoff", "move", "end")
FLAGS = {"flying": True, "landed": False}
LAUNCH_EXAMPLE = "ann 4 ann9, ann 4 in bo2, ann 4 board, ann 4 off"
PLACE_HELP = (
    "a hole is the area's player and the hole 1–9 (ann9), a nested hat is in <player><hat> (in bo4), or board / off"
)

_NUMBER = re.compile(r"^\d+$")
_TRAILING = re.compile(r"^(.*?)(\d+)$")


# --- writing -------------------------------------------------------------------------------------


def place_text(to: Any) -> str:
    """A `to` of FORMAT.md as the line writes it: `ann9`, `in bo4`, `board`, `off`."""
    if isinstance(to, Mapping):
        if "hole" in to:
            return f"{to['hole']['area']}{to['hole']['number']}"
        if "in_hat" in to:
            return f"in {to['in_hat']['player']}{to['in_hat']['hat']}"
    return str(to)


def to_notation(event: Mapping[str, Any]) -> str:
    """`event` ({type, data}) as the line a scorekeeper types."""
    kind = event["type"]
    data = event.get("data") or {}
    if kind == "round_started":
        return f"round {data['caller']}"
    if kind == "hat_launched":
        line = f"{data['player']} {data['hat']} {place_text(data['to'])}"
        if "in_flight" in data:
            line += " flying" if data["in_flight"] else " landed"
        return line
    if kind == "hats_off_called":
        return "hatsoff " + " ".join(data["players"])
    if kind == "hat_moved":
        return f"move {data['player']} {data['hat']} {place_text(data['to'])}"
    if kind == "round_ended":
        return "end"
    raise ValueError(f"hats-off has no notation for {kind!r}")


# --- reading -------------------------------------------------------------------------------------


def _ids(state: State) -> list[str]:
    return [p.id for p in state.players]


def _unknown(state: State, token: str, what: str = "") -> IllegalEvent:
    ids = _ids(state)
    near = [pid for pid in ids if pid.lower() == token.lower()]
    hint = f" (player ids are matched exactly: {near[0]})" if near else ""
    return IllegalEvent(f"{what}unknown player {token!r}{hint}; players: {', '.join(ids)}")


def _player(state: State, token: str, what: str = "") -> str:
    if token not in _ids(state):
        raise _unknown(state, token, what)
    return token


def _hat(token: str, what: str) -> int:
    if not _NUMBER.match(token):
        raise IllegalEvent(f"{what}: the hat is a number 1–6, not {token!r}")
    n = int(token)
    if n not in HAT_NUMBERS:
        raise IllegalEvent(f"{what}: hats are numbered 1–6, not {n}")
    return n


def _split_trailing(state: State, token: str, what: str, noun: str, allowed: range, example: str) -> tuple[str, int]:
    """`ann9` -> ("ann", 9): a player id with one digit written after it (the last digit)."""
    ids = _ids(state)
    if token[-1:].isdigit() and token[:-1] in ids:
        n = int(token[-1])
        if n not in allowed:
            raise IllegalEvent(f"{what}: {noun}s are numbered {allowed.start}–{allowed.stop - 1}, not {n} in {token!r}")
        return token[:-1], n
    m = _TRAILING.match(token)
    if m is not None and m.group(1) in ids:  # ann10, ann07
        raise IllegalEvent(
            f"{what}: {noun}s are numbered {allowed.start}–{allowed.stop - 1}, one digit after the player: "
            f"not {m.group(2)} in {token!r}"
        )
    if token in ids:
        raise IllegalEvent(f"{what}: {token!r} names a player but no {noun}: write the {noun} after it, {example}")
    if token[-1:].isdigit() and token[:-1]:
        raise _unknown(state, token[:-1], f"{what}: ")
    raise IllegalEvent(f"{what}: {token!r} is not a place: {PLACE_HELP}")


def _place(state: State, tokens: list[str], what: str) -> Any:
    """The `to` of the place written in `tokens` (one token, or two for `in bo4`)."""
    if not tokens:
        raise IllegalEvent(f"{what}: where did the hat land? e.g. {LAUNCH_EXAMPLE}")
    head = tokens[0]
    if head.lower() == "in":
        if len(tokens) == 1:
            raise IllegalEvent(f"{what}: in which hat? write its player and number, e.g. in bo4")
        target = tokens[1]
        if len(tokens) > 2:
            raise IllegalEvent(f"{what}: unexpected {' '.join(tokens[2:])!r} after the place {'in ' + target!r}")
        owner, hat = _split_trailing(state, target, what, "hat", HAT_NUMBERS, f"in {target}4")
        return {"in_hat": {"player": owner, "hat": hat}}
    if len(tokens) > 1:
        if head in _ids(state) and _NUMBER.match(tokens[1]):
            raise IllegalEvent(f"{what}: write the hole joined to its area, {head}{tokens[1]}, not {head} {tokens[1]}")
        raise IllegalEvent(f"{what}: unexpected {' '.join(tokens[1:])!r} after the place {head!r}")
    if head.lower() in ("board", "off"):
        return head.lower()
    area, number = _split_trailing(state, head, what, "hole", HOLE_NUMBERS, f"{head}9")
    return {"hole": {"area": area, "number": number}}


def _launch(state: State, tokens: list[str]) -> dict[str, Any]:
    player = _player(state, tokens[0])
    if len(tokens) < 2:
        raise IllegalEvent(f"{player}: which hat, and where did it land? e.g. {LAUNCH_EXAMPLE}")
    what = f"{player} {tokens[1]}"
    hat = _hat(tokens[1], what)
    rest = tokens[2:]
    flag = FLAGS.get(rest[-1].lower()) if len(rest) > 1 else None
    if flag is not None:
        rest = rest[:-1]
    elif rest and rest[-1].lower() in FLAGS:
        raise IllegalEvent(f"{what}: where did the hat land before {rest[-1]!r}? e.g. {LAUNCH_EXAMPLE}")
    data: dict[str, Any] = {"player": player, "hat": hat, "to": _place(state, rest, what)}
    if flag is not None:
        data["in_flight"] = flag
    return {"type": "hat_launched", "data": data}


def _keyword(state: State, word: str, tokens: list[str]) -> dict[str, Any]:
    args = tokens[1:]
    if word == "round":
        if len(args) != 1:
            raise IllegalEvent("round names the one player who calls READY-SET-GO: round " + _ids(state)[0])
        return {"type": "round_started", "data": {"caller": _player(state, args[0], "round: ")}}
    if word == "end":
        if args:
            raise IllegalEvent(f"end (the round is over) takes nothing more, not {' '.join(args)!r}")
        return {"type": "round_ended", "data": {}}
    if word == "hatsoff":
        if not args:
            raise IllegalEvent("hatsoff names who called HATS OFF: hatsoff " + _ids(state)[0])
        return {"type": "hats_off_called", "data": {"players": [_player(state, p, "hatsoff: ") for p in args]}}
    # move <player> <hat> <place>
    example = f"e.g. move {_ids(state)[0]} 1 {_ids(state)[-1]}7"
    if len(args) < 3:
        raise IllegalEvent(f"move needs the knocked hat's player and number and where it went now, {example}")
    player = _player(state, args[0], "move: ")
    what = f"move {player} {args[1]}"
    hat = _hat(args[1], what)
    if args[-1].lower() in FLAGS:
        raise IllegalEvent(f"{what}: {args[-1]!r} is for launches only; a knocked hat is not in flight")
    return {"type": "hat_moved", "data": {"player": player, "hat": hat, "to": _place(state, args[2:], what)}}


def parse(state: State, text: str) -> dict[str, Any]:
    """The event the line `text` records (whitespace already collapsed), or IllegalEvent saying why not."""
    tokens = text.split()
    if not tokens:
        raise IllegalEvent(f"type a move, e.g. {LAUNCH_EXAMPLE}")
    ids = _ids(state)
    word = tokens[0].lower()
    if word == "hats" and len(tokens) > 1 and tokens[1].lower() == "off" and tokens[0] not in ids:
        word, tokens = "hatsoff", ["hatsoff", *tokens[2:]]  # "HATS OFF ann" as it is shouted
    if word in KEYWORDS:
        try:
            return _keyword(state, word, tokens)
        except IllegalEvent:
            # A player whose id is a keyword launching a hat: "end 3 ann9".
            if tokens[0] in ids and len(tokens) > 2 and _NUMBER.match(tokens[1]):
                return _launch(state, tokens)
            raise
    if tokens[0] in ids:
        return _launch(state, tokens)
    if (len(tokens) > 1 and _NUMBER.match(tokens[1])) or any(pid.lower() == tokens[0].lower() for pid in ids):
        raise _unknown(state, tokens[0])  # a launch by someone not at the table
    raise IllegalEvent(
        f"unknown player or keyword {tokens[0]!r}: a line begins with a player ({LAUNCH_EXAMPLE}) "
        f"or round, hatsoff, move, end; players: {', '.join(ids)}"
    )


# --- the click path ------------------------------------------------------------------------------


def _who(pid: str) -> str:
    """A player on a button (the move carries ids only): `ann` -> `Ann`."""
    return pid[:1].upper() + pid[1:]


def hat_value(player: str, hat: int) -> str:
    return f"{player} {hat}"


def _hat_step(kind: str, data: Mapping[str, Any]) -> PadStep:
    return PadStep(kind, hat_value(data["player"], data["hat"]), f"{_who(data['player'])} {data['hat']}")


def destination_step(to: Any, drawn: bool = True) -> PadStep:
    """Where a hat goes: a hole (clickable on the board), a hat to nest in (on the board when the figure
    draws it: `drawn`), the board or off it."""
    value = place_text(to)
    if isinstance(to, Mapping) and "hole" in to:
        return PadStep("board", value, f"{_who(to['hole']['area'])} hole {to['hole']['number']}")
    if isinstance(to, Mapping) and "in_hat" in to:
        inner = to["in_hat"]
        return PadStep("board" if drawn else "option", value, f"in {_who(inner['player'])} {inner['hat']}")
    return PadStep("option", value, "On the board" if to == "board" else "Off the board")


def pad_path(move: Mapping[str, Any]) -> tuple[PadStep, ...]:
    """The clicks to `move` (as `moves.legal_moves` gives it), first choice first."""
    kind = move["type"]
    data = move.get("data") or {}
    if kind == "round_started":
        return (PadStep("action", "round", "New round"),)
    if kind == "round_ended":
        return (PadStep("action", "end", "End round"),)
    if kind == "hats_off_called":
        callers = list(data["players"])
        return (
            PadStep("action", "hatsoff", "HATS OFF"),
            PadStep("option", " ".join(callers), " + ".join(_who(p) for p in callers)),
        )
    if kind == "hat_moved":
        return (PadStep("action", "move", "Knocked hat"), _hat_step("board", data), destination_step(data["to"]))
    if kind == "hat_launched":
        counts = move.get("counts", True)
        steps = [_hat_step("hand", data)]
        # After HATS OFF a hat either was in flight at the call (it counts) or is written down for nothing.
        if data.get("in_flight"):
            steps.append(PadStep("option", "flying", "In flight"))
        elif not counts:
            steps.append(PadStep("option", "late", "After HATS OFF"))
        # A counting hat nests only into a hat standing in a hole, which the figure draws; a hat launched
        # too late may be written into any hat, launched or not.
        steps.append(destination_step(data["to"], drawn=bool(counts)))
        return tuple(steps)
    return ()


# --- line templates ------------------------------------------------------------------------------


def templates(state: State) -> list[tuple[str, str]]:
    """No line templates: every Hats Off event can be clicked (nothing is read off the table as tiles)."""
    return []
