"""Dai Senso chapter 4 combat: odds (4.2.2), minimum odds (4.2.1.1), shifts (4.2.3), results (4.2.4),
retreat priorities, restrictions and conversion (4.2.5), attrition (4.2.6) and exploitation (4.2.8).

Hexes are on the w-map, numbered with odd columns low (seed catalog 0.2); the "w" prefix is dropped."""

import pytest
from combat_tables import DAISENSO_CRT

from app.rules.kernel.advance import check_exploitation, exploitation_distance
from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import apply_step_losses
from app.rules.kernel.retreat import RetreatState, farther_from, retreat, retreat_options
from app.rules.kernel.shifts import Shift, hexside_shift, net_shifts

CRT_ = CRT.from_dict(DAISENSO_CRT)
GRID = Grid("odd-low", cols=(1, 60), rows=(1, 40))
H = Hex.parse


def anywhere(current, candidate, state):
    return True


def test_4_2_2_defender_4_attacker_11_is_2_to_1_and_one_more_factor_makes_3_to_1():
    assert preview_attack(CRT_, 11, 4).odds.label == "2:1"
    assert preview_attack(CRT_, 12, 4).column_label == "3-1"


def test_4_2_2_design_note_3_to_1_with_three_right_shifts_is_resolved_on_9_to_1():
    shifts = [
        Shift(1, "Dai Senso 4.2.3.1", "air unit"),
        Shift(1, "Dai Senso 4.2.3.5", "HQ"),
        Shift(1, "Dai Senso 4.2.3.1", "air unit"),
    ]
    assert preview_attack(CRT_, 9, 3, shifts).column_label == "9-1"


def test_4_2_2_odds_over_9_to_1_are_9_to_1_and_shifts_above_stay_there():
    p = preview_attack(CRT_, 40, 2, [Shift(-1, "Dai Senso 4.2.3.4", "fortress")])
    assert p.column_label == "6-1"  # clamped to 9-1 first, then one column left


def test_4_2_1_1_no_attack_below_raw_1_to_3():
    p = preview_attack(CRT_, 3, 10)
    assert not p.allowed
    assert p.results is None
    assert "Dai Senso 4.2.1.1" in p.odds.refusal
    assert preview_attack(CRT_, 4, 12).allowed  # exactly 1-3


def test_4_2_1_1_minimum_ignores_shifts():
    p = preview_attack(CRT_, 3, 10, [Shift(3, "Dai Senso 4.2.3.1", "air")])
    assert not p.allowed


def test_4_2_3_6_marine_across_all_sea_nets_one_left():
    net = net_shifts(
        [Shift(1, "Dai Senso 4.2.3.6", "marines"), Shift(-2, "Dai Senso 4.2.3.8", "all-sea hexside")]
    )
    assert net.net == -1


def test_4_2_3_8_only_the_lowest_hexside_shift_applies():
    # river (1L) in one direction, mountain (2L) in another: one left
    assert hexside_shift([-1, -2], plain_counts=False) == -1
    city = Shift(-1, "Dai Senso 4.2.3.8", "city")
    river = Shift(hexside_shift([-1, -2], plain_counts=False), "Dai Senso 4.2.3.8", "hexside")
    assert net_shifts([city, river]).net == -2


def test_4_2_4_1_result_notation_retreat_and_attrition_in_one_cell():
    r = CRT_.notation.parse("Dr3 0/1")
    assert (r.defender.retreat, r.defender.losses, r.attacker.losses) == (3, 1, 0)
    ad = CRT_.notation.parse("Ad 1/0")
    assert (ad.attacker.retreat, ad.attacker.retreat_or_loss, ad.attacker.losses) == (1, True, 1)
    ex = CRT_.notation.parse("Ex")
    assert ex.exchange and ex.attacker.retreat_or_loss


def test_4_2_4_1_mud_storms_snow_weaken_defender_retreats():
    col = 4
    assert CRT_.lookup(col, 5, conversion="mud").code == "Dr2 0/1"
    assert CRT_.lookup(col, 4, conversion="mud").code == "Dr1"
    ex = CRT_.lookup(col, 3, conversion="mud")
    assert ex.code == "Ex 0/1" and ex.exchange and ex.defender.retreat == 0
    assert CRT_.lookup(col, 1, conversion="mud").code == "Ad 1/0"  # Ad and Ex unaffected
    assert CRT_.lookup(col, 2, conversion="mud").code == "Ex"


def test_4_2_5_1_attacker_retreat_from_4520_must_gain_distance_from_chungking_4620():
    state = RetreatState(H("4520"))
    level, options = retreat_options(GRID, state, anywhere, [farther_from(GRID, H("4620"))])
    assert level == 0
    assert sorted(map(str, options)) == ["4420", "4421", "4521"]  # not 4519 or 4621


def test_4_2_5_1_akyab_dr3_third_hex_must_be_farther_than_dacca():
    far = farther_from(GRID, H("4114"))
    state = RetreatState(H("4114"), (H("4214"), H("4313")))
    _, options = retreat_options(GRID, state, anywhere, [far])
    assert sorted(map(str, options)) == ["4312", "4413", "4414"]  # not Calcutta 4213 or 4314


def test_4_2_5_1_priority_two_only_when_priority_one_is_empty():
    origin = H("4620")
    ezoc = {H("4420"), H("4421")}
    friends = {H("4521"), H("4421")}
    far = farther_from(GRID, origin)
    priorities = [
        lambda h, s: far(h, s) and h not in ezoc,
        lambda h, s: far(h, s) and h in friends,
    ]
    assert retreat_options(GRID, RetreatState(H("4520")), anywhere, priorities) == (0, [H("4521")])
    ezoc.add(H("4521"))
    assert retreat_options(GRID, RetreatState(H("4520")), anywhere, priorities) == (1, [H("4521"), H("4421")])


def test_4_2_5_2_taihoku_may_retreat_over_a_strait_but_not_an_all_sea_hexside():
    sides = {frozenset({H("4324"), H("4424")}): "strait", frozenset({H("4324"), H("4323")}): "all-sea"}

    def allowed(current, candidate, state):
        return sides.get(frozenset({current, candidate})) != "all-sea"

    _, options = retreat_options(GRID, RetreatState(H("4324")), allowed, [farther_from(GRID, H("4325"))])
    assert H("4424") in options
    assert H("4323") not in options


def test_4_2_5_3_dr3_into_an_hq_hex_converts_the_last_hex_to_a_step_loss():
    hq = H("4424")
    path = iter([H("4524"), hq])
    out = retreat(
        GRID,
        H("4624"),
        3,
        anywhere,
        [farther_from(GRID, H("4624"))],
        choose=lambda options, state: next(path),
        on_blocked="convert",
        can_retreat=lambda state: state.current != hq,
    )
    assert out.path == (H("4524"), hq)
    assert (out.converted, out.eliminated) == (1, False)


def test_4_2_5_3_9th_war_zone_loses_hq_step_then_retreats_two_hexes():
    blocked = {H("4523"), H("4524"), H("4724"), H("4625")}  # enemies/EZOC around 4624 in the example
    lake = frozenset({H("4623"), H("4622")})

    def allowed(current, candidate, state):
        return candidate not in blocked and frozenset({current, candidate}) != lake

    seen = []

    def choose(options, state):
        seen.append(sorted(map(str, options)))
        return H("4623") if H("4623") in options else options[0]

    out = retreat(
        GRID,
        H("4624"),
        3,
        allowed,
        [farther_from(GRID, H("4624"))],
        choose,
        "convert",
        can_retreat=lambda state: state.converted >= 1,  # the HQ is broken down by the first conversion
    )
    assert out.converted == 1
    assert seen == [["4623", "4723"], ["4522", "4722"]]  # not 4622: lake hexside
    assert len(out.path) == 2


def test_4_2_6_1_beachhead_ad_1_over_0_takes_an_armor_step_first_then_any():
    force = {"mech_7_6_2": 3, "inf_4_4_1": 2}
    armor = {"mech_7_6_2"}

    def first_loss_armor(unit, steps):
        if steps == force and unit not in armor:
            return "the first step lost must be an armor step"
        return None

    with pytest.raises(RuleViolation, match="armor"):
        apply_step_losses(force, 2, ["inf_4_4_1", "mech_7_6_2"], "Dai Senso 4.2.6.1", first_loss_armor)
    out = apply_step_losses(force, 2, ["mech_7_6_2", "inf_4_4_1"], "Dai Senso 4.2.6.1", first_loss_armor)
    assert out.steps == {"mech_7_6_2": 2, "inf_4_4_1": 1}


def test_4_2_8_dr3_0_over_1_one_step_unit_retreats_three_then_dies_distance_3():
    losses = apply_step_losses({"rus": 1}, 1, ["rus"], "Dai Senso 4.2.6")
    assert exploitation_distance(3, losses.unsatisfied, movement_allowance=6) == 3


def test_4_2_8_chita_converted_dr1_then_unsatisfied_attrition_distance_1():
    converted = apply_step_losses({"rus": 1}, 1, ["rus"], "Dai Senso 4.2.5.3")
    attrition = apply_step_losses(converted.steps, 1, [], "Dai Senso 4.2.6")
    assert attrition.unsatisfied == 1
    assert exploitation_distance(0, attrition.unsatisfied, movement_allowance=6) == 1


def test_4_2_8_distance_is_capped_at_the_units_movement_allowance():
    assert exploitation_distance(3, 0, movement_allowance=2) == 2


def test_4_2_8_exploitation_path_starts_in_the_defending_hex_and_stops_in_ezoc():
    d = H("4620")
    ezoc = {H("4720")}
    ok = check_exploitation(
        GRID, H("4520"), d, [d, H("4720")], 3, lambda h, p: True, lambda h, p: h in ezoc, "Dai Senso 4.2.8"
    )
    assert ok[-1] == H("4720")
    with pytest.raises(RuleViolation, match="must stop in 4720"):
        check_exploitation(
            GRID,
            H("4520"),
            d,
            [d, H("4720"), H("4820")],
            3,
            lambda h, p: True,
            lambda h, p: h in ezoc,
            "Dai Senso 4.2.8",
        )
    with pytest.raises(RuleViolation, match="distance is 2"):
        check_exploitation(
            GRID,
            H("4520"),
            d,
            [d, H("4619"), H("4618")],
            2,
            lambda h, p: True,
            lambda h, p: False,
            "Dai Senso 4.2.8",
        )
    with pytest.raises(RuleViolation, match="starts in the defending hex"):
        check_exploitation(
            GRID, H("4520"), d, [H("4619")], 2, lambda h, p: True, lambda h, p: False, "Dai Senso 4.2.8"
        )
