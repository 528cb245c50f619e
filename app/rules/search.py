"""The strong practice opponent, `search` (issue 29): it weighs the legal orders by playouts through the rules
themselves, on positions sampled from what its side may see.

The shape is OpenSpiel's MCTS bot cut to one ply, with TripleA's Pro AI habit of simulating a battle before
fighting it: at the root, the orders the rule set lists as legal (app/rules/legal.py); the budget, a number of
playouts fixed at the game's creation (`search:N`), shared among them by sequential halving (Karnin, Koren and
Somekh 2013: every order left gets the same share of a round, the better half goes on), which spends a fixed
budget on telling the best order from the next best rather than on estimating the poor ones. Each playout:

1. a position the side cannot tell from the real one, its hidden parts drawn (app/rules/belief.py);
2. the order, given there with dice drawn at random;
3. the sequence carried on through every step no side may end (a loss to take, a retreat, an advance, a roll)
   by a random legal order, until a step a side may end, the end of the game, or `HORIZON` orders;
4. the position valued for the side (app/rules/evaluation.py): 1 won, -1 lost, else material, control of the
   victory hexes and reach.

Playout j of every order uses the same sampled position and the same dice stream (common random numbers), so
orders are compared on the same luck. Everything is drawn from generators seeded by the side's view
(app/rules/practice.py `view_seed`), and the number of playouts, not the clock, decides when it stops: the same
position gives the same order in any process, and `verify` re-decides it exactly. The reason records the
playouts done and the order's value.

A decision with one usable order plays it without a playout. At most `WIDTH` orders are searched: those the
greedy rating puts first (the best odds, the nearest objectives, what the step asks for, `end`), and the rest
drawn at random.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.events.core import DieRolled
from app.rules import belief, evaluation, practice
from app.rules.errors import OrderError

SEARCH_CASE = "strong practice opponent (docs/play-by-email.md)"
DEFAULT_PLAYOUTS = 200
MAX_PLAYOUTS = 20000
WIDTH = 12  # orders searched a decision
RATED = 8  # of them, those the greedy rating puts first; the rest drawn at random
HORIZON = 40  # orders a playout gives after the one it weighs, at most
WORLDS = 8  # positions sampled from the side's view a decision; playout j plays on sample j mod WORLDS
ENDS = practice.ENDS


def playouts_setting(text: str) -> int:
    """The playouts a decision of `search:N` (N as written; "" for the default). Raises ValueError."""
    if not text:
        return DEFAULT_PLAYOUTS
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"search takes a number of playouts a decision (search:{DEFAULT_PLAYOUTS}), not "
                         f"{text!r}") from None
    if not 1 <= n <= MAX_PLAYOUTS:
        raise ValueError(f"search takes 1 to {MAX_PLAYOUTS} playouts a decision, not {n}")
    return n


class PlayoutDice:
    """A playout's chance: the dice, faces drawn by `rng` (never stored, never the game's dice), and the random
    orders `settle` picks with the same generator (`picks`)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.next_index = 0
        self.picks = 0

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        rolled = DieRolled(index=self.next_index, sides=sides, value=self.rng.randint(1, sides), purpose=purpose)
        self.next_index += 1
        return rolled


@dataclass
class Arm:
    """One order weighed at the root: its text, and the values of its playouts so far."""

    text: str
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else -math.inf


def policy(rules, playouts: int | None = None) -> practice.Policy:
    budget = playouts or DEFAULT_PLAYOUTS

    def play(state: Any, side: str, given: int = 0) -> tuple[str, dict]:
        return Search(rules, state, side, budget, given).decide()

    return play


class Search:
    """One decision of the strong opponent (see the module docstring)."""

    def __init__(self, rules, state: Any, side: str, budget: int, given: int = 0):
        self.rules, self.state, self.side, self.budget = rules, state, side, budget
        self.seed = practice.view_seed(rules, state, side, given)
        self.worlds: dict[int, Any] = {}
        self.settled: dict[tuple[str, int], float] = {}  # (order, sample) -> value of a playout that rolled no die
        self.done = 0

    def decide(self) -> tuple[str, dict]:
        arms = self.candidates()
        while arms:
            if len(arms) == 1:
                only = arms[0].text
                if practice.usable(self.rules, self.state, self.side, only) is not None:
                    return only, {"case": SEARCH_CASE, "rule": "only order", "playouts": 0,
                                  "summary": "search: the one order worth giving here"}
                arms = []
                break
            ranked = self.halve(arms)
            best = ranked[0]
            if practice.usable(self.rules, self.state, self.side, best.text) is not None:
                runner = ranked[1] if len(ranked) > 1 else None
                return best.text, self.reason(best, runner)
            arms = [a for a in arms if a.text != best.text]
        raise practice.NoOrder(f"no order of {self.side} is legal ({self.rules.prompt(self.state).step})")

    def reason(self, best: Arm, runner: Arm | None) -> dict:
        value = round(best.mean, 3)
        why = {"case": SEARCH_CASE, "rule": "best playouts", "playouts": self.done,
               "value": value, "tried": len(best.values)}
        against = f"; next best {runner.text!r} {runner.mean:+.2f}" if runner is not None else ""
        why["summary"] = (f"search: worth {value:+.2f} over {len(best.values)} of {self.done} playouts "
                          f"(1 won, -1 lost){against}")
        return why

    # -- which orders ------------------------------------------------------------------------------------------
    def candidates(self) -> list[Arm]:
        """The orders searched: the legal list, the greedy rating's first `RATED`, then others at random."""
        rules, state, side = self.rules, self.state, self.side
        rng = random.Random(self.seed)
        listed = rules.legal_orders(state, side)
        rng.shuffle(listed)
        if len(listed) <= WIDTH:
            return [Arm(item["order"]) for item in listed]
        rated = [text for _, text, _ in practice.ratings(rules, state, side, listed)]
        first = rated[:RATED]
        ends = [t for t in rated if t.split()[0] in ENDS and t not in first][:1]
        rest = [t for t in rated[RATED:] if t not in ends]
        return [Arm(t) for t in first + ends + rest[:WIDTH - len(first) - len(ends)]]

    # -- sequential halving ------------------------------------------------------------------------------------
    def halve(self, arms: list[Arm]) -> list[Arm]:
        """The arms ranked best first after spending the budget by sequential halving."""
        left = list(arms)
        rounds = max(1, math.ceil(math.log2(len(left))))
        spent = 0
        for r in range(rounds):
            if r and spent >= self.budget:
                break  # a budget smaller than the orders: one playout each, then the best of those
            share = max(1, (self.budget - spent) // (len(left) * (rounds - r)))
            for arm in left:
                for _ in range(share):
                    arm.values.append(self.playout(arm.text, len(arm.values)))
                    spent += 1
            left.sort(key=lambda a: -a.mean)
            if len(left) > 1 and r < rounds - 1:
                left = left[:max(1, math.ceil(len(left) / 2))]
        self.done = spent
        return sorted(arms, key=lambda a: (-a.mean, -len(a.values)))

    # -- one playout -------------------------------------------------------------------------------------------
    def world(self, k: int) -> Any:
        """Sample k of the position, hidden parts drawn (the same for every order: common random numbers)."""
        if k not in self.worlds:
            self.worlds[k] = belief.sample(self.rules, self.state, self.side, random.Random(f"{self.seed}:world:{k}"))
        return self.worlds[k]

    def playout(self, text: str, j: int) -> float:
        """The value of playout j of `text`. A playout that rolled no die ends the same way every time on its
        sample: it is played once, and its value counted for every later playout on that sample."""
        rules, side, k = self.rules, self.side, j % WORLDS
        if (text, k) in self.settled:
            return self.settled[(text, k)]
        dice = PlayoutDice(random.Random(f"{self.seed}:dice:{j}"))
        state = self.world(k)
        try:
            command = rules.parse(text, side, state)
            state = _apply(rules, state, command, dice)
            state = settle(rules, state, dice)
        except (OrderError, ValueError, KeyError):
            pass  # refused in this sample: it does nothing there
        found = evaluation.value(rules, state, side)
        if dice.next_index == 0 and dice.picks == 0:
            self.settled[(text, k)] = found
        return found


def _apply(rules, state: Any, command, dice) -> Any:
    for event in rules.decide(state, command, dice):
        state = rules.evolve(state, event)
    return state


def settle(rules, state: Any, dice: PlayoutDice, horizon: int = HORIZON, choose: Callable | None = None) -> Any:
    """Carry the sequence on through the steps no side may end, by random legal orders drawn with the dice's
    generator (or `choose(state, side)` -> order text), until a step a side may end, the end of the game, or
    `horizon` orders."""
    for _ in range(horizon):
        if rules.outcome(state) is not None:
            return state
        prompt = rules.prompt(state)
        if prompt.side is None or any(prompt.allows(a) for a in ENDS):
            return state
        nxt = step(rules, state, prompt.side, dice, choose)
        if nxt is None:
            return state
        state = nxt
    return state


def step(rules, state: Any, side: str, dice: PlayoutDice, choose: Callable | None = None) -> Any | None:
    """The position after one order of `side`: `choose`'s, else a random one the rules accept with `dice`."""
    if choose is not None:
        try:
            return _apply(rules, state, rules.parse(choose(state, side), side, state), dice)
        except (OrderError, ValueError, KeyError, practice.NoOrder):
            pass
    dice.picks += 1
    for text in practice.orders_to_try(rules, state, side, dice.rng):
        try:
            return _apply(rules, state, rules.parse(text, side, state), dice)
        except (OrderError, ValueError, KeyError):
            continue
    return None
