"""Whether a side of a short scenario can win against one defence (issue 29): every order the rule set lists for
the side (uncut), every face of every die, the other side's every decision given by a fixed defence. "CANNOT" proves
the side cannot win against a defence that plays to stop it, whatever it plays and rolls (bench/opponents.py
`HOPELESS`), as bench/scenario_value.py's `chance` does, but walks one order of the other side's where `chance`
walks them all: a scenario whose defender has many orders (Dai Senso's August Storm: `chance` was stopped at 250,000
positions) is decided by a walk of the side's own orders alone. "can" proves nothing about other defences; it
prints the line (the side's orders and the dice) that wins against this one.

The defence, `stand`: end the step where the list offers an end (no attack, no advance, no move: the defender keeps
what it holds); else, among what the step requires (a loss, a retreat, a support), the order after which the rule
set's `stakes` read best for the defender (dice showing 1; the first listed among equals).

    python bench/against_defence.py daisenso august-storm --side allied [--max-orders 60]

Run it `nice -n 19`: it is CPU-bound. No test runs this.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from scenario_value import Solver  # noqa: E402

from app.rules import practice  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.errors import OrderError  # noqa: E402


def stand(rules, state, side: str, listed: list[dict]) -> str:
    """The defence's order for `side` (see the module docstring)."""
    texts = [item["order"] for item in listed]
    ends = [t for t in texts if t.split()[0] in practice.ENDS]
    if ends:
        return ends[0]
    stakes = getattr(rules, "stakes", None)
    if stakes is None:
        return texts[0]

    def reading(text: str) -> float:
        try:
            after = practice.after(rules, state, rules.parse(text, side, state))
        except (OrderError, ValueError, KeyError):
            return float("-inf")
        return float("-inf") if after is None else stakes(after, side)

    return max(texts, key=lambda t: (reading(t), -texts.index(t)))


class Defended(Solver):
    """bench/scenario_value.py's walk with the other side's orders given by `stand`."""

    def _moves(self, state, depth: int):
        mover, listed = super()._moves(state, depth)
        if mover != self.side:
            chosen = stand(self.rules, state, mover, listed)
            listed = [item for item in listed if item["order"] == chosen]
        return mover, listed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("scenario")
    parser.add_argument("--side", required=True)
    parser.add_argument("--max-orders", type=int, default=60)
    parser.add_argument("--max-positions", type=int, default=2_000_000)
    args = parser.parse_args()
    rules = installed().rules(args.game)
    sys.setrecursionlimit(20000)
    started = time.process_time()
    solver = Defended(rules, args.side, args.max_orders, args.max_positions)
    line = solver.reach(rules.initial_state(args.scenario, {}))
    verdict = "can win against it" if line is not None else \
        "CANNOT win against it: nor against a defence that plays to stop it, whatever it plays and rolls"
    print(f"{args.game} {args.scenario}: {args.side}, the other side standing (`stand`): {verdict} "
          f"({solver.positions} positions, {time.process_time() - started:.1f} s CPU)", flush=True)
    for order in line or ():
        print(f"    {order}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
