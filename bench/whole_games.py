"""Whole games' CPU, and proof that a change to the rules code decides as before (CI time, docs/benchmarks.md).

Each game below is played from its start to its end (or `--orders` orders) by one practice policy for both sides,
as tests/core/test_practice_opponents.py plays them: `practice.choose`, the side's count of orders given, dice
seeded per game. For each game: the CPU seconds it took, the orders given, and a sha256 digest of every order, every
reason and every event, in order: two checkouts that print the same digest decided every order of that game alike.

A same-run baseline: `--against DIR`, another checkout (main, say): each round runs this checkout and that one, one
after the other for each game (which one first alternating game by game and round by round), each game in its own
process, so both see the same load; the CPU figures are medians of `--rounds` rounds. Exit status 1 if the digests
differ anywhere.

    nice -n 10 python bench/whole_games.py [--games snc:greedy,formosa/1:random] [--rounds 3] [--against /work/main]
    nice -n 10 python bench/whole_games.py --profile snc:greedy    # cProfile of one game, top 30 by own time

No test runs this; no test asserts a time.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# game[/scenario]:policy; the scenario defaults to the game's first
GAMES = ("snc:greedy", "snc:search:4", "snc:random", "ichigo:greedy", "ichigo:search:4", "ichigo:random",
         "formosa/1:greedy", "formosa/1:search:4", "formosa/1:random", "formosa/2:random", "skirmish:random",
         "daisenso:random", "olympic:random")


def _parse(entry: str) -> tuple[str, str | None, str]:
    where, _, spec = entry.partition(":")
    game, _, scenario = where.partition("/")
    return game, scenario or None, spec


def play(catalog, entry: str, orders: int) -> dict:
    """One whole game: {cpu, orders, digest, end}."""
    from app.events.dice import SeededDice
    from app.rules import practice

    game, scenario, spec = _parse(entry)
    rules = catalog.rules(game)
    scenario = scenario or next(iter(rules.scenarios))
    start = time.process_time()
    state = rules.initial_state(scenario, {})
    dice = SeededDice(next_index=0, seed=f"whole-games {entry}", game_id="g")
    name, settings = practice.parse_spec(rules, spec)
    given = dict.fromkeys(rules.sides, 0)
    digest = hashlib.sha256()
    n = 0
    for n in range(orders):  # noqa: B007 - n is the count of orders given
        if rules.outcome(state) is not None:
            break
        side = rules.prompt(state).side
        text, reason = practice.choose(rules, name, state, side, settings, given[side])
        digest.update(f"{side}\n{text}\n{json.dumps(reason, sort_keys=True, default=str)}\n".encode())
        for event in rules.decide(state, rules.parse(text, side, state), dice):
            digest.update(f"{event!r}\n".encode())
            state = rules.evolve(state, event)
        given[side] += 1
    else:
        n = orders
    cpu = time.process_time() - start
    return {"cpu": cpu, "orders": n, "digest": digest.hexdigest(), "end": repr(rules.outcome(state))[:60]}


def worker(root: Path, entries: list[str], orders: int) -> dict:
    """This process's figures, with the code of checkout `root`."""
    sys.path[:0] = [str(root)]
    from app.rules.catalog import installed

    catalog = installed()
    return {entry: play(catalog, entry, orders) for entry in entries}


def profile(entry: str, orders: int) -> None:
    import cProfile
    import pstats

    from app.rules.catalog import installed

    catalog = installed()
    prof = cProfile.Profile()
    prof.enable()
    out = play(catalog, entry, orders)
    prof.disable()
    print(json.dumps(out))
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)
    pstats.Stats(prof).sort_stats("cumulative").print_stats(40)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--orders", type=int, default=6000, help="orders a game gives at most")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--against", default="", help="another checkout, measured in the same run")
    parser.add_argument("--profile", default="", help="one game to profile in this process")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.orders)
        return 0
    entries = args.games.split(",")
    if args.worker:
        print(json.dumps(worker(Path(args.worker), entries, args.orders)))
        return 0
    roots = {"this": ROOT} | ({"against": Path(args.against).resolve()} if args.against else {})
    runs: dict[str, list[dict]] = {k: [] for k in roots}
    for r in range(args.rounds):
        for key in roots:
            runs[key].append({})
        for i, entry in enumerate(entries):  # one process a game (no game's caches warm another's), the checkouts
            order = list(roots.items())     # one after the other, which first alternating game by game
            for key, root in (order if (r + i) % 2 == 0 else order[::-1]):
                cmd = [sys.executable, __file__, "--worker", str(root), "--games", entry, "--orders", str(args.orders)]
                done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=root)
                if done.returncode:
                    raise SystemExit(f"{key} ({root}) failed on {entry}:\n{done.stderr[-2000:]}")
                got = json.loads(done.stdout.splitlines()[-1])[entry]
                runs[key][r][entry] = got
                print(f"# round {r + 1}, {key}, {entry}: {got['cpu']:.2f} s, {got['orders']} orders, "
                      f"{got['digest'][:16]}", flush=True)
    load = os.getloadavg()
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load "
          f"average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; CPU s a game, medians of {args.rounds} "
          f"rounds")
    print(f"{'game':22} {'orders':>6} {'CPU s':>7} {'baseline':>8} {'ratio':>6}  digest")
    same = True
    for entry in entries:
        mine = [run[entry] for run in runs["this"]]
        theirs = [run[entry] for run in runs.get("against", [])]
        cpu = statistics.median(m["cpu"] for m in mine)
        line = f"{entry:22} {mine[0]['orders']:6} {cpu:7.2f}"
        if theirs:
            base = statistics.median(m["cpu"] for m in theirs)
            line += f" {base:8.2f} {cpu / base:5.2f}x"
        else:
            line += f" {'':8} {'':6}"
        digests = {m["digest"] for m in mine + theirs}
        line += "  " + mine[0]["digest"][:16] + ("" if len(digests) == 1 else "  DIFFERENT: " + " ".join(
            sorted(d[:16] for d in digests)))
        same = same and len(digests) == 1
        print(line)
    if args.against:
        print("same decisions in both checkouts: " + ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
