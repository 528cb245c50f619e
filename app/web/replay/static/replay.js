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

  // Nothing the server sends is ever parsed as HTML here (no innerHTML): text goes in through textContent,
  // and a map picture is parsed as XML and keeps only the elements and attributes a map is drawn with, so
  // even a picture that escaped the server's escaping could carry no script (issue 12).
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SVG_TAGS = new Set(["svg", "g", "title", "rect", "polygon", "polyline", "line", "circle", "text"]);
  const SVG_ATTRS = new Set(["viewBox", "width", "height", "class", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy",
    "r", "rx", "points", "fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
    "stroke-linejoin", "opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor",
    "transform"]);

  function cleanSvg(source) {         // a detached copy of the SVG's drawing, built element by element
    const doc = new DOMParser().parseFromString(source, "image/svg+xml");
    const root = doc.documentElement;
    if (root.namespaceURI !== SVG_NS || root.localName !== "svg") throw new Error("not a map picture");
    function copy(node) {
      if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
      if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== SVG_NS || !SVG_TAGS.has(node.localName)) {
        return null;
      }
      const out = document.createElementNS(SVG_NS, node.localName);
      for (const a of node.attributes) {
        if (!a.namespaceURI && (SVG_ATTRS.has(a.name) || /^data-[a-z-]+$/.test(a.name))) {
          out.setAttribute(a.name, a.value);
        }
      }
      for (const child of node.childNodes) {
        const c = copy(child);
        if (c) out.appendChild(c);
      }
      return out;
    }
    return copy(root);
  }

  function message(box, words) {      // a line of text in place of the map
    const p = document.createElement("p");
    p.className = "empty";
    p.textContent = words;
    box.replaceChildren(p);
  }

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

  async function svgAt(seq) {
    if (!svgCache.has(seq)) {
      svgCache.set(seq, fetch(url("map/" + seq + ".svg")).then((r) => {
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

  // A big map (SNC's 39x25 hexes) shrunk to the column would leave counters unreadable: keep such a map at a
  // readable scale in a scrolling box instead, and bring the attacked hex into view.
  const READABLE = 0.7;
  function fitMap() {
    const box = $("map"), svg = box.querySelector("svg");
    if (!svg || !svg.viewBox.baseVal) return;
    const w = svg.viewBox.baseVal.width, h = svg.viewBox.baseVal.height;
    const large = w * READABLE > box.clientWidth * 1.2;
    box.classList.toggle("scroll", large);
    if (large) { svg.style.width = (w * READABLE) + "px"; svg.style.height = (h * READABLE) + "px"; }
  }

  function centreOn(el) {
    const box = $("map");
    if (!el || !box.classList.contains("scroll")) return;
    const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    box.scrollLeft += (r.left + r.width / 2) - (b.left + b.width / 2);
    box.scrollTop += (r.top + r.height / 2) - (b.top + b.height / 2);
  }

  function markCombat(c) {            // outline the attacked hex and the attacking counters on the map
    const svg = $("map").querySelector("svg");
    if (!svg || !c) return;
    const hex = svg.querySelector('.terrain polygon[data-hex="' + CSS.escape(String(c.hex)) + '"]');
    if (hex) {
      const ring = hex.cloneNode(false);
      ring.setAttribute("class", "combat-target");
      ring.setAttribute("fill", "none");
      svg.appendChild(ring);
      centreOn(ring);
    }
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
      try {
        const svg = await svgAt(f.seq);
        if (wanted === f.seq) {
          $("map").replaceChildren(cleanSvg(svg));
          fitMap();
          markCombat(f.combat);
          document.body.dataset.mapSeq = f.seq;
        }
        // prefetch the next frame's map (not seq + 1: a run of events hidden from this viewer is one frame)
        if (index + 1 < frames.length) svgAt(frames[index + 1].seq).catch(() => {});
      } catch (err) {
        if (wanted === f.seq) message($("map"), "map unavailable: " + err.message);
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
    const r = await fetch(url("analysis.json"));
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
    const rows = [row(["side", "attacks", "luck score", "± sd", "z"], true)];
    for (const s of a.sides) {
      const l = a.luck[s];
      rows.push(row([s, l.attacks, l.score.toFixed(2), l.sd.toFixed(2), l.z.toFixed(2)], false));
    }
    $("luck").replaceChildren(...rows);
    const charts = ["losses", "odds", "luck"].concat(a.control ? ["control"] : []);
    $("charts").replaceChildren(...charts.map((name) => {
      const img = document.createElement("img");
      img.alt = name + " chart";
      img.src = url("charts/" + name + ".svg");
      return img;
    }));
  }

  document.addEventListener("keydown", (e) => {
    if (!frames.length || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const map = {
      ArrowRight: e.shiftKey ? "next-phase" : "next", ArrowLeft: e.shiftKey ? "prev-phase" : "prev",
      ArrowDown: "next-turn", ArrowUp: "prev-turn", Home: "first", End: "last",
    };
    const where = map[e.key];
    if (where) { e.preventDefault(); go(where); }
  });

  for (const b of document.querySelectorAll("[data-go]")) b.addEventListener("click", () => go(b.dataset.go));
  $("slider").addEventListener("input", (e) => show(Number(e.target.value) - 1));

  fetch(url("frames.json")).then((r) => {
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
