"""The tournaments: `/tournaments` lists them, `/tournaments/<id>` shows one — its facts, a round's table
sheet (`?round=N`, the latest paired by default), the open correction requests of its tables' matches (each with
a link to the table's pad, where a referee undoes or dismisses it), the standings, the tables still missing a
result (an abandoned match's table among them) and the downloads (standings CSV, archive). Everything is read
from the club service (`sb.clubs`, recorder/clubs/service.py); nothing is written here. Printing the page prints
the sheet and the standings (dashboard/assets/clubs.css)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from dash import dcc, html

from dashboard.pages.links import archive_href, player_href, replay_href, standings_csv_href, tournament_href
from dashboard.theme import signed
from projections.clubs.standings import Standing
from projections.clubs.tournament import Round, Table, Tournament, missing_results
from projections.registry import game_title
from recorder.errors import NotFound
from recorder.facade import Scorebook


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def format_label(state: Tournament) -> str:
    return "Swiss" if state.format == "swiss" else f"Tables of {state.table_size}"


def status_badge(closed: bool) -> html.Span:
    return html.Span("closed" if closed else "running", className=f"badge badge-{'closed' if closed else 'running'}")


def _points(x: float) -> str:
    return f"{x:g}"


def attrs(**given: str) -> dict[str, Any]:
    """HTML attributes Dash takes only as keywords with a hyphen (`data_round=` -> `data-round`)."""
    return {k.replace("_", "-"): v for k, v in given.items()}


# --- /tournaments --------------------------------------------------------------------------------------


def index(sb: Scorebook) -> html.Div:
    rows = [
        html.Tr(className="tournament-row", **attrs(data_tournament=t["id"]), children=[
            html.Td(dcc.Link(t["name"], href=tournament_href(t["id"]), className="tournament-link")),
            html.Td(game_title(t["game"])),
            html.Td("Swiss" if t["format"] == "swiss" else "Tables"),
            html.Td(f"{t['paired']} of {t['rounds']}", className="num"),
            html.Td(str(t["players"]), className="num"),
            html.Td(status_badge(bool(t["closed"]))),
            html.Td(t["date"] or "—", className="date"),
        ])
        for t in sb.clubs.tournaments()
    ] or [html.Tr(html.Td("No tournament yet.", colSpan=7, className="muted"))]
    head = html.Thead(html.Tr([html.Th("Tournament"), html.Th("Game"), html.Th("Format"),
                               html.Th("Rounds paired", className="num"), html.Th("Players", className="num"),
                               html.Th("Status"), html.Th("Date")]))
    return html.Div(className="page tournaments", children=[
        html.H1("Tournaments"),
        html.P("Latest first. A tournament is run from the API or `scorebook` on the command line; here it is read.",
               className="muted small"),
        html.Div(className="table-scroll", children=html.Table(
            className="table tournament-list", id="tournaments-table", children=[head, html.Tbody(rows)])),
    ])


# --- /tournaments/<id> ---------------------------------------------------------------------------------


def round_from_search(search: str | None, paired: int) -> int:
    """The round asked for (`?round=N`), else the latest paired (0: none paired)."""
    asked = parse_qs((search or "").lstrip("?")).get("round", [""])[0]
    try:
        number = int(asked)
    except ValueError:
        return paired
    return number if 1 <= number <= paired else paired


def not_found(tournament_id: str) -> html.Div:
    return html.Div(className="page", children=[
        html.H1("No such tournament", id="tournament-missing"),
        html.P(["There is no tournament with the id ", html.Code(tournament_id), ". ",
                dcc.Link("See the tournaments", href="/tournaments")]),
    ])


def layout(sb: Scorebook, tournament_id: str, search: str | None = None) -> html.Div:
    try:
        state = sb.clubs.tournament(tournament_id)
    except NotFound:
        return not_found(tournament_id)
    number = round_from_search(search, state.current_round)
    table = standings_table(sb.clubs.standings(tournament_id))
    statuses = match_statuses(sb, state)
    return html.Div(className="page tournament", **attrs(data_tournament=tournament_id), children=[
        html.Div(className="tournament-head", children=[
            html.H1([state.name, html.Span(game_title(state.game), className="subtitle")], id="tournament-name"),
            facts(state),
        ]),
        html.Div(className="downloads no-print", id="tournament-downloads", children=[
            html.A("Standings (CSV)", href=standings_csv_href(tournament_id), download=f"{tournament_id}.csv",
                   className="btn", id="download-standings"),
            html.A("Archive (tournament and matches)", href=archive_href(tournament_id),
                   download=f"{tournament_id}.jsonl", className="btn", id="download-archive"),
            html.Span("Printing this page prints the round sheet and the standings.", className="muted small"),
        ]),
        html.Section(className="corrections-section no-print", children=[
            html.H2("Correction requests"),
            corrections_list(sb.clubs.corrections(tournament_id), state),
        ]),
        html.Section(className="sheet-section", children=[
            html.H2(f"Round {number} of {state.rounds}" if number else "Round sheet", id="sheet-title"),
            round_picker(tournament_id, state, number),
            round_sheet(state, state.round(number), statuses) if number else html.P(
                "No round is paired yet.", className="muted", id="round-sheet"),
        ]),
        html.Section(className="standings-section", children=[
            html.H2(f"Standings after round {state.current_round}" if state.current_round else "Standings"),
            html.P("Ranked by match points, then Buchholz (the opponents' match points), game points and spread "
                   "(own total minus the opponents' mean, summed over the tables).", className="muted small"),
            table,
        ]),
        html.Section(className="missing-section no-print", children=[
            html.H2("Missing results"),
            missing_list(tournament_id, state, statuses),
        ]),
    ])


def match_statuses(sb: Scorebook, state: Tournament) -> dict[str, str]:
    """The status of the match of every table still waiting for its result (in_progress or abandoned)."""
    out = {}
    for rnd in state.paired:
        for t in rnd.tables:
            if t.match_id is not None and not t.settled:
                try:
                    out[t.match_id] = str(sb.summary(t.match_id)["status"])
                except NotFound:
                    continue
    return out


def record_href(match_id: str) -> str:
    return f"/record/{match_id}"


def corrections_list(requests: list[dict[str, Any]], state: Tournament) -> Any:
    """The open correction requests, table by table, each with a link to the table's pad."""
    if not requests:
        return html.P("None open: no scorekeeper is waiting for a referee.", className="muted", id="corrections")
    items = []
    for r in requests:
        about = f"#{r['about_seq']}" if r["about_seq"] else "the match"
        items.append(html.Li(className="correction", **attrs(data_match=r["match_id"], data_seq=str(r["seq"])),
                             children=[
            html.Strong(f"Round {r['round']}, table {r['table']}"),
            " (", " – ".join(_name(state, p) for p in r["seats"]), ")",
            html.Span(" abandoned", className="badge badge-abandoned") if r["status"] == "abandoned" else None,
            f": about {about} — {r['text']}",
            html.Span(f" · asked by {r['recorded_by']}" if r["recorded_by"] else "", className="muted"),
            " · ", dcc.Link("open the pad ▸", href=record_href(r["match_id"]), className="pad-link"),
        ]))
    return html.Div(id="corrections", className="corrections-open", children=[
        html.Ul(items, className="corrections-list"),
        html.P("A referee opens the pad: each request there has Undo (a rewind to before the event, the request's "
               "words as its reason) and Dismiss.", className="muted small"),
    ])


def facts(state: Tournament) -> html.Div:
    withdrawn = len(state.entrants) - len(state.active)
    players = _plural(len(state.active), "player") + (f" ({withdrawn} withdrawn)" if withdrawn else "")
    items: list[tuple[str, Any]] = [
        ("Format", format_label(state)),
        ("Rounds", f"{state.current_round} of {state.rounds} paired"),
        ("Players", players),
        ("Date", state.date or "—"),
        ("Status", status_badge(state.closed)),
    ]
    return html.Div(className="facts", id="tournament-facts", children=[
        html.Span(className="fact", children=[html.Span(label, className="fact-label"), value])
        for label, value in items
    ])


def round_picker(tournament_id: str, state: Tournament, shown: int) -> html.Nav:
    """A link per paired round (plain links: the page is drawn again for the round asked for); the rounds
    still to pair are named, not linked."""
    items: list[Any] = []
    for n in range(1, state.rounds + 1):
        if n > state.current_round:
            items.append(html.Span(f"Round {n}", className="round-link unpaired", title="not paired yet"))
        elif n == shown:
            items.append(html.A(f"Round {n}", href=tournament_href(tournament_id, n), className="round-link current",
                                **attrs(aria_current="page", data_round=str(n))))
        else:
            items.append(html.A(f"Round {n}", href=tournament_href(tournament_id, n), className="round-link",
                                **attrs(data_round=str(n))))
    return html.Nav(className="round-picker no-print", id="round-picker", children=items)


def _name(state: Tournament, pid: str) -> str:
    entrant = state.entrants.get(pid)
    return entrant.name if entrant is not None else pid


def table_status(t: Table, statuses: dict[str, str] | None = None) -> tuple[str, str]:
    """(what the table is at, its badge's class); `statuses`: the waiting tables' match statuses."""
    if t.result is not None:
        return "result taken", "badge-finished"
    if t.settled:
        return "settled by forfeit", "badge-forfeit"
    if t.match_id is not None and (statuses or {}).get(t.match_id) == "abandoned":
        return "abandoned", "badge-abandoned"
    if t.match_id is not None:
        return "playing", "badge-in_progress"
    return "not started", "badge-waiting"


def table_block(state: Tournament, rnd: Round, t: Table, statuses: dict[str, str] | None = None) -> html.Div:
    totals = t.result.totals if t.result is not None else {}
    rows = []
    for seat, pid in enumerate(t.seats, start=1):
        marks: list[Any] = []
        if pid in t.winners:
            marks.append(html.Span("★ won", className="winner-mark"))
        if pid in t.forfeits:
            marks.append(html.Span("forfeit", className="badge badge-forfeit"))
        score = str(totals[pid]) if pid in totals else ""
        rows.append(html.Tr(className="seat" + (" winner" if pid in t.winners else ""), **attrs(data_player=pid),
                            children=[
            html.Td(str(seat), className="num seat-no"),
            html.Td([dcc.Link(_name(state, pid), href=player_href(pid), className="player-link"), *marks]),
            html.Td(score, className="num seat-score"),
        ]))
    label, badge = table_status(t, statuses)
    foot: Any = (dcc.Link(["Match ", html.Code(t.match_id[:8]), " ▸"], href=replay_href(t.match_id),
                          className="replay-link") if t.match_id is not None
                 else html.Span("no match assigned yet", className="muted"))
    return html.Div(className="table-block", **attrs(data_table=str(t.number), data_round=str(rnd.number)),
                    children=[
        html.Div(className="table-block-head", children=[
            html.H3(f"Table {t.number}"), html.Span(label, className=f"badge {badge}"),
        ]),
        html.Table(className="seats", children=[
            html.Thead(html.Tr([html.Th("Seat", className="num"), html.Th("Player"),
                                html.Th("Score", className="num")])),
            html.Tbody(rows),
        ]),
        html.Div(className="table-block-foot", children=foot),
    ])


def round_sheet(state: Tournament, rnd: Round, statuses: dict[str, str] | None = None) -> html.Div:
    blocks: list[Any] = [table_block(state, rnd, t, statuses) for t in sorted(rnd.tables, key=lambda t: t.number)]
    if rnd.byes:
        byes: list[Any] = []
        for i, pid in enumerate(rnd.byes):
            byes += [", "] if i else []
            byes.append(dcc.Link(_name(state, pid), href=player_href(pid), className="player-link"))
        points = _points(state.scoring.bye)
        blocks.append(html.Div(className="table-block byes", id="round-byes", children=[
            html.Div(className="table-block-head", children=[html.H3("Bye"), html.Span(
                f"{points} match point{'s' if points != '1' else ''}", className="badge badge-waiting")]),
            html.P(byes, className="bye-names"),
        ]))
    note = "paired by hand" if rnd.by_hand else "paired by the tournament's method"
    return html.Div(id="round-sheet", **attrs(data_round=str(rnd.number)), children=[
        html.P(f"Seats clockwise from seat 1; {note}. " + (
            "Every table is settled." if rnd.complete else "Scores show once a table's result is taken."),
            className="muted small"),
        html.Div(className="sheet", children=blocks),
    ])


def standings_table(rows: list[Standing]) -> Any:
    if not rows:
        return html.P("Nobody has entered yet.", className="muted", id="standings")
    body = []
    for s in rows:
        name: list[Any] = [dcc.Link(s.name, href=player_href(s.player), className="player-link")]
        if s.withdrawn:
            name.append(html.Span("withdrawn", className="badge badge-withdrawn"))
        body.append(html.Tr(className="standing" + (" withdrawn" if s.withdrawn else ""),
                            **attrs(data_player=s.player), children=[
            html.Td(str(s.rank), className="num rank"),
            html.Td(name),
            html.Td(_points(s.match_points), className="num mp"),
            html.Td(_points(s.buchholz), className="num"),
            html.Td(str(s.game_points), className="num"),
            html.Td(signed(s.spread), className="num"),
            html.Td(str(s.played), className="num"),
            html.Td(str(s.byes), className="num"),
        ]))
    heads = [("#", "Rank"), ("Player", ""), ("Pts", "Match points"), ("Buch", "Buchholz"),
             ("Game pts", "Game points"), ("Spread", ""), ("Played", ""), ("Byes", "")]
    head = html.Thead(html.Tr([
        html.Th(html.Abbr(short, title=full) if full else short, className="" if short == "Player" else "num")
        for short, full in heads]))
    return html.Div(className="table-scroll", children=html.Table(
        className="table standings", id="standings", children=[head, html.Tbody(body)]))


def missing_list(tournament_id: str, state: Tournament, statuses: dict[str, str] | None = None) -> Any:
    missing = missing_results(state)
    if not missing:
        return html.P("None: every paired table has its result." if state.current_round
                      else "None: no round is paired yet.", className="muted", id="missing-results")
    items = []
    for number, table, seats in missing:
        t = state.round(number).tables[table - 1]
        where: list[Any] = [dcc.Link("match ▸", href=replay_href(t.match_id), className="replay-link")
                            if t.match_id is not None else html.Span("no match assigned yet", className="muted")]
        if t.match_id is not None and (statuses or {}).get(t.match_id) == "abandoned":
            where = [html.Span("abandoned", className="badge badge-abandoned"), " ", *where,
                     html.Span(" — assign a new match to the table, or record forfeits", className="muted small")]
        items.append(html.Li(className="missing", **attrs(data_round=str(number), data_table=str(table)), children=[
            html.A(f"Round {number}, table {table}", href=tournament_href(tournament_id, number)),
            ": ", " – ".join(_name(state, p) for p in seats), " · ", *where,
        ]))
    return html.Div(id="missing-results", children=[
        html.Ul(items, className="missing-list"),
        html.P("A finished match's result is taken when the director collects the results (pairing the next "
               "round does it too).", className="muted small"),
    ])
