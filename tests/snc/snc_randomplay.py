"""Random legal SNC orders to the end (design.md practice 10): a test helper for the fuzzer; the
candidates are the practice opponents' (app/rules/snc/practice.py)."""
from __future__ import annotations

import random

from app.rules.snc import GAME as RULES
from app.rules.snc.practice import candidates
from app.rules.snc.state import State
from tests import fuzzing

__all__ = ["candidates", "play"]


def play(rng: random.Random, max_orders: int = 3000, submit=None, state: State | None = None):
    """Random legal orders to the end (tests/fuzzing.py); returns (final state, orders accepted)."""
    return fuzzing.play(RULES, candidates, rng, max_orders, "fuzz", submit, state)
