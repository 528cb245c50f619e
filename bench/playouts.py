"""Playouts a second per game (issue 29): the strong opponent's playouts run through the rules themselves, so how
many it runs in its 2 s of CPU is how far it sees; and the chances' playouts, with greedy for both sides.

For each game, a position a few dozen orders in (the random player for both sides from the start, dice seeded
"bench"; the same walks as tests/rules/test_pinned_decisions.py), then `search:N` decides there: its reason says
how many playouts it ran, and the CPU time of the decision (its list of candidates included) gives the playouts a
second. Beside it, in the same process: greedy's playouts as app/projections/chances.py plays them (both sides,
from the same position, through the step changes of the next `--orders` orders at most), a second.

A same-run baseline: `--against DIR`, another checkout (main, say): each round runs this checkout and that one, one
after the other, each in its own process (`--worker`), so both see the same load; the figures are medians of
`--rounds` rounds, and the decisions each checkout gave are compared (they must be the same: exit status 1 if
not).

    nice -n 19 python bench/playouts.py [--games snc,formosa] [--playouts 24] [--rounds 3] [--against /work/main]

No test runs this; no test asserts a time.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# game, scenario, random orders from the start to the position measured
POSITIONS = {
    "skirmish": ("standard", 30), "snc": ("campaign", 60), "ichigo": ("campaign", 45),
    "olympic": ("solitaire", 25), "daisenso": ("strait", 7), "formosa": ("1", 100),
}


def worker(root: Path, games: list[str], playouts: int, orders: int) -> dict:
    """This process's figures, with the code of checkout `root`."""
    sys.path[:0] = [str(root)]
    import random

    from app.events.dice import SeededDice
    from app.projections import chances
    from app.rules import practice
    from app.rules.catalog import installed

    catalog = installed()
    out = {}
    for game in games:
        rules = catalog.rules(game)
        scenario, walk = POSITIONS[game]
        state = rules.initial_state(scenario, {})
        dice = SeededDice(next_index=0, seed="bench", game_id=f"bench-{game}")
        given = dict.fromkeys(rules.sides, 0)
        for _ in range(walk):
            side = rules.prompt(state).side
            if side is None or rules.outcome(state) is not None:
                break
            text, _ = practice.choose(rules, "random", state, side, {"edition": 3}, given[side])
            for event in rules.decide(state, rules.parse(text, side, state), dice):
                state = rules.evolve(state, event)
            given[side] += 1
        side = rules.prompt(state).side
        name, settings = practice.parse_spec(rules, f"search:{playouts}")
        start = time.process_time()
        text, reason = practice.choose(rules, name, state, side, settings, given[side])
        cpu = time.process_time() - start
        done = reason.get("playouts", 0)
        shared = chances.Shared(f"bench-{game}")
        start = time.process_time()
        reached = []
        for j in range(playouts):
            reached.append(chances_playout(chances, rules, state, j, shared, orders, random))
        greedy_cpu = time.process_time() - start
        out[game] = {"step": rules.prompt(state).step, "search": text, "playouts": done, "cpu": cpu,
                     "per_second": done / cpu if cpu else 0.0, "greedy_per_second": playouts / greedy_cpu,
                     "greedy_reached": reached}
    return out


def chances_playout(chances, rules, state, j: int, shared, orders: int, random) -> str:
    """One of the chances' greedy playouts from `state`, at most `orders` orders (its own loop: the module's
    `playout` stops at a Game-Turn's end, which a position mid-turn may not reach); where it ends, as a digest."""
    from app.rules.search import PlayoutDice

    dice = PlayoutDice(random.Random(f"bench:{j}"))
    for k in range(orders):
        if rules.outcome(state) is not None:
            break
        side = rules.prompt(state).side
        if side is None:
            break
        known = shared.after.get(id(state))
        if known is not None and known[0] is state:
            state = known[1]
            continue
        rolled = dice.next_index
        after = chances._fast(rules, state, side, "greedy", dice, shared.tie_break(k))
        if after is None:
            break
        if dice.next_index == rolled:
            shared.after[id(state)] = (state, after)
        state = after
    return f"{rules.prompt(state).step} after {dice.next_index} dice"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(POSITIONS))
    parser.add_argument("--playouts", type=int, default=24, help="the search's playouts a decision (search:N), and "
                                                                 "greedy's playouts from each position")
    parser.add_argument("--orders", type=int, default=60, help="orders a greedy playout gives, at most")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", default="", help="another checkout, measured in the same run")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = args.games.split(",")
    if args.worker:
        print(json.dumps(worker(Path(args.worker), games, args.playouts, args.orders)))
        return 0
    roots = {"this": ROOT} | ({"against": Path(args.against).resolve()} if args.against else {})
    runs: dict[str, list[dict]] = {k: [] for k in roots}
    for r in range(args.rounds):
        for key, root in (roots.items() if r % 2 == 0 else reversed(roots.items())):
            cmd = [sys.executable, __file__, "--worker", str(root), "--games", args.games,
                   "--playouts", str(args.playouts), "--orders", str(args.orders)]
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode:
                raise SystemExit(f"{key} ({root}) failed:\n{done.stderr[-2000:]}")
            runs[key].append(json.loads(done.stdout.splitlines()[-1]))
            print(f"# round {r + 1}, {key}: done", flush=True)
    load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load "
          f"average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; medians of {args.rounds} rounds; search:"
          f"{args.playouts}, greedy playouts of at most {args.orders} orders")
    print(f"{'game':9} {'search playouts/s':>18} {'baseline':>9} {'ratio':>6}   {'greedy playouts/s':>18} "
          f"{'baseline':>9} {'ratio':>6}  position")
    same = True
    for game in games:
        mine = [run[game] for run in runs["this"]]
        line = f"{game:9} {statistics.median(m['per_second'] for m in mine):18.1f}"
        theirs = [run[game] for run in runs.get("against", [])]
        if theirs:
            a, b = (statistics.median(m["per_second"] for m in x) for x in (mine, theirs))
            line += f" {b:9.1f} {a / b:5.2f}x"
        else:
            line += f" {'':9} {'':6}"
        g = statistics.median(m["greedy_per_second"] for m in mine)
        line += f"   {g:18.2f}"
        if theirs:
            gb = statistics.median(m["greedy_per_second"] for m in theirs)
            line += f" {gb:9.2f} {g / gb:5.2f}x"
            for m in mine + theirs:
                if (m["search"], m["playouts"], m["greedy_reached"]) != (mine[0]["search"], mine[0]["playouts"],
                                                                       mine[0]["greedy_reached"]):
                    same = False
                    print(f"# {game}: the checkouts decide differently: {m['search']!r} vs {mine[0]['search']!r}")
        line += f"  {mine[0]['step']}"
        print(line)
    if args.against:
        print("same decisions in both checkouts: " + ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
