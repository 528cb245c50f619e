"""The list of legal orders (app/rules/legal.py) per position, three ways on the same positions in one run:

1. nothing kept: every probe derives the position again (`Memo.memo` switched off, SNC's reaches not kept);
2. the per-position memo (app/rules/engine/state.py `Memo`: zones of control, reaches, supply, the prompt traced
   once per state), SNC's reaches not kept from one position to the next;
3. the memo and SNC's reaches kept across positions (app/rules/snc/movement.py `_REACHES`, emptied first).

Positions: those of random legal games per rule set (tests/fuzzing.py, seeded), every `--every`-th one up to
`--positions` (`--every 1`: consecutive positions, as the fuzzer, a player reading `show` after each order or the
turn email see them). The three runs must list the same orders (exit status 1 otherwise).

Across two checkouts (a change to the listing must keep it): `--save FILE` plays seeded random games and writes
their orders and, at every `--every`-th position, the full list with its CPU time; `--compare FILE`, run in the
other checkout, replays those games (same orders, same dice) and lists again at the same positions: the CPU time
of both beside each other, and exit status 1 if any list differs; a list that differs only in the order of its
orders is counted apart, and the orders added or left out are counted by verb. (This file runs in a checkout older than
itself: it switches off only what that checkout has.)

Usage: python bench/legal_orders.py [--games snc ichigo] [--positions 25] [--every 7] [--seed 0]
       python bench/legal_orders.py --save before.json [--games ...] [--positions 300] [--every 3]
       python bench/legal_orders.py --compare before.json
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import json
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

from app.events.dice import SeededDice  # noqa: E402
from app.rules import legal  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.engine.state import Memo  # noqa: E402
from app.rules.kernel.memo import IdentityMemo  # noqa: E402
from app.rules.snc import movement as snc_movement  # noqa: E402
from tests import fuzzing  # noqa: E402  (the random legal player)

CATALOG = installed()  # the rule sets installed here


def positions(rules, seed: int, every: int, most: int) -> list:
    """Every `every`-th position of seeded random legal games (seed, seed + 1, ...) until there are `most`."""
    seen: list = []
    while len(seen[::every]) < most:
        seen += played(rules, seed, every * most)[0]
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
    if hasattr(snc_movement, "_REACHES"):
        stack.enter_context(mock.patch.object(snc_movement, "_REACHES", IdentityMemo(4)))
        if not reaches:
            stack.enter_context(mock.patch.object(snc_movement, "REACHES_KEPT", 0))
    return stack


def played(rules, seed: int, max_orders: int) -> tuple[list, list[str]]:
    """One seeded random legal game: its positions, and the order played at each."""
    seen: list = []
    taken: list[str] = []
    draw = fuzzing.legal_candidates(rules)

    def keep(state, rng):
        seen.append(state)
        taken.append("")
        for text in draw(state, rng):
            taken[-1] = text  # the last one tried is the one accepted
            yield text

    fuzzing.play(rules, keep, random.Random(seed), max_orders, f"bench{seed}")
    return seen, taken


def listed(rules, state) -> tuple[float, list[dict]]:
    start = time.process_time()
    found = legal.legal_orders(rules, state, rules.prompt(state).side)
    return time.process_time() - start, found


def save(path: str, names: list[str], seed: int, every: int, most: int) -> int:
    out: dict = {}
    for name in names:
        rules = CATALOG.rules(name)
        games, count, s = [], 0, seed
        while count < most:
            states, taken = played(rules, s, every * most)
            lists = {}
            for i in range(0, len(states), every):
                if count < most:
                    lists[i] = listed(rules, states[i])
                    count += 1
            games.append({"seed": s, "orders": taken, "lists": {i: found for i, (_, found) in lists.items()},
                          "cpu": sum(t for t, _ in lists.values())})
            s += 1
        out[name] = games
        cpu = sum(g["cpu"] for g in games)
        print(f"{name:8} {count} positions of {len(games)} games saved; listing CPU {cpu:.2f} s")
    Path(path).write_text(json.dumps(out))
    return 0


def compare(path: str) -> int:
    bad = 0
    print(f"{'game':8} {'positions':>9} {'saved CPU s':>12} {'now CPU s':>10} {'speed-up':>9} {'differ':>7} "
          f"{'in order only':>13}")
    changes: dict[str, collections.Counter] = {}
    for name, games in json.loads(Path(path).read_text()).items():
        rules = CATALOG.rules(name)
        before = now = 0.0
        count = differ = reordered = 0
        changed = changes[name] = collections.Counter()
        for g in games:
            state = rules.initial_state(next(iter(rules.scenarios)), {})
            dice = SeededDice(next_index=0, seed=f"bench{g['seed']}", game_id="fuzz")
            for i, text in enumerate(g["orders"]):
                if str(i) in g["lists"]:
                    t, found = listed(rules, state)
                    now += t
                    count += 1
                    found = json.loads(json.dumps(found))
                    saved = g["lists"][str(i)]
                    if found != saved:
                        differ += 1
                        ours, theirs = {o["order"] for o in found}, {o["order"] for o in saved}
                        reordered += ours == theirs
                        changed.update(f"+{o.split()[0]}" for o in ours - theirs)
                        changed.update(f"-{o.split()[0]}" for o in theirs - ours)
                if not text:
                    break
                side = rules.prompt(state).side
                for e in rules.decide(state, rules.parse(text, side, state), dice):
                    state = rules.evolve(state, e)
            before += g["cpu"]
        bad += differ
        print(f"{name:8} {count:9} {before:12.2f} {now:10.2f} {before / now:8.1f}x {differ:7} {reordered:13}")
    for name, changed in changes.items():
        if changed:  # which kinds of order a listing change adds (+) or leaves out (-), over all positions
            print(f"{name:8} orders listed now but not saved (+) and saved but not now (-), by verb: "
                  + ", ".join(f"{k} {n}" for k, n in sorted(changed.items())))
    if bad:
        print(f"PROBLEM: {bad} position(s) list other orders than saved")
    return 1 if bad else 0


RUNS = (("nothing kept", False, False), ("memo per position", True, False), ("memo + reaches kept", True, True))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="+", default=["snc", "ichigo"])
    ap.add_argument("--positions", type=int, default=25)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", metavar="FILE", help="save seeded games' lists of legal orders (see above)")
    ap.add_argument("--compare", metavar="FILE", help="replay saved games and compare their lists")
    args = ap.parse_args()
    if args.save:
        return save(args.save, args.games, args.seed, args.every, args.positions)
    if args.compare:
        return compare(args.compare)
    print(f"python {platform.python_version()} on {platform.machine()}; legal_orders per position, "
          f"{args.positions} positions a game (every {args.every}th of seeded random games); "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'game':8} {'run (CPU time)':22} {'positions':>9} {'total s':>8} {'mean ms':>8} {'worst ms':>9} "
          f"{'orders':>7}")
    bad = 0
    for name in args.games:
        rules = CATALOG.rules(name)
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
