"""Ichi-Go data files checked against every fact the rules text states.

The expected values are hard-coded from the Ichi-Go rules (case cited in each test): the text is the source
of truth, the data files are the reconstruction under test. Rulings are docs/rulings/ichigo.md (R1...).
"""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from app.rules.ichigo import data
from app.rules.kernel.crt import CRT as KernelCRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import load_map

H = Hex.parse


def _load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


GMAP = load_map(data.MAP)
RAW_MAP = _load(data.MAP)
TEC = _load(data.TERRAIN)
CRT = _load(data.CRT)
OOB = _load(data.UNITS)
SCN = _load(data.SCENARIO)
UNITS = OOB["unit"]
BY_ID = {u["id"]: u for u in UNITS}


def tagged(tag):
    return {str(h) for h in GMAP.hexes_tagged(tag)}


def feat(feature):
    return {str(h) for h in GMAP.hexes_with(feature)}


GEARR = [str(h) for h in GMAP.railroads[0].path]


# ============================================================================================== loading

def test_every_file_parses_and_the_map_loads_with_the_kernel_loader():
    assert GMAP.grid.parity == "even-low"  # seed catalog 0.2 (Ichi-Go 11.15 example)
    for d in (TEC, CRT, OOB, SCN):
        assert d


def test_files_say_they_are_reconstructed():
    assert RAW_MAP["map"]["status"] == "reconstructed"
    assert CRT["status"] == "reconstructed"
    for path in (data.MAP, data.CRT, data.UNITS, data.TERRAIN):
        assert "RECONSTRUCTED" in path.read_text(encoding="utf-8")[:600]


# ================================================================================================ map

def test_north_edge_is_1401_to_3601():
    # Ichi-Go 1.3
    assert tagged_edge("north") == {f"{c:02d}01" for c in range(14, 37)}


def tagged_edge(edge):
    return {str(h) for h in GMAP.edge_hexes(edge)}


def test_0925_is_on_the_south_edge_and_a_supply_source():
    # Ichi-Go 7.1, 9.1
    assert "0925" in tagged_edge("south")
    assert "0925" in tagged("supply-source")


def test_kaifeng_is_1901_on_the_north_edge_a_supply_source_and_a_japanese_city():
    # Ichi-Go 7.1 exception ("hex 1091"), ruling R1
    assert GMAP.name_of(H("1901")) == "Kaifeng"
    assert "1901" in tagged_edge("north")
    assert "1901" in tagged("supply-source") and "1901" in tagged("jp-city")
    assert GMAP.is_city(H("1901"))


@pytest.mark.parametrize(
    ("hexx", "name", "case"),
    [("0712", "Chungking", "Ichi-Go 4.1"), ("0119", "Kunming", "Ichi-Go 4.1"), ("2008", "Wuhan", "Ichi-Go 4.3"),
     ("3106", "Shanghai", "Ichi-Go 2.1"), ("3221", "Takao-Tainan", "Ichi-Go 5.3 item 4"),
     ("1422", "Wuzhow", "Ichi-Go 3.3"), ("1615", "Shaoyeng", "Ichi-Go 3.3"), ("2217", "Ganzhow", "Ichi-Go 3.3"),
     ("1901", "Kaifeng", "Ichi-Go 7.1")],
)
def test_named_cities(hexx, name, case):
    assert GMAP.name_of(H(hexx)) == name, case
    assert GMAP.is_city(H(hexx)), case


def test_chungking_is_the_capital_and_chinese():
    # Ichi-Go 4.1
    assert tagged("capital") == {"0712"}
    assert "0712" in tagged("cn-city") and "0119" in tagged("cn-city")


def test_wuhan_and_shanghai_are_initially_japanese():
    # Ichi-Go 4.5: the Allies win by taking both, so both start Japanese
    assert {"2008", "3106"} <= tagged("jp-city")


def test_blue_dot_cities_without_diamonds():
    # Ichi-Go 3.3: Wuzhow, Shaoyeng, Ganzhow are initially Chinese cities with no diamond
    for h in ("1422", "1615", "2217"):
        assert h in tagged("cn-city")
        assert h not in tagged("setup-1") | tagged("setup-2")


def test_setup_diamonds_1904_two_and_2004_one():
    # Ichi-Go 3.3
    assert "1904" in tagged("setup-2") and "2004" in tagged("setup-1")
    assert not tagged("setup-1") & tagged("setup-2")


def test_city_colours_are_exclusive_and_cover_every_city():
    # Ichi-Go 3.5, 11.29: each city starts either Japanese (red square) or Chinese (blue dot)
    assert not tagged("jp-city") & tagged("cn-city")
    assert tagged("jp-city") | tagged("cn-city") == {str(h) for h in GMAP.cities()}


def test_gearr_runs_contiguously_from_1801_to_0925():
    # Ichi-Go 3.5 (the loader also refuses a non-contiguous path)
    assert GEARR[0] == "1801" and GEARR[-1] == "0925"
    assert len(GMAP.railroads) == 1 and GMAP.railroads[0].name == "GEARR"  # 10.12: the only railroad
    for a, b in zip(GEARR, GEARR[1:], strict=False):
        assert GMAP.adjacent(H(a), H(b)), (a, b)
    assert len(set(GEARR)) == len(GEARR)
    assert tagged("gearr") == set(GEARR)
    for h in GEARR:
        assert GMAP.terrain_of(H(h)) not in ("lake", "sea")


def test_japanese_gearr_at_start_is_1906_through_1812_and_0925():
    # Ichi-Go 3.5
    i, j = GEARR.index("1906"), GEARR.index("1812")
    assert i < j
    assert tagged("jp-gearr-start") == set(GEARR[i : j + 1]) | {"0925"}
    assert "1801" not in tagged("jp-gearr-start")
    assert "1906" in GEARR and "2008" in GEARR[i : j + 1]


def test_eight_usaaf_airbases_on_cities_or_the_gearr():
    # Ichi-Go 8.7 (eight); control is only tracked in cities and on the GEARR (3.5), ruling R5
    bases = feat("airbase")
    assert len(bases) == 8
    for h in bases:
        assert GMAP.is_city(H(h)) or h in GEARR
        assert h in tagged("cn-city")  # Allied-held at start: the 8.7 count starts at eight


def test_militia_cities_and_yrd_at_1309():
    # Ichi-Go 3.2 (YRD 1309), 2.7 (GM, HM, JM, YM), ruling R4
    assert "1309" in tagged("militia-setup")
    for h, name in (("1418", "Guilin"), ("1715", "Hengyang"), ("2114", "Jian"), ("1408", "Yichang")):
        assert GMAP.name_of(H(h)) == name and h in tagged("militia-setup") and h in tagged("cn-city")


def test_adjacencies_the_rules_use():
    # Ichi-Go 11.2 (2611 next to 2610 and 2711), 11.25 (1902 next to 1903)
    assert GMAP.adjacent(H("2611"), H("2610")) and GMAP.adjacent(H("2611"), H("2711"))
    assert GMAP.adjacent(H("1902"), H("1903"))
    for h in ("2611", "2610", "2711", "1902", "1903"):
        assert GMAP.terrain_of(H(h)) not in ("lake", "sea")


def test_1701_has_only_1601_1702_1801_on_the_map():
    # Ichi-Go 11.15 edge example
    assert {str(h) for h in GMAP.neighbours(H("1701"))} == {"1601", "1702", "1801"}


def test_takao_tainan_is_a_formosan_port_and_formosa_holds_the_garrison():
    # Ichi-Go 5.3 items 4, 5, 8; 9.9
    formosa = tagged("formosa")
    assert "3221" in formosa and "3221" in feat("port") and tagged("beachhead-formosa") == {"3221"}
    assert len(formosa - {"3221"}) >= 4
    assert (formosa & tagged("coastal")) - {"3221"}
    assert {h for h in tagged("jp-city") if h in formosa}  # 11.29: initial Japanese cities on Formosa


def test_ports_are_exactly_the_coastal_cities():
    # Ichi-Go 5.2: a port city is any city on a coastal hex
    assert feat("port") == {str(h) for h in GMAP.cities()} & tagged("coastal")
    for h in tagged("coastal"):
        assert any(GMAP.terrain_of(n) == "sea" for n in GMAP.neighbours(H(h)))


def test_mainland_port_cities_south_of_2817_exist():
    # Ichi-Go 5.3 item 12; ruling R10 (south = row number above 17)
    south = [h for h in feat("port") if int(h[2:]) > 17 and h not in tagged("formosa")]
    assert south


def test_chinese_ports_exist_for_the_causeway_drm():
    # Ichi-Go 5.2: +1 per Chinese mainland port city
    assert [h for h in feat("port") if h in tagged("cn-city")]


def test_shanghai_is_a_port_and_city_hexes_are_clear():
    # Ichi-Go 10.7: city hexes are otherwise clear
    assert "3106" in feat("port")
    for h in GMAP.cities():
        assert GMAP.terrain_of(h) == "clear"


def test_lakes_rivers_mountains_and_rough_exist():
    # Ichi-Go 10.6, 10.10
    for t in ("rough", "mountain", "lake", "sea"):
        assert GMAP.hexes_of_terrain(t), t
    assert GMAP.hexsides_with("river") and GMAP.hexsides_with("lake")
    assert GMAP.terrain_of(H("1711")) == "lake"  # Dongting
    assert GMAP.terrain_of(H("2310")) == "lake"  # Poyang


def test_set_up_hexes_are_on_land():
    unit_hexes = {u["setup"] for u in UNITS if "setup" in u}
    for h in tagged("setup-1") | tagged("setup-2") | tagged("militia-setup") | unit_hexes:
        assert GMAP.terrain_of(H(h)) not in ("lake", "sea"), h


# ========================================================================================== terrain

@pytest.mark.parametrize(
    ("terrain", "mp", "shift", "case"),
    [("clear", 1, 0, "Ichi-Go 10.7, 11.10"), ("rough", 1, 1, "Ichi-Go 10.7, 11.11"),
     ("mountain", 2, 2, "Ichi-Go 10.8, 11.12")],
)
def test_natural_terrain(terrain, mp, shift, case):
    assert TEC["terrain"][terrain]["mp"] == mp, case
    assert TEC["terrain"][terrain]["shift_left"] == shift, case


def test_prohibited_water():
    # Ichi-Go 10.10, 11.13
    assert TEC["terrain"]["lake"]["mp"] == TEC["terrain"]["sea"]["mp"] == "prohibited"
    assert TEC["hexsides"]["lake"]["attack"] == "prohibited"
    assert TEC["hexsides"]["lake"]["mp_extra"] == "prohibited"


def test_river_city_and_railroad():
    # Ichi-Go 10.9, 10.12, 11.13, 11.14
    r = TEC["hexsides"]["river"]
    assert (r["mp_extra"], r["attack_factor"], r["rounding"], r["railroad_negates"]) == (1, "1/2", "up", False)
    c = TEC["features"]["city"]
    assert (c["mp"], c["shift_left"], c["denies_concentric"]) == (1, 1, True)
    assert TEC["features"]["railroad"]["movement_bonus"] is False


def test_river_into_mountain_costs_3_mp():
    # Ichi-Go 10.13 example
    cost = TEC["terrain"]["mountain"]["mp"] + TEC["hexsides"]["river"]["mp_extra"]
    assert cost == 3 == TEC["examples"][0]["mp"]


def test_enemy_airpower_costs():
    # Ichi-Go 8.4
    assert TEC["airpower_movement"]["mp_extra_per_hex"] == 1
    assert TEC["airpower_movement"]["mp_extra_per_river"] == 1


# ============================================================================================== CRT

KCRT = KernelCRT.from_dict(CRT)
LINES = ("japanese", "chinese", "us")


def _pair(cell):
    if cell == "DE":
        return 0, 99
    a, d = cell.split("/")
    return int(a), int(d)


def test_crt_loads_with_the_kernel_and_has_three_lines_of_14_columns():
    # Ichi-Go 11.8: <=1:5 .. >=10:1; one line per attacker
    for line in LINES:
        cols = CRT["lines"][line]["columns"]
        assert cols[0] == "≤1:5" and cols[-1] == "≥10:1" and len(cols) == 14
        assert sorted(CRT["lines"][line]["results"]) == ["1", "2", "3", "4", "5", "6"]
        assert all(len(r) == 14 for r in CRT["lines"][line]["results"].values())


def test_crt_columns_match_the_kernel_test_table():
    from tests.kernel.combat_tables import ICHIGO_COLUMNS

    assert CRT["lines"]["japanese"]["columns"] == ICHIGO_COLUMNS


def test_attested_cell_japanese_2_to_1_die_6_is_2_over_4():
    # Ichi-Go 11.19, 11.20
    assert KCRT.cell("2:1", 6, line="japanese").code == "2/4"
    r = KCRT.cell("2:1", 6, line="japanese")
    assert (r.attacker.losses, r.defender.losses) == (2, 4)
    for a in CRT["attested"]:
        assert KCRT.cell(a["column"], a["die"], line=a["line"]).code == a["result"]


def test_results_use_only_the_a_d_and_de_notation():
    # Ichi-Go 11.20, 11.22
    for line in LINES:
        for row in CRT["lines"][line]["results"].values():
            for cell in row:
                assert cell == "DE" or (cell.count("/") == 1 and all(p.isdigit() for p in cell.split("/")))


@pytest.mark.parametrize("line", LINES)
def test_crt_is_monotone(line):
    res = CRT["lines"][line]["results"]
    for die in range(1, 7):
        row = [_pair(c) for c in res[str(die)]]
        for (a1, d1), (a2, d2) in zip(row, row[1:], strict=False):
            assert a2 <= a1 and d2 >= d1, (line, die, row)
    for col in range(14):
        ds = [_pair(res[str(d)][col])[1] for d in range(1, 7)]
        assert ds == sorted(ds), (line, col)


def test_lines_rank_us_over_japanese_over_chinese():
    # ruling R11: never better for the Chinese than the Japanese at the same odds and roll
    for die in range(1, 7):
        for col in range(14):
            j = _pair(CRT["lines"]["japanese"]["results"][str(die)][col])
            c = _pair(CRT["lines"]["chinese"]["results"][str(die)][col])
            u = _pair(CRT["lines"]["us"]["results"][str(die)][col])
            assert c[1] <= j[1] <= u[1]


def test_de_costs_the_attacker_nothing_on_the_table():
    # Ichi-Go 11.22: only tank regiments, 1st SF or the Chinese minimum can be lost on a DE
    r = KCRT.notation.parse("DE")
    assert r.defender.eliminated and r.attacker.losses == 0
    assert SCN["combat"]["chinese_attacker_loss_multiplier"] == 2
    assert SCN["combat"]["chinese_attacker_loss_minimum"] == 1


@pytest.mark.parametrize(("att", "dfn", "label"), [(26, 7, "3:1"), (27, 7, "3:1"), (5, 11, "1:3"), (12, 1, "≥10:1")])
def test_odds_examples(att, dfn, label):
    # Ichi-Go 11.6, 11.7, 11.8
    from app.rules.kernel.odds import compute_odds

    cols = KCRT.columns("japanese")
    o = compute_odds(KCRT.odds, cols, att, dfn)
    assert cols[o.column].label == label


# ============================================================================================ units

def test_cea_1st_brigade_at_1906_and_3rd_brigade_on_turn_2():
    # Ichi-Go 3.4
    b1, b3 = BY_ID["jp-cea-1bde"], BY_ID["jp-cea-3bde"]
    assert (b1["army"], b1["name"], b1["setup"]) == ("CEA", "1st Brigade", "1906")
    assert (b3["army"], b3["name"], b3["entry_turn"]) == ("CEA", "3rd Brigade", 2)


def test_tank_regiments_three_cea_seven_kwantung():
    # Ichi-Go 2.13, 3.4, 11.17
    tanks = [u for u in UNITS if u["type"] == "tank" and u["size"] == "regiment"]
    assert Counter(u["army"] for u in tanks) == {"CEA": 3, "KA": 7}
    assert all(u["shift"] == 1 and u["placement"] == "off-map" for u in tanks)


def test_formosa_garrison_is_four_divisions_with_the_50th_and_66th():
    # Ichi-Go 5.3 item 5, 9.3
    fg = [u for u in UNITS if u["army"] == "FG"]
    assert len(fg) == 4 and all(u["size"] == "division" for u in fg)
    assert {"50th Division", "66th Division"} <= {u["name"] for u in fg}


def test_14aa_has_the_static_2nd_tank_division_and_the_1st_sf_group():
    # Ichi-Go 2.12, 5.3 items 7-10, 11.28
    tk, sf = BY_ID["jp-14aa-2tkdiv"], BY_ID["jp-14aa-1sf"]
    assert tk["army"] == "14AA" and tk["static"] and tk["strength"][0] == 0 and tk["strength"][2] == 0
    assert sf["army"] == "14AA" and sf["shift"] == 1 and "setup" not in sf


def test_withdrawal_candidates_26th_and_62nd_are_full_4_factor_under_101():
    # Ichi-Go 9.2
    for uid in ("jp-cea-26div", "jp-cea-62div"):
        u = BY_ID[uid]
        assert u["strength"][0] == 4 and u["steps"] == 2 and "setup" in u
        assert int("".join(ch for ch in u["name"] if ch.isdigit())) < 101


def test_38th_army_force_in_0925():
    # Ichi-Go 5.4
    assert [u["id"] for u in UNITS if u.get("setup") == "0925"] == ["jp-38a-21div"]
    assert BY_ID["jp-38a-21div"]["command"] == "38th Army"
    assert tagged("no-attack-turn-1") == {"0925"}


def test_kwantung_army_has_divisions_and_brigades():
    # Ichi-Go 5.3 item 6
    ka = Counter(u["size"] for u in UNITS if u["army"] == "KA")
    assert ka["division"] and ka["brigade"]


def test_five_militia_at_their_cities():
    # Ichi-Go 2.7, 2.12, 3.2, 11.26
    mil = {u["abbreviation"]: u for u in UNITS if u["army"] == "militia"}
    assert set(mil) == {"GM", "HM", "JM", "YM", "YRD"}
    assert mil["YRD"]["setup"] == "1309"
    for ab, name in (("GM", "Guilin"), ("HM", "Hengyang"), ("JM", "Jian"), ("YM", "Yichang")):
        assert GMAP.name_of(H(mil[ab]["setup"])) == name
    for u in mil.values():
        assert u["static"] and u["strength"][0] == 0 and u["strength"][2] == 0 and u["steps"] == 1


def test_chinese_regulars_are_a_draw_pool_with_fifteen_zeros():
    # Ichi-Go 2.14, 3.3, 9.7
    regs = [u for u in UNITS if u["side"] == "chinese" and u["army"] == "regular"]
    assert all(u["placement"] == "draw-pool" and "setup" not in u and u["steps"] == 1 for u in regs)
    assert sum(1 for u in regs if u["strength"] == [0]) == 15
    slots = 2 * len(tagged("setup-2")) + len(tagged("setup-1"))
    slots += len(tagged("cn-city") - tagged("setup-1") - tagged("setup-2"))
    assert len(regs) > slots  # something is left for the reinforcement pool (3.3)


def test_us_divisions_four_steps_on_two_counters_enough_for_two_landings():
    # Ichi-Go 2.15, 5.3 items 4, 12, 13
    us = [u for u in UNITS if u["side"] == "us"]
    assert all(u["steps"] == 4 and u["counters"] == 2 and len(u["strength"]) == 4 for u in us)
    assert all(u["strength"] == sorted(u["strength"], reverse=True) for u in us)
    inf = [u for u in us if u["type"] == "infantry"]
    assert len(inf) >= 16
    assert BY_ID["us-1c"]["name"] == "1st Cavalry Division"  # 2.7: functions as infantry
    assert BY_ID["us-11ab"]["type"] == "airborne" and BY_ID["us-11ab"]["entry_turn"] == 8


def test_step_counts_by_nationality():
    # Ichi-Go 2.15
    for u in UNITS:
        if u["side"] == "chinese":
            assert u["steps"] == 1
        elif u["side"] == "japanese":
            assert u["steps"] == (2 if u["size"] == "division" else 1), u["id"]
            if "strength" in u and u["size"] == "division" and not u.get("static"):
                assert len(u["strength"]) == 2 and u["strength"][0] > u["strength"][1]


def test_unit_records_are_consistent():
    assert len(BY_ID) == len(UNITS)
    for u in UNITS:
        assert u["side"] in ("japanese", "chinese", "us")
        assert ("setup" in u) + ("entry_turn" in u and "placement" not in u) + ("placement" in u) >= 1, u["id"]
        assert set(u["attested"]) <= set(u) | {"side"}, u["id"]


def test_at_start_stacks_are_legal_and_japanese_set_up_in_japanese_hexes():
    # Ichi-Go 6.2; 3.4 (CEA on its own side of the front)
    stacks = Counter(u["setup"] for u in UNITS if u["side"] == "japanese" and "setup" in u)
    assert max(stacks.values()) <= SCN["stacking"]["japanese"] == 5
    for h in stacks:
        assert h in tagged("jp-city") | tagged("jp-gearr-start") or h in tagged_edge("north"), h


def test_markers():
    # Ichi-Go 2.16, 5.3, 7.8, 8.1, 8.9
    m = OOB["markers"]
    assert (m["airpower"], m["b29"], m["us_beachhead"], m["us_aerial_supply"]) == (5, 1, 2, 1)


# ========================================================================================= scenario

def test_turns_and_phases():
    # Ichi-Go 5.0, 5.1
    g = SCN["game"]
    assert (g["turns_without_causeway"], g["turns_with_causeway"], g["first_turn_month"]) == (9, 12, "1944-04")
    assert [p["id"] for p in SCN["phase"]] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
    only = {p["id"]: p.get("only") for p in SCN["phase"]}
    assert only["I"] == only["II"] == only["III"] == "causeway" and only["IV"] == "no-causeway"


def test_order_choice():
    # Ichi-Go 5.5
    o = SCN["order_choice"]
    assert (o["japanese"], o["chinese_before_causeway"], o["chinese_after_causeway"], o["us"]) == (
        "japanese", "japanese", "allied", "allied")


def test_stacking_and_movement():
    # Ichi-Go 6.2-6.4, 10.14-10.17
    s, m = SCN["stacking"], SCN["movement"]
    assert (s["japanese"], s["chinese"], s["us"], s["chinese_militia_counts"]) == (5, 4, 8, False)
    assert (m["japanese_mp"], m["us_mp"], m["chinese_mp"], m["strategic_multiplier"]) == (6, 6, "1d6-1", 2)
    assert SCN["supply"]["japanese"]["attenuated_mp_table"] == {"1": 3, "2": 3, "3": 3, "4": 4, "5": 5, "6": 6}


def test_airpower():
    # Ichi-Go 8.1, 8.7
    a = SCN["airpower"]
    assert a["allied_drm_by_airbases"]["5"] == -1 and a["allied_drm_by_airbases"]["1"] == -5
    assert (a["japanese_drm_turn_1"], a["japanese_drm_from_turn_7"], a["range"]) == (1, -2, 1)


def test_causeway_and_victory():
    # Ichi-Go 4.1-4.5, 5.2
    c, v = SCN["causeway"], SCN["victory"]
    assert (SCN["turn_start"]["causeway_roll_turn"], c["launch_on"], c["us_formosa_landing_hex"]) == (7, 6, "3221")
    assert v["china_collapse_on"] == 6 and len(v["china_collapse_drm"]) == 4
    assert v["allied_sudden"] == ["3106", "2008"] and v["sudden_death_chungking"] == "0712"
    nc, cw = v["no_causeway"], v["causeway"]
    assert (len(nc["awards"]), nc["chinese_win_max"], nc["draw"], nc["japanese_win_min"]) == (5, 1, 2, 3)
    assert (len(cw["awards"]), len(cw["debits"]), cw["chinese_win_max"], cw["draw"]) == (4, 4, 0, 1)


def test_japanese_supply_sources():
    # Ichi-Go 7.1
    assert set(SCN["supply"]["japanese"]["sources"]) >= {"0925", "1901"}
