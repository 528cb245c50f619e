"""The list of legal orders (app/rules/legal.py) per position, three ways on the same positions in one run:

1. nothing kept: every probe derives the position again (`Memo.memo` switched off, SNC's reaches not kept);
2. the per-position memo (app/rules/engine/state.py `Memo`: zones of control, reaches, supply, the prompt traced
   once per state), SNC's reaches not kept from one position to the next;
3. the memo and SNC's reaches kept across positions (app/rules/snc/movement.py `_REACHES`, emptied first).

Positions: those of random legal games per rule set (tests/fuzzing.py, seeded), every `--every`-th one up to
`--positions` (`--every 1`: consecutive positions, as the fuzzer, a player reading `show` after each order or the
turn email see them). The three runs must list the same orders (exit status 1 otherwise).

Usage: python bench/legal_orders.py [--games snc ichigo] [--positions 25] [--every 7] [--seed 0]
"""
from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from app.rules import legal  # noqa: E402
from app.rules.catalog import get_rules  # noqa: E402
from app.rules.engine.state import Memo  # noqa: E402
from app.rules.kernel.memo import IdentityMemo  # noqa: E402
from app.rules.snc import movement as snc_movement  # noqa: E402
from tests import fuzzing  # noqa: E402  (the random legal player)


def positions(rules, seed: int, every: int, most: int) -> list:
    """Every `every`-th position of seeded random legal games (seed, seed + 1, ...) until there are `most`."""
    seen: list = []
    draw = fuzzing.legal_candidates(rules)

    def keep(state, rng):
        seen.append(state)
        return draw(state, rng)

    while len(seen[::every]) < most:
        fuzzing.play(rules, keep, random.Random(seed), every * most, f"bench{seed}")
        seed += 1
    return seen[::every][:most]


def timed(rules, states) -> tuple[list[float], list[list[str]]]:
    seconds, lists = [], []
    for s in states:
        start = time.process_time()  # CPU time: the machine is shared, and the listing is one thread's work
        found = legal.legal_orders(rules, s, rules.prompt(s).side)
        seconds.append(time.process_time() - start)
        lists.append([o["order"] for o in found])
    return seconds, lists


def fresh(state):
    """The same position as a new object, with nothing derived from it yet."""
    return replace(state)


def kept(memo: bool, reaches: bool) -> contextlib.ExitStack:
    """Switch the per-position memo and SNC's reaches across positions on or off (the reaches emptied)."""
    stack = contextlib.ExitStack()
    if not memo:
        stack.enter_context(mock.patch.object(Memo, "memo", lambda self, key, compute: compute()))
    stack.enter_context(mock.patch.object(snc_movement, "_REACHES", IdentityMemo(4)))
    if not reaches:
        stack.enter_context(mock.patch.object(snc_movement, "REACHES_KEPT", 0))
    return stack


RUNS = (("nothing kept", False, False), ("memo per position", True, False), ("memo + reaches kept", True, True))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="+", default=["snc", "ichigo"])
    ap.add_argument("--positions", type=int, default=25)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}; legal_orders per position, "
          f"{args.positions} positions a game (every {args.every}th of seeded random games); "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'game':8} {'run (CPU time)':22} {'positions':>9} {'total s':>8} {'mean ms':>8} {'worst ms':>9} "
          f"{'orders':>7}")
    bad = 0
    for name in args.games:
        rules = get_rules(name)
        states = positions(rules, args.seed, args.every, args.positions)
        results = []
        for label, memo, reaches in RUNS:
            with kept(memo, reaches):
                t, lists = timed(rules, [fresh(s) for s in states])
            results.append((t, lists))
            print(f"{name:8} {label:22} {len(t):9} {sum(t):8.2f} {1000 * sum(t) / len(t):8.1f} "
                  f"{1000 * max(t):9.1f} {sum(map(len, lists)):7}")
        base = sum(results[0][0])
        print(f"{name:8} {'speed-up':22} {'':9} " + "  ".join(f"{base / sum(t):.1f}x" for t, _ in results[1:]))
        if any(lists != results[0][1] for _, lists in results[1:]):
            bad += 1
            print(f"PROBLEM {name}: what is kept changes the list of legal orders")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
