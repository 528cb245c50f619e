"""Random legal Ichi-Go orders to the end (docs/architecture.md practice 10): a test helper for the fuzzer; the
candidates are the orders Ichi-Go's list of legal orders is made of (app/rules/legal.py, `legal_orders`), shuffled
(tests/ fuzzing.py `legal_candidates`), with now and then a move of 3 to 8 hexes, mostly beyond any movement roll:
refused, it must be refused before its die (docs/architecture.md practice 11, ruling E13)."""
from __future__ import annotations

import random

from app.rules.ichigo import GAME as RULES
from app.rules.ichigo.state import State
from tests import fuzzing

__all__ = ["candidates", "play"]

_legal = fuzzing.legal_candidates(RULES)


def candidates(state: State, rng: random.Random, legal=_legal) -> list[str]:
    """`legal`: the orders to shuffle (the fuzzer's: every legal order alike; tests/fuzzing.py has a kind-first
    one that ends phases sooner), with the far moves mixed in."""
    out = legal(state, rng)
    if "move" not in [a.name for a in RULES.prompt(state).actions] or rng.random() < 0.7:
        return out
    d, side, nation = state.data, RULES.prompt(state).side, state.nation_now()
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
