"""How fast the scorepad records a line on a 500-event match, from Enter to the echoed totals, against a
bare baseline measured in the same run.

For each game the first 500 - N events of a long seeded random match are imported, then the next N are
recorded through the pad, each typed as its notation:

- `server`: the pad's record callback in process (`pad.pad_update` after reading the session cookie:
  parse the line, check the role, append with an event_id, then everything the pad redraws — totals,
  board, legal moves and their click paths, the last events);
- `HTTP`: the same callback through the real app (FastAPI → a2wsgi → Flask → Dash), in process;
- `browser`: Debian's headless Chromium (Playwright) on a live server: from the Enter key in
  `#move-input` to the echo showing the new event (`performance.now()` in the page);
- baseline `echo`: a trivial Dash callback of the same app and page (an input echoed into a div), over
  HTTP and in the browser: what any round trip costs here.

Times are medians and 95th percentiles in ms. Exits 1 unless the server median is under 50 ms and the
browser's 95th percentile under 150 ms (the browser part is skipped without Chromium).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from bench.replay import OPTIONS, STEPS, long_log, median_p95

N = 60  # lines recorded per game and measure
SERVER_GOAL_MS = 50.0
BROWSER_GOAL_MS = 150.0
CHROMIUM = os.environ.get("SCOREBOOK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
PAD_OUTPUTS = ["pad-ack.data", "pad-echo.children", "pad-echo.className", "move-input.value", "pad-meta.data",
               "pad-choice.data", "pad-totals.children", "pad-turn.children", "pad-steps.children", "pad-board.figure",
               "pad-board.clickData", "pad-moves-data.data", "pad-last.children", "pad-panel.children",
               "pad-undo-wrap.children"]
# In the page: the time of the Enter key in a field, and of the last change of an echo element.
PROBE = """([field, echo]) => {
  window.__enterAt = null; window.__echoAt = null;
  document.getElementById(field).addEventListener('keydown', e => {
    if (e.key === 'Enter') { window.__enterAt = performance.now(); window.__echoAt = null; } }, true);
  new MutationObserver(() => { window.__echoAt = performance.now(); })
    .observe(document.getElementById(echo), {childList: true, subtree: true, characterData: true});
}"""


def _body(outputs: list[str], inputs: list[dict[str, Any]], state: list[dict[str, Any]], changed: str) -> str:
    """The body Dash's renderer posts to /_dash-update-component (one output: not a list)."""
    specs = [{"id": o.rsplit(".", 1)[0], "property": o.rsplit(".", 1)[1]} for o in outputs]
    return json.dumps({
        "output": outputs[0] if len(outputs) == 1 else ".." + "...".join(outputs) + "..",
        "outputs": specs[0] if len(specs) == 1 else specs,
        "inputs": inputs, "state": state, "changedPropIds": [changed],
    })


def _pad_body(match_id: str, game: str, line: str, seq: int) -> str:
    send = {"line": line, "event_id": str(uuid.uuid4()), "seq": seq}
    return _body(PAD_OUTPUTS, [
        {"id": "pad-send", "property": "data", "value": send},
        {"id": "pad-click", "property": "data", "value": None},
        {"id": "pad-board", "property": "clickData", "value": None},
        {"id": "pad-hints", "property": "value", "value": ["on"]},
    ], [{"id": "pad-meta", "property": "data", "value": {"match_id": match_id, "seq": seq, "game": game}},
        {"id": "pad-choice", "property": "data", "value": {"seq": seq, "chosen": []}}], "pad-send.data")


def _echo_body(text: str, n: int) -> str:
    return _body(["bench-pong.children"], [{"id": "bench-ping", "property": "n_submit", "value": n}],
                 [{"id": "bench-ping", "property": "value", "value": text}], "bench-ping.n_submit")


def add_baseline(app: Any) -> None:
    """A trivial echo callback on the same Dash app (before its first request): the bare round trip."""
    from dash import Input, Output, State, dcc, html

    dash_app = app.state.dash
    dash_app.layout.children.append(html.Div(className="bench", children=[
        dcc.Input(id="bench-ping", type="text", debounce=True), html.Div(id="bench-pong")]))

    @dash_app.callback(Output("bench-pong", "children"), Input("bench-ping", "n_submit"), State("bench-ping", "value"),
                       prevent_initial_call=True)
    def pong(n: Any, text: Any) -> str:
        return f"{n}: {text}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chromium() -> str | None:
    return CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")


def browser_times(url: str, cookie: str, matches: dict[str, tuple[str, list[str]]]) -> dict[str, tuple[list[float],
                                                                                                        list[float]]]:
    """Per game: (the pad's Enter → echo times, the baseline echo's) in the browser."""
    from playwright.sync_api import sync_playwright

    from recorder.access.sessions import SESSION_COOKIE

    out: dict[str, tuple[list[float], list[float]]] = {}
    executable = _chromium()
    assert executable
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_cookies([{"name": SESSION_COOKIE, "value": cookie, "url": url}])
        page = context.new_page()
        page.set_default_timeout(20_000)
        for game, (match_id, lines) in matches.items():
            page.goto(f"{url}/record/{match_id}")
            page.wait_for_selector("#pad-board .js-plotly-plot .main-svg")
            seq = int(page.evaluate("() => Number(document.querySelector('#pad-echo').innerText.match(/^#(\\d+)/)[1])"))
            page.evaluate(PROBE, ["move-input", "pad-echo"])
            pad_ms = []
            for line in lines:
                page.fill("#move-input", line)
                page.press("#move-input", "Enter")
                seq += 1
                page.wait_for_function("s => document.querySelector('#pad-echo').innerText.startsWith(s)",
                                       arg=f"#{seq} ")
                page.wait_for_function("() => !document.querySelector('[data-dash-is-loading=\"true\"]')")
                pad_ms.append(page.evaluate("() => window.__echoAt - window.__enterAt"))
            page.evaluate(PROBE, ["bench-ping", "bench-pong"])
            echo_ms = []
            for i in range(len(lines)):
                page.fill("#bench-ping", f"ping {i}")
                page.press("#bench-ping", "Enter")
                page.wait_for_function("t => document.querySelector('#bench-pong').innerText.endsWith(t)",
                                       arg=f"ping {i}")
                echo_ms.append(page.evaluate("() => window.__echoAt - window.__enterAt"))
            out[game] = (pad_ms, echo_ms)
        browser.close()
    return out


def main() -> bool:
    import warnings

    warnings.filterwarnings("ignore", message="Using `httpx`")
    import uvicorn
    from fastapi.testclient import TestClient

    from dashboard.model import PositionCache
    from dashboard.pages.pad import pad_update
    from projections.notation import to_notation
    from projections.registry import get_game
    from recorder import Scorebook
    from recorder.access.sessions import SESSION_COOKIE
    from recorder.log.file import import_lines
    from scorebook.app import build_app

    rows: list[tuple[str, list[float], list[float], list[float]]] = []
    live: dict[str, tuple[str, list[str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sb = Scorebook.open(str(Path(tmp) / "bench.db"), session_secret="bench-secret")
        token = sb.create_token("bench", "referee")
        cookie = sb.sign_in(token).cookie
        app = build_app(sb)
        add_baseline(app)
        client = TestClient(app)
        client.cookies.set(SESSION_COOKIE, cookie)
        for game in OPTIONS:
            g = get_game(game)
            log = long_log(game)
            head, tail = log[: STEPS - 3 * N], log[STEPS - 3 * N:]
            lines = [to_notation(g, e) for e in tail]
            # in process: the callback's work, after reading the cookie as the callback does
            match_id = sb.import_log(import_lines(head), "bench")["match_id"]
            cache = PositionCache()
            cache.position(match_id, sb.fold(match_id))  # the pad was open: its position is built
            server_ms = []
            for i, line in enumerate(lines[:N]):
                seq = len(head) + i
                t = time.perf_counter()
                who = sb.session_principal(cookie)
                out = pad_update(sb, cache, who, "pad-send", {"line": line, "event_id": str(uuid.uuid4()), "seq": seq},
                                 None, None, ["on"], {"match_id": match_id, "seq": seq, "game": game},
                                 {"seq": seq, "chosen": []})
                server_ms.append((time.perf_counter() - t) * 1000)
                assert out[0]["ok"], out[1]
            # through the app, in process
            http_ms = []
            for i, line in enumerate(lines[N: 2 * N]):
                seq = len(head) + N + i
                t = time.perf_counter()
                r = client.post("/_dash-update-component", content=_pad_body(match_id, game, line, seq),
                                headers={"Content-Type": "application/json"})
                http_ms.append((time.perf_counter() - t) * 1000)
                assert r.status_code == 200 and r.json()["response"]["pad-ack"]["data"]["ok"], r.text[:300]
            echo_http = []
            for i in range(N):
                t = time.perf_counter()
                r = client.post("/_dash-update-component", content=_echo_body(f"ping {i}", i + 1),
                                headers={"Content-Type": "application/json"})
                echo_http.append((time.perf_counter() - t) * 1000)
                assert r.status_code == 200, r.text
            live[game] = (match_id, lines[2 * N:])
            rows.append((game, server_ms, http_ms, echo_http))

        browser: dict[str, tuple[list[float], list[float]]] = {}
        if _chromium():
            port = _free_port()
            uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
            thread = threading.Thread(target=uv.run, daemon=True)
            thread.start()
            while not uv.started:
                time.sleep(0.05)
            try:
                browser = browser_times(f"http://127.0.0.1:{port}", cookie, live)
            finally:
                uv.should_exit = True
                thread.join(timeout=10)
        sb.close()

    print(f"\nScorepad: recording a line on a {STEPS}-event match, Enter to echoed totals ({N} lines each); ms")
    head_row = ("game", "server med", "server p95", "HTTP med", "HTTP p95", "echo HTTP", "browser med",
                "browser p95", "echo browser", "browser/echo")
    print("  ".join(f"{h:>12}" for h in head_row))
    ok = True
    for game, server_ms, http_ms, echo_http in rows:
        s_med, s_p95 = median_p95(server_ms)
        h_med, h_p95 = median_p95(http_ms)
        e_med, _ = median_p95(echo_http)
        cells = [game, f"{s_med:.1f}", f"{s_p95:.1f}", f"{h_med:.1f}", f"{h_p95:.1f}", f"{e_med:.1f}"]
        ok = ok and s_med < SERVER_GOAL_MS
        if game in browser:
            b_med, b_p95 = median_p95(browser[game][0])
            be_med, _ = median_p95(browser[game][1])
            cells += [f"{b_med:.1f}", f"{b_p95:.1f}", f"{be_med:.1f}", f"{b_med / be_med:.1f}x"]
            ok = ok and b_p95 < BROWSER_GOAL_MS
        else:
            cells += ["-", "-", "-", "-"]
        print("  ".join(f"{c:>12}" for c in cells))
    if not browser:
        print(f"(no Chromium at {CHROMIUM}: the browser round trip was not measured)")
    print(f"OK: server median under {SERVER_GOAL_MS:.0f} ms, browser p95 under {BROWSER_GOAL_MS:.0f} ms" if ok
          else f"SLOW: a server median of {SERVER_GOAL_MS:.0f} ms or a browser p95 of {BROWSER_GOAL_MS:.0f} ms or more")
    return ok
