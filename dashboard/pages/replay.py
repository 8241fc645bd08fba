"""The replay page: a match step by step — board, scores, the event list and the hash-chain check.

The step lives in the URL (`/matches/<id>?step=k`), so a link shows the same position. The page is drawn
at that step by the server; right after, one more callback (`load_frames`) brings every step's frame for
the viewer (dashboard/replay_frames.py: compact differences, built once per match version and view, so
opening the page costs no more than before). Stepping (the buttons, ←/→/Home/End, the slider, autoplay,
"next bonus", an event row) runs in the browser and draws frame k there (assets/scorebook.js `step`): no
server round trip. A spectator's frames are drawn from the redacted states, so nothing hidden reaches
the browser.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import parse_qs

from dash import ClientsideFunction, Dash, Input, Output, Patch, State, dcc, html, no_update

from dashboard.boards import board_figure, player_lines
from dashboard.charts import score_chart, step_marker
from dashboard.model import Replay, ReplayCache, StepView, clamp_step, points_text, step_view
from dashboard.pages import replay_live
from dashboard.pages.signin import principal
from dashboard.theme import seat_colours
from projections.registry import game_title, get_game
from recorder.access.visibility import reader
from recorder.errors import ChainBroken, StoreError
from recorder.facade import Scorebook
from recorder.log.file import ChainCheck

AUTOPLAY_MS = 700


def step_from_search(search: str | None) -> int | None:
    values = parse_qs((search or "").lstrip("?")).get("step")
    return clamp_step(values[0], 10**9) if values else None


def viewed_replay(
    sb: Scorebook, cache: ReplayCache, match_id: str, fold: Any = None, check: ChainCheck | None = None
) -> Replay:
    """The match's replay as the request's viewer (its sign-in session) may see it: a spectator of a match
    in progress gets the events told and the states drawn without the hidden tiles."""
    fold = fold if fold is not None else sb.whole_fold(match_id)
    return cache.replay(sb, match_id, fold, sb.view(match_id, reader(principal(sb))), check)


def layout(sb: Scorebook, cache: ReplayCache, match_id: str, search: str | None) -> html.Div:
    check = None
    try:
        # The chain check reads the stored rows on every page load: an edit in the database shows at once.
        check = sb.verify(match_id)
        replay = viewed_replay(sb, cache, match_id, check=check)
    except ChainBroken as e:
        why = f": {check.reason}" if check is not None and not check.ok else ""
        return html.Div(className="page", children=[
            html.H1("Nothing to replay"),
            html.P(f"✗ chain broken at seq {e.seq}{why} — nothing of the match can be replayed. "
                   "`scorebook verify` shows it; the match's exported copies still hold what was recorded.",
                   id="chain-check", className="chain chain-bad"),
            html.P(dcc.Link("Back to the matches", href="/")),
        ])
    except StoreError:
        return html.Div(className="page", children=[
            html.H1("No such match"),
            html.P([f"There is no match {match_id!r}. ", dcc.Link("Back to the matches", href="/")]),
        ])
    asked = step_from_search(search)
    # A match in progress opens at its last step, which then follows the match as it is played (docs/LIVE.md).
    step = clamp_step(asked if asked is not None else (0 if replay.finished else replay.seq), replay.seq)
    view = step_view(sb, replay, step)
    meta = replay.summary.get("meta") or {}
    meta_bits = [str(meta[k]) if k == "tournament" else f"{k} {meta[k]}"
                 for k in ("tournament", "round", "table", "date") if meta.get(k) is not None]
    if replay.summary.get("rules_version") is not None:  # which rules the match is scored by (FORMAT.md)
        meta_bits.append(f"rules version {replay.summary['rules_version']}")
    abandoned = replay.summary.get("status") == "abandoned"  # a referee's match_abandoned stopped it
    status, status_class, live_class = replay_live.badges(replay.finished, abandoned)
    superseded = [r.seq for r in replay.rows if r.superseded_by]
    scoring_bonus = [s for s in replay.bonus_steps if any(replay.rows[s - 1].points.values())]
    figure, panel, step_label, score_text, now = render_parts(replay, view)
    return html.Div(className="page replay", children=[
        dcc.Store(id="replay-meta", data={"match_id": match_id, "n": replay.seq, "bonus": list(replay.bonus_steps),
                                          "finished": replay.finished, "abandoned": abandoned}),
        dcc.Store(id="replay-live"), dcc.Store(id="replay-live-ack"), dcc.Store(id="replay-live-seen"),
        dcc.Store(id="replay-frames"),
        dcc.Store(id="replay-frames-ready"),
        dcc.Store(id="replay-sync"),
        dcc.Interval(id="replay-autoplay", interval=AUTOPLAY_MS, disabled=True),
        html.Div(className="replay-head", children=[
            html.H1([game_title(replay.game), html.Span(
                " · ".join(name for _, name in replay.players), className="subtitle")]),
            html.Div(className="head-badges", children=[
                html.Span(status, id="status-badge", className=status_class,
                          title="a referee marked the match abandoned: out of statistics, standings and ratings"
                          if abandoned else None),
                html.Span("● live", id="live-badge", className=live_class,
                          title="This page follows the match: new events show as they are recorded",
                          **_data(match=match_id)),
                html.Span(" · ".join(meta_bits), className="muted") if meta_bits else None,
                html.Span(("✓ " if replay.chain_ok else "✗ ") + replay.chain_text, id="chain-check",
                          className="chain " + ("chain-ok" if replay.chain_ok else "chain-bad")),
            ]),
            *([html.P(imports_text(replay.summary.get("imports") or []), id="imports", className="muted small")]
              if replay.summary.get("imports") else []),
        ]),
        html.Div(className="controls", id="replay-controls",
                 **_data(n=replay.seq, bonus=replay.bonus_steps, step=step), children=[
            html.Button("« first", id="step-first", className="btn", title="First (Home)"),
            html.Button("‹ prev", id="step-prev", className="btn", title="Previous (←)"),
            html.Button("next ›", id="step-next", className="btn", title="Next (→)"),
            html.Button("last »", id="step-last", className="btn", title="Last (End)"),
            html.Button("Play", id="step-play", className="btn btn-play", title="Autoplay (space)"),
            html.Button("Next bonus ★", id="step-bonus", className="btn", title="Jump to the next bonus or capture",
                        disabled=not replay.bonus_steps),
            html.Span(step_label, id="step-label", className="step-label"),
            html.Div(dcc.Slider(id="replay-slider", min=0, max=replay.seq, step=1, value=step,
                                marks=_marks(replay.seq), updatemode="mouseup", allow_direct_input=False,
                                tooltip={"always_visible": False, "placement": "bottom"}),
                     className="slider-wrap"),
        ]),
        html.Div(className="replay-body", children=[
            html.Div(className="board-col", children=[
                html.Div(score_text, id="score-text", className="score-text"),
                html.Div(dcc.Graph(id="board", figure=figure, config={"displayModeBar": False}, className="board"),
                         className="board-wrap", **_data(game=replay.game)),
                html.Div(now, id="event-now", className="event-now"),
                legal_panel(match_id, replay.names, sorted(replay.missed)),
                html.H3("Score over time"),
                dcc.Graph(id="score-chart", config={"displayModeBar": False},
                          figure=score_chart(replay.players, replay.totals, step, scoring_bonus, superseded,
                                             missed_marks(replay))),
            ]),
            html.Div(className="side-col", children=[
                html.Div(panel, id="player-panel", className="player-panel"),
                html.H3("Events"),
                html.P("Click an event to go there. Struck-through events were undone by a referee's rewind.",
                       className="muted small"),
                dcc.Store(id="replay-events", data=event_table(replay, step)),
                dcc.Store(id="replay-events-shown"),
                html.Div(id="event-list", className="event-list"),
            ]),
        ]),
    ])


def live_parts(replay: Replay, step: int) -> tuple[str, dict[int, str], dict[str, Any]]:
    """The event list, the slider's marks and the score chart of `replay` at `step`, as `layout` draws them:
    what the live update (pages/replay_live.py) sends of a grown match."""
    superseded = [r.seq for r in replay.rows if r.superseded_by]
    scoring_bonus = [s for s in replay.bonus_steps if any(replay.rows[s - 1].points.values())]
    chart = score_chart(replay.players, replay.totals, step, scoring_bonus, superseded, missed_marks(replay))
    return event_table(replay, step), _marks(replay.seq), chart


def missed_marks(replay: Replay) -> list[tuple[int, str, str]]:
    """Hindsight's missed plays as the score chart marks them: (step, player, words)."""
    return [(seq, m["player"], m["text"]) for seq, found in sorted(replay.missed.items()) for m in found]


def legal_panel(match_id: str, names: Mapping[str, str], missed: Sequence[int] = ()) -> html.Div:
    """"Could they have played?": the legal moves of the player to move at the step shown, filled by the page
    script (dashboard/assets/legal.js) from `GET /api/matches/{id}/legal?at=k` once stepping pauses, each step
    asked once; hindsight's missed plays come with the answer (never to a spectator of a match in progress).
    With missed plays, "Next missed ⚠" goes to the next one's step (the seqs are `missed`)."""
    attrs = {**_data(match=match_id, missed=tuple(missed)), "data-names": json.dumps(dict(names))}
    head: list[Any] = [html.H3("Could they have played?")]
    if missed:
        head.append(html.Button("Next missed ⚠", id="step-missed", className="btn btn-small",
                                title="Go to the next draw, pass or placement that missed a play"))
    return html.Div(id="legal-panel", className="legal-panel", **attrs, children=[
        html.Div(head, className="legal-title"),
        html.Div("…", id="legal-body", className="legal-body muted small"),
    ])


def imports_text(imports: list[Mapping[str, Any]]) -> str:
    """Who brought the match's events here, for a match that was imported (its events keep their own
    recorded_by: the import is told apart)."""
    parts = []
    for i in imports:
        source = f" from {i['file_name']}" if i.get("file_name") else ""
        when = str(i.get("imported_at", ""))[:16].replace("T", " ")
        parts.append(f"seqs {i['first_seq']}–{i['last_seq']} imported by {i['imported_by']}{source} on {when}")
    return "Imported: " + "; ".join(parts)


def _data(**values: Any) -> Any:
    """HTML data-* attributes (Dash passes them through as they are)."""
    return {f"data-{k}": ",".join(map(str, v)) if isinstance(v, tuple | list) else str(v) for k, v in values.items()}


def _marks(n: int) -> dict[int, str]:
    if n <= 0:
        return {0: "0"}
    every = max(1, round(n / 8 / 10) * 10) if n > 40 else max(1, n // 8 or 1)
    marks = {k: str(k) for k in range(0, n + 1, every)}
    marks[n] = str(n)
    if n - every // 2 < max(k for k in marks if k != n):  # keep the last two marks apart
        marks.pop(max(k for k in marks if k != n), None)
    return marks


def event_table(replay: Replay, step: int) -> str:
    """The event list as one HTML table, put in place by the page script: hundreds of rows cost the
    browser one string, not thousands of components. Every text is escaped; the rows carry their seq
    for the page script (current row, click to go)."""
    names = replay.names
    out = ['<table class="table events"><thead><tr>',
           *(f"<th>{h}</th>" for h in ("#", "event", "player", "what happened", "points", "recorded")),
           "</tr></thead><tbody>"]
    for r in replay.rows:
        classes = ["event-row"]
        if r.seq == step:
            classes.append("current")
        if r.superseded_by:
            classes.append("superseded")
        if r.seq in replay.bonus_steps:
            classes.append("bonus")
        if r.seq in replay.missed:
            classes.append("missed")
        what = f'<span class="what">{escape(r.text)}</span>'
        for m in replay.missed.get(r.seq, ()):
            what += f'<div class="missed-note">⚠ missed: {escape(m["text"])}</div>'
        if r.superseded_by:
            reason = escape(r.superseded_reason or "no reason given")
            what += f'<div class="superseded-note">superseded by rewind #{r.superseded_by}: {reason}</div>'
        day, _, time = r.recorded_at.partition(" ")
        out.append(
            f'<tr class="{" ".join(classes)}" data-seq="{r.seq}">'
            f'<td class="num">{r.seq}</td>'
            f'<td class="type">{escape(r.type)}</td>'
            f"<td>{escape(names.get(r.player, r.player)) if r.player else ''}</td>"
            f"<td>{what}</td>"
            f'<td class="pts">{escape(points_text(r.points, names))}</td>'
            f'<td class="muted when" title="recorded by {escape(r.recorded_by)} at {escape(r.recorded_at)}">'
            f"{escape(r.recorded_by)}<br>{escape(time or day)}</td>"
            "</tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


def render_parts(replay: Replay, view: StepView) -> tuple[dict[str, Any], Any, str, str, Any]:
    """Board figure, player panel, step label, score text and the current event's words for a step."""
    reveal = replay.finished  # hands and racks stay hidden while a match is in progress
    figure = board_figure(replay.game, view.board, replay.players, reveal, **replay.extras)
    lines = player_lines(replay.game, view.board, reveal)
    colours = seat_colours([pid for pid, _ in replay.players])
    scores = {p["id"]: p["score"] for p in view.scores["players"]}
    winners = set(view.scores["winners"])
    cards = []
    for pid, name in replay.players:
        cards.append(html.Div(className="player-card", style={"borderLeftColor": colours[pid]}, children=[
            html.Div(className="card-head", children=[
                html.Span(name + (" ★" if pid in winners else ""), className="card-name",
                          style={"color": colours[pid]}),
                html.Span(str(scores.get(pid, 0)), className="card-score"),
            ]),
            *[html.Div(line, className="card-line") for line in lines.get(pid, [])],
        ]))
    if not reveal and get_game(replay.game).descriptor.has_hidden_information:
        cards.append(html.Div("Hands and racks stay hidden while the match is in progress.", className="muted small"))
    info = html.Div(" · ".join(lines.get("", [])), className="board-info")
    label = f"Step {view.step} of {replay.seq}"
    score_text = " · ".join(f"{name} {scores.get(pid, 0)}" for pid, name in replay.players)
    if view.row is None:
        now: Any = html.Span("The start: nothing recorded yet. Press → to step through the match.")
    else:
        r = view.row
        pts = points_text(r.points, replay.names)
        now = [html.B(f"#{r.seq} {r.type}: "), html.Span(r.text)]
        if pts:
            now.append(html.Span(f"  ({pts})", className="pts"))
        if r.superseded_by:
            now.append(html.Span(f"  — superseded by rewind #{r.superseded_by}: {r.superseded_reason}",
                                 className="superseded-note"))
        for m in replay.missed.get(r.seq, ()):
            now.append(html.Div(f"⚠ missed: {m['text']}", className="missed-note"))
    return figure, [info, *cards], label, score_text, now


def render_step(sb: Scorebook, cache: ReplayCache, match_id: str, step: int) -> tuple[Any, ...]:
    """Everything that changes with the step, drawn on the server as the page's frames are (the page steps in
    the browser; the tests and `bench` compare against it)."""
    fold = sb.whole_fold(match_id)  # the store's cached fold: every state is kept
    replay = viewed_replay(sb, cache, match_id, fold)
    view = step_view(sb, replay, step, fold)
    figure, panel, label, score_text, now = render_parts(replay, view)
    chart = Patch()
    chart["layout"]["shapes"][0] = step_marker(view.step)[0]
    return figure, panel, label, score_text, now, chart


def register(app: Dash, sb: Scorebook, cache: ReplayCache) -> None:
    app.clientside_callback(
        ClientsideFunction(namespace="scorebook", function_name="autoplay"),
        Output("replay-slider", "value"),
        Output("replay-autoplay", "disabled"),
        Output("step-play", "children"),
        Input("step-play", "n_clicks"),
        Input("replay-autoplay", "n_intervals"),
        State("replay-slider", "value"),
        State("replay-autoplay", "disabled"),
        State("replay-meta", "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction(namespace="scorebook", function_name="events"),
        Output("replay-events-shown", "data"),
        Input("replay-events", "data"),
    )
    # Steps are drawn by the page script (dashboard/assets/scorebook.js), not through Dash's outputs; a step
    # Dash makes (the slider, autoplay) reaches it here.
    app.clientside_callback(
        ClientsideFunction(namespace="scorebook", function_name="sync"),
        Output("replay-sync", "data"),
        Input("replay-slider", "value"),
    )
    app.clientside_callback(
        ClientsideFunction(namespace="scorebook", function_name="prepare"),
        Output("replay-frames-ready", "data"),
        Input("replay-frames", "data"),
    )

    replay_live.register(app, sb, cache, viewed_replay, live_parts)  # a match in progress followed as it is played
    grown_frames = replay_live.GrownFrames()  # a grown match in progress: only its new steps are drawn

    @app.callback(Output("replay-frames", "data"), Input("replay-meta", "data"))
    def load_frames(meta: Mapping[str, Any]) -> Any:
        """Every step's frame for this viewer, asked once when the page is shown."""
        try:
            replay = viewed_replay(sb, cache, meta["match_id"])
        except StoreError:  # gone, or its chain broke since the page was drawn: it keeps the step it shows
            return no_update
        return cache.frames(replay, lambda: grown_frames.payload(sb, replay, render_parts))
