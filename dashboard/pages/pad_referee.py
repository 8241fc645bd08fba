"""The scorepad's referee panel: mistakes at a table without a referee at it.

- Anyone recording sees "Ask for a correction": the event (the last one by default) and a few words; it is
  recorded as a `note` flagged `correction` (the line `correction #7 …`).
- The open requests of the match are listed for everyone; a referee or an admin gets, with each, "Undo #N"
  (the line `rewind N-1 <the request's text>`: the event asked about and what follows no longer count, which
  closes the request) and "Dismiss" (`resolve #R …`, a note that closes it without a rewind).
- A referee or an admin sees "Mark abandoned…" with a reason (`abandon …`, the `match_abandoned` event); an
  abandoned match shows a banner and takes no more game events.

Every action is a line put in the pad's `pad-line` store by assets/referee.js, so it travels the pad's one
sending path (its event_id, retries, the echo); the lines are read by `projections.corrections.referee_line`
before the game's notation (`parse`). The panel is drawn again whenever the pad's position changes (`pad-meta`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dash import Dash, Input, Output, dcc, html

from dashboard.pages.signin import principal
from projections.corrections import Request, open_requests, referee_line
from projections.events import COMMON_EVENT_TYPES
from projections.notation import parse_line
from projections.protocol import Game
from projections.redaction import View, describe
from projections.timeline import Fold
from recorder.access.auth import Principal
from recorder.access.visibility import reader
from recorder.errors import StoreError
from recorder.facade import Scorebook

PICKABLE = 8  # the recent events a correction request may be about
EXAMPLE_ABANDON = "e.g. Bo was taken ill"


def parse(game: Game[Any], state: Any, line: str) -> dict[str, Any]:
    """The event of a pad line: a referee panel line (`correction`, `resolve`, `abandon`), else the game's
    notation (`projections.notation.parse_line`); IllegalEvent for a line neither reads."""
    return referee_line(line) or parse_line(game, state, line)


def _data(values: Mapping[str, str]) -> Any:
    """data-* attributes (Dash passes them through; typed Any for the stubs)."""
    return dict(values)


def recent_events(fold: Fold[Any], view: View, n: int = PICKABLE) -> list[tuple[int, str]]:
    """(seq, "#seq description") of the last `n` game events that still count, latest first."""
    out: list[tuple[int, str]] = []
    for seq in range(fold.seq, 1, -1):
        if len(out) >= n:
            break
        if seq in fold.superseded_by or fold.event(seq).type in COMMON_EVENT_TYPES:
            continue
        words = describe(fold, seq, view).text
        out.append((seq, f"#{seq} {words}"[:80]))
    return out


def abandoned_banner(fold: Fold[Any]) -> Any:
    if not fold.abandoned:
        return None
    reason = fold.event(fold.abandoned).data.get("reason", "")
    return html.Div(id="referee-abandoned", className="referee-abandoned", role="status", children=[
        html.Strong(f"Abandoned at #{fold.abandoned}"), f": {reason}. ",
        html.Span("No more moves are taken; notes are. It counts in no statistics, standings or ratings. "
                  "A referee's rewind to before it lets the match go on.", className="small"),
    ])


def requests_view(requests: Sequence[Request], fold: Fold[Any], who: Principal | None) -> Any:
    if not requests:
        return None
    referee = who is not None and who.may("referee")
    items = []
    for r in requests:
        about = f"#{r.about_seq}" if r.about_seq else "the match"
        buttons = []
        if referee:
            if r.about_seq is not None and 2 <= r.about_seq <= fold.seq and r.about_seq not in fold.superseded_by:
                buttons.append(html.Button(
                    f"Undo #{r.about_seq}", className="btn btn-danger referee-line", id=f"referee-undo-{r.seq}",
                    title=f"Rewind to #{r.about_seq - 1}: #{r.about_seq} and what follows no longer count",
                    **_data({"data-line": f"rewind {r.about_seq - 1} {r.text}"})))
            buttons.append(html.Button(
                "Dismiss", className="btn referee-line", id=f"referee-dismiss-{r.seq}",
                title="Close the request without a rewind (a note says so)",
                **_data({"data-line": f"resolve #{r.seq} dismissed by the referee"})))
        items.append(html.Li(className="referee-request", id=f"referee-request-{r.seq}", children=[
            html.Div([html.Strong(f"Correction asked about {about}"), f" (#{r.seq}): {r.text}"]),
            html.Div(buttons, className="referee-actions") if buttons else html.Div(
                "Waiting for a referee.", className="muted small"),
        ]))
    return html.Div(className="referee-requests", id="referee-requests", children=[
        html.H3(f"Open correction requests ({len(requests)})"), html.Ul(items)])


def ask_view(fold: Fold[Any], view: View) -> Any:
    events = recent_events(fold, view)
    if not events:
        return None
    return html.Details(className="referee-ask", id="referee-ask-box", children=[
        html.Summary("Ask for a correction", id="referee-ask-open"),
        html.Label(["Which event?", html.Select(
            id="referee-ask-seq", className="referee-select",
            children=[html.Option(label, value=str(seq)) for seq, label in events])]),
        html.Label(["What is wrong?", dcc.Input(
            id="referee-ask-text", type="text", maxLength=200, className="referee-text", autoComplete="off",
            spellCheck=False, debounce=False, placeholder="e.g. the 3-4-5 went on the wrong cell")]),
        html.Button("Ask the referee", id="referee-ask", className="btn btn-primary"),
    ])


def abandon_view(fold: Fold[Any], who: Principal | None) -> Any:
    if who is None or not who.may("referee") or fold.finished or fold.abandoned:
        return None
    return html.Details(className="referee-abandon", id="referee-abandon-box", children=[
        html.Summary("Mark abandoned…", id="referee-abandon-open"),
        html.Label(["Why does the match stop here?", dcc.Input(
            id="referee-abandon-reason", type="text", maxLength=200, className="referee-text", autoComplete="off",
            debounce=False, placeholder=EXAMPLE_ABANDON)]),
        html.P("No more moves will be taken; the match leaves the statistics, the standings and the ratings.",
               className="muted small"),
        html.Button("Abandon the match", id="referee-abandon", className="btn btn-danger"),
    ])


def panel(sb: Scorebook, match_id: str, who: Principal | None, fold: Fold[Any] | None = None) -> list[Any]:
    """The panel's children for `who` on the match as it stands."""
    if who is None:
        return []
    try:
        fold = fold if fold is not None else sb.fold(match_id)
        view = sb.view(match_id, reader(who))
    except StoreError:
        return []
    found = open_requests({"seq": e.seq, "type": e.type, "data": e.data} for e in fold.events)
    return [c for c in (abandoned_banner(fold), requests_view(found, fold, who), ask_view(fold, view),
                        abandon_view(fold, who)) if c is not None] + [
        html.Div(id="referee-msg", className="referee-msg small", role="status")]


def panel_div(sb: Scorebook, match_id: str, who: Principal | None, fold: Fold[Any] | None = None) -> html.Div:
    """The panel as the pad's layout places it."""
    return html.Div(panel(sb, match_id, who, fold), id="referee-panel", className="referee-panel")


def register(app: Dash, sb: Scorebook) -> None:
    @app.callback(Output("referee-panel", "children"), Input("pad-meta", "data"), prevent_initial_call=True)
    def on_position(meta: Mapping[str, Any] | None) -> list[Any]:
        if not isinstance(meta, Mapping) or not meta.get("match_id"):
            return []
        return panel(sb, str(meta["match_id"]), principal(sb))
