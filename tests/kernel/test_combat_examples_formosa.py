"""Formosa 15.x: percentage odds (15.2), limits (15.3), shifts (15.4), concentric (15.4.1), results (15.5),
counterattack (15.6), retreat (15.7), advance (15.8). Formosa prints no hex numbers; hexes are synthetic."""

import pytest
from combat_tables import FORMOSA_CONCENTRIC, FORMOSA_CRT

from app.rules.kernel.advance import check_advance
from app.rules.kernel.concentric import ConcentricRule, concentric_shift, is_concentric
from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import apply_step_losses, bloodbath, check_strength_loss
from app.rules.kernel.retreat import RetreatState, nearer, outside_ezoc, retreat, retreat_options
from app.rules.kernel.shifts import Shift

CRT_ = CRT.from_dict(FORMOSA_CRT)
GRID = Grid("even-low", cols=(1, 30), rows=(1, 30))
H = Hex.parse


def test_15_3_one_strength_against_five_uses_the_49_percent_column():
    p = preview_attack(CRT_, 1, 5)
    assert (p.odds.label, p.column_label) == ("20%", "≤49%")


def test_15_3_eight_strength_against_one_uses_the_700_percent_column():
    p = preview_attack(CRT_, 8, 1)
    assert (p.odds.label, p.column_label) == ("800%", "≥700%")


def test_15_2_percentage_is_rounded_down_so_49_and_a_half_stays_in_the_lowest_column():
    assert preview_attack(CRT_, 99, 200).column_label == "≤49%"
    assert preview_attack(CRT_, 1, 2).column_label == "50-99%"


def test_15_4_400_percent_with_attacker_1R_and_defender_2L_is_the_300_percent_column():
    shifts = [Shift(1, "Formosa 15.4.1", "air strike"), Shift(-2, "Formosa 15.4.1", "terrain")]
    p = preview_attack(CRT_, 4, 1, shifts)
    assert p.odds.label == "400%"
    assert p.column_label.startswith("300")


def test_15_4_20_against_1_with_1L_terrain_is_the_600_to_699_column():
    p = preview_attack(CRT_, 20, 1, [Shift(-1, "Formosa 15.4.1", "terrain")])
    assert p.column_label == "600-699%"


def test_15_3_shifts_off_the_chart_are_ignored():
    assert preview_attack(CRT_, 1, 5, [Shift(-2, "Formosa 15.4.1", "terrain")]).column_label == "≤49%"


def test_15_6_counterattack_1R_is_always_at_least_the_50_percent_column():
    p = preview_attack(CRT_, 1, 9, [Shift(1, "Formosa 15.6", "counterattack")])
    assert p.column_label == "50-99%"


@pytest.mark.parametrize(
    "dirs, expected",
    [
        ({0, 3}, True),  # opposite hexes: each empty hex touches an attacker
        ({0, 2, 4}, True),
        ({0, 1, 2}, False),  # the far hex (4) touches no attacker
        ({0, 1, 3, 4}, True),
        ({0}, False),
    ],
)
def test_15_4_1_concentric_every_surrounding_hex_occupied_or_adjacent_to_an_attacker(dirs, expected):
    assert is_concentric("all_six_covered", dirs) is expected


def test_15_4_1_concentric_shift_from_grid_positions():
    rule = ConcentricRule.from_dict(FORMOSA_CONCENTRIC)
    d = H("1010")
    ring = GRID.all_neighbours(d)
    assert concentric_shift(rule, GRID, d, [ring[1], ring[4]], "allied").amount == 1
    assert concentric_shift(rule, GRID, d, [ring[1], ring[2]], "allied") is None


def test_15_5_result_codes_parse():
    n = CRT_.notation
    assert n.parse("A1").attacker.losses == 1
    assert n.parse("AE").attacker.eliminated
    assert n.parse("AR").attacker.retreat == 1
    b1 = n.parse("B1")
    assert (b1.attacker.losses, b1.defender.losses) == (1, 1)
    assert n.parse("BB").markers == {"bloodbath"}
    assert n.parse("CA").markers == {"counterattack"}
    assert n.parse("D1").defender.losses == 1
    assert n.parse("DR").defender.retreat == 1
    assert n.parse("DE").defender.eliminated
    assert CRT_.loss_unit == "unit"
    with pytest.raises(ValueError, match="cannot read '1/2'"):
        n.parse("1/2")


def test_15_5_bloodbath_two_us_5_5_against_a_japanese_3_6():
    eliminated, pay = bloodbath(attacker_strength=10, defender_strength=3)
    assert (eliminated, pay) == (frozenset({"defender"}), 3)
    survivors = check_strength_loss({"5-5 A": 5, "5-5 B": 5}, pay, ["5-5 A"], "Formosa 15.5")
    assert survivors == ("5-5 B",)
    with pytest.raises(RuleViolation, match="less than the 3 required"):
        check_strength_loss({"5-5 A": 5, "2-2": 2}, pay, ["2-2"], "Formosa 15.5")


def test_15_5_bloodbath_with_equal_strengths_takes_both_sides():
    assert bloodbath(6, 6) == (frozenset({"attacker", "defender"}), 0)


def test_15_7_blocked_retreat_eliminates_the_unit():
    out = retreat(
        GRID, H("1010"), 1, lambda c, h, s: False, [lambda h, s: True], lambda o, s: o[0], "eliminate"
    )
    assert out.eliminated and out.path == ()


def test_15_7_overstacked_retreat_continues_another_hex():
    full = {H("1011")}
    picks = iter([H("1011"), H("1012")])
    out = retreat(
        GRID,
        H("1010"),
        1,
        lambda c, h, s: True,
        [lambda h, s: True],
        lambda o, s: next(picks),
        "eliminate",
        must_continue=lambda state: state.current in full,
    )
    assert out.path == (H("1011"), H("1012"))


def test_15_7_item_4_retreat_toward_a_supply_source_else_anywhere_allowed():
    """Formosa 15.7 item 4 (ruling F61): only hexes nearer the nearest supply source, if there are any."""
    source = H("1014")
    toward = nearer(lambda h: GRID.distance(h, source))
    anywhere = lambda h, s: True  # noqa: E731
    allowed = lambda c, h, s: True  # noqa: E731
    _, options = retreat_options(GRID, RetreatState(H("1010")), allowed, [toward, anywhere])
    assert set(options) == {h for h in GRID.neighbours(H("1010")) if GRID.distance(h, source) == 3}
    no_source = nearer(lambda h: float("inf"))
    level, options = retreat_options(GRID, RetreatState(H("1010")), allowed, [no_source, anywhere])
    assert level == 1 and len(options) == 6


def test_15_7_item_3_the_extra_hex_when_overstacked_need_not_go_toward_supply():
    """Formosa 15.7 items 3-4: the additional hex is taken "such that stacking limits are met", item 4 not
    applying to it (ruling F61)."""
    source = H("1014")
    toward = [nearer(lambda h: GRID.distance(h, source)), lambda h, s: True]
    full = {H("1011")}
    seen = []

    def choose(options, state):
        seen.append(set(options))
        return H("1011") if not state.path else H("0911")

    out = retreat(GRID, H("1010"), 1, lambda c, h, s: True, toward, choose, "eliminate",
                  must_continue=lambda state: state.current in full, extra_priorities=[lambda h, s: True])
    assert out.path == (H("1011"), H("0911"))
    assert H("0911") in seen[1] and len(seen[1]) == 6  # sideways, away from the source: allowed
    with pytest.raises(ValueError, match="not among the allowed"):
        retreat(GRID, H("1010"), 1, lambda c, h, s: True, toward, choose, "eliminate",
                must_continue=lambda state: state.current in full)


def test_15_7_retreat_never_into_ezoc_but_an_infiltrator_may_enter_the_first_one():
    """Formosa 14.2, 15.7 item 1; 22.0 rangers and 25.9 Takasago ignore the first EZOC in a retreat (F60)."""
    ezoc = frozenset({H("1011"), H("1012")})
    every = [lambda h, s: True]
    straight = iter([H("1011"), H("1012")])
    plain = retreat(GRID, H("1010"), 2, outside_ezoc(ezoc), every,
                    lambda o, s: H("1011") if H("1011") in o else o[0], "eliminate")
    assert H("1011") not in plain.path and len(plain.path) == 2 and not plain.eliminated
    ranger = retreat(GRID, H("1010"), 1, outside_ezoc(ezoc, ignore_first=True), every,
                     lambda o, s: next(straight), "eliminate")
    assert ranger.path == (H("1011"),)
    second = outside_ezoc(ezoc, ignore_first=True)
    assert not second(H("1011"), H("1012"), RetreatState(H("1010"), (H("1011"),)))


def test_15_8_de_advance_of_two_hexes_second_adjacent_to_the_first():
    d, origin = H("1010"), H("1009")
    ok = check_advance(GRID, origin, [d, H("1011")], {d}, 2, lambda h, p: True, "Formosa 15.8")
    assert ok == (d, H("1011"))
    with pytest.raises(RuleViolation, match="not adjacent"):
        check_advance(GRID, origin, [d, H("1013")], {d}, 2, lambda h, p: True, "Formosa 15.8")
    with pytest.raises(RuleViolation, match="at most 1"):
        check_advance(GRID, origin, [d, H("1011")], {d}, 1, lambda h, p: True, "Formosa 15.8")
    enemy = {H("1011")}
    with pytest.raises(RuleViolation, match="cannot be entered"):
        check_advance(GRID, origin, [d, H("1011")], {d}, 2, lambda h, p: h not in enemy, "Formosa 15.8")


def test_15_8_example_1_d1_on_two_units_in_one_hex_leaves_it_occupied_no_advance():
    out = apply_step_losses({"a": 1, "b": 1}, 1, ["a"], "Formosa 15.5")
    cleared = set() if out.survivors else {H("1010")}
    with pytest.raises(RuleViolation, match="no defending hex was cleared"):
        check_advance(GRID, H("1009"), [H("1010")], cleared, 1, lambda h, p: True, "Formosa 15.8")


def test_15_8_example_2_d1_on_one_of_two_defending_hexes_allows_advance_into_it():
    hexes = {"a": H("1010"), "b": H("1110")}
    out = apply_step_losses({"a": 1, "b": 1}, 1, ["a"], "Formosa 15.5")
    cleared = {hexes[u] for u in out.eliminated}
    assert check_advance(GRID, H("1009"), [H("1010")], cleared, 1, lambda h, p: True, "Formosa 15.8")
    with pytest.raises(RuleViolation, match="enters a cleared defending hex first"):
        check_advance(GRID, H("1009"), [H("1110")], cleared, 1, lambda h, p: True, "Formosa 15.8")
