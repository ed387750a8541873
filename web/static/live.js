// The live pages (web/live.py, web/tournament.py): a table follows the bot's events without a
// reload; an open tournament's page reloads when its bracket changed. Served by the bot; no
// other script. The HTML of each event is made (and escaped) by the bot.
(function () {
  "use strict";
  function table(root, note) {
    var stream = new EventSource(root.getAttribute("data-events"));
    function show(event) {
      var data = JSON.parse(event.data);
      root.innerHTML = data.html;
      root.setAttribute("data-seq", String(data.state.seq));
      root.setAttribute("data-status", String(data.state.status));
    }
    stream.addEventListener("open", function () {
      note.textContent = root.getAttribute("data-live");
    });
    stream.addEventListener("state", show);
    stream.addEventListener("end", function (event) {
      show(event);
      stream.close();
      note.textContent = root.getAttribute("data-closed");
    });
    stream.addEventListener("error", function () {
      if (stream.readyState !== EventSource.CLOSED) {
        note.textContent = root.getAttribute("data-offline");
        return;
      }
      // Refused: the table closed meanwhile (404), or too many people watch it (503).
      fetch(root.getAttribute("data-api"), { cache: "no-store" }).then(function (answer) {
        note.textContent = root.getAttribute(answer.status === 404 ? "data-closed" : "data-full");
      }, function () {
        note.textContent = root.getAttribute("data-offline");
      });
    });
  }
  function follow(mark) {
    var every = 1000 * Number(mark.getAttribute("data-seconds"));
    var version = mark.getAttribute("data-version");
    window.setInterval(function () {
      fetch(mark.getAttribute("data-api"), { cache: "no-store" }).then(function (answer) {
        return answer.ok ? answer.json() : null;
      }).then(function (state) {
        if (state && state.version !== version) { window.location.reload(); }
      }, function () { return null; });
    }, every);
  }
  var root = document.getElementById("live");
  var note = document.getElementById("live-note");
  if (root && note && window.EventSource) { table(root, note); }
  var mark = document.getElementById("follow");
  if (mark && window.fetch) { follow(mark); }
}());
