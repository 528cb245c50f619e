"""What a player choosing a practice opponent reads of each policy (app/rules/practice.py `policies`: GET /rules'
`policy_about`, `cli.py rules`), in the fast tier (the API's own test of it is a slow one)."""
from __future__ import annotations

from app.rules import practice, search
from app.rules.olympic import GAME as OLYMPIC
from app.rules.skirmish import GAME as SKIRMISH


def test_each_policy_says_what_it_is_and_a_rule_sets_own_says_its_rules_program_it():
    assert practice.policies(OLYMPIC)["programmed"] == "the rule set's own, as its rules program it"
    about = practice.policies(SKIRMISH)
    assert about["greedy"] == "practice opponent: best odds, then nearest objective"
    assert about["random"] == "a random legal order"
    assert about["search"] == (f"strong practice opponent: playouts through the rules (about {search.SECONDS:g} s of "
                               "CPU a decision; search:3s another time, search:N exactly N playouts)")
