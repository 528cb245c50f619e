"""Formosa's strategic stage (app/rules/formosa/strategic.py): LP income, spending and the cap, recruiting,
Amoy, air missions, air superiority, kamikaze, the mobile fleet and the B-29, each against its case, its worked
example (CF-...) or its ruling (F...). Dice are given, as the engine passes the ones it rolled."""
from __future__ import annotations

import pytest

from app.rules.errors import IllegalOrder
from app.rules.formosa import strategic as s
from app.rules.formosa.data_load import load
from app.rules.kernel.hexgrid import Hex

G = load()
H = Hex.parse


# --- 7.2 LP income ----------------------------------------------------------------------------------------

def test_7_2_allied_income_scenario_1_amoy_one_major_two_minor_three_airfields_is_16_cf_d2():
    inc = s.allied_income(G, 1, amoy=True, major_ports=1, minor_ports=2, airfields=3)
    assert inc.total == 16 and inc.side == "allied"
    assert [lp for _, lp, _ in inc.items] == [5, 5, 3, 2, 1]
    assert s.allied_income(G, 2, amoy=False, major_ports=0, minor_ports=0, airfields=1).total == 10


def test_7_2_japanese_income_die_4_five_airfields_is_6_cf_d3():
    assert s.japanese_income(G, 4, 5).total == 6
    assert s.japanese_income(G, 1, 1).total == 1  # one airfield: nothing, rounded down


def test_9_1_amoy_pays_from_the_turn_after_its_capture():
    assert not s.amoy_pays(None, 5)
    assert not s.amoy_pays(3, 3) and s.amoy_pays(3, 4)


def test_7_2_lp_never_go_below_zero_and_the_cap_at_the_end_of_the_recruit_phase_ruling_f26():
    assert s.spend(5, 3, "an armor group") == 2
    with pytest.raises(IllegalOrder, match="Formosa 7.2: an armor group costs 3 LP and only 2"):
        s.spend(2, 3, "an armor group")
    assert s.cap(G, 26) == (20, 6) and s.cap(G, 20) == (20, 0)
    assert s.lose_lp(4, 6) == (0, 4)  # 18.0 a): the track stops at zero


def test_15_4_1_lp_shifts_two_only_for_the_attacking_allies_ruling_f22():
    assert s.lp_shift("allied", True, 2) == 2
    assert s.lp_shift("japanese", False, 1) == 1
    for side, attacking in (("japanese", True), ("allied", False)):
        with pytest.raises(IllegalOrder, match="15.4.1"):
            s.lp_shift(side, attacking, 2)


# --- 24.1, 24.2 set-up LP -----------------------------------------------------------------------------------

def test_24_1_japanese_roll_6_gives_21_and_set_up_cannot_end_until_one_is_spent_cf_13():
    lp = s.setup_lp(G, 1, "japanese", 6)
    assert lp == 21
    with pytest.raises(IllegalOrder, match="Formosa 24.1: the Japanese must spend at least 1 more LP"):
        s.end_setup(G, 1, "japanese", lp)
    assert s.end_setup(G, 1, "japanese", lp - 1) == (20, 0)


def test_24_1_allied_30_lp_unspent_lose_10_at_the_end_of_set_up_cf_14():
    lp = s.setup_lp(G, 1, "allied")
    assert lp == 30 and s.end_setup(G, 1, "allied", lp) == (20, 10)


def test_24_2_both_sides_spend_down_to_20_cf_15_ruling_f63():
    assert s.setup_lp(G, 2, "japanese", 1) == 21 and s.setup_lp(G, 2, "allied") == 40
    with pytest.raises(IllegalOrder, match="Formosa 24.2"):
        s.end_setup(G, 2, "japanese", 21)
    assert s.end_setup(G, 2, "allied", 40) == (20, 20)


def test_24_1_japanese_air_at_set_up_a_die_plus_three_tac_and_a_die_of_kamikaze():
    assert s.setup_air(G, 1, 2, 5) == (5, 5)


# --- 7.3, 8.0-8.4 recruiting ----------------------------------------------------------------------------------

def test_7_3_allied_prices_recruit_and_replace():
    cost = lambda item, **kw: s.recruit_cost(G, "allied", item, scenario=1, setup=False, **kw)  # noqa: E731
    assert (cost("us-hq-3ac"), cost("us-hq-3ac", replace=True)) == (4, 2)
    assert (cost("us-armor-1"), cost("us-rgr-2"), cost("us-1mar-1"), cost("us-eng-1")) == (3, 3, 2, 2)
    assert (cost("tac", points=3), cost("amphibious"), cost("drop-zone"), cost("b29"), cost("gunfire")) == (3, 3, 1,
                                                                                                           3, 3)
    with pytest.raises(IllegalOrder, match="Formosa 7.3: jp-10-10 is not an Allied unit"):
        cost("jp-10-10")  # each side spends on its own chart


def test_8_2_japanese_set_up_only_types_and_na_replacements_are_refused_later():
    cost = lambda item, **kw: s.recruit_cost(G, "japanese", item, scenario=1, **kw)  # noqa: E731
    assert cost("jp-10-10", setup=True) == 2 and cost("jp-armor-1", setup=True) == 3
    with pytest.raises(IllegalOrder, match="Formosa 8.2: jp-10-10 .* only be recruited during initial set-up"):
        cost("jp-10-10", setup=False)
    with pytest.raises(IllegalOrder, match="Formosa 8.2: jp-armor-1 .* cannot be replaced"):
        cost("jp-armor-1", setup=False, replace=True)
    assert cost("jp-guard-1", setup=False) == 1 and cost("jp-guerrilla-1", setup=False, replace=True) == 1
    assert cost("tac", setup=False, points=2) == 4 and cost("mobile-fleet", setup=True) == 4
    with pytest.raises(IllegalOrder, match="8.2"):
        cost("mobile-fleet", setup=False, replace=True)  # 8.4: never replaced


def test_ruling_f27_the_four_divisions_on_no_chart_row_are_never_recruited_or_replaced():
    with pytest.raises(IllegalOrder, match="ruling F27"):
        s.recruit_cost(G, "japanese", "jp-9-7", scenario=1, setup=False, replace=True)


def test_ruling_f62_kamikaze_half_an_lp_a_point_rounded_up_never_at_set_up():
    cost = lambda n: s.recruit_cost(G, "japanese", "kamikaze", scenario=1, setup=False, points=n)  # noqa: E731
    assert [cost(n) for n in (1, 2, 3, 4)] == [1, 1, 2, 2]
    with pytest.raises(IllegalOrder, match="Formosa 24.1: kamikaze"):
        s.recruit_cost(G, "japanese", "kamikaze", scenario=1, setup=True)


def test_24_1_24_2_scenario_restrictions_commonwealth_bans_sixth_marines_optional_units_ruling_f29_f34():
    with pytest.raises(IllegalOrder, match="Formosa 24.1: no Commonwealth"):
        s.recruit_cost(G, "allied", "cw-7-18", scenario=1, setup=False)
    assert s.recruit_cost(G, "allied", "cw-7-18", scenario=2, setup=False) == 2
    with pytest.raises(IllegalOrder, match="Formosa 24.2"):
        s.recruit_cost(G, "japanese", "jp-10-10", scenario=2, setup=True)
    with pytest.raises(IllegalOrder, match="Amoy"):
        s.recruit_cost(G, "allied", "us-6mar-4", scenario=1, setup=False)
    with pytest.raises(IllegalOrder, match="Formosa 25.5"):
        s.recruit_cost(G, "allied", "us-97-303", scenario=1, setup=False)
    with_97th = load({"optional": ["25.5", "25.10"]})
    assert s.recruit_cost(with_97th, "allied", "us-97-303", scenario=1, setup=False) == 2  # 25.5: as infantry
    assert s.recruit_cost(with_97th, "japanese", "jp-pw-camp", scenario=1, setup=True) == 0  # F30
    with pytest.raises(IllegalOrder, match="not an Allied unit"):
        s.recruit_cost(G, "allied", "jp-guard-1", scenario=1, setup=False)


def test_8_2_the_counter_mix_limits_air_points():
    assert s.air_point_limit(G, "allied", "tac", "us") >= 20  # Scenario 2 starts with 20 US points
    assert s.air_point_limit(G, "allied", "tac", "cw") >= 2
    assert s.air_point_limit(G, "japanese", "kamikaze") >= 6


# --- 9.1 Amoy ---------------------------------------------------------------------------------------------------

def test_9_1_gt_2_die_1_captures_die_2_does_not_gt_7_any_die_cf_d1():
    assert s.amoy_captured(G, 2, 1) and not s.amoy_captured(G, 2, 2)
    assert all(s.amoy_captured(G, 7, d) for d in range(1, 7))
    with pytest.raises(IllegalOrder, match="9.1"):
        s.amoy_captured(G, 1, 1)


# --- 16.0-16.4 air missions -------------------------------------------------------------------------------------

def test_16_0_a_two_point_tac_counter_flies_two_one_point_missions_cf_10():
    left = s.assign_air("allied", {"tac": 2}, {"air-superiority": 1, "tactical": 1})
    assert left == {"tac": 0}
    with pytest.raises(IllegalOrder, match="Formosa 16.1: 3 tac points assigned but only 2"):
        s.assign_air("allied", {"tac": 2}, {"air-superiority": 2, "interdiction": 1})


def test_16_1_each_side_its_own_missions_ruling_f8():
    assert s.assign_air("japanese", {"tac": 3, "kamikaze": 4}, {"tactical": 1, "kamikaze": 4}) == {"tac": 2,
                                                                                                 "kamikaze": 0}
    for side, mission in (("japanese", "interdiction"), ("allied", "kamikaze"), ("allied", "drop-zone")):
        with pytest.raises(IllegalOrder, match="16.1"):
            s.assign_air(side, {"tac": 3}, {mission: 1})


def test_16_3_16_4_points_per_hex_on_the_map():
    s.check_air_placement(G, "allied", "tactical", {H("1020"): 2}, 2)
    with pytest.raises(IllegalOrder, match="Formosa 16.3: the japanese player places 1 to 1"):
        s.check_air_placement(G, "japanese", "tactical", {H("1020"): 2}, 2)
    with pytest.raises(IllegalOrder, match="Formosa 16.4: only the Allied"):
        s.check_air_placement(G, "japanese", "interdiction", {H("1020"): 1}, 1)
    with pytest.raises(IllegalOrder, match="16.4: 3 points placed but 2"):
        s.check_air_placement(G, "allied", "interdiction", {H("1020"): 2, H("1019"): 1}, 2)


def test_16_4_interdiction_one_point_one_mp_two_points_two():
    assert s.interdiction_surcharge(G, {H("1113"): 1, H("1112"): 2}) == {H("1113"): 1.0, H("1112"): 2.0}


# --- 16.2 air superiority, 16.6 kamikaze ----------------------------------------------------------------------

def test_16_2_both_fire_from_the_points_committed_and_none_fires_on_the_zero_column():
    battle = s.air_superiority(G, 8, 0, 6, 6)
    assert battle.japanese_loses == G.air_combat(8, 6) == 3
    assert battle.allied_loses == G.air_combat(0, 6) == 1  # anti-aircraft fire


def test_16_2_a_loser_of_two_points_takes_them_from_air_superiority_ground_support_or_one_of_each_cf_11():
    pools = {"air-superiority": 3, "tactical": 2, "kamikaze": 4}
    for taken in ({"air-superiority": 2}, {"tactical": 2}, {"air-superiority": 1, "tactical": 1}):
        after = s.take_air_losses("japanese", 2, pools, taken)
        assert sum(after.values()) == 7 and after["kamikaze"] == 4
    with pytest.raises(IllegalOrder, match="not kamikaze"):
        s.take_air_losses("japanese", 2, pools, {"kamikaze": 2})
    with pytest.raises(IllegalOrder, match="exactly 2"):
        s.take_air_losses("japanese", 2, pools, {"tactical": 1})
    with pytest.raises(IllegalOrder, match="Formosa 16.2: 3 points cannot be taken from tactical, which holds 2"):
        s.take_air_losses("japanese", 2, pools, {"tactical": 3})
    with pytest.raises(IllegalOrder, match="cannot be taken from air-superiority, which holds 0$"):
        s.take_air_losses("allied", 1, {"interdiction": 1}, {"air-superiority": 1})
    assert s.take_air_losses("allied", 2, {"interdiction": 1, "tactical": 0}, {"interdiction": 1}) == {
        "interdiction": 0, "tactical": 0}  # only one point there: one lost


def test_16_6_kamikaze_rolls_every_turn_on_the_zero_column_when_none_attack_ruling_f5():
    assert s.kamikaze(G, 0, 6) == 1 and s.kamikaze(G, 0, 5) == 0
    assert s.kamikaze(G, 6, 4) == G.air_combat(6, 4)


def test_16_6_the_allies_split_the_kamikaze_result_between_markers_and_gunfire_ruling_f64():
    assert s.kamikaze_losses(3, 2, 4, 1, 2) == (1, 2)
    assert s.kamikaze_losses(3, 1, 0, 1, 0) == (1, 0)  # two hits find nothing to sink
    with pytest.raises(IllegalOrder, match="exactly 3"):
        s.kamikaze_losses(3, 2, 4, 0, 2)
    with pytest.raises(IllegalOrder, match="16.6"):
        s.kamikaze_losses(3, 2, 4, 3, 0)


# --- 18.0 the mobile fleet -----------------------------------------------------------------------------------

def test_18_0_sortie_results_by_scenario():
    assert s.fleet_sortie(G, 1, 4).result == "Indecisive Action" and s.fleet_sortie(G, 2, 4).result == "Fiasco"
    decisive = s.fleet_sortie(G, 1, 6)
    assert decisive.gunfire_withdrawn and decisive.allied_lp_die and decisive.amphibious_barred
    indecisive = s.fleet_sortie(G, 2, 5)
    assert indecisive.gunfire_withdrawn and not indecisive.allied_lp_die
    assert not s.fleet_sortie(G, 1, 1).gunfire_withdrawn


def test_18_0_once_per_game_if_recruited_never_on_gt_1():
    s.check_sortie(G, 2, recruited=True, used=False)
    for turn, recruited, used, why in ((1, True, False, "GT 1"), (3, True, True, "once per game"),
                                       (3, False, False, "not been recruited")):
        with pytest.raises(IllegalOrder, match=why):
            s.check_sortie(G, turn, recruited, used)


# --- 16.5 B-29 ---------------------------------------------------------------------------------------------------

def test_16_5_b29_terrain_column_or_fortified_ruling_f6():
    city = H("1020")  # Takao
    strike = s.b29_strike(G, city, 4, fortified=False)
    assert (strike.column, strike.code) == ("city", "DS")
    fortified = s.b29_strike(G, city, 4, fortified=True)
    assert (fortified.column, fortified.code) == ("fortified", "DS")
    assert s.b29_strike(G, city, 5, fortified=False).code == "D1"  # city column: a 5 destroys one
    assert s.b29_strike(G, city, 1, fortified=False).code == "-"


def test_16_5_b29_only_on_a_hex_with_japanese_units():
    s.check_b29(G, H("1020"), 1)
    with pytest.raises(IllegalOrder, match="Formosa 16.5"):
        s.check_b29(G, H("1020"), 0)
