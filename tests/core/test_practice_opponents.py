"""Every practice policy plays every game to its end (issue 29): every scenario, both sides played by the policy
(each policy's own pairing covers both sides; bench/opponents.py plays them against each other), through the
rules with seeded dice, as the automated seats ask them (app/rules/practice.py `choose`, the side's count of
orders given): no crash, no dead end, an outcome. The strong `search` plays here on a small budget; its full
strength is bench/opponents.py's to measure. Greedy attacks and moves toward its objectives."""
from __future__ import annotations

import collections

import pytest

from app.events.dice import SeededDice
from app.rules import practice
from app.rules.catalog import installed

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # whole games

SCENARIOS = [(game, scenario) for game in ("skirmish", "snc", "ichigo", "formosa", "daisenso", "olympic")
             for scenario in CATALOG.rules(game).scenarios if scenario != "custom"]
MAX_ORDERS = 6000


def play_out(rules, scenario: str, spec: str, seed: str):
    """The game played to its end by `spec` on both sides: (final state, orders given, the reasons' rules)."""
    state = rules.initial_state(scenario, {})
    dice = SeededDice(next_index=0, seed=seed, game_id="g")
    name, settings = practice.parse_spec(rules, spec)
    given = collections.Counter()
    rules_used = collections.Counter()
    for _ in range(MAX_ORDERS):
        if rules.outcome(state) is not None:
            break
        side = rules.prompt(state).side
        text, reason = practice.choose(rules, name, state, side, settings, given[side])
        rules_used[reason.get("rule", "fallback")] += 1
        for event in rules.decide(state, rules.parse(text, side, state), dice):
            state = rules.evolve(state, event)
        given[side] += 1
    return state, sum(given.values()), rules_used


@pytest.mark.parametrize("spec", ["random", "greedy", "search:4"])
@pytest.mark.parametrize("game, scenario", SCENARIOS)
def test_every_policy_plays_every_game_to_its_end(game, scenario, spec):
    rules = CATALOG.rules(game)
    final, orders, used = play_out(rules, scenario, spec, "to the end")
    assert rules.outcome(final) is not None, f"no end after {orders} orders: {rules.prompt(final).step}"
    if spec == "greedy" and game in ("snc", "ichigo"):
        assert used["move toward objectives"] > 20, used
        assert game != "snc" or used["best odds attack"] >= 1, used  # Ichi-Go's odds reach 3:2 seldom
