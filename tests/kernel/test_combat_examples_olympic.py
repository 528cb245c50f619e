"""Olympic 8.8 CRT (printed in full in the text), 8.9 results, CRT notes 1-4 and 8.54 special attacks."""

import pytest
from combat_tables import OLYMPIC_CRT, OLYMPIC_RETREAT_HEXES

from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import check_strength_loss
from app.rules.kernel.retreat import retreat_length

CRT_ = CRT.from_dict(OLYMPIC_CRT)

# A second, column-by-column transcription of the 8.8 table (dice 1..6 down each column); the fixture holds
# it row by row, so a transposed or shifted cell in either shows up here.
BY_COLUMN = {
    "-2": ["Ae 10/3", "Ae 10/3", "Ar 5/2", "Ar 5/2", "Dr 2/2", "Dr 2/5"],
    "-1": ["Ae 10/3", "Ar 5/2", "Ar 5/2", "Ar 5/2", "Dr 2/2", "Ex 10/10"],
    "0": ["Ar 5/2", "Ar 5/2", "Ar 5/2", "Ar 5/2", "Dr 3/3", "Ex 10/10"],
    "+1": ["Ar 5/2", "Ar 5/2", "Dr 2/2", "Dr 2/2", "Dr 3/3", "Ex 10/10"],
    "+2, +3": ["Dr 2/2", "Dr 2/2", "Dr 2/2", "Dr 3/3", "Dr 3/3", "Ex 10/10"],
    "+4, +7": ["Dr 3/3", "Dr 3/3", "Dr 3/3", "Dr 2/2", "Dr 3/3", "Dr 3/5"],
    "+8": ["De 4/10", "Dr 2/2", "Dr 2/2", "Dr 3/3", "Dr 2/2", "Dr 3/5"],
    "+9": ["De 3/10", "De 3/10", "Dr 2/2", "Dr 3/3", "Dr 2/2", "Dr 3/5"],
    "+10": ["De 2/10", "De 2/10", "De 2/10", "De 2/10", "De 2/10", "De 3/10"],
}
# Differentials (attack - defence) and the column each falls in (8.8 headings; note 1 above +10).
DIFFERENTIAL_COLUMN = {
    -2: "-2",
    -1: "-1",
    0: "0",
    1: "+1",
    2: "+2, +3",
    3: "+2, +3",
    4: "+4, +7",
    5: "+4, +7",
    6: "+4, +7",
    7: "+4, +7",
    8: "+8",
    9: "+9",
    10: "+10",
    11: "+10",
    15: "+10",
}


@pytest.mark.parametrize("differential", sorted(DIFFERENTIAL_COLUMN))
def test_8_8_every_cell_through_the_odds_path(differential):
    attack, defence = (10 + differential, 10)
    p = preview_attack(CRT_, attack, defence)
    label = DIFFERENTIAL_COLUMN[differential]
    assert p.column_label == label
    assert [r.code for _, r in p.results] == BY_COLUMN[label]


def test_8_8_note_1_no_attack_below_minus_2():
    p = preview_attack(CRT_, 1, 4)
    assert not p.allowed
    assert p.odds.refusal.startswith("Olympic 8.8 note 1")


def test_8_9_result_codes():
    ae, de, ar, dr, ex = (
        CRT_.notation.parse(c) for c in ("Ae 10/3", "De 2/10", "Ar 5/2", "Dr 3/5", "Ex 10/10")
    )
    assert ae.attacker.eliminated and not ae.defender.eliminated
    assert de.defender.eliminated and not de.attacker.eliminated
    # who retreats; how far is the terrain's (note 2)
    assert ar.markers == {"attacker-retreats"} and dr.markers == {"defender-retreats"}
    assert ex.exchange and ex.defender.eliminated and not ex.attacker.eliminated


def test_8_8_note_2_retreat_one_hex_from_rough_city_town_two_from_clear():
    assert retreat_length(OLYMPIC_RETREAT_HEXES, "town") == 1
    assert retreat_length(OLYMPIC_RETREAT_HEXES, "clear") == 2
    with pytest.raises(ValueError, match="swamp"):
        retreat_length(OLYMPIC_RETREAT_HEXES, "swamp", "Olympic 8.8 note 2")


def test_8_8_note_4_casualty_points_times_american_units_involved():
    # derived: two American units attack at 0, die 1: Ar 5/2 -> 5 x 2 = 10 points
    r = preview_attack(CRT_, 6, 6).result(1)
    assert r.code == "Ar 5/2"
    assert r.value("cp_us_attacking") * 2 == 10
    # derived: Japanese attack one American unit at +9, die 1: De 3/10 -> 10 points
    assert preview_attack(CRT_, 13, 4).result(1).value("cp_japan_attacking") == 10


def test_8_54_special_attack_doubles_japanese_strength_then_reads_die_6():
    # derived: Japanese 2 against American 4 is -2; a 6 doubles it to 4: differential 0, die 6: Ex 10/10
    assert preview_attack(CRT_, 2, 4).column_label == "-2"
    special = preview_attack(CRT_, 2 * 2, 4)
    assert special.column_label == "0"
    assert special.result(6).code == "Ex 10/10"


def test_8_9_exchange_attacker_pays_at_least_the_defenders_printed_strength_plus_militia():
    required = 3 + 2  # eliminated defender's printed 3, plus an unmodified militia strength of 2
    attackers = {"us_a": 4, "us_b": 3, "us_c": 1}
    assert check_strength_loss(attackers, required, ["us_a", "us_c"], "Olympic 8.9") == ("us_b",)
    with pytest.raises(RuleViolation, match="Olympic 8.9"):
        check_strength_loss(attackers, required, ["us_a"], "Olympic 8.9")
    assert check_strength_loss({"us_a": 2}, required, ["us_a"], "Olympic 8.9") == ()


def test_ruling_r40_no_unit_the_payment_can_do_without():
    # 8 owed by three 4s: two pay it exactly, and the third would be lost for nothing (paying 8 without it)
    fours = {"us_a": 4, "us_b": 4, "us_c": 4}
    assert check_strength_loss(fours, 8, ["us_a", "us_b"], "Olympic 8.9", needed_only=True) == ("us_c",)
    with pytest.raises(RuleViolation, match="us_a .4. is not needed"):
        check_strength_loss(fours, 8, ["us_a", "us_b", "us_c"], "Olympic 8.9", needed_only=True)
    assert check_strength_loss(fours, 8, ["us_a", "us_b", "us_c"], "Olympic 8.9") == ()  # without: a minimum only
    # 9 owed: all three are needed (any two fall short), as is a lone unit that cannot pay it all
    assert check_strength_loss(fours, 9, ["us_a", "us_b", "us_c"], "Olympic 8.9", needed_only=True) == ()
    assert check_strength_loss({"us_a": 2}, 5, ["us_a"], "Olympic 8.9", needed_only=True) == ()
