"""Random legal Ichi-Go orders to the end (design.md practice 10): a test helper for the fuzzer; the
candidates are the practice opponents' (app/rules/ichigo/practice.py)."""
from __future__ import annotations

import random

from app.rules.ichigo.practice import candidates
from app.rules.ichigo.rules import RULES
from app.rules.ichigo.state import State
from tests import fuzzing

__all__ = ["candidates", "play"]


def play(rng: random.Random, max_orders: int = 4000, submit=None, state: State | None = None):
    """Random legal orders to the end (tests/fuzzing.py); returns (final state, orders accepted)."""
    return fuzzing.play(RULES, candidates, rng, max_orders, f"fuzz{rng.random()}", submit, state)
