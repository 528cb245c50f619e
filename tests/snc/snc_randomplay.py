"""Random legal SNC orders to the end (docs/architecture.md practice 10): a test helper for the fuzzer; the candidates
are the orders SNC's list of legal orders is made of (app/rules/legal.py, `legal_orders`), a kind of order drawn
first (tests/fuzzing.py `kind_first_candidates`): the first the decider accepts is a random order that list
shows."""
from __future__ import annotations

import random

from app.rules.snc import GAME as RULES
from app.rules.snc.state import State
from tests import fuzzing

__all__ = ["candidates", "play"]

candidates = fuzzing.kind_first_candidates(RULES)


def play(rng: random.Random, max_orders: int = 3000, submit=None, state: State | None = None):
    """Random legal orders to the end (tests/fuzzing.py); returns (final state, orders accepted)."""
    return fuzzing.play(RULES, candidates, rng, max_orders, "fuzz", submit, state)
