"""The replay page of a match in progress follows it (docs/LIVE.md): the page script (assets/live.js) listens
to GET /api/matches/{id}/stream and, for each new event, writes the `replay-live` store; `grown` here then
brings the match's new length, event list, score chart and badges, and `load_frames` (pages/replay.py),
listening to `replay-meta`, the new frames. The step follows the end unless the viewer had stepped back
(decided in the browser, which knows the step shown). The answers are built from the viewer's replay, as
the page's first ones: a spectator's never hold a hidden tile."""

from __future__ import annotations

import base64
import gzip
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dash import ClientsideFunction, Dash, Input, Output, State, no_update

from dashboard.model import Replay, ReplayCache, StepView, clamp_step, step_view
from dashboard.replay_frames import delta, pack, plain, step_frames
from recorder.errors import StoreError
from recorder.facade import Scorebook

Viewed = Callable[[Scorebook, ReplayCache, str], Replay]  # the viewer's replay (pages/replay.viewed_replay)
Parts = Callable[[Replay, int], tuple[str, dict[int, str], dict[str, Any]]]  # pages/replay.live_parts
Draw = Callable[[Replay, StepView], tuple[Any, ...]]  # pages/replay.render_parts

LIVE_BADGE = "badge badge-live"
KEPT_MATCHES = 8  # matches in progress whose frames are kept for the next append


@dataclass
class _Kept:
    replay: Replay  # what they were drawn from
    frames: list[Any]  # frame k of every step k (plain JSON, dashboard/replay_frames.py)
    deltas: list[Any]  # deltas[k - 1]: frame k - 1 to frame k


class GrownFrames:
    """The frames payload of a match in progress, drawn only for its new steps when it has grown by appended
    events since it was last drawn for the same view (the page's first frames drew every step: 2.4 s for a
    220-event High Five match on a loaded machine, beyond the live page's second).

    The frames already drawn are kept when nothing they show has changed: the same events before the new ones
    (same rows: words, points, rewinds), the same missed plays at them, the same players and board extras, and
    the match still in progress (its end shows the hands, in every frame). Otherwise — a rewind, the end — every
    step is drawn again. The payload is exactly `replay_frames.pack(step_frames(...))` (tested)."""

    def __init__(self, size: int = KEPT_MATCHES) -> None:
        self._items: OrderedDict[tuple[str, Any], _Kept] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def payload(self, sb: Scorebook, replay: Replay, draw: Draw) -> str:
        if replay.finished:  # drawn once and for all (and not kept here)
            return pack(step_frames(sb, replay, draw))
        key = (replay.match_id, replay.view)
        with self._lock:
            kept = self._items.get(key)
        fold = sb.fold(replay.match_id)
        if kept is not None and _extends(kept.replay, replay):
            frames, deltas = list(kept.frames), list(kept.deltas)
        else:
            frames, deltas = [], []
        for k in range(len(frames), replay.seq + 1):
            figure, panel, _label, score_text, now = draw(replay, step_view(sb, replay, k, fold))
            frames.append({"figure": figure, "panel": plain(panel), "score": score_text, "now": plain(now)})
            if k:
                deltas.append(delta(frames[k - 1], frames[k]))
        with self._lock:
            self._items[key] = _Kept(replay, frames, deltas)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        text = json.dumps({"first": frames[0], "deltas": deltas}, separators=(",", ":"))
        return base64.b64encode(gzip.compress(text.encode(), compresslevel=6, mtime=0)).decode("ascii")


def _extends(old: Replay, new: Replay) -> bool:
    """`new` is `old` with events appended and nothing `old`'s frames show changed."""
    n = old.seq
    return (not old.finished and not new.finished and new.seq >= n and new.rows[:n] == old.rows
            and new.players == old.players and new.extras == old.extras and new.game == old.game
            and {s: m for s, m in new.missed.items() if s <= n} == dict(old.missed))


def badges(finished: bool, abandoned: bool = False) -> tuple[str, str, str]:
    """The status badge's words and class, and the live badge's class (hidden once the match has ended, by
    its last event or by a referee's `match_abandoned`)."""
    status = "finished" if finished else "abandoned" if abandoned else "in progress"
    ended = finished or abandoned
    return status, "badge badge-" + status.replace(" ", "_"), LIVE_BADGE + (" hidden" if ended else "")


def register(app: Dash, sb: Scorebook, cache: ReplayCache, viewed_replay: Viewed, live_parts: Parts) -> None:
    """The live update's callbacks; the page's own drawing comes from pages/replay.py (which imports this)."""
    app.clientside_callback(
        ClientsideFunction(namespace="live", function_name="grown"),
        Output("replay-live-seen", "data"),
        Input("replay-meta", "data"),
    )
    app.clientside_callback(
        ClientsideFunction(namespace="live", function_name="answered"),
        Output("replay-live-seen", "data", allow_duplicate=True),
        Input("replay-live-ack", "data"),
        prevent_initial_call=True,
    )

    @app.callback(
        Output("replay-live-ack", "data"),
        Output("replay-meta", "data"),
        Output("replay-events", "data"),
        Output("replay-slider", "max"),
        Output("replay-slider", "marks"),
        Output("score-chart", "figure"),
        Output("status-badge", "children"),
        Output("status-badge", "className"),
        Output("live-badge", "className"),
        Output("step-bonus", "disabled"),
        Output("chain-check", "children"),
        Output("chain-check", "className"),
        Input("replay-live", "data"),
        State("replay-meta", "data"),
        State("replay-slider", "value"),
        prevent_initial_call=True,
    )
    def grown(ping: Mapping[str, Any] | None, meta: Mapping[str, Any], value: int | None) -> tuple[Any, ...]:
        """The match as it is now, when it has changed since the page's `meta` (else only the answer: a ping
        for an event the page has already, or the stream's first look). The answer (`replay-live-ack`) tells
        the page script it may ask again."""
        ack = (ping or {}).get("at")
        unchanged = (ack, *[no_update] * 11)
        try:
            replay = viewed_replay(sb, cache, meta["match_id"])
        except StoreError:  # gone, or its chain broke: the page keeps what it shows
            return unchanged
        abandoned = replay.summary.get("status") == "abandoned"
        if (replay.seq == meta.get("n") and replay.finished == meta.get("finished", False)
                and abandoned == meta.get("abandoned", False)):
            return unchanged
        follow = bool((ping or {}).get("follow"))
        step = replay.seq if follow else clamp_step(value or 0, replay.seq)
        events, marks, chart = live_parts(replay, step)
        status, status_class, live_class = badges(replay.finished, abandoned)
        return (
            ack,
            {"match_id": replay.match_id, "n": replay.seq, "bonus": list(replay.bonus_steps),
             "finished": replay.finished, "abandoned": abandoned},
            events,
            replay.seq,
            marks,
            chart,
            status,
            status_class,
            live_class,
            not replay.bonus_steps,
            ("✓ " if replay.chain_ok else "✗ ") + replay.chain_text,
            "chain " + ("chain-ok" if replay.chain_ok else "chain-bad"),
        )
