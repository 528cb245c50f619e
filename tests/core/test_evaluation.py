"""The strong opponent's evaluation of a position (app/rules/evaluation.py): an ended game is worth 1 or -1, any
other position less, the two sides' values opposite; a position with no unit on the map yet (Formosa's set-up)
is even, not an error."""
from __future__ import annotations

import pytest

from app.rules import evaluation
from app.rules.catalog import installed

CATALOG = installed()  # the rule sets installed here


@pytest.mark.parametrize("game, scenario", [("skirmish", "standard"), ("snc", "campaign"), ("ichigo", "campaign"),
                                            ("formosa", "1"), ("daisenso", "strait"), ("olympic", "solitaire")])
def test_a_starting_position_is_worth_less_than_a_win_and_the_same_to_both_sides_opposite(game, scenario):
    rules = CATALOG.rules(game)
    state = rules.initial_state(scenario, {})
    first, second = (evaluation.value(rules, state, side) for side in rules.sides)
    assert -evaluation.CAP <= first <= evaluation.CAP and first == pytest.approx(-second)
    if game == "formosa":
        assert first == 0  # nobody on the map yet


def test_an_ended_game_is_worth_one_to_the_winner():
    rules = CATALOG.rules("skirmish")
    state = rules.initial_state("standard", {})
    won = type(state)(**{**state.__dict__, "step": "over", "winner": "red", "reason": "test"})
    assert rules.outcome(won).winner == "red"
    assert evaluation.value(rules, won, "red") == 1 and evaluation.value(rules, won, "blue") == -1
