/* Scorebook replay: stepping runs here in the browser, with no server round trip. The page holds every
 * step's frame (board figure, player panel, score text, the event's words) as compact differences
 * (dashboard/replay_frames.py: gzipped, base64); `step` draws frame k from them. Keys: ←/→
 * previous/next, Home/End first/last (not while typing or on the slider, which handles its own keys).
 * Clicking an event row goes to that step. */
(function () {
  "use strict";
  var state = { step: 0, requested: null };
  var framesOf = { packed: null, ready: null };  /* the decoded frames of the page's payload */

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
      framesOf.ready = gunzip(packed).then(function (text) {
        var data = JSON.parse(text), out = [data.first];
        for (var i = 0; i < data.deltas.length; i++) { out.push(apply(out[i], data.deltas[i])); }
        return out;
      });
    }
    return framesOf.ready;
  }

  function afterPaint(fn) { window.requestAnimationFrame(function () { window.setTimeout(fn, 0); }); }

  /* A copy for Dash and plotly, which may write into what they are given; frames share their parts. */
  function copy(value) { return JSON.parse(JSON.stringify(value)); }

  function meta() {
    var el = document.getElementById("replay-controls");
    if (!el) { return null; }
    var bonus = (el.getAttribute("data-bonus") || "").split(",").filter(Boolean).map(Number);
    return { n: Number(el.getAttribute("data-n") || 0), bonus: bonus };
  }

  function goTo(step) {
    var m = meta();
    if (!m || !window.dash_clientside || !window.dash_clientside.set_props) { return; }
    var k = Math.max(0, Math.min(m.n, step));
    state.step = k;
    state.requested = k;
    window.dash_clientside.set_props("replay-slider", { value: k });
  }

  function go(kind) {
    var m = meta();
    if (!m) { return; }
    var cur = state.step;
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
    if (state.step !== k) { return; }  /* a later step has been asked for meanwhile */
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
      /* Start decoding the frames as soon as the page has them (the server sends them right after the page). */
      prepare: function (packed) {
        if (typeof packed === "string") {
          frames(packed).then(function () {  /* a mark for the tests and the bench: stepping is local now */
            var el = document.getElementById("replay-controls");
            if (el) { el.setAttribute("data-frames", "ready"); }
          });
        }
        return window.dash_clientside.no_update;
      },
      /* The step changed (any way): draw its frame — board, panel, label, scores, event, chart marker. */
      step: function (value, packed, m) {
        var k = Math.max(0, Math.min(m.n, Number(value) || 0));
        if (typeof packed !== "string") {  /* not here yet: drawn when they arrive (an input of this) */
          var none = window.dash_clientside.no_update;
          return [none, none, none, none, none, none];
        }
        return frames(packed).then(function (all) {
          var f = all[Math.min(k, all.length - 1)];  /* fewer if the stored rows broke since the page was drawn */
          /* new trace objects over the shared arrays (plotly compares arrays by identity: no deep diffing) */
          var data = f.figure.data.map(function (t) { return Object.assign({}, t); });
          var figure = { data: data, layout: copy(f.figure.layout) };
          var line = Object.assign({}, m.marker, { x0: k, x1: k });
          var marker = new window.dash_clientside.Patch().assign(["layout", "shapes", 0], line);
          return [figure, copy(f.panel), "Step " + k + " of " + m.n, f.score, copy(f.now), marker.build()];
        });
      },
      /* Autoplay ticks and "Play" at the end (which starts over). */
      navigate: function (_play, _tick, value, m) {
        var id = window.dash_clientside.callback_context.triggered_id;
        var v = value || 0;
        if (id === "step-play") { return v >= m.n ? 0 : window.dash_clientside.no_update; }
        if (id === "replay-autoplay") { return v >= m.n ? window.dash_clientside.no_update : v + 1; }
        return window.dash_clientside.no_update;
      },
      autoplay: function (_clicks, value, disabled, m) {
        var id = window.dash_clientside.callback_context.triggered_id;
        if (id === "step-play") {
          return disabled ? [false, "Pause"] : [true, "Play"];
        }
        if (!disabled && value >= m.n) { return [true, "Play"]; }
        return [window.dash_clientside.no_update, window.dash_clientside.no_update];
      },
      /* The event list arrives as one escaped HTML table (see replay.event_table). */
      events: function (html) {
        var list = document.getElementById("event-list");
        if (list && typeof html === "string") {
          list.innerHTML = html;
          markRow(state.step, 0);
        }
        return window.dash_clientside.no_update;
      },
      /* The step changed (any way): URL, current row, and what the keys step from. */
      sync: function (value, m) {
        var k = value || 0;
        if (state.requested === null || state.requested === k) {
          state.step = k;
          state.requested = null;
        }
        /* after the board is painted: marking the row lays out the whole event list */
        afterPaint(function () {
          if (state.step !== k) { return; }  /* stepped on meanwhile: that step marks its own */
          var url = new URL(window.location.href);
          url.searchParams.set("step", String(k));
          window.history.replaceState(window.history.state, "", url.pathname + url.search);
          markRow(k, 0);
        });
        return k;
      }
  };
})();
