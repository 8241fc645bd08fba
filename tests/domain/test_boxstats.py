"""Box statistics computed as plotly.js computes them (projections/boxstats.py), and the points-per-turn chart
that sends them instead of every turn's points. tests/browser/test_boxstats_browser.py checks the same numbers
against plotly.js itself."""

from __future__ import annotations

import json
import math
import random
import statistics
from fractions import Fraction

import pytest

from dashboard.charts import match_length_chart, points_per_turn_chart, score_trend_chart
from projections.boxstats import BoxStats, box_stats


def hazen(ordered: list[int], p: Fraction) -> Fraction:
    """The p-quantile by Hazen's rule (numpy's method="hazen", plotly's "linear"), exactly: 1-based position
    n p + 1/2 between the sorted values, clamped to the ends."""
    h = len(ordered) * p + Fraction(1, 2)
    if h <= 1:
        return Fraction(ordered[0])
    if h >= len(ordered):
        return Fraction(ordered[-1])
    below = math.floor(h)
    return ordered[below - 1] + (h - below) * (ordered[below] - ordered[below - 1])


def reference(values: list[int]) -> BoxStats:
    """The box by the definitions: fences the most extreme values within 1.5 IQR of the quartiles (or the
    quartile itself when none is), outliers the values beyond the fences."""
    ordered = sorted(values)
    q1, median, q3 = (hazen(ordered, Fraction(k, 4)) for k in (1, 2, 3))
    reach = Fraction(3, 2) * (q3 - q1)
    lowerfence = min(q1, min(v for v in ordered if v >= q1 - reach))
    upperfence = max(q3, max(v for v in ordered if v <= q3 + reach))
    outliers = tuple(sorted({v for v in ordered if v < lowerfence or v > upperfence}))
    return BoxStats(len(ordered), float(q1), float(median), float(q3), float(lowerfence), float(upperfence),
                    statistics.fmean(ordered), tuple(float(v) for v in outliers))


def close(a: BoxStats, b: BoxStats) -> bool:
    numbers = ("q1", "median", "q3", "lowerfence", "upperfence", "mean")
    return (a.count == b.count and a.outliers == b.outliers
            and all(math.isclose(getattr(a, k), getattr(b, k), rel_tol=1e-12, abs_tol=1e-12) for k in numbers))


@pytest.mark.parametrize(("values", "want"), [
    ([5], (5, 5, 5, 5, 5, 5, ())),
    ([1, 2], (1, 1.5, 2, 1, 2, 1.5, ())),
    ([3, 1, 2], (1.25, 2, 2.75, 1, 3, 2, ())),
    ([4, 1, 3, 2], (1.5, 2.5, 3.5, 1, 4, 2.5, ())),
    ([1, 2, 3, 100], (1.5, 2.5, 51.5, 1, 100, 26.5, ())),  # 100 is within 1.5 IQR of a wide box
    ([0, 0, 0, 0, 0, 0, 0, 10], (0, 0, 0, 0, 0, 1.25, (10,))),  # no box at all: every other value an outlier
    ([0] * 6 + [1, 7, 7, -9], (0, 0, 1, 0, 1, 0.6, (-9, 7))),  # ties: one outlier point per value
    ([2, 2, 2, 2], (2, 2, 2, 2, 2, 2, ())),
])
def test_small_boxes_by_hand(values: list[int], want: tuple[float, ...]) -> None:
    box = box_stats(values)
    assert (box.q1, box.median, box.q3, box.lowerfence, box.upperfence, box.mean, box.outliers) == want
    assert close(box, reference(values))


def test_random_boxes_equal_the_definitions() -> None:
    rng = random.Random(12)
    for n in [*range(1, 40), 101, 1000, 4321]:
        for spread in (1, 3, 12, 1000):
            values = [int(rng.expovariate(1 / spread)) - rng.choice((0, 0, 0, spread)) for _ in range(n)]
            assert close(box_stats(values), reference(values)), values


def test_a_box_needs_a_value() -> None:
    with pytest.raises(ValueError):
        box_stats([])


def test_the_points_per_turn_chart_sends_statistics_not_points() -> None:
    names = {"ann": "Ann", "bo": "Bo"}
    small = {"ann": [0, 1, 2, 3, 20], "bo": [5, 5, 6]}
    fig = points_per_turn_chart(small, names)
    ann, bo = fig["data"]
    want = box_stats(small["ann"])
    assert (want.q1, want.median, want.q3, want.lowerfence, want.upperfence) == (0.75, 2, 7.25, 0, 7.25)
    assert (ann["name"], ann["x"], ann["q1"], ann["median"], ann["q3"]) == ("Ann", ["Ann"], [0.75], [2], [7.25])
    assert (ann["lowerfence"], ann["upperfence"], ann["mean"]) == ([0], [7.25], [5.2])
    assert ann["y"] == [[20]] and ann["boxpoints"] == "outliers" and ann["boxmean"] is True
    assert "y" not in bo  # no outlier: an empty sample list would hide the box
    many = {pid: points * 1000 for pid, points in small.items()}
    big = points_per_turn_chart(many, names)
    # A thousand times the turns: other quartiles (a few more digits), the same values beyond the fences.
    assert [t.get("y") for t in big["data"]] == [[[20]], None]
    assert len(json.dumps(big)) < len(json.dumps(fig)) + 20
    assert points_per_turn_chart({}, names)["data"] == []


def test_the_other_charts_send_what_they_draw_once() -> None:
    lengths = [("m", "2026-09-05", moves, 2) for moves in [30, 31, 31, 45, 45, 45, 90]]
    fig = match_length_chart(lengths)
    bars = fig["data"][0]
    assert (bars["x"], bars["y"], bars["histfunc"]) == ([30, 31, 45, 90], [1, 2, 3, 1], "sum")
    more = match_length_chart(lengths * 100)["data"][0]
    assert (more["x"], more["y"]) == ([30, 31, 45, 90], [100, 200, 300, 100])  # a count per length, not per match
    trend = {"ann": [("2026-09-05", 10, "m1"), ("2026-09-05", 10, "m2"), ("2026-09-05", 12, "m3"),
                     ("2026-09-05", 10, "m4"), ("2026-09-06", 10, "m5")]}
    line = score_trend_chart(trend, {"ann": "Ann"})["data"][0]
    # m2 repeats m1's point: nothing more to draw; m4 comes back down to it, which the line shows.
    assert (line["x"], line["y"]) == (["2026-09-05"] * 3 + ["2026-09-06"], [10, 12, 10, 10])
    assert "customdata" not in line
