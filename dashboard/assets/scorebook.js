/* Scorebook replay: stepping runs here in the browser, with no server round trip. The page holds every
 * step's frame (board figure, player panel, score text, the event's words) as compact differences
 * (dashboard/replay_frames.py: gzipped, base64); `draw` shows frame k from them.
 *
 * A step is drawn at once, in the task of the key press or click that asked for it, without Dash: plotly
 * redraws the board (Plotly.react), the label, score line, event words and panel are written into their
 * elements, the score chart's marker moves. Going through Dash's callbacks cost about as much again as
 * the drawing (the slider's update, the callback machinery, React rendering the outputs). The slider's value
 * (Dash's state), the URL and the event list's current row follow once stepping pauses (`follow`). A step
 * Dash makes — the slider dragged, autoplay — reaches `sync`, which draws it the same way.
 *
 * Keys: ←/→ previous/next, Home/End first/last (not while typing); on the slider, its own keys. Clicking an
 * event row goes to that step. */
(function () {
  "use strict";

  /* Dash loads babel-polyfill 7 (core-js 2), whose list of white space predates Unicode 6.3 (U+180E is no
     longer one): it takes the browser's String.prototype.trim, parseFloat and parseInt for broken and puts
     regular-expression versions in their place, which plotly calls for every text, colour and number it
     draws (a quarter of High Five's board redraw). The browser's own are put back, taken from a fresh frame;
     they differ from the polyfill's only on U+180E, where they follow today's standard. */
  (function nativeParsers() {
    if ("\u180E".trim() === "\u180E" && isNaN(parseFloat("\u180E1"))) { return; }  /* nothing replaced */
    var frame = document.createElement("iframe");
    frame.style.display = "none";
    (document.head || document.documentElement).appendChild(frame);
    var own = frame.contentWindow;
    if (own) {
      String.prototype.trim = own.String.prototype.trim;
      window.parseFloat = Number.parseFloat = own.parseFloat;
      window.parseInt = Number.parseInt = own.parseInt;
    }
    frame.remove();
  })();

  /* step: the step asked for last; frame: the frame on screen (null: what the server drew, step `shown`);
     sent: slider values set from here whose echo (`sync`) is still to come; sliderValue: the slider's value as
     Dash has it; settle: the work that follows a step is scheduled (`follow`). */
  var state = { step: null, shown: null, frame: null, layout: null, sent: [], settle: null, sliderValue: null };
  var SETTLE_MS = 120;
  var framesOf = { packed: null, ready: null, all: null };  /* the decoded frames of the page's payload */

  /* `old` changed by `op` (replay_frames.apply's twin): a new value sharing every unchanged part. */
  function apply(old, op) {
    if (op === null || op === undefined) { return old; }
    var kind = op[0], out, k;
    if (kind === "=") { return op[1]; }
    if (kind === "o") {
      out = {};
      for (k in old) { if (Object.prototype.hasOwnProperty.call(old, k)) { out[k] = old[k]; } }
      for (k in op[1]) { out[k] = apply(old ? old[k] : undefined, op[1][k]); }
      for (var r = 0; r < op[2].length; r++) { delete out[op[2][r]]; }
      return out;
    }
    out = old.slice(0, op[1]);
    for (k in op[3]) { out[Number(k)] = apply(out[Number(k)], op[3][k]); }
    for (var i = 0; i < op[2].length; i++) { out.push(op[2][i]); }
    for (var j = old.length - op[4]; op[4] && j < old.length; j++) { out.push(old[j]); }
    return out;
  }

  function gunzip(packed) {
    var bytes = Uint8Array.from(atob(packed), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  /* Every frame, decoded once per payload (a promise: the first step may come before it is ready). */
  function frames(packed) {
    if (framesOf.packed !== packed) {
      framesOf.packed = packed;
      framesOf.all = null;
      framesOf.ready = gunzip(packed).then(function (text) {
        var data = JSON.parse(text), out = [data.first];
        for (var i = 0; i < data.deltas.length; i++) { out.push(apply(out[i], data.deltas[i])); }
        if (framesOf.packed === packed) { framesOf.all = out; }
        return out;
      });
    }
    return framesOf.ready;
  }

  function afterPaint(fn) { window.requestAnimationFrame(function () { window.setTimeout(fn, 0); }); }

  /* A copy for plotly, which may write into what it is given; frames share their parts. */
  function copy(value) { return JSON.parse(JSON.stringify(value)); }

  function meta() {
    var el = document.getElementById("replay-controls");
    if (!el) { return null; }
    var bonus = (el.getAttribute("data-bonus") || "").split(",").filter(Boolean).map(Number);
    return { n: Number(el.getAttribute("data-n") || 0), bonus: bonus, step: Number(el.getAttribute("data-step") || 0) };
  }

  function graph(id) { return document.querySelector("#" + id + " .js-plotly-plot"); }

  /* Dash's html components as the frames hold them ({type, namespace, props}) made into elements: the
     panel's cards and the event's words. Text goes in as text, never as HTML. */
  function element(value) {
    if (value === null || value === undefined || value === false) { return null; }
    if (typeof value !== "object") { return document.createTextNode(String(value)); }
    if (Array.isArray(value)) {
      var all = document.createDocumentFragment();
      value.forEach(function (v) { var e = element(v); if (e) { all.appendChild(e); } });
      return all;
    }
    var props = value.props || {};
    var tag = value.namespace === "dash_html_components" ? String(value.type).toLowerCase() : "span";
    var el = document.createElement(tag);
    if (props.className) { el.className = props.className; }
    if (props.id) { el.id = props.id; }
    if (props.title) { el.title = props.title; }
    for (var k in props.style || {}) { el.style[k] = props.style[k]; }
    var inner = element(props.children);
    if (inner) { el.appendChild(inner); }
    return el;
  }

  function fill(id, value, asText) {
    var el = document.getElementById(id);
    if (!el) { return; }
    if (asText) { el.textContent = value; return; }
    var inner = element(value);
    el.replaceChildren.apply(el, inner ? [inner] : []);
  }

  /* A board drawn to scale (its y axis anchored to x) made only as tall as its width needs: the server draws
     it for a desktop's width, which left blank bands above and below it on a phone. Never taller. */
  function fittedHeight(layout, board) {
    var x = layout && layout.xaxis, y = layout && layout.yaxis, m = (layout && layout.margin) || {};
    var height = (layout && layout.height) || (board && board._fullLayout && board._fullLayout.height);
    if (!board || !x || !y || y.scaleanchor !== "x" || !x.range || !y.range || !height) { return null; }
    var w = board.clientWidth - (m.l || 0) - (m.r || 0);
    var across = Math.abs(x.range[1] - x.range[0]), up = Math.abs(y.range[1] - y.range[0]);
    var want = Math.ceil(w * up / across + (m.t || 0) + (m.b || 0));
    return w > 0 && across > 0 && want < height ? want : null;
  }

  /* The board on screen fitted to its width (as drawn by the server, or after a resize): its ranges are
     read from the frame, since plotly widens the drawn ones to fill the box. Waits for the board. */
  function fitBoard(tries) {
    var board = graph("board"), all = framesOf.all, m = meta();
    if (!board || !board._fullLayout || !all || !m || !window.Plotly) {
      if (tries < 60) { window.setTimeout(function () { fitBoard(tries + 1); }, 50); }
      return;
    }
    var k = state.step !== null ? state.step : m.step;
    var layout = all[Math.min(k, all.length - 1)].figure.layout;
    var target = fittedHeight(layout, board) || layout.height;
    if (target && Math.abs(board._fullLayout.height - target) > 2) {
      /* through Dash (set_props), not Plotly.relayout: Dash draws its figure prop again after a relayout */
      var fitted = Object.assign({}, layout, { height: target });
      if (state.layout) { state.layout.height = target; }
      window.dash_clientside.set_props("board", { figure: { data: board.data, layout: fitted } });
    }
  }
  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(function () { if (framesOf.all) { fitBoard(0); } }, 150);
  });

  /* Frame k on screen now: only what differs from the frame shown (frames share their unchanged parts). */
  function draw(k) {
    var m = meta(), all = framesOf.all;
    if (!m || !all) { return; }
    var f = all[Math.min(k, all.length - 1)];  /* fewer if the stored rows broke since the page was drawn */
    var was = state.frame || (state.shown !== null ? all[Math.min(state.shown, all.length - 1)] : {});
    var board = graph("board"), chart = graph("score-chart");
    if (f.figure !== was.figure && board && window.Plotly) {
      /* new trace objects over the shared arrays (plotly compares arrays by identity: no deep diffing);
         the layout copied only when it changed */
      if (!state.layout || f.figure.layout !== was.figure.layout) {
        state.layout = copy(f.figure.layout);
        var fit = fittedHeight(state.layout, board);
        if (fit) { state.layout.height = fit; }
      }
      var data = f.figure.data.map(function (t) { return Object.assign({}, t); });
      window.Plotly.react(board, { data: data, layout: state.layout });
    }
    fill("step-label", "Step " + k + " of " + m.n, true);
    if (f.score !== was.score) { fill("score-text", f.score, true); }
    if (f.now !== was.now) { fill("event-now", f.now); }
    if (f.panel !== was.panel) { fill("player-panel", f.panel); }
    if (chart) { moveMarker(chart, k); }
    state.frame = f;
  }

  /* The score chart's step marker (its first shape, a vertical line) to step k. Plotly's own ways redraw the
     whole chart (Plotly.react, 6–15 ms a step; a relayout also makes Dash's graph write the change back and
     draw it again), so the line's path is moved where plotly draws it (the x axis's own scale) and the
     layout records the step, so that a later redraw (a resize) puts it there too; if the chart is not
     drawn as expected, Plotly.react does it. */
  function moveMarker(chart, k) {
    var shapes = chart.layout && chart.layout.shapes;
    if (!shapes || !shapes[0] || shapes[0].x0 === k) { return; }
    var xa = chart._fullLayout && chart._fullLayout.xaxis;
    var line = chart.querySelector('.shapelayer path[data-index="0"]');
    var at = line && /^M([-\d.e]+),([-\d.e]+)L([-\d.e]+),([-\d.e]+)$/.exec(line.getAttribute("d") || "");
    shapes = shapes.slice();
    shapes[0] = Object.assign({}, shapes[0], { x0: k, x1: k });
    if (at && at[1] === at[3] && xa && typeof xa.l2p === "function" && typeof xa._offset === "number") {
      var x = String(xa._offset + xa.l2p(k));
      line.setAttribute("d", "M" + x + "," + at[2] + "L" + x + "," + at[4]);
      chart.layout.shapes = shapes;
    } else if (window.Plotly) {
      window.Plotly.react(chart, { data: chart.data, layout: Object.assign({}, chart.layout, { shapes: shapes }) });
    }
  }

  /* What follows a step once stepping pauses (SETTLE_MS without a step), not on every step of a run: the
     slider's value (Dash's state: setting it costs a Dash update, the slider's React render and a callback,
     10–20 ms), the URL (history.replaceState, 1–5 ms) and the event list's current row (a layout of the
     list). While the slider has the focus it follows right after the paint. */
  function follow() {
    window.clearTimeout(state.settle);
    if (onSlider(document.activeElement)) { afterPaint(settle); }
    else { state.settle = window.setTimeout(settle, SETTLE_MS); }
  }

  function settle() {
    window.clearTimeout(state.settle);
    var k = state.step;
    if (k === null) { return; }
    if (state.sliderValue !== k && window.dash_clientside && window.dash_clientside.set_props) {
      state.sent.push(k);
      state.sliderValue = k;
      window.dash_clientside.set_props("replay-slider", { value: k });
    }
    var url = new URL(window.location.href);
    if (url.searchParams.get("step") !== String(k)) {
      url.searchParams.set("step", String(k));
      window.history.replaceState(window.history.state, "", url.pathname + url.search);
    }
    markRow(k, 0);
  }

  function goTo(step) {
    var m = meta();
    if (!m) { return; }
    state.step = Math.max(0, Math.min(m.n, step));
    draw(state.step);
    follow();
  }

  function go(kind) {
    var m = meta();
    if (!m) { return; }
    var cur = state.step === null ? m.step : state.step;
    if (kind === "first") { goTo(0); }
    else if (kind === "prev") { goTo(cur - 1); }
    else if (kind === "next") { goTo(cur + 1); }
    else if (kind === "last") { goTo(m.n); }
    else if (kind === "bonus") {
      var next = m.bonus.find(function (s) { return s > cur; });
      if (next !== undefined) { goTo(next); }
    }
  }

  /* Mark step k's row and scroll the list (not the page) to it; the list renders lazily, so retry. */
  function markRow(k, tries) {
    var list = document.getElementById("event-list");
    var row = document.querySelector('tr.event-row[data-seq="' + k + '"]');
    if (!document.querySelector("tr.event-row")) {
      if (tries < 40) { window.setTimeout(function () { markRow(k, tries + 1); }, 50); }
      return;
    }
    if (state.step !== null && state.step !== k) { return; }  /* a later step has been asked for meanwhile */
    var rows = document.querySelectorAll("tr.event-row.current");
    for (var i = 0; i < rows.length; i++) { rows[i].classList.remove("current"); }
    if (!list) { return; }
    if (!row) { list.scrollTop = 0; return; }
    row.classList.add("current");
    var offset = row.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop = Math.max(0, list.scrollTop + offset - list.clientHeight / 2 + row.clientHeight / 2);
  }

  var BUTTONS = { "step-first": "first", "step-prev": "prev", "step-next": "next", "step-last": "last",
                  "step-bonus": "bonus" };
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!t || !t.closest) { return; }
    var button = t.closest("button");
    if (button && BUTTONS[button.id]) { go(BUTTONS[button.id]); return; }
    var row = t.closest("tr.event-row");
    if (row && !t.closest("a")) { goTo(Number(row.getAttribute("data-seq"))); }
  });

  /* The slider: its value follows the steps only once stepping pauses, so its own key handling could start
     from a step already left. Its keys step here instead, as its own would (±1, ±10 with Shift or
     PageUp/PageDown, Home/End), and while it has the focus its value follows at once. A pointer on it
     brings its value up to date first. */
  var SLIDER_KEYS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

  function onSlider(el) { return Boolean(el && el.closest && el.closest(".slider-wrap")); }

  document.addEventListener("pointerdown", function (ev) { if (onSlider(ev.target)) { settle(); } }, true);

  document.addEventListener("keydown", function (ev) {
    var m = meta(), by = SLIDER_KEYS[ev.key];
    if (!m || !onSlider(ev.target) || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    if (!by && ev.key !== "Home" && ev.key !== "End") { return; }
    ev.preventDefault();
    ev.stopPropagation();  /* a capturing listener: the slider never sees the key */
    var cur = state.step === null ? m.step : state.step;
    if (ev.key === "Home") { goTo(0); }
    else if (ev.key === "End") { goTo(m.n); }
    else { goTo(cur + (ev.shiftKey && Math.abs(by) === 1 ? 10 * by : by)); }
  }, true);

  document.addEventListener("keydown", function (ev) {
    var kind = KEYS[ev.key];
    if (!kind || ev.altKey || ev.ctrlKey || ev.metaKey || !meta()) { return; }
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) {
      return;
    }
    if (t && t.closest && t.closest("[role=slider],[role=combobox],[role=listbox]")) { return; }
    ev.preventDefault();
    go(kind);
  });

  /* For assets/live.js: the step on screen, and a step to go to (a match in progress grows under the page). */
  window.scorebookReplay = {
    step: function () { var m = meta(); return state.step !== null ? state.step : (m ? m.step : null); },
    goTo: goTo
  };

  window.dash_clientside = window.dash_clientside || {};
  window.dash_clientside.scorebook = {
      /* Decode the frames as soon as the page has them (the server sends them right after the page); a step
         asked for before they came is drawn then. */
      prepare: function (packed) {
        if (typeof packed === "string") {
          frames(packed).then(function () {
            var m = meta();
            if (m && state.shown === null) { state.shown = m.step; }  /* what the server drew */
            if (state.step !== null) { draw(state.step); }
            fitBoard(0);
            var el = document.getElementById("replay-controls");
            if (el) { el.setAttribute("data-frames", "ready"); }  /* a mark for the tests and the bench */
          });
        }
        return window.dash_clientside.no_update;
      },
      /* "Play"/"Pause" and autoplay's ticks, one callback: the slider's value is read, not listened to (a
         callback on it would run on every step). Play at the end starts over; the last step stops it. */
      autoplay: function (_clicks, _tick, value, disabled, m) {
        var none = window.dash_clientside.no_update;
        var id = window.dash_clientside.callback_context.triggered_id;
        var v = state.step === null ? (value || 0) : state.step;  /* the slider may not have caught up yet */
        if (id === "step-play") {
          if (!disabled) { return [none, true, "Play"]; }
          return [v >= m.n ? 0 : none, false, "Pause"];
        }
        if (id === "replay-autoplay" && !disabled) {
          if (v >= m.n) { return [none, true, "Play"]; }
          return v + 1 >= m.n ? [v + 1, true, "Play"] : [v + 1, none, none];
        }
        return [none, none, none];
      },
      /* The event list arrives as one escaped HTML table (see replay.event_table). */
      events: function (html) {
        var list = document.getElementById("event-list");
        if (list && typeof html === "string") {
          list.innerHTML = html;
          var m = meta();
          markRow(state.step === null ? (m ? m.step : 0) : state.step, 0);
        }
        return window.dash_clientside.no_update;
      },
      /* The slider's value changed in Dash: the echo of a step taken here (nothing to do), or a step Dash
         made (the slider dragged or keyed, autoplay, the page shown), drawn here like any other. */
      sync: function (value) {
        var k = value || 0;
        var echo = state.sent.indexOf(k);
        if (echo >= 0) {
          state.sent.splice(0, echo + 1);
          return k;
        }
        state.sliderValue = k;
        if (state.step === null && state.shown === null) {  /* the page as the server drew it */
          state.step = k;
          follow();
          return k;
        }
        goTo(k);
        return k;
      }
  };
})();
