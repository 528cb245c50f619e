"""The odds minimum (Dai Senso 7.2.1-style floors, Ichi-Go 11.28): the refusal a player reads names the floor in
the table's own notation, and an attack exactly at the floor is allowed (mutation survivors of issue 19)."""
from fractions import Fraction

from app.rules.kernel.odds import OddsRule, compute_odds, parse_columns

RATIOS = parse_columns("ratio", ["1:2", "1:1", "2:1", "3:1"])
DIFFS = parse_columns("differential", ["-3", "-2", "-1", "0", "+1"])


def test_a_ratio_below_the_minimum_is_refused_naming_the_minimum_as_a_ratio():
    rule = OddsRule.from_dict({"minimum": "1:2", "minimum_case": "X 7.2"})
    assert rule.minimum == Fraction(1, 2)
    below = compute_odds(rule, RATIOS, 1, 3)
    assert not below.allowed
    assert below.refusal.startswith("X 7.2: raw odds")
    assert "below the minimum 1:2" in below.refusal
    at = compute_odds(rule, RATIOS, 1, 2)  # just inside: exactly the minimum
    assert at.allowed and at.refusal is None


def test_a_differential_below_the_minimum_is_refused_naming_it_with_its_sign():
    rule = OddsRule.from_dict({"method": "differential", "minimum": "-2", "minimum_case": "Y 9.1"})
    assert rule.minimum == -2
    below = compute_odds(rule, DIFFS, 1, 4)
    assert not below.allowed and "below the minimum -2" in below.refusal
    assert compute_odds(rule, DIFFS, 2, 4).allowed
