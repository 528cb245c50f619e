"""Rows of docs/cases/formosa.md whose own tests passed with a mutant of the code that cites them (issue 30's
per-case mutation report, `bench/mutation.py --report --cases --lines --packages formosa`): the orders the strong
opponent searches for the Allies (app/rules/formosa/searched.py, `searched`): no unit moved where 15.0 forces an
attack the Allies can see is hopeless (15.4.1: a revealed "D" defender shifts it left), a guerrilla forcing none
(23.0: no ZOC)."""
from __future__ import annotations

from formosa_given import given
from formosa_map import ring

from app.rules.formosa.searched import hopeless, searched

X, AROUND = ring()


def test_15_4_1_23_0_a_move_next_to_a_revealed_defence_bonus_unit_is_passed_over_but_not_next_to_a_guerrilla():
    """Two US regiments (8) against the coastal defence unit (6, "D"): 133%, the 100-199% column, one column left
    for the "D" unit: 50-99%, below the first column the Allies call winnable. A guerrilla beside them forces no
    attack at all."""
    move, stay = f"move us-7-32 {AROUND[0]}", "end"
    guerrilla = given(step="allied-movement", turn=5, units={"us-7-17": AROUND[0], "us-7-32": AROUND[3],
                                                               "jp-guerrilla-1": AROUND[1]})
    assert not hopeless(guerrilla, AROUND[0], ["us-7-32"])
    assert move in searched(guerrilla, "allied", [move, stay])
    bonus = given(step="allied-movement", turn=5, units={"us-7-17": AROUND[0], "us-7-32": AROUND[3], "jp-cd-1": X})
    assert hopeless(bonus, AROUND[0], ["us-7-32"])
    assert move not in searched(bonus, "allied", [move, stay])
