"""Issue 14: every decision of every game says in its prompt what it owes: where, how much, and the candidates
with their values. Checked on every decision random play from the legal orders meets in each game."""
from __future__ import annotations

import random

import pytest

from app.rules.catalog import installed
from tests import fuzzing

CATALOG = installed()  # the rule sets installed here

SEEDS = 10  # random games tried, each from its own seed, until one meets a decision


@pytest.mark.slow  # a few hundred random orders per game
# Olympic's one decision (the 8.9 exchange) is rare in random play: test_olympic_combat checks its prompt
@pytest.mark.parametrize("game, orders", [("snc", 600), ("ichigo", 600), ("daisenso", 300)])
def test_every_decision_met_in_random_play_says_what_it_owes(game, orders):
    """Random play from the legal orders (tests/fuzzing.py), seed after seed until a game meets a decision;
    every decision met on the way is checked."""
    rules = CATALOG.rules(game)
    play = fuzzing.legal_candidates(rules)
    met: set[str] = set()

    def checked(state, rng):
        pending = getattr(state, "pending", ())
        if pending:
            kind = pending[0]["kind"]
            owed = rules.prompt(state).owed
            assert owed is not None, f"{game}: the {kind} decision says nothing of what it owes"
            assert owed.amount or owed.candidates or owed.where, (game, kind, owed)
            for _, value in owed.candidates:
                assert value is not None
            met.add(kind)
        return play(state, rng)

    for seed in range(SEEDS):
        fuzzing.play(rules, checked, random.Random(seed), orders, f"owed-{game}-{seed}")
        if met:
            break
    assert met, f"{game}: random play met no decision in {SEEDS} games"
