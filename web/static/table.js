// The web table: one game's boards, moves and dice, from {base}/game.json, live over {base}/events.
// Everything from the server is shown with textContent only (a name may be any text).
"use strict";

(() => {
  const base = location.pathname.replace(/\/+$/, "");
  const $ = (id) => document.getElementById(id);
  const el = {
    title: $("title"), status: $("status"), live: $("live"), players: $("players"),
    fairness: $("fairness"), commitment: $("commitment"), entropy: $("entropy"), error: $("error"),
    boardSection: $("board-section"), board: $("board"), caption: $("caption"),
    first: $("first"), back: $("back"), forward: $("forward"), last: $("last"), slider: $("slider"),
    movesSection: $("moves-section"), moves: $("moves"), noMoves: $("no-moves"),
    dice: $("dice"), check: $("check"), diceResult: $("dice-result"),
  };

  let game = null; // the last game.json
  let at = 0; // the position shown
  let items = []; // the move list's <li>, items[n - 1] for move n

  function make(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function names(list) {
    if (list.length <= 1) return list.join("");
    return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
  }

  // --- the header ---------------------------------------------------------------------------

  function until(deadline) {
    const ms = deadline.getTime() - Date.now();
    if (ms <= 0) return "due now";
    const min = Math.floor(ms / 60000);
    if (min < 1) return "in under a minute";
    if (min < 60) return `in ${min} min`;
    const h = Math.floor(min / 60);
    if (h < 48) return `in ${h} h`;
    return `in ${Math.floor(h / 24)} days`;
  }

  function localTime(date) {
    const today = new Date();
    const sameDay = date.toDateString() === today.toDateString();
    const how = sameDay ? { hour: "2-digit", minute: "2-digit" }
      : { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
    return new Intl.DateTimeFormat(undefined, how).format(date);
  }

  function statusLine(g) {
    if (g.status === "finished") {
      const w = g.winners || [];
      if (!w.length) return "Game over: no one wins.";
      return `Game over: ${names(w)} ${w.length === 1 ? "wins" : "win"}.`;
    }
    if (g.status === "aborted") return "The game was stopped before its end.";
    if (g.status === "lobby") return "The table is open: waiting for players.";
    const parts = [];
    if (g.to_act && g.to_act.length) parts.push(`${names(g.to_act)} to act`);
    const clock = g.clock;
    if (clock && clock.paused) parts.push("the clock is paused");
    else if (clock && clock.deadline) {
      const d = new Date(clock.deadline);
      if (!Number.isNaN(d.getTime())) parts.push(`clock runs out at ${localTime(d)} (${until(d)})`);
    }
    return parts.length ? parts.join(" · ") : "The game is running.";
  }

  function renderHeader(g) {
    el.title.textContent = g.title || "Tablehost game";
    document.title = `${g.title || "Game"} · Tablehost`;
    el.status.textContent = statusLine(g);
    const acting = new Set(g.to_act || []);
    const winners = new Set(g.winners || []);
    el.players.replaceChildren(...(g.players || []).map((p) => {
      const li = make("li", undefined, "player");
      li.append(make("span", p.name, "name"));
      if (p.bot) li.append(make("span", "bot", "tag"));
      if (g.status === "running" && acting.has(p.name)) li.append(make("span", "to act", "tag act"));
      if (g.status === "finished" && winners.has(p.name)) li.append(make("span", "winner", "tag win"));
      return li;
    }));
    el.commitment.textContent = g.commitment || "";
    el.entropy.textContent = g.entropy || "not yet fixed (it is when the game starts)";
    el.fairness.hidden = !g.commitment;
    el.dice.hidden = !g.dice;
  }

  // --- the board and the move list ----------------------------------------------------------

  function renderMoves(g) {
    items = (g.moves || []).map((m) => {
      const li = make("li", undefined, "move");
      const link = make("a", `${m.player}: ${m.move}`);
      link.href = `#m=${m.n}`;
      link.addEventListener("click", (e) => { e.preventDefault(); go(m.n); });
      li.append(link);
      if (m.events && m.events.length) {
        const ul = make("ul", undefined, "events");
        ul.append(...m.events.map((line) => make("li", line)));
        li.append(ul);
      }
      return li;
    });
    el.moves.replaceChildren(...items);
    el.noMoves.hidden = items.length > 0;
  }

  function keepInView(li) {
    const box = el.moves; // scrolls by itself (a page scroll would jump away from the board)
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }

  function go(n) {
    if (!game) return;
    const count = game.count;
    at = Math.max(0, Math.min(count, Math.trunc(Number(n)) || 0));
    const pos = game.positions[at] || { caption: "", alt: "" };
    const src = `${base}/board/${at}.png`;
    if (el.board.getAttribute("src") !== src) el.board.src = src;
    el.board.alt = pos.alt || `The board at move ${at}`;
    el.caption.textContent = `Move ${at} of ${count}` + (pos.caption ? ` · ${pos.caption}` : "");
    el.slider.max = String(count);
    el.slider.value = String(at);
    el.slider.setAttribute("aria-valuetext", `Move ${at} of ${count}`);
    for (const [button, off] of [[el.first, at === 0], [el.back, at === 0],
      [el.forward, at === count], [el.last, at === count]]) {
      button.setAttribute("aria-disabled", String(off));
    }
    items.forEach((li, i) => {
      const current = i + 1 === at;
      li.classList.toggle("current", current);
      if (current) li.firstChild.setAttribute("aria-current", "step");
      else li.firstChild.removeAttribute("aria-current");
    });
    if (at > 0 && items[at - 1]) keepInView(items[at - 1]);
    const hash = `#m=${at}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function fromHash() {
    const m = /^#m=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }

  // --- loading and live ---------------------------------------------------------------------

  function show(g) {
    const first = game === null;
    const wasLast = !first && at === game.count;
    game = g;
    renderHeader(g);
    renderMoves(g);
    el.boardSection.hidden = false;
    el.movesSection.hidden = false;
    el.error.hidden = true;
    if (first) {
      const wanted = fromHash();
      go(wanted === null ? g.count : wanted);
    } else {
      go(wasLast ? g.count : at);
    }
  }

  async function fetchGame() {
    const response = await fetch(`${base}/game.json`, { cache: "no-store" });
    if (!response.ok) throw new Error(`game.json: ${response.status}`);
    const g = await response.json();
    if (!g || !Array.isArray(g.positions) || !Number.isInteger(g.count)) throw new Error("game.json: bad shape");
    return g;
  }

  let loading = null, again = false;
  async function refresh() {
    if (loading) { again = true; return loading; }
    loading = (async () => {
      do {
        again = false;
        try {
          show(await fetchGame());
        } catch (err) {
          if (game === null) fail();
          else setLive("offline", "Could not refresh: showing what was loaded");
        }
      } while (again);
      loading = null;
    })();
    return loading;
  }

  function fail() {
    el.error.textContent = "This game could not be loaded.";
    el.error.hidden = false;
    el.status.textContent = "";
    el.boardSection.hidden = true;
    el.movesSection.hidden = true;
  }

  function setLive(state, text) {
    el.live.hidden = false;
    el.live.className = `live ${state}`;
    el.live.textContent = text;
  }

  function listen() {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`${base}/events`);
    let opened = false;
    source.addEventListener("open", () => {
      setLive("on", "live");
      if (opened) refresh(); // a change may have come while we were away
      opened = true;
    });
    source.addEventListener("error", () => {
      setLive("off", source.readyState === EventSource.CLOSED ? "not live" : "reconnecting…");
    });
    source.addEventListener("change", (e) => {
      let v = null;
      try { v = JSON.parse(e.data).version; } catch (_) { v = null; }
      if (game && typeof v === "number" && v <= game.version) return;
      refresh();
    });
  }

  // --- stepping -----------------------------------------------------------------------------

  function wire() {
    el.first.addEventListener("click", () => go(0));
    el.back.addEventListener("click", () => go(at - 1));
    el.forward.addEventListener("click", () => go(at + 1));
    el.last.addEventListener("click", () => game && go(game.count));
    el.slider.addEventListener("input", () => go(el.slider.value));
    el.check.addEventListener("click", checkDice);
    window.addEventListener("hashchange", () => { const n = fromHash(); if (n !== null && n !== at) go(n); });
    document.addEventListener("keydown", (e) => {
      if (!game || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const t = e.target;
      if (t && (t.isContentEditable || t === el.slider || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: game.count }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    });
    setInterval(() => { if (game) el.status.textContent = statusLine(game); }, 30000);
  }

  // --- the dice (mirrors tools/check_draws.py) ----------------------------------------------

  const SPACE = 1n << 256n;
  const CHUNK = 256;
  const utf8 = new TextEncoder();

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function part(p) {
    const own = typeof p.joined === "string" && p.joined ? p.joined : "-";
    return own + (typeof p.entropy === "string" && p.entropy ? `:${p.entropy}` : "");
  }

  // A whole number past 2**53 (a range can be up to 2**256) is read exactly, as a BigInt, where the browser
  // shows a reviver the number's source text; elsewhere it stays an inexact Number and the list is refused.
  function exact(key, value, context) {
    if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
    const source = context && context.source;
    return typeof source === "string" && /^-?\d+$/.test(source) ? BigInt(source) : value;
  }

  const whole = (x) => Number.isSafeInteger(x) || typeof x === "bigint";

  function validDraws(draws) {
    return Array.isArray(draws) && draws.every((d) => Array.isArray(d) && d.length === 3
      && Number.isSafeInteger(d[0]) && whole(d[1]) && whole(d[2]));
  }

  async function drawChecker(seed, entropy) {
    const key = await crypto.subtle.importKey("raw", utf8.encode(seed), { name: "HMAC", hash: "SHA-256" },
      false, ["sign"]);
    const cache = new Map();
    const hash = (n) => {
      if (!cache.has(n)) {
        cache.set(n, crypto.subtle.sign("HMAC", key, utf8.encode(`${entropy}:${n}`))
          .then((mac) => BigInt(`0x${hex(mac)}`)));
      }
      return cache.get(n);
    };
    return { hash, forget: (n) => cache.delete(n) };
  }

  // Returns null when every draw holds, else the sentence for the first that does not.
  async function firstMismatch(seed, entropy, draws) {
    const { hash, forget } = await drawChecker(seed, entropy);
    let last = 0;
    for (let i = 0; i < draws.length; i += CHUNK) {
      const chunk = draws.slice(i, i + CHUNK);
      const wanted = []; // this chunk's numbers and the first skipped before each, computed at once
      let prev = last;
      for (const [number] of chunk) {
        if (number > prev + 1) wanted.push(prev + 1);
        if (number > prev) wanted.push(number);
        prev = Math.max(prev, number);
      }
      await Promise.all(wanted.map(hash));
      for (const [number, r, value] of chunk) {
        const head = `Draw ${number} does not match`;
        const range = BigInt(r), v = BigInt(value);
        if (range < 1n) return `${head}: its range ${r} is less than 1.`;
        if (v < 0n || v >= range) return `${head}: the list says ${value}, which is not from 0 to ${range - 1n}.`;
        if (number <= last) return `${head}: it comes after draw ${last}, not before it.`;
        const limit = SPACE - (SPACE % range); // h >= limit is rejected
        for (let skipped = last + 1; skipped < number; skipped++) {
          if ((await hash(skipped)) < limit) {
            return `${head}: the list skips draw ${skipped}, but the seed gives no rejection there.`;
          }
          forget(skipped);
        }
        const h = await hash(number);
        forget(number);
        if (h >= limit) return `${head}: the seed gives a rejection there (no value), but the list has ${value}.`;
        const got = h % range;
        if (got !== v) return `${head}: the list says ${value}, the seed gives ${got}.`;
        last = number;
      }
    }
    return null;
  }

  function diceLines(lines) {
    el.diceResult.replaceChildren(...lines.map(([ok, text]) => make("p", text, ok ? "ok" : "bad")));
  }

  async function checkDice() {
    if (el.check.disabled) return;
    el.check.disabled = true;
    el.diceResult.replaceChildren(make("p", "Checking the dice…", "quiet"));
    try {
      diceLines(await diceReport());
    } catch (err) {
      diceLines([[false, "The dice list could not be loaded."]]);
    } finally {
      el.check.disabled = false;
    }
  }

  async function diceReport() {
    if (!(window.crypto && crypto.subtle)) {
      return [[false, "This browser cannot check the dice on this page (its WebCrypto needs an https:// address). "
        + "The game's export can be checked with tools/check_draws.py."]];
    }
    const response = await fetch(`${base}/dice.json`, { cache: "no-store" });
    if (!response.ok) throw new Error(`dice.json: ${response.status}`);
    const d = JSON.parse(await response.text(), exact);
    const seed = d && d.server_seed;
    if (d.scheme !== "hmac-sha256" || typeof seed !== "string" || !/^[0-9a-f]{64}$/.test(seed)
      || typeof d.entropy !== "string" || !Array.isArray(d.players) || !validDraws(d.draws)) {
      return [[false, "The dice list could not be read: it is not a list of keyed draws."]];
    }
    const lines = [];
    const digest = hex(await crypto.subtle.digest("SHA-256", utf8.encode(seed)));
    const posted = (game && game.commitment) || d.commitment;
    lines.push(digest === posted && digest === d.commitment
      ? [true, "The seed matches the commitment posted before anyone joined."]
      : [false, `The seed does not match the commitment: its SHA-256 is ${digest}, the posted one ${posted}.`]);
    const parts = d.players.map(part).join("|");
    lines.push(parts === d.entropy
      ? [true, "The entropy is the players' join ids and words, in seat order."]
      : [false, `The entropy does not match the players: their parts give “${parts}”, the list says “${d.entropy}”.`]);
    const wrong = await firstMismatch(seed, d.entropy, d.draws);
    const n = d.draws.length;
    lines.push(wrong === null ? [true, `All ${n} ${n === 1 ? "draw matches" : "draws match"}.`] : [false, wrong]);
    return lines;
  }

  // --- start --------------------------------------------------------------------------------

  wire();
  refresh().then(() => { if (game) listen(); });
})();
