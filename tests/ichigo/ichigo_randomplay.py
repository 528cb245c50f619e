"""Random legal Ichi-Go orders to the end (design.md practice 10): a test helper for the fuzzer; the
candidates are the practice opponents' (app/rules/ichigo/practice.py), with now and then a move beyond any
movement roll, which must be refused before its die (design.md practice 11, ruling E13)."""
from __future__ import annotations

import random

from app.rules.ichigo import GAME as RULES
from app.rules.ichigo import practice
from app.rules.ichigo.data_load import load
from app.rules.ichigo.state import State
from tests import fuzzing

__all__ = ["candidates", "play"]


def candidates(state: State, rng: random.Random) -> list[str]:
    out = practice.candidates(state, rng)
    rng = random.Random(repr(out))  # its own draws: the practice candidates' stream stays as it is
    if "move" not in [a.name for a in RULES.prompt(state).actions] or rng.random() < 0.7:
        return out
    d, side, nation = load(), RULES.prompt(state).side, state.nation_now()
    movers = [u for u in state.on_map(side) if u.nation == nation and not (u.static or u.militia or u.done)]
    if movers:
        u = rng.choice(movers)
        far = [str(h) for h in d.map.hexes() if d.land(str(h)) and 3 <= d.distance(u.hex, str(h)) <= 8]
        if far:
            out.insert(rng.randrange(len(out) + 1), f"move {u.id} to {rng.choice(far)}")
    return out


def play(rng: random.Random, max_orders: int = 4000, submit=None, state: State | None = None):
    """Random legal orders to the end (tests/fuzzing.py); returns (final state, orders accepted)."""
    return fuzzing.play(RULES, candidates, rng, max_orders, f"fuzz{rng.random()}", submit, state)
