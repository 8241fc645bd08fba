/* Scorebook live replay (docs/LIVE.md): the replay page of a match in progress listens to the match's event
 * stream (GET /api/matches/{id}/stream, Server-Sent Events; the browser's EventSource reconnects by itself,
 * resuming with Last-Event-ID) and, for each new event, asks the page's server callback for the grown match
 * (dashboard/pages/replay_live.py) by writing the `replay-live` store. Bursts are coalesced: at most one
 * ask in flight, one more after it if events came meanwhile.
 *
 * When the new length arrives (`grown`, on `replay-meta`), the step follows the end if the viewer was on the
 * last step, and stays where it is if they had stepped back. The stream's data are not used for drawing: the
 * page draws from its own (viewer's) frames, so the stream is only a wake-up. */
(function () {
  "use strict";

  var live = { match: null, source: null, n: null, asking: false, again: false, timer: null };

  function badge() { return document.getElementById("live-badge"); }

  /* The step on screen (assets/scorebook.js) and the page's last step. */
  function stepShown() {
    var api = window.scorebookReplay;
    return api ? api.step() : null;
  }

  function pageN() {
    var el = document.getElementById("replay-controls");
    return el ? Number(el.getAttribute("data-n") || 0) : null;
  }

  function close() {
    if (live.source) { live.source.close(); }
    live.source = null;
    live.match = null;
    live.n = null;
  }

  /* The page still shows this match, live: else the stream is closed (Dash changes pages without a load). */
  function stillHere(match) {
    var b = badge();
    return Boolean(b && b.getAttribute("data-match") === match && !b.classList.contains("hidden"));
  }

  function ask() {
    if (!live.match || !window.dash_clientside || !window.dash_clientside.set_props) { return; }
    if (live.asking) { live.again = true; return; }
    live.asking = true;
    var n = pageN();
    var follow = n !== null && stepShown() === n;
    window.dash_clientside.set_props("replay-live", { data: { at: Date.now(), follow: follow } });
    /* the answer (or no change) comes back through `grown`; a lost one must not stop later asks */
    window.clearTimeout(live.timer);
    live.timer = window.setTimeout(function () { done(); }, 5000);
  }

  function done() {
    window.clearTimeout(live.timer);
    live.asking = false;
    if (live.again) { live.again = false; ask(); }
  }

  function open(match) {
    close();
    live.match = match;
    live.n = pageN();
    var source = new EventSource("/api/matches/" + encodeURIComponent(match) + "/stream");
    live.source = source;
    source.onopen = function () { if (stillHere(match)) { ask(); } };  /* anything recorded before it opened */
    source.onmessage = function () {
      if (!stillHere(match)) { close(); return; }
      ask();
    };
    source.onerror = function () {
      if (!stillHere(match)) { close(); }  /* otherwise EventSource reconnects by itself */
    };
  }

  window.setInterval(function () { if (live.match && !stillHere(live.match)) { close(); } }, 1000);

  window.dash_clientside = window.dash_clientside || {};
  window.dash_clientside.live = {
    /* The page's match and its length, as first drawn or grown: open the stream for a match in progress,
       follow the end, close it once the match has ended. */
    grown: function (meta) {
      var none = window.dash_clientside.no_update;
      if (!meta) { return none; }
      var b = badge();
      var match = meta.match_id;
      if (live.match !== match) {
        if (b && b.getAttribute("data-match") === match && !meta.finished) { open(match); }
        return none;
      }
      var before = live.n;
      var controls = document.getElementById("replay-controls");
      if (controls) {  /* what scorebook.js reads the last step and the bonus steps from */
        controls.setAttribute("data-n", String(meta.n));
        controls.setAttribute("data-bonus", (meta.bonus || []).join(","));
      }
      live.n = meta.n;
      var api = window.scorebookReplay;
      if (api && before !== null && meta.n !== before) {
        var shown = api.step();
        if (shown === before || shown > meta.n) { api.goTo(meta.n); }  /* at the end (or past a rewound end) */
        else { api.goTo(shown); }  /* stepped back: stays, its label counts the new length */
      }
      if (meta.finished) { close(); }
      return none;
    },
    /* The server has answered an ask (with the grown match or with nothing new). */
    answered: function () {
      done();
      return window.dash_clientside.no_update;
    }
  };
})();
