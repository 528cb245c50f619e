// Hexledger replay viewer: analysis boards (issue 29, docs/replay.md "The analysis board").
// On a game's page: open a board at the event shown. On a board's page: give an order for either side with the
// dice chosen, or let a policy play a side. Bodies are JSON; text goes in through textContent only.
"use strict";
(function () {
  const base = document.body.dataset.base;
  const $ = (id) => document.getElementById(id);
  const box = $("analysis-board");
  if (!box) return;

  function say(message) { $("board-state").textContent = message; }

  async function post(path, body) {
    const r = await fetch(base + path, { method: "POST", credentials: "same-origin",
                                         headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(body) });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(answer.message || ("refused (" + r.status + ")"));
    return answer;
  }

  async function act(button, work) {
    button.disabled = true;
    say("…");
    try {
      await work();
    } catch (e) {
      say(e.message);
    } finally {
      button.disabled = false;
    }
  }

  const open = $("board-open");
  if (open) {
    open.addEventListener("click", () => act(open, async () => {
      const answer = await post("board.json", { at: Number(document.body.dataset.seq) });
      window.location.assign(answer.url);
    }));
  }
  const give = $("board-give");
  if (give) {
    give.addEventListener("click", () => act(give, async () => {
      const dice = $("board-dice").value.split(",").map((v) => v.trim()).filter((v) => v).map(Number);
      const rows = await post("board/order.json", { side: $("board-side").value, order: $("board-order").value,
                                                   dice: dice });
      say(rows.map((r) => "#" + r.seq + " " + r.text).join("\n"));
      document.body.dataset.boardDone = String(rows.length ? rows[rows.length - 1].seq : "");
    }));
  }
  const play = $("board-play");
  if (play) {
    play.addEventListener("click", () => act(play, async () => {
      const answer = await post("board/play.json", { side: $("board-side").value, policy: $("board-policy").value,
                                                     orders: Number($("board-orders").value) || 1 });
      say(answer.orders.length ? answer.orders.join("\n") : "no order: it is not that side's turn");
      document.body.dataset.boardPlayed = String(answer.orders.length);
    }));
  }
})();
