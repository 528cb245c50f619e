"""Rows of docs/cases/olympic.md whose tests passed with a mutant of the row's own code (issue 30's per-case mutation
report, `bench/mutation.py --cases`): the programmed Japanese's `end` says which case ends its step, as every
automated order carries its reason."""
from olympic_given import given

from app.rules.olympic import policy


def test_8_51_the_programmed_japanese_end_combat_saying_no_attack_is_possible():
    state = given(step="japanese-combat", units={"us-25-27": "3235", "jp-212-2": "3033"})
    assert policy.next_attack(state) == {
        "action": "end", "reason": {"case": "Olympic 8.51", "summary": "no attack is possible"}}


def test_14_51_the_programmed_japanese_end_movement_saying_every_released_unit_has_moved():
    state = given(step="japanese-movement", units={"us-25-27": "3235"})
    assert policy.next_movement(state) == {
        "action": "end", "reason": {"case": "Olympic 14.51", "summary": "every released unit has moved"}}
