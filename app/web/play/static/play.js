// Hexledger play page: a seat's orders by pointing at the map (docs/playing-in-the-browser.md). Vanilla JS, no build
// step, no network beyond this server. What it shows comes from the JSON API as this seat may see it (the state, the
// map picture, the legal orders, the history), and every order it sends is the text of the order language, shown
// before it goes, through POST /games/GAME/orders as any API client's or a line of an email.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const api = body.dataset.api;                       // "/games/<game>"
  const seat = body.dataset.seat;
  const canPreview = body.dataset.preview === "1";
  // the subjects (ActionDoc.subjects) that are counters: such orders are reached by pointing at the counter
  const PIECES = new Set(["units", "counters", "brigades"]);
  const ENDS = new Set(["end", "next"]);              // the orders that end a step (Dai Senso 4.1 writes `next`)
  const POLL_MS = 2000, HIDDEN_POLL_MS = 15000;       // how often the page asks whether the game moved on
  const HISTORY_LINES = 150;
  const map = HexMap.create($("map"));
  const polite = HexMap.polite();

  let etag = null, seq = null, view = null, prompt = null;
  let standing = null;      // the seat's standing orders and the kinds that may stand (GET .../standing)
  let clock = null;         // the seat's clock: its words, vacation days, a draw offer standing (GET .../clock)
  let confirming = false;   // "resign" pressed, the question asked
  let selection = null;     // {kind: "unit" | "hex", id, stack: [unit ids]}: what the player pointed at
  let pointed = [];         // the legal orders that name it (GET .../actions?naming=)
  let composed = null;      // {item, words, dropped: Set, variants}: the order about to be sent (item.written: the
                            // player's own text, not one of the list's orders)
  let marks = [];           // what the page drew on the map picture
  let sending = false, timer = null, firstDraw = true;
  let drawn = null;         // the map picture drawn last (its SVG text): the same picture is not drawn again
  let lines = [], linesTo = 0, over = false;  // the history shown, the last event it holds, the game over then

  // -- small helpers: text only, never markup from the server (docs/replay.md, "No script from game data") -------
  function text(el, value) { el.textContent = value === undefined || value === null ? "" : String(value); }

  function make(tag, words, attrs) {
    const el = document.createElement(tag);
    if (words !== undefined && words !== null) el.textContent = String(words);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    return el;
  }

  function button(words, title, onClick, attrs) {
    const b = make("button", words, Object.assign({ type: "button" }, attrs || {}));
    if (title) b.title = title;
    b.addEventListener("click", onClick);
    return b;
  }

  function say(words) {               // the status line's second part: what just happened
    let p = $("status").querySelector(".note");
    if (!p) { p = make("p", null, { class: "note" }); $("status").appendChild(p); }
    text(p, words);
  }

  const words = (order) => order.split(/[\s,]+/).filter((w) => w);

  // -- the API, as this seat (the play cookie; app/web/play.py) --------------------------------------------------
  function waiting(ms) { say("the server asks this page to slow down; asking again in " + Math.ceil(ms / 1000) + " s"); }

  function call(method, path, payload, headers) {
    const init = { method: method, credentials: "same-origin", headers: Object.assign({}, headers || {}) };
    if (payload !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(payload);
    }
    return polite.fetch(api + path, init, waiting);
  }

  async function answer(r) {          // a JSON answer, or the error the API would give
    try { return await r.json(); } catch (err) {
      return { error: "Unreadable", message: "the server's answer (" + r.status + ") could not be read" };
    }
  }

  function refused(a) {               // a refusal as the player reads it: with its rules case, named once
    let message = a.message || "";
    if (a.case && message.startsWith(a.case + ":")) message = message.slice(a.case.length + 1).trim();
    return (a.case ? "Refused (" + a.case + "): " : "Refused: ") + message;
  }

  // -- what the seat may order now ---------------------------------------------------------------------------
  const mine = () => Boolean(prompt && prompt.your_turn);
  const listed = () => (mine() ? prompt.legal_orders : []);
  const kindOf = (name) => (prompt ? prompt.actions.find((a) => a.name === name) : null);
  const owed = () => Boolean(prompt && prompt.owed);

  function isPieceOrder(o) {          // an order reached through its counter(s): a move, a placement
    const kind = kindOf(o.action);
    return !owed() && kind && PIECES.has(kind.subjects) && o.subject && o.subject.length > 0;
  }

  function isHexOrder(o) {            // an order given to hexes: an attack, a landing, a strike
    const kind = kindOf(o.action);
    return !owed() && kind && kind.subjects === "hexes" && o.subject && o.subject.length > 0;
  }

  function unitsById() {
    const out = new Map();
    for (const u of (view && view.units) || []) out.set(u.id, u);
    return out;
  }

  function pieces() {                 // every counter an order of the list is given to, in the list's order
    const out = [];
    for (const o of listed()) if (isPieceOrder(o)) for (const id of o.subject) if (!out.includes(id)) out.push(id);
    return out;
  }

  function piecesAt(hex) {
    const units = unitsById();
    return pieces().filter((id) => units.has(id) && units.get(id).hex === hex);
  }

  // the counters and hexes of the kinds the server listed only in part (OrderKind.unchecked: candidates left untried
  // past the list's 40, e.g. a Dai Senso unit's Exploitation paths, ruling D55): id -> "unit" | "hex"; pointed at, each
  // leads to every order that names it (GET .../actions?naming=), as a counter outside a decision does
  function cutSubjects(only) {         // `only`: of that kind alone
    const cut = new Set(((prompt && prompt.kinds) || []).filter((k) => k.unchecked > 0 && (!only || k.action === only))
      .map((k) => k.action));
    const out = new Map();
    for (const o of listed()) {
      const kind = kindOf(o.action);
      const as = kind && PIECES.has(kind.subjects) ? "unit" : kind && kind.subjects === "hexes" ? "hex" : null;
      if (cut.has(o.action) && as && o.subject) for (const id of o.subject) if (!out.has(id)) out.set(id, as);
    }
    return out;
  }

  function ownedPiecesAt(hex) {       // in a decision: the seat's counters in `hex` that listed orders are given to
    const units = unitsById(), out = [];
    for (const o of listed()) {
      const kind = kindOf(o.action);
      if (!kind || !PIECES.has(kind.subjects)) continue;
      for (const id of o.subject || []) if (units.has(id) && units.get(id).hex === hex && !out.includes(id)) out.push(id);
    }
    return out;
  }

  function hexTargets() {             // hex -> the first order given to it (its odds), from the list
    const out = new Map();
    for (const o of listed()) if (isHexOrder(o)) for (const h of o.subject) if (!out.has(h)) out.set(h, o);
    return out;
  }

  // -- the map: the picture, and marks for what may be done --------------------------------------------------
  function clearMarks() { for (const m of marks) m.remove(); marks = []; }

  // the marks drawn last: the same marks on the same picture are left as they are (drawn again, the whole map was
  // painted again at every reading of the game, most of what a waiting page spent)
  let marked = null;

  function markMap() {
    const picture = map.svg();
    if (!picture) { clearMarks(); marked = null; return; }
    const units = unitsById();
    const where = (ids) => ids.map((id) => units.get(id)).filter((u) => u && u.hex).map((u) => u.hex);
    const rings = [];                 // [hexes, class, the label of each hex or null]
    const ring = (hexes, cls, label) => rings.push([hexes, cls, label ? hexes.map(label) : null]);
    if (composed) {
      ring(composed.item.at || [], "chosen");
    }
    if (selection) {
      const at = new Map();
      for (const o of pointed) for (const h of o.at || []) if (!at.has(h)) at.set(h, o);
      const reach = [...at.keys()].filter((h) => !at.get(h).odds);
      const targets = [...at.keys()].filter((h) => at.get(h).odds);
      ring(reach, "reach");
      ring(targets, "target", (h) => at.get(h).odds);
      ring(selection.kind === "unit" ? where([selection.id]) : [selection.id], "selected");
    } else if (mine()) {
      const targets = hexTargets();
      ring([...new Set(where(pieces()))], "may-act");
      ring([...targets.keys()], "target", (h) => targets.get(h).odds);
      if (owed()) {               // a decision's candidates that name hexes: a retreat, an advance
        ring([...new Set(listed().flatMap((o) => o.at || []))], "reach");
        // the counters with more orders than the list holds: pointed at, each shows all of its own
        const cut = [...cutSubjects()].filter(([, as]) => as === "unit").map(([id]) => id);
        ring([...new Set(where(cut))], "may-act");
      }
    }
    const key = JSON.stringify(rings);
    if (marked && marked.key === key && marked.on === picture && marks.every((m) => m.isConnected)) return;
    clearMarks();
    for (const [hexes, cls, labels] of rings) {
      marks.push(...map.ring(hexes, cls, labels && ((h) => labels[hexes.indexOf(h)])));
    }
    for (const m of marks) m.setAttribute("data-mark", "1");
    marked = { key: key, on: picture };
  }

  function actionHexes() {            // what "action" (F) brings on screen: the order, the selection, the units
    if (composed && composed.item.at) return composed.item.at;
    const units = unitsById();
    const at = (ids) => ids.map((id) => units.get(id)).filter((u) => u && u.hex).map((u) => u.hex);
    if (selection) return selection.kind === "unit" ? at([selection.id]).concat(pointed.flatMap((o) => o.at || [])) : [selection.id];
    const mineNow = at(pieces()).concat([...hexTargets().keys()]);
    if (mineNow.length) return mineNow;
    return ((view && view.units) || []).filter((u) => u.side === seat && u.hex).map((u) => u.hex);
  }
  map.onAction(() => map.follow(actionHexes(), true));

  function drawMap(source) {
    if (source === drawn) return;     // the same picture (a phase ended, a move hidden from this side): kept
    drawn = source;
    try {
      map.draw(source);
    } catch (err) {
      HexMap.message($("map"), "map unavailable: " + err.message);
      return;
    }
    map.follow(firstDraw ? actionHexes() : [], firstDraw);
    firstDraw = false;
    markMap();
  }

  map.onClick((at) => point(at.hex, at.unit));

  // the player pointed at a hex (and the counter `unit` in it, if any)
  async function point(hex, unit) {
    if (!mine()) { say(prompt && prompt.outcome ? "the game is over" : "it is not your turn"); return; }
    if (selection) {
      const here = pointed.filter((o) => (o.at || []).includes(hex));
      if (here.length) { compose(here); return; }
    }
    const stack = piecesAt(hex);
    if (stack.length) { await select("unit", stack.includes(unit) ? unit : stack[0], stack); return; }
    if (hexTargets().has(hex)) { await select("hex", hex, []); return; }
    // in a decision, a counter of a kind the list holds only in part first (its orders are all reached through it),
    // then the orders aimed at the hex, then any counter of the decision: every order naming it
    const cut = cutSubjects();
    const deciding = owed() ? ownedPiecesAt(hex) : [];
    const more = deciding.filter((id) => cut.has(id));
    if (more.length) { await select("unit", more.includes(unit) ? unit : more[0], deciding); return; }
    const decided = listed().filter((o) => owed() && (o.at || []).includes(hex));
    if (decided.length) { compose(decided); return; }
    if (deciding.length) { await select("unit", deciding.includes(unit) ? unit : deciding[0], deciding); return; }
    unselect();
    say("no order of yours is aimed at " + hex + " now");
  }

  // every order the seat may give with what it pointed at (GET .../actions?naming=): a counter's, with the orders
  // aimed at its hex where that hex is a target itself (Olympic ruling R24: a retreat from the counters' hex); the
  // orders aimed at a hex. Null, and the refusal said, if the server refuses to list them.
  async function ordersFor(sel) {
    const u = sel.kind === "unit" ? unitsById().get(sel.id) : null;
    const hexes = sel.kind === "hex" ? [sel.id] : (u && u.hex && hexTargets().has(u.hex) ? [u.hex] : []);
    const out = [];
    for (const id of (sel.kind === "unit" ? [sel.id] : []).concat(hexes)) {
      const r = await call("GET", "/actions?naming=" + encodeURIComponent(id));
      const a = await answer(r);
      if (!r.ok) { say(refused(a)); return null; }
      for (const o of a.legal_orders || []) {
        if (id === sel.id && sel.kind === "unit" || (o.at || []).includes(id)) {
          if (!out.some((x) => x.order === o.order)) out.push(o);
        }
      }
    }
    return out;
  }

  async function select(kind, id, stack) {
    composed = null;
    selection = { kind: kind, id: id, stack: stack || [] };
    const orders = await ordersFor(selection);
    if (orders === null) return;
    pointed = orders;
    body.dataset.selected = id;
    render();
    map.follow(actionHexes(), false);   // the counter and where it may go, on screen
    $("selection-title").focus({ preventScroll: true });   // a keyboard's next Tab: this counter's orders
    if (kind === "hex" && pointed.length) compose(pointed.filter((o) => (o.subject || []).includes(id)).concat(
      pointed.filter((o) => !(o.subject || []).includes(id))));
  }

  function unselect() {
    selection = null;
    pointed = [];
    composed = null;
    delete body.dataset.selected;
    delete body.dataset.composed;
    render();
  }

  // -- composing an order: its text, its variants, the units it names, its preview -------------------------------
  function compose(orders) {
    const item = orders[0];
    composed = { item: item, variants: orders, words: words(item.order), dropped: new Set() };
    $("answer").hidden = true;
    renderCompose();
    markMap();
    map.follow(actionHexes(), false);
    $("compose").scrollIntoView({ block: "nearest" });
    $("send").focus({ preventScroll: true });
  }

  // an order the player wrote in the order language (docs/orders/GAME.md): composed as a clicked one, its text as
  // written; the rules judge it when it is previewed and when it is sent, as any API client's or email's order
  function writeOrder(order) {
    selection = null;
    pointed = [];
    composed = null;
    delete body.dataset.selected;
    render();
    compose([{ order: order, written: true }]);
  }

  function composedText() {
    if (composed.item.written) return composed.item.order;
    return composed.words.filter((w, i) => !composed.dropped.has(i)).join(" ");
  }

  function ownPieceWords() {          // the seat's counters the order names, by their place in the order
    const units = unitsById();
    return composed.words.map((w, i) => [w, i]).filter(([w]) => units.has(w) && units.get(w).side === seat);
  }

  function renderCompose() {
    const box = $("compose");
    if (!composed) { box.hidden = true; delete body.dataset.composed; return; }
    box.hidden = false;
    const order = composedText();
    body.dataset.composed = order;
    text($("order-text"), order);
    $("refusal").hidden = true;
    const variants = $("variants");
    variants.replaceChildren();
    if (composed.variants.length > 1) {
      variants.appendChild(make("p", "Other orders here:"));
      const list = make("ul");
      for (const o of composed.variants) {
        const b = button(withOdds(o.order, o), "write this order instead", () => compose(
          [o].concat(composed.variants.filter((x) => x !== o))), { "aria-pressed": String(o === composed.item) });
        const li = make("li");
        li.appendChild(b);
        list.appendChild(li);
      }
      variants.appendChild(list);
    }
    const units = $("order-units");
    units.replaceChildren();
    const own = composed.item.written ? [] : ownPieceWords();   // a written order: its text is edited instead
    if (own.length > 1) {             // an attack or a move of several: leave some out
      units.appendChild(make("p", "Units in this order (press to leave one out, again to bring it back):"));
      for (const [w, i] of own) {
        units.appendChild(button(w, "leave " + w + " out of this order, or bring it back", () => {
          if (composed.dropped.has(i)) composed.dropped.delete(i); else composed.dropped.add(i);
          renderCompose();
        }, { "aria-pressed": String(!composed.dropped.has(i)), class: "unit-toggle" }));
      }
    }
    $("send").setAttribute("aria-describedby", "order-text");
    $("preview").hidden = true;
    $("no-preview").hidden = true;
    delete body.dataset.previewed;
    // an attack (or landing) as listed, or with units left out; a written order, whatever it is: the rules say
    // whether it is legal now, and preview it if it is an attack
    if (canPreview && (composed.item.odds || composed.item.written)) preview(order);
  }

  async function preview(order) {
    const r = await call("POST", "/preview", { order: order });
    const a = await answer(r);
    if (!composed || composedText() !== order) return;      // another order was composed meanwhile
    body.dataset.previewed = order;
    const none = r.ok && a.preview && a.preview.previewed === false;   // legal, but the rules draw no preview of it
    if (!r.ok || none) {              // no preview (fog: concealed defenders), or the order as changed is refused
      text($("no-preview"), none ? "No preview (" + a.preview.case + "): " + a.preview.why +
        (a.preview.legal ? "; the order is legal now" : "; not your turn for it now")
        : (r.status === 422 ? "No preview: " : "") + refused(a).replace(/^Refused/, "the rules say"));
      $("no-preview").hidden = false;
      return;
    }
    const parts = previewParts(a.preview || {});
    text($("preview-table"), parts.table);
    for (const [name, value] of [["strengths", parts.strengths], ["odds", parts.odds], ["column", parts.column],
      ["shifts", parts.shifts.length ? parts.shifts.join(", ") : (parts.strengths ? "none" : "")]]) {
      text($("preview-" + name), value);
      $("preview-" + name).parentElement.hidden = !value;
    }
    $("preview-dice").replaceChildren(...parts.dice.map(([die, result]) => make("li", die + ": " + result)));
    text($("preview-text"), parts.text);
    $("preview-whole").open = !parts.dice.length;   // the rules' own words, when there is nothing else to show
    $("preview").hidden = false;
  }

  // what a rule set's preview (POST .../preview) says, in one shape: each game writes its own (app/rules/*/view.py
  // `preview`), every one with its whole `text`
  function previewParts(p) {
    const total = (x) => (x !== null && typeof x === "object" ? x.total : x);
    const attack = total(p.attack), defence = total(p.defence);
    const shift = (s) => typeof s === "string" ? s : (s.notation || ((s.amount > 0 ? "+" : "") + s.amount)) +
      " (" + [s.case, s.reason].filter(Boolean).join(": ") + ")";
    let dice = [];
    if (Array.isArray(p.results)) {
      dice = p.results.map((d) => [d.die, d.result !== null && typeof d.result === "object" ? d.result.code : d.result]);
    } else if (p.results !== null && typeof p.results === "object") {   // Ichi-Go: die -> "attacker/defender"
      dice = Object.entries(p.results).map(([die, r]) => [die, String(r)]);
    } else if (p.by_roll) {
      dice = Object.entries(p.by_roll).map(([die, r]) => [die, r !== null && typeof r === "object"
        ? [r.result, r.column ? "column " + r.column : ""].filter(Boolean).join(", ") : r]);
    }
    return {
      table: p.table ? p.table + (p.table_case ? " (" + p.table_case + ")" : "") : (p.case || ""),
      strengths: attack !== undefined && defence !== undefined ? attack + " : " + defence : "",
      odds: p.raw_odds || (p.percent !== undefined ? p.percent + "%" : "") || p.odds || "",
      shifts: (p.shifts || []).map(shift), column: String(p.column_label || p.column || ""), dice: dice,
      text: p.text || "",
    };
  }

  function showRefusal(words) {
    text($("refusal"), words);
    $("refusal").hidden = false;
  }

  async function send() {
    if (!composed || sending) return;
    const order = composedText();
    sending = true;
    body.dataset.busy = "1";
    try {
      const r = await call("POST", "/orders", { order: order, expected_seq: seq });
      const a = await answer(r);
      if (r.status === 201) {
        if (composed && composed.item.written) $("write-text").value = "";
        showAnswer(order, a);
        unselect();
        $("answer-title").focus({ preventScroll: true });   // read out, and the next Tab goes on from here
        await refresh(true);
      } else if (r.status === 409) {
        showRefusal("The game moved on before your order arrived; nothing was done. Look again: " + a.message);
        await refresh(true);
      } else {
        showRefusal(refused(a));
      }
    } finally {
      sending = false;
      delete body.dataset.busy;
    }
  }

  function showAnswer(order, a) {     // what the order did, as this seat may see it, and its signed receipt
    const box = $("answer");
    box.hidden = false;
    text($("answer-title"), "Accepted: " + order + " (event " + a.seq + ")");
    const list = $("answer-events");
    list.replaceChildren(...(a.events || []).map((e) => make("li", e.text, { value: String(e.seq) })));
    if (a.receipt) showReceipt(a.receipt);
    body.dataset.accepted = order;
  }

  // a receipt as the emails print it (app/events/receipts.py `Receipt.text`): a block `cli.py verify --receipts`
  // finds again in any file it is pasted into
  function showReceipt(receipt) {
    text($("receipt-seq"), "(event " + receipt.seq + ")");
    text($("receipt-text"), ["-----BEGIN HEXLEDGER RECEIPT-----", "game: " + receipt.game, "seq: " + receipt.seq,
      "hash: " + receipt.hash, "key: " + receipt.key, "sig: " + receipt.sig, "-----END HEXLEDGER RECEIPT-----"]
      .join("\n"));
    body.dataset.receipt = receipt.seq;
  }

  // -- the panels: status, what is owed, the orders, the selection -------------------------------------------
  function renderStatus() {
    const box = $("status");
    const head = make("p", null, { class: "turn" });
    if (!prompt) {
      text(head, "…");
    } else if (prompt.outcome) {
      text(head, "Game over: " + (prompt.outcome.winner || "no winner") + " — " + prompt.outcome.reason);
    } else if (prompt.waiting_for_players && prompt.waiting_for_players.length) {
      text(head, "Waiting for players to join: " + prompt.waiting_for_players.join(", "));
    } else if (prompt.your_turn) {
      text(head, "Your turn — " + prompt.step);
    } else {
      text(head, "Waiting for " + (prompt.to_act || "nobody") + " — " + prompt.step +
        " (this page shows their move when it comes)");
    }
    const note = box.querySelector(".note");
    box.replaceChildren(head);
    if (note) box.appendChild(note);
    body.dataset.yourTurn = mine() ? "1" : "0";
  }

  function renderOwed() {
    const box = $("owed");
    if (!owed()) { box.hidden = true; return; }
    box.hidden = false;
    const o = prompt.owed;
    text($("owed-text"), o.text || o.what);
    $("owed-candidates").replaceChildren(...(o.candidates || []).map((c) => make("li", c.id + ": " + c.value)));
  }

  function withOdds(words, o) {       // an order or hex with its odds column and what may still change it
    return words + (o.odds ? "  (" + o.odds + (o.odds_note ? ", " + o.odds_note : "") + ")" : "");
  }

  function orderButton(o) {
    return button(withOdds(o.order, o), o.case, () => compose([o]),
      { "data-order": o.order, class: ENDS.has(o.action) ? "order end" : "order" });
  }

  function renderChoices() {
    const box = $("choices");
    box.replaceChildren();
    $("orders-none").hidden = mine();
    $("write-form").hidden = !mine();
    if (!mine()) {
      text($("orders-none"), prompt && prompt.outcome ? "The game is over." : "Not your turn: nothing to order now.");
      return;
    }
    const units = unitsById();
    for (const kind of prompt.actions) {
      const orders = listed().filter((o) => o.action === kind.name);
      if (!orders.length) continue;
      const group = make("div", null, { class: "kind", "data-kind": kind.name });
      const h = make("h3", kind.name);
      h.appendChild(make("small", "  " + kind.syntax + " — " + kind.case));
      group.appendChild(h);
      const list = make("div", null, { class: "buttons" });
      if (orders.every(isPieceOrder)) {
        for (const id of [...new Set(orders.flatMap((o) => o.subject))]) {
          const u = units.get(id);
          const where = u && u.hex ? " at " + u.hex : " (off the map)";
          list.appendChild(button(id + where, (u && u.name ? u.name + ": " : "") + "what " + id + " may do",
            () => select("unit", id, u && u.hex ? piecesAt(u.hex) : [id]), { "data-piece": id, class: "piece" }));
        }
      } else if (orders.every(isHexOrder)) {
        const seen = new Set();
        for (const o of orders) {
          for (const h of o.subject) {
            if (seen.has(h)) continue;
            seen.add(h);
            list.appendChild(button(h + (o.odds ? " (" + o.odds + ")" : ""), kind.name + " " + h,
              () => select("hex", h, []), { "data-hex": h, class: "target" }));
          }
        }
      } else {
        for (const o of orders) list.appendChild(orderButton(o));
        const more = [...cutSubjects(kind.name)];
        if (more.length) {          // the list holds only some of this kind: each subject has all of its own
          group.appendChild(list);
          group.appendChild(make("p", "There may be more " + kind.name + " orders than listed here: every one of a " +
            (more[0][1] === "unit" ? "counter" : "hex") + " when you point at it on the map, or press it:",
          { class: "more" }));
          const all = make("div", null, { class: "buttons" });
          for (const [id, as] of more) {
            const u = units.get(id);
            all.appendChild(button(id + (u && u.hex ? " at " + u.hex : ""), "every " + kind.name + " order of " + id,
              () => select(as, id, as === "unit" && u && u.hex ? ownedPiecesAt(u.hex) : []),
              { "data-more": id, class: "more" }));
          }
          group.appendChild(all);
          box.appendChild(group);
          continue;
        }
      }
      group.appendChild(list);
      box.appendChild(group);
    }
  }

  function renderSelection() {
    const box = $("selection");
    $("choices").hidden = Boolean(selection);
    if (!selection) { box.hidden = true; delete body.dataset.selected; return; }
    box.hidden = false;
    const units = unitsById();
    const u = units.get(selection.id);
    text($("selection-title"), selection.kind === "unit"
      ? selection.id + (u && u.name ? " — " + u.name : "") + (u && u.hex ? " at " + u.hex : "")
      : "hex " + selection.id);
    const stack = $("selection-stack");
    stack.replaceChildren();
    if (selection.stack.length > 1) {
      stack.appendChild(make("span", "also here: "));
      for (const id of selection.stack) {
        if (id === selection.id) continue;
        stack.appendChild(button(id, "what " + id + " may do", () => select("unit", id, selection.stack),
          { class: "piece", "data-piece": id }));
      }
    }
    const list = $("selection-orders");
    list.replaceChildren();
    if (!pointed.length) {
      list.appendChild(make("p", "No order of yours names " + selection.id + " now.", { class: "empty" }));
    }
    for (const kind of prompt.actions) {
      const orders = pointed.filter((o) => o.action === kind.name);
      if (!orders.length) continue;
      list.appendChild(make("h4", kind.name + "  (" + kind.case + ")"));
      const row = make("div", null, { class: "buttons" });
      for (const o of orders) {
        row.appendChild(button(withOdds(o.order, o), o.case, () => compose([o].concat(pointed.filter((x) => x !== o &&
          (x.at || []).join() === (o.at || []).join()))), { "data-order": o.order, class: "order" }));
      }
      list.appendChild(row);
    }
  }

  // -- standing orders (docs/play-by-email.md, "Standing orders"): PUT .../standing, as any API client ------------
  const mayStand = () => Boolean(prompt && !prompt.outcome && (mine() || (prompt.waiting_for_players || []).length));

  function standingClauses() {
    return $("standing-clauses").value.split(";").map((c) => c.trim()).filter((c) => c);
  }

  function standingLine() {           // the line an email would carry: `standing KIND: CLAUSE; CLAUSE`
    return "standing " + $("standing-kind").value + ": " + standingClauses().join("; ");
  }

  function renderStandingLine() {
    const line = standingLine();
    text($("standing-text"), line);
    if (standingClauses().length) body.dataset.standingComposed = line; else delete body.dataset.standingComposed;
  }

  function renderStanding() {
    const kinds = standing ? Object.keys(standing.kinds) : [];
    $("standing").hidden = !kinds.length;
    if (!kinds.length) return;
    const may = mayStand();
    const set = Object.entries(standing.standing);
    $("standing-none").hidden = set.length > 0;
    $("standing-lines").replaceChildren(...set.map(([kind, clauses]) => {
      const li = make("li", null, { "data-kind": kind });
      li.appendChild(make("code", "standing " + kind + ": " + clauses.join("; ")));
      if (may) {
        li.appendChild(button("cancel", "ask me again for " + kind + " (standing " + kind + ": ask)",
          () => setStanding(kind, []), { class: "cancel", "data-kind": kind }));
      }
      return li;
    }));
    const select = $("standing-kind");
    const chosen = select.value;
    if ([...select.options].map((o) => o.value).join() !== kinds.join()) {
      select.replaceChildren(...kinds.map((k) => make("option", k, { value: k })));
      if (kinds.includes(chosen)) select.value = chosen;
    }
    const kind = standing.kinds[select.value];
    text($("standing-orders"), kind.orders.length ? "Its orders: " + kind.orders.join(", ") : "");
    $("standing-words").replaceChildren(...kind.words.map((w) => button(w, "add the clause '" + w + "'", () => {
      $("standing-clauses").value = standingClauses().concat([w]).join("; ");
      renderStandingLine();
    }, { class: "word", "data-word": w })));
    $("standing-form").hidden = !may;
    $("standing-when").hidden = may || Boolean(prompt && prompt.outcome);
    renderStandingLine();
  }

  async function loadStanding() {
    const r = await call("GET", "/standing");
    standing = r.ok ? await r.json() : null;
  }

  async function setStanding(kind, clauses) {
    const r = await call("PUT", "/standing", { orders: { [kind]: clauses }, expected_seq: seq });
    const a = await answer(r);
    $("standing-refusal").hidden = r.ok;
    if (!r.ok) {
      text($("standing-refusal"), r.status === 409 ? "The game moved on meanwhile; nothing was set. Look again: " +
        a.message : refused(a));
      await refresh(true);
      return;
    }
    if (clauses.length) $("standing-clauses").value = "";
    say(clauses.length ? "standing order set: standing " + kind + ": " + clauses.join("; ")
      : "standing order for " + kind + " taken away: you are asked");
    if (a.receipt) showReceipt(a.receipt);
    await refresh(true);
    body.dataset.standing = String(a.seq);
  }

  // -- the clock (docs/play-by-email.md, "Clocks"): vacation, a draw, resigning, each the API call an email's line
  // makes (`vacation N`, `offer draw`, `accept draw`, `decline draw`, `resign`) ------------------------------------
  const clockOpen = () => Boolean(clock && prompt && !prompt.outcome);

  async function loadClock() {
    const r = await call("GET", "/clock");
    clock = r.ok ? await r.json() : null;
  }

  function vacationLine() { return "vacation " + ($("vacation-days").value || "?"); }

  function renderClock() {
    $("clock").hidden = !clockOpen();
    if (!clockOpen()) { confirming = false; return; }
    text($("clock-text"), clock.clock || "No deadline.");
    const offer = clock.draw_offer;
    $("clock-offer").hidden = !offer;
    text($("clock-offer"), offer === seat ? "You offer a draw: the other side has not answered yet."
      : offer ? offer + " offers a draw: accept it (the game ends in a draw) or decline it (the game goes on)." : "");
    const draws = offer === seat ? [] : offer ? ["accept", "decline"] : clock.takes_draw_offers ? ["offer"] : [];
    $("draw-buttons").replaceChildren(...draws.map((action) => {
      const line = action + " draw";
      return button(line, "as an email's line: " + line, () => clockAction("/draw", { action: action }, line),
        { "data-draw": action, class: action === "accept" ? "primary" : "" });
    }));
    const left = clock.vacation_days - clock.vacation_days_used;
    $("vacation-form").hidden = left < 1;
    $("vacation-days").max = String(Math.max(left, 1));
    text($("vacation-left"), left + " of " + clock.vacation_days + " day(s) left");
    text($("vacation-text"), vacationLine());
    $("resign").hidden = confirming;
    $("resign-confirm").hidden = !confirming;
  }

  async function clockAction(path, payload, line) {
    const r = await call("POST", path, payload);
    const a = await answer(r);
    $("clock-refusal").hidden = r.status === 201;
    confirming = false;
    if (r.status !== 201) {
      text($("clock-refusal"), refused(a));
      renderClock();
      return;
    }
    say(a.done + " (by email: " + line + ")");
    if (a.receipt) showReceipt(a.receipt);
    await refresh(true);
    body.dataset.clockDone = line + " @" + a.seq;
  }

  function askResign(ask) {
    confirming = ask;
    renderClock();
    $(ask ? "resign-yes" : "resign").focus();
  }

  function renderJoin() {
    $("join").hidden = !(prompt && !prompt.outcome && (prompt.waiting_for_players || []).includes(seat));
  }

  function render() {
    renderJoin();
    renderStatus();
    renderOwed();
    renderChoices();
    renderSelection();
    renderCompose();
    renderStanding();
    renderClock();
    markMap();
    $("undo").hidden = !(prompt && !prompt.outcome);
  }

  // -- the history, the receipt --------------------------------------------------------------------------------
  // Only the events after those shown are asked for; the whole window again when one of them takes events back
  // (core.Retracted marks earlier lines) or the game has ended since (nothing is hidden any more).
  async function loadHistory(whole) {
    const first = Math.max(1, seq - HISTORY_LINES + 1);
    const from = whole || !linesTo ? first : Math.max(linesTo + 1, first);
    const append = !whole && linesTo > 0 && from === linesTo + 1;
    if (from > seq) return;
    const r = await call("GET", "/history?from=" + from + "&limit=1000");
    if (!r.ok) return;
    const a = await r.json();
    if (append && a.events.some((e) => e.type === "core.Retracted")) return loadHistory(true);
    lines = (append ? lines.concat(a.events) : a.events).slice(-HISTORY_LINES);
    // the events up to the head this side is not shown stay unshown (a rule set's `visible` reads the event alone)
    linesTo = Math.max(seq, a.events.length ? a.events[a.events.length - 1].seq : 0);
    const ol = $("history");
    ol.replaceChildren(...lines.map((e) => {
      const li = make("li", e.text, { value: String(e.seq) });
      if (e.retracted) li.classList.add("retracted");
      if (e.type === "core.OrderGiven") li.classList.add("order");
      return li;
    }));
    toBottom(ol);
    renderTalk(lines.filter((e) => e.type === "core.MessageSent"));
  }

  // table talk (docs/play-by-email.md, "Table talk"): the history's messages this seat may read, and its own
  function renderTalk(said) {
    $("talk-none").hidden = said.length > 0;
    const ol = $("talk-lines");
    ol.replaceChildren(...said.map((e) => {
      const li = make("li", e.text, { value: String(e.seq) });
      if (e.text.startsWith(seat + " ")) li.classList.add("mine");
      return li;
    }));
    toBottom(ol);
  }

  // a list scrolled to its last line at the next frame, when this reading's other changes are made: read now, its
  // height laid the page out once more in the middle of the reading (the map picture not yet drawn)
  function toBottom(ol) { requestAnimationFrame(() => { ol.scrollTop = ol.scrollHeight; }); }

  async function loadReceipt() {
    const r = await call("GET", "/chain?from=" + seq);
    if (!r.ok) return;
    const a = await r.json();
    if (a.receipt) showReceipt(a.receipt);
  }

  // -- keeping up with the game: the state's ETag, asked again every few seconds -------------------------------
  // One reading at a time: the poll's and an order's reading could otherwise overlap and finish out of order, the
  // older one drawing its prompt over the newer one's (a seat that had just joined was shown its join form again).
  let reading = Promise.resolve(false);
  function refresh(force) {
    reading = reading.catch(() => false).then(() => readState(force));
    return reading;
  }

  async function readState(force) {
    const r = await call("GET", "/state", undefined, etag && !force ? { "If-None-Match": etag } : {});
    if (r.status === 304) return false;
    if (!r.ok) {
      const a = await answer(r);
      say((r.status === 401 || r.status === 403 ? "signed out of this game: open the play link from your game " +
        "email again. " : "") + a.message);
      return false;
    }
    etag = r.headers.get("ETag");
    const state = await r.json();
    const moved = seq !== null && state.seq !== seq;
    seq = state.seq;
    view = state.view;
    // all at once: the orders, the picture, the history and the receipt of this head
    const known = linesTo;
    const asked = [call("GET", "/actions"), call("GET", "/map.svg"), loadHistory(), loadReceipt(), loadStanding(),
      loadClock()];
    const [actions, picture] = await Promise.all(asked.slice(0, 2));
    if (actions.ok) prompt = await actions.json();
    if (picture.ok) drawMap(await picture.text());
    else if (picture.status === 404) HexMap.message($("map"), "these rules draw no map");
    if (selection) {                  // still an order for what the player pointed at?
      pointed = (mine() && await ordersFor(selection)) || [];
      if (!pointed.length) { selection = null; composed = null; }
    }
    if (composed && !mine()) composed = null;
    await Promise.all(asked);
    if (prompt && prompt.outcome && !over) {  // over since the lines were read: read them as all may now see them
      over = true;
      if (known) await loadHistory(true);
    }
    render();
    if (moved) say("the game moved on: event " + seq);
    body.dataset.seq = String(seq);
    body.dataset.interactive = "1";
    return true;
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, document.hidden ? HIDDEN_POLL_MS : POLL_MS);
  }

  async function poll() {
    if (!sending) {
      try { await refresh(false); } catch (err) { say("cannot reach the server (" + err.message + "); trying again"); }
    }
    schedule();
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });

  // -- the buttons and keys --------------------------------------------------------------------------------
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await call("POST", "/join", { seed_text: $("join-text").value });
    const a = await answer(r);
    if (r.status === 201) {
      say("you joined as " + a.side + "; your words in the dice: " + a.seed_text);
      if (a.receipt) showReceipt(a.receipt);
      await refresh(true);
    } else say(refused(a));
  });
  $("talk-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await call("POST", "/messages", { text: $("talk-text").value, to: $("talk-to").value });
    const a = await answer(r);
    $("talk-refusal").hidden = r.status === 201;
    if (r.status === 201) {
      $("talk-text").value = "";
      if (a.receipt) showReceipt(a.receipt);
      body.dataset.said = String(a.seq);
      await refresh(true);
    } else text($("talk-refusal"), refused(a));
  });
  $("standing-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!standingClauses().length) {    // an empty list would take the kind's standing order away: "cancel" does that
      text($("standing-refusal"), "Give a clause: a word above, or an order of " + $("standing-kind").value);
      $("standing-refusal").hidden = false;
      return;
    }
    setStanding($("standing-kind").value, standingClauses());
  });
  $("standing-kind").addEventListener("change", () => { $("standing-clauses").value = ""; renderStanding(); });
  $("standing-clauses").addEventListener("input", renderStandingLine);
  $("vacation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    clockAction("/vacation", { days: Number($("vacation-days").value) }, vacationLine());
  });
  $("vacation-days").addEventListener("input", () => text($("vacation-text"), vacationLine()));
  $("resign").addEventListener("click", () => askResign(true));
  $("resign-no").addEventListener("click", () => askResign(false));
  $("resign-yes").addEventListener("click", () => clockAction("/resign", undefined, "resign"));
  $("send").addEventListener("click", send);
  $("write-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const order = $("write-text").value.trim();
    if (order) writeOrder(order); else $("write-text").focus();
  });
  $("edit").addEventListener("click", () => {
    $("write-text").value = composedText();
    $("write-text").focus();
  });
  $("cancel").addEventListener("click", () => { composed = null; delete body.dataset.composed; render(); });
  $("unselect").addEventListener("click", () => { unselect(); $("orders-title").focus(); });
  $("undo").addEventListener("click", async () => {
    const r = await call("POST", "/undo");
    const a = await answer(r);
    if (r.status === 201) { say("taken back: event " + a.undone); await refresh(true); } else say(refused(a));
  });
  for (const b of document.querySelectorAll("[data-view]")) b.addEventListener("click", () => map.view(b.dataset.view));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    if (e.key === "Escape") {
      if (confirming) askResign(false); else if (composed) { composed = null; delete body.dataset.composed; render(); } else if (selection) unselect();
      return;
    }
    map.key(e);
  });

  refresh(true).catch((err) => say("cannot load the game: " + err.message)).finally(schedule);
})();
