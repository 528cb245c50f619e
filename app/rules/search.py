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

import functools
import math
import random
from collections.abc import Callable
from typing import Any

from app.events.core import DieRolled
from app.rules import belief, evaluation, practice
from app.rules.errors import OrderError

SEARCH_CASE = "strong practice opponent (docs/play-by-email.md)"
DEFAULT_PLAYOUTS = 200
MAX_PLAYOUTS = 20000
WIDTH = 12  # orders searched a decision
RATED = 8  # of them, those the greedy rating puts first; the rest drawn at random
HORIZON = 40  # orders `settle` gives at the end of a playout, at most
WORLDS = 8  # positions sampled from the side's view a decision; playout j plays on sample j mod WORLDS
EXPAND_AT = 2  # a decision below the root is searched from its second visit (before, a playout values it)
DEPTH = 24  # decisions a playout goes down the tree, at most
EXPLORE = 0.7  # UCT's exploration constant, on means scaled to 0..1
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


class Node:
    """A decision in the tree, reached by the orders on the path to it whatever the dice did on the way (open
    loop: each playout deals its own dice and replays the path): who decides, the orders searched there, and for
    each its visits and the sum of its playouts' values (for the searching side)."""

    def __init__(self):
        self.side: str | None = None
        self.arms: list[str] | None = None
        self.visits = 0
        self.n: dict[str, int] = {}
        self.total: dict[str, float] = {}
        self.children: dict[str, Node] = {}

    def mean(self, arm: str) -> float:
        return self.total[arm] / self.n[arm] if self.n.get(arm) else 0.0


def policy(rules, playouts: int | None = None) -> practice.Policy:
    budget = playouts or DEFAULT_PLAYOUTS

    def play(state: Any, side: str, given: int = 0) -> tuple[str, dict]:
        return Search(rules, state, side, budget, given).decide()

    return play


class Search:
    """One decision of the strong opponent (see the module docstring)."""

    def __init__(self, rules, state: Any, side: str, budget: int, given: int = 0):
        self.rules, self.state, self.side, self.budget, self.given = rules, state, side, budget, given
        self.worlds: dict[int, Any] = {}
        self.root = Node()
        self.low, self.high = 0.0, 0.0  # the values seen so far, to scale the tree's means (as MuZero does)
        self.made = 0  # nodes expanded, for their draws' seeds

    @functools.cached_property
    def seed(self) -> int:
        """Every draw's seed: what the side may know (practice.view_seed), asked only when there is a choice."""
        return practice.view_seed(self.rules, self.state, self.side, self.given)

    def decide(self) -> tuple[str, dict]:
        root = self.root
        root.side, root.arms = self.side, self.candidates(self.state, self.side, root=True)
        while root.arms:
            if len(root.arms) == 1:
                only = root.arms[0]
                if practice.usable(self.rules, self.state, self.side, only) is not None:
                    return only, {"case": SEARCH_CASE, "rule": "only order", "playouts": 0,
                                  "summary": "search: the one order worth giving here"}
                break
            if not root.visits:
                for i in range(self.budget):
                    self.iterate(i)
            ranked = sorted(root.arms, key=lambda a: (-root.n.get(a, 0), -root.mean(a)))
            if practice.usable(self.rules, self.state, self.side, ranked[0]) is not None:
                return ranked[0], self.reason(ranked)
            root.arms = [a for a in root.arms if a != ranked[0]]
        raise practice.NoOrder(f"no order of {self.side} is legal ({self.rules.prompt(self.state).step})")

    def reason(self, ranked: list[str]) -> dict:
        root, best = self.root, ranked[0]
        value = round(root.mean(best), 3)
        why = {"case": SEARCH_CASE, "rule": "most playouts", "playouts": self.budget, "visits": root.n.get(best, 0),
               "value": value}
        runner = ranked[1] if len(ranked) > 1 else None
        against = (f"; next {runner!r}, {root.n.get(runner, 0)} playouts, {root.mean(runner):+.2f}"
                   if runner is not None else "")
        why["summary"] = (f"search: {why['visits']} of {self.budget} playouts, worth {value:+.2f} (1 won, -1 "
                          f"lost){against}")
        return why

    # -- which orders ------------------------------------------------------------------------------------------
    def candidates(self, state: Any, side: str, root: bool = False) -> list[str]:
        """The orders searched at a decision: the legal list, the greedy rating's first `RATED`, `end`, then
        others at random, `WIDTH` in all."""
        rules = self.rules
        try:
            listed = rules.legal_orders(state, side)
        except (OrderError, ValueError, KeyError):
            return []  # a sampled position the rules cannot list: the playout ends there
        if len(listed) <= 1:
            return [item["order"] for item in listed]
        self.made += 1
        random.Random(f"{self.seed}:node:{0 if root else self.made}").shuffle(listed)
        if len(listed) <= WIDTH:
            return [item["order"] for item in listed]
        rated = [text for _, text, _ in practice.ratings(rules, state, side, listed)]
        first = rated[:RATED]
        ends = [t for t in rated if t.split()[0] in ENDS and t not in first][:1]
        rest = [t for t in rated[RATED:] if t not in ends]
        return first + ends + rest[:WIDTH - len(first) - len(ends)]

    # -- the tree ----------------------------------------------------------------------------------------------
    def world(self, k: int) -> Any:
        """Sample k of the position, hidden parts drawn (the same for every order: common random numbers)."""
        if k not in self.worlds:
            self.worlds[k] = belief.sample(self.rules, self.state, self.side, random.Random(f"{self.seed}:world:{k}"))
        return self.worlds[k]

    def iterate(self, i: int) -> None:
        """Playout i: down the tree by UCT from sample i mod `WORLDS` with its own dice, one decision further
        than the tree knew, then `settle` and value the position; every decision on the way learns the value."""
        rules = self.rules
        dice = PlayoutDice(random.Random(f"{self.seed}:dice:{i}"))
        state, node, path = self.world(i % WORLDS), self.root, []
        while True:
            if rules.outcome(state) is not None:
                break
            if node is not self.root and (node.visits < EXPAND_AT or len(path) >= DEPTH):
                node.visits += 1
                state = settle(rules, state, dice)
                break
            side = rules.prompt(state).side
            if node.arms is None:
                node.side, node.arms = side, self.candidates(state, side)
            node.visits += 1
            if side != node.side or not node.arms:
                break  # the dice took this playout elsewhere than the tree's first visit: value it here
            arm = self.select(node)
            path.append((node, arm))
            try:
                state = _apply(rules, state, rules.parse(arm, side, state), dice)
            except (OrderError, ValueError, KeyError):
                break  # refused in this sample: it does nothing there
            node = node.children.setdefault(arm, Node())
        found = evaluation.value(rules, state, self.side)
        self.low, self.high = min(self.low, found), max(self.high, found)
        for at, arm in path:
            at.n[arm] = at.n.get(arm, 0) + 1
            at.total[arm] = at.total.get(arm, 0.0) + found

    def select(self, node: Node) -> str:
        """UCT: an order not yet tried, else the best of mean (for the side deciding there, scaled to the values
        seen) plus `EXPLORE` * sqrt(ln N / n)."""
        for arm in node.arms:
            if not node.n.get(arm):
                return arm
        sign = 1.0 if node.side == self.side else -1.0
        span = (self.high - self.low) or 1.0
        log_n = math.log(sum(node.n[a] for a in node.arms))

        def score(arm: str) -> float:
            q = (sign * node.mean(arm) - (self.low if sign > 0 else -self.high)) / span
            return q + EXPLORE * math.sqrt(log_n / node.n[arm])

        return max(node.arms, key=score)


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
