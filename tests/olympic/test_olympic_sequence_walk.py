"""Session part 11's walk of app/rules/olympic/sequence.py (issue 30): every refusal an order can meet there was
broken by hand, one at a time, and the fast Olympic tests run; each test here failed with its refusal broken (the
order was taken, or refused by another rule or with another reason) and holds what a player notices: the refusal,
the case it names and the reason it gives. Then the lines of the tables and the programmed Japanese (the CRT and
its notes, the doctrine, the Tokko, movement and attack priorities: docs/mutation-survivors.md, part 11): the
tests below the refusals failed with a line no other test noticed broken. A refused order changes nothing and
rolls no die (`refused` takes no dice: a die rolled before the refusal would end the test otherwise)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from olympic_given import START, after, given, of, programmed, refused, when

from app.rules.olympic.events import CasualtyPoints, CombatResolved, UnitEliminated, UnitHeld, UnitMoved
from tests.olympic.test_olympic_combat import JP4A, JP4B, MARINE, US_A, US_B, US_C
from tests.olympic.test_olympic_programmed import TWO_4, TWO_4B

SEQ = "Olympic sequence"
JP = "jp-154-1"


def movement(**units: str):
    return given(step="movement", units={US_A: "3338", JP: "3136", **units})


@pytest.mark.parametrize("order, why", [
    (f"move {JP} to 3135", f"{JP} is a japanese unit; american cannot order it"),
    ("move 3337 to 3336", "no american unit in 3337"),
    ("move 3136 to 3135", "no american unit in 3136"),  # a hex holding only Japanese units
    ("move 99-99 to 3337", "there is no unit '99-99'"),
    ("move 25-27 25-27 to 3337", "a unit is named twice"),
])
def test_sequence_a_an_order_names_units_of_its_own_side_that_exist_each_once(order, why):
    assert refused(movement(), "american", order, SEQ) == f"{SEQ}: {why}"


def test_sequence_a_2_a_unit_is_placed_once_by_an_order():
    assert refused(START, "american", "place 25-27 25-27 at 3437", SEQ) == f"{SEQ}: a unit is named twice"


@pytest.mark.parametrize("hex_", ["0101", "9999"])
def test_ruling_r24_the_standing_retreat_order_names_a_land_hex_of_the_map(hex_):
    assert refused(movement(), "american", f"retreat toward {hex_}", "Olympic ruling R24") == \
        f"Olympic ruling R24: {hex_} is not a land hex of the map"


def test_ruling_r17_only_a_unit_at_sea_lands_and_only_on_a_land_hex_next_to_it():
    ashore = given(step="assault", turn=2, units={US_A: "3338", US_B: "3437"})
    assert refused(ashore, "american", "land 25-27 at 3337", "Olympic ruling R17") == \
        "Olympic ruling R17: us-25-27 is not at sea"
    for hex_ in ("3335", "3436"):  # a land hex two away; the zone's sea hex next to it
        assert refused(ashore, "american", f"land 25-35 at {hex_}", "Olympic ruling R17") == \
            f"Olympic ruling R17: {hex_} is not a land hex next to us-25-35 in 3437"


def test_ruling_r14_a_landing_and_a_move_stop_at_three_american_units():
    three = "3338 would hold more than 3 American units"
    landing = given(step="assault", turn=1, units={US_A: "3437", US_B: "3437", US_C: "3437", MARINE: "3338"},
                    released=False)
    assert refused(landing, "american", "land 25-27 25-35 25-161 at 3338", "Olympic ruling R14") == \
        f"Olympic ruling R14: {three}"
    moving = given(step="movement", units={US_A: "3337", US_B: "3338", US_C: "3338", MARINE: "3338"})
    assert refused(moving, "american", "move 25-27 to 3338", "Olympic ruling R14") == f"Olympic ruling R14: {three}"


def test_ruling_r17_a_unit_at_sea_does_not_move_in_the_movement_phase():
    state = given(step="movement", units={US_A: "3437", US_B: "3338"})
    assert refused(state, "american", "move 25-27 to 3337", "Olympic ruling R17") == \
        "Olympic ruling R17: us-25-27 is at sea: it lands in the Amphibious Assault Phase"


@pytest.mark.parametrize("order", ["move 25-27 to 9999", "move 25-27 to 3336 via 9999"])
def test_ruling_r10_a_move_to_or_via_a_hex_off_the_map_is_refused_saying_so(order):
    assert refused(movement(), "american", order, "Olympic ruling R10") == "Olympic ruling R10: 9999 is not on the map"


# --- the programmed Japanese: lines no test noticed broken ---------------------------------------------------------

def test_8_51_the_lowest_numbered_attacker_takes_the_target_that_keeps_the_maximum_not_the_highest_numbered():
    """The Japanese in 3133 (the lowest-numbered hex) can attack 3233 or 3134; 8.52 alone would take 3233, the
    higher-numbered, but the Japanese in 3333 can attack only 3233: two attacks need 3133 -> 3134 (ruling R21)."""
    state = given(step="japanese-combat", units={JP4A: "3133", JP4B: "3333", US_A: "3233", US_B: "3134"})
    first = programmed(state)
    assert first == f"jattack {JP4A} on {US_B}"
    events = when(state, "japanese", first, rolls=[5])  # 4 against 4: Dr, the American retreats
    assert of(events, CombatResolved)[0].reason["attacks_possible"] == 2
    assert programmed(after(state, events)) == f"jattack {JP4B} on {US_A}"


def test_14_55_the_nearer_unit_moves_first_though_the_farther_stands_in_a_higher_numbered_hex():
    state = given(step="japanese-movement", units={US_A: "3235", TWO_4: "3033", TWO_4B: "3038"})  # 2 MP and 3 MP
    [moved] = of(when(state, "japanese", programmed(state)), UnitMoved)
    assert (moved.unit, moved.reason["distance"], moved.reason["next_nearest"][0]) == (
        TWO_4, 2, {"unit": TWO_4B, "hex": "3038", "distance": 3})


def test_ruling_r23_units_next_to_an_american_hold_the_highest_numbered_hex_first():
    state = given(step="japanese-movement", units={US_A: "3235", TWO_4: "3234", TWO_4B: "3236"})  # both 2-4s
    assert programmed(state) == f"hold {TWO_4B}"
    [held] = of(when(state, "japanese", f"hold {TWO_4B}"), UnitHeld)
    assert held.reason["case"] == "Olympic ruling R23"
    assert programmed(after(state, [held])) == f"hold {TWO_4}"


def japanese_combat(**units: str):
    return given(step="japanese-combat", units=units, beachheads=tuple(h for u, h in units.items() if u[:3] == "us-"))


def test_8_8_note_4_a_japanese_attack_costs_the_right_hand_number_for_the_american_unit():
    state = japanese_combat(**{JP4A: "3135", US_A: "3235"})
    events = when(state, "japanese", programmed(state), rolls=[3])  # 4 against 4: column 0, die 3
    assert of(events, CombatResolved)[0].result == "Ar 5/2"
    assert [e.points for e in of(events, CasualtyPoints)] == [2]  # the right-hand number, not the left's 5


def test_8_8_note_4_oo_7_a_japanese_13_against_an_american_4_at_plus_9_die_1_costs_10_points():
    """The catalog's OO-7 in play: the printed counters hold no Japanese 13, so the position gives one (ruling R31)."""
    state = japanese_combat(**{JP4A: "3135", US_A: "3235"})
    state = replace(state, units={**state.units, JP4A: replace(state.units[JP4A], strength=13)})
    events = when(state, "japanese", programmed(state), rolls=[1])
    [combat] = of(events, CombatResolved)
    assert (combat.differential, combat.column, combat.result) == (9, "+9", "De 3/10")
    assert [(e.unit, e.returns_on) for e in of(events, UnitEliminated)] == [(US_A, 5)]  # supplied: back on 2 + 3
    assert [e.points for e in of(events, CasualtyPoints)] == [10]


def test_8_8_note_6_an_american_unit_a_japanese_attack_leaves_no_retreat_costs_10_in_place_of_the_right_number():
    ring = {"jp-156-1": "3134", "jp-156-2": "3136", "jp-154-3": "3336", "jp-212-1": "3334"}  # hemmed in (R24)
    state = japanese_combat(**{JP4A: "3135", **ring, US_A: "3235"})
    events = when(state, "japanese", f"jattack {JP4A} on {US_A}", rolls=[5])
    assert of(events, CombatResolved)[0].result == "Dr 3/3"
    assert of(events, UnitEliminated) == [UnitEliminated(US_A, "no retreat (Olympic 8.8 note 6)", 5)]
    assert [e.points for e in of(events, CasualtyPoints)] == [10]


def test_ruling_r21_an_american_unit_is_attacked_once_a_phase_and_never_across_an_all_sea_hexside():
    state = japanese_combat(**{JP4A: "3135", JP4B: "3236", US_A: "3235"})  # both next to the one American
    events = when(state, "japanese", f"jattack {JP4A} on {US_A}", rolls=[3])  # Ar: the American stays put
    assert of(events, CombatResolved)[0].result == "Ar 5/2"
    assert programmed(after(state, events)) == "end"  # us-25-27 has been attacked: no second attack on it
    strait = japanese_combat(**{JP4A: "1324", US_A: "1325"})  # the Amakusa strait between them
    assert programmed(strait) == "end"


def test_ruling_r23_a_secondary_destination_is_never_next_to_an_american_unit():
    island = given(step="japanese-movement", units={US_A: "1226", TWO_4: "3033"})  # Americans on Amakusa
    [held] = of(when(island, "japanese", programmed(island)), UnitHeld)
    assert held.reason["case"] == "Olympic 14.58" and held.reason["secondary"]
    assert not set(held.reason["secondary"]) & island.zoc_of("american")
