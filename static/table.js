// Despatch game pages, a little JavaScript where it makes play better; every page works without it.
// - Times: <time datetime data-local> shown in the reader's own time zone (Intl), UTC otherwise.
// - Live updates: the server-sent events stream /api/games/{id}/stream ("event: game" with
//   next_seq); where the stream is absent, polling /api/games/{id} for next_seq. When the game
//   moves on the page reloads, unless the reader is writing an order: then the board, the log
//   and the legal moves are refreshed in place, the order kept, and a note beside the box says so.
// - Orders: the example buttons fill the order box; each submission mixes fresh randomness from
//   the browser into client_entropy, so the dice depend on a value the server could not choose.
// - Zoom: buttons draw the board larger in its own scrolling box (pinch-zoom works as ever).
// - Orders by pointing: where the page carries the seat's pointing table (#pointing, from the
//   ruleset), a click (or Tab and Enter) on one of the seat's pieces marks the cells it may reach;
//   a click on one of them adds the legal order to the order box (a choice when several orders
//   lead there). Escape, or a click elsewhere, lets go. A path order (a move hex by hex) goes
//   on: the cells next to the last one pointed (the cell's data-next) are marked, and each one
//   pointed is added to the order's path, until Escape or a click elsewhere.
// - The hand as cards: where the page carries the seat's hand (#hand-data), a card with a use
//   now puts its order in the order box; in a plan the cards are gathered into one order.
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

  function bindOptions(root) {
    var box = document.getElementById("order");
    root.querySelectorAll("button.use-option").forEach(function (b) {
      b.addEventListener("click", function () {
        if (!box) return;
        var text = b.getAttribute("data-option");
        box.value = box.value.trim() ? box.value.replace(/\s*$/, "\n") + text : text;
        box.focus();
      });
    });
  }

  function orders() {
    bindOptions(document);
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

  function pointing() {
    var data = document.getElementById("pointing");
    var board = document.querySelector("figure.board svg");
    var panel = document.getElementById("pointing-panel");
    var box = document.getElementById("order");
    if (!data || !board || !panel || !box) return;
    var list;
    try { list = JSON.parse(data.textContent); } catch (e) { return; }
    var byPiece = {};
    list.forEach(function (p) { (byPiece[p.piece] = byPiece[p.piece] || []).push(p); });
    var status = document.getElementById("pointing-status");
    var choices = document.getElementById("pointing-choices");
    var selected = null;
    // A path being pointed: {piece, path (head, tail), cells, order (as the box holds it)}.
    var growing = null;
    panel.hidden = false;

    function titleOf(el) {
      var t = el.querySelector("title");
      return t ? t.textContent : "";
    }
    function pieceEl(id) {
      var found = null;
      board.querySelectorAll("g[data-piece]").forEach(function (g) { if (g.getAttribute("data-piece") === id) found = g; });
      return found;
    }
    function cellEls(label) {
      var out = [];
      board.querySelectorAll("g[data-cell]").forEach(function (g) { if (g.getAttribute("data-cell") === label) out.push(g); });
      return out;
    }
    function unmark() {
      board.querySelectorAll(".reach").forEach(function (g) {
        g.classList.remove("reach");
        g.removeAttribute("tabindex");
        g.removeAttribute("role");
        g.removeAttribute("aria-label");
      });
    }
    function letGo() {
      unmark();
      board.querySelectorAll(".selected").forEach(function (g) { g.classList.remove("selected"); });
      selected = null;
      growing = null;
    }
    function mark(c, label) {
      cellEls(c).forEach(function (g) {
        g.classList.add("reach");
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", label + c);
      });
    }
    function pathOrder(g) {
      return g.path.head + " " + g.cells.join(" ") + (g.path.tail ? " " + g.path.tail : "");
    }
    // The cells a path may go on to: those next to its last cell, not already on it nor where
    // the piece stands.
    function nextCells(g) {
      var last = cellEls(g.cells[g.cells.length - 1])[0];
      var next = last ? (last.getAttribute("data-next") || "").split(" ") : [];
      return next.filter(function (c) { return c && g.cells.indexOf(c) < 0 && c !== g.start; });
    }
    function grow(piece, p) {
      var el = pieceEl(piece);
      growing = { piece: piece, path: p.path, cells: [p.cell], order: p.order, start: el ? el.getAttribute("data-at") : null };
      markPath();
    }
    function markPath() {
      unmark();
      var piece = pieceEl(growing.piece);
      if (piece) piece.classList.add("selected");
      var next = nextCells(growing);
      next.forEach(function (c) { mark(c, "Go on to "); });
      status.textContent = "Added to your order: " + growing.order + ". The path goes on: " + next.length + " place" + (next.length === 1 ? "" : "s") + " marked: " + next.join(", ") + ". Choose the next, or press Escape to stop here.";
    }
    function extend(cell) {
      var before = growing.order;
      growing.cells.push(cell);
      growing.order = pathOrder(growing);
      var lines = box.value.split("\n");
      for (var i = lines.length - 1; i >= 0; i--) {
        if (lines[i].trim() === before) { lines[i] = growing.order; break; }
      }
      box.value = lines.join("\n");
      box.dispatchEvent(new Event("input", { bubbles: true }));
      markPath();
    }
    function add(order) {
      box.value = box.value.trim() ? box.value.replace(/\s*$/, "\n") + order : order;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
    function select(id) {
      letGo();
      selected = id;
      var piece = pieceEl(id);
      piece.classList.add("selected");
      var cells = [];
      byPiece[id].forEach(function (p) { if (cells.indexOf(p.cell) < 0) cells.push(p.cell); });
      cells.forEach(function (c) { mark(c, "Order to "); });
      choices.innerHTML = "";
      status.textContent = "Chosen: " + titleOf(piece) + ". " + cells.length + " place" + (cells.length === 1 ? "" : "s") + " marked: " + cells.join(", ") + ". Choose one, or press Escape.";
    }
    function choose(cell) {
      var piece = selected;
      var found = byPiece[piece].filter(function (p) { return p.cell === cell; });
      var orders = found.map(function (p) { return p.order; });
      if (!orders.length) return false;
      letGo();
      choices.innerHTML = "";
      if (orders.length === 1) {
        add(orders[0]);
        status.textContent = "Added to your order: " + orders[0];
        if (found[0].path) grow(piece, found[0]);
        return true;
      }
      status.textContent = orders.length + " orders lead to " + cell + ": choose one.";
      found.forEach(function (p) {
        var o = p.order;
        var li = document.createElement("li");
        var b = document.createElement("button");
        b.type = "button";
        b.className = "use-option";
        var code = document.createElement("code");
        code.textContent = o;
        b.appendChild(code);
        b.addEventListener("click", function () {
          add(o);
          choices.innerHTML = "";
          status.textContent = "Added to your order: " + o;
          if (p.path) grow(piece, p);
        });
        li.appendChild(b);
        choices.appendChild(li);
      });
      var first = choices.querySelector("button");
      if (first) first.focus();
      return true;
    }
    Object.keys(byPiece).forEach(function (id) {
      var g = pieceEl(id);
      if (!g) return;
      g.classList.add("pointable");
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", "Choose " + titleOf(g));
    });
    function point(target) {
      var piece = target.closest("g[data-piece]");
      var cell = target.closest("g[data-cell]");
      var at = piece ? piece.getAttribute("data-at") : cell ? cell.getAttribute("data-cell") : null;
      if (growing && at && nextCells(growing).indexOf(at) >= 0) { extend(at); return; }
      if (growing) letGo();
      if (selected && at && choose(at)) return;
      if (piece && byPiece[piece.getAttribute("data-piece")]) { select(piece.getAttribute("data-piece")); return; }
      letGo();
      status.textContent = "";
    }
    board.addEventListener("click", function (ev) { point(ev.target); });
    board.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { letGo(); status.textContent = ""; return; }
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); point(ev.target); }
    });
  }

  // The seat's hand as cards (#hand-data, from the ruleset): a card with one order puts it in
  // the order box (several: a choice); where the hand gathers cards into one order (a plan),
  // each card pointed at joins the order's line (`plan 1 4`) or leaves it, and only the cards
  // that make, with those chosen, a set the rules accept can be chosen.
  function handCards() {
    var data = document.getElementById("hand-data");
    var box = document.getElementById("order");
    if (!data || !box) return;
    var hand;
    try { hand = JSON.parse(data.textContent); } catch (e) { return; }
    var status = document.getElementById("hand-status");
    var ids = hand.cards.map(function (c) { return c.id; });
    var byId = {};
    hand.cards.forEach(function (c) { byId[c.id] = c; });
    var gather = hand.gather;
    var valid = {};
    if (gather) gather.sets.forEach(function (set) { valid[set.join(" ")] = true; });
    var buttons = Array.prototype.slice.call(document.querySelectorAll("#hand button.card"));
    var chosen = [];
    function inOrder(list) {
      return list.slice().sort(function (a, b) { return ids.indexOf(a) - ids.indexOf(b); });
    }
    function put(order) {
      box.value = box.value.trim() ? box.value.replace(/\s*$/, "\n") + order : order;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
    // The gathered order's line in the box: replaced, added, or taken out when no card is chosen.
    function setGathered() {
      var head = gather.head + " ";
      var line = chosen.length ? head + inOrder(chosen).join(" ") : "";
      var lines = box.value.split("\n").filter(function (l) { return l.trim() !== ""; });
      var at = -1;
      lines.forEach(function (l, i) { if (l.trim().indexOf(head) === 0) at = i; });
      if (at >= 0 && line) lines[at] = line;
      else if (at >= 0) lines.splice(at, 1);
      else if (line) lines.push(line);
      box.value = lines.join("\n");
      box.dispatchEvent(new Event("input", { bubbles: true }));
      return line;
    }
    function mark() {
      buttons.forEach(function (b) {
        var id = b.getAttribute("data-card");
        var on = chosen.indexOf(id) >= 0;
        b.classList.toggle("chosen", on);
        b.setAttribute("aria-pressed", on ? "true" : "false");
        b.disabled = !on && !valid[inOrder(chosen.concat([id])).join(" ")];
      });
    }
    buttons.forEach(function (b) {
      var card = byId[b.getAttribute("data-card")];
      if (!card) return;
      b.addEventListener("click", function () {
        if (gather) {
          var at = chosen.indexOf(card.id);
          if (at >= 0) chosen.splice(at, 1); else chosen.push(card.id);
          var line = setGathered();
          mark();
          status.textContent = line ? "Your order: " + line + " (" + chosen.map(function (id) { return byId[id].name; }).join(", ") + ")." : "No card chosen.";
          return;
        }
        if (card.orders.length === 1) {
          put(card.orders[0]);
          status.textContent = "Added to your order: " + card.orders[0];
          box.focus();
          return;
        }
        status.textContent = card.name + ": choose an order. ";
        card.orders.forEach(function (o) {
          var c = document.createElement("button");
          c.type = "button";
          c.className = "use-option";
          c.textContent = o;
          c.addEventListener("click", function () { put(o); status.textContent = "Added to your order: " + o; box.focus(); });
          status.appendChild(c);
        });
      });
    });
    if (gather) mark();
  }

  // Zoom: the board fits the page's width; + and − draw it larger inside its own scrolling box
  // (pan by scrolling or dragging), keeping the middle of what was shown in the middle. A board
  // whose squares would be too small to tap at the page's width (data-tap-width, the width in
  // px at which a square is 32 px) fits that width instead on a phone or a tablet, scrolling
  // sideways in its box.
  function zoom() {
    var figure = document.getElementById("board-figure");
    var svg = figure && figure.querySelector("svg");
    var label = document.getElementById("zoom-level");
    if (!svg) return;
    var levels = [1, 1.5, 2, 3];
    var at = 0;
    var tap = parseFloat(svg.getAttribute("data-tap-width")) || 0;
    function show(next) {
      var before = levels[at];
      at = Math.max(0, Math.min(levels.length - 1, next));
      var ratio = levels[at] / before;
      var midX = figure.scrollLeft + figure.clientWidth / 2;
      var midY = figure.scrollTop + figure.clientHeight / 2;
      // At a phone's or tablet's width, or under a finger: a mouse at a desktop's width points
      // at smaller squares.
      var touch = window.matchMedia("(max-width: 63.99rem), (pointer: coarse)").matches;
      var small = touch && tap > figure.clientWidth;
      figure.classList.toggle("zoomed", at > 0 || small);
      svg.style.width = small ? Math.round(tap * levels[at]) + "px" : at > 0 ? Math.round(levels[at] * 100) + "%" : "";
      figure.style.maxHeight = at > 0 ? "80vh" : "";
      figure.scrollLeft = midX * ratio - figure.clientWidth / 2;
      figure.scrollTop = midY * ratio - figure.clientHeight / 2;
      if (label) label.textContent = at > 0 ? "Zoom " + Math.round(levels[at] * 100) + "%" : "";
    }
    document.querySelectorAll("button[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var how = b.getAttribute("data-zoom");
        show(how === "in" ? at + 1 : how === "out" ? at - 1 : 0);
      });
    });
    if (tap) {
      show(0);
      window.addEventListener("resize", function () { show(at); });
    }
  }

  function live() {
    var main = document.getElementById("main");
    if (!main || main.getAttribute("data-live") !== "on") return;
    var gameId = main.getAttribute("data-game-id");
    // The game's own page, with the whole log if it shows it, and without what a redirect said
    // once (?moved=, ?said= …) or the form's address (/moves).
    var pageUrl = window.location.pathname.replace(/\/moves$/, "") + (/(^\?|&)log=all(&|$)/.test(window.location.search) ? "?log=all" : "");
    var shown = parseInt(main.getAttribute("data-next-seq"), 10);
    var status = document.getElementById("live-status");
    var done = false;
    var refreshing = false;
    // The game moved on while the player writes: the board, the whose-turn list, the legal
    // moves and the log are replaced by the latest page's, the order box keeps its text, and a
    // note beside the box says so. Where that cannot be done, the note offers a reload.
    function refresh(nextSeq) {
      var note = document.getElementById("moved-on") || status;
      var count = nextSeq - shown;
      var news = count + " new event" + (count === 1 ? "" : "s");
      function offerReload(why) {
        done = true;
        note.hidden = false;
        note.textContent = "The game has moved on (" + news + ")" + why + ". ";
        var a = document.createElement("a");
        a.href = pageUrl;
        a.textContent = "Reload to see it (your order box will be emptied)";
        note.appendChild(a);
      }
      if (!window.fetch || !window.DOMParser) { offerReload(""); return; }
      refreshing = true;
      fetch(pageUrl, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          refreshing = false;
          var doc = html && new DOMParser().parseFromString(html, "text/html");
          var freshMain = doc && doc.getElementById("main");
          var freshSeq = doc && doc.querySelector('#move-form input[name="expected_seq"]');
          if (!freshMain || !freshSeq) { offerReload(", and it may be over"); return; }
          // The answer to the seat's last order was said once; the news replaces it.
          var said = document.getElementById("answer");
          if (said) said.remove();
          ["section.status", "section.board-wrap", "#prompts", "#hand", "#grammar", "section.log"].forEach(function (sel) {
            var now = document.querySelector(sel);
            var fresh = doc.querySelector(sel);
            if (now && fresh) { now.replaceWith(document.importNode(fresh, true)); }
          });
          document.querySelector('#move-form input[name="expected_seq"]').value = freshSeq.value;
          shown = parseInt(freshMain.getAttribute("data-next-seq"), 10);
          main.setAttribute("data-next-seq", String(shown));
          var prompts = document.getElementById("prompts");
          if (prompts) bindOptions(prompts);
          pointing();
          handCards();
          zoom();
          localTimes();
          note.hidden = false;
          note.textContent = "The game moved on while you wrote (" + news + "): the board, the log and your legal moves are refreshed. Check your order against them before you send it.";
        })
        .catch(function () { refreshing = false; offerReload(""); });
    }
    function movedOn(nextSeq) {
      if (done || refreshing || !(nextSeq > shown)) return;
      var box = document.getElementById("order");
      if (box && box.value.trim() !== "") { refresh(nextSeq); return; }
      done = true;
      window.location.href = pageUrl;
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

  // The answer to the seat's own form (a refused order beside the order box, or what a
  // recorded one did not do) is brought into view; a refused order's box takes the focus, so
  // that a screen reader reads the reason (aria-describedby) with the order kept. What a
  // redirect said once in the address (?moved=, ?said= …) is taken out of it, so that a reload
  // does not say it again.
  function answerInView() {
    var error = document.querySelector("#move-form #error");
    var answer = document.getElementById("answer");
    var box = document.getElementById("order");
    if (error) {
      var bring = function () {
        error.scrollIntoView({ block: "center" });
        if (box) box.focus({ preventScroll: true });
      };
      bring();
      // Again once the page has loaded: the browser's own scrolling to the address's fragment
      // comes last.
      window.addEventListener("load", function () { window.setTimeout(bring, 0); });
    } else if (answer) {
      answer.scrollIntoView({ block: "center" });
    }
    // A refused table-talk message: its reason beside the talk form, the message kept in it.
    var talkError = document.getElementById("talk-error");
    var talkBox = document.getElementById("talk-text");
    if (talkError && !error) {
      var bringTalk = function () {
        talkError.scrollIntoView({ block: "center" });
        if (talkBox) talkBox.focus({ preventScroll: true });
      };
      bringTalk();
      window.addEventListener("load", function () { window.setTimeout(bringTalk, 0); });
    }
    if (window.history && window.history.replaceState && /[?&](moved|resigned|said|new_link|claim_sent)=/.test(window.location.search)) {
      var kept = /(^\?|&)log=all(&|$)/.test(window.location.search) ? "?log=all" : "";
      window.history.replaceState(null, "", window.location.pathname + kept + window.location.hash);
    }
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
  answerInView();
  orders();
  pointing();
  handCards();
  zoom();
  live();
  replayKeys();
})();
