"""The replay page of a match in progress follows it (docs/LIVE.md): the page script (assets/live.js) listens
to GET /api/matches/{id}/stream and, for each new event, writes the `replay-live` store; `grown` here then
brings the match's new length, event list, score chart and badges, and `load_frames` (pages/replay.py),
listening to `replay-meta`, the new frames. The step follows the end unless the viewer had stepped back
(decided in the browser, which knows the step shown). The answers are built from the viewer's replay, as
the page's first ones: a spectator's never hold a hidden tile."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dash import ClientsideFunction, Dash, Input, Output, State, no_update

from dashboard.model import Replay, ReplayCache, clamp_step
from recorder.errors import StoreError
from recorder.facade import Scorebook

Viewed = Callable[[Scorebook, ReplayCache, str], Replay]  # the viewer's replay (pages/replay.viewed_replay)
Parts = Callable[[Replay, int], tuple[str, dict[int, str], dict[str, Any]]]  # pages/replay.live_parts

LIVE_BADGE = "badge badge-live"


def badges(finished: bool) -> tuple[str, str, str]:
    """The status badge's words and class, and the live badge's class (hidden once the match has ended)."""
    status = "finished" if finished else "in progress"
    return status, f"badge badge-{'finished' if finished else 'in_progress'}", LIVE_BADGE + (" hidden" if finished
                                                                                              else "")


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
        if replay.seq == meta.get("n") and replay.finished == meta.get("finished", False):
            return unchanged
        follow = bool((ping or {}).get("follow"))
        step = replay.seq if follow else clamp_step(value or 0, replay.seq)
        events, marks, chart = live_parts(replay, step)
        status, status_class, live_class = badges(replay.finished)
        return (
            ack,
            {"match_id": replay.match_id, "n": replay.seq, "bonus": list(replay.bonus_steps),
             "finished": replay.finished},
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
