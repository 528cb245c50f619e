"""Operation Causeway: Formosa 1944 data checked against every fact the rules text states, case by case, and the
worked examples of the seed catalog (CF-1 ... CF-15, CF-D1 ... CF-D4) that the data and the kernel alone compute.

Expected values come from the rules text (the case is in each test's name); the files under test are
app/rules/formosa/data/. Rulings (F1 ...) are docs/rulings/formosa.md. The rules engine is a later stage
(docs/formosa-engine-plan.md): what needs it is listed as waiting in docs/cases/formosa.md, not tested here.
"""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.rules import catalog
from app.rules.formosa import data
from app.rules.formosa.data_load import DataError, load
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, step_cost, validate_path
from app.rules.kernel.paths import trace
from app.rules.kernel.pieces import Piece
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import bloodbath
from app.rules.kernel.shifts import Shift
from app.rules.kernel.stacking import overstacked

ROOT = Path(__file__).resolve().parents[2]
H = Hex.parse
G = load()
M = G.map
MECH = Mover.single
NAMED = G.crt_raw["table"]["named"]


def column(attack, defence, shifts=(), nationality="us") -> str:
    return preview_attack(G.crt(nationality), attack, defence, shifts).column_label


def main_island() -> set[Hex]:
    return {h for h in G.land() if not M.has_tag(h, "pescadores")}


def sides_with(feature: str):
    """Every hexside of the map with ``feature``, as (a, b) with both hexes on the map."""
    return sorted((h, n) for h in M.hexes() for n in M.neighbours(h) if h < n and feature in M.hexside_features(h, n))


# --- 1.1, 2.0: scale, grid, counters --------------------------------------------------------------------------

def test_1_1_ten_mile_hexes_taiwan_is_about_240_miles_long_and_90_across():
    rows = {h.row for h in main_island()}
    assert 22 <= max(rows) - min(rows) + 1 <= 26  # 240 miles north to south, 10 miles a row
    widest = max(sum(1 for h in main_island() if h.row == r) for r in rows)
    assert 9 <= widest <= 12  # 90 miles across, 8.66 miles a column
    assert M.has_tag(H("0413"), "pescadores") and M.name_of(H("0413")) == "Mako"


def test_2_0_xxyy_labels_with_the_stated_parity_and_176_counters():
    assert M.grid.parity == "even-low"
    assert M.adjacent(H("1803"), H("1904")) and not M.adjacent(H("1803"), H("1902"))  # even columns sit lower
    assert len(G.units) + len(G.counters) == 176


# --- 4.1, 4.2: the objectives -------------------------------------------------------------------------------

def test_4_2_every_kind_of_objective_is_on_the_map_and_some_hexes_hold_several():
    for feature in ("major-port", "minor-port", "airfield", "industry"):
        assert M.hexes_with(feature), feature
    assert G.peaks()
    assert [str(h) for h in sorted(M.hexes_with("major-port"))] == ["1020", "2003"]  # Takao, Kiirun
    several = [h for h in M.hexes() if len(G.objectives(h)) > 1]
    assert H("1020") in several and G.objectives(H("1020")) == ("major-port", "industry")  # 4.2 Important


def test_4_1_sudden_death_hexes_are_every_port_and_airfield_all_on_land():
    hexes = G.sudden_death_hexes()
    assert hexes == M.hexes_with("airfield") | M.hexes_with("major-port") | M.hexes_with("minor-port")
    assert all(G.is_land(h) for h in hexes)
    assert len(hexes) == 19


def test_4_2_victory_levels_net_vp_cf_d4():
    assert G.victory_level(22) == "Allied Operational Victory"  # CF-D4: 30 - 8
    levels = {n: G.victory_level(n) for n in (25, 24, 19, 18, 13, 12, 7, 6, -3)}
    assert levels == {25: "Allied Strategic Victory", 24: "Allied Operational Victory",
                      19: "Allied Operational Victory", 18: "Draw", 13: "Draw",
                      12: "Japanese Operational Victory", 7: "Japanese Operational Victory",
                      6: "Japanese Strategic Victory", -3: "Japanese Strategic Victory"}
    vp = G.charts["victory"]
    assert (vp["major_port"], vp["minor_port"], vp["airfield"], vp["industry"], vp["peak"]) == (4, 2, 1, 1, 1)
    assert vp["japanese_per_eliminated"] == 1 and vp["sudden_death_from_turn"] == 2


# --- 10.1, 20.1, 22.0, 25.7, 25.10: what the map must offer -------------------------------------------------------

def test_10_1_amphibious_targets_open_coast_and_ports_each_with_a_sea_hex_beside():
    targets = G.open_coastal() | G.ports()
    assert len(G.open_coastal()) >= 10
    for h in targets:
        assert any(not G.is_land(n) for n in M.neighbours(h)), h
    assert all(G.is_coastal(p) for p in G.ports())


def test_10_1_drop_zones_open_hexes_and_airfields_whatever_their_terrain():
    assert M.hexes_of_terrain("open")
    assert {M.terrain_of(h) for h in G.airfields()} > {"open"}  # 10.1: "regardless of other terrain"


def test_20_1_a_port_and_an_airfield_may_share_a_hex():
    both = G.ports() & G.airfields()
    assert {M.name_of(h) for h in both} == {"Karenko", "Taito", "Mako", "Tainan"}


def test_22_0_rangers_have_rough_mountain_and_mud_flat_coasts_to_land_on():
    coastal = {M.terrain_of(h) for h in G.land() if G.is_coastal(h)}
    assert {"rough", "mountain", "mud-flats", "open"} <= coastal


def test_25_7_beach_hexes_are_coastal_land():
    beaches = M.hexes_with("beach")
    assert beaches and all(G.is_coastal(h) for h in beaches)
    assert beaches == G.open_coastal()  # ruling F12


def test_25_10_a_town_that_is_not_a_city_exists_for_the_pw_camp():
    assert M.towns() - M.cities()
    assert H("1716") in M.towns() and M.name_of(H("1716")) == "Tamazato"


def test_8_1_cities_towns_and_ports_for_japanese_deployment():
    assert len(M.cities()) == 10 and len(M.towns()) >= 15
    assert not M.cities() & M.towns()


# --- 12.x, 16.4, 19.0: movement and the TEC ---------------------------------------------------------------------

def test_12_1_unbridged_river_into_open_costs_1_plus_1_cf_1():
    a, b = next((a, b) for a, b in sides_with("river") if M.terrain_of(b) == "open" and not M.features_of(b)
                and not M.has_road(a, b) and not M.has_rail(a, b))
    for cls in ("mechanized", "non-mechanized"):
        assert step_cost(M, G.movement, MECH(a, 6, cls), a, b) == 2
    t = G.terrain
    assert t["terrain"]["open"]["mp"] == {"mechanized": 1, "non-mechanized": 1}
    assert t["hexsides"]["river"]["mp"] == {"mechanized": 1, "non-mechanized": 1}


def test_12_2_mechanized_units_enter_mountain_and_peak_only_along_a_road_or_railroad():
    start, mountain = H("1511"), H("1512")
    assert M.terrain_of(mountain) == "mountain" and not M.hexside_features(start, mountain)
    with pytest.raises(RuleViolation, match="12.2"):
        step_cost(M, G.movement, MECH(start, 8, "mechanized"), start, mountain)
    assert step_cost(M, G.movement, MECH(start, 8, "non-mechanized"), start, mountain) == 3
    # the Rinkai road runs through mountain hexes (2007, 2008): half an MP for armor along it
    assert M.terrain_of(H("2007")) == "mountain" and M.has_road(H("2006"), H("2007"))
    assert step_cost(M, G.movement, MECH(H("2006"), 8, "mechanized"), H("2006"), H("2007")) == 0.5
    assert G.terrain["terrain"]["peak"]["mp"]["mechanized"] == "road-only"


def test_12_3_every_unit_may_move_one_hex_whatever_the_cost():
    r = reach(M, G.movement, MECH(H("1511"), 1, "non-mechanized"))
    assert H("1512") in r and H("1513") not in r  # mountain, 3 MP, entered with 1; and no further
    rules = load().movement  # read inside the test: the refusal names the case the data gives it
    with pytest.raises(RuleViolation) as err:
        validate_path(M, rules, MECH(H("1511"), 1, "non-mechanized"), [H("1511"), H("1512"), H("1513")])
    assert err.value.case == "Formosa 12.3" and err.value.message.endswith("the minimum move allows that one hex only")


def test_12_4_road_and_rail_half_an_mp_whatever_the_hex_and_no_river_cost():
    a, b = H("1112"), H("1113")  # the western trunk line over the Dakusui-kei
    assert M.has_rail(a, b) and "bridged-river" in M.hexside_features(a, b)
    assert step_cost(M, G.movement, MECH(a, 6, "mechanized"), a, b) == 0.5
    assert G.terrain["road"] == {"case": "12.4", "status": "attested", "mp": 0.5, "negates_river": True,
                                 "contiguous": True}


def test_16_4_interdiction_adds_one_or_two_mp_even_along_a_road():
    a, b = H("1112"), H("1113")
    extra = G.terrain["interdiction"]["extra_mp"]
    assert extra == {"1": 1, "2": 2}
    for points, add in ((1, 1), (2, 2)):
        sit = Situation(surcharge={b: float(extra[str(points)])})
        assert step_cost(M, G.movement, MECH(a, 6, "non-mechanized"), a, b, sit) == 0.5 + add


def test_12_4_ruling_f13_every_road_or_rail_crossing_of_a_river_is_a_bridge():
    for a, b in sides_with("river"):
        assert not (M.has_road(a, b) or M.has_rail(a, b)), (a, b)
    for a, b in sides_with("bridged-river"):
        assert M.has_road(a, b) or M.has_rail(a, b), (a, b)
    assert len(sides_with("bridged-river")) >= 8


def test_19_0_mechanized_lines_of_supply_avoid_mountain_and_peak_except_along_roads():
    assert G.supply["mechanized"].road_only_terrain == {"mountain", "peak"}
    assert G.supply["non-mechanized"].road_only_terrain == frozenset()
    assert G.supply["mechanized"].ezoc_blocks and not G.supply["mechanized"].friendly_negates_ezoc  # 14.3
    path = trace(M, H("2006"), {H("1911")}, G.supply["mechanized"])  # Suo to Karenko along the Rinkai road
    assert path is not None and all(M.is_road_hex(h) or M.is_rail_hex(h) for h in path)


def test_19_0_no_supply_line_into_all_sea_hexes():
    assert trace(M, H("0413"), {H("0918")}, G.supply["non-mechanized"]) is None  # the Pescadores


# --- 15.4.1: terrain shifts -----------------------------------------------------------------------------------

def test_15_4_1_some_terrain_gives_japanese_and_allied_defenders_different_shifts():
    different = [t for t, e in G.terrain["terrain"].items() if "shift" in e
                 and e["shift"]["japanese"] != e["shift"]["allied"]]
    assert different
    assert G.hex_shift(H("1803"), "japanese") == 2 and G.hex_shift(H("1803"), "us") == 1  # Taihoku, a city


def test_15_4_1_only_the_most_beneficial_in_hex_terrain_applies():
    karenko = H("1911")  # a city in rough terrain
    assert M.terrain_of(karenko) == "rough" and M.is_city(karenko)
    assert G.hex_shift(karenko, "japanese") == 2  # the city's 2, not rough 1 + city 2


def test_15_4_1_hexside_shift_only_if_every_attacker_crosses_one_and_bridges_do_not_cancel_it():
    defender = H("1113")
    river_side = H("1112")  # bridged river 1112/1113 (the railroad crosses it)
    plain = next(n for n in M.neighbours(defender) if G.is_land(n) and not M.hexside_features(n, defender))
    assert G.hexside_shift(defender, [river_side], "japanese") == 1
    assert G.hexside_shift(defender, [river_side, plain], "japanese") == 0


# --- 15.2-15.6: the CRTs --------------------------------------------------------------------------------------

def test_15_2_two_percentage_tables_with_the_columns_the_text_names():
    tables = (("us", "Allied Attacking"), ("cw", "Allied Attacking"), ("japanese", "Japanese Attacking"))
    for nationality, name in tables:
        crt = G.crt(nationality)
        assert name in crt.name and crt.odds.method == "percentage" and crt.dice == (1, 2, 3, 4, 5, 6)
    labels = [c.label for c in G.crt("us").columns()]
    assert set(NAMED.values()) <= set(labels)
    assert labels[0] == "<=49%" and labels[-1] == ">=700%" and "50-99%" in labels and "600-699%" in labels


def test_15_3_one_against_five_reads_49_and_eight_against_one_reads_700_cf_2_cf_3():
    assert column(1, 5) == NAMED["<=49%"]
    assert column(8, 1) == NAMED[">=700%"]
    assert column(99, 200) == "<=49%"  # 49.5% rounds down (combat-kernel ruling)


def test_15_3_a_crt_file_may_round_the_percentage_up_instead(tmp_path, monkeypatch):
    text = data.CRT.read_text(encoding="utf-8")
    assert text.count('percent_rounding = "down"') == 1
    (tmp_path / "crt.toml").write_text(text.replace('percent_rounding = "down"', 'percent_rounding = "up"'))
    monkeypatch.setattr(data, "CRT", tmp_path / "crt.toml")
    assert preview_attack(load().crt("us"), 99, 200, ()).column_label == "50-99%"  # 49.5% rounds up to 50%
    assert column(99, 200) == "<=49%"  # the printed table rounds down


def test_15_4_400_percent_one_right_two_left_reads_300_cf_4():
    shifts = [Shift(1, "15.4.1", "air"), Shift(-2, "15.4.1", "terrain")]
    assert column(4, 1, shifts) == NAMED["300%"]
    assert column(4, 1) == NAMED["400%"]


def test_15_4_twenty_against_one_one_left_reads_600_699_cf_5():
    assert column(20, 1, [Shift(-1, "15.4.1", "terrain")]) == NAMED["600-699%"]


def test_15_5_two_us_5_5_against_a_japanese_3_6_bloodbath_cf_6():
    five_five = [u for u in G.units if u.nationality == "us" and u.label == "5-5"]
    three_six = [u for u in G.units if u.side == "japanese" and u.label == "3-6"]
    assert len(five_five) >= 2 and three_six
    attack, defence = 2 * five_five[0].cf, three_six[0].cf
    p = preview_attack(G.crt("us"), attack, defence)
    assert p.column_label == NAMED["300%"]
    assert "BB" in [r.code for _, r in p.results]
    gone, pays = bloodbath(attack, defence)
    assert gone == {"defender"} and pays == 3  # the 3-6 goes; the US pays 3 or more: one 5-5
    assert G.crt_raw["codes"]["BB"]["advance"] == 1  # the surviving 5-5 may advance one hex


def test_15_5_every_result_code_in_both_tables_and_what_each_does():
    for nationality in ("us", "japanese"):
        cells = {G.crt(nationality).lookup(c, d).code for c in range(9) for d in range(1, 7)}
        assert cells == {"A1", "AE", "AR", "B1", "BB", "CA", "D1", "DR", "DE"}
    codes = G.crt_raw["codes"]
    assert codes["A1"]["attacker"] == "one" and codes["AE"]["attacker"] == "all"
    assert codes["AR"]["attacker"] == "retreat" and codes["DR"]["defender"] == "retreat"
    assert codes["B1"]["attacker"] == codes["B1"]["defender"] == "one"
    assert codes["D1"]["defender"] == "one" and codes["DE"]["defender"] == "all" and codes["DE"]["advance"] == 2
    assert codes["CA"]["ends_if_defender"] == ["coastal-defense", "heavy-weapons"]


def test_ruling_f3_no_column_or_die_is_worse_for_the_attacker_than_the_one_before():
    rank = {c: v["rank"] for c, v in G.crt_raw["codes"].items()}
    for side in ("allied", "japanese"):
        grid = [[rank[c] for c in G.crt_raw[side][str(d)]] for d in range(1, 7)]
        for d in range(6):
            assert grid[d] == sorted(grid[d]), (side, d + 1)
        for c in range(9):
            assert [grid[d][c] for d in range(6)] == sorted(grid[d][c] for d in range(6)), (side, c)


def test_15_6_a_counterattack_reads_50_99_or_higher_cf_7():
    shift = Shift(G.crt_raw["counterattack"]["shift"], "15.6", "counterattack")
    for nationality in ("us", "japanese"):
        assert column(1, 9, [shift], nationality) == "50-99%"
        assert column(1, 9, [shift, Shift(-3, "15.6", "ignored")], nationality) == "<=49%"  # why 15.6 allows no other


# --- 16.x: air tables, air points ----------------------------------------------------------------------------

def test_16_2_air_combat_table_has_a_zero_column_and_losses_in_air_points():
    table = G.air["air_combat"]
    assert table["columns"][0] == "0"
    for die in range(1, 7):
        assert isinstance(G.air_combat(0, die), int)
        losses = [G.air_combat(p, die) for p in range(0, 25)]
        assert losses == sorted(losses)
    assert G.air_combat(0, 6) == 1 and G.air_combat(0, 1) == 0  # anti-aircraft fire


def test_16_5_b29_table_terrain_columns_and_fortified_with_d1_and_ds():
    b29 = G.air["b29"]
    assert b29["columns"][-1] == "fortified" and b29["fortified_when"] == ["coastal-defense", "heavy-weapons"]
    assert {G.b29(c, d) for c in b29["columns"] for d in range(1, 7)} == {"-", "DS", "D1"}
    assert G.b29_column(H("1020"), fortified=True) == "fortified"
    assert G.b29_column(H("1020"), fortified=False) == "city"
    assert G.b29_column(H("1510"), fortified=False) == "mountain"


def test_16_0_tac_counters_are_one_or_two_points_and_can_be_changed_cf_10():
    tac = [c for c in G.counters if c.kind in ("tac", "kamikaze")]
    assert tac and all({c.front, c.back} == {1, 2} for c in tac)


def test_24_1_24_2_the_counters_hold_every_air_and_naval_force_the_scenarios_give():
    def points(side, kind, nationality=None):
        return sum(c.front for c in G.counters if c.side == side and c.kind == kind
                   and nationality in (None, c.nationality))
    assert points("allied", "tac", "us") >= 20 and points("allied", "tac", "cw") >= 2
    assert points("japanese", "tac") >= 9 and points("japanese", "kamikaze") >= 6
    gunfire = Counter(c.nationality for c in G.counters if c.table == "naval")
    assert gunfire["us"] >= 4 and gunfire["cw"] >= 1
    kinds = Counter(c.kind for c in G.counters)
    assert kinds["b29"] == kinds["air-supply"] == kinds["mobile-fleet"] == kinds["amoy-control"] == kinds["turn"] == 1
    assert kinds["amphibious"] >= 1 and kinds["drop-zone"] >= 1 and kinds["lp"] == 2


# --- 7.2, 7.3, 8.2, 9.1, 18.0, 20.1: the printed charts ---------------------------------------------------------

def test_7_3_japanese_lp_expenditure_chart_as_printed():
    rows = [(r["recruit"], r["replace"], bool(r.get("setup_only"))) for r in G.charts["japanese_lp"]]
    assert rows == [(3, "n/a", True), (2, "n/a", True), (1, 1, False), (0, "n/a", False), (2, 2, False),
                    (0.5, "n/a", False), (4, "n/a", False), ("optional rules", "n/a", False)]
    assert G.charts["japanese_other"] == {"ground_attack_shift": 1, "ground_defense_shift": 1}
    assert G.lp_cost("japanese", "guerrilla", replace=True) == 1 and G.setup_only("japanese", "engineer")


def test_7_3_allied_lp_expenditure_chart_as_printed():
    rows = [(r["recruit"], r["replace"]) for r in G.charts["allied_lp"]]
    assert rows == [(4, 2), (3, 2), (2, 1), (3, 3), (2, 2), (1, 1), (3, 3), (1, 1)]
    other = G.charts["allied_other"]
    assert (other["base_port"], other["base_airfield"], other["base_port_and_airfield"]) == (3, 1, 4)  # 20.1
    assert other["ground_attack_shift"] == [1, 2] and other["ground_defense_shift"] == 1
    assert G.lp_cost("allied", "amphibious") == 3 and G.lp_cost("allied", "drop-zone") == 1


def test_8_2_every_unit_is_on_its_sides_chart_and_the_named_divisions_cannot_be_replaced():
    for u in G.units:
        cost = G.lp_cost(u.side, u.lp_type, replace=True)
        assert cost == "n/a" or isinstance(cost, int), u.id
    assert G.lp_cost("japanese", G.unit("jp-9-7").lp_type, replace=True) == "n/a"  # ruling F27
    assert G.setup_only("japanese", G.unit("jp-10-10").lp_type)  # 10th Division: first-line infantry


def test_7_2_lp_income_cf_d2_and_cf_d3():
    inc = G.charts["income"]
    allied = inc["allied_base"]["1"] + inc["allied_amoy"] + 1 * inc["allied_major_port"] \
        + 2 * inc["allied_minor_port"] + 3 // inc["allied_per_airfields"]
    assert allied == 16  # CF-D2
    assert 4 + 5 // inc["japanese_per_airfields"] == 6  # CF-D3
    assert (inc["cap"], inc["floor"], inc["first_turn"], inc["allied_base"]["2"]) == (20, 0, 2, 10)


def test_9_1_amoy_falls_when_the_die_is_below_the_turn_cf_d1():
    amoy = G.charts["amoy"]
    assert amoy["first_turn"] == 2 and amoy["captured_when"] == "die < turn"
    captured = {(turn, die): die < turn for turn, die in ((2, 1), (2, 2), (7, 6))}
    assert captured == {(2, 1): True, (2, 2): False, (7, 6): True}


def test_18_0_mobile_fleet_sortie_table_as_printed():
    scenario_1 = ["Fiasco"] * 3 + ["Indecisive Action"] * 2 + ["Decisive Battle"]
    assert [G.mobile_fleet(1, d) for d in range(1, 7)] == scenario_1
    assert [G.mobile_fleet(2, d) for d in range(1, 7)] == ["Fiasco"] * 4 + ["Indecisive Action", "Decisive Battle"]
    assert G.charts["mobile_fleet"]["not_on_turn"] == 1


def test_25_0_optional_rule_die_tables_as_printed():
    opt = G.charts["optional"]
    assert opt["marine_brigade"]["die"] == ["eliminated"] * 2 + ["turned back"] + ["lands"] * 3
    assert opt["raiders"]["die"] == opt["marine_brigade"]["die"]
    assert opt["raiders"]["allied_airfield"] == [0, 0, 1, 1, 2, 2]
    assert (opt["battlefield_lp"]["allied_eliminates"], opt["battlefield_lp"]["japanese_eliminates"]) == (9, 6)
    assert opt["division_97"]["allied_vp"] == -5
    assert (opt["pw_camp"]["allied_vp_taken"], opt["pw_camp"]["japanese_vp_on_map"]) == (5, 3)
    assert opt["pw_camp"]["b29_mixed_hex"] == ["camp"] * 3 + ["unit"] * 3


# --- 13.x: stacking -------------------------------------------------------------------------------------------

def _ground(i, side, nationality, static=False):
    return Piece(f"{side}{i}", side, kind="unit", nationality=nationality, tags={"static" if static else "mobile"})


def test_13_1_allied_four_mobile_and_one_static_us_and_cw_apart():
    four = [_ground(i, "allied", "us") for i in range(4)] + [_ground(9, "allied", "us", static=True)]
    assert not overstacked(four, G.stacking)
    assert overstacked(four + [_ground(5, "allied", "us")], G.stacking)
    mixed = [_ground(1, "allied", "us"), _ground(2, "allied", "cw")]
    assert any("5.1" in v.case for v in overstacked(mixed, G.stacking))
    air = [Piece("b29", "allied", kind="b29", category="air", nationality="us"),
           Piece("supply", "allied", kind="air-supply", category="air", nationality="us")]
    assert overstacked(air, G.stacking)  # the B-29 stacks with no other air unit


def test_13_2_japanese_three_mobile_and_one_static():
    three = [_ground(i, "japanese", "japanese") for i in range(3)] + [_ground(9, "japanese", "japanese", True)]
    assert not overstacked(three, G.stacking)
    assert overstacked(three + [_ground(4, "japanese", "japanese")], G.stacking)
    assert G.charts["stacking"]["japanese"]["tac_points"] == 1 and G.charts["stacking"]["allied"]["tac_points"] == 2


# --- 2.4, 11.1, 15.4.1: the counter mix -------------------------------------------------------------------------

def test_2_4_mechanized_non_mechanized_and_static_types():
    mobility = {u.type: u.mobility for u in G.units}
    assert {t for t, m in mobility.items() if m == "mechanized"} == {"armor", "artillery", "hq"}
    assert {t for t, m in mobility.items() if m == "static"} == {"coastal-defense", "heavy-weapons", "pw-camp"}
    engineers = [u for u in G.units if u.type == "engineer" and u.side == "allied"]
    assert engineers and all(u.base_cf is not None for u in engineers)  # 20.0: the base on the back
    assert all(u.base_cf is None for u in G.units if u.side == "japanese")


def test_11_1_every_japanese_unit_has_one_concealed_movement_factor_and_four_deception_units():
    assert {u.concealed_mf for u in G.units if u.side == "japanese"} == {7}
    deception = G.of_type("japanese", "deception")
    assert len(deception) == 4 and sum(u.immobile for u in deception) == 2  # ruling F21


def test_15_4_1_attack_and_defense_bonus_indicators_exist():
    assert {u.indicator for u in G.units} == {"", "A", "D"}
    assert all(u.indicator == "D" for u in G.units if u.type in ("coastal-defense", "heavy-weapons"))


def test_25_0_optional_units_belong_to_their_rules():
    opt = {u.optional for u in G.units if u.optional}
    assert opt == {"25.5", "25.7", "25.8", "25.9", "25.10"}
    assert len([u for u in G.units if u.optional == "25.5"]) == 3 and G.unit("us-97-386").type == "infantry"


# --- 24.1, 24.2: the scenarios ---------------------------------------------------------------------------------

def _counts(groups):
    return [(g.get("choose", len(g["units"])), Counter(G.unit(i).type for i in g["units"])) for g in groups]


def test_24_1_japanese_order_of_battle():
    groups = G.setup_groups(1, "japanese")
    regiments = groups[0]["units"]
    divisions = {"9th Division", "12th Division", "50th Division", "66th Division"}
    assert {G.unit(i).division for i in regiments} == divisions
    assert len(regiments) == 12
    wanted = [(12, "infantry"), (5, "infantry"), (2, "coastal-defense"), (5, "heavy-weapons"), (2, "engineer"),
              (4, "deception")]
    assert [(n, next(iter(c))) for n, c in _counts(groups)] == wanted
    assert all(g["area"] == "formosa" for g in groups)
    assert {G.unit(i).lp_type for i in groups[1]["units"]} == {"first-line-infantry"}  # separate brigades


def test_24_1_allied_order_of_battle():
    groups = G.setup_groups(1, "allied")
    first = [G.unit(i) for i in groups[0]["units"]]
    assert {u.division for u in first if u.size == "regiment"} == {
        "1st Marine Division", "2nd Marine Division", "7th Infantry Division", "27th Infantry Division",
        "81st Infantry Division", "96th Infantry Division"}
    assert len([u for u in first if u.size == "regiment"]) == 18
    assert {u.id for u in first if u.type == "hq"} == {"us-hq-3ac", "us-hq-24"}
    assert [(n, next(iter(c))) for n, c in _counts(groups[1:])] == [(2, "armor"), (3, "artillery"), (7, "engineer")]
    assert all(g["area"] == "allied-staging" for g in groups)


def test_24_1_forces_lp_and_special_rules_cf_13_cf_14():
    s = G.scenario(1)
    assert (s["turns"], s["allied_setup_lp"], s["allied_tac"], s["allied_gunfire"]) == (13, 30, {"us": 15}, {"us": 4})
    assert s["japanese_setup_lp"] == {"dice": "1d6", "add": 15} and s["lp_kept_after_setup"] == 20
    assert 6 + s["japanese_setup_lp"]["add"] - s["lp_kept_after_setup"] == 1  # CF-13: a 6 gives 21, spend 1
    assert s["allied_setup_lp"] - s["lp_kept_after_setup"] == 10  # CF-14
    assert s["japanese_tac"] == {"dice": "1d6", "add": 3} and s["japanese_kamikaze"] == {"dice": "1d6", "add": 0}
    assert not s["kamikaze_recruit_at_setup"] and not s["commonwealth"] and s["recon_stacks"] == "1d6"
    assert s["first_turn_skips"] == ["logistics", "recruit", "amoy"] and s["no_fleet_sortie_on_turn"] == 1
    assert {G.unit(i).division for i in s["special"]["after_amoy"]} == {"6th Marine Division"}
    assert s["special"]["after_amoy_box"] == "amoy"
    assert {G.unit(i).optional for i in s["special"]["optional_25_5"]} == {"25.5"}


def test_24_2_scenario_2_as_scenario_1_with_its_changes_cf_15():
    one, two = G.scenario(1), G.scenario(2)
    assert two["turns"] == 8 and two["allied_base_lp"] == 10 and two["commonwealth"]
    assert two["japanese_setup_lp"] == {"dice": "1d6", "add": 20} and two["allied_setup_lp"] == 40
    assert two["allied_tac"] == {"us": 20, "cw": 2} and two["allied_gunfire"] == {"us": 4, "cw": 1}
    assert {G.unit(i).division for i in two["banned"]} == {"10th Division", "23rd Division"}
    assert two["japanese"] == one["japanese"] and two["allied"] == one["allied"]
    assert 1 + two["japanese_setup_lp"]["add"] > two["lp_kept_after_setup"]  # CF-15: always spend down


def test_ruling_f32_the_default_japanese_deployment_is_a_legal_set_up():
    placed = G.deployment
    at_start = [i for g in G.setup_groups(1, "japanese") for i in g["units"]]
    assert set(placed) <= set(at_start) and len(placed) == 12 + 5 + 2 + 5 + 2 + 4
    assert all(G.is_land(h) for h in placed.values())


# --- displays ------------------------------------------------------------------------------------------------

def test_8_1_16_1_every_display_the_rules_use_is_on_the_map():
    boxes = {b.name for b in M.boxes.values()}
    for needed in ("Allied Staging Area", "Amoy Display", "Allied Available Air & Naval Display",
                   "Allied Air Superiority Display", "Japanese Air Superiority Display", "Allied Tactical Display",
                   "Allied B-29 Display", "Japanese Kamikaze (Tokku) Display", "Allied Reinforcements Display",
                   "Japanese Reinforcements Display", "Allied Replacements Display", "Japanese Replacements Display",
                   "Allied Eliminated Units Display", "Japanese Eliminated Units Display",
                   "Allied Amphibious & Airborne Invasion Markers Display"):
        assert needed in boxes
    assert G.tracks["turn"]["range"] == [1, 13] and G.tracks["allied-lp"]["range"][1] >= 40


def test_11_0_players_cannot_examine_units_in_the_enemys_off_map_displays():
    hidden = {k for k, v in G.displays.items() if v["hidden"]}
    assert {"allied-staging", "amoy", "japanese-reinforcements", "tokku"} <= hidden
    assert not G.displays["allied-eliminated"]["hidden"]  # 4.2: the Japanese score from it


# --- the loader -----------------------------------------------------------------------------------------------

def test_the_loader_refuses_files_that_contradict_each_other_with_every_problem():
    text = data.MAP.read_text(encoding="utf-8")
    inland_port = text.replace('minor-port = ["0413"', 'minor-port = ["1510", "0413"', 1)
    with pytest.raises(DataError) as err:
        load({"map": inland_port})
    assert any("port 1510 is not coastal" in p for p in err.value.problems)
    with pytest.raises(DataError, match="unknown optional rule"):
        load({"optional": ["25.11"]})
    with pytest.raises(DataError, match="unknown option"):
        load({"seed": "x"})  # a position is an option now (position.py)
    assert load({"optional": ["25.1", "25.10"]}).optional == {"25.1", "25.10"}


def test_24_2_a_scenarios_file_giving_no_us_tac_points_starts_the_allies_with_none(tmp_path, monkeypatch):
    from app.rules.formosa.position import printed

    text = data.SCENARIOS.read_text(encoding="utf-8")
    assert text.count("allied_tac = {us = 20, cw = 2}") == 1  # scenario 2
    (tmp_path / "scenarios.toml").write_text(text.replace("allied_tac = {us = 20, cw = 2}", "allied_tac = {cw = 2}"))
    monkeypatch.setattr(data, "SCENARIOS", tmp_path / "scenarios.toml")
    assert printed(load(), "2").air == {"allied-tac": 0, "cw-tac": 2}


def test_24_2_a_scenarios_file_that_bans_no_unit_may_leave_the_list_out(tmp_path, monkeypatch):
    from app.rules.formosa import strategic

    text = data.SCENARIOS.read_text(encoding="utf-8")
    assert text.count("\nbanned = []\n") == 1  # scenario 1
    (tmp_path / "scenarios.toml").write_text(text.replace("\nbanned = []\n", "\n"))
    monkeypatch.setattr(data, "SCENARIOS", tmp_path / "scenarios.toml")
    game = load()  # jp-10-10: banned in Scenario 2 only
    assert strategic.recruit_cost(game, "japanese", "jp-10-10", scenario=1, setup=True, replace=False) == 2


def test_11_1_a_units_file_with_a_japanese_unit_without_a_concealed_movement_factor_is_refused(tmp_path,
                                                                                               monkeypatch):
    guard = 'id = "jp-guard-1"\nside = "japanese"\nnationality = "japanese"\nname = "Guard Unit 1"\n' \
            'type = "guard"\nlp_type = "guard"\ncf = 2\nmf = 4\nconcealed_mf = 7\n'
    text = data.UNITS.read_text(encoding="utf-8")
    assert guard in text
    (tmp_path / "units.toml").write_text(text.replace(guard, guard.replace("concealed_mf = 7\n", "")))
    monkeypatch.setattr(data, "UNITS", tmp_path / "units.toml")
    with pytest.raises(DataError) as err:
        load()
    assert err.value.problems == ["units.toml jp-guard-1: a Japanese unit has a concealed side (11.1)"]


def test_8_1_a_default_deployment_with_a_coastal_defense_unit_away_from_a_port_is_refused(tmp_path, monkeypatch):
    text = data.SCENARIOS.read_text(encoding="utf-8")
    assert '"jp-cd-1" = "2003"' in text
    (tmp_path / "scenarios.toml").write_text(text.replace('"jp-cd-1" = "2003"', '"jp-cd-1" = "1510"'))
    monkeypatch.setattr(data, "SCENARIOS", tmp_path / "scenarios.toml")
    with pytest.raises(DataError) as err:
        load()
    assert err.value.problems == ["deployment: coastal defense jp-cd-1 in 1510, not a port (8.1)"]


def test_a_data_only_package_is_not_offered_to_players_and_formosa_with_its_engine_is(tmp_path):
    data_only = tmp_path / "waiting"
    data_only.mkdir()
    (data_only / "__init__.py").write_text('"""A game\'s data waiting for its engine."""\n', encoding="utf-8")
    assert not catalog._declares_game(data_only)
    assert catalog._declares_game(ROOT / "app" / "rules" / "formosa")
    out = subprocess.run([sys.executable, "cli.py", "rules"], cwd=ROOT, capture_output=True, text=True)
    assert "formosa" in out.stdout
