// Hexledger replay viewer: vanilla JS, no build step, no network beyond this server.
"use strict";
(function () {
  const base = document.body.dataset.base;          // ".../replay/<game>/"
  const query = window.location.search;             // forwarded to every endpoint (?as=SIDE, local use)
  const $ = (id) => document.getElementById(id);
  const svgCache = new Map();
  let data = null, frames = [], index = 0, wanted = 0, pending = null;

  function url(path) { return base + path + query; }

  function text(el, value) { el.textContent = value === undefined || value === null ? "" : String(value); }

  // the map, its camera and the user's moves of it (map.js, shared with the play page)
  const map = HexMap.create($("map"));
  const polite = HexMap.polite();
  const message = HexMap.message;

  function start(i, key) {            // first index of the run of frames sharing key(i)
    while (i > 0 && key(i - 1) === key(i)) i--;
    return i;
  }
  const phaseKey = (i) => frames[i].turn + "|" + frames[i].phase;
  const turnKey = (i) => frames[i].turn;

  function target(where) {
    const last = frames.length - 1;
    switch (where) {
      case "first": return 0;
      case "last": return last;
      case "prev": return Math.max(0, index - 1);
      case "next": return Math.min(last, index + 1);
      case "next-phase": case "next-turn": {
        const key = where === "next-phase" ? phaseKey : turnKey;
        let i = index;
        while (i < last && key(i) === key(index)) i++;
        return i;
      }
      case "prev-phase": case "prev-turn": {
        const key = where === "prev-phase" ? phaseKey : turnKey;
        const s = start(index, key);
        return s < index ? s : (s > 0 ? start(s - 1, key) : 0);
      }
    }
    return index;
  }

  function go(where) { show(target(where)); }

  // The server limits the viewer's requests (HEXLEDGER_REPLAY_RATE_LIMIT) and answers 429 with Retry-After when
  // they come too fast (stepping fetches two map pictures a step), or 503 with Retry-After when it is at its
  // limits (replays being built, waiting requests). Then no request of this page goes out before that time; the
  // map box says it is waiting, and a map no longer wanted once the wait is over is not fetched (map.js `polite`).
  const Skipped = HexMap.Skipped;
  function politeFetch(path, waiting, wanted) { return polite.fetch(url(path), undefined, waiting, wanted); }

  function isWanted(seq) {            // the step shown, or the next one (prefetched)
    return seq === wanted || (index + 1 < frames.length && frames[index + 1].seq === seq);
  }

  function mapWaiting(seq) {
    return (ms) => {
      if (wanted === seq && document.body.dataset.mapSeq !== String(seq)) {
        message($("map"), "map: the server asks the viewer to slow down; trying again in " +
          Math.ceil(ms / 1000) + " s");
      }
    };
  }

  async function svgAt(seq) {
    if (!svgCache.has(seq)) {
      svgCache.set(seq, politeFetch("map/" + seq + ".svg", mapWaiting(seq), () => isWanted(seq)).then((r) => {
        if (!r.ok) throw new Error("map " + r.status);
        return r.text();
      }).catch((err) => { svgCache.delete(seq); throw err; }));   // a failure is not kept: try again next time
    }
    return svgCache.get(seq);
  }

  function renderCombat(c) {
    const box = $("combat");
    if (!c) { box.hidden = true; return; }
    box.hidden = false;
    text($("combat-case"), c.case ? "(" + c.case + ")" : "");
    text($("combat-attacker"), c.attacker + (c.attackers ? " — " + c.attackers.join(", ") : ""));
    text($("combat-hex"), (c.hex || "") + (c.defender ? " (" + c.defender + ")" : ""));
    text($("combat-strengths"), c.attack + " : " + c.defence);
    text($("combat-odds"), c.odds);
    $("combat-column-row").hidden = !c.column;  // rules whose odds are shifted name the final column too
    text($("combat-column"), c.column);
    text($("combat-shifts"), (c.shifts && c.shifts.length)
      ? c.shifts.map((s) => (s.amount > 0 ? "+" : "") + s.amount + " (" + s.case + ")").join(", ") : "none");
    text($("combat-roll"), c.roll);
    text($("combat-result"), c.result);
    text($("combat-losses"), Object.entries(c.losses || {}).map(([s, n]) => s + " " + n).join(", "));
    const dist = $("combat-dist");
    dist.replaceChildren();
    for (const d of c.distribution || []) {
      const span = document.createElement("span");
      span.textContent = d.roll + ": " + d.result;
      if (d.roll === c.roll) span.className = "rolled";
      dist.appendChild(span);
    }
  }

  // -- the camera (map.js; docs/replay.md, "Following the action") -----------------------------------------
  // Each step brings the hexes it is about (the frame's `focus`) on screen; a step about no hex keeps the view,
  // and the first picture shows the nearest step that is about some hex.
  function nearestFocus(i) {          // a step about no hex (an end, a hidden run): the nearest step about some
    for (let j = i; j < frames.length; j++) if (frames[j].focus && frames[j].focus.length) return frames[j].focus;
    for (let j = i - 1; j >= 0; j--) if (frames[j].focus && frames[j].focus.length) return frames[j].focus;
    return null;
  }

  function follow(f, force) { map.follow(f.focus, force, () => nearestFocus(index)); }
  map.onAction(() => { if (frames.length) follow(frames[index], true); });

  function markCombat(c) {            // outline the attacked hex and the attacking counters on the map
    const svg = map.svg();
    if (!svg) return;
    // the counters of the step before may be the same ones, kept on screen (map.js `draw`): unmarked first
    for (const counter of svg.querySelectorAll(".counter.attacker")) counter.classList.remove("attacker");
    if (!c) return;
    map.ring([c.hex], "combat-target");   // under the counters: it covers none of them
    for (const id of c.attackers || []) {
      const counter = svg.querySelector('.counter[data-unit="' + CSS.escape(String(id)) + '"]');
      if (counter) counter.classList.add("attacker");
    }
  }

  async function show(i) {
    if (!frames.length) return;
    index = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[index];
    text($("turn-label"), f.phase);
    text($("event-seq"), f.first_seq && f.first_seq !== f.seq ? "#" + f.first_seq + "–" + f.seq : "#" + f.seq);
    text($("event-text"), f.text);
    text($("counter"), "event " + f.seq + " / " + frames[frames.length - 1].seq +
      (f.turn !== null ? " · turn " + f.turn : ""));
    $("slider").value = index + 1;
    renderCombat(f.combat);
    document.body.dataset.seq = f.seq;
    const items = $("history").children;
    for (const li of $("history").querySelectorAll("li.current")) li.classList.remove("current");
    const li = items[index];
    if (li) { li.classList.add("current"); li.scrollIntoView({ block: "nearest" }); }
    if (data.panels.map) {
      wanted = f.seq;
      clearTimeout(pending);
      // a key held down steps many frames a second: fetch a map not yet loaded only once the steps pause
      if (!svgCache.has(f.seq)) await new Promise((done) => { pending = setTimeout(done, 60); });
      if (wanted !== f.seq) return;
      if (Date.now() < polite.calmAt) mapWaiting(f.seq)(polite.calmAt - Date.now());   // its request waits: say so now
      try {
        const svg = await svgAt(f.seq);
        if (wanted === f.seq) {
          map.draw(svg);
          map.ring(f.focus, "focus-hex");   // a thin ring on each hex this step is about, under the counters
          markCombat(f.combat);
          follow(f, false);
          document.body.dataset.mapSeq = f.seq;
        }
        // prefetch the next frame's map (not seq + 1: a run of events hidden from this viewer is one frame)
        if (index + 1 < frames.length) svgAt(frames[index + 1].seq).catch(() => {});
      } catch (err) {
        if (wanted === f.seq && !(err instanceof Skipped)) message($("map"), "map unavailable: " + err.message);
      }
    }
  }

  function buildHistory() {
    const ol = $("history");
    frames.forEach((f, i) => {
      const li = document.createElement("li");
      li.value = f.seq;
      li.textContent = f.text;
      if (f.combat) li.classList.add("combat");
      if (f.hidden) li.classList.add("hidden");
      li.addEventListener("click", () => show(i));
      ol.appendChild(li);
    });
  }

  async function loadAnalysis() {
    const r = await politeFetch("analysis.json", () => {}, () => true);
    if (!r.ok) return;
    const a = await r.json();
    function row(cells, first) {      // one table row: the first cell a header, the others data (as text)
      const tr = document.createElement("tr");
      cells.forEach((value, i) => {
        const cell = document.createElement(i === 0 || first ? "th" : "td");
        text(cell, value);
        tr.appendChild(cell);
      });
      return tr;
    }
    const rows = [row(["side", "attacks", "luck score", "± sd", "z", "results expected", "obtained"], true)];
    for (const s of a.sides) {
      const l = a.luck[s];
      rows.push(row([s, l.attacks, l.score.toFixed(2), l.sd.toFixed(2), l.z.toFixed(2), l.expected.toFixed(2),
                     l.obtained.toFixed(2)], false));
    }
    $("luck").replaceChildren(...rows);
    // the charts the server lists, in its order (the game's own measure of victory first); a chart with nothing
    // to show yet is a line saying why instead of an empty picture
    $("charts").replaceChildren(...a.charts.map((c) => {
      const figure = document.createElement("figure");
      figure.dataset.chart = c.name;
      if (c.why) {
        const p = document.createElement("p");
        p.className = "empty";
        p.textContent = c.title + ": " + c.why;
        figure.classList.add("left-out");
        figure.appendChild(p);
      } else {
        const img = document.createElement("img");
        img.alt = c.title;
        img.src = url("charts/" + c.name + ".svg");
        figure.appendChild(img);
      }
      return figure;
    }));
    document.body.dataset.charts = a.charts.map((c) => c.name).join(" ");
  }

  document.addEventListener("keydown", (e) => {
    if (!frames.length || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const keys = {
      ArrowRight: e.shiftKey ? "next-phase" : "next", ArrowLeft: e.shiftKey ? "prev-phase" : "prev",
      ArrowDown: "next-turn", ArrowUp: "prev-turn", Home: "first", End: "last",
    };
    const where = keys[e.key];
    if (where) { e.preventDefault(); go(where); return; }
    map.key(e);
  });

  for (const b of document.querySelectorAll("[data-view]")) b.addEventListener("click", () => map.view(b.dataset.view));

  for (const b of document.querySelectorAll("[data-go]")) b.addEventListener("click", () => go(b.dataset.go));
  $("slider").addEventListener("input", (e) => show(Number(e.target.value) - 1));

  politeFetch("frames.json", (ms) => message($("map"), "the server asks the viewer to slow down; loading the " +
    "replay in " + Math.ceil(ms / 1000) + " s"), () => true).then((r) => {
    if (!r.ok) throw new Error("frames " + r.status);
    return r.json();
  }).then((d) => {
    data = d;
    frames = d.frames;
    $("slider").max = frames.length;
    if (d.outcome) text($("outcome"), "winner: " + (d.outcome.winner || "none") + " — " + d.outcome.reason);
    if (!d.panels.map) message($("map"), "these rules draw no map");
    buildHistory();
    document.body.dataset.ready = "1";
    show(0);
    loadAnalysis();
  }).catch((err) => { message($("map"), "cannot load the replay: " + err.message); });
})();
