"""A box plot's statistics computed the way plotly.js computes them from raw values, so a chart can send the
statistics (a few numbers and the distinct outliers) instead of every value.

plotly.js (src/traces/box/calc.js, default `quartilemethod` "linear"): the values sorted; the median and the
quartiles interpolated at position p * n - 0.5 of the sorted values (0-based, clamped to the ends: Hazen's
definition, not numpy's default); the fences are the most extreme values within 1.5 IQR of the quartiles (never
inside the box); with `boxpoints` "outliers" the values beyond the fences are drawn as points.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# plotly.js's Lib.findBin widens its comparison by this fraction of the values' mean spacing
# (src/lib/search.js: roundingError), so a value a rounding error past a fence's limit still counts as within.
ROUNDING_ERROR = 1e-9


@dataclass(frozen=True)
class BoxStats:
    """What plotly.js derives from a box's values (a box trace's q1, median, q3, lowerfence, upperfence, mean);
    `outliers`: the distinct values beyond the fences, ascending (identical points draw as one)."""

    count: int
    q1: float
    median: float
    q3: float
    lowerfence: float
    upperfence: float
    mean: float
    outliers: tuple[float, ...]


def interp(ordered: Sequence[float], p: float) -> float:
    """plotly.js Lib.interp: the value at fraction p of the sorted values, with the same floating-point steps
    (so the same double as the browser's)."""
    n = p * len(ordered) - 0.5
    if n < 0:
        return ordered[0]
    if n > len(ordered) - 1:
        return ordered[-1]
    frac = math.fmod(n, 1)
    return frac * ordered[math.ceil(n)] + (1 - frac) * ordered[math.floor(n)]


def box_stats(values: Iterable[float]) -> BoxStats:
    """The box statistics of `values` (at least one) as plotly.js computes them by default."""
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        raise ValueError("a box needs at least one value")
    q1, median, q3 = interp(ordered, 0.25), interp(ordered, 0.5), interp(ordered, 0.75)
    spacing = (ordered[-1] - ordered[0]) / (n - 1) if n > 1 else 1
    slack = spacing * ROUNDING_ERROR
    # The first value not below q1 - 1.5 IQR, the last not above q3 + 1.5 IQR (plotly.js computes the limits
    # as 2.5 q1 - 1.5 q3 and 2.5 q3 - 1.5 q1: written the same way for the same rounding).
    low = min(bisect_left(ordered, 2.5 * q1 - 1.5 * q3 - slack), n - 1)
    high = max(bisect_right(ordered, 2.5 * q3 - 1.5 * q1 + slack) - 1, 0)
    lowerfence, upperfence = min(q1, ordered[low]), max(q3, ordered[high])
    beyond = [v for v in ordered[:low] if v < lowerfence] + [v for v in ordered[high + 1:] if v > upperfence]
    return BoxStats(
        count=n, q1=q1, median=median, q3=q3, lowerfence=lowerfence, upperfence=upperfence,
        mean=sum(ordered) / n, outliers=tuple(sorted(set(beyond))),
    )
