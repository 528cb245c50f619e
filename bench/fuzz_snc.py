"""The SNC fuzzer at scale (docs/architecture.md practice 10): many more random legal games than CI plays, beside a
baseline measured in the same run (the skirmish fuzzer through the same service).

1. SNC through the rules alone (decide + evolve, seeded dice): games, orders, seconds, dead ends.
2. SNC through the service (event store, every order re-run by the audit, dice recomputed after the seed is
   revealed at the end) and the fog-of-war check of every per-side history line and export row (SNC 6.3).
3. Baseline: skirmish games through the same service, with the same audit.

Each part stops starting new games once its time budget is spent. Exit status 1 if any game hit a dead end,
failed its audit or leaked a hidden unit.

Usage: python bench/fuzz_snc.py [--games 40] [--service-games 6] [--seconds 300] [--seed 1000]
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "snc")]

from conftest import play_random  # noqa: E402  (tests/conftest.py: the skirmish fuzzer)
from snc_randomplay import play  # noqa: E402  (tests/snc: the SNC fuzzer)
from test_snc_fog import check_fog  # noqa: E402

from app.events.store import EventStore  # noqa: E402
from app.projections import state as projection  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.snc import GAME as RULES  # noqa: E402
from app.service import audit, games  # noqa: E402

CATALOG = installed()  # the rule sets installed here


class Tally:
    def __init__(self, name: str):
        self.name, self.games, self.orders, self.ended, self.seconds = name, 0, 0, 0, 0.0
        self.problems: list[str] = []
        self.results: dict[str, int] = {}

    def line(self) -> str:
        rate = self.games / self.seconds if self.seconds else 0.0
        opr = self.orders / self.seconds if self.seconds else 0.0
        return (f"{self.name:34} {self.games:5} games {self.ended:5} ended {self.orders:7} orders "
                f"{self.seconds:8.1f} s {rate:7.2f} games/s {opr:8.0f} orders/s  problems: {len(self.problems)}")


def rules_only(tally: Tally, seeds, budget: float) -> None:
    start = time.perf_counter()
    for seed in seeds:
        if time.perf_counter() - start > budget:
            break
        try:
            state, accepted = play(random.Random(seed), max_orders=5000)
            tally.orders += accepted
            if RULES.outcome(state) is not None:
                tally.ended += 1
                key = state.winner or "draw"
                tally.results[key] = tally.results.get(key, 0) + 1
            else:
                tally.problems.append(f"seed {seed}: no result after 5000 orders (GT {state.turn})")
        except AssertionError as exc:
            tally.problems.append(f"seed {seed}: {exc}")
        except Exception:  # noqa: BLE001 - a crash in the rules is a finding, reported with its seed
            tally.problems.append(f"seed {seed}: crash\n{traceback.format_exc()}")
        tally.games += 1
    tally.seconds = time.perf_counter() - start


def through_service(tally: Tally, rules_name: str, seeds, budget: float, folder: str, fog: bool) -> None:
    start = time.perf_counter()
    for seed in seeds:
        if time.perf_counter() - start > budget:
            break
        store = EventStore(str(Path(folder) / f"{rules_name}-{seed}.sqlite3"))
        try:
            game_id = games.create_game(store, CATALOG, rules_name)
            rules = CATALOG.rules(rules_name)
            for side in rules.sides:
                games.join(store, CATALOG, game_id, side, f"{side}@bench.example", f"{side} {seed}")
            if rules_name == "snc":
                def submit(side, text, store=store, game_id=game_id):
                    return games.submit(store, CATALOG, game_id, side, text).state.game

                _, accepted = play(random.Random(seed), max_orders=5000, submit=submit)
            else:
                accepted = play_random(store, game_id, random.Random(seed), max_orders=5000)
            tally.orders += accepted
            game = projection.load(store, CATALOG, game_id).game
            ended = rules.outcome(game) is not None
            tally.ended += ended
            report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=ended)
            if not report.ok:
                tally.problems.append(f"seed {seed}: audit failed at {report.first_bad_seq}: {report.problems[:2]}")
            elif ended and report.rolls_unchecked:
                tally.problems.append(f"seed {seed}: {report.rolls_unchecked} rolls not checkable after the reveal")
            if fog:
                try:
                    check_fog(store, game_id)
                except AssertionError as exc:
                    tally.problems.append(f"seed {seed}: fog of war: {exc}")
        except AssertionError as exc:
            tally.problems.append(f"seed {seed}: {exc}")
        except Exception:  # noqa: BLE001
            tally.problems.append(f"seed {seed}: crash\n{traceback.format_exc()}")
        finally:
            store.close()
        tally.games += 1
    tally.seconds = time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="SNC games through the rules alone")
    ap.add_argument("--service-games", type=int, default=6, help="SNC (and skirmish) games through the service")
    ap.add_argument("--seconds", type=float, default=300, help="time budget, shared out between the parts")
    ap.add_argument("--seed", type=int, default=1000, help="first seed (the CI fuzzer uses 0-10)")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.system()}; seeds from {args.seed}")
    rules = Tally("snc, rules alone")
    service = Tally("snc, service + audit + fog check")
    baseline = Tally("skirmish, service + audit (baseline)")
    with tempfile.TemporaryDirectory() as folder:
        rules_only(rules, range(args.seed, args.seed + args.games), args.seconds * 0.4)
        through_service(service, "snc", range(args.seed, args.seed + args.service_games), args.seconds * 0.45,
                        folder, fog=True)
        through_service(baseline, "skirmish", range(args.seed, args.seed + args.service_games * 4),
                        args.seconds * 0.15, folder, fog=False)
    for t in (rules, service, baseline):
        print(t.line())
    print(f"snc results (rules alone): {rules.results}")
    problems = [f"{t.name}: {p}" for t in (rules, service, baseline) for p in t.problems]
    for p in problems:
        print("PROBLEM", p)
    print("no dead end, audit failure or fog leak" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
