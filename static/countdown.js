// The seat page's deadline, counted down: the text beside the deadline ("in 2 days", written by
// the server, which is what a reader without JavaScript sees) becomes "in 1 d 23 h 04 min",
// "in 12 min 05 s" under an hour, and "passed" once it has. Read from the <span data-countdown>
// holding the deadline (RFC 3339); looked up on every tick, so a page refreshed in place by
// table.js keeps counting.
(function () {
  "use strict";
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function left(ms) {
    if (ms <= 0) return "passed";
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
    s = s % 60;
    if (d > 0) return "in " + d + " d " + h + " h " + two(m) + " min";
    if (h > 0) return "in " + h + " h " + two(m) + " min " + two(s) + " s";
    return "in " + m + " min " + two(s) + " s";
  }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("data-countdown"));
      if (isNaN(at)) return;
      var text = left(at - Date.now());
      if (el.textContent !== text) el.textContent = text;
    });
  }
  tick();
  setInterval(tick, 1000);
})();
