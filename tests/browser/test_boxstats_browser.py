"""The box statistics sent by the points-per-turn chart (projections/boxstats.py) against plotly.js itself:
a box of raw values and the box of their precomputed statistics give plotly the same numbers to draw."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dashboard.charts import points_per_turn_chart
from tests.support.browser import LiveServer

pytestmark = pytest.mark.browser

# Both boxes drawn in a new div, each box's numbers as plotly computed them (calcdata) returned.
DRAW = """async ([raw, sent]) => {
  const boxes = async traces => {
    const div = document.createElement('div');
    document.body.appendChild(div);
    await Plotly.newPlot(div, traces);
    const out = div.calcdata.map(([c]) => ({q1: c.q1, med: c.med, q3: c.q3, lf: c.lf, uf: c.uf, mean: c.mean,
      min: c.min, max: c.max, drawn: [...new Set(c.pts2.map(p => p.v))].sort((a, b) => a - b)}));
    Plotly.purge(div);
    div.remove();
    return out;
  };
  return [await boxes(raw), await boxes(sent)];
}"""


def test_plotly_draws_the_sent_statistics_as_it_draws_the_values(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/stats")
    page.wait_for_function("() => window.Plotly && document.querySelector('#stats-turns .js-plotly-plot')")
    rng = random.Random(7)
    samples: dict[str, list[float]] = {
        "one": [4], "two": [1, 9], "three": [3, 0, 7], "four": [2, 8, 8, 1], "ties": [0] * 9 + [1, 6, 6, -5],
        "flat": [3] * 5, "floats": [rng.gauss(0, 1) for _ in range(57)],
    }
    for n in (5, 6, 7, 8, 30, 101, 2000):
        samples[f"turns {n}"] = [int(rng.expovariate(0.4)) - rng.choice((0, 0, 0, 3)) for _ in range(n)]
    fig = points_per_turn_chart(samples, {})
    raw = [{"type": "box", "name": name, "y": values, "boxpoints": "outliers", "boxmean": True}
           for name, values in sorted(samples.items())]
    plotted, sent = page.evaluate(DRAW, [raw, fig["data"]])
    for name, by_values, by_stats in zip(sorted(samples), plotted, sent, strict=True):
        assert by_stats == by_values, name
