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
    "textLength", "lengthAdjust", "transform"]);

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

  // The server limits the viewer's requests (HEXLEDGER_REPLAY_RATE_LIMIT) and answers 429 with Retry-After when
  // they come too fast (stepping fetches two map pictures a step), or 503 with Retry-After when it is at its
  // limits (replays being built, waiting requests). Then no request of this page goes out before that time; the
  // map box says it is waiting, and a map no longer wanted once the wait is over is not fetched.
  let calmAt = 0;                     // Date.now() before which nothing is asked of the server
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  class Skipped extends Error {}      // a request given up after a wait: its map is no longer wanted

  function retryAfterMs(r) {          // Retry-After: seconds or an HTTP date; a 429 without it: one second
    const h = r.headers.get("Retry-After");
    const at = h === null ? NaN : (/^\d+$/.test(h.trim()) ? Date.now() + 1000 * Number(h) : Date.parse(h));
    return Math.max(1000, isNaN(at) ? 1000 : at - Date.now());
  }

  // fetch `path`; `waiting(ms)` is told each second of a wait; `wanted()` false after a wait: give up (Skipped)
  async function politeFetch(path, waiting, wanted) {
    for (;;) {
      if (Date.now() < calmAt) {
        while (Date.now() < calmAt) {
          waiting(calmAt - Date.now());
          await sleep(Math.min(1000, calmAt - Date.now()));
        }
        if (!wanted()) throw new Skipped();
        continue;                     // another request may have been told to wait again meanwhile
      }
      const r = await fetch(url(path));
      if (r.status !== 429 && !(r.status === 503 && r.headers.has("Retry-After"))) return r;
      calmAt = Math.max(calmAt, Date.now() + retryAfterMs(r));
    }
  }

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

  // -- the camera: which part of the map is on screen (docs/replay.md, "Following the action") --------------
  // The map is drawn in a box of fixed size; the camera is the map point at the box's centre and a zoom (screen
  // pixels per map unit), applied as the picture's viewBox, so stepping through frames keeps it. Each step
  // brings the hexes it is about (the frame's `focus`) on screen: the camera stays if they are already in view
  // at the zoom the user chose, else it centres on them, zooming out only as far as they need.
  const READABLE = 1.5;     // the default zoom: a counter's id (8 map units) is 12 px, its strength 18 px
  const MAX_ZOOM = 8;
  const PAD = 45;           // map units kept around a step's hexes (more than half a hex)
  let cam = null;           // {x, y, s}
  let preferred = null;     // the zoom the user chose last (default: READABLE, or the whole map if that is larger)
  let extent = null;        // the whole picture in map units {x, y, w, h}

  function boxSize() { const m = $("map"); return { w: m.clientWidth, h: m.clientHeight }; }
  function fitScale(r) { const b = boxSize(); return Math.min(b.w / r.w, b.h / r.h); }
  function clampZoom(s) { return Math.min(MAX_ZOOM, Math.max(fitScale(extent) * 0.8, s)); }

  function visible() {                // the map rectangle on screen, in map units
    const b = boxSize();
    return { x: cam.x - b.w / 2 / cam.s, y: cam.y - b.h / 2 / cam.s, w: b.w / cam.s, h: b.h / cam.s };
  }

  function apply() {
    const svg = $("map").querySelector("svg");
    if (!svg || !cam || !extent) return;
    cam.x = Math.min(Math.max(cam.x, extent.x), extent.x + extent.w);   // never lose the map entirely
    cam.y = Math.min(Math.max(cam.y, extent.y), extent.y + extent.h);
    const v = visible();
    svg.setAttribute("viewBox", [v.x, v.y, v.w, v.h].map((n) => n.toFixed(2)).join(" "));
    document.body.dataset.zoom = cam.s.toFixed(3);
  }

  function focusRect(hexes) {         // the union of the hexes' outlines, in map units; null: none on this map
    const svg = $("map").querySelector("svg");
    let r = null;
    for (const label of hexes || []) {
      const poly = svg && svg.querySelector('.terrain polygon[data-hex="' + CSS.escape(String(label)) + '"]');
      if (!poly) continue;
      const b = poly.getBBox();
      r = r ? { x: Math.min(r.x, b.x), y: Math.min(r.y, b.y), x2: Math.max(r.x2, b.x + b.width),
        y2: Math.max(r.y2, b.y + b.height) } : { x: b.x, y: b.y, x2: b.x + b.width, y2: b.y + b.height };
    }
    return r && { x: r.x - PAD, y: r.y - PAD, w: r.x2 - r.x + 2 * PAD, h: r.y2 - r.y + 2 * PAD };
  }

  function inside(r, v) { return r.x >= v.x && r.y >= v.y && r.x + r.w <= v.x + v.w && r.y + r.h <= v.y + v.h; }

  function frameRect(r, force) {      // bring r on screen at the chosen zoom, or zoomed out as far as r needs
    const s = Math.min(preferred, fitScale(r));
    if (!force && cam && Math.abs(cam.s - s) < 1e-6 && inside(r, visible())) return;
    cam = { x: r.x + r.w / 2, y: r.y + r.h / 2, s: s };
  }

  function nearestFocus(i) {          // a step about no hex (an end, a hidden run): the nearest step about some
    for (let j = i; j < frames.length; j++) if (frames[j].focus && frames[j].focus.length) return frames[j].focus;
    for (let j = i - 1; j >= 0; j--) if (frames[j].focus && frames[j].focus.length) return frames[j].focus;
    return null;
  }

  function follow(f, force) {         // after a map is drawn: keep what this step is about on screen
    const svg = $("map").querySelector("svg");
    if (!svg) return;
    const vb = svg.viewBox.baseVal;
    if (!extent) extent = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };   // the server's picture: the map
    if (preferred === null) preferred = Math.max(READABLE, fitScale(extent));
    let r = focusRect(f.focus);
    if (!r && (!cam || force)) r = focusRect(nearestFocus(index));
    if (r) frameRect(r, force);
    else if (!cam) cam = { x: extent.x + extent.w / 2, y: extent.y + extent.h / 2, s: clampZoom(preferred) };
    apply();
  }

  function zoomAt(factor, px, py) {   // zoom by factor keeping the map point under (px, py) of the box in place
    if (!cam) return;
    const b = boxSize();
    px = px === undefined ? b.w / 2 : px;
    py = py === undefined ? b.h / 2 : py;
    const mx = cam.x + (px - b.w / 2) / cam.s, my = cam.y + (py - b.h / 2) / cam.s;
    const s = clampZoom(cam.s * factor);
    cam = { x: mx - (px - b.w / 2) / s, y: my - (py - b.h / 2) / s, s: s };
    preferred = s;
    apply();
  }

  function panBy(dx, dy) {            // move the map by (dx, dy) screen pixels
    if (!cam) return;
    cam.x -= dx / cam.s;
    cam.y -= dy / cam.s;
    apply();
  }

  function fitAll() {
    if (!extent) return;
    preferred = fitScale(extent);
    cam = { x: extent.x + extent.w / 2, y: extent.y + extent.h / 2, s: preferred };
    apply();
  }

  const VIEW = {
    "in": () => zoomAt(1.25), "out": () => zoomAt(0.8), "fit": fitAll,
    "action": () => { if (frames.length) follow(frames[index], true); },
    "left": () => panBy(boxSize().w / 4, 0), "right": () => panBy(-boxSize().w / 4, 0),
    "up": () => panBy(0, boxSize().h / 4), "down": () => panBy(0, -boxSize().h / 4),
  };
  const VIEW_KEYS = { "+": "in", "=": "in", "-": "out", "_": "out", "0": "fit", "f": "action",
    "a": "left", "d": "right", "w": "up", "s": "down" };

  function markFocus(hexes) {         // a thin ring on each hex this step is about, under the counters
    const svg = $("map").querySelector("svg");
    const units = svg && svg.querySelector("g.units");
    for (const label of hexes || []) {
      const hex = svg && svg.querySelector('.terrain polygon[data-hex="' + CSS.escape(String(label)) + '"]');
      if (!hex) continue;
      const ring = hex.cloneNode(false);
      ring.setAttribute("class", "focus-hex");
      ring.setAttribute("fill", "none");
      svg.insertBefore(ring, units);
    }
  }

  function markCombat(c) {            // outline the attacked hex and the attacking counters on the map
    const svg = $("map").querySelector("svg");
    if (!svg || !c) return;
    const hex = svg.querySelector('.terrain polygon[data-hex="' + CSS.escape(String(c.hex)) + '"]');
    if (hex) {
      const ring = hex.cloneNode(false);
      ring.setAttribute("class", "combat-target");
      ring.setAttribute("fill", "none");
      svg.insertBefore(ring, svg.querySelector("g.units"));   // under the counters: it covers none of them
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
      if (Date.now() < calmAt) mapWaiting(f.seq)(calmAt - Date.now());   // its request waits: say so now
      try {
        const svg = await svgAt(f.seq);
        if (wanted === f.seq) {
          $("map").replaceChildren(cleanSvg(svg));
          markFocus(f.focus);
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
    const map = {
      ArrowRight: e.shiftKey ? "next-phase" : "next", ArrowLeft: e.shiftKey ? "prev-phase" : "prev",
      ArrowDown: "next-turn", ArrowUp: "prev-turn", Home: "first", End: "last",
    };
    const where = map[e.key];
    if (where) { e.preventDefault(); go(where); return; }
    const move = !e.ctrlKey && !e.metaKey && !e.altKey && VIEW_KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (move) { e.preventDefault(); VIEW[move](); }
  });

  for (const b of document.querySelectorAll("[data-view]")) b.addEventListener("click", () => VIEW[b.dataset.view]());
  const mapBox = $("map");
  mapBox.addEventListener("wheel", (e) => {
    e.preventDefault();
    const b = mapBox.getBoundingClientRect();
    const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? b.height : 1);   // lines, pages: pixels
    zoomAt(Math.pow(1.0015, -dy), e.clientX - b.left, e.clientY - b.top);
  }, { passive: false });
  let drag = null;
  mapBox.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY };
    mapBox.setPointerCapture(e.pointerId);
    mapBox.classList.add("dragging");
  });
  mapBox.addEventListener("pointermove", (e) => {
    if (!drag) return;
    panBy(e.clientX - drag.x, e.clientY - drag.y);
    drag = { x: e.clientX, y: e.clientY };
  });
  for (const end of ["pointerup", "pointercancel"]) {
    mapBox.addEventListener(end, () => { drag = null; mapBox.classList.remove("dragging"); });
  }
  window.addEventListener("resize", apply);

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
