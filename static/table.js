// Despatch game pages, a little JavaScript where it makes play better; every page works without it.
// - Times: <time datetime data-local> shown in the reader's own time zone (Intl), UTC otherwise.
// - Live updates: the server-sent events stream /api/games/{id}/stream ("event: game" with
//   next_seq); where the stream is absent, polling /api/games/{id} for next_seq. When the game
//   moves on the page reloads, unless the reader is writing an order: then it says so instead.
// - Orders: the example buttons fill the order box; each submission mixes fresh randomness from
//   the browser into client_entropy, so the dice depend on a value the server could not choose.
(function () {
  "use strict";
  document.documentElement.classList.add("has-js");

  function localTimes() {
    var fmt;
    try {
      fmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    } catch (e) { return; }
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (!isNaN(d.getTime())) { el.title = el.getAttribute("datetime"); el.textContent = fmt.format(d); }
    });
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function orders() {
    var box = document.getElementById("order");
    document.querySelectorAll("button.use-option").forEach(function (b) {
      b.addEventListener("click", function () {
        if (!box) return;
        var text = b.getAttribute("data-option");
        box.value = box.value.trim() ? box.value.replace(/\s*$/, "\n") + text : text;
        box.focus();
      });
    });
    var form = document.getElementById("move-form");
    var entropy = document.getElementById("client_entropy");
    if (form && entropy && window.crypto && window.crypto.getRandomValues) {
      form.addEventListener("submit", function () {
        var mine = new Uint8Array(16);
        window.crypto.getRandomValues(mine);
        entropy.value = hex(mine);
      });
    }
  }

  function live() {
    var main = document.getElementById("main");
    if (!main || main.getAttribute("data-live") !== "on") return;
    var gameId = main.getAttribute("data-game-id");
    var shown = parseInt(main.getAttribute("data-next-seq"), 10);
    var status = document.getElementById("live-status");
    var done = false;
    function movedOn(nextSeq) {
      if (done || !(nextSeq > shown)) return;
      var box = document.getElementById("order");
      if (box && box.value.trim() !== "") {
        done = true;
        status.innerHTML = "";
        status.appendChild(document.createTextNode("The game has moved on (" + (nextSeq - shown) + " new event" + (nextSeq - shown === 1 ? "" : "s") + "). "));
        var a = document.createElement("a");
        a.href = window.location.pathname + window.location.search;
        a.textContent = "Reload to see it (your order box will be emptied)";
        status.appendChild(a);
        return;
      }
      done = true;
      window.location.reload();
    }
    var polling = null;
    function poll() {
      if (polling) return;
      polling = window.setInterval(function () {
        fetch("/api/games/" + encodeURIComponent(gameId), { cache: "no-store" })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (s) { if (s) movedOn(s.next_seq); })
          .catch(function () {});
      }, 2000);
    }
    if (!window.EventSource) { poll(); return; }
    var opened = false;
    var es = new EventSource("/api/games/" + encodeURIComponent(gameId) + "/stream");
    es.addEventListener("open", function () { opened = true; });
    es.addEventListener("game", function (ev) {
      try { movedOn(JSON.parse(ev.data).next_seq); } catch (e) {}
    });
    es.addEventListener("error", function () {
      // No stream on this server (or it failed before opening): poll instead. A stream that
      // was open reconnects by itself; poll meanwhile so nothing is missed.
      if (!opened || es.readyState === EventSource.CLOSED) { es.close(); }
      poll();
    });
  }

  function replayKeys() {
    var back = document.getElementById("replay-back");
    var fwd = document.getElementById("replay-forward");
    if (!back && !fwd) return;
    document.addEventListener("keydown", function (e) {
      var t = e.target && e.target.tagName;
      if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "ArrowLeft" && back) { window.location.href = back.href; }
      if (e.key === "ArrowRight" && fwd) { window.location.href = fwd.href; }
    });
  }

  localTimes();
  orders();
  live();
  replayKeys();
})();
