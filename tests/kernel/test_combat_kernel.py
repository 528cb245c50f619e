"""Game-independent behaviour of the combat kernel, and hypothesis properties over all odds methods."""

import json
from fractions import Fraction

import pytest
from combat_tables import FORMOSA_CRT, ICHIGO_CRT, OLYMPIC_CRT, SNC_CRT
from hypothesis import given
from hypothesis import strategies as st

from app.rules.daisenso.data_load import load as load_daisenso
from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.odds import OddsRule, compute_odds, parse_columns
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import apply_step_losses
from app.rules.kernel.retreat import farther_from, retreat
from app.rules.kernel.shifts import Shift, apply_shift, net_shifts

TABLES = {
    "ichigo": (CRT.from_dict(ICHIGO_CRT), "japanese"),
    "snc": (CRT.from_dict(SNC_CRT), None),
    "daisenso": (load_daisenso().crt, None),  # the game's own reconstructed table
    "formosa": (CRT.from_dict(FORMOSA_CRT), None),
    "olympic": (CRT.from_dict(OLYMPIC_CRT), None),
}
strength = st.integers(min_value=1, max_value=200)


@pytest.mark.parametrize("game", sorted(TABLES))
@given(a=strength, extra=st.integers(min_value=0, max_value=50), d=strength)
def test_property_odds_column_never_falls_as_attack_rises(game, a, extra, d):
    crt, line = TABLES[game]
    cols = crt.columns(line)
    low = compute_odds(crt.odds, cols, a, d)
    high = compute_odds(crt.odds, cols, a + extra, d)
    assert high.column >= low.column
    assert high.virtual_column >= low.virtual_column
    assert high.allowed or not low.allowed


@pytest.mark.parametrize("game", sorted(TABLES))
@given(a=strength, d=strength, extra=st.integers(min_value=0, max_value=50))
def test_property_odds_column_never_rises_as_defence_rises(game, a, d, extra):
    crt, line = TABLES[game]
    cols = crt.columns(line)
    assert compute_odds(crt.odds, cols, a, d + extra).column <= compute_odds(crt.odds, cols, a, d).column


@given(
    amounts=st.lists(st.integers(min_value=-4, max_value=4), max_size=8),
    start=st.integers(min_value=-5, max_value=20),
    n=st.integers(min_value=1, max_value=15),
)
def test_property_netted_shifts_land_inside_the_table(amounts, start, n):
    net = net_shifts(Shift(a, "case", "reason") for a in amounts)
    assert net.net == sum(amounts)
    column, end = apply_shift(start, net.net, n)
    assert 0 <= column < n
    assert (end is None) == (0 <= start + net.net < n)


@given(
    force=st.dictionaries(st.sampled_from("abcdef"), st.integers(min_value=0, max_value=4), min_size=1),
    losses=st.integers(min_value=0, max_value=30),
    seed=st.randoms(use_true_random=False),
)
def test_property_losses_never_leave_negative_steps(force, losses, seed):
    pool = [u for u, s in force.items() for _ in range(s)]
    seed.shuffle(pool)
    allocation = pool[:losses]
    out = apply_step_losses(force, losses, allocation, "case")
    assert all(s >= 0 for s in out.steps.values())
    assert out.lost + out.unsatisfied == losses
    assert sum(out.steps.values()) == sum(force.values()) - out.lost


@given(hexes=st.integers(min_value=0, max_value=6), picks=st.lists(st.integers(0, 5), min_size=6, max_size=6))
def test_property_retreat_path_gains_distance_every_hex(hexes, picks):
    grid = Grid("odd-low", cols=(1, 40), rows=(1, 40))
    origin = Hex(20, 20)
    pick = iter(picks)
    out = retreat(
        grid,
        origin,
        hexes,
        lambda c, h, s: True,
        [farther_from(grid, origin)],
        lambda options, state: options[next(pick) % len(options)],
        "convert",
    )
    assert [grid.distance(origin, h) for h in out.path] == list(range(1, hexes + 1))


def test_integer_and_defender_rounding_differ_only_on_fractional_columns():
    cols = parse_columns("ratio", ["1:2", "1:1", "3:2", "2:1"])
    integer, defender = OddsRule(rounding="integer"), OddsRule(rounding="defender")
    assert cols[compute_odds(integer, cols, 3, 2).column].label == "1:1"  # 1.5 rounds down to 1:1
    assert cols[compute_odds(defender, cols, 3, 2).column].label == "3:2"
    assert compute_odds(integer, cols, 4, 2).column == compute_odds(defender, cols, 4, 2).column


def test_extend_counts_virtual_columns_below_the_table_too():
    crt, _ = TABLES["snc"]
    p = preview_attack(crt, 1, 5, [Shift(2, "SNC 11.1", "fire support")])
    assert p.odds.virtual_column == -2  # 1:5 is two columns left of 1:3
    assert p.column_label == "1:3"
    assert preview_attack(crt, 1, 3, [Shift(2, "SNC 11.1", "fire support")]).column_label == "1:1"


@given(right=st.integers(min_value=0, max_value=20), d=strength)
def test_extend_a_0_factor_attack_stays_on_the_first_column_whatever_the_shifts(right, d):
    # SNC 10.3.1: 0 on d is worse than every 1:n; the shifts act on the true odds, so none reaches 1:3's right
    crt, _ = TABLES["snc"]
    p = preview_attack(crt, 0, d, [Shift(right, "SNC 11.1", "fire support")])
    assert p.odds.virtual_column is None and p.to_dict()["raw_column"] is None
    assert (p.column_label, p.clamped) == ("1:3", "low")


def test_extend_0_factors_against_1_factor_beside_1_on_5_and_1_on_3():
    crt, _ = TABLES["snc"]
    two_right = [Shift(2, "SNC 11.1", "fire support")]
    assert preview_attack(crt, 0, 2, two_right).column_label == "1:3"  # not 1:1 (issue 19, D1)
    assert preview_attack(crt, 1, 5, two_right).column_label == "1:3"
    assert preview_attack(crt, 1, 5, [Shift(3, "SNC 11.1", "fire support")]).column_label == "1:2"
    assert preview_attack(crt, 1, 3, two_right).column_label == "1:1"


def test_clamp_puts_a_0_factor_attack_on_the_first_column_before_the_shifts():
    # Ichi-Go 11.8 reads as clamping the raw odds (combat-kernel rulings): 0 on 2 starts at <=1:5 like 1 on 9
    crt, line = TABLES["ichigo"]
    two_right = [Shift(2, "Ichi-Go 11.18", "airpower")]
    zero, one = (preview_attack(crt, a, d, two_right, line=line) for a, d in ((0, 2), (1, 9)))
    assert zero.odds.virtual_column == one.odds.virtual_column == 0
    assert zero.column == one.column == 2


def test_defence_of_zero_is_odds_above_the_table_resolved_on_its_last_column():
    # combat-kernel rulings, "a defending strength of 0": the odds above the extremes (SNC 10.3.1); a negative
    # strength stays a ValueError (tests/reliability/test_odds_crash_part16.py plays every game's table)
    crt, _ = TABLES["snc"]
    p = preview_attack(crt, 5, 0, [Shift(-2, "SNC 10.4.1", "town", "terrain")])
    assert (p.odds.label, p.column_label, p.clamped) == ("5:0", "6:1", "high")
    with pytest.raises(ValueError, match="cannot be negative"):
        preview_attack(crt, 5, -1)


def test_preview_is_plain_data_for_json_and_text():
    crt, _ = TABLES["snc"]
    p = preview_attack(crt, 12, 9, [Shift(-1, "SNC 10.4.1", "town", "terrain"), Shift(3, "SNC 11.1", "fire")])
    data = json.loads(json.dumps(p.to_dict()))
    assert data["raw_odds"] == "1:1"
    assert data["column_label"] == "3:1"
    assert [s["case"] for s in data["shifts"]] == ["SNC 10.4.1", "SNC 11.1"]
    assert [r["die"] for r in data["results"]] == [1, 2, 3, 4, 5, 6]
    assert data["results"][1]["result"]["attacker"]["losses"] == 2
    text = p.to_text()
    assert "1L (SNC 10.4.1: town)" in text and "column 3:1" in text and "2: 2/1" in text


def test_crt_loader_rejects_malformed_tables():
    base = {"columns": ["1:1", "2:1"], "dice": [1, 2], "results": {"1": ["1/0", "0/1"], "2": ["-", "0/2"]}}
    assert CRT.from_dict(base).cell("2:1", 2).defender.losses == 2
    with pytest.raises(ValueError, match="must increase"):
        CRT.from_dict({**base, "columns": ["2:1", "1:1"]})
    with pytest.raises(ValueError, match="row has 1 cells for 2 columns"):
        CRT.from_dict({**base, "results": {"1": ["1/0"], "2": ["-", "0/2"]}})
    with pytest.raises(ValueError, match="do not match dice"):
        CRT.from_dict({**base, "dice": [1, 3]})
    with pytest.raises(ValueError, match="cannot read 'XX'"):
        CRT.from_dict({**base, "results": {"1": ["XX", "0/1"], "2": ["-", "0/2"]}})
    with pytest.raises(ValueError, match="die roll 7"):
        CRT.from_dict(base).lookup(0, 7)


def test_shift_notation_round_trips_and_rejects_nonsense():
    assert Shift.parse("2L", "c", "r").amount == -2
    assert Shift.parse("1R", "c", "r").notation == "1R"
    with pytest.raises(ValueError, match="expected a count and L or R"):
        Shift.parse("L2", "c", "r")


def test_allocation_must_match_the_losses_due():
    with pytest.raises(RuleViolation, match="2 step"):
        apply_step_losses({"a": 2}, 2, ["a"], "case")
    with pytest.raises(RuleViolation, match="no step left"):
        apply_step_losses({"a": 1, "b": 1}, 2, ["a", "a"], "case")


def test_fraction_strengths_are_exact():
    crt, _ = TABLES["snc"]
    assert compute_odds(crt.odds, crt.columns(), Fraction(9, 2), 3).label == "1:1"
