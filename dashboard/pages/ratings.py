"""The ratings: `/ratings?game=<game>` ranks a game's players best first and charts how the top
players' ratings moved, match after match. The ratings come from the club service (`sb.clubs.ratings`,
projections/clubs/ratings.py: openskill's Plackett–Luce over every finished match, rating = mu − 3σ); the
player page draws one player's history with `rating_history_chart` too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs

from dash import dcc, html

from dashboard.charts import axis, chart_layout, no_data, player_colours
from dashboard.pages.links import player_href, ratings_href
from dashboard.pages.stats import GRAPH_CONFIG, all_facts
from projections import stats
from projections.clubs.ratings import GameRatings, RatingPoint
from projections.registry import GAME_NAMES, game_title
from recorder.facade import Scorebook

TOP = 8  # players charted on /ratings

METHOD = ("How the ratings are counted: openskill's Plackett–Luce model reads every finished match of the game, "
          "tournament or not, in date order. In each match the winners rank first and the others follow by "
          "their totals. Each player has a skill estimate (mu) and an uncertainty (σ, sigma); the rating shown is "
          "mu − 3σ, a level the player is very likely above, so a newcomer starts at 0 and climbs as their "
          "matches make the estimate surer.")

# (x, rating, date, match id): one point of a line on the rating chart
Point = tuple[int, float, str, str]


def attrs(**given: str) -> dict[str, Any]:
    """HTML attributes Dash takes only as keywords with a hyphen (`data_round=` -> `data-round`)."""
    return {k.replace("_", "-"): v for k, v in given.items()}


def names_of(sb: Scorebook) -> dict[str, str]:
    """Every player's name: the registry's, else the one their matches give."""
    names = stats.player_names(all_facts(sb))
    names.update({p.id: p.name for p in sb.clubs.club_players()})
    return names


def game_from_search(search: str | None, rated: Sequence[str]) -> str | None:
    """The game asked for (`?game=`), else the first game with ratings (None: no game has any)."""
    asked = parse_qs((search or "").lstrip("?")).get("game", [""])[0]
    if asked in GAME_NAMES:
        return asked
    return rated[0] if rated else None


def rating_history_chart(series: Mapping[str, Sequence[Point]], labels: Mapping[str, str], xtitle: str,
                         height: int = 320) -> dict[str, Any]:
    """One line per key of `series` (a player, or a game), its rating after each match; the hover names the
    match's date. Keys keep `series`' order (best first) in the legend."""
    if not any(series.values()):
        return no_data("No rated match yet", height)
    colours = player_colours(list(series))
    data = []
    for key, points in series.items():
        label = labels.get(key, key)
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": label,
            "x": [x for x, _, _, _ in points], "y": [round(y, 2) for _, y, _, _ in points],
            "customdata": [[d, m] for _, _, d, m in points],
            "line": {"color": colours[key], "width": 2}, "marker": {"size": 7},
            "hovertemplate": f"{label}: %{{y:.1f}} after match %{{x}} (%{{customdata[0]}})<extra></extra>",
        })
    last = max((x for points in series.values() for x, _, _, _ in points), default=1)
    xaxis = axis(xtitle, range=[0.5, last + 0.5], dtick=1 if last <= 12 else None)
    return {"data": data, "layout": chart_layout(height=height, xaxis=xaxis, yaxis=axis("rating (mu − 3σ)"),
                                                  showlegend=len(series) > 1)}


def game_series(r: GameRatings, players: Sequence[str]) -> dict[str, list[Point]]:
    """`players`' histories on one axis: x is the match's place among every rated match of the game."""
    order = sorted({(h.date, h.match_id) for points in r.history.values() for h in points})
    place = {m: i for i, (_, m) in enumerate(order, start=1)}
    return {p: [(place[h.match_id], h.ordinal, h.date, h.match_id) for h in r.history.get(p, ())] for p in players}


def own_series(points: Sequence[RatingPoint]) -> list[Point]:
    """One player's history in one game: x is their own 1st, 2nd, … rated match."""
    return [(i, h.ordinal, h.date, h.match_id) for i, h in enumerate(points, start=1)]


def layout(sb: Scorebook, search: str | None = None) -> html.Div:
    rated = sb.clubs.ratings()
    games = [g for g in GAME_NAMES if g in rated and rated[g].players]
    game = game_from_search(search, games)
    children: list[Any] = [html.H1("Ratings"), picker(games, game)]
    if game is None:
        children.append(html.P("No finished match yet, so nobody has a rating.", className="muted",
                               id="ratings-empty"))
    elif game not in games:
        children.append(html.P(f"No finished {game_title(game)} match yet, so nobody has a {game_title(game)} "
                               "rating.", className="muted", id="ratings-empty"))
    else:
        r = rated[game]
        names = names_of(sb)
        top = list(r.players)[:TOP]
        children += [
            html.H2(f"{game_title(game)}: {len(r.players)} rated player{'s' if len(r.players) != 1 else ''}",
                    id="ratings-title"),
            ratings_table(r, names),
            html.H2(f"Rating history of the top {len(top)}" if len(r.players) > len(top) else "Rating history"),
            html.P(f"Each point is a player's rating just after one of their {game_title(game)} matches; the "
                   "matches in date order along the bottom.", className="muted small"),
            dcc.Graph(id="ratings-history", config=GRAPH_CONFIG, figure=rating_history_chart(
                game_series(r, top), names, f"{game_title(game)} matches rated, in order")),
        ]
    children.append(html.P(METHOD, className="method muted small", id="ratings-method"))
    return html.Div(className="page ratings", children=children)


def picker(games: Sequence[str], shown: str | None) -> html.Nav:
    """A link per game that has ratings (plain links: the page is drawn again for the game asked for)."""
    return html.Nav(className="game-picker", id="ratings-games", children=[
        html.A(game_title(g), href=ratings_href(g), className="game-link" + (" current" if g == shown else ""),
               **(attrs(aria_current="page", data_game=g) if g == shown else attrs(data_game=g)))
        for g in games
    ])


def ratings_table(r: GameRatings, names: Mapping[str, str]) -> html.Div:
    rows = [
        html.Tr(className="rating-row", **attrs(data_player=pid), children=[
            html.Td(str(rank), className="num rank"),
            html.Td(dcc.Link(names.get(pid, pid), href=player_href(pid), className="player-link")),
            html.Td(f"{rating.ordinal:.1f}", className="num rating"),
            html.Td(f"{rating.mu:.1f}", className="num"),
            html.Td(f"{rating.sigma:.1f}", className="num"),
            html.Td(str(rating.matches), className="num"),
        ])
        for rank, (pid, rating) in enumerate(r.players.items(), start=1)
    ]
    head = html.Thead(html.Tr([html.Th("#", className="num"), html.Th("Player"), html.Th("Rating", className="num"),
                               html.Th("mu", className="num"), html.Th("σ", className="num"),
                               html.Th("Matches", className="num")]))
    return html.Div(className="table-scroll", children=html.Table(
        className="table ratings-table", id="ratings-table", **attrs(data_game=r.game),
        children=[head, html.Tbody(rows)]))
