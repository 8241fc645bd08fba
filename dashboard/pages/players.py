"""The players: `/players` lists everyone who played (and the club's registered players), `/players/<id>` one
player's record per game (finished matches: win rate, average and best score), the trend of their final scores
and their matches, each linked to its replay; for a registered player their club and aliases, and for everyone
rated their rating per game and its history (`sb.clubs.player`). Facts come from the statistics page's
`all_facts`, counted with the same rules (projections/stats.py): a match imported twice counts once, in-progress
matches are listed but stay out of the records and the trend. A registered player without a match yet still
has a page."""

from __future__ import annotations

from typing import Any

from dash import dcc, html

from dashboard.charts import player_trend_chart
from dashboard.pages.links import player_href, ratings_href, replay_href
from dashboard.pages.ratings import own_series, rating_history_chart
from dashboard.pages.stats import GRAPH_CONFIG, all_facts
from dashboard.theme import seat_colours
from projections import stats
from projections.clubs.ratings import RatingPoint
from projections.registry import GAME_NAMES, game_title, game_titles
from recorder.errors import NotFound
from recorder.facade import Scorebook


def index(sb: Scorebook) -> html.Div:
    facts = stats.distinct(all_facts(sb))
    names = stats.player_names(facts)
    played: dict[str, int] = {}
    for f in facts:
        for pid in f.player_ids:
            played[pid] = played.get(pid, 0) + 1
    for p in sb.clubs.club_players():  # registered, with or without a match
        names[p.id] = p.name
        played.setdefault(p.id, 0)
    rows = [
        html.Tr([html.Td(dcc.Link(name, href=player_href(pid), className="player-link")),
                 html.Td(str(played[pid]), className="num")])
        for pid, name in sorted(names.items(), key=lambda kv: (kv[1].lower(), kv[0]))
    ] or [html.Tr(html.Td("No match recorded yet.", colSpan=2, className="muted"))]
    return html.Div(className="page players", children=[
        html.H1("Players"),
        html.Table(className="table players", children=[
            html.Thead(html.Tr([html.Th("Player"), html.Th("Matches")])), html.Tbody(rows)]),
    ])


def club_page(sb: Scorebook, player_id: str) -> dict[str, Any] | None:
    """What the club knows of the player (registered or not, their rating history), None for nobody."""
    try:
        return sb.clubs.player(player_id)
    except NotFound:
        return None


def layout(sb: Scorebook, player_id: str) -> html.Div:
    facts = stats.distinct(all_facts(sb))
    mine = stats.filter_facts(facts, player=player_id)
    club = club_page(sb, player_id)
    registered = club is not None and club["registered"]
    if not mine and not registered:
        return html.Div(className="page", children=[
            html.H1("No such player"),
            html.P(["Nobody with the id ", html.Code(player_id), " played a recorded match or is registered. ",
                    dcc.Link("See the players", href="/players")]),
        ])
    names = stats.player_names(facts)
    name = club["player"]["name"] if club is not None and registered else names.get(player_id, player_id)
    head: list[Any] = [html.H1(name, id="player-name")]
    if club is not None and registered:
        head.append(registered_line(club["player"]))
    rating = rating_section(sb, club)
    if not mine:
        return html.Div(className="page player", children=[
            *head, html.P("No match recorded yet.", className="muted", id="player-summary"), *rating])
    records = stats.player_records(mine)
    trend = {g: stats.score_trend(stats.filter_facts(mine, g), player_id).get(player_id, []) for g in GAME_NAMES}
    in_progress = sum(1 for f in mine if not f.finished)
    return html.Div(className="page player", children=[
        *head,
        html.P(className="muted", id="player-summary", children=(
            f"{len(mine)} match{'es' if len(mine) != 1 else ''}, {len(mine) - in_progress} finished, "
            f"{in_progress} in progress (listed, left out of the record and the trend)")),
        html.H2("Record per game"),
        html.P("Finished matches; a shared win counts as a win for each winner.", className="muted small"),
        record_table(records, player_id),
        html.H2("Final scores"),
        html.P("One line per game, finished matches only.", className="muted small"),
        dcc.Graph(id="player-trend", config=GRAPH_CONFIG,
                  figure=player_trend_chart({g: t for g, t in trend.items() if t}, game_titles())),
        *rating,
        html.H2("Matches"),
        matches_table(mine, player_id, names),
    ])


def registered_line(player: dict[str, Any]) -> html.P:
    parts: list[Any] = [html.Span("registered", className="badge badge-registered"), " ",
                        html.Span(["Club: ", html.B(player.get("club") or "none given")], id="player-club")]
    if player.get("aliases"):
        parts += [" · ", html.Span(["Also known as: ", ", ".join(player["aliases"])], id="player-aliases")]
    return html.P(parts, className="registered-line", id="player-registered")


def rating_section(sb: Scorebook, club: dict[str, Any] | None) -> list[Any]:
    """Per game the player was rated in: their rating now, their place, and how it moved match after match."""
    out: list[Any] = [html.H2("Rating"), html.P(
        ["Per game, from every finished match: mu − 3σ (openskill's Plackett–Luce; ",
         dcc.Link("how it is counted", href=ratings_href()), ")."], className="muted small")]
    history = club["ratings"] if club is not None else {}
    if not any(history.values()):
        return [*out, html.P("No rated match yet: a rating comes with the first finished match.", className="muted",
                             id="player-ratings")]
    assert club is not None
    pid = club["player"]["id"]
    rated = sb.clubs.ratings()
    cards = []
    for game in GAME_NAMES:
        points = [RatingPoint(**p) for p in history.get(game, [])]
        if not points:
            continue
        ranked = list(rated[game].players) if game in rated else []
        now = rated[game].players.get(pid) if game in rated else None
        place = f" · {ranked.index(pid) + 1} of {len(ranked)} rated" if pid in ranked else ""
        line: list[Any] = [html.B(f"{(now.ordinal if now is not None else points[-1].ordinal):.1f}",
                                  className="rating-now")]
        if now is not None:
            line.append(f" (mu {now.mu:.1f}, σ {now.sigma:.1f}) after "
                        f"{now.matches} match{'es' if now.matches != 1 else ''}{place}")
        card: dict[str, Any] = {"data-game": game}
        cards.append(html.Div(className="chart-card rating-card", **card, children=[
            html.H3([game_title(game), " ", dcc.Link("all ratings ▸", href=ratings_href(game), className="small")]),
            html.P(line, className="rating-line"),
            dcc.Graph(id=f"player-rating-{game}", config=GRAPH_CONFIG, figure=rating_history_chart(
                {game: own_series(points)}, {game: game_title(game)}, f"their {game_title(game)} matches",
                height=220)),
        ]))
    return [*out, html.Div(className="chart-grid", id="player-ratings", children=cards)]


def record_table(records: dict[str, dict[str, stats.PlayerRecord]], player_id: str) -> Any:
    rows = []
    for game in GAME_NAMES:
        r = records.get(game, {}).get(player_id)
        if r is None:
            continue
        attrs: dict[str, Any] = {"data-game": game}
        rows.append(html.Tr(className="record-row", **attrs, children=[
            html.Td(game_title(game)),
            html.Td(str(r.matches), className="num"),
            html.Td(str(r.wins), className="num"),
            html.Td(f"{100 * r.win_rate:.0f}%", className="num"),
            html.Td(f"{r.average_score:.1f}", className="num"),
            html.Td(str(r.best), className="num"),
        ]))
    if not rows:
        return html.P("No finished match yet.", className="muted")
    head = html.Thead(html.Tr([html.Th(h) for h in ("Game", "Finished", "Wins", "Win rate", "Avg score", "Best")]))
    return html.Table(className="table records", id="player-records", children=[head, html.Tbody(rows)])


def result(f: stats.MatchFacts, player_id: str) -> str:
    if not f.finished:
        return "in progress"
    if player_id in f.winners:
        return "won" if len(f.winners) == 1 else "shared win"
    return "lost"


def matches_table(mine: list[stats.MatchFacts], player_id: str, names: dict[str, str]) -> html.Table:
    head = html.Thead(html.Tr([html.Th(h) for h in ("Date", "Game", "Players", "Score", "Result", "")]))
    rows = []
    for f in sorted(mine, key=lambda f: (f.date, f.match_id), reverse=True):
        colours = seat_colours(list(f.player_ids))
        chips = [
            html.Span(name, className="player-chip me", style={"borderColor": colours[pid], "fontWeight": 700})
            if pid == player_id
            else dcc.Link(names.get(pid, name), href=player_href(pid), className="player-chip player-link",
                          style={"borderColor": colours[pid]})
            for pid, name in f.players
        ]
        outcome = result(f, player_id)
        attrs: dict[str, Any] = {"data-match": f.match_id}
        rows.append(html.Tr(className="player-match", **attrs, children=[
            html.Td(f.date),
            html.Td(game_title(f.game)),
            html.Td(chips),
            html.Td(str(f.totals.get(player_id, 0)), className="num"),
            html.Td(html.Span(outcome, className=f"badge badge-{outcome.replace(' ', '_')}")),
            html.Td(dcc.Link("Replay ▸", href=replay_href(f.match_id), className="replay-link")),
        ]))
    return html.Table(className="table matches", id="player-matches", children=[head, html.Tbody(rows)])
