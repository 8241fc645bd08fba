"""Plotly figures (plain dicts) for the replay's score chart and the statistics page."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from dashboard.theme import GRID, INK, MUTED, SEAT_COLOURS, base_layout
from projections.boxstats import box_stats
from projections.registry import get_game
from projections.stats import WinRate, charted_tags

Figure = dict[str, Any]
MISSED = INK  # the missed plays' crosses: apart from every seat's colour


def axis(title: str = "", **extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "title": {"text": title, "font": {"size": 12, "color": MUTED}},
        "gridcolor": GRID,
        "zerolinecolor": "#C9CED6",
        "linecolor": "#C9CED6",
        "tickfont": {"size": 11},
        "automargin": True,
    }
    spec.update(extra)
    return spec


def chart_layout(height: int = 320, **extra: Any) -> dict[str, Any]:
    layout = base_layout(
        height=height,
        margin={"l": 50, "r": 16, "t": 16, "b": 40},
        showlegend=True,
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 12}},
        hovermode="closest",
    )
    layout.update(extra)
    return layout


def step_marker(step: int) -> list[dict[str, Any]]:
    """The vertical line marking the current step on the score chart."""
    return [{
        "type": "line", "xref": "x", "yref": "paper", "x0": step, "x1": step, "y0": 0, "y1": 1,
        "line": {"color": "#F2B705", "width": 3},
    }]


def score_chart(
    players: Sequence[tuple[str, str]],
    totals: Sequence[Mapping[str, int]],
    step: int,
    bonus_steps: Sequence[int] = (),
    superseded: Sequence[int] = (),
    missed: Sequence[tuple[int, str, str]] = (),
) -> Figure:
    """Totals after every event (x: step, 0 = the start), one line per player, the step marked; `missed`:
    hindsight's missed plays as (step, player, words), marked on that player's line."""
    steps = list(range(len(totals)))
    data: list[dict[str, Any]] = []
    for i, (pid, name) in enumerate(players):
        data.append({
            "type": "scatter", "mode": "lines", "name": name, "x": steps, "y": [t.get(pid, 0) for t in totals],
            "line": {"color": SEAT_COLOURS[i % len(SEAT_COLOURS)], "width": 2.5, "shape": "hv"},
            "hovertemplate": f"{name}: %{{y}} after step %{{x}}<extra></extra>",
        })
    if bonus_steps:
        top = [max(totals[s].values(), default=0) for s in bonus_steps if s < len(totals)]
        data.append({
            "type": "scatter", "mode": "markers", "name": "bonus / capture", "x": list(bonus_steps), "y": top,
            "marker": {"symbol": "star", "size": 9, "color": "#F2B705", "line": {"color": INK, "width": 0.5}},
            "hovertemplate": "bonus at step %{x}<extra></extra>",
        })
    marks = [(s, pid, text) for s, pid, text in missed if s < len(totals)]
    if marks:
        data.append({
            "type": "scatter", "mode": "markers", "name": "missed play", "x": [s for s, _, _ in marks],
            "y": [totals[s].get(pid, 0) for s, pid, _ in marks], "customdata": [text for _, _, text in marks],
            "marker": {"symbol": "x", "size": 10, "color": MISSED, "line": {"color": "#FFFFFF", "width": 1}},
            "hovertemplate": "step %{x}: %{customdata}<extra>missed play</extra>",
        })
    shapes = step_marker(step)
    for s in superseded:
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": s - 0.5, "x1": s + 0.5, "y0": 0, "y1": 1,
                       "fillcolor": "rgba(200,0,0,0.07)", "line": {"width": 0}, "layer": "below"})
    return {
        "data": data,
        "layout": chart_layout(
            height=260,
            xaxis=axis("step (event seq)", range=[0, max(1, len(totals) - 1)]),
            yaxis=axis("total"),
            shapes=shapes,
            margin={"l": 50, "r": 16, "t": 30, "b": 40},
        ),
    }


# --- statistics -----------------------------------------------------------------------------------


def player_colours(ids: Sequence[str]) -> dict[str, str]:
    """Colours for players across matches: by sorted id, so a player keeps a colour on every chart."""
    return {pid: SEAT_COLOURS[i % len(SEAT_COLOURS)] for i, pid in enumerate(sorted(ids))}


def no_data(message: str, height: int = 320) -> Figure:
    return {
        "data": [],
        "layout": chart_layout(
            height=height,
            xaxis={"visible": False},
            yaxis={"visible": False},
            annotations=[{"x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper", "text": message,
                          "showarrow": False, "font": {"size": 14, "color": MUTED}}],
        ),
    }


def score_trend_chart(trend: Mapping[str, Sequence[tuple[str, int, str]]], names: Mapping[str, str]) -> Figure:
    if not trend:
        return no_data("No finished match in this selection")
    colours = player_colours(list(trend))
    data = []
    for pid in sorted(trend, key=lambda p: names.get(p, p)):
        # A point equal to the one before (same day, same score) draws nothing more: not sent. Nor the match
        # ids, which nothing on the page reads.
        points: list[tuple[str, int]] = []
        for day, score, _ in trend[pid]:
            if not points or points[-1] != (day, score):
                points.append((day, score))
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": names.get(pid, pid),
            "x": [d for d, _ in points], "y": [s for _, s in points],
            "line": {"color": colours[pid], "width": 2}, "marker": {"size": 8},
            "hovertemplate": f"{names.get(pid, pid)}: %{{y}} on %{{x}}<extra></extra>",
        })
    xaxis = _date_axis(sorted({d for points in trend.values() for d, _, _ in points}))
    return {"data": data, "layout": chart_layout(xaxis=xaxis, yaxis=axis("final score"))}


def points_per_turn_chart(per_turn: Mapping[str, Sequence[int]], names: Mapping[str, str]) -> Figure:
    """One box per player. The box statistics are computed here exactly as plotly.js would from the values
    (projections/boxstats.py) and sent with the distinct outliers only: sending every turn's points made the
    browser sort them all (292,000 values, 6 s of drawing at 10,000 matches)."""
    if not per_turn:
        return no_data("No turn in this selection")
    colours = player_colours(list(per_turn))
    data = []
    for pid in sorted(per_turn, key=lambda p: names.get(p, p)):
        name, box = names.get(pid, pid), box_stats(per_turn[pid])
        trace: dict[str, Any] = {
            "type": "box", "name": name, "x": [name], "q1": [box.q1], "median": [box.median], "q3": [box.q3],
            "lowerfence": [box.lowerfence], "upperfence": [box.upperfence], "mean": [box.mean],
            "boxpoints": "outliers", "marker": {"color": colours[pid]}, "line": {"color": colours[pid]},
            "boxmean": True, "hoverinfo": "y",
        }
        if box.outliers:  # an empty sample list would hide the box (plotly takes it for a 1-d y)
            trace["y"] = [list(box.outliers)]
        data.append(trace)
    return {"data": data, "layout": chart_layout(showlegend=False, yaxis=axis("points per turn"), xaxis=axis())}


def bonus_chart(
    game: str,
    tags: Mapping[str, Counter[str]],
    values: Mapping[str, Counter[int]],
    names: Mapping[str, str],
    matches: int,
) -> Figure:
    """How often each bonus (the descriptor's `bonus_tags` only) happened per player; where the game values
    its tags (High Five's captures and claims), how often each was worth how many points."""
    players = sorted(set(tags) | set(values), key=lambda p: names.get(p, p))
    if not players or not matches:
        return no_data("No match in this selection")
    descriptor = get_game(game).descriptor
    if descriptor.valued_tags:
        colours = player_colours(players)
        data = []
        found = sorted({v for p in players for v in values.get(p, Counter())})
        for pid in players:
            counts = values.get(pid, Counter())
            data.append({"type": "bar", "name": names.get(pid, pid), "x": [str(v) for v in found],
                         "y": [counts.get(v, 0) for v in found], "marker": {"color": colours[pid]},
                         "hovertemplate": f"{names.get(pid, pid)}: %{{y}} worth %{{x}}<extra></extra>"})
        valued = " and ".join(descriptor.tag_labels.get(t, t) for t in descriptor.valued_tags)
        xaxis = axis(f"points won by each of the {valued}", type="category")
        return {"data": data, "layout": chart_layout(barmode="group", xaxis=xaxis, yaxis=axis(valued))}
    return _tag_bars(game, charted_tags(game, "bonus"), tags, players, names, matches, "No bonus in this selection")


def penalty_chart(
    game: str, tags: Mapping[str, Counter[str]], names: Mapping[str, str], matches: int
) -> Figure:
    """Penalties (the descriptor's `penalty_tags`: Tri-Ominos' draws and passes, Hi-Spot's blocked rounds),
    then the game's other counted moves (neither bonus nor penalty), a dotted line between them."""
    players = sorted(tags, key=lambda p: names.get(p, p))
    if not players or not matches:
        return no_data("No match in this selection")
    penalties, others = charted_tags(game, "penalty"), charted_tags(game, "other")
    if not penalties and not others:
        return no_data(f"{get_game(game).descriptor.title} has no penalty")
    fig = _tag_bars(game, (*penalties, *others), tags, players, names, matches, "No penalty in this selection")
    shown = {t["x"][i] for t in fig["data"] for i in range(len(t["x"]))}
    labels = get_game(game).descriptor.tag_labels
    n_pen = sum(1 for k in penalties if labels.get(k, k) in shown)
    n_other = sum(1 for k in others if labels.get(k, k) in shown)
    if n_pen and n_other:
        fig["layout"]["shapes"] = [{"type": "line", "xref": "x", "yref": "paper", "x0": n_pen - 0.5,
                                    "x1": n_pen - 0.5, "y0": 0, "y1": 1,
                                    "line": {"color": MUTED, "width": 1, "dash": "dot"}}]
    notes = []
    if n_pen:
        notes.append(((n_pen - 1) / 2, "penalties"))
    if n_other:
        notes.append((n_pen + (n_other - 1) / 2, "not penalties"))
    # Under the tags' names, clear of the legend above the plot.
    fig["layout"]["annotations"] = [
        {"x": x, "y": 0, "xref": "x", "yref": "paper", "yanchor": "top", "yshift": -22, "text": f"<i>{text}</i>",
         "showarrow": False, "font": {"size": 11, "color": MUTED}} for x, text in notes
    ]
    fig["layout"]["margin"] = {"l": 50, "r": 16, "t": 16, "b": 56}
    return fig


def _tag_bars(
    game: str,
    kinds: Sequence[str],
    tags: Mapping[str, Counter[str]],
    players: Sequence[str],
    names: Mapping[str, str],
    matches: int,
    empty: str,
) -> Figure:
    """Grouped bars: per tag of `kinds` that happened, one bar per player."""
    descriptor = get_game(game).descriptor
    kinds = [k for k in kinds if any(tags.get(p, Counter()).get(k) for p in players)]
    if not kinds:
        return no_data(empty)
    colours = player_colours(players)
    labels = [descriptor.tag_labels.get(k, k) for k in kinds]
    data = []
    for pid in players:
        tag_count = tags.get(pid, Counter())
        data.append({"type": "bar", "name": names.get(pid, pid), "x": labels,
                     "y": [tag_count.get(k, 0) for k in kinds], "marker": {"color": colours[pid]},
                     "hovertemplate": f"{names.get(pid, pid)}: %{{y}} %{{x}}<extra></extra>"})
    ytitle = f"count over {matches} match{'es' if matches != 1 else ''}"
    return {"data": data, "layout": chart_layout(barmode="group", xaxis=axis(type="category"),
                                                  yaxis=axis(ytitle))}


def player_trend_chart(trend: Mapping[str, Sequence[tuple[str, int, str]]], titles: Mapping[str, str]) -> Figure:
    """One player's final scores, one line per game (scores of different games do not compare)."""
    if not trend:
        return no_data("No finished match yet")
    data = []
    for i, game in enumerate(g for g in titles if g in trend):
        points = trend[game]
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": titles[game],
            "x": [d for d, _, _ in points], "y": [s for _, s, _ in points], "customdata": [m for _, _, m in points],
            "line": {"color": SEAT_COLOURS[i % len(SEAT_COLOURS)], "width": 2}, "marker": {"size": 8},
            "hovertemplate": f"{titles[game]}: %{{y}} on %{{x}}<extra></extra>",
        })
    dates = sorted({d for points in trend.values() for d, _, _ in points})
    return {"data": data, "layout": chart_layout(xaxis=_date_axis(dates), yaxis=axis("final score"))}


def _date_axis(dates: Sequence[str]) -> dict[str, Any]:
    xaxis = axis("match date", type="date", tickformat="%b %d, %Y")
    if len(dates) == 1:  # one day: a week around it, not milliseconds
        day = date.fromisoformat(dates[0])
        xaxis["range"] = [(day - timedelta(days=3)).isoformat(), (day + timedelta(days=3)).isoformat()]
        xaxis["dtick"] = 86_400_000
    return xaxis


def match_length_chart(lengths: Sequence[tuple[str, str, int, int]]) -> Figure:
    if not lengths:
        return no_data("No match in this selection")
    moves = Counter(m for _, _, m, _ in lengths)
    size = max(10, 10 * math.ceil((max(moves) - min(moves)) / 12 / 10))  # about a dozen bins of round width
    start = size * (min(moves) // size)
    found = sorted(moves)
    # Each length once with its number of matches, summed into the same bins by plotly: the same bars and
    # bin labels (plotly places those by the distinct values) without a value per match.
    data = [{
        "type": "histogram", "x": found, "y": [moves[m] for m in found], "histfunc": "sum",
        "name": "matches", "autobinx": False,
        "xbins": {"start": start, "end": start + size * (1 + (max(moves) - start) // size), "size": size},
        "marker": {"color": "#0072B2", "line": {"color": "#FFFFFF", "width": 1}},
        "hovertemplate": "%{y} match(es) of %{x} moves<extra></extra>",
    }]
    return {"data": data, "layout": chart_layout(showlegend=False, bargap=0.05, xaxis=axis("moves per match"),
                                                  yaxis=axis("matches", dtick=1 if len(lengths) < 10 else None))}


def first_player_chart(rates: Mapping[str, WinRate], titles: Mapping[str, str], selected: str | None) -> Figure:
    if not rates:
        return no_data("No finished match in this selection")
    games = [g for g in titles if g in rates]
    rate = [round(100 * rates[g].rate, 1) for g in games]
    fair = [round(100 * rates[g].fair_share, 1) for g in games]
    colours = ["#0072B2" if g == selected or not selected else "#9DB9D3" for g in games]
    labels = [titles[g] for g in games]
    data = [
        {"type": "bar", "name": "first player won", "x": labels, "y": rate, "marker": {"color": colours},
         "text": [f"{rates[g].first_player_wins} of {rates[g].matches}" for g in games], "textposition": "outside",
         "hovertemplate": "%{x}: first player won %{y}% (%{text})<extra></extra>", "cliponaxis": False},
        {"type": "scatter", "mode": "markers", "name": "fair share (1 / players)", "x": labels, "y": fair,
         "marker": {"symbol": "line-ew-open", "size": 40, "color": "#D55E00", "line": {"width": 3}},
         "hovertemplate": "%{x}: fair share %{y}%<extra></extra>"},
    ]
    return {"data": data, "layout": chart_layout(xaxis=axis(type="category"),
                                                  yaxis=axis("% of finished matches", range=[0, 115]))}
