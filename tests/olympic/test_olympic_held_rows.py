"""Rows of docs/cases/olympic.md whose mapped tests passed with the row's enforcing line broken by hand (issue 30,
session part 10: each case-citing refusal of app/rules/olympic cut, one at a time, only the row's tests run): each
test here fails with that line broken and holds the row's rule where a player would notice it (the refusal and its
case, nothing rolled)."""
from dataclasses import replace

import pytest
from olympic_given import START, given, of, refused, when

from app.rules.olympic.events import UnitsPlaced
from tests.olympic.test_olympic_combat import MARINE, US_A, US_B, US_C


@pytest.mark.parametrize("order, why", [
    ("attack 9999 with 25-27", "Olympic 8.8: 9999 is not a land hex"),
    ("attack 3135 with 25-27", "Olympic 8.8: 3135 holds no Japanese unit and no militia"),
])
def test_8_8_an_american_attack_is_made_on_a_land_hex_holding_japanese_units_or_militia(order, why):
    assert refused(given(units={US_A: "3235"}), "american", order, "Olympic 8.8") == why


def test_8_8_a_hex_is_attacked_once_a_phase():
    state = given(units={US_A: "3235"}, attacked_hexes=("3236",))  # Miyazaki's militia, attacked already
    assert refused(state, "american", "attack 3236 with 25-27", "Olympic 8.8") == \
        "Olympic 8.8: 3236 has already been attacked this phase"


def test_8_8_a_unit_attacks_once_a_phase():
    state = given(units={US_A: "3235"})
    state = replace(state, units={**state.units, US_A: replace(state.units[US_A], attacked=True)})
    assert refused(state, "american", "attack 3236 with 25-27", "Olympic 8.8") == \
        "Olympic 8.8: us-25-27 has already attacked this phase"


def test_8_8_an_attacker_stands_next_to_the_hex_it_attacks():
    assert refused(given(units={US_A: "3234"}), "american", "attack 3236 with 25-27", "Olympic 8.8") == \
        "Olympic 8.8: us-25-27 in 3234 is not next to 3236"


def test_ruling_r17_a_unit_ashore_makes_no_amphibious_assault():
    assert refused(given(step="assault", units={US_A: "3235"}), "american", "assault 3236 with 25-27",
                   "Olympic ruling R17") == \
        "Olympic ruling R17: us-25-27 is ashore: only units at sea make amphibious assaults"


def test_8_9_only_attackers_advance_and_at_most_three():
    state = given(units={US_A: "3235", US_B: "3235", US_C: "3235", MARINE: "3336"})  # three a hex (R14)
    assert refused(state, "american", "attack 3236 with 25-27 advance 25-35", "Olympic 8.9") == \
        "Olympic 8.9: only attacking units advance; us-25-35 did not attack"
    four = "attack 3236 with 25-27 25-35 25-161 2mar-2 advance 25-27 25-35 25-161 2mar-2"
    assert refused(state, "american", four, "Olympic 8.9") == "Olympic 8.9: at most 3 units advance"


@pytest.mark.parametrize("hex_, what", [("3333", "a land hex"), ("3438", "a sea hex of no zone"),
                                        ("9999", "off the map")])
def test_14_4_the_first_invasion_is_placed_in_invasion_zone_hexes_and_refused_elsewhere_by_14_4(hex_, what):
    """Game-Turn 1's placement is 14.4's: its Tokko procedure follows the placement of the American units in the
    invasion zone hexes (ruling R48; before, the refusal named ruling R17, the later invasion's)."""
    assert refused(START, "american", f"place 25-27 at {hex_}", "Olympic 14.4") == \
        f"Olympic 14.4: {hex_} is not an invasion zone hex", what


def test_ruling_r48_the_later_invasion_outside_the_invasion_zones_is_refused_by_r17():
    later = given(step="assault", turn=3, units={US_A: "3336"})  # the first invasion ashore; 77-305 arrived on 2
    assert refused(later, "american", "place 77-305 at 3438", "Olympic ruling R17") == \
        "Olympic ruling R17: 3438 is not an invasion zone hex"
    assert of(when(later, "american", "place 77-305 at 3437"), UnitsPlaced)
