"""Session part 14's reading of the Olympic fragments against the engine (docs/rulings/olympic.md): R21 settled
against 8.51 and the 14.3 note (an unreleased unit in position attacks, and advances after its attack, 8.53)."""
from __future__ import annotations

from olympic_given import after, given, of, programmed, when

from app.rules.olympic.events import CombatResolved, UnitsAdvanced

JP4A, US_A = "jp-154-1", "us-25-27"  # a 4-4 and a 4-12


def test_ruling_r21_an_unreleased_unit_in_position_attacks_and_advances_after_its_attack():
    """A coastal 4-4 the doctrine has not released stands next to an American unit that has not moved (so its
    contact released nobody, R43). 8.51 demands every possible attack and names no release, which 14.3 gives for
    movement: the unit attacks (4 against 4, die 5: Dr 3/3) and, its hex emptied, advances into it (8.53), still
    unreleased for the next Movement Phase."""
    state = given(step="japanese-combat", units={JP4A: "3135", US_A: "3235"}, beachheads=("3235",), released=False)
    assert not state.unit(JP4A).released
    assert programmed(state) == f"jattack {JP4A} on {US_A}"
    events = when(state, "japanese", programmed(state), rolls=[5])
    assert of(events, CombatResolved)[0].result == "Dr 3/3"
    assert of(events, UnitsAdvanced) == [UnitsAdvanced([JP4A], "3235")]
    assert not after(state, events).unit(JP4A).released
