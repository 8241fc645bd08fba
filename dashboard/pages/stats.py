"""The statistics page: per game and player, charts of how players score (projections/stats.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs

from dash import Dash, Input, Output, dcc, html

from dashboard.charts import (
    bonus_chart,
    first_player_chart,
    match_length_chart,
    penalty_chart,
    points_per_turn_chart,
    score_trend_chart,
)
from dashboard.pages.links import player_href
from projections import stats
from projections.registry import GAME_NAMES, game_title, game_titles, get_game
from recorder.facade import Scorebook

GRAPH_CONFIG: Any = {"displayModeBar": False}


def all_facts(sb: Scorebook) -> list[stats.MatchFacts]:
    """Every match's facts, from the read model (recorder/readmodels/projector.py: no fold on the page's path) — the
    one place the pages read them from (copies of one match included; the pages count them once with
    `stats.distinct`)."""
    return sb.facts()


def page_facts(sb: Scorebook, game: str) -> list[stats.MatchSummary]:
    """What the page charts `game` from: every match's summary (the filters' choices, copies, every game's
    first-player win rate), the matches of `game` as their whole facts. Only those are decoded in full: the
    turns and tags of every match were most of a first load's cost."""
    return sb.fact_summaries(game)


def layout(sb: Scorebook, search: str | None = None) -> html.Div:
    facts = sb.fact_summaries()  # the read model: the filters' choices, without a pass over the matches
    games = [g for g in GAME_NAMES if any(f.game == g for f in facts)] or list(GAME_NAMES)
    asked = parse_qs((search or "").lstrip("?")).get("game", [""])[0]
    if asked in GAME_NAMES:
        games.insert(0, asked)
    names = stats.player_names(facts)
    dates = [f.date for f in facts]
    return html.Div(className="page stats", children=[
        html.H1("Statistics"),
        html.Div(className="filters", children=[
            html.Label(["Game", dcc.Dropdown(
                id="stats-game", options=[{"label": game_title(g), "value": g} for g in GAME_NAMES],
                value=games[0], clearable=False)]),
            html.Label(["Player", dcc.Dropdown(
                id="stats-player",
                options=[{"label": n, "value": p} for p, n in sorted(names.items(), key=lambda kv: kv[1])],
                placeholder="Everyone", clearable=True)]),
            html.Label(["Dates", dcc.DatePickerRange(
                id="stats-dates", min_date_allowed=min(dates) if dates else None,
                max_date_allowed=max(dates) if dates else None, clearable=True,
                display_format="YYYY-MM-DD")], className="dates"),
        ]),
        html.Div(id="stats-summary", className="muted"),
        html.Div(className="chart-grid", children=[
            _card("Score trend across matches", "stats-trend"),
            _card("Points per turn", "stats-turns"),
            _card("Bonus frequency", "stats-bonus"),
            _card("Penalties and other counted moves", "stats-penalties"),
            _card("Match length", "stats-length"),
            _card("First-player win rate", "stats-first"),
            html.Div(className="chart-card", children=[
                html.H3("Players: win rate and average score"),
                html.P(id="stats-players-sub", className="muted small"),
                html.Div(id="stats-players"),
            ]),
        ]),
    ])


def _card(title: str, graph_id: str) -> html.Div:
    """A chart with its title; the subtitle (what it counts, for the selected game) comes with the figure."""
    return html.Div(className="chart-card", children=[
        html.H3(title),
        html.P(id=f"{graph_id}-sub", className="muted small"),
        dcc.Graph(id=graph_id, config=GRAPH_CONFIG, className="stats-graph"),
    ])


GRAPHS = ("stats-trend", "stats-turns", "stats-bonus", "stats-penalties", "stats-length", "stats-first")


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 'es'}"


def _labels(game: str, tags: tuple[str, ...]) -> str:
    return ", ".join(stats.tag_label(game, t) for t in tags)


def subtitles(game: str, in_progress: int) -> dict[str, str]:
    """What each chart counts, naming the selected game only."""
    title = game_title(game)
    d = get_game(game).descriptor
    left_out = f"; {_plural(in_progress, 'match')} in progress left out" if in_progress else ""
    if d.valued_tags:
        valued = " and ".join(stats.tag_label(game, t) for t in d.valued_tags)
        bonus = f"{title}: {valued} per player, by the points each won"
    else:
        bonus = f"{title}: bonuses only ({_labels(game, stats.charted_tags(game, 'bonus'))}), per player"
    penalties, others = stats.charted_tags(game, "penalty"), stats.charted_tags(game, "other")
    parts = [f"penalties: {_labels(game, penalties)}" if penalties else "no penalty in this game"]
    if others:
        parts.append(f"counted apart, neither bonus nor penalty: {_labels(game, others)}")
    return {
        "stats-trend": f"{title}: final score of each finished match, by date{left_out}",
        "stats-turns": f"{title}: what each turn earned, penalties included, in-progress matches too "
                       "(boxes: quartiles, dashed: mean)",
        "stats-bonus": bonus + ", in-progress matches included",
        "stats-penalties": f"{title}: " + "; ".join(parts) + (", per player" if penalties or others else ""),
        "stats-length": f"{title}: moves per finished match (notes, rewinds and undone events not "
                        f"counted){left_out}",
        "stats-first": f"Every game's finished matches, {title} highlighted; the line is the fair share",
        "stats-players": f"{title}: finished matches per player; a shared win counts as a win for each "
                         f"winner{left_out}",
    }


def players_table(records: dict[str, stats.PlayerRecord], names: dict[str, str], selected: str | None) -> Any:
    if not records:
        return html.P("No finished match in this selection.", className="muted")
    rows = []
    for pid, r in sorted(records.items(), key=lambda kv: (-kv[1].win_rate, -kv[1].average_score, kv[0])):
        rows.append(html.Tr(className="record-row" + (" selected" if pid == selected else ""), children=[
            html.Td(dcc.Link(names.get(pid, pid), href=player_href(pid), className="player-link")),
            html.Td(str(r.matches), className="num"),
            html.Td(str(r.wins), className="num"),
            html.Td(f"{100 * r.win_rate:.0f}%", className="num"),
            html.Td(f"{r.average_score:.1f}", className="num"),
            html.Td(str(r.best), className="num"),
        ]))
    head = html.Thead(html.Tr([html.Th(h) for h in ("Player", "Finished", "Wins", "Win rate", "Avg score", "Best")]))
    return html.Table(className="table players", children=[head, html.Tbody(rows)])


def charts(
    facts: Sequence[stats.MatchSummary], game: str, player: str | None, date_from: str | None, date_to: str | None
) -> dict[str, Any]:
    """The page's figures, table, summary and subtitles for a selection, by element id (pure: easy to test
    without a server), from every match's summary with the matches of `game` as whole facts (`page_facts`;
    `all_facts` will do too). Two copies of one match count once; in-progress matches stay out of the trend,
    the lengths and the win rates."""
    counted = stats.distinct(facts)
    copies = len(facts) - len(counted)
    everyone = stats.filter_facts(counted, None, player, date_from, date_to)
    chosen = _whole(stats.filter_facts(everyone, game))
    finished = [f for f in chosen if f.finished]
    in_progress = len(chosen) - len(finished)
    names = stats.player_names(facts)
    who = f" with {names.get(player, player)}" if player else ""
    summary = (f"{game_title(game)}: {_plural(len(chosen), 'match')}{who}, {len(finished)} finished, "
               f"{in_progress} in progress")
    if copies:
        summary += f" · {_plural(copies, 'copy', 'copies')} of a match imported twice not counted again"
    tags = stats.tag_counts_by_kind(chosen, player)
    penalties, others = tags["penalty"], tags["other"]
    out: dict[str, Any] = {
        "stats-trend": score_trend_chart(stats.score_trend(finished, player), names),
        "stats-turns": points_per_turn_chart(stats.points_per_turn(chosen, player), names),
        "stats-bonus": bonus_chart(game, tags["bonus"], stats.value_counts(chosen, player),
                                   names, len(chosen)),
        "stats-penalties": penalty_chart(game, {pid: penalties.get(pid, Counter()) + others.get(pid, Counter())
                                                for pid in {*penalties, *others}}, names, len(chosen)),
        "stats-length": match_length_chart(stats.match_lengths(finished)),
        "stats-first": first_player_chart(stats.first_player_win_rate(everyone), game_titles(), game),
        "stats-players": players_table(stats.player_records(chosen).get(game, {}), names, player),
        "stats-summary": summary,
    }
    for graph_id, text in subtitles(game, in_progress).items():
        out[f"{graph_id}-sub"] = text
    return out


def _whole(facts: list[stats.MatchSummary]) -> list[stats.MatchFacts]:
    """The charted game's matches, which `page_facts` gives whole."""
    whole = [f for f in facts if isinstance(f, stats.MatchFacts)]
    if len(whole) != len(facts):
        raise TypeError("the charted game's matches must be whole facts, not summaries (see page_facts)")
    return whole


OUTPUTS = (*GRAPHS, "stats-players", "stats-summary", *(f"{g}-sub" for g in (*GRAPHS, "stats-players")))


def register(app: Dash, sb: Scorebook) -> None:
    @app.callback(
        *[Output(i, "children" if i in ("stats-players", "stats-summary") or i.endswith("-sub") else "figure")
          for i in OUTPUTS],
        Input("stats-game", "value"),
        Input("stats-player", "value"),
        Input("stats-dates", "start_date"),
        Input("stats-dates", "end_date"),
    )
    def update(game: str, player: str | None, start: str | None, end: str | None) -> tuple[Any, ...]:
        game = game or GAME_NAMES[0]
        out = charts(page_facts(sb, game), game, player or None, start, end)
        return tuple(out[i] for i in OUTPUTS)
