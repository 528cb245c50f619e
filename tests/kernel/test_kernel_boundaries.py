"""Kernel rules at their boundaries, each found unchecked by the mutation run (issue 19): rounding per unit
against rounding the total, an advance with nothing cleared, loss scaling read from data, and the sheets a
player's map may replace."""
from fractions import Fraction

import pytest

from app.rules.kernel.advance import check_advance
from app.rules.kernel.concentric import is_concentric
from app.rules.kernel.crt import Notation
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.mapfile import MapError
from app.rules.kernel.odds import OddsRule, compute_odds, parse_columns
from app.rules.kernel.results import LossRule, apply_step_losses, bloodbath, scale_losses
from app.rules.kernel.strength import Contribution, Modifier, StrengthRule, total_strength
from tests.kernel.test_atlas import ATLAS, sheet

HALF = Modifier(Fraction(1, 2), "X 1", "river")


def test_rounding_each_unit_loses_the_halves_that_rounding_the_total_keeps():
    two = [Contribution("a", 3, (HALF,)), Contribution("b", 3, (HALF,))]          # 1.5 + 1.5
    assert total_strength(two, StrengthRule("down", "total")).total == 3
    assert total_strength(two, StrengthRule("down", "unit")).total == 2
    assert total_strength(two, StrengthRule("up", "unit")).total == 4


def test_an_advance_with_no_defending_hex_cleared_is_refused_under_the_games_case():
    with pytest.raises(RuleViolation) as info:
        check_advance(Grid("even-low", cols=(1, 9), rows=(1, 9)), Hex.parse("0101"), [Hex.parse("0102")], [],
                      2, lambda h, prev: True, "SNC 10.5.3")
    assert str(info.value) == "SNC 10.5.3: no defending hex was cleared: no advance"


def test_a_loss_rule_reads_its_multiplier_minimum_and_case_from_data():
    assert LossRule.from_dict({"multiplier": 2, "minimum": 1, "case": "Ichi-Go 11.23"}) == \
        LossRule(2, 1, "Ichi-Go 11.23")
    assert LossRule.from_dict({}) == LossRule(1, 0, "")


def test_a_map_for_a_sheet_the_game_does_not_have_names_the_sheets_it_has():
    with pytest.raises(MapError) as info:
        ATLAS.replaced(sheet("x"))
    assert "sheet 'x' is none of this game's sheets ('w', 'e')" in str(info.value)


def test_differential_and_percentage_columns_start_at_the_low_end_of_their_printed_range():
    lows = [c.low for c in parse_columns("differential", ["-2", "+2, +3", "+4..+7", "+10"])]
    assert lows == [-2, 2, 4, 10]
    lows = [c.low for c in parse_columns("percentage", ["≤49%", "50-99%", "300%", "≥700%"])]
    assert lows == [0, 50, 300, 700]


def test_scaling_an_exchange_keeps_it_an_exchange():
    ex = Notation.from_dict({"tokens": {"EX": {"exchange": True}}}).parse("EX")
    scaled = scale_losses(ex, "attacker", LossRule(2, 1, ""))
    assert scaled.exchange and scaled.attacker.losses == 1


def test_a_ring_position_outside_the_six_directions_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"^directions must be 0\.\.5, got \[0, 6\]$"):
        is_concentric("opposite_or_alternating", [0, 6])


def test_a_printed_open_end_of_a_column_is_kept():
    ends = [(c.label, c.open_low, c.open_high) for c in parse_columns("ratio", ["≤1:5", "1:4", "≥10:1"])]
    assert ends == [("≤1:5", True, False), ("1:4", False, False), ("≥10:1", False, True)]


def test_defender_rounding_read_from_data_keeps_a_fractional_column_reachable():
    """Dai Senso 4.2.2 step 3: 3 against 2 is on the 3:2 column; integer rounding (Ichi-Go 11.6) reads 1:1."""
    columns = parse_columns("ratio", ["1:1", "3:2", "2:1"])
    assert compute_odds(OddsRule.from_dict({"rounding": "defender"}), columns, 3, 2).label == "3:2"
    assert compute_odds(OddsRule.from_dict({}), columns, 3, 2).label == "1:1"


@pytest.mark.parametrize("rule", [{"rounding": "defender"}, {"method": "percentage"}])
def test_extending_past_the_table_is_refused_for_columns_not_stepped_by_whole_numbers(rule):
    with pytest.raises(ValueError, match="^beyond_ends='extend' needs integer-stepped columns"):
        OddsRule(beyond_ends="extend", **rule)
    assert OddsRule(beyond_ends="clamp", **rule).beyond_ends == "clamp"


def test_an_unknown_odds_method_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError) as info:
        OddsRule(method="odds")
    assert str(info.value) == "unknown odds method 'odds': expected one of ratio, differential, percentage"


def test_a_step_allocated_twice_from_a_one_step_unit_is_refused_under_the_games_case():
    with pytest.raises(RuleViolation) as info:
        apply_step_losses({"a": 1, "b": 2}, 2, ["a", "a"], "SNC 10.5.2")
    assert str(info.value) == "SNC 10.5.2: a has no step left to lose"


def test_a_bloodbath_against_a_side_of_no_printed_strength_takes_that_side_and_costs_nothing():
    """Formosa 15.5 BB at its edge: zero strength is not negative."""
    assert bloodbath(3, 0) == (frozenset({"defender"}), 0)
    assert bloodbath(0, 3) == (frozenset({"attacker"}), 0)
    with pytest.raises(ValueError, match="^printed strengths cannot be negative$"):
        bloodbath(3, -1)


def test_an_odds_rule_from_data_without_a_key_has_the_rules_default():
    assert OddsRule.from_dict({}) == OddsRule()


def test_extended_differential_odds_count_the_columns_beyond_either_end():
    """Under beyond_ends="extend" shifts act on the true odds (module docstring of kernel.odds): -6 lies three
    columns left of a table starting at -3, +6 five right of one ending at +1."""
    columns = parse_columns("differential", ["-3", "-2", "-1", "0", "+1"])
    rule = OddsRule(method="differential", beyond_ends="extend")
    below, above = compute_odds(rule, columns, 0, 6), compute_odds(rule, columns, 6, 0)
    assert (below.column, below.clamped, below.virtual_column) == (0, "low", -3)
    assert (above.column, above.clamped, above.virtual_column) == (4, "high", 9)
