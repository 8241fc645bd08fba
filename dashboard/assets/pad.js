/* Scorebook scorepad (/record/<id>): the browser's part.
 *
 * - Every line sent carries an event_id made here (crypto.randomUUID, or crypto.getRandomValues where the
 *   page is not a secure context, e.g. http:// on a club's LAN). The id stays with the pending line: sending
 *   the same line at the same seq again (a retry after no answer) reuses it, so the server answers with what
 *   it stored instead of storing it twice.
 * - The step buttons, "Record …", Undo and its reason are handled by one click listener that sets the
 *   pad's stores; the server draws the next step. A line template ("Type: …") only puts its prefix on the
 *   line and focuses it: the scorekeeper types the tiles and presses Enter.
 * - The datalist of the legal moves' notation is written from a store (one string list, not a component
 *   per option).
 */
(function () {
  "use strict";
  var NO_ANSWER_MS = 8000;
  var state = { inflight: null, clicks: 0, lines: 0, timer: null };

  function noUpdate() { return window.dash_clientside.no_update; }

  function uuid() {
    var c = window.crypto;
    if (c && typeof c.randomUUID === "function") { return c.randomUUID(); }
    var b = new Uint8Array(16);
    c.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x < 16 ? "0" : "") + x.toString(16); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function net(text, kind) {
    var el = document.getElementById("pad-net");
    if (!el) { return; }
    el.textContent = text || "";
    el.className = "pad-net" + (kind ? " " + kind : "");
  }

  function setProps(id, props) {
    if (window.dash_clientside && window.dash_clientside.set_props) { window.dash_clientside.set_props(id, props); }
  }

  function escapeHtml(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!t || !t.closest || !t.closest(".pad")) { return; }
    var button = t.closest("button");
    if (!button) { return; }
    if (button.id === "pad-undo") {
      var form = document.getElementById("pad-undo-form");
      if (form) {
        form.hidden = false;
        var reason = document.getElementById("pad-undo-reason");
        if (reason) { reason.focus(); }
      }
      return;
    }
    if (button.id === "pad-undo-cancel") {
      var f = document.getElementById("pad-undo-form");
      if (f) { f.hidden = true; }
      return;
    }
    if (button.id === "pad-undo-confirm") {
      var input = document.getElementById("pad-undo-reason");
      var why = input ? input.value.trim() : "";
      if (!why) {
        net("Say why the event is undone: the reason is kept with the rewind.", "refused");
        if (input) { input.focus(); }
        return;
      }
      state.lines += 1;
      setProps("pad-line", { data: { line: "rewind " + button.getAttribute("data-to-seq") + " " + why, n: state.lines } });
      document.getElementById("pad-undo-form").hidden = true;
      return;
    }
    if (!button.closest("#pad-steps")) { return; }
    var prefix = button.getAttribute("data-template");
    if (prefix !== null) {  /* a line template: its prefix on the line, the cursor after it; Enter records */
      var box = document.getElementById("move-input");
      if (box) {  /* as if typed: React's input handler sees the new value (the native setter, then "input") */
        Object.getOwnPropertyDescriptor(window.HTMLInputElement.prototype, "value").set.call(box, prefix);
        box.dispatchEvent(new Event("input", { bubbles: true }));
        box.focus();
        box.setSelectionRange(prefix.length, prefix.length);
      }
      return;
    }
    if (state.inflight && !state.inflight.stalled) { return; }  /* the position is about to change */
    var line = button.getAttribute("data-line");
    if (line) {
      state.lines += 1;
      setProps("pad-line", { data: { line: line, n: state.lines } });
      return;
    }
    var value = button.getAttribute("data-value");
    if (value !== null) {
      state.clicks += 1;
      setProps("pad-click", { data: { value: value, n: state.clicks } });
    }
  });

  /* Phones capitalise the first letter of a text field; player ids are matched exactly. */
  document.addEventListener("focusin", function (ev) {
    var t = ev.target;
    if (t && (t.id === "move-input" || t.id === "pad-undo-reason")) {
      t.setAttribute("autocapitalize", "off");
      t.setAttribute("autocorrect", "off");
    }
  });

  window.dash_clientside = window.dash_clientside || {};
  window.dash_clientside.scorepad = {
    /* Enter (or the Enter button, or "Record …", or Undo's Rewind): the line, its event_id and the seq the
     * pad shows. The same line at the same seq while unanswered keeps its event_id. */
    send: function (_submit, _enter, fromClick, typed, previous, meta) {
      var trigger = window.dash_clientside.callback_context.triggered_id;
      var raw = trigger === "pad-line" ? (fromClick && fromClick.line) : typed;
      var line = String(raw || "").trim().replace(/\s+/g, " ");
      if (!line) {
        net("Type a move first (the suggestions list the legal ones).", "refused");
        return noUpdate();
      }
      var seq = meta ? meta.seq : 0;
      var now = Date.now();
      var pending = state.inflight;
      if (pending && pending.line !== line && !pending.stalled) {
        net("Still recording " + pending.line + " …", "sending");
        return noUpdate();
      }
      var same = previous && previous.line === line && previous.seq === seq;
      var id = same ? previous.event_id : uuid();
      state.inflight = { line: line, event_id: id, t: now, stalled: false };
      net(same && pending ? "Sending " + line + " again (same event id) …" : "Recording " + line + " …", "sending");
      if (state.timer) { window.clearTimeout(state.timer); }
      state.timer = window.setTimeout(function () {
        if (state.inflight && state.inflight.event_id === id) {
          state.inflight.stalled = true;
          net("No answer from the server yet. Press Enter to send the line again: it is recorded at most once.",
              "stalled");
        }
      }, NO_ANSWER_MS);
      return { line: line, event_id: id, seq: seq, t: now };
    },
    /* "Start the match": one event_id per form shown, kept for retries (a refused start stores nothing). */
    start: function (n, previous) {
      if (!n) { return noUpdate(); }
      return { event_id: previous && previous.event_id ? previous.event_id : uuid(), n: n };
    },
    /* The new-match form's seat rows after a game change, "+ Add player" or a row's ✕, counted here from the
     * buttons' click counts against those already counted (`seen`): clicks that Dash hands over together each
     * count. Arguments: game, add clicks, each row's ✕ clicks, each row's name, the rows shown, `seen`,
     * {game: [fewest, most, hint]}. Returns each row's name, each row's hidden, each ✕'s hidden, the rows shown, the
     * clicks now counted, the hint and whether "+ Add player" is disabled. */
    seats: function () {
      var args = Array.prototype.slice.call(arguments);
      var n = (args.length - 5) / 2;
      var limits = args[args.length - 1][args[0]];
      var low = limits[0], high = limits[1];
      var clicks = function (v) { return v || 0; };
      var add = clicks(args[1]);
      var removes = args.slice(2, 2 + n).map(clicks);
      var names = args.slice(2 + n, 2 + 2 * n).map(function (v) { return v || ""; });
      var count = args[2 + 2 * n] || low;
      var seen = args[3 + 2 * n] || { add: 0, remove: removes.map(function () { return 0; }) };
      count = Math.min(high, count + Math.max(0, add - seen.add));
      removes.forEach(function (r, i) {
        for (var k = r - clicks(seen.remove[i]); k > 0 && i < count && count > low; k--) {
          names.splice(i, 1);
          names.push("");
          count -= 1;
        }
      });
      count = Math.max(low, Math.min(high, count));
      var shown = names.map(function (v, i) { return i < count ? v : ""; });
      var hidden = names.map(function (_, i) { return i >= count; });
      var fixed = names.map(function () { return count <= low; });
      return shown.concat(hidden, fixed, [count, { add: add, remove: removes }, limits[2],
                                          count >= high]);
    },
    /* The server answered a line: no longer pending. */
    ack: function (ack) {
      if (ack && state.inflight && ack.event_id === state.inflight.event_id) {
        state.inflight = null;
        if (state.timer) { window.clearTimeout(state.timer); state.timer = null; }
        net("", "");
      }
      return noUpdate();
    },
    /* The legal moves' notation as the keyboard line's suggestions. */
    moves: function (lines) {
      var list = document.getElementById("pad-moves");
      if (list) {
        list.innerHTML = (lines || []).map(function (l) { return '<option value="' + escapeHtml(l) + '">'; }).join("");
      }
      return noUpdate();
    }
  };
})();
