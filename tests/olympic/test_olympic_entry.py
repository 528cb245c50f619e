"""Ruling R12, where a Japanese reinforcement enters (14.3 track 3): the entry hex (Kumamoto 2020, Hitoyoshi 2131,
Nobeoka 3624) nearest its destination in movement points, ties by the higher identity number, never one an American
unit holds or a full one, and toward a secondary destination once every primary is held (14.53). Each test has an
entry that only one of these limits decides."""
from __future__ import annotations

from olympic_given import given, programmed

US, US_B = "us-25-27", "us-25-35"
JP = ["jp-212-1", "jp-212-2", "jp-154-1", "jp-154-2", "jp-154-3", "jp-156-1"]
TANK = "jp-r-1tkd"


def entry(**units) -> str:
    """The programmed order for the reinforcement due, with `units` on the map."""
    return programmed(given(step="japanese-movement", units=units, due=(TANK,)))


def test_r12_the_entry_hex_nearest_the_americans_kumamoto_for_a_landing_in_the_northwest():
    assert entry(**{US: "0314"}) == f"enter {TANK} at 2020"  # 25 MP from Kumamoto, 41 Hitoyoshi, 51 Nobeoka


def test_r12_two_entry_hexes_equally_near_the_higher_identity_number_wins():
    assert entry(**{US: "2026"}) == f"enter {TANK} at 2131"  # Kumamoto and Hitoyoshi both 7 MP away


def test_r12_a_full_entry_hex_is_passed_over_for_the_next_nearest():
    full = dict(zip(JP[:3], ["3624"] * 3, strict=True))
    assert entry(**{US: "3235", **full}) == f"enter {TANK} at 2131"  # Nobeoka holds three: stacking (R14)


def test_r12_no_entry_into_an_american_hex_so_the_unit_waits_when_the_others_are_full():
    full = dict(zip(JP, ["2020"] * 3 + ["2131"] * 3, strict=True))
    assert entry(**{US: "3235", US_B: "3624", **full}) == f"delay {TANK}"


def test_r12_with_every_primary_destination_held_the_unit_enters_toward_the_nearest_secondary():
    """The American in 0211 has two land neighbours, both held by Japanese units: no primary destination is left,
    and the secondaries next to them are nearest Kumamoto (14.53 item 2)."""
    assert entry(**{US: "0211", JP[0]: "0212", JP[1]: "0312"}) == f"enter {TANK} at 2020"
