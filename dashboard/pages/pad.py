"""The scorepad, `/record/<match_id>`: record the next event of a match at the table.

On top (sticky on a phone): the running totals, the keyboard line (`move-input`, autocomplete from the
legal moves' notation) and the echo of the last event. Under it: the point-and-click path to a legal
move (buttons per step; "board" steps are also drawn on the board as large targets), the board, whose
turn it is, the panel lines and the last events. A referee or an admin also sees Undo (a rewind to the
previous effective event, with a reason).

How an event travels: the browser makes an `event_id` (assets/pad.js, clientside), kept with the line
until the server has answered; Enter sends {line, event_id, seq}. The server (`record_line`) reads the
line in the state at `seq` (`pad_referee.parse`: its lines, then projections.notation), checks the role
(`auth.check_events`),
appends with `expected_seq = seq` and the event_id: a retry of a line already stored is answered with
the stored event; a stale seq (someone else recorded) reloads the pad at the current seq and keeps the
typed line. The reducer's refusal is shown with its reason and nothing is stored.

Hidden tiles (recorder/access/visibility.py): a recorder who has recorded nothing of a match in progress yet sees
its pad as a spectator — hands and racks redacted, no legal moves (they name the tiles) — until they
record its next event; a referee or an admin sees everything.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flask
from dash import ClientsideFunction, Dash, Input, Output, State, ctx, dcc, html, no_update

from dashboard.boards import board_figure, board_module, choice_face, player_lines
from dashboard.model import Choices, Position, PositionCache, choices, points_text
from dashboard.pages import pad_referee
from dashboard.pages.signin import principal, sign_in_prompt
from dashboard.theme import seat_colours
from projections.errors import IllegalEvent
from projections.events import COMMON_EVENT_TYPES
from projections.redaction import FULL, View, describe, redact_state
from projections.registry import game_title
from projections.timeline import Fold
from recorder.access import auth
from recorder.access.auth import Principal
from recorder.access.visibility import reader
from recorder.errors import Conflict, Forbidden, StoreError
from recorder.facade import Scorebook

LAST_EVENTS = 8
HINTS_COOKIE = "scorebook_hints"  # "off": this device's scorekeeper switched the hints off
HINTS_MAX_AGE = 400 * 24 * 3600
BACK, CLEAR = "__back__", "__clear__"
STEP_PROMPTS = {
    "action": "Choose",
    "hand": "Pick from the hand",
    "board": "Choose the place (or tap it on the board)",
    "option": "Choose",
}


def attrs(values: Mapping[str, str]) -> Any:
    """HTML data-* and aria-* attributes (Dash passes them through as they are; typed Any for the stubs)."""
    return dict(values)


# -- what the pad shows -----------------------------------------------------------------------------


def _names(fold: Fold[Any]) -> dict[str, str]:
    return dict(fold.players)


def totals_line(fold: Fold[Any]) -> str:
    """`Ann 137 · Bo 88`: the running totals in seat order."""
    totals = fold.game.scores(fold.state).totals
    return " · ".join(f"{name} {totals.get(pid, 0)}" for pid, name in fold.players)


def echo_text(fold: Fold[Any], seq: int, view: View = FULL) -> str:
    """`#23 tile_placed: Ann placed … · Ann 137 · Bo 88`: what the reducer made of event `seq`, and the totals."""
    return f"#{seq} {fold.event(seq).type}: {describe(fold, seq, view).text} · {totals_line(fold)}"


def to_move(fold: Fold[Any], board: Mapping[str, Any]) -> str | None:
    """The player id the descriptor's `to_move_key` names in the state JSON (None: anyone, or nobody)."""
    key = fold.game.descriptor.to_move_key
    value = board.get(key) if key else None
    return value if isinstance(value, str) and value in _names(fold) else None


def totals_view(fold: Fold[Any], mover: str | None) -> list[Any]:
    sheet = fold.game.scores(fold.state)
    colours = seat_colours([pid for pid, _ in fold.players])
    winners = set(sheet.winners)
    chips = []
    for pid, name in fold.players:
        classes = "total-chip" + (" to-move" if pid == mover else "") + (" winner" if pid in winners else "")
        chips.append(html.Div(className=classes, style={"borderLeftColor": colours[pid]},
                              **attrs({"data-player": pid}), children=[
            html.Span(name + (" ★" if pid in winners else ""), className="total-name"),
            html.Span(str(sheet.totals.get(pid, 0)), className="total-score"),
        ]))
    return chips


def turn_view(fold: Fold[Any], board: Mapping[str, Any], mover: str | None, lines: Sequence[str]) -> list[Any]:
    names = _names(fold)
    bits: list[Any] = []
    if fold.finished:
        winners = fold.game.scores(fold.state).winners
        bits.append(html.Span("Finished" + (": " + ", ".join(names[w] for w in winners) + " won" if winners else ""),
                              className="badge badge-finished"))
    elif mover is not None:
        bits.append(html.Span(["To move: ", html.B(names[mover])], className="to-move-badge"))
    shown = [line for line in lines if not (mover and line.lower().startswith("to play"))]
    if shown:
        bits.append(html.Span(" · ".join(shown), className="muted"))
    return bits


def panel_view(fold: Fold[Any], lines: Mapping[str, list[str]]) -> list[Any]:
    colours = seat_colours([pid for pid, _ in fold.players])
    return [html.Div(className="pad-panel-line", style={"borderLeftColor": colours[pid]}, children=[
        html.B(name), " ", " · ".join(lines.get(pid, []))]) for pid, name in fold.players]


def last_events_view(fold: Fold[Any], n: int = LAST_EVENTS, view: View = FULL) -> html.Ol:
    names = _names(fold)
    items = []
    for seq in range(fold.seq, max(1, fold.seq - n), -1):
        e = fold.event(seq)
        note = describe(fold, seq, view)
        pts = points_text(fold.points(seq), names)
        rewind = fold.superseded_by.get(seq)
        items.append(html.Li(className="pad-event" + (" superseded" if rewind else ""),
                             **attrs({"data-seq": str(seq)}), children=[
            html.Span(f"#{seq}", className="num"), " ", html.Span(e.type, className="type"), " ",
            html.Span(note.text, className="what"),
            html.Span(f" ({pts})", className="pts") if pts else None,
            html.Span(f" — undone by rewind #{rewind}", className="superseded-note") if rewind else None,
        ]))
    return html.Ol(items, className="pad-events", reversed=True)


def undo_target(fold: Fold[Any]) -> tuple[int, int] | None:
    """(the last effective game event, the seq to rewind to): the event before it, never superseded
    (a rewind superseding it would supersede the later event too)."""
    for seq in range(fold.seq, 1, -1):
        if seq in fold.superseded_by:
            continue
        if fold.event(seq).type not in COMMON_EVENT_TYPES:  # a game event (not a note, rewind, bag reveal)
            return seq, seq - 1
    return None


def undo_view(fold: Fold[Any], who: Principal | None) -> Any:
    """Undo for a referee or an admin: a rewind to the event before the last effective one, with a reason."""
    if who is None or not who.may("referee"):
        return None
    target = undo_target(fold)
    if target is None:
        return html.Div("Nothing to undo yet.", className="muted small", id="pad-undo-none")
    last, to_seq = target
    return html.Div(className="pad-undo", children=[
        html.Button(f"Undo #{last}…", id="pad-undo", className="btn btn-undo",
                    **attrs({"data-to-seq": str(to_seq)}),
                    title=f"Rewind to #{to_seq}: #{last} and what follows it no longer count"),
        html.Div(id="pad-undo-form", className="pad-undo-form", hidden=True, children=[
            html.Label(["Why is #" + str(last) + " undone?",
                        dcc.Input(id="pad-undo-reason", type="text", debounce=False, autoComplete="off",
                                  placeholder="e.g. tile recorded on the wrong cell", className="pad-undo-reason")]),
            html.Button("Rewind", id="pad-undo-confirm", className="btn btn-danger",
                        **attrs({"data-to-seq": str(to_seq)})),
            html.Button("Cancel", id="pad-undo-cancel", className="btn"),
        ]),
    ])


HIDDEN_HINTS = ("The legal moves name the tiles in hand, hidden while the match is in progress from a scorekeeper who "
                "has recorded none of its events: type the next move on the line above; once it is recorded, the "
                "hands and the hints show.")


def templates_view(templates: Sequence[tuple[str, str]]) -> list[Any]:
    """The line templates: a button per event typed with tiles read off the table; a click puts its prefix
    on the line and the cursor after it (assets/pad.js), nothing is recorded until Enter."""
    if not templates:
        return []
    return [html.Div(className="pad-templates", id="pad-templates", children=[
        html.Button(f"Type: {label}", className="btn pad-template", **attrs({"data-template": prefix}), title=prefix)
        for label, prefix in templates
    ])]


def steps_view(position: Position, picked: Choices, hints: bool, finished: bool,
               templates: Sequence[tuple[str, str]] = ()) -> list[Any]:
    """The point-and-click path: the line templates, what was chosen, the choices of the next step, and
    "Record …" once one move is left."""
    if not hints:
        return [html.P("Hints are off: type each move on the line above.", className="muted small")]
    if finished:
        return [html.P("The match is finished: only notes (note …) and rewinds are recorded now.",
                       className="muted small")]
    return templates_view(templates) + _path_view(position, picked)


def _path_view(position: Position, picked: Choices) -> list[Any]:
    clickable = [m for m in position.moves if m.steps]
    if not clickable:
        if position.moves:
            return [html.P("Type the move on the line above; the suggestions list the legal ones.",
                           className="muted small")]
        return [html.P("No legal move to suggest here (a deal, a draw, a new round …): type it on the line "
                       "above.", className="muted small")]
    out: list[Any] = []
    k = len(picked.chosen)
    if picked.chosen:
        out.append(html.Div(className="pad-crumbs", children=[
            html.Span(" › ".join(s.label for s in picked.chosen), className="pad-chosen", id="pad-chosen"),
            html.Button("‹ Back", className="btn pad-nav", **attrs({"data-value": BACK}), id="pad-back"),
            html.Button("Clear", className="btn pad-nav", **attrs({"data-value": CLEAR}), id="pad-clear"),
        ]))
    done = [m for m in picked.remaining if len(m.steps) == k] if k else []
    ready = picked.remaining if len(picked.remaining) == 1 else tuple(done)
    if ready:
        out.append(html.Div(className="pad-ready", children=[
            html.Button(f"Record {m.notation}", className="btn btn-record", **attrs({"data-line": m.notation}),
                        id="pad-record" if i == 0 else f"pad-record-{i}")
            for i, m in enumerate(ready)
        ]))
    if picked.next and len(picked.remaining) > 1:
        kind = picked.kind or "action"
        out.append(html.Div(STEP_PROMPTS.get(kind, "Choose"), className="pad-prompt"))
        out.append(html.Div(className="pad-choices", children=[
            html.Button(choice_face(s.label), className=f"btn pad-choice kind-{s.kind}",
                        **attrs({"data-value": s.value}), title=s.value)
            for s in picked.next
        ]))
    return out


def figure_with_targets(fold: Fold[Any], board: Mapping[str, Any], picked: Choices | None) -> dict[str, Any]:
    figure = board_figure(fold.game.name, board, fold.players, fold.finished,
                          **fold.game.board_extras(fold.event(1).data))
    values = picked.board_values if picked is not None else []
    targets = getattr(board_module(fold.game.name), "targets", None)
    if values and targets is not None:
        # While a place is chosen, a tap goes to the nearest target: the drawing under it takes no hover.
        quiet = [{**t, "hoverinfo": "skip", "hovertemplate": None} for t in figure["data"]]
        figure = {**figure, "data": [*quiet, *targets(board, values)]}
    return figure


@dataclass
class PadView:
    """Everything the pad shows of a position (the outputs of the pad's callback)."""

    meta: dict[str, Any]
    choice: dict[str, Any]
    totals: list[Any]
    turn: list[Any]
    steps: list[Any]
    figure: dict[str, Any]
    moves: list[str]
    last: Any
    panel: list[Any]
    undo: Any
    picked: Choices = field(repr=False)


def pad_view(sb: Scorebook, match_id: str, who: Principal | None) -> View:
    """What the pad's scorekeeper may see of the match's hidden tiles (recorder/access/visibility.py)."""
    return sb.view(match_id, reader(who))


def render(sb: Scorebook, cache: PositionCache, match_id: str, who: Principal | None, hints: bool,
           chosen: Sequence[str] = (), fold: Fold[Any] | None = None) -> PadView:
    fold = fold if fold is not None else sb.fold(match_id)
    view = pad_view(sb, match_id, who)
    board = redact_state(fold.game.descriptor, fold.game.to_json(fold.state), view)
    # The legal moves name the tiles in hand: none for a scorekeeper who may not see them.
    position = cache.position(match_id, fold) if view.everything else Position(match_id, fold.seq, ())
    picked = choices(position, chosen if hints else ())
    mover = to_move(fold, board)
    lines = player_lines(fold.game.name, board, fold.finished)
    templates = fold.game.pad_templates(fold.state) if hints and not fold.finished else ()
    steps = steps_view(position, picked, hints, fold.finished, templates)
    if hints and not view.everything:
        steps = [html.P(HIDDEN_HINTS, className="muted small", id="pad-hidden-hints"), *templates_view(templates)]
    return PadView(
        meta={"match_id": match_id, "seq": fold.seq, "game": fold.game.name},
        choice={"seq": fold.seq, "chosen": [s.value for s in picked.chosen]},
        totals=totals_view(fold, mover),
        turn=turn_view(fold, board, mover, lines.get("", [])),
        steps=steps,
        figure=figure_with_targets(fold, board, picked if hints else None),
        moves=position.notations if hints else [],
        last=last_events_view(fold, view=view),
        panel=panel_view(fold, lines),
        undo=undo_view(fold, who),
        picked=picked,
    )


# -- recording a line -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What became of a line: stored (or a retry answered with what was stored), refused, or stale."""

    stored: bool
    message: str
    seq: int  # the match's last seq afterwards
    replayed: bool = False
    conflict: bool = False  # someone else recorded first: the pad reloads at `seq`, the line is kept


def record_line(sb: Scorebook, who: Principal | None, match_id: str, line: str, event_id: str | None,
                expected_seq: int) -> Outcome:
    """Read `line` in the match as it was at `expected_seq` (what the pad showed when it was typed) and
    append it after that seq with `event_id`; never raises for what a scorekeeper can do wrong."""
    fold = sb.fold(match_id)
    if who is None:
        return Outcome(False, "You are signed out: sign in again to record (the line is kept).", fold.seq)
    if not 1 <= expected_seq <= fold.seq:
        expected_seq = fold.seq
    try:
        event = pad_referee.parse(fold.game, fold.state_at(expected_seq), line)
    except IllegalEvent as e:
        return Outcome(False, f"Not understood: {e.reason}", fold.seq)
    try:
        auth.check_events(who, [event])
        stored, replayed = sb.append(match_id, [{**event, "event_id": event_id} if event_id else event],
                                     expected_seq, recorded_by=who.name)
    except Conflict as e:
        current = int(e.extra.get("current_seq", sb.fold(match_id).seq))
        if "current_seq" not in e.extra:  # an event_id reused for another event: the browser makes a new one
            return Outcome(False, f"Not recorded: {e.message}", current)
        return Outcome(False, f"Someone else recorded first: the pad now shows #{current}. Your line is kept — "
                              "check it against the board and press Enter again.", current, conflict=True)
    except Forbidden as e:
        return Outcome(False, f"Not allowed: {e.message}", fold.seq)
    except StoreError as e:
        return Outcome(False, f"Refused: {e.message}", fold.seq)
    seq = int(stored[-1]["seq"])
    after = sb.fold(match_id)
    message = echo_text(after.at(seq) if after.seq > seq else after, seq, pad_view(sb, match_id, who))
    if replayed:
        message += " (already recorded: the retry was answered with the stored event)"
    return Outcome(True, message, after.seq, replayed=replayed)


# -- the page ---------------------------------------------------------------------------------------


def hints_wanted() -> bool:
    """Whether this device shows hints (the legal moves): on unless its scorekeeper switched them off."""
    try:
        return flask.request.cookies.get(HINTS_COOKIE) != "off"
    except RuntimeError:  # outside a request
        return True


def layout(sb: Scorebook, cache: PositionCache, match_id: str) -> html.Div:
    who = principal(sb)
    if who is None:
        return sign_in_prompt(f"/record/{match_id}")
    try:
        fold = sb.fold(match_id)
    except StoreError:
        return html.Div(className="page", children=[
            html.H1("No such match"),
            html.P([f"There is no match {match_id!r}. ", dcc.Link("Start a new one", href="/record")]),
        ])
    hints = hints_wanted()
    view = render(sb, cache, match_id, who, hints, fold=fold)
    summary = sb.summary(match_id)
    meta = summary.get("meta") or {}
    meta_bits = [str(meta[k]) if k == "tournament" else f"{k} {meta[k]}"
                 for k in ("tournament", "round", "table", "date") if meta.get(k) not in (None, "")]
    last_echo = (echo_text(fold, fold.seq, pad_view(sb, match_id, who)) if fold.seq > 1
                 else "Match started: record the first event.")
    return html.Div(className="page pad", children=[
        dcc.Store(id="pad-meta", data=view.meta),
        dcc.Store(id="pad-choice", data=view.choice),
        dcc.Store(id="pad-click"),
        dcc.Store(id="pad-line"),
        dcc.Store(id="pad-send"),
        dcc.Store(id="pad-ack"),
        dcc.Store(id="pad-ack-seen"),
        dcc.Store(id="pad-moves-data", data=view.moves),
        dcc.Store(id="pad-moves-shown"),
        html.Div(className="pad-head", children=[
            html.H1([game_title(fold.game.name), html.Span(" · ".join(n for _, n in fold.players),
                                                           className="subtitle")]),
            html.Div(className="head-badges", children=[
                html.Span(" · ".join(meta_bits), className="muted") if meta_bits else None,
                dcc.Link("replay", href=f"/matches/{match_id}", className="muted", id="pad-replay-link"),
            ]),
        ]),
        html.Div(className="pad-top", id="pad-top", children=[
            html.Div(view.totals, id="pad-totals", className="pad-totals"),
            html.Div(className="pad-line", children=[
                dcc.Input(id="move-input", type="text", list="pad-moves", debounce=False, autoComplete="off",
                          spellCheck=False, placeholder="type a move, Enter records it", className="move-input"),
                html.Button("Enter", id="pad-enter", className="btn btn-primary pad-enter",
                            title="Record the typed line (same as the Enter key)"),
            ]),
            html.Datalist(id="pad-moves"),
            html.Div(last_echo, id="pad-echo", className="pad-echo", role="status",
                     **attrs({"aria-live": "polite"})),
            html.Div(id="pad-net", className="pad-net"),  # written by assets/pad.js only (sending, no answer)
        ]),
        html.Div(className="pad-body", children=[
            html.Div(className="pad-main", children=[
                html.Div(className="pad-status", children=[
                    html.Div(view.turn, id="pad-turn", className="pad-turn"),
                    dcc.Checklist(id="pad-hints", options=[{"label": " hints", "value": "on"}],
                                  value=["on"] if hints else [], className="pad-hints"),
                ]),
                html.Div(view.steps, id="pad-steps", className="pad-steps"),
                # Boards drawn at a fixed scale keep a readable width on a phone and scroll (style.css).
                html.Div(dcc.Graph(id="pad-board", figure=view.figure, className="board pad-board",
                                   config={"displayModeBar": False, "responsive": True}),
                         className="pad-board-wrap", **attrs({"data-game": fold.game.name})),
            ]),
            html.Div(className="pad-side", children=[
                pad_referee.panel_div(sb, match_id, who, fold),
                html.Div(view.panel, id="pad-panel", className="pad-panel"),
                html.Div(view.undo, id="pad-undo-wrap"),
                html.H3("Last events"),
                html.Div(view.last, id="pad-last"),
            ]),
        ]),
    ])


def register(app: Dash, sb: Scorebook, cache: PositionCache) -> None:
    pad_referee.register(app, sb)
    app.clientside_callback(
        ClientsideFunction(namespace="scorepad", function_name="send"),
        Output("pad-send", "data"),
        Input("move-input", "n_submit"),
        Input("pad-enter", "n_clicks"),
        Input("pad-line", "data"),
        State("move-input", "value"),
        State("pad-send", "data"),
        State("pad-meta", "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction(namespace="scorepad", function_name="ack"),
        Output("pad-ack-seen", "data"),
        Input("pad-ack", "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction(namespace="scorepad", function_name="moves"),
        Output("pad-moves-shown", "data"),
        Input("pad-moves-data", "data"),
    )

    @app.callback(
        Output("pad-ack", "data"),
        Output("pad-echo", "children"),
        Output("pad-echo", "className"),
        Output("move-input", "value"),
        Output("pad-meta", "data"),
        Output("pad-choice", "data"),
        Output("pad-totals", "children"),
        Output("pad-turn", "children"),
        Output("pad-steps", "children"),
        Output("pad-board", "figure"),
        Output("pad-board", "clickData"),
        Output("pad-moves-data", "data"),
        Output("pad-last", "children"),
        Output("pad-panel", "children"),
        Output("pad-undo-wrap", "children"),
        Input("pad-send", "data"),
        Input("pad-click", "data"),
        Input("pad-board", "clickData"),
        Input("pad-hints", "value"),
        State("pad-meta", "data"),
        State("pad-choice", "data"),
        prevent_initial_call=True,
    )
    def on_pad(send: Any, click: Any, board_click: Any, hints_value: Any, meta: Mapping[str, Any],
               choice: Mapping[str, Any] | None) -> tuple[Any, ...]:
        if ctx.triggered_id == "pad-hints":  # remembered on this device, for the next pad it opens
            response = getattr(ctx, "response", None)
            if response is not None:
                response.set_cookie(HINTS_COOKIE, "on" if hints_value else "off", max_age=HINTS_MAX_AGE, path="/",
                                    samesite="Strict", httponly=True)
        return pad_update(sb, cache, principal(sb), ctx.triggered_id, send, click, board_click, hints_value, meta,
                          choice)


def pad_update(sb: Scorebook, cache: PositionCache, who: Principal | None, trigger: Any, send: Any, click: Any,
               board_click: Any, hints_value: Any, meta: Mapping[str, Any],
               choice: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """The pad's one server callback: a line sent, a step clicked (a button or a board target), hints
    switched. Returns the outputs in `register`'s order."""
    match_id = str(meta["match_id"])
    hints = bool(hints_value) and "on" in hints_value
    chosen: list[str] = list((choice or {}).get("chosen") or [])
    if (choice or {}).get("seq") != meta.get("seq"):
        chosen = []
    ack: Any = no_update
    echo: Any = no_update
    echo_class: Any = no_update
    line_value: Any = no_update
    if who is None:
        return ({"event_id": (send or {}).get("event_id"), "ok": False, "at": time.time()},
                "You are signed out: sign in again to record (reload the page).", "pad-echo refused",
                no_update, *([no_update] * 11))
    if trigger == "pad-send" and isinstance(send, Mapping):
        outcome = record_line(sb, who, match_id, str(send.get("line") or ""), send.get("event_id"),
                              int(send.get("seq") or meta["seq"]))
        ack = {"event_id": send.get("event_id"), "ok": outcome.stored, "at": time.time()}  # a new value each time
        echo = outcome.message
        echo_class = "pad-echo " + ("stored" if outcome.stored else "conflict" if outcome.conflict else "refused")
        if outcome.stored:
            line_value = ""
            chosen = []
        elif outcome.seq == meta["seq"]:
            # Refused: nothing changed; the position and the line stay as they were.
            return (ack, echo, echo_class, no_update, *([no_update] * 11))
        else:
            chosen = []
    elif trigger == "pad-click" and isinstance(click, Mapping):
        value = str(click.get("value"))
        chosen = chosen[:-1] if value == BACK else [] if value == CLEAR else [*chosen, value]
    elif trigger == "pad-board" and isinstance(board_click, Mapping):
        points = board_click.get("points") or []
        target = points[0].get("customdata") if points else None
        position = cache.position(match_id, sb.fold(match_id))
        if not isinstance(target, str) or target not in choices(position, chosen).board_values:
            return (*([no_update] * 10), None, *([no_update] * 4))
        chosen = [*chosen, target]
    view = render(sb, cache, match_id, who, hints, chosen)
    figure: Any = view.figure
    return (ack, echo, echo_class, line_value, view.meta, view.choice, view.totals, view.turn, view.steps, figure,
            None, view.moves, view.last, view.panel, view.undo)

