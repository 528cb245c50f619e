"""Issue 29's opponents bench: each practice policy against each other policy, every game, every scenario, both
sides, a fixed list of dice seeds: wins, draws, unfinished, crashes and the CPU per decision.

A game is played through the rules alone (decide + evolve, seeded dice, the policies asked as the automated seats
ask them: app/rules/practice.py `choose`, with the side's count of orders given). Each pairing plays each side:
"search vs random" is the search with the first side and random with the second, then the other way round.

    python bench/opponents.py [--games snc,ichigo] [--policies search,greedy,random] [--seeds s1,s2]
                              [--search search:200] [--edition 3] [--side chinese] [--max-orders 4000] [--json FILE]
                              [--progress] [--resume FILE]
    python bench/opponents.py --report FILE[,FILE...]   (the report of runs written with --json)

Interrupted (Ctrl-C, or `timeout`'s TERM), the bench keeps what was played: the game under way is written to --json
with its orders so far, marked `"interrupted": true` (the report counts it apart, neither won nor unfinished), and
the report of every game is printed. `--resume FILE` (a run's --json, written there again unless --json says
otherwise) plays only what FILE lacks: the games it finished are kept, an interrupted game goes on from its last
order (its orders replayed with the same dice, then the policies decide again), the rest are played.

The goals (issue 29): no crash; the strong opponent (`search`) wins at least 95% of the finished games against
`random` from either side and 70% against `greedy`; its decision within its budget (2 s of CPU by default,
--budget) at the 95th percentile. Every game's scenarios but `custom` (a position file's). Run it `nice -n 19`:
it is CPU-bound and takes one core. No test runs this; no test asserts a time.

A side that cannot win a scenario against a defence that plays to stop it, whatever it plays and rolls, is no
policy's failure: bench/scenario_value.py proves it by walking the whole game, and `HOPELESS` lists each such side
with that proof; the report gives each policy's share with its games from those sides left out, beside the
measure. Scenarios one side won in every game are marked ONE-SIDED (observed, not proven). A side whose every
decision had one legal order (Olympic's Japanese: the rules' programme) chose nothing: its games are left out of
that share too, and the report names the side.
"""
from __future__ import annotations

import argparse
import json
import platform
import signal
import statistics
import sys
import time
import traceback
from collections import defaultdict
from itertools import permutations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from app.events.dice import SeededDice  # noqa: E402
from app.rules import practice  # noqa: E402
from app.rules.catalog import installed  # noqa: E402

CATALOG = installed()  # the rule sets installed here

GAMES = ("skirmish", "snc", "ichigo", "formosa", "daisenso", "olympic")
POLICIES = ("search", "greedy", "random")
SEEDS = ("s1", "s2", "s3", "s4")
SKIP_SCENARIOS = ("custom",)
# Sides of a scenario that cannot win against a defence that plays to stop them, whatever they play and whatever
# the dice show: proven by bench/scenario_value.py (its "has NO chance" line), which walks every listed order of
# both sides and every face of every die. A policy's games from such a side are counted apart in the report.
HOPELESS: dict[tuple[str, str], dict[str, str]] = {
    ("daisenso", "zhejiang"): {"axis": "D16 Quzhou; bench/scenario_value.py, 4250 positions"},
}


def play(rules, scenario: str, specs: dict[str, str], seed: str, max_orders: int, edition: int | None = None,
         progress: bool = False, played: dict | None = None) -> dict:
    """One game: {"winner", "reason", "orders", "cpu": {side: [seconds a decision]}, "choices": {side: decisions
    with more than one legal order}, "crash", "log", "interrupted"}; the log holds
    each order as [side, text, its reason's summary, the search's playouts or None]: what a lost game's orders were
    and what the search thought of them (with the dice seed, enough to replay it exactly). Interrupted
    (KeyboardInterrupt), the game so far, `interrupted` true; `played`: such a game, gone on with from its last
    order."""
    state = rules.initial_state(scenario, {})
    dice = SeededDice(next_index=0, seed=seed, game_id=f"bench-{rules.name}")
    seats = {side: practice.parse_spec(rules, spec) for side, spec in specs.items()}
    if edition is not None:  # the policies as seats of an earlier edition play them (app/rules/practice.py)
        seats = {side: (name, {**settings, "edition": edition} if "edition" in settings else settings)
                 for side, (name, settings) in seats.items()}
    given = dict.fromkeys(rules.sides, 0)
    cpu: dict[str, list[float]] = {side: [] for side in rules.sides}
    choices = dict.fromkeys(rules.sides, 0)
    out = {"orders": 0, "cpu": cpu, "choices": choices, "winner": None, "reason": None, "crash": None, "log": [],
           "interrupted": False}
    if played is not None:
        out.update(orders=len(played["log"]), log=list(played["log"]))
        cpu.update({side: list(seconds) for side, seconds in played["cpu"].items()})
        choices.update(played["choices"])
    turn, started = None, time.perf_counter()
    try:
        if played is not None:
            state = replay(rules, state, dice, played["log"], given)
        while rules.outcome(state) is None and out["orders"] < max_orders:
            if getattr(state, "turn", None) != turn and progress:  # an hour-long game shows where it stands
                turn = state.turn
                print(f"#   turn {turn}: order {out['orders']}, {time.perf_counter() - started:.0f} s", flush=True)
            side = rules.prompt(state).side
            name, settings = seats[side]
            choices[side] += len(rules.legal_orders(state, side)) > 1
            start = time.process_time()
            text, why = practice.choose(rules, name, state, side, settings, given[side])
            cpu[side].append(time.process_time() - start)
            out["log"].append([side, text, why.get("summary"), why.get("playouts")])
            for event in rules.decide(state, rules.parse(text, side, state), dice):
                state = rules.evolve(state, event)
            given[side] += 1
            out["orders"] += 1
    except KeyboardInterrupt:  # the game so far: its log replays it (an order being decided counts as given)
        out.update(interrupted=True, orders=len(out["log"]))
        return out
    except Exception as exc:  # noqa: BLE001 - a crash is what the bench counts
        out["crash"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        return out
    outcome = rules.outcome(state)
    if outcome is not None:
        out["winner"], out["reason"] = outcome.winner or "draw", outcome.reason
    return out


def replay(rules, state, dice, log: list, given: dict[str, int]):
    """The position after an interrupted game's `log`, its orders decided again on the same dice (`given`: each
    side's count of orders, kept up); a log this code no longer plays stops the run (resume it on the code that
    wrote it)."""
    for n, (side, text, *_) in enumerate(log, 1):
        try:
            for event in rules.decide(state, rules.parse(text, side, state), dice):
                state = rules.evolve(state, event)
        except Exception as exc:  # noqa: BLE001 - not the policies' crash: the run stops, its file as it was
            raise SystemExit(f"cannot resume: order {n} of the stored game ({side}: {text!r}) is refused here: "
                             f"{exc}") from exc
        given[side] += 1
    return state


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--policies", default=",".join(POLICIES))
    parser.add_argument("--seeds", default=",".join(SEEDS))
    parser.add_argument("--search", default="search", help="the search's spec: search (about 2 s of CPU a decision), "
                                                           "search:N (N playouts), search:3s")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds a search decision may take")
    parser.add_argument("--edition", type=int, default=None, help="the policies' edition (default: a new seat's); "
                                                                    "compare editions on the same seeds")
    parser.add_argument("--side", default="", help="only the games where the first of --policies plays this side")
    parser.add_argument("--max-orders", type=int, default=4000, help="a game still running after this is unfinished")
    parser.add_argument("--scenarios", default="", help="only these scenarios (comma-separated), else every one")
    parser.add_argument("--json", default="", help="write every game's result here (after each game)")
    parser.add_argument("--progress", action="store_true", help="print a line as each game reaches a new turn")
    parser.add_argument("--report", default="", help="print the report of games a run wrote with --json (one or "
                                                     "more files, comma-separated), playing none")
    parser.add_argument("--resume", default="", help="a run's --json: keep its games, go on with its interrupted "
                                                     "one, play the rest (written to FILE unless --json is given)")
    args = parser.parse_args(argv)
    policies = args.policies.split(",")
    if args.report:
        stored = [g for f in args.report.split(",") for g in json.loads(Path(f).read_text(encoding="utf-8"))]
        report(stored, policies, args.budget)
        return 1 if any(g["crash"] for g in stored) else 0
    resumed = json.loads(Path(args.resume).read_text(encoding="utf-8")) if args.resume else []
    args.json = args.json or args.resume
    only = set(filter(None, args.scenarios.split(",")))
    spec = {p: (args.search if p == "search" else p) for p in policies}
    print(f"# bench/opponents.py on {platform.node()} ({platform.python_version()}), policies {spec}, seeds "
          f"{args.seeds}, at most {args.max_orders} orders a game", flush=True)
    games: list[dict] = [g for g in resumed if not g.get("interrupted")]
    going_on = {game_key(g): g for g in resumed if g.get("interrupted")}
    try:
        run(args, policies, only, spec, games, going_on)
    except KeyboardInterrupt:  # a bounded run (timeout -s INT) reports the games it played, the one under way too
        print(f"# interrupted: {sum(not g.get('interrupted') for g in games)} games finished", flush=True)
    report(games, policies, args.budget)
    if args.json:
        write(args.json, games, going_on)
    return 1 if any(g["crash"] for g in games) else 0


def write(path: str, games: list[dict], going_on: dict[tuple, dict]) -> None:
    """The run's games to `path`, with the interrupted games it was to go on with and has not yet (a resumed run
    that stops again, or plays other games, loses none)."""
    played = {game_key(g) for g in games}
    kept = games + [g for k, g in going_on.items() if k not in played]
    Path(path).write_text(json.dumps(kept, indent=1, default=str), encoding="utf-8")


def game_key(game: dict) -> tuple:
    """What tells a game of the bench from the others: game, scenario, dice seed, who played which side."""
    return game["game"], game["scenario"], game["seed"], tuple(sorted(game["seats"].items()))


def run(args, policies: list[str], only: set[str], spec: dict[str, str], games: list[dict],
        going_on: dict[tuple, dict]) -> None:
    """Every game of the bench not in `games` already, each appended to it as it ends (or is interrupted: then the
    run stops); an interrupted one in `going_on` goes on from where it stopped."""
    done = {game_key(g) for g in games}
    for name in args.games.split(","):
        rules = CATALOG.rules(name)
        offered = practice.policies(rules)
        for scenario in rules.scenarios:
            if scenario in SKIP_SCENARIOS or (only and scenario not in only):
                continue
            for a, b in permutations([p for p in policies if p in offered], 2):
                if args.side in rules.sides and (a, b)[rules.sides.index(args.side)] != policies[0]:
                    continue  # --side: only the first policy's games from that side
                for seed in args.seeds.split(","):
                    specs = dict(zip(rules.sides, (spec[a], spec[b]), strict=True))
                    ident = {"game": name, "scenario": scenario, "seed": seed,
                             "seats": {side: p for side, p in zip(rules.sides, (a, b), strict=True)}}
                    if game_key(ident) in done:
                        continue
                    before = going_on.get(game_key(ident))
                    started = time.perf_counter()
                    result = play(rules, scenario, specs, seed, args.max_orders, args.edition, args.progress, before)
                    result.update(ident, seconds=time.perf_counter() - started + (before or {}).get("seconds", 0))
                    games.append(result)
                    done.add(game_key(ident))  # `--policies greedy,greedy` (self-play): each game once, not twice
                    if args.json:  # after every game: a long run's finished games are readable while it plays
                        write(args.json, games, going_on)
                    got = (result["crash"].splitlines()[0] if result["crash"] else
                           "interrupted" if result["interrupted"] else (result["winner"] or "unfinished"))
                    print(f"{name:9} {scenario:13} {seed:4} {rules.sides[0]}={a:7} {rules.sides[1]}={b:7} -> "
                          f"{got:12} {result['orders']:5} orders {result['seconds']:7.1f} s  {result['reason'] or ''}",
                          flush=True)
                    if result["interrupted"]:
                        raise KeyboardInterrupt


def report(games: list[dict], policies: list[str], budget: float) -> None:
    """Per game and policy pairing: the first policy's wins, draws, losses, unfinished, crashes (both sides
    together, then each side), and games interrupted (counted apart: neither won nor unfinished); the CPU a
    decision per policy and game (an interrupted game's decisions too)."""
    print("\n## Results: the row's policy against the column's, both sides (won-drawn-lost / unfinished / crashed"
          " / interrupted)")
    tally: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for g in games:
        for side, me in g["seats"].items():
            other = next(p for s, p in g["seats"].items() if s != side)
            for key in ((g["game"], me, other, "both"), (g["game"], me, other, side), ("all", me, other, "both")):
                t = tally[key]
                if g["crash"]:
                    t["crash"] += 1
                elif g.get("interrupted"):  # runs written before the bench kept interrupted games have none
                    t["interrupted"] += 1
                elif g["winner"] is None:
                    t["unfinished"] += 1
                elif g["winner"] == "draw":
                    t["draw"] += 1
                elif g["winner"] == side:
                    t["won"] += 1
                else:
                    t["lost"] += 1
    for key in sorted(tally):
        t = tally[key]
        finished = t["won"] + t["draw"] + t["lost"]
        share = f"{100 * t['won'] / finished:5.1f}%" if finished else "    -"
        print(f"{key[0]:9} {key[1]:7} vs {key[2]:7} {key[3]:9} {t['won']:3}-{t['draw']}-{t['lost']:<3} "
              f"won {share} of finished; unfinished {t['unfinished']}, crashed {t['crash']}"
              + (f", interrupted {t['interrupted']}" if t["interrupted"] else ""))
    balance(games, tally)
    print(f"\n## CPU a decision (seconds; the search's budget {budget} s)")
    cpu: dict[tuple, list[float]] = defaultdict(list)
    for g in games:
        for side, me in g["seats"].items():
            cpu[(g["game"], me)] += g["cpu"][side]
            cpu[("all", me)] += g["cpu"][side]
    for key in sorted(cpu):
        values = cpu[key]
        within = sum(1 for v in values if v <= budget) / len(values) if values else 1.0
        median = statistics.median(values) if values else 0.0
        print(f"{key[0]:9} {key[1]:7} {len(values):6} decisions  median {median:7.3f}  p95 "
              f"{percentile(values, 0.95):7.3f}  max {max(values, default=0):7.3f}  within budget {100 * within:5.1f}%")


def balance(games: list[dict], tally: dict) -> None:
    """Which side won each scenario's finished games, every pairing together (one side winning every game,
    whoever played, is one-sided: observed, not proven); then each policy's share against each other with the
    games it played from a side `HOPELESS` lists or a side that never had a choice left out, beside (never instead
    of) the measure."""
    print("\n## Winners by side, per scenario (all pairings): one side winning every game, whoever played, is "
          "one-sided")
    sides: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    chose: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # a side's decisions with a choice
    for g in games:
        if not g["crash"] and g["winner"] is not None:
            sides[(g["game"], g["scenario"])][g["winner"]] += 1
        for side, n in g.get("choices", {}).items():  # runs written before the bench counted them have none
            chose[(g["game"], g["scenario"])][side] += n
    for key in sorted(sides):
        won = sides[key]
        lone = len([w for w in won if w != "draw"]) == 1 and "draw" not in won
        hopeless = ", ".join(f"{side} cannot win against a defence ({why})"
                             for side, why in HOPELESS.get(key, {}).items())
        idle = ", ".join(f"{side} never had a choice (one legal order at every decision)"
                         for side, n in sorted(chose.get(key, {}).items()) if not n)
        print(f"{key[0]:9} {key[1]:13} " + ", ".join(f"{w} {n}" for w, n in sorted(won.items()))
              + ("  ONE-SIDED" if lone else "") + (f"; {hopeless}" if hopeless else "") + (f"; {idle}" if idle else ""))
    print("\n## The row's policy against the column's, its games from a side HOPELESS lists or with no choice left "
          "out (beside the measure above)")
    rest: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for g in games:
        if g["crash"] or g["winner"] is None:
            continue
        for side, me in g["seats"].items():
            if side in HOPELESS.get((g["game"], g["scenario"]), {}) or g.get("choices", {}).get(side) == 0:
                continue
            other = next(p for s, p in g["seats"].items() if s != side)
            outcome = "draw" if g["winner"] == "draw" else "won" if g["winner"] == side else "lost"
            rest[(me, other)][outcome] += 1
    for (me, other), t in sorted(rest.items()):
        finished = t["won"] + t["draw"] + t["lost"]
        print(f"all       {me:7} vs {other:7} both      {t['won']:3}-{t['draw']}-{t['lost']:<3} won "
              f"{100 * t['won'] / finished:5.1f}% of finished")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # `timeout`'s TERM as Ctrl-C: what was played is kept
    sys.exit(main())
