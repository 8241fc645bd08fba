/* "Could they have played?" on the replay page: the legal moves of the player to move at the step shown, from
 * GET /api/matches/{id}/legal?at=k (as the reader may know the tiles: the session cookie goes with it), with
 * hindsight's missed plays of the event recorded next. Stepping stays in the browser (assets/scorebook.js
 * writes "Step k of N" into #step-label): this script watches that label and asks for a step's moves once
 * stepping pauses there, each step once; going back to a step asked before shows it at once. */
(function () {
  "use strict";

  var PAUSE_MS = 150, SHOWN = 8;
  var answers = {};  /* "match|k|n" -> promise of {ok, body} */
  var wanted = null, timer = null;

  function where() {
    var panel = document.getElementById("legal-panel"), label = document.getElementById("step-label");
    var m = label && /Step (\d+) of (\d+)/.exec(label.textContent || "");
    if (!panel || !m) { return null; }
    var names = {};
    try { names = JSON.parse(panel.getAttribute("data-names") || "{}"); } catch (e) { names = {}; }
    return { match: panel.getAttribute("data-match"), step: Number(m[1]), n: Number(m[2]), names: names };
  }

  function ask(at, match, n) {
    var key = match + "|" + at + "|" + n;
    if (!answers[key]) {
      var url = "/api/matches/" + encodeURIComponent(match) + "/legal?at=" + at;
      answers[key] = fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
        .catch(function () { delete answers[key]; return { ok: false, body: { reason: "no answer from the server" } }; });
    }
    return answers[key];
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function signed(v) { return (v > 0 ? "+" : "") + v; }

  /* A move's line: its notation, its points, the bonus it would score (Tri-Ominos' items after the tile). */
  function moveItem(move) {
    var li = el("li");
    li.appendChild(el("code", "", move.notation));
    if (typeof move.points === "number") { li.appendChild(el("span", "pts", signed(move.points))); }
    var extra = [];
    if (Array.isArray(move.items)) {
      move.items.slice(1).forEach(function (it) { extra.push(it[0] + " " + signed(it[1])); });
    } else if (Array.isArray(move.tags)) {
      move.tags.forEach(function (t) { if (t !== "draw" && t !== "pass") { extra.push(t); } });
    }
    if (extra.length) { li.appendChild(el("span", "bonus", "★ " + extra.join(", "))); }
    return li;
  }

  function best(moves) {
    return moves.map(function (m, i) { return [m, i]; }).sort(function (a, b) {
      var pa = typeof a[0].points === "number" ? a[0].points : -1e9, pb = typeof b[0].points === "number" ? b[0].points : -1e9;
      return pb - pa || a[1] - b[1];
    }).map(function (x) { return x[0]; });
  }

  function render(at, res) {
    var body = document.getElementById("legal-body");
    if (!body) { return; }
    var out = [], a = res.body || {};
    if (!res.ok) {
      out.push(el("p", "legal-note", "No legal moves to show: " + (a.reason || "the server refused")));
      body.replaceChildren.apply(body, out);
      return;
    }
    var names = (where() || { names: {} }).names;
    var who = a.player ? (names[a.player] || a.player) : "Every player";
    var moves = a.moves || [];
    out.push(el("p", "legal-head", moves.length
      ? who + (a.player ? " to play" : "") + " · " + moves.length + " legal move" + (moves.length === 1 ? "" : "s")
      : (a.player ? who + " has no move to record here" : "No move to record here")));
    if (a.view === "table") {
      out.push(el("p", "legal-note", "As the table knew it: the match is in progress, so tiles nobody saw stay unknown."));
    }
    Object.keys(a.unseen || {}).forEach(function (pid) {
      var k = a.unseen[pid];
      out.push(el("p", "legal-note", (names[pid] || pid) + " holds " + k + " tile" + (k === 1 ? "" : "s") +
        (a.view === "table" ? " nobody saw" : " recorded unseen") + ": their placements are not listed."));
    });
    if (moves.length) {
      var list = el("ol", "legal-moves");
      best(moves).slice(0, SHOWN).forEach(function (m) { list.appendChild(moveItem(m)); });
      out.push(list);
      if (moves.length > SHOWN) { out.push(el("p", "legal-note", "… and " + (moves.length - SHOWN) + " more")); }
    }
    (a.missed || []).forEach(function (m) {
      out.push(el("div", "missed-note", "⚠ Next, #" + m.seq + ": " + m.text));
      if (m.moves && m.moves.length) {
        var better = el("ol", "legal-moves missed-moves");
        m.moves.forEach(function (x) { better.appendChild(moveItem(x)); });
        out.push(better);
      }
    });
    body.replaceChildren.apply(body, out);
    body.className = "legal-body";
    body.setAttribute("data-at", String(at));  /* a mark for the tests: the step whose moves are shown */
  }

  function show(c, key) {
    var at = Math.max(1, c.step);  /* step 0 is the table right after match_started */
    ask(at, c.match, c.n).then(function (res) { if (wanted === key) { render(at, res); } });
  }

  function check() {
    var c = where();
    if (!c) { wanted = null; return; }
    var key = c.match + "|" + c.step + "|" + c.n;
    if (key === wanted) { return; }
    wanted = key;
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { show(c, key); }, PAUSE_MS);
  }

  window.setInterval(check, 100);
})();

/* "Next missed ⚠": the step of the next missed play after the one shown, reached the way a click on its
   event row reaches it (assets/scorebook.js steps there, in the browser). */
document.addEventListener("click", function (ev) {
  "use strict";
  var button = ev.target && ev.target.closest ? ev.target.closest("#step-missed") : null;
  var panel = document.getElementById("legal-panel"), label = document.getElementById("step-label");
  if (!button || !panel || !label) { return; }
  var m = /Step (\d+) of/.exec(label.textContent || ""), now = m ? Number(m[1]) : 0;
  /* the marked rows (a live match's list grows with its missed plays), else the page's own list */
  var rows = document.querySelectorAll("tr.event-row.missed"), seqs = [];
  for (var i = 0; i < rows.length; i++) { seqs.push(Number(rows[i].getAttribute("data-seq"))); }
  if (!seqs.length) { seqs = (panel.getAttribute("data-missed") || "").split(",").filter(Boolean).map(Number); }
  seqs.sort(function (a, b) { return a - b; });
  var next = seqs.find(function (s) { return s > now; });
  if (next === undefined) { next = seqs[0]; }  /* after the last, round to the first */
  var row = next === undefined ? null : document.querySelector('tr.event-row[data-seq="' + next + '"]');
  if (row) { row.click(); }
});
