/* Scorebook replay: stepping runs here in the browser, with no server round trip. The page holds every
 * step's frame (board figure, player panel, score text, the event's words) as compact differences
 * (dashboard/replay_frames.py: gzipped, base64); `draw` shows frame k from them.
 *
 * A step is drawn at once, in the task of the key press or click that asked for it, without Dash: plotly
 * redraws the board (Plotly.react), the label, score line, event words and panel are written into their
 * elements, the score chart's marker moves. Going through Dash's
 * callbacks cost about as much again as the drawing (the slider's update, the callback machinery, React
 * rendering the outputs). The slider's value (Dash's state, which autoplay steps from), the URL and the
 * event list's current row follow after the board is painted, once per frame however many steps were
 * taken meanwhile. A step Dash makes — the slider dragged or keyed, autoplay — reaches `sync`, which
 * draws it the same way.
 *
 * Keys: ←/→ previous/next, Home/End first/last (not while typing or on the slider, which handles its own
 * keys). Clicking an event row goes to that step. */
(function () {
  "use strict";
  /* step: the step asked for last; frame: the frame on screen (null: what the server drew, step `shown`);
     sent: slider values set from here whose echo (`sync`) is still to come; later: the after-paint work is
     scheduled. */
  var state = { step: null, shown: null, frame: null, layout: null, sent: [], later: false };
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
      if (!state.layout || f.figure.layout !== was.figure.layout) { state.layout = copy(f.figure.layout); }
      var data = f.figure.data.map(function (t) { return Object.assign({}, t); });
      window.Plotly.react(board, { data: data, layout: state.layout });
    }
    fill("step-label", "Step " + k + " of " + m.n, true);
    if (f.score !== was.score) { fill("score-text", f.score, true); }
    if (f.now !== was.now) { fill("event-now", f.now); }
    if (f.panel !== was.panel) { fill("player-panel", f.panel); }
    if (chart && window.Plotly && chart.layout && chart.layout.shapes && chart.layout.shapes[0].x0 !== k) {
      /* Plotly.react, not relayout: a relayout makes Dash's graph write the change back into its figure and
         draw it a second time */
      var shapes = chart.layout.shapes.slice();
      shapes[0] = Object.assign({}, shapes[0], { x0: k, x1: k });
      window.Plotly.react(chart, { data: chart.data, layout: Object.assign({}, chart.layout, { shapes: shapes }) });
    }
    state.frame = f;
  }

  /* After the board is painted: the slider's value (Dash's state), the URL and the current row. */
  function follow() {
    if (state.later) { return; }
    state.later = true;
    afterPaint(function () {
      state.later = false;
      var k = state.step;
      var slider = state.sliderValue;
      if (slider !== k && window.dash_clientside && window.dash_clientside.set_props) {
        state.sent.push(k);
        state.sliderValue = k;
        window.dash_clientside.set_props("replay-slider", { value: k });
      }
      var url = new URL(window.location.href);
      if (url.searchParams.get("step") !== String(k)) {
        url.searchParams.set("step", String(k));
        window.history.replaceState(window.history.state, "", url.pathname + url.search);
      }
      markRow(k, 0);  /* lays out the whole event list: after the paint */
    });
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
        var v = value || 0;
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
