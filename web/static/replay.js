// The match page's replay (web/replay.py): each step is an <article class="step"> holding
// links to the first, previous, next and last step (?step=N). A link to a step of this page
// shows it at once (no reload); one to another deal's step is followed. The keys ←, →, Home
// and End follow the shown step's links. No script: the links still work, one page a step.
(function () {
  "use strict";
  var replay = document.getElementById("replay");
  if (!replay) { return; }
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  function shown() { return replay.querySelector("article.step:not([hidden])"); }

  function show(n) {
    var next = document.getElementById("step-" + n);
    if (!next) { return false; }
    var now = shown();
    if (now && now !== next) { now.hidden = true; }
    next.hidden = false;
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", "?step=" + n + "#replay");
    }
    return true;
  }

  replay.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-step]") : null;
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    if (show(link.getAttribute("data-step"))) {
      event.preventDefault();
      var again = shown().querySelector('a[rel="' + link.getAttribute("rel") + '"]');
      if (again) { again.focus({ preventScroll: true }); }
    }
  });

  document.addEventListener("keydown", function (event) {
    var rel = keys[event.key];
    if (!rel || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) { return; }
    var now = shown();
    var link = now && now.querySelector('a[rel="' + rel + '"]');
    if (!link) { return; }
    event.preventDefault();
    if (!show(link.getAttribute("data-step"))) { window.location.href = link.href; }
  });
}());
