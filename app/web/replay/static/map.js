// Hexledger's map in the browser: the picture, its camera and the user's moves of it, shared by the replay viewer
// (replay.js) and the play page (play.js). Vanilla JS, no build step, no network beyond this server.
// docs/replay.md, "Following the action" and "No script from game data".
"use strict";
window.HexMap = (function () {
  // Nothing the server sends is ever parsed as HTML here (no innerHTML): text goes in through textContent,
  // and a map picture is parsed as XML and keeps only the elements and attributes a map is drawn with, so
  // even a picture that escaped the server's escaping could carry no script (issue 12).
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SVG_TAGS = new Set(["svg", "g", "title", "rect", "polygon", "polyline", "line", "circle", "text"]);
  const SVG_ATTRS = new Set(["viewBox", "width", "height", "class", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy",
    "r", "rx", "points", "fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
    "stroke-linejoin", "opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor",
    "textLength", "lengthAdjust", "transform"]);

  const MAP_LAYERS = new Set(["terrain", "labels", "routes", "hexsides"]);

  function parsed(source) {           // the server's SVG as an XML document's root, not yet in the page
    const doc = new DOMParser().parseFromString(source, "image/svg+xml");
    const root = doc.documentElement;
    if (root.namespaceURI !== SVG_NS || root.localName !== "svg") throw new Error("not a map picture");
    return root;
  }

  function allowed(a) {               // an attribute a map is drawn with (or a data- one), never a handler
    return !a.namespaceURI && (SVG_ATTRS.has(a.name) || /^data-[a-z-]+$/.test(a.name));
  }

  function copy(node, deep = true) {  // a detached copy of a drawing, built element by element
    if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
    if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== SVG_NS || !SVG_TAGS.has(node.localName)) {
      return null;
    }
    const out = document.createElementNS(SVG_NS, node.localName);
    for (const a of node.attributes) if (allowed(a)) out.setAttribute(a.name, a.value);
    for (const child of deep ? node.childNodes : []) {
      const c = copy(child);
      if (c) out.appendChild(c);
    }
    return out;
  }

  function same(el, name, value) {    // set an attribute, unless it has that value already
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }

  function message(box, words) {      // a line of text in place of the map
    const p = document.createElement("p");
    p.className = "empty";
    p.textContent = words;
    box.replaceChildren(p);
  }

  // The server limits requests (the API's and the viewer's rate limits) and answers 429 with Retry-After when they
  // come too fast, or 503 with Retry-After when it is at its limits (replays being built, a database busy). Then
  // no request of the page goes out before that time; `waiting(ms)` is told each second of the wait, and a request
  // no longer `wanted()` once the wait is over is given up (Skipped).
  class Skipped extends Error {}
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  function retryAfterMs(r) {          // Retry-After: seconds or an HTTP date; a 429 without it: one second
    const h = r.headers.get("Retry-After");
    const at = h === null ? NaN : (/^\d+$/.test(h.trim()) ? Date.now() + 1000 * Number(h) : Date.parse(h));
    return Math.max(1000, isNaN(at) ? 1000 : at - Date.now());
  }

  function polite() {                 // one page's requests: one shared time before which nothing is asked
    const self = { calmAt: 0 };
    self.fetch = async function (address, init, waiting, wanted) {
      for (;;) {
        if (Date.now() < self.calmAt) {
          while (Date.now() < self.calmAt) {
            (waiting || (() => {}))(self.calmAt - Date.now());
            await sleep(Math.min(1000, self.calmAt - Date.now()));
          }
          if (wanted && !wanted()) throw new Skipped();
          continue;                   // another request may have been told to wait again meanwhile
        }
        const r = await fetch(address, init);
        if (r.status !== 429 && !(r.status === 503 && r.headers.has("Retry-After"))) return r;
        self.calmAt = Math.max(self.calmAt, Date.now() + retryAfterMs(r));
      }
    };
    return self;
  }

  // -- the camera: which part of the map is on screen ---------------------------------------------------------
  // The map is drawn in a box of fixed size; the camera is the map point at the box's centre and a zoom (screen
  // pixels per map unit), applied as the picture's viewBox, so a new picture keeps it. `follow` brings the hexes
  // a step is about on screen: the camera stays if they are already in view at the zoom the user chose, else it
  // centres on them, zooming out only as far as they need.
  const READABLE = 1.5;     // the default zoom: a counter's id (8 map units) is 12 px, its strength 18 px
  const MAX_ZOOM = 8;
  const PAD = 45;           // map units kept around a step's hexes (more than half a hex)
  const CLICK = 6;          // a pointer that moved less than this many pixels clicked; more, it dragged

  function create(box) {
    let cam = null;           // {x, y, s}
    let preferred = null;     // the zoom the user chose last (default: READABLE, or the whole map if that is larger)
    let extent = null;        // the whole picture in map units {x, y, w, h}
    let clicked = null;       // the page's answer to a click on the map: fn({hex, unit, target})

    const svg = () => box.querySelector("svg");
    // the box's size as the last layout left it, told by a ResizeObserver after each layout that changed it: read
    // from the box itself (clientWidth) it laid the page out again whenever it was asked after a change, and the
    // camera asks at every picture, selection and order (once before the first layout)
    let size = null;
    function boxSize() { return size || (size = { w: box.clientWidth, h: box.clientHeight }); }
    function fitScale(r) { const b = boxSize(); return Math.min(b.w / r.w, b.h / r.h); }
    function clampZoom(s) { return Math.min(MAX_ZOOM, Math.max(fitScale(extent) * 0.8, s)); }

    function visible() {              // the map rectangle on screen, in map units
      const b = boxSize();
      return { x: cam.x - b.w / 2 / cam.s, y: cam.y - b.h / 2 / cam.s, w: b.w / cam.s, h: b.h / cam.s };
    }

    function apply() {
      const picture = svg();
      if (!picture || !cam || !extent) return;
      cam.x = Math.min(Math.max(cam.x, extent.x), extent.x + extent.w);   // never lose the map entirely
      cam.y = Math.min(Math.max(cam.y, extent.y), extent.y + extent.h);
      const v = visible();
      // written only when it moves: any write of an SVG's viewBox, even of the same value, lays out the whole
      // picture again (its thousands of hex numbers), which was most of what a browser spent on an order or a step
      same(picture, "viewBox", [v.x, v.y, v.w, v.h].map((n) => n.toFixed(2)).join(" "));
      same(document.body, "data-zoom", cam.s.toFixed(3));
    }

    function hexOutline(label) {
      const picture = svg();
      return picture && picture.querySelector('.terrain polygon[data-hex="' + CSS.escape(String(label)) + '"]');
    }

    // a hex outline's box in map units, from its corners (app/projections/render.py draws each terrain polygon
    // from its corners, untransformed): what getBBox() gives, without laying out the page a ring or a label just
    // changed (marking a dozen targets laid the whole page out a dozen times)
    function outlineBox(poly) {
      const n = poly.getAttribute("points").trim().split(/[\s,]+/).map(Number);
      const xs = n.filter((_, i) => i % 2 === 0), ys = n.filter((_, i) => i % 2 === 1);
      const x = Math.min(...xs), y = Math.min(...ys);
      return { x: x, y: y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
    }

    function focusRect(hexes) {       // the union of the hexes' outlines, in map units; null: none on this map
      let r = null;
      for (const label of hexes || []) {
        const poly = hexOutline(label);
        if (!poly) continue;
        const b = outlineBox(poly);
        r = r ? { x: Math.min(r.x, b.x), y: Math.min(r.y, b.y), x2: Math.max(r.x2, b.x + b.width),
          y2: Math.max(r.y2, b.y + b.height) } : { x: b.x, y: b.y, x2: b.x + b.width, y2: b.y + b.height };
      }
      return r && { x: r.x - PAD, y: r.y - PAD, w: r.x2 - r.x + 2 * PAD, h: r.y2 - r.y + 2 * PAD };
    }

    function inside(r, v) {
      return r.x >= v.x && r.y >= v.y && r.x + r.w <= v.x + v.w && r.y + r.h <= v.y + v.h;
    }

    function frameRect(r, force) {    // bring r on screen at the chosen zoom, or zoomed out as far as r needs
      const s = Math.min(preferred, fitScale(r));
      if (!force && cam && Math.abs(cam.s - s) < 1e-6 && inside(r, visible())) return;
      cam = { x: r.x + r.w / 2, y: r.y + r.h / 2, s: s };
    }

    // after a picture is drawn: keep `hexes` on screen; `fallback()` gives the hexes to show first when these are
    // none and there is no camera yet (the replay: the nearest step about some hex)
    function follow(hexes, force, fallback) {
      const picture = svg();
      if (!picture) return;
      const vb = picture.viewBox.baseVal;
      if (!extent) extent = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };   // the server's picture: the map
      if (preferred === null) preferred = Math.max(READABLE, fitScale(extent));
      let r = focusRect(hexes);
      if (!r && (!cam || force) && fallback) r = focusRect(fallback());
      if (r) frameRect(r, force);
      else if (!cam) cam = { x: extent.x + extent.w / 2, y: extent.y + extent.h / 2, s: clampZoom(preferred) };
      apply();
    }

    function zoomAt(factor, px, py) { // zoom by factor keeping the map point under (px, py) of the box in place
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

    function panBy(dx, dy) {          // move the map by (dx, dy) screen pixels
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

    let action = () => {};            // "action" / F: what the page brings back on screen
    const VIEW = {
      "in": () => zoomAt(1.25), "out": () => zoomAt(0.8), "fit": fitAll, "action": () => action(),
      "left": () => panBy(boxSize().w / 4, 0), "right": () => panBy(-boxSize().w / 4, 0),
      "up": () => panBy(0, boxSize().h / 4), "down": () => panBy(0, -boxSize().h / 4),
    };
    const VIEW_KEYS = { "+": "in", "=": "in", "-": "out", "_": "out", "0": "fit", "f": "action",
      "a": "left", "d": "right", "w": "up", "s": "down" };

    function key(e) {                 // a map key (zoom, pan, fit, action): handled, true
      const move = !e.ctrlKey && !e.metaKey && !e.altKey &&
        VIEW_KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
      if (!move) return false;
      e.preventDefault();
      VIEW[move]();
      return true;
    }

    // a copy of each hex's outline under the counters, with the class `cls` (rings: the step's hexes, the attacked
    // hex, where an order may go); `label(hex)` may give a text drawn over the hex's lower edge
    function ring(hexes, cls, label) {
      const picture = svg();
      const units = picture && picture.querySelector("g.units");
      const marks = [];
      for (const h of hexes || []) {
        const hex = hexOutline(h);
        if (!hex) continue;
        const copy = hex.cloneNode(false);
        copy.setAttribute("class", cls);
        copy.setAttribute("fill", "none");
        picture.insertBefore(copy, units);
        marks.push(copy);
        const words = label && label(h);
        if (words) {
          const b = outlineBox(hex);
          const t = document.createElementNS(SVG_NS, "text");
          t.setAttribute("class", cls + "-label");
          t.setAttribute("data-hex", String(h));
          t.setAttribute("x", (b.x + b.width / 2).toFixed(1));
          t.setAttribute("y", (b.y + b.height - 3).toFixed(1));
          t.setAttribute("text-anchor", "middle");
          t.textContent = words;
          picture.appendChild(t);     // over the counters: what the order would be is read there
          marks.push(t);
        }
      }
      return marks;
    }

    // a new picture from the server, under the camera the user has. Of the same map as the one on screen (its
    // `data-map` fingerprint), the drawn terrain, hex numbers, routes and hexsides stay in place, and so does every
    // other part the new picture has unchanged (the counters when none moved, the legend, the place names): only
    // the parts that differ (the title, a moved counter's layer) are taken from it. Laying out and painting the
    // whole map again was most of what a browser spent on each step of a replay or each reading of a game. What a
    // page drew over a picture (rings, `ring`) goes with it.
    let parts = [];                   // the picture's parts drawn: [the server's node, the page's node or null]
    function draw(source) {
      const old = svg();
      const kept = old && old.getAttribute("data-map");
      let root = parsed(kept ? withoutLayers(source) : source);
      const map = root.getAttribute("data-map");
      if (!old || !map || kept !== map) {
        if (kept) root = parsed(source);   // another map after all: the whole picture
        const picture = copy(root, false);
        parts = Array.from(root.childNodes, (n) => [n, copy(n)]);
        for (const [, c] of parts) if (c) picture.appendChild(c);
        box.replaceChildren(picture);
        return;
      }
      // the picture's attributes as the new one has them, the viewBox the camera's once there is one (`apply`);
      // each written only where it differs (`same`)
      for (const a of Array.from(old.attributes)) if (!root.hasAttribute(a.name)) old.removeAttribute(a.name);
      for (const a of Array.from(root.attributes)) {
        if (allowed(a) && !(a.name === "viewBox" && cam)) same(old, a.name, a.value);
      }
      const wanted = Array.from(root.childNodes, (n, i) => {
        if (drawnOnce(n)) return old.querySelector(":scope > g." + n.getAttribute("class"));
        const was = parts[i];
        return was && was[1] && was[1].parentNode === old && was[0].isEqualNode(n) ? was[1] : copy(n);
      });
      const stays = new Set(wanted);
      for (const n of Array.from(old.childNodes)) if (!stays.has(n)) n.remove();
      let at = old.firstChild;
      for (const n of wanted) {
        if (!n) continue;
        if (n === at) at = at.nextSibling;
        else old.insertBefore(n, at);
      }
      parts = Array.from(root.childNodes, (n, i) => [n, wanted[i]]);
    }

    // the picture's text with each of the map's own layers left empty (`<g class="terrain"/>`), for a page that has
    // them drawn already (the same `data-map`): parsing them again was a third of what drawing a new position cost.
    // A layer is a `g` of drawings without a `g` inside; one that is not is left whole.
    function withoutLayers(source) {
      const start = /<g class="(terrain|labels|routes|hexsides)"[\s>]/g;
      let out = "", at = 0, m;
      while ((m = start.exec(source))) {
        const end = source.indexOf("</g>", m.index);
        if (end < 0 || /<g[\s>]/.test(source.slice(m.index + 2, end))) continue;
        out += source.slice(at, m.index) + '<g class="' + m[1] + '"/>';
        at = start.lastIndex = end + 4;
      }
      return out + source.slice(at);
    }

    function drawnOnce(node) {        // a layer of the map itself (app/projections/render.py, _static_layers)
      return node.nodeType === Node.ELEMENT_NODE && node.localName === "g" &&
        MAP_LAYERS.has(node.getAttribute("class"));
    }

    box.addEventListener("wheel", (e) => {
      e.preventDefault();
      const b = box.getBoundingClientRect();
      const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? b.height : 1);   // lines, pages: pixels
      zoomAt(Math.pow(1.0015, -dy), e.clientX - b.left, e.clientY - b.top);
    }, { passive: false });
    let drag = null;
    box.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY, target: e.target, id: e.pointerId };
    });
    box.addEventListener("pointermove", (e) => {
      if (!drag) return;
      if (!box.classList.contains("dragging")) {
        if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < CLICK) return;
        box.setPointerCapture(drag.id);   // a drag from here: the pointer's moves go to the map
        box.classList.add("dragging");
      }
      panBy(e.clientX - drag.x, e.clientY - drag.y);
      drag.x = e.clientX;
      drag.y = e.clientY;
    });
    box.addEventListener("pointerup", (e) => {
      const was = drag;
      drag = null;
      if (!was) return;
      if (box.classList.contains("dragging")) { box.classList.remove("dragging"); return; }
      const at = clicked && pointedAt(was.x0, was.y0);
      if (at) clicked(at);
    });

    // the hex (and the counter) under a screen point: the topmost of what is drawn there that belongs to a hex, so
    // a place's name or a road over a hex still gives the hex
    function pointedAt(x, y) {
      for (const el of document.elementsFromPoint(x, y)) {
        if (!box.contains(el)) continue;
        const on = el.closest("[data-hex]");
        if (!on) continue;
        const counter = el.closest(".counter");
        return { hex: on.getAttribute("data-hex"), unit: counter ? counter.getAttribute("data-unit") : null };
      }
      return null;
    }
    box.addEventListener("pointercancel", () => { drag = null; box.classList.remove("dragging"); });
    new ResizeObserver(([entry]) => {
      const now = { w: entry.target.clientWidth, h: entry.target.clientHeight };   // laid out already: no cost
      if (size && now.w === size.w && now.h === size.h) return;
      size = now;
      apply();
    }).observe(box);

    return {
      draw, follow, ring, key, apply, svg, hexOutline, pointedAt,
      view: (name) => VIEW[name](),
      onAction: (fn) => { action = fn; },
      onClick: (fn) => { clicked = fn; },
    };
  }

  return { create, message, polite, Skipped };
})();
