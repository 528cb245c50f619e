"""Kernel rules at their boundaries, each found unchecked by the mutation run (issue 19): rounding per unit
against rounding the total, an advance with nothing cleared, loss scaling read from data, and the sheets a
player's map may replace."""
from fractions import Fraction

import pytest

from app.rules.kernel.advance import check_advance
from app.rules.kernel.crt import Notation
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.mapfile import MapError
from app.rules.kernel.odds import parse_columns
from app.rules.kernel.results import LossRule, scale_losses
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
