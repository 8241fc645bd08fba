/* Scorebook replay: stepping runs here in the browser and only sets the slider's value; the server
 * draws the step. Keys: ←/→ previous/next, Home/End first/last (not while typing or on the slider,
 * which handles its own keys). Clicking an event row goes to that step. */
(function () {
  "use strict";
  var state = { step: 0, requested: null };

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
        var url = new URL(window.location.href);
        url.searchParams.set("step", String(k));
        window.history.replaceState(window.history.state, "", url.pathname + url.search);
        markRow(k, 0);
        return k;
      }
  };
})();
