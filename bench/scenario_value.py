"""The exact value of a short scenario (issue 29): the chance each side wins with best play by both, over every
order the rule set lists (app/rules/legal.py's list, uncut: the rule set's candidates, each the decider accepts)
and every face of every die, and whether a side can win at all (its own orders, the opponent's and the dice all
going its way), or against every defence (its chance is above 0 whatever the other side orders).

A side that cannot win against a defence that plays to stop it, whatever it plays and rolls, is no policy's
failure there: bench/opponents.py counts its games apart (`HOPELESS`). The proof covers the orders the rule set
lists; an order it does not list (Dai Senso lists an attack by every adjacent unit together, with each HQ, and by
each alone, not by two of three) is not tried. A scenario one side wins only by a small chance against best
play bounds what any policy can score against a good opponent from that side.

    python bench/scenario_value.py daisenso zhejiang [--side axis] [--best] [--max-orders 60]

It walks the whole tree of the game (orders of both sides, and for each die every face, each equally likely),
remembering positions already valued, so it suits only scenarios of a few Combat Phases (Dai Senso's). Run it
`nice -n 19`: it is CPU-bound. No test runs this.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from app.events.core import DieRolled  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.errors import OrderError  # noqa: E402


def _key(state) -> str:
    """A position's identity: its fields but the scenario's fixed data (positions equal by it are equal)."""
    if dataclasses.is_dataclass(state):
        return repr([(f.name, getattr(state, f.name)) for f in dataclasses.fields(state) if f.name != "data"])
    return repr(state)


UNCUT = 1_000_000  # the list of legal orders is cut at 40 for a player (app/rules/legal.py): here every candidate


class NeedRoll(Exception):
    """The decider asked for a die the faces given so far do not hold."""

    def __init__(self, sides: int):
        super().__init__(sides)
        self.sides = sides


class ReplayDice:
    """Dice showing the given faces in turn, raising NeedRoll at the first roll past them."""

    def __init__(self, faces: tuple[int, ...]):
        self.faces, self.next_index, self.taken = faces, 0, []

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        if self.next_index >= len(self.faces):
            raise NeedRoll(sides)
        rolled = DieRolled(index=self.next_index, sides=sides, value=self.faces[self.next_index], purpose=purpose)
        self.next_index += 1
        self.taken.append(rolled)
        return rolled


class Solver:
    """For `side`: `reach` whether some orders of both sides and some dice make it win (stopping at the first
    such line), `best` the chance it wins with best play by both (it maximises, the other side minimises, every
    face of a die equally likely; a draw counts half). Positions already valued are remembered."""

    def __init__(self, rules, side: str, max_orders: int, max_positions: int):
        self.rules, self.side, self.max_orders, self.max_positions = rules, side, max_orders, max_positions
        self.memo: dict[str, float] = {}
        self.positions = 0

    def _moves(self, state, depth: int):
        """Each listed order of the side to move with each run of dice: (mover, order, faces, position after)."""
        rules = self.rules
        if depth >= self.max_orders:
            raise RuntimeError(f"still running after {self.max_orders} orders: not a short scenario")
        self.positions += 1
        if self.positions > self.max_positions:
            raise RuntimeError(f"more than {self.max_positions} positions: not a short scenario")
        if self.positions % 5000 == 0:
            print(f"  ... {self.positions} positions", file=sys.stderr, flush=True)
        mover = rules.prompt(state).side
        listed = rules.legal_orders(state, mover, limit=UNCUT)
        if not listed:
            raise RuntimeError(f"{mover} has no legal order at {rules.prompt(state).step}")
        return mover, listed

    def _outcomes(self, state, text: str, mover: str, faces: tuple[int, ...] = ()):
        """(faces, position after) for every run of dice the order may meet, each equally likely by its dice."""
        rules = self.rules
        try:
            command = rules.parse(text, mover, state)
            events = rules.decide(state, command, ReplayDice(faces))
        except NeedRoll as need:
            for f in range(1, need.sides + 1):
                yield from self._outcomes(state, text, mover, (*faces, f))
            return
        except (OrderError, ValueError, KeyError):
            return  # refused with these dice (a listed order never is, but a listing may be wrong)
        after = state
        for event in events:
            after = rules.evolve(after, event)
        yield faces, after

    def _ended(self, state) -> float | None:
        outcome = self.rules.outcome(state)
        if outcome is None:
            return None
        return 0.5 if outcome.winner is None else float(outcome.winner == self.side)

    def reach(self, state, depth: int = 0) -> list[str] | None:
        """A line of orders (with the dice they met) on which `side` wins, or None if there is none."""
        ended = self._ended(state)
        if ended is not None:
            return [] if ended == 1.0 else None
        key = _key(state)
        if key in self.memo:
            return None  # valued before: no win from it
        mover, listed = self._moves(state, depth)
        for item in listed:
            for faces, after in self._outcomes(state, item["order"], mover):
                line = self.reach(after, depth + 1)
                if line is not None:
                    return [f"{mover}: {item['order']}" + (f" (dice {list(faces)})" if faces else ""), *line]
        self.memo[key] = 0.0
        return None

    def chance(self, state, depth: int = 0) -> bool:
        """Whether `side` wins with a chance above 0 whatever the other side orders: some order of its own, at each
        of its decisions, leaves some face of the dice from which it still does, against every order of the
        other side. False: it cannot win against a defence that plays to stop it, whatever it plays."""
        ended = self._ended(state)
        if ended is not None:
            return ended == 1.0
        key = _key(state)
        if key in self.memo:
            return bool(self.memo[key])
        mover, listed = self._moves(state, depth)
        some = (any(self.chance(after, depth + 1) for _, after in self._outcomes(state, item["order"], mover))
                for item in listed)
        found = any(some) if mover == self.side else all(some)
        self.memo[key] = float(found)
        return found

    def best(self, state, depth: int = 0) -> float:
        ended = self._ended(state)
        if ended is not None:
            return ended
        key = _key(state)
        if key in self.memo:
            return self.memo[key]
        mover, listed = self._moves(state, depth)
        values = []
        for item in listed:
            runs = [self.best(after, depth + 1) for _, after in self._outcomes(state, item["order"], mover)]
            if runs:
                values.append(sum(runs) / len(runs))
        found = max(values) if mover == self.side else min(values)
        self.memo[key] = found
        return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("scenario")
    parser.add_argument("--side", default="", help="only this side (default: each side)")
    parser.add_argument("--best", action="store_true", help="also each side's chance with best play by both")
    parser.add_argument("--max-orders", type=int, default=60)
    parser.add_argument("--max-positions", type=int, default=2_000_000)
    args = parser.parse_args()
    rules = installed().rules(args.game)
    sys.setrecursionlimit(20000)
    for side in [args.side] if args.side else rules.sides:
        started = time.process_time()
        solver = Solver(rules, side, args.max_orders, args.max_positions)
        line = solver.reach(rules.initial_state(args.scenario, {}))
        print(f"{args.game} {args.scenario}: {side} {'can' if line is not None else 'CANNOT'} win under any orders "
              f"and dice ({solver.positions} positions, {time.process_time() - started:.1f} s CPU)", flush=True)
        for order in line or ():
            print(f"    {order}")
        if line is not None:
            started = time.process_time()
            solver = Solver(rules, side, args.max_orders, args.max_positions)
            some = solver.chance(rules.initial_state(args.scenario, {}))
            print(f"{args.game} {args.scenario}: {side} " + ("keeps a chance of winning against every defence" if some
                  else "CANNOT win against a defence that plays to stop it, whatever it plays and rolls")
                  + f" ({solver.positions} positions, {time.process_time() - started:.1f} s CPU)", flush=True)
        if args.best:
            started = time.process_time()
            solver = Solver(rules, side, args.max_orders, args.max_positions)
            best = solver.best(rules.initial_state(args.scenario, {}))
            print(f"{args.game} {args.scenario}: {side} wins {100 * best:.1f}% with best play by both "
                  f"({solver.positions} positions, {time.process_time() - started:.1f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
