// Hexledger replay viewer: the chances of victory (issue 29, docs/replay.md "Chances of victory").
// A run of playouts on the server: the button starts it, a progress bar follows it, Cancel stops it; once done,
// the chart and the turning points. Text goes in through textContent only.
"use strict";
(function () {
  const base = document.body.dataset.base;
  const query = window.location.search;
  const $ = (id) => document.getElementById(id);
  const url = (path) => base + path + query;
  const box = $("chances");
  if (!box) return;
  let polling = null;

  function say(message) { $("chances-state").textContent = message; }

  function stop() {
    if (polling) clearTimeout(polling);
    polling = null;
    $("chances-start").disabled = false;
    $("chances-cancel").hidden = true;
    $("chances-progress").hidden = true;
  }

  function draw(found) {
    const img = document.createElement("img");
    img.alt = "chances of victory chart";
    img.src = url("chances.svg");
    const list = document.createElement("ol");
    list.id = "turning-points";
    for (const t of found.turning_points) {
      const li = document.createElement("li");
      const swing = Object.entries(t.swing).map(([s, v]) => s + " " + (v >= 0 ? "+" : "") +
        Math.round(v * 100) + "%").join(", ");
      const cause = t.order ? t.order.text + " (event " + t.order.seq + ")" : (t.event || "no one event moved it");
      li.textContent = "turn " + t.turn + ": " + swing + ": " + cause + (t.dice.length ? "; " + t.dice.join("; ") : "");
      list.appendChild(li);
    }
    const head = document.createElement("h3");
    head.textContent = "Turning points";
    $("chances-result").replaceChildren(img, head, list);
  }

  async function poll(again) {
    const r = await fetch(url("chances.json") + (again ? (query ? "&" : "?") + "again=1" : ""),
                          { credentials: "same-origin" });
    const answer = await r.json().catch(() => ({}));
    if (r.status === 202) {
      const bar = $("chances-progress");
      bar.hidden = false;
      bar.max = answer.total || 1;
      bar.value = answer.done || 0;
      say("playouts: " + (answer.done || 0) + " of " + (answer.total || "?"));
      polling = setTimeout(() => poll(false), 1000);
      return;
    }
    stop();
    if (r.ok && answer.state === "done") {
      say("after every Game-Turn: " + answer.method);
      draw(answer);
    } else {
      say(answer.state === "cancelled" ? "cancelled" : (answer.message || "could not work the chances out"));
    }
  }

  $("chances-start").addEventListener("click", () => {
    $("chances-start").disabled = true;
    $("chances-cancel").hidden = false;
    say("starting…");
    poll(true);
  });
  $("chances-cancel").addEventListener("click", async () => {
    await fetch(url("chances.json"), { method: "DELETE", credentials: "same-origin" });
  });
})();
