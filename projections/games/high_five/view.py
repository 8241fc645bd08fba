"""High Five read models for people and boards: the state JSON, event descriptions, the tile values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.events import Event
from projections.games.high_five import tiles as hf
from projections.games.high_five.rules import NAME, State, hand_size, is_finished
from projections.protocol import Annotation, Mark


def _last_play_json(ids: list[str], last: tuple[int, str, str | None] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    seat, tile, capture = last
    return {"player": ids[seat], "tile": tile, "capture": capture}


def to_json(state: State) -> dict[str, Any]:
    ids = [p.id for p in state.players]
    finished = is_finished(state)
    claimers = [s for s in (state.claimer_after_play, state.to_play) if s is not None]
    return {
        "game": NAME,
        "phase": state.phase.value,
        "target_score": state.target_score,
        "leader": ids[state.leader],
        "game_number": state.game,
        "hand_number": state.hand_number,
        "last_hand": state.last_hand,
        "layout": list(state.layout),
        "boneyard": state.boneyard,
        "to_play": ids[state.to_play] if state.to_play is not None else None,
        "may_claim": [ids[s] for s in claimers] if not finished else [],
        "claimable": [{"tiles": [p.played, p.partner], "left_by": ids[p.seat], "value": p.value} for p in state.missed],
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "score": state.totals[i],
                "game_points": state.rounds[-1][i] if state.rounds else 0,
                "hand": {
                    "tiles": list(state.hands[i][0]) if state.hands else [],
                    "hidden": state.hands[i][1] if state.hands else 0,
                    "count": hand_size(state.hands[i]) if state.hands else 0,
                },
                "pile": list(state.piles[i]) if state.piles else [],
                "pile_value": sum(hf.value(t) for t in state.piles[i]) if state.piles else 0,
            }
            for i, p in enumerate(state.players)
        ],
        "last_play": _last_play_json(ids, state.last_play),
        "rounds": [dict(zip(ids, r, strict=True)) for r in state.rounds],
        "finished": finished,
        "winners": [ids[state.winner]] if state.winner is not None else [],
    }


def describe(before: State, event: Event, after: State) -> Annotation:
    d = event.data
    if event.type == "game_started":
        return Annotation(f"game {after.game} started: layout {', '.join(after.layout)}")
    if event.type == "hand_dealt":
        text = f"hand {after.hand_number} of game {after.game} dealt, {hand_size(after.hands[0])} tiles each"
        hidden = sum(h[1] for h in after.hands)
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


def board_extras(match_started_data: Mapping[str, Any]) -> dict[str, Any]:
    """What the board draws besides the state: every tile's value (the set is the same in every match)."""
    return {"values": {t: hf.value(t) for t in hf.TILES}}


def marks(before: State, event: Event, after: State) -> Mark:
    """`describe`'s player and tags without its words (the statistics read these for every move)."""
    if event.type in ("game_started", "hand_dealt"):
        return None, ()
    d = event.data
    seat = next(i for i, p in enumerate(after.players) if p.id == d.get("player"))
    pid = after.players[seat].id
    if event.type == "tile_played":
        if d.get("capture") is not None:
            return pid, ("capture", f"capture:{after.totals[seat] - before.totals[seat]}")
        tile = d["tile"]
        return pid, ("missed",) if any(p.played == tile for p in after.missed) else ()
    return pid, ("claim", f"claim:{after.totals[seat] - before.totals[seat]}")
