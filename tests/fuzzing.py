"""The random-play driver every game's fuzzer shares (design.md practice 10): random legal orders, drawn by the
game's own `candidates(state, rng)`, until the game ends; a state with no accepted candidate is a dead end."""
from __future__ import annotations

import random
from collections.abc import Callable

from app.events.dice import SeededDice
from app.rules.base import Rules
from app.rules.errors import OrderError


def play(rules: Rules, candidates: Callable, rng: random.Random, max_orders: int, dice_seed: str,
         submit=None, state=None):
    """Play random legal orders. With `submit(side, text)` orders go through the service; otherwise straight
    through the rules with seeded dice. Returns (final state, orders accepted)."""
    state = state or rules.initial_state(next(iter(rules.scenarios)), {})
    dice = SeededDice(next_index=0, seed=dice_seed, game_id="fuzz")
    accepted = 0
    for _ in range(max_orders):
        if rules.outcome(state) is not None:
            break
        p = rules.prompt(state)
        assert p.side is not None and p.actions, f"dead end at {p.step}"
        for text in candidates(state, rng):
            try:
                if submit is not None:
                    state = submit(p.side, text)
                else:
                    command = rules.parse(text, p.side, state)
                    for e in rules.decide(state, command, dice):
                        state = rules.evolve(state, e)
                accepted += 1
                break
            except OrderError:
                continue
        else:
            raise AssertionError(f"dead end: no candidate accepted at {p.step} ({[a.name for a in p.actions]})")
    return state, accepted
