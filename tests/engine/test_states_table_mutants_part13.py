"""A game's author declares its sequence as a states table (app/rules/engine/table.py); a table that cannot be
played is refused when the game is loaded, with the reason: two steps of one name would make the sequence
ambiguous (which step a state is in), and the refusal names the step (the mutation bench's survivor
`engine.table.StatesTable.__init__` 21, docs/mutation-survivors.md, part 13)."""
import pytest

from app.rules.engine.decision import Decision
from app.rules.engine.table import StatesTable, Step, order


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
