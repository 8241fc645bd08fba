"""`/record`: start a match (game, players in seat order, the game's options, meta) or continue one.

Player ids are made from the names typed (lowercase, spaces → '-', made unique); names of earlier
players are offered as suggestions. The options and their defaults come from the game's descriptor
(`Option.json_schema()`): numbers, true/false, a choice among values, lists of numbers, or JSON. A game
with more than one published rules version offers them too (the current one chosen).
The match is started through the facade as the signed-in scorekeeper (`sb.start_match`), with an
event_id made in the browser, and its pad opens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from dash import ALL, ClientsideFunction, Dash, Input, Output, State, dcc, html, no_update

from dashboard.pages.pad import attrs
from dashboard.pages.signin import principal, sign_in_prompt
from projections.options import Option
from projections.registry import GAME_NAMES, game_title, get_game
from recorder.access import auth
from recorder.errors import StoreError
from recorder.facade import Scorebook

SEATS = 8  # the most players any game takes (High Five)
CONTINUE = 20
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def player_id(name: str, taken: Sequence[str]) -> str:
    """`Ann Lee` -> `ann-lee`; `-2`, `-3` … when the id is taken already."""
    base = "-".join(name.strip().lower().split()) or "player"
    pid, n = base, 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    return pid


def players_from(names: Sequence[str | None], registered: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """The seats as match_started's players. A name that is a registered player's (or one of their aliases:
    `registered` maps each, lower-cased, to the id) takes that player's id; any other name is a free one."""
    players: list[dict[str, str]] = []
    for name in names:
        clean = " ".join((name or "").split())
        known = (registered or {}).get(clean.lower())
        taken = [p["id"] for p in players]
        players.append({"id": known if known and known not in taken else player_id(clean, taken), "name": clean})
    return players


def registered_names(sb: Scorebook) -> dict[str, str]:
    """Every registered player's name and aliases, lower-cased, to their id (recorder/clubs/service.py)."""
    out: dict[str, str] = {}
    for p in sb.clubs.club_players():
        for name in (p.name, *p.aliases):
            out.setdefault(name.lower(), p.id)
    return out


def option_kind(option: Option) -> str:
    """How an option is typed in: "int", "bool", "enum", "int_list", "text" or "json"."""
    schema = option.json_schema()
    if "enum" in schema:
        return "enum"
    kind = schema.get("type")
    if kind == "integer":
        return "int"
    if kind == "boolean":
        return "bool"
    if kind == "array" and (schema.get("items") or {}).get("type") == "integer":
        return "int_list"
    if kind == "string":
        return "text"
    return "json"


def option_field(name: str, option: Option) -> html.Div:
    schema = option.json_schema()
    kind = option_kind(option)
    oid = {"type": "new-option", "name": name}
    default = option.default
    control: Any
    if kind == "int":
        control = dcc.Input(id=oid, type="number", value=default, min=schema.get("minimum"), step=1,
                            className="opt-input")
    elif kind == "bool":
        control = dcc.Checklist(id=oid, options=[{"label": " yes", "value": "on"}], value=["on"] if default else [],
                                className="opt-check")
    elif kind == "enum":
        control = dcc.RadioItems(id=oid, options=[{"label": str(v).replace("_", " "), "value": v}
                                                  for v in schema["enum"]], value=default, inline=True,
                                 className="opt-radio")
    elif kind == "int_list":
        control = dcc.Input(id=oid, type="text", value=", ".join(map(str, default or [])), className="opt-input",
                            autoComplete="off")
    elif kind == "text":
        control = dcc.Input(id=oid, type="text", value=default or "", className="opt-input", autoComplete="off",
                            placeholder="(default)" if default is None else "")
    else:
        control = dcc.Input(id=oid, type="text", value=default if isinstance(default, str) else json.dumps(default),
                            className="opt-input", autoComplete="off")
    return html.Div(className="opt-row", **attrs({"data-option": name}), children=[
        html.Label([html.Span(name.replace("_", " "), className="opt-name"), control]),
        html.Div(option.description, className="muted small"),
    ])


RULES_VERSION = "rules_version"  # beside the options on the form, though match_started writes it on its own


def rules_version_field(game: str) -> html.Div | None:
    """A choice of rules version, once a game has published more than one (a match played under the old
    rules is recorded under them); None while there is one, which the server then writes."""
    current = get_game(game)
    if len(current.published) < 2:
        return None
    choices = [{"label": f"{n}{' (current)' if n == current.rules_version else ''}", "value": n}
               for n in current.published]
    return html.Div(className="opt-row", **attrs({"data-option": RULES_VERSION}), children=[
        html.Label([html.Span("rules version", className="opt-name"),
                    dcc.RadioItems(id={"type": "new-option", "name": RULES_VERSION}, options=choices,
                                   value=current.rules_version, inline=True, className="opt-radio")]),
        html.Div("the rules the match is played under: "
                 + "; ".join(f"{n}: {g.rules.summary}" for n, g in current.published.items()),
                 className="muted small"),
    ])


def option_fields(game: str) -> list[Any]:
    options = get_game(game).descriptor.options
    version = rules_version_field(game)
    fields: list[Any] = [option_field(name, opt) for name, opt in options.items()] or [
        html.P("This game has no options.", className="muted")]
    return [version, *fields] if version is not None else fields


def read_option(name: str, option: Option, raw: Any, players: Sequence[Mapping[str, str]]) -> Any:
    """The value typed for an option, in its JSON type; ValueError saying what is wrong."""
    kind = option_kind(option)
    if kind == "bool":
        return bool(raw) and "on" in raw
    if kind == "enum":
        return raw
    if kind == "int":
        if raw in (None, ""):
            return option.default
        try:
            number = float(raw)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a whole number") from None
        if not number.is_integer():
            raise ValueError(f"{name} must be a whole number, not {raw}")
        return int(number)
    text = str(raw or "").strip()
    if kind == "int_list":
        try:
            return [int(x) for x in re.split(r"[,\s]+", text) if x]
        except ValueError:
            raise ValueError(f"{name}: whole numbers separated by commas, e.g. "
                             + ", ".join(map(str, option.default or [1, 2]))) from None
    if kind == "text":
        if not text:
            return option.default
        for p in players:  # an option naming a player (High Five's first_player): its name or its id
            if text.lower() in (p["name"].lower(), p["id"]):
                return p["id"]
        return text
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past what a parser takes: the store refuses it
        return text


def read_meta(tournament: Any, round_: Any, table: Any, day: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key, raw in (("tournament", tournament), ("round", round_), ("table", table), ("date", day)):
        text = " ".join(str(raw or "").split())
        if not text:
            continue
        if key == "date" and not _DATE.match(text):
            raise ValueError(f"the date is written YYYY-MM-DD, e.g. {date.today().isoformat()}")
        meta[key] = int(text) if key in ("round", "table") and text.isdigit() else text
    return meta


def match_data(game: str, names: Sequence[str | None], option_values: Mapping[str, Any],
               meta: Mapping[str, Any], registered: Mapping[str, str] | None = None) -> dict[str, Any]:
    """match_started's data from the form: only options that differ from their defaults are written; seats
    named as a registered player are that player (`players_from`). A rules version other than the current
    one is written, and the options are compared with that version's defaults."""
    current = get_game(game)
    version = option_values.get(RULES_VERSION)
    spec = (current.version(version) if version is not None else current).descriptor
    missing = [i + 1 for i, n in enumerate(names) if not (n or "").strip()]
    if missing:
        raise ValueError(f"seat {missing[0]} needs a name")
    players = players_from(names, registered)
    options = {}
    for name, opt in spec.options.items():
        if name in option_values:
            value = read_option(name, opt, option_values[name], players)
            if value != opt.default:
                options[name] = value
    data: dict[str, Any] = {"game": game, "players": players}
    if options:
        data["options"] = options
    if version is not None and version != current.rules_version:  # the current one: the server writes it
        data[RULES_VERSION] = version
    if meta:
        data["meta"] = dict(meta)
    return data


def start(sb: Scorebook, who: auth.Principal | None, data: Mapping[str, Any], event_id: str | None) -> str:
    """The new match's id; ValueError with the reason it was refused."""
    if who is None:
        raise ValueError("you are signed out: sign in again to start a match")
    event = {"type": "match_started", "data": dict(data)}
    try:
        auth.check_events(who, [event])
        started = sb.start_match(dict(data), recorded_by=who.name, event_id=event_id)
    except StoreError as e:
        raise ValueError(e.message) from e
    return str(started["match_id"])


def layout(sb: Scorebook) -> html.Div:
    who = principal(sb)
    if who is None:
        return sign_in_prompt("/record")
    # the club's registered players first, then every name seen in a match
    club = [p.name for p in sb.clubs.club_players()]
    known = club + sorted(set(sb.players().values()) - set(club), key=str.lower)
    going, _ = sb.matches(status="in_progress", limit=CONTINUE)
    game = GAME_NAMES[0]
    low = get_game(game).descriptor.min_players
    rows = []
    for i in range(SEATS):
        rows.append(html.Div(className="player-row", id=f"new-player-row-{i}", hidden=i >= low, children=[
            html.Span(f"Seat {i + 1}", className="seat"),
            dcc.Input(id=f"new-player-{i}", type="text", list="known-players", value="", autoComplete="off",
                      placeholder="name", className="player-input", debounce=False),
            html.Button("✕", id=f"new-player-remove-{i}", className="btn btn-remove", title="Remove this player",
                        hidden=True),
        ]))
    return html.Div(className="page record", children=[
        dcc.Store(id="new-count", data=low),
        dcc.Store(id="new-seat-clicks"),  # the clicks on "+ Add player" and each ✕ counted so far
        dcc.Store(id="new-seat-limits", data=seat_limits()),
        dcc.Store(id="new-send"),
        # Where a started match's pad is: a Location of this page (an output to the app's own `url` would
        # make Dash call `create` when the page is drawn); "callback-nav" tells the app's router.
        dcc.Location(id="new-goto", refresh="callback-nav"),
        html.H1("Record a match"),
        html.Div(className="record-grid", children=[
            html.Div(className="record-new card", children=[
                html.H2("New match"),
                html.Div(className="field", children=[
                    html.Div("Game", className="field-label"),
                    dcc.RadioItems(id="new-game", options=[{"label": game_title(g), "value": g} for g in GAME_NAMES],
                                   value=game, className="game-pick", inline=True),
                ]),
                html.Div(className="field", children=[
                    html.Div(["Players in seat order (clockwise) ",
                              html.Span(id="new-players-hint", className="muted small",
                                        children=_players_hint(game))], className="field-label"),
                    *rows,
                    html.Button("+ Add player", id="new-player-add", className="btn"),
                    html.Datalist(id="known-players", children=[html.Option(value=n) for n in known]),
                ]),
                html.Details(className="field", open=False, children=[
                    html.Summary("Options (the game's defaults are filled in)", className="field-label"),
                    html.Div(option_fields(game), id="new-options", className="opt-list"),
                ]),
                html.Div(className="field meta", children=[
                    html.Div("Meta", className="field-label"),
                    html.Label(["Tournament", dcc.Input(id="new-tournament", type="text", autoComplete="off")]),
                    html.Label(["Round", dcc.Input(id="new-round", type="text", autoComplete="off")]),
                    html.Label(["Table", dcc.Input(id="new-table", type="text", autoComplete="off")]),
                    html.Label(["Date", dcc.Input(id="new-date", type="text", value=date.today().isoformat(),
                                                  placeholder="YYYY-MM-DD", autoComplete="off")]),
                ]),
                html.Button("Start the match", id="new-start", className="btn btn-primary btn-big"),
                html.Div(id="new-error", className="form-error", role="alert"),
            ]),
            html.Div(className="record-continue card", children=[
                html.H2("Continue recording"),
                html.Ul([html.Li(dcc.Link(
                    [html.B(game_title(m["game"])), " · ", " · ".join(p["name"] for p in m["players"]),
                     html.Span(f"  #{m['seq']}", className="muted")],
                    href=f"/record/{m['match_id']}", className="continue-link")) for m in going],
                    className="continue-list") if going else html.P("No match in progress.", className="muted"),
            ]),
        ]),
    ])


def _players_hint(game: str) -> str:
    d = get_game(game).descriptor
    return f"({d.min_players}–{d.max_players} players)"


def seat_limits() -> dict[str, list[int | str]]:
    """Each game's fewest and most players, and the hint that says so: the browser keeps the seat rows within
    them and shows the hint of the game picked (`scorepad.seats`)."""
    return {g: [get_game(g).descriptor.min_players, get_game(g).descriptor.max_players, _players_hint(g)]
            for g in GAME_NAMES}


def register(app: Dash, sb: Scorebook) -> None:
    seats = range(SEATS)

    # The seat rows are counted in the browser, from the click counts: quick clicks on "+ Add player" each add a
    # row. (Counted by a server callback, a second click's request left before the first's answer and counted
    # from the same number.) The server draws only the game's option fields.
    app.clientside_callback(
        ClientsideFunction(namespace="scorepad", function_name="seats"),
        *[Output(f"new-player-{i}", "value") for i in seats],
        *[Output(f"new-player-row-{i}", "hidden") for i in seats],
        *[Output(f"new-player-remove-{i}", "hidden") for i in seats],
        Output("new-count", "data"),
        Output("new-seat-clicks", "data"),
        Output("new-players-hint", "children"),
        Output("new-player-add", "disabled"),
        Input("new-game", "value"),
        Input("new-player-add", "n_clicks"),
        *[Input(f"new-player-remove-{i}", "n_clicks") for i in seats],
        *[State(f"new-player-{i}", "value") for i in seats],
        State("new-count", "data"),
        State("new-seat-clicks", "data"),
        State("new-seat-limits", "data"),
        prevent_initial_call=True,
    )

    @app.callback(Output("new-options", "children"), Input("new-game", "value"), prevent_initial_call=True)
    def options(game: str) -> Any:
        return option_fields(game)

    app.clientside_callback(
        ClientsideFunction(namespace="scorepad", function_name="start"),
        Output("new-send", "data"),
        Input("new-start", "n_clicks"),
        State("new-send", "data"),
        prevent_initial_call=True,
    )

    @app.callback(
        Output("new-error", "children"),
        Output("new-goto", "pathname"),
        Input("new-send", "data"),
        State("new-game", "value"),
        State("new-count", "data"),
        *[State(f"new-player-{i}", "value") for i in seats],
        State({"type": "new-option", "name": ALL}, "value"),
        State({"type": "new-option", "name": ALL}, "id"),
        State("new-tournament", "value"),
        State("new-round", "value"),
        State("new-table", "value"),
        State("new-date", "value"),
        prevent_initial_call=True,
    )
    def create(send: Any, game: str, count: int, *args: Any) -> tuple[Any, Any]:
        names = list(args[:SEATS])[: int(count or 2)]
        values, ids, tournament, round_, table, day = args[SEATS:]
        option_values = {i["name"]: v for i, v in zip(ids, values, strict=True)}
        try:
            data = match_data(game, names, option_values, read_meta(tournament, round_, table, day),
                              registered_names(sb))
            match_id = start(sb, principal(sb), data, (send or {}).get("event_id"))
        except ValueError as e:
            return f"Not started: {e}", no_update
        return "", f"/record/{match_id}"
