"""Hats Off in words and as JSON: what each event did, and the state for GET /state and the board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.events import Event
from projections.games.hats_off.board import HAT_NUMBERS, HATS_OFF_BONUS, HatId, Hole, InHat, Place, place_json
from projections.games.hats_off.rules import (
    NAME,
    State,
    board_of,
    hat_name,
    hole_name,
    launched,
    next_caller,
    player_name,
    round_points,
    scores,
    sum_rounds,
    totals,
)
from projections.protocol import Annotation, Mark


def _to(state: State, place: Place) -> str:
    """Where a hat went, as the tail of "Ann's hat 3 launched ..."."""
    if isinstance(place, Hole):
        return f"into {hole_name(state, place)}"
    if isinstance(place, InHat):
        return f"into {hat_name(state, place.hat)}"
    return "onto the board, not in a hole" if place == "board" else "off the board"


def _last_json(last: tuple[str, HatId, Place, bool] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    kind, hid, place, counts = last
    return {"type": kind, "player": hid[0], "hat": hid[1], "to": place_json(place), "counts": counts}


def to_json(state: State) -> dict[str, Any]:
    board = board_of(state)
    sheet = scores(state)
    seat = [p.id for p in state.players]
    running = round_points(state) if state.hats else {p.id: 0 for p in state.players}
    hats = []
    for hid, landing in state.hats.items():
        hats.append({
            "player": hid[0], "hat": hid[1], "to": place_json(landing.place), "counts": landing.counts,
            "in_flight": landing.in_flight,
            "area": board.area(hid) if landing.counts else None,
            "points": board.hat_points(hid),
        })
    holes = [
        {"area": hole.area, "number": hole.number,
         "stack": [{"player": h[0], "hat": h[1]} for h in (bottom, *board.above(bottom))]}
        for hole, bottom in sorted(board.in_hole.items(), key=lambda kv: (seat.index(kv[0].area), kv[0].number))
    ]
    return {
        "game": NAME,
        "target_score": state.target,
        "round": state.round,
        "round_in_progress": state.in_round,
        "caller": state.caller,
        "next_caller": None if state.in_round or state.finished else next_caller(state).id,
        "hats_off_called_by": list(state.called),
        "players": [
            {"id": p.id, "name": p.name, "score": sheet.totals[p.id], "round_points": running[p.id],
             "hats_launched": len(launched(state, p.id)),
             "hats_in_hand": [n for n in HAT_NUMBERS if (p.id, n) not in state.hats]}
            for p in state.players
        ],
        "hats": hats,
        "holes": holes,
        "last": _last_json(state.last),
        "rounds": sheet.rounds,
        "finished": state.finished,
        "winners": list(state.winners),
    }


def _gains(before: State, after: State) -> dict[str, int]:
    b, a = totals(before), totals(after)
    return {p: a[p] - b[p] for p in a if a[p] != b[p]}


def _gain_text(state: State, gained: Mapping[str, int]) -> str:
    if not gained:
        return ": 0"
    return ": " + ", ".join(f"{player_name(state, p)} {v:+d}" for p, v in gained.items())


def describe(before: State, event: Event, after: State) -> Annotation:
    data = event.data
    gained = _gains(before, after)
    if event.type == "round_started":
        return Annotation(f"Round {after.round}: {player_name(after, after.caller or '')} calls READY-SET-GO",
                          after.caller)
    if event.type in ("hat_launched", "hat_moved"):
        hid = (data["player"], data["hat"])
        landing = after.hats[hid]
        verb = "launched" if event.type == "hat_launched" else "knocked"
        text = f"{hat_name(after, hid)} {verb} {_to(after, landing.place)}"
        area = board_of(after).area(hid) if landing.counts else None
        if isinstance(landing.place, InHat) and area:
            text += f" ({player_name(after, area)}'s area)"
        tags: list[str] = []
        if not landing.counts:
            text += " after HATS OFF: does not count"
        else:
            if landing.in_flight and event.type == "hat_launched":
                text += " (in flight at the call)"
                tags.append("in_flight")
            if isinstance(landing.place, InHat):
                tags.append("nested")
            elif isinstance(landing.place, Hole):
                tags.append("hole")
            text += _gain_text(after, gained)
        return Annotation(text, hid[0], tuple(tags))
    if event.type == "hats_off_called":
        names = " and ".join(player_name(after, p) for p in after.called)
        together = " together" if len(after.called) > 1 else ""
        board = board_of(after)
        bonus = [
            f"{player_name(after, p)} +{HATS_OFF_BONUS} bonus" if board.scoring_hats(p)
            else f"no bonus for {player_name(after, p)} (no scoring hat in own area)"
            for p in after.called
        ]
        return Annotation(f"{names} call{'' if together else 's'} HATS OFF{together}: " + ", ".join(bonus),
                          after.called[0], ("hats_off",))
    if event.type == "round_ended":
        pts = after.past[-1]
        totals = sum_rounds(after.players, after.past)
        text = f"Round {after.round} ends: " + ", ".join(f"{p.name} {pts[p.id]}" for p in after.players)
        text += " (totals " + ", ".join(f"{p.name} {totals[p.id]}" for p in after.players) + ")"
        if after.finished:
            text += f"; {player_name(after, after.winners[0])} wins"
        elif max(totals.values()) >= after.target:
            top = max(totals.values())
            tied = " and ".join(p.name for p in after.players if totals[p.id] == top)
            text += f"; {tied} tie at {top}: another round"
        return Annotation(text, None, ("round_end",))
    return Annotation(event.type)


def marks(before: State, event: Event, after: State) -> Mark:
    """`describe`'s player and tags without its words (the statistics read these for every move)."""
    t = event.type
    if t == "round_started":
        return after.caller, ()
    if t in ("hat_launched", "hat_moved"):
        data = event.data
        landing = after.hats[(data["player"], data["hat"])]
        if not landing.counts:
            return data["player"], ()
        tags: tuple[str, ...] = ("in_flight",) if landing.in_flight and t == "hat_launched" else ()
        if isinstance(landing.place, InHat):
            tags += ("nested",)
        elif isinstance(landing.place, Hole):
            tags += ("hole",)
        return data["player"], tags
    if t == "hats_off_called":
        return after.called[0], ("hats_off",)
    if t == "round_ended":
        return None, ("round_end",)
    return None, ()
