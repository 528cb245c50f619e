"""A game's author declares its sequence as a states table (app/rules/engine/table.py); a table that cannot be
played is refused when the game is loaded, with the reason: two steps of one name would make the sequence
ambiguous (which step a state is in), and the refusal names the step. And the optional rules a game was created
with are read from the position the order is given in, as every game keeps them (Formosa's `state.data.optional`).
The mutation bench's survivors `engine.table.StatesTable.__init__` 21 and `handler` 16, docs/mutation-survivors.md,
part 13."""
from dataclasses import dataclass

import pytest

from app.rules.base import Command
from app.rules.engine.decision import Decision
from app.rules.engine.state import SequencedState
from app.rules.engine.table import StatesTable, Step, order
from app.rules.errors import IllegalOrder


class Marching(Step):
    name = "marching"

    @order("march", "T 1")
    def march(self, d: Decision):
        pass


class MarchingAgain(Step):
    name = "marching"

    @order("halt", "T 2")
    def halt(self, d: Decision):
        pass


def test_a_states_table_with_two_steps_of_one_name_is_refused_naming_the_step():
    with pytest.raises(ValueError, match="two steps are named 'marching'"):
        StatesTable([Marching(), MarchingAgain()], "T 0")
    assert list(StatesTable([Marching()], "T 0").steps) == ["marching", "over"]


@dataclass(frozen=True, kw_only=True)
class Chosen(SequencedState):
    step: str = "scouting"
    side: str = "red"
    rules: tuple = ()


class Scouting(Step):
    name = "scouting"

    @order("scout", "T 9.1", option="9")
    def scout(self, d: Decision):
        pass


def test_the_optional_rules_an_order_needs_are_those_of_the_game_it_is_given_in():
    table = StatesTable([Scouting()], "T 0", options=lambda state: state.rules)
    assert table.handler(Chosen(rules=("9",)), Command("red", "scout", {})).name == "scout"
    with pytest.raises(IllegalOrder, match="T 9.1: 'scout' belongs to optional rule 9, which this game was not"):
        table.handler(Chosen(rules=("8",)), Command("red", "scout", {}))
