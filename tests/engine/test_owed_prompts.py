"""Issue 14: every decision of every game says in its prompt what it owes: where, how much, and the candidates
with their values. Checked on every decision random play meets in each game."""
from __future__ import annotations

import random

import pytest

from app.rules.catalog import get_rules
from app.rules.practice import candidate_source
from tests import fuzzing


@pytest.mark.slow  # a few hundred random orders per game
# Olympic's one decision (the 8.9 exchange) is rare in random play: test_olympic_combat checks its prompt
@pytest.mark.parametrize("game, orders", [("snc", 600), ("ichigo", 600), ("daisenso", 300)])
def test_every_decision_met_in_random_play_says_what_it_owes(game, orders):
    rules = get_rules(game)
    source = candidate_source(rules)
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
        return source(state, rng)

    fuzzing.play(rules, checked, random.Random(14), orders, f"owed-{game}")
    assert met, f"{game}: random play met no decision"
