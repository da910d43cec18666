// Despatch's independent verifier, in plain JavaScript, for the browser (and node, for tests).
// It implements DESIGN.md's wire formats from their text, not from the server's code:
//   - RFC 8785 canonical JSON; event hash = SHA-256 of the canonical JSON of the event without
//     "hash"; prev_hash links every event to the one before (64 zeros for event 0);
//   - the public dice chain: s_{i-1} = SHA-256(s_i) on the raw 32 bytes, back to s0 committed in
//     GameCreated (or in the event that starts a new chain);
//   - the dice stream: blocks HMAC-SHA256(key = s_k, "{game_id}:{seq}:{seat}:{client_entropy}:{j}")
//     read as big-endian u32s; a die with n sides skips values >= floor(2^32/n)*n, face = 1 + v mod n;
//   - sealed choices: commitment = SHA-256(salt bytes ‖ UTF-8 canonical JSON of the choice);
//   - the hidden seed in the final event hashes to the commitment in GameCreated.
// Cryptography is the platform's Web Crypto (crypto.subtle); nothing is sent anywhere.
(function (root) {
  "use strict";

  var subtle = (root.crypto && root.crypto.subtle) || null;
  var MAX_BYTES = 16 * 1024 * 1024;
  var ZEROS = "0000000000000000000000000000000000000000000000000000000000000000";

  function utf8(text) { return new TextEncoder().encode(text); }
  function toHex(buf) {
    var b = new Uint8Array(buf), s = "";
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? "0" : "") + b[i].toString(16);
    return s;
  }
  function fromHex(hex) {
    if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) return null;
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }
  function concat(a, b) { var o = new Uint8Array(a.length + b.length); o.set(a, 0); o.set(b, a.length); return o; }

  // RFC 8785: ECMAScript number and string serialisation, object members sorted by their
  // UTF-16 code units (the default sort of JavaScript strings), no whitespace.
  function canonical(value) {
    if (value === null || typeof value === "boolean") return JSON.stringify(value);
    if (typeof value === "number") {
      if (!isFinite(value)) throw new Error("canonical JSON has no NaN or Infinity");
      return JSON.stringify(value);
    }
    if (typeof value === "string") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) {
        return JSON.stringify(k) + ":" + canonical(value[k]);
      }).join(",") + "}";
    }
    throw new Error("not a JSON value");
  }

  function sha256(bytes) { return subtle.digest("SHA-256", bytes).then(toHex); }
  function sha256Text(text) { return sha256(utf8(text)); }
  function hmac(keyBytes, text) {
    return subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then(function (key) { return subtle.sign("HMAC", key, utf8(text)); })
      .then(function (sig) { return new Uint8Array(sig); });
  }

  // The faces of one rolling event, by DESIGN.md's rejection sampling.
  async function faces(linkHex, gameId, seq, seat, entropy, sides) {
    var key = fromHex(linkHex);
    if (!key || key.length !== 32) throw new Error("the dice link is not 32 bytes of hex");
    var block = null, pos = 8, j = 0, out = [];
    async function next() {
      if (pos === 8) {
        block = await hmac(key, gameId + ":" + seq + ":" + seat + ":" + entropy + ":" + j);
        j++; pos = 0;
      }
      var v = ((block[pos * 4] << 24) >>> 0) + (block[pos * 4 + 1] << 16) + (block[pos * 4 + 2] << 8) + block[pos * 4 + 3];
      pos++;
      return v;
    }
    for (var i = 0; i < sides.length; i++) {
      var n = sides[i];
      if (!(n >= 1)) throw new Error("a die has at least one side");
      var limit = Math.floor(4294967296 / n) * n;
      var v = await next();
      while (v >= limit) v = await next();
      out.push(1 + (v % n));
    }
    return out;
  }

  function sealedCommitment(choice, saltHex) {
    var salt = fromHex(saltHex);
    if (!salt) return Promise.reject(new Error("the salt is not hex"));
    return sha256(concat(salt, utf8(canonical(choice))));
  }

  // What the header claims, against the events (as `despatch verify` checks it): the format's
  // version, the ruleset and its version, and completeness. A complete log ends with GameEnded,
  // which reveals the hidden seed and records the final state hash; a log that says the game
  // still runs holds no GameEnded.
  function checkClaims(header, first, last, find) {
    if (header.version !== 1) find(0, "the header is version " + header.version + " of the export format; this verifier reads version 1");
    if (!first || !last) return;
    var created = first.payload || {};
    if (header.ruleset !== created.ruleset) find(0, "the header says " + header.ruleset + " but GameCreated says " + created.ruleset);
    if (header.ruleset_version !== created.ruleset_version) find(0, "the header says ruleset version " + header.ruleset_version + " but GameCreated says " + created.ruleset_version);
    var ended = last.kind === "GameEnded", end = last.payload || {};
    if (header.complete !== true) {
      if (ended) find(last.seq, "the header says the game is still running (complete: false), but the log ends with GameEnded");
      return;
    }
    if (!ended) {
      find(last.seq + 1, "the header says the log is complete, but it ends at seq " + last.seq + " (" + last.kind + ") without GameEnded: events are missing from seq " + (last.seq + 1) + " on, or the game is still running");
      return;
    }
    if (header.redacted_for) find(0, "the header says the log is complete, yet redacted for " + header.redacted_for);
    if (typeof end.state_hash !== "string") find(last.seq, "GameEnded records no final state hash");
  }

  // Verifies an export (JSON Lines text). Resolves to a report; never throws for a bad file.
  async function verifyExport(text) {
    var report = { ok: false, header: null, events: 0, hashes: 0, rolls: 0, dice_events: 0, reveals: 0, hidden_seed: "not revealed", findings: [] };
    function find(seq, problem) { report.findings.push({ seq: seq, problem: problem }); }
    if (!subtle) { find(null, "this browser has no Web Crypto (crypto.subtle); open the page over https or from localhost"); return report; }
    if (typeof text !== "string" || text.trim() === "") { find(null, "the file is empty"); return report; }
    if (text.length > MAX_BYTES) { find(null, "the file is larger than " + (MAX_BYTES >> 20) + " MB; nothing was checked"); return report; }
    var lines = text.split("\n").filter(function (l) { return l.trim() !== ""; });
    var header;
    try { header = JSON.parse(lines[0]); } catch (e) { find(null, "line 1 is not JSON: " + e.message); return report; }
    if (!header || header.format !== "despatch-log") { find(null, "line 1 is not a Despatch export header (format must be \"despatch-log\")"); return report; }
    report.header = header;
    var chains = {}, sealed = {}, hiddenCommitment = null, prevHash = ZEROS, ended = false;
    var first = null, last = null, endedAt = null;
    for (var i = 1; i < lines.length; i++) {
      var ev, seq = i - 1;  // findings name the position: the seq the event there must have
      try { ev = JSON.parse(lines[i]); } catch (e) { find(seq, "line " + (i + 1) + " is not JSON: " + e.message); continue; }
      report.events++;
      if (first === null) first = ev;
      last = ev;
      if (endedAt !== null) find(seq, "an event follows GameEnded (seq " + endedAt + "): nothing may come after the end of a game");
      if (ev.seq !== seq) find(seq, "the event in position " + seq + " has seq " + ev.seq);
      if (ev.game_id !== header.game_id) find(seq, "the event belongs to game " + ev.game_id + ", not " + header.game_id);
      if (ev.prev_hash !== prevHash) find(seq, "prev_hash is not the hash of the event before it");
      var copy = {};
      Object.keys(ev).forEach(function (k) { if (k !== "hash") copy[k] = ev[k]; });
      var h = await sha256Text(canonical(copy));
      if (h !== ev.hash) find(seq, "the hash does not match the event's contents (recomputed " + h + ")");
      else report.hashes++;
      prevHash = ev.hash;
      var payload = ev.payload || {};
      var commits = payload.dice_commitments;
      if (commits && (ev.kind === "GameCreated" || ev.kind === "DiceChainCommitted")) {
        chains[commits.chain] = { length: commits.length, last: commits.s0, next: 1 };
        if (ev.kind === "GameCreated") hiddenCommitment = commits.hidden || null;
      }
      if (ev.dice) {
        var d = ev.dice, c = chains[d.chain];
        report.dice_events++;
        if (!c) find(seq, "the dice use chain " + d.chain + ", which was never committed");
        else {
          if (d.index !== c.next) find(seq, "the dice use link " + d.index + " of chain " + d.chain + " but the next link is " + c.next);
          if (d.index > c.length) find(seq, "link " + d.index + " is beyond the chain's length " + c.length);
          var key = fromHex(d.link);
          if (!key || key.length !== 32) find(seq, "the dice link is not 32 bytes of hex");
          else {
            var up = await sha256(key);
            if (up !== c.last) find(seq, "SHA-256 of link s" + d.index + " is not the link published before it");
            var rolls = d.rolls || [];
            var got = await faces(d.link, ev.game_id, ev.seq, ev.seat, d.client_entropy, rolls.map(function (r) { return r.sides; }));
            var recorded = rolls.map(function (r) { return r.face; });
            if (got.join(",") !== recorded.join(",")) find(seq, "the dice faces are " + recorded.join(" ") + " but the HMAC stream gives " + got.join(" "));
            else report.rolls += rolls.length;
          }
          c.last = d.link; c.next = d.index + 1;
        }
      }
      if (ev.kind === "Command" && typeof payload.commitment === "string") sealed[payload.commitment] = seq;
      if (ev.kind === "Revealed") {
        if (!(payload.commitment in sealed)) find(seq, "the reveal opens commitment " + payload.commitment + ", which was never sealed or is already open");
        else {
          var opened = await sealedCommitment(payload.choice, payload.salt).catch(function () { return null; });
          if (opened !== payload.commitment) find(seq, "the revealed choice and salt do not hash to the commitment");
          else report.reveals++;
          delete sealed[payload.commitment];
        }
      }
      if (ev.kind === "GameEnded") {
        ended = true;
        if (endedAt === null) endedAt = seq;
        if (typeof payload.hidden_seed === "string") {
          var seed = fromHex(payload.hidden_seed);
          var hs = seed ? await sha256(seed) : null;
          if (hs !== hiddenCommitment) { find(seq, "the revealed hidden seed does not hash to its commitment in GameCreated"); report.hidden_seed = "does not match"; }
          else report.hidden_seed = "matches its commitment";
        } else if (hiddenCommitment) {
          find(seq, "the final event does not reveal the hidden seed committed in GameCreated");
        }
      }
    }
    if (report.events === 0) find(null, "the export has no events");
    if (header.events !== report.events) find(Math.min(report.events, typeof header.events === "number" ? header.events : 0), "the header lists " + header.events + " events but the file holds " + report.events + ": the export is truncated or padded");
    checkClaims(header, first, last, find);
    report.complete = ended;
    report.ok = report.findings.length === 0;
    return report;
  }

  // Runs DESIGN.md's test vectors (tests/data/wire-formats.json); resolves to a list of failures.
  async function checkVectors(v) {
    var fails = [];
    function eq(what, a, b) { if (a !== b) fails.push(what + ": got " + a + ", expected " + b); }
    for (var i = 0; i < v.canonical_json.length; i++) {
      var c = v.canonical_json[i], s = canonical(c.value);
      eq("canonical_json[" + i + "]", s, c.canonical);
      eq("canonical_json[" + i + "].sha256", await sha256Text(s), c.sha256);
    }
    var links = v.hash_chain.links_s0_to_s5, link = v.hash_chain.tip_s5;
    for (var k = links.length - 1; k >= 0; k--) {
      eq("hash_chain s" + k, link, links[k]);
      link = await sha256(fromHex(link));
    }
    for (var j = 0; j < v.dice.length; j++) {
      var d = v.dice[j];
      var got = await faces(d.key_link, d.game_id, d.seq, d.seat, d.client_entropy, d.sides);
      eq("dice[" + j + "].faces", got.join(","), d.faces.join(","));
      var msg = d.game_id + ":" + d.seq + ":" + d.seat + ":" + d.client_entropy + ":0";
      eq("dice[" + j + "].first_block_msg", msg, d.first_block_msg);
      eq("dice[" + j + "].first_block_hex", toHex(await hmac(fromHex(d.key_link), msg)), d.first_block_hex);
    }
    for (var m = 0; m < v.sealed.length; m++) {
      var sc = v.sealed[m];
      eq("sealed[" + m + "]", await sealedCommitment(sc.choice, sc.salt), sc.commitment);
    }
    var e = v.event_hash;
    eq("event_hash.canonical", canonical(e.event_without_hash), e.canonical);
    if (e.hash) eq("event_hash.hash", await sha256Text(canonical(e.event_without_hash)), e.hash);
    return fails;
  }

  var api = { canonical: canonical, faces: faces, sealedCommitment: sealedCommitment, verifyExport: verifyExport, checkVectors: checkVectors, MAX_BYTES: MAX_BYTES };
  root.DespatchVerify = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;

  // The verify page.
  if (typeof document === "undefined") return;
  document.documentElement.classList.add("has-js");
  function el(tag, text, cls) { var e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; }
  function show(report) {
    var section = document.getElementById("result"), body = document.getElementById("result-body");
    body.innerHTML = "";
    var verdict = el("p", report.ok ? "✔ The export checks out (checked in your browser)" : "✘ The export does not check out (checked in your browser)", "check " + (report.ok ? "ok" : "bad"));
    verdict.id = "verdict";
    body.appendChild(verdict);
    if (report.header) {
      var facts = el("ul");
      facts.id = "verify-facts";
      [
        "Game " + report.header.game_id + " (" + report.header.ruleset + " " + report.header.ruleset_version + "), " + (report.complete ? "complete" : "running — exported redacted" + (report.header.redacted_for ? " for " + report.header.redacted_for : "")),
        report.events + " events; " + report.hashes + " hashes recomputed and chained",
        report.rolls + " dice recomputed in " + report.dice_events + " rolling events",
        report.reveals + " sealed choices opened",
        "Hidden seed: " + report.hidden_seed
      ].forEach(function (t) { facts.appendChild(el("li", t)); });
      body.appendChild(facts);
    }
    if (report.findings.length) {
      var list = el("ul", null, "findings");
      report.findings.forEach(function (f) { list.appendChild(el("li", (f.seq === null || f.seq === undefined ? "" : "Event " + f.seq + ": ") + f.problem)); });
      body.appendChild(list);
    }
    section.hidden = false;
    section.setAttribute("data-state", report.ok ? "ok" : "bad");
  }
  function run(text) {
    document.getElementById("result").setAttribute("data-state", "running");
    verifyExport(text).then(show, function (e) { show({ ok: false, header: null, findings: [{ seq: null, problem: "the verifier failed: " + e.message }] }); });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("verify-form");
    if (!form) return;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var file = document.getElementById("export-file").files[0];
      if (file) {
        if (file.size > MAX_BYTES) {
          show({ ok: false, header: null, findings: [{ seq: null, problem: "the file is " + (file.size / 1048576).toFixed(1) + " MB; the verifier reads files up to " + (MAX_BYTES >> 20) + " MB. Nothing was checked." }] });
          return;
        }
        file.text().then(run);
      } else {
        run(document.getElementById("export-text").value);
      }
    });
  });
})(typeof globalThis !== "undefined" ? globalThis : this);
