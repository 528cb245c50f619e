"""Olympic behaviour the mutation sample found unheld on rules version 7 (issue 30, docs/mutation-survivors.md part 7):
each test fails with its survivor applied."""
from olympic_given import given, of, programmed, when

from app.rules.olympic.events import UnitEliminated, UnitHeld


def test_8_8_note_6_the_history_names_the_note_that_eliminated_an_american_unit_with_no_retreat():
    # the American in 3235 is hemmed in: Japanese units and their zones of control all round
    ring = {"jp-156-1": "3134", "jp-156-2": "3136", "jp-154-3": "3336", "jp-212-1": "3334"}
    state = given(units={"jp-154-1": "3135", "jp-86-1": "3135", **ring, "us-25-27": "3235", "us-2mar-2": "3034"},
                  turn=3, beachheads=("3235",))
    [gone] = of(when(state, "american", "attack 3135 with 25-27 2mar-2", rolls=[1]), UnitEliminated)  # Ar 5/2
    assert gone.describe() == "us-25-27 eliminated (no retreat (Olympic 8.8 note 6)); returns on Game-Turn 6"


def test_ruling_r1_r23_of_two_units_holding_one_hex_next_to_an_american_the_top_one_holds_first():
    for bottom, top in (("jp-212-2", "jp-156-2"), ("jp-156-2", "jp-212-2")):   # two 2-4s, the last listed on top
        state = given(step="japanese-movement", units={"us-25-27": "3235", bottom: "3135", top: "3135"})
        [held] = of(when(state, "japanese", programmed(state)), UnitHeld)
        assert (held.unit, held.reason["case"]) == (top, "Olympic ruling R23")
