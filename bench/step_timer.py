"""Key press to painted board on the replay page, measured inside the browser (Playwright drives the keys).

The page's clock starts at the keydown event's own time stamp (read by a capturing listener, before the
page's own), so a delay before the page can handle the key counts; the step is done when its label has
changed and, if plotly redraws the board for it, after that redraw (`plotly_afterplot`; while dcc.Graph
marks a redraw pending, the harness waits for it; a step whose board did not change draws nothing); it
is painted at the first task after the next animation frame. The same harness times any version of the
page (the server-stepped one too): it only needs `#step-label` and the board's plotly div.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from typing import Any

INSTALL = """() => {
  const gd = document.querySelector('#board .js-plotly-plot');
  const label = document.querySelector('#step-label');
  const t = window.__stepTimer = {start: null, label: null, plot: null, frames: 0, times: []};
  const done = () => {
    if (t.start === null || t.label === null) { return; }
    // dcc.Graph marks its plot div while it draws a new figure: wait for that drawing (plotly_afterplot)
    if (gd.classList.contains('dash-graph--pending') && t.frames < 10) { t.frames += 1; later(); return; }
    t.times.push(performance.now() - t.start);
    t.start = null;
  };
  const later = () => requestAnimationFrame(() => setTimeout(done, 0));
  document.addEventListener('keydown', (ev) => {  // from the key event's own time: a busy page's delay counts
    t.start = ev.timeStamp; t.label = null; t.plot = null; t.frames = 0;
  }, true);
  new MutationObserver(() => { if (t.start !== null) { t.label = performance.now(); later(); } })
    .observe(label, {childList: true, characterData: true, subtree: true});
  gd.on('plotly_afterplot', () => { if (t.start !== null) { t.plot = performance.now(); later(); } });
}"""


def label_of(page: Any) -> tuple[int, int]:
    m = re.fullmatch(r"Step (\d+) of (\d+)", page.inner_text("#step-label").strip())
    assert m, page.inner_text("#step-label")
    return int(m.group(1)), int(m.group(2))


def time_steps(page: Any, count: int, check: Callable[[int], None] | None = None) -> list[float]:
    """Press → `count` times from the page's step, each timed from key press to paint (ms); `check(k)` is
    called after each step is painted (outside the timing)."""
    page.locator("#step-label").click()  # focus the page, not a control
    page.evaluate(INSTALL)
    k, n = label_of(page)
    for i in range(count):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("i => window.__stepTimer.times.length > i", arg=i)
        k = min(n, k + 1)
        if check is not None:
            check(k)
    times: list[float] = page.evaluate("() => window.__stepTimer.times")
    return times


def median_p90(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
