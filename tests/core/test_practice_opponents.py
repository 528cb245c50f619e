"""The greedy practice opponents (app/rules/practice.py) play SNC and Ichi-Go to an end in the fuzzer (design.md
practice 10, issue 18): both sides greedy, every order the policy's, no dead end, an outcome; the policy's
orders are all legal and it attacks and moves toward its objectives."""
from __future__ import annotations

import collections
import random

import pytest

from app.rules import practice
from app.rules.ichigo import GAME as ICHIGO
from app.rules.snc import GAME as SNC
from tests import fuzzing

pytestmark = pytest.mark.slow  # whole games between practice opponents


@pytest.mark.parametrize("rules", [SNC, ICHIGO], ids=["snc", "ichigo"])
def test_greedy_opponents_play_the_game_to_its_end(rules):
    given: collections.Counter = collections.Counter()

    def greedy(state, rng):
        text, reason = practice.choose(rules, "greedy", state, rules.prompt(state).side)
        given[reason.get("rule", "fallback")] += 1
        return [text]

    final, accepted = fuzzing.play(rules, greedy, random.Random(0), 3000, "greedy dice")
    assert rules.outcome(final) is not None, f"no end after {accepted} orders"
    assert given["best odds attack"] >= 3 and given["move toward objectives"] > 20, given
