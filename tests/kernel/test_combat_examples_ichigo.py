"""Ichi-Go combat arithmetic (rules 11.x, 7.3) through the kernel, with the game's data as fixtures."""

from fractions import Fraction

import pytest
from combat_tables import ICHIGO_CONCENTRIC, ICHIGO_CRT, ICHIGO_RIVER, ICHIGO_STRENGTH

from app.rules.kernel.concentric import ConcentricRule, concentric_shift
from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.odds import compute_odds
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import (
    LossRule,
    apply_step_losses,
    eliminate_all,
    reduce_before_eliminate,
    scale_losses,
)
from app.rules.kernel.shifts import Cap, Shift, net_shifts
from app.rules.kernel.strength import (
    Contribution,
    HexsideModifiers,
    Modifier,
    StrengthRule,
    hexside_contributions,
    total_strength,
)

CRT_ = CRT.from_dict(ICHIGO_CRT)
GRID = Grid("even-low", cols=(1, 36), rows=(1, 30))
H = Hex.parse


def odds_label(a, d, line="japanese"):
    o = compute_odds(CRT_.odds, CRT_.columns(line), a, d)
    return o.label, CRT_.columns(line)[o.column].label


def test_11_6_high_odds_round_down_26_on_7_is_3_to_1():
    assert odds_label(26, 7) == ("3:1", "3:1")


def test_11_6_example_text_also_uses_27_on_7_which_is_still_3_to_1():
    # The example opens with 26 factors and then divides 27 by 7 (3.85): both round down to 3:1.
    assert odds_label(27, 7) == ("3:1", "3:1")


def test_11_7_poor_odds_round_up_5_on_11_is_1_to_3():
    assert odds_label(5, 11) == ("1:3", "1:3")


def test_11_8_odds_beyond_the_ends_use_the_end_columns():
    assert odds_label(12, 1) == ("12:1", "≥10:1")
    assert odds_label(1, 7) == ("1:7", "≤1:5")


def test_11_8_each_attacker_uses_its_own_line():
    with pytest.raises(ValueError, match="say which one"):
        CRT_.columns()
    assert CRT_.cell("2:1", 6, line="japanese").code == "2/4"
    with pytest.raises(LookupError):
        CRT_.cell("2:1", 6, line="chinese")


def test_11_19_japanese_2_to_1_die_6_gives_2_over_4():
    p = preview_attack(CRT_, 14, 7, line="japanese")
    assert p.column_label == "2:1"
    r = p.result(6)
    assert (r.attacker.losses, r.defender.losses) == (2, 4)
    assert p.result(1) is None  # the rest of the printed column is not in the rules text


def river_total(strengths):
    river = HexsideModifiers.from_dict(ICHIGO_RIVER)
    attackers = [(f"u{i}", s, H(origin)) for i, (s, origin) in enumerate(strengths)]
    contributions = hexside_contributions(
        attackers, H("2010"), lambda a, b: "river" if a in (H("2009"), H("2110")) else None, river
    )
    return total_strength(contributions, StrengthRule.from_dict(ICHIGO_STRENGTH)).total


def test_11_13_single_1_factor_unit_across_river_halves_to_half_rounded_up_to_1():
    assert river_total([(1, "2009")]) == 1


def test_11_13_two_1_factor_units_across_river_total_1_stacked_or_from_two_hexes():
    assert river_total([(1, "2009"), (1, "2009")]) == 1
    assert river_total([(1, "2009"), (1, "2110")]) == 1


def test_11_13_only_units_crossing_the_river_are_halved():
    # 3 across the river (1.5) + 4 not across = 5.5, rounded up: 6
    assert river_total([(3, "2009"), (4, "2011")]) == 6


def test_11_13_no_attack_across_a_lake_hexside():
    river = HexsideModifiers.from_dict(ICHIGO_RIVER)
    with pytest.raises(RuleViolation) as err:
        hexside_contributions([("u", 3, H("2009"))], H("2010"), lambda a, b: "lake", river)
    assert err.value.case == "Ichi-Go 11.13"


def test_7_3_out_of_supply_stack_of_5_attacks_with_3_derived():
    rule = StrengthRule.from_dict(ICHIGO_STRENGTH)
    oos = Modifier(Fraction(1, 2), "Ichi-Go 7.3", "out of supply")
    assert total_strength([Contribution("stack", 5, (oos,))], rule).total == 3


def test_11_15_edge_example_1601_1702_1801_against_1701_gets_no_bonus():
    rule = ConcentricRule.from_dict(ICHIGO_CONCENTRIC)
    assert concentric_shift(rule, GRID, H("1701"), [H("1601"), H("1702"), H("1801")], "japanese") is None


def test_11_15_opposite_hexes_give_japanese_1R_and_us_2R_but_chinese_nothing():
    rule = ConcentricRule.from_dict(ICHIGO_CONCENTRIC)
    d = H("2010")
    north, south = GRID.all_neighbours(d)[0], GRID.all_neighbours(d)[3]
    assert concentric_shift(rule, GRID, d, [north, south], "japanese").amount == 1
    assert concentric_shift(rule, GRID, d, [north, south], "us").amount == 2
    assert concentric_shift(rule, GRID, d, GRID.all_neighbours(d), "chinese") is None


def test_11_15_three_hexes_with_a_gap_between_each_qualify_three_adjacent_do_not():
    rule = ConcentricRule.from_dict(ICHIGO_CONCENTRIC)
    d = H("2010")
    ring = GRID.all_neighbours(d)
    assert concentric_shift(rule, GRID, d, [ring[1], ring[3], ring[5]], "japanese") is not None
    assert concentric_shift(rule, GRID, d, [ring[0], ring[1], ring[2]], "japanese") is None
    assert concentric_shift(rule, GRID, d, [ring[0], ring[1], ring[2], ring[4]], "japanese") is not None


def test_11_14_no_concentric_bonus_against_a_city():
    rule = ConcentricRule.from_dict(ICHIGO_CONCENTRIC)
    d = H("2010")
    assert concentric_shift(rule, GRID, d, GRID.all_neighbours(d), "us", defender_terrain={"city"}) is None


def test_11_9_to_11_12_shifts_are_cumulative_mountain_2L_with_airpower_1R_is_1L():
    net = net_shifts(
        [
            Shift.parse("2L", "Ichi-Go 11.12", "mountain"),
            Shift.parse("1R", "Ichi-Go 11.18", "friendly airpower", "air"),
        ]
    )
    assert net.net == -1
    p = preview_attack(CRT_, 14, 7, net.shifts, line="japanese")
    assert p.column_label == "1:1"


def test_11_18_airpower_never_more_than_one_column_per_battle():
    caps = {"air": Cap(left=1, right=1, case="Ichi-Go 11.18")}
    shifts = [
        Shift(1, "Ichi-Go 11.18", "airpower marker A", "air"),
        Shift(1, "Ichi-Go 11.18", "marker B", "air"),
    ]
    net = net_shifts(shifts, caps)
    assert net.net == 1
    assert net.capped == {"air": (2, 1)}


def test_11_20_defender_loses_4_steps_and_excess_losses_are_ignored():
    outcome = apply_step_losses(
        {"reg1": 1, "reg2": 1, "reg3": 1}, 4, ["reg1", "reg2", "reg3"], "Ichi-Go 11.20"
    )
    assert outcome.eliminated == ("reg1", "reg2", "reg3")
    assert (outcome.lost, outcome.unsatisfied) == (3, 1)


def test_11_21_a_division_is_not_eliminated_while_a_unit_can_still_be_reduced():
    check = reduce_before_eliminate(lambda unit: unit.startswith("div"))
    force = {"div26": 2, "bde5": 1, "div62": 2}
    with pytest.raises(RuleViolation, match="div26 cannot be eliminated"):
        apply_step_losses(force, 2, ["div26", "div26"], "Ichi-Go 11.21", check)
    ok = apply_step_losses(force, 3, ["div26", "div62", "div26"], "Ichi-Go 11.21", check)
    assert ok.steps == {"div26": 0, "bde5": 1, "div62": 1}


def test_11_22_de_eliminates_every_defender_whatever_its_steps():
    r = CRT_.notation.parse("DE")
    assert r.defender.eliminated
    assert eliminate_all({"div": 2, "bde": 1}).eliminated == ("div", "bde")


def test_11_23_chinese_attackers_lose_double_and_at_least_one_step_even_on_de():
    rule = LossRule(multiplier=2, minimum=1, case="Ichi-Go 11.23")
    assert scale_losses(CRT_.notation.parse("2/4"), "attacker", rule).attacker.losses == 4
    assert scale_losses(CRT_.notation.parse("0/1"), "attacker", rule).attacker.losses == 1
    assert scale_losses(CRT_.notation.parse("DE"), "attacker", rule).attacker.losses == 1
    assert scale_losses(CRT_.notation.parse("DE"), "attacker", rule).defender.eliminated
