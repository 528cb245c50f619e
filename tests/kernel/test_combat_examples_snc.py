"""SNC combat arithmetic (10.x, 9.6 overrun, 8.4 amphibious halving, 12.0 example of play)."""

from fractions import Fraction

import pytest
from combat_tables import SNC_CAPS, SNC_CONCENTRIC, SNC_CRT, SNC_HEXSIDES, SNC_STRENGTH

from app.rules.kernel.concentric import ConcentricRule, concentric_shift
from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import apply_step_losses, reduce_before_eliminate
from app.rules.kernel.shifts import Cap, Shift
from app.rules.kernel.strength import (
    Contribution,
    HexsideModifiers,
    Modifier,
    StrengthRule,
    hexside_contributions,
    total_strength,
)

CRT_ = CRT.from_dict(SNC_CRT)
CAPS = {k: Cap.from_dict(v) for k, v in SNC_CAPS.items()}
RULE = StrengthRule.from_dict(SNC_STRENGTH)
GRID = Grid("even-low", cols=(1, 37), rows=(1, 25))
H = Hex.parse


def fire(n, case="SNC 11.1"):
    return [Shift(1, case, f"fire support marker {i + 1}") for i in range(n)]


def terrain(n, reason):
    return Shift(-n, "SNC 10.4.1", reason, "terrain")


def amphibious(strength):
    """SNC 8.4: landing units attack at half strength, rounded down."""
    half = Modifier(Fraction(1, 2), "SNC 8.4", "amphibious assault")
    return total_strength([Contribution("division", strength, (half,))], RULE)


def test_10_3_26_on_7_is_3_to_1():
    assert preview_attack(CRT_, 26, 7).odds.label == "3:1"


def test_10_3_poor_odds_5_on_9_round_up_to_1_to_2():
    assert preview_attack(CRT_, 5, 9).odds.label == "1:2"


def test_10_3_1_final_odds_beyond_6_to_1_or_below_1_to_3_use_the_end_columns():
    assert preview_attack(CRT_, 8, 1).column_label == "6:1"
    assert preview_attack(CRT_, 1, 5).column_label == "1:3"


def test_10_3_1_shifts_act_on_the_true_odds_before_the_final_clamp():
    # 8:1 with 2L is 6:1 (final odds), not 4:1 (the ruling in docs/rulings/combat-kernel.md)
    p = preview_attack(CRT_, 8, 1, [terrain(2, "city")], CAPS)
    assert p.column_label == "6:1"


def creek_total(units):
    mods = HexsideModifiers.from_dict(SNC_HEXSIDES)
    features = {H("3410"): "creek", H("3411"): "river"}
    contributions = hexside_contributions(
        [(name, s, H(origin)) for name, s, origin in units], H("3510"), lambda a, b: features.get(a), mods
    )
    return total_strength(contributions, RULE).total


def test_10_4_1_creek_halves_16_to_8_and_19_to_9():
    assert creek_total([("3rd", 16, "3410")]) == 8
    assert creek_total([("3rd", 19, "3410")]) == 9


def test_10_4_1_only_units_crossing_are_reduced_then_the_total_is_rounded_down():
    # derived: 6 across a river (thirds) + 4 across clear = 6; 5 across a creek alone = 2
    assert creek_total([("a", 6, "3411"), ("b", 4, "3509")]) == 6
    assert creek_total([("a", 5, "3410")]) == 2
    # 5/2 + 5/2 = 5 when totalled first (rounding each would give 4)
    assert creek_total([("a", 5, "3410"), ("b", 5, "3410")]) == 5


def test_10_4_1_no_combat_across_all_sea_hexsides():
    mods = HexsideModifiers.from_dict(SNC_HEXSIDES)
    with pytest.raises(RuleViolation, match="SNC 10.4.1"):
        hexside_contributions([("a", 4, H("3410"))], H("3510"), lambda a, b: "all-sea", mods)


def test_10_4_1_terrain_shifts_never_exceed_two_left():
    p = preview_attack(CRT_, 12, 3, [terrain(2, "city"), terrain(1, "woods")], CAPS)
    assert p.shifts.net == -2
    assert p.column_label == "2:1"
    assert "terrain shifts capped: 3L -> 2L" in p.to_text()


def test_10_4_1_example_town_in_marsh_two_left_fits_within_the_cap():
    p = preview_attack(CRT_, 12, 3, [terrain(1, "marsh"), terrain(1, "town (Chinese defender)")], CAPS)
    assert p.column_label == "2:1"


def test_10_4_2_japanese_concentric_patterns_and_no_bonus_into_a_city():
    rule = ConcentricRule.from_dict(SNC_CONCENTRIC)
    d = H("2410")
    ring = GRID.all_neighbours(d)
    assert concentric_shift(rule, GRID, d, [ring[2], ring[5]], "japanese").amount == 1
    assert concentric_shift(rule, GRID, d, [ring[0], ring[2], ring[4]], "japanese").case == "SNC 10.4.2"
    assert concentric_shift(rule, GRID, d, [ring[0], ring[1]], "japanese") is None
    assert concentric_shift(rule, GRID, d, ring[:4], "japanese") is not None
    assert concentric_shift(rule, GRID, d, ring, "japanese", defender_terrain={"city"}) is None
    assert concentric_shift(rule, GRID, d, ring, "chinese") is None


def test_10_5_3_to_1_die_3_gives_attacker_1_defender_2():
    r = CRT_.cell("3:1", 3)
    assert (r.attacker.losses, r.defender.losses) == (1, 2)


def test_map_errata_5_to_1_die_6_is_0_over_4():
    r = preview_attack(CRT_, 10, 2).result(6)
    assert (r.attacker.losses, r.defender.losses) == (0, 4)


def test_9_6_overrun_10_on_2_marsh_overrun_artillery_is_4_to_1():
    shifts = [terrain(1, "marsh"), Shift(-1, "SNC 9.6", "overrun"), Shift(1, "SNC 11.1", "artillery")]
    p = preview_attack(CRT_, 10, 2, shifts, CAPS)
    assert (p.odds.label, p.column_label) == ("5:1", "4:1")


def test_9_6_example_23_on_6_is_3_to_1_and_one_more_step_makes_4_to_1():
    assert preview_attack(CRT_, 23, 6).odds.label == "3:1"
    assert preview_attack(CRT_, 24, 6).odds.label == "4:1"


def test_12_0_gt2_wusong_landing_8_on_3_with_four_markers_is_6_to_1():
    attack = amphibious(16)
    assert attack.total == 8
    p = preview_attack(CRT_, attack, 3, fire(4))
    assert (p.odds.label, p.column_label) == ("2:1", "6:1")


def test_12_0_gt3_loudian_12_on_9_town_and_3R_is_3_to_1_die_2_gives_2_over_1():
    p = preview_attack(CRT_, 12, 9, [terrain(1, "town"), *fire(3)], CAPS)
    assert (p.odds.label, p.column_label) == ("1:1", "3:1")
    r = p.result(2)
    assert (r.attacker.losses, r.defender.losses) == (2, 1)


def test_12_0_gt3_3410_creek_19_to_9_on_10_is_1_to_2_then_2_to_1_die_3_gives_1_over_1():
    attack = creek_total([("3rd", 19, "3410")])
    p = preview_attack(CRT_, attack, 10, [*fire(3), terrain(1, "town")], CAPS)
    assert (p.odds.label, p.column_label) == ("1:2", "2:1")
    r = p.result(3)
    assert (r.attacker.losses, r.defender.losses) == (1, 1)


def test_12_0_gt3_3511_16_on_9_is_1_to_1_not_the_printed_2_to_1_and_the_concentric_shift_makes_the_printed_5_to_1():
    # The example prints "16:9 or 2:1"; 10.3 rounds 1.78 down: 1:1. From Wusong 3510 (across the creek) and
    # Shanghai 3512, opposite hexes around 3511: 1R (10.4.2), and 3R of fire support: 5:1, die 4 = 0/3.
    attack = total_strength(
        hexside_contributions(
            [("3rd", 16, H("3510")), ("SNLF", 8, H("3512"))],
            H("3511"),
            lambda a, b: "creek" if a == H("3510") else None,
            HexsideModifiers.from_dict(SNC_HEXSIDES),
        ),
        RULE,
    )
    conc = concentric_shift(ConcentricRule.from_dict(SNC_CONCENTRIC), GRID, H("3511"), [H("3510"), H("3512")],
                            "japanese", set())
    assert conc is not None and conc.amount == 1
    p = preview_attack(CRT_, attack, 9, [conc, *fire(3)])
    assert attack.total == 16
    assert (p.odds.label, p.column_label) == ("1:1", "5:1")
    r = p.result(4)
    assert (r.attacker.losses, r.defender.losses) == (0, 3)
    # without the concentric shift (the example's own arithmetic from 1:1) the column would be 4:1
    assert preview_attack(CRT_, attack, 9, fire(3)).column_label == "4:1"


def test_10_5_2_reduce_two_step_units_before_eliminating_one_step_units():
    check = reduce_before_eliminate()
    with pytest.raises(RuleViolation, match="SNC 10.5.2"):
        apply_step_losses({"elite5": 2, "regular": 1}, 1, ["regular"], "SNC 10.5.2", check)
    assert apply_step_losses({"elite5": 2, "regular": 1}, 1, ["elite5"], "SNC 10.5.2", check).steps == {
        "elite5": 1,
        "regular": 1,
    }
