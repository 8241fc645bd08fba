/* Scorebook scorepad, the referee panel (dashboard/pages/pad_referee.py): its buttons put a line in the pad's
 * `pad-line` store, which the pad sends as any other line (event_id, retries, the echo).
 * - "Undo #N" and "Dismiss" carry their line (data-line): `rewind N-1 <request>`, `resolve #R …`.
 * - "Ask the referee": `correction #<seq picked> <text>`; "Abandon the match": `abandon <reason>`.
 */
(function () {
  "use strict";

  function say(text) {
    var el = document.getElementById("referee-msg");
    if (el) { el.textContent = text || ""; }
  }

  function send(line) {
    if (window.dash_clientside && window.dash_clientside.set_props) {
      window.dash_clientside.set_props("pad-line", { data: { line: line, n: Date.now() } });
    }
  }

  function text(id) {
    var el = document.getElementById(id);
    return el ? String(el.value || "").trim().replace(/\s+/g, " ") : "";
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    var button = t && t.closest ? t.closest("#referee-panel button") : null;
    if (!button) { return; }
    var line = button.getAttribute("data-line");
    if (line) {
      say("");
      send(line);
      return;
    }
    if (button.id === "referee-ask") {
      var what = text("referee-ask-text");
      if (!what) {
        say("Say in a few words what is wrong: the referee reads it.");
        document.getElementById("referee-ask-text").focus();
        return;
      }
      say("");
      send("correction #" + text("referee-ask-seq") + " " + what);
      return;
    }
    if (button.id === "referee-abandon") {
      var why = text("referee-abandon-reason");
      if (!why) {
        say("Say why the match is abandoned: the reason is kept with it.");
        document.getElementById("referee-abandon-reason").focus();
        return;
      }
      say("");
      send("abandon " + why);
    }
  });
})();
