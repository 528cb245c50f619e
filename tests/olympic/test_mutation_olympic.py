"""Olympic texts a player reads that the mutation sample found unheld (issue 30, docs/mutation-survivors.md part 7):
each test fails when its text's case or reason changes."""
from olympic_given import given, of, when

from app.rules.olympic.events import UnitEliminated


def test_8_8_note_6_the_history_names_the_note_that_eliminated_an_american_unit_with_no_retreat():
    # the American in 3235 is hemmed in: Japanese units and their zones of control all round
    ring = {"jp-156-1": "3134", "jp-156-2": "3136", "jp-154-3": "3336", "jp-212-1": "3334"}
    state = given(units={"jp-154-1": "3135", "jp-86-1": "3135", **ring, "us-25-27": "3235", "us-2mar-2": "3034"},
                  turn=3, beachheads=("3235",))
    [gone] = of(when(state, "american", "attack 3135 with 25-27 2mar-2", rolls=[1]), UnitEliminated)  # Ar 5/2
    assert gone.describe() == "us-25-27 eliminated (no retreat (Olympic 8.8 note 6)); returns on Game-Turn 6"
