"""SNC data files checked against every fact the rules text states.

The expected values are hard-coded from the SNC rules (case cited in each test): the text is the source of
truth, the data files are the reconstruction under test. Rulings are docs/rulings/snc.md (R1...).
"""

from __future__ import annotations

import tomllib
from collections import Counter, defaultdict, deque

import pytest

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import load_map
from app.rules.kernel.movement import CostTable, MovementRules, Mover, step_cost
from app.rules.snc import data

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
COLUMNS = CRT["table"]["columns"]


def cell(column: str, die: int) -> tuple[int, int]:
    a, d = CRT["results"][str(die)][COLUMNS.index(column)].split("/")
    return int(a), int(d)


# --- small helpers standing in for the rules engine (SNC 10.3, 10.3.1, 10.4, 10.4.1) ---------------------

def raw_column(att: int, dfn: int) -> int:
    """Index into COLUMNS before clamping; SNC 10.3 (round down; poor odds round up)."""
    if att >= dfn:
        ratio = att // dfn
        return COLUMNS.index("1:1") + ratio - 1
    ratio = -(-dfn // att)
    return COLUMNS.index("1:1") - (ratio - 1)


def final_column(att: int, dfn: int, shift: int = 0) -> str:
    """Odds column after a net shift (+ right, - left), clamped to the table (SNC 10.3.1, 10.4)."""
    i = max(0, min(len(COLUMNS) - 1, raw_column(att, dfn) + shift))
    return COLUMNS[i]


def terrain_shift_left(h: str, defender: str = "chinese") -> int:
    """Left shifts for a defender in hex h, from terrain.toml (SNC 10.4.1, ruling R1)."""
    feats = GMAP.features_of(H(h))
    if "city" in feats:
        return TEC["features"]["city"]["shift_left"]
    shift = TEC["terrain"][GMAP.terrain_of(H(h))].get("shift_left", 0)
    if "town" in feats:
        town = TEC["features"]["town"][f"shift_left_{defender}"]
        shift = shift + town if TEC["features"]["town"]["adds_to_terrain_shift"] else max(shift, town)
    return min(shift, TEC["limits"]["max_terrain_shift_left"])


def strength(uid: str, reduced: bool = False) -> int:
    s = BY_ID[uid]["strength"]
    return s[1] if reduced else s[0]


def units_where(**kw):
    return [u for u in UNITS if all(u.get(k) == v for k, v in kw.items())]


def named(side: str, name: str):
    found = [u for u in UNITS if u["side"] == side and u["name"] == name]
    assert len(found) == 1, (side, name, found)
    return found[0]


def ordn(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, 'th') }"


# ============================================================================================== loading

def test_every_file_parses_and_the_map_loads_with_the_kernel_loader():
    assert GMAP.grid.parity == "even-low"  # seed catalog 0.2: even columns sit lower (SNC 7.1, 9.6 adjacency)
    assert GMAP.status == "reconstructed"
    for d in (TEC, CRT, OOB, SCN):
        assert d


def test_files_say_they_are_reconstructed():
    assert RAW_MAP["map"]["status"] == "reconstructed"
    assert CRT["table"]["status"] == "reconstructed"
    for path in (data.MAP, data.CRT, data.UNITS, data.TERRAIN):
        assert "RECONSTRUCTED" in path.read_text(encoding="utf-8")[:600]


# ================================================================================================ map

@pytest.mark.parametrize(
    ("hexes", "case"),
    [
        (("3512", "3411"), "SNC 4.2/12.0: 3411 is adjacent to Shanghai"),
        (("3512", "3412"), "SNC 4.2/12.0"),
        (("3512", "3611"), "SNC 12.0: 3611 is the north-east hex of Shanghai"),
        (("3512", "3612"), "SNC 12.0"),
        (("3512", "3511"), "SNC 12.0"),
        (("2806", "2707"), "SNC 9.6: overrun from 2806 into 2707"),
        (("2707", "2606"), "SNC 9.6: 2707 blocks the approach to the town"),
        (("2706", "2606"), "SNC 9.6: the 3rd Division joins the attack on 2606 from 2706"),
        (("3510", "3511"), "SNC 12.0: the 3rd Division attacks 3511 from Wusong"),
        (("3510", "3410"), "SNC 12.0: the 3rd Division attacks 3410 from Wusong"),
        (("3510", "3509"), "SNC 12.0: the 3rd Division attacks Baoshan from Wusong"),
        (("3308", "3408"), "SNC 12.0: the 11th Division attacks 3408 from 3308"),
        (("3308", "3208"), "SNC 12.0: the 11th Division attacks Loudian from 3308"),
        (("3610", "3511"), "SNC 12.0: the 101st attacks 3511 from 3610"),
    ],
)
def test_adjacencies_the_rules_use(hexes, case):
    assert GMAP.adjacent(H(hexes[0]), H(hexes[1])), case


def test_3610_neighbours_are_the_zoc_example_hexes():
    # SNC 7.1 example: the unit's neighbours are 3611 (city), 3609/3710/3711 (Huangpu) and 3510 (coastal)
    assert {str(h) for h in GMAP.neighbours(H("3610"))} == {"3510", "3511", "3609", "3611", "3710", "3711"}


def test_international_settlement_is_a_neutral_city():
    # SNC 1.3, 9.4, 4.3
    assert GMAP.is_city(H("3513"))
    assert GMAP.has_tag(H("3513"), "neutral")
    assert GMAP.name_of(H("3513")) == "International Settlement"
    assert TEC["neutral"]["hexes"] == ["3513"]
    assert "3513" not in {str(h) for h in GMAP.hexes_tagged("landing")}


def test_seven_city_hexes():
    # SNC 4.3: seven city hexes; 3512 (4.1), 3611 (7.1), 2410 (2.1), 0202 (8.1), 1824; 1102 ruling R9
    cities = {str(h) for h in GMAP.cities()}
    assert len(cities) == 7
    assert {"0202", "1824", "2410", "3512", "3513", "3611"} <= cities
    assert cities == set(SCN["victory"]["city_hexes"])
    assert cities == {str(h) for h in GMAP.hexes_tagged("victory")}
    header = data.MAP.read_text(encoding="utf-8")[:2500]
    for h in cities:
        assert h in header  # the header names the seven city hexes


@pytest.mark.parametrize(
    ("hexx", "name", "case"),
    [("2410", "Suzhou", "SNC 2.1"), ("0202", "Nanking", "SNC 8.1"), ("1824", "Hangzhou", "SNC 9.5.2"),
     ("3512", "Shanghai", "SNC 4.1"), ("2606", "Chang Sho", "SNC 9.6"), ("3208", "Loudian", "SNC 12.0"),
     ("3308", "Chuanshakou", "SNC 12.0"), ("3510", "Wusong", "SNC 12.0"), ("3509", "Baoshan", "SNC 13.0")],
)
def test_named_hexes(hexx, name, case):
    assert GMAP.name_of(H(hexx)) == name, case


def test_chang_sho_is_a_town_in_marsh_and_2707_is_marsh():
    # SNC 9.6: 2606 town/marsh; the overrun into 2707 is shifted 1L for marsh
    assert GMAP.terrain_of(H("2606")) == "marsh" and GMAP.is_town(H("2606"))
    assert GMAP.terrain_of(H("2707")) == "marsh" and not GMAP.is_town(H("2707"))
    assert terrain_shift_left("2707") == 1


def _cost_tables():
    tables = {}
    for side in ("japanese", "chinese"):
        key = f"mp_{side}"

        def mp(v):
            return None if v == "prohibited" else float(v)

        terrain = {t: mp(v[key]) for t, v in TEC["terrain"].items()}
        hexside = {s: mp(v[key]) for s, v in TEC["hexsides"].items() if key in v}
        feats = {f: float(v[key]) for f, v in TEC["features"].items()
                 if f in ("city",) and not isinstance(v[key], str)}
        if side == "chinese":
            feats["town"] = float(TEC["features"]["town"][key])
        road = TEC["features"]["road"][key] if side == "japanese" else None
        rail = TEC["features"]["railroad"][key] if side == "japanese" else None
        tables[f"{side}-infantry"] = CostTable(
            terrain=terrain, hexside=hexside, features=feats, road=road, rail=rail
        )
    return MovementRules(costs=tables, move_case="SNC 9.0", prohibited_case="SNC 9.4", enemy_case="SNC 9.0",
                         prohibited_tags=frozenset({"neutral"}))


RULES = _cost_tables()


def jp_cost(a: str, b: str) -> float:
    return step_cost(GMAP, RULES, Mover.single(H(a), 8, "japanese-infantry"), H(a), H(b))


def cn_cost(a: str, b: str) -> float:
    return step_cost(GMAP, RULES, Mover.single(H(a), 8, "chinese-infantry"), H(a), H(b))


def test_overrun_of_2707_costs_the_three_mp_the_11th_division_had_left():
    # SNC 9.6: with 3 MP left in 2806 the 11th can overrun 2707 (marsh 2 + overrun 1), so no water barrier
    assert GMAP.hexside_features(H("2806"), H("2707")) == frozenset()
    assert jp_cost("2806", "2707") + TEC["overrun"]["extra_mp"] == 3


def test_road_through_2806_and_2706():
    # SNC 9.6: the 11th rumbles into 2806; the 3rd moves along the road to 2706
    assert GMAP.is_road_hex(H("2806")) and GMAP.is_road_hex(H("2706"))
    assert GMAP.has_road(H("2806"), H("2706"))
    assert jp_cost("2806", "2706") == 0.5  # SNC 9.5.1


@pytest.mark.parametrize(("hexx", "case"), [("3208", "SNC 12.0 Loudian"), ("3410", "SNC 12.0 3410")])
def test_towns_of_the_example_give_exactly_one_left_shift(hexx, case):
    # SNC 12.0 applies exactly 1L for the town at 3208 and 3410: true under either reading of R1
    assert GMAP.is_town(H(hexx)), case
    assert terrain_shift_left(hexx) == 1, case
    assert TEC["terrain"][GMAP.terrain_of(H(hexx))].get("shift_left", 0) == 0, case


@pytest.mark.parametrize("hexx", ["3510", "3511"])
def test_wusong_and_3511_give_no_shift(hexx):
    # SNC 12.0: 8 vs 3 at Wusong = 2:1 +4R = 6:1 and 16:9 at 3511 +3R apply no terrain shift (R21)
    assert terrain_shift_left(hexx) == 0


@pytest.mark.parametrize("side", ["3510/3511", "3510/3410"])
def test_creek_between_wusong_and_the_hexes_it_attacks(side):
    # SNC 12.0: the 3rd Division in 3510 is halved for the creek against 3511 and 3410
    a, b = side.split("/")
    assert "creek" in GMAP.hexside_features(H(a), H(b))


@pytest.mark.parametrize(
    "side", ["3512/3511", "3611/3511", "3308/3208", "3308/3408", "3510/3509", "3610/3511"]
)
def test_no_water_barrier_where_the_example_attacks_at_full_strength(side):
    # SNC 12.0: SNLF out of Shanghai add their full 8; the 11th attacks Loudian with 12; 3509; the 101st
    a, b = side.split("/")
    assert not GMAP.hexside_features(H(a), H(b)) & {"creek", "river", "yangtze", "all-sea", "all-lake"}


def test_navigable_huangpu_around_3610():
    # SNC 7.1 example: no ZOC from 3610 into 3609, 3710, 3711 (navigable Huangpu) but into 3510/3511
    for other in ("3609", "3710", "3711"):
        assert "navigable" in GMAP.hexside_features(H("3610"), H(other))
    for other in ("3510", "3511", "3611"):
        assert "navigable" not in GMAP.hexside_features(H("3610"), H(other))
    assert TEC["hexsides"]["navigable"]["blocks_zoc"] is True
    assert TEC["features"]["city"]["blocks_zoc_into"] is True  # no ZOC into 3611


def test_huangpu_between_shanghai_and_a_chinese_hex():
    # SNC 12.0: Chinese factors can attack 3512 from across the Huangpu (R10): 3612, a 13.0 set-up hex
    assert "navigable" in GMAP.hexside_features(H("3512"), H("3612"))
    assert named("chinese", "57th Division")["setup"] == "3612"


def test_3610_is_a_landing_hex_on_the_huangpu():
    # SNC 12.0, 13.0
    assert GMAP.has_tag(H("3610"), "landing")
    assert any("navigable" in GMAP.hexside_features(H("3610"), n) for n in GMAP.neighbours(H("3610")))


def test_wusong_is_coastal_within_the_naval_gunfire_line():
    # SNC 7.1: no Chinese ZOC into 3510 if Japanese occupy it
    assert GMAP.has_tag(H("3510"), "ngf-coast")


@pytest.mark.parametrize(("target", "origins"), [("3511", ["3510", "3512"]), ("3410", ["3510"]),
                                                  ("3208", ["3308"])])
def test_naval_gunfire_reaches_the_example_attacks(target, origins):
    # SNC 12.0 GT 3: three shifts (air, artillery, naval) against 3511, Loudian 3208 and 3410 (R11): a hex of
    # each battle is on the rivers or one hex inland from the Yangtze
    naval = set(SCN["fire_support"]["naval_attack_hexes"])
    assert any(GMAP.tags_of(H(h)) & naval for h in [target, *origins])


def test_naval_gunfire_tags_follow_ruling_r11():
    # SNC 7.1, 11.4: coastal = next to a Yangtze hex of column 20+ (the line at Jiangyin) or on the navigable
    # Huangpu (3513 is neutral); inland = next to a Yangtze coastal hex, not coastal: none along the Huangpu
    land = [h for h in GMAP.hexes() if GMAP.terrain_of(h) not in {"yangtze", "sea", "lake"}]
    yangtze = {h for h in land if any(GMAP.terrain_of(n) == "yangtze" and n.col >= 20 for n in GMAP.neighbours(h))}
    huangpu = {h for h in land if any("navigable" in GMAP.hexside_features(h, n) for n in GMAP.neighbours(h))}
    coast = (yangtze | huangpu) - {H("3513")}
    inland = {h for h in land if h not in coast and any(n in yangtze for n in GMAP.neighbours(h))}
    assert set(GMAP.hexes_tagged("ngf-coast")) == coast
    assert set(GMAP.hexes_tagged("ngf-inland")) == inland
    assert {"3409", "3208"} <= {str(h) for h in inland} and not {"3410", "3412", "3511"} & {str(h) for h in inland}


def test_landing_hexes():
    # SNC 13.0 / 12.0 name 3308, 3408, 3509, 3510, 3610, 3417, 3004; 14 in all (R8)
    landing = {str(h) for h in GMAP.hexes_tagged("landing")}
    assert {"3308", "3408", "3509", "3510", "3610", "3417", "3004"} <= landing
    assert len(landing) == 14
    water = {"yangtze", "sea"}
    for h in landing:
        hx = H(h)
        assert GMAP.terrain_of(hx) not in water | {"lake"}
        on_water = any(GMAP.terrain_of(n) in water for n in GMAP.neighbours(hx))
        on_river = any("navigable" in GMAP.hexside_features(hx, n) for n in GMAP.neighbours(hx))
        assert on_water or on_river, h
    # SNC 8.4.1: the 10th Army lands east of 32xx inclusive; historical 3417 qualifies
    assert int("3417"[:2]) >= SCN["reinforcements"]["japanese"]["ten_army_min_col"] == 32


def test_yangtze_estuary_hexes_hexsides_lakes_and_sea_exist_and_are_prohibited():
    # SNC 9.3, 9.4 (R12)
    assert GMAP.hexes_of_terrain("yangtze")
    assert GMAP.hexsides_with("yangtze")
    assert GMAP.hexsides_with("all-lake")
    assert GMAP.hexsides_with("all-sea")
    assert GMAP.hexes_of_terrain("lake")  # Taihu
    for t in ("yangtze", "sea", "lake"):
        assert TEC["terrain"][t]["mp_japanese"] == TEC["terrain"][t]["mp_chinese"] == "prohibited"
    for s in ("yangtze", "all-sea", "all-lake"):
        assert TEC["hexsides"][s]["mp_japanese"] == TEC["hexsides"][s]["mp_chinese"] == "prohibited"
    # Nanking lies on the Yangtze, which is north of the map's land (SNC 2.1, 3.0)
    assert any("yangtze" in GMAP.hexside_features(H("0202"), n) for n in GMAP.neighbours(H("0202")))


def _rail_component(start: str) -> set[str]:
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in GMAP.neighbours(H(h)):
            if GMAP.has_rail(H(h), n) and str(n) not in seen:
                seen.add(str(n))
                todo.append(str(n))
    return seen


def test_railroads_from_nanking_and_hangzhou_reach_the_west_and_south_edges():
    # SNC 8.2 b, 9.5.2: rail placement traces along the rail net to a west or south edge railroad hex
    west = {str(h) for h in GMAP.edge_hexes("west")} & {str(h) for h in GMAP.rail_hexes()}
    south = {str(h) for h in GMAP.edge_hexes("south")} & {str(h) for h in GMAP.rail_hexes()}
    assert west and south
    net = _rail_component("0202")
    assert "1824" in net and "2410" in net and "3512" in net
    assert net & west and net & south
    assert _rail_component("1824") & south


def test_setup_and_entry_hexes_are_on_land():
    # SNC 13.0: every set-up and arrival hex is a land hex on the map
    for u in UNITS:
        for h in [u.get("setup")] + list(u.get("arrival_hexes", [])):
            if h:
                assert GMAP.on_map(H(h)), (u["id"], h)
                assert GMAP.terrain_of(H(h)) not in ("yangtze", "sea", "lake"), (u["id"], h)


def test_japanese_landing_options_are_landing_hexes():
    # SNC 8.4, 13.0 (SNLF 9 is placed in Shanghai, not landed)
    landing = {str(h) for h in GMAP.hexes_tagged("landing")}
    for u in units_where(side="japanese"):
        if u.get("arrival_hexes") and u["type"] != "snlf":
            assert set(u["arrival_hexes"]) <= landing, u["id"]
        if u.get("arrival_landing") == "any":
            assert u["historical_hex"] in landing
            assert int(u["historical_hex"][:2]) >= u.get("arrival_min_col", 0)


# ============================================================================================== terrain

@pytest.mark.parametrize(
    ("terrain", "jp", "cn", "shift"),
    [("clear", 1, 1, 0), ("woods", 2, 1, 1), ("marsh", 2, 1, 1), ("paddy", 2, 1, 0)],
)
def test_natural_terrain(terrain, jp, cn, shift):
    # SNC 9.4 (MP; Chinese 1 everywhere), 10.4.1 (shifts); paddy no shift is ruling R6
    t = TEC["terrain"][terrain]
    assert (t["mp_japanese"], t["mp_chinese"], t["shift_left"]) == (jp, cn, shift)


def test_manmade_terrain_and_hexsides():
    f, s = TEC["features"], TEC["hexsides"]
    assert f["city"]["mp_japanese"] == f["city"]["mp_chinese"] == 1          # SNC 9.5
    assert f["city"]["shift_left"] == 2 and f["city"]["replaces_terrain_shift"]  # SNC 10.4.1
    assert f["town"]["shift_left_chinese"] == 1 and f["town"]["shift_left_japanese"] == 0  # SNC 10.4.1
    assert f["road"]["mp_japanese"] == f["railroad"]["mp_japanese"] == 0.5  # SNC 9.5, 9.5.1
    assert f["road"]["hexside_costs_still_apply"]                            # SNC 9.5.1
    assert s["creek"]["mp_japanese"] == 1 and s["river"]["mp_japanese"] == 2  # SNC 9.4
    assert s["creek"]["attack_divisor"] == 2 and s["river"]["attack_divisor"] == 3  # SNC 10.4.1
    assert {s["creek"]["mp_chinese"], s["river"]["mp_chinese"]} == {1, 2}     # SNC 9.4, ruling R2
    assert TEC["limits"]["max_terrain_shift_left"] == 2                      # SNC 10.4.1
    assert (TEC["overrun"]["extra_mp"], TEC["overrun"]["shift_left"]) == (1, 1)  # SNC 9.6
    assert set(TEC["overrun"]["not_into"]) == {"city", "town"}               # SNC 9.6
    assert s["all-sea"]["no_combat"] and s["all-lake"]["no_combat"]          # SNC 10.4.1


def test_town_in_marsh_is_2L_by_ruling_r1_and_city_ignores_terrain():
    assert terrain_shift_left("2606") == 2  # ruling R1 (10.4.1 example, map errata after 1.3)
    assert terrain_shift_left("2606", "japanese") == 1  # Japanese get no town shift: marsh only
    assert terrain_shift_left("3512") == 2  # SNC 10.4.1


def test_movement_costs_on_the_map():
    assert cn_cost("2806", "2707") == 1          # SNC 9.4: Chinese 1 MP whatever the terrain
    assert cn_cost("3511", "3510") == 2          # creek +1 (R2)
    assert jp_cost("3511", "3510") == 0.5 + 1    # along the Wusong railroad/road, creek still paid (9.5.1)
    with pytest.raises(RuleViolation):           # SNC 9.4: 3513 never entered
        jp_cost("3512", "3513")


@pytest.mark.parametrize(("att", "expected"), [(16, 8), (19, 9), (5, 2)])
def test_attack_across_a_creek_is_halved_rounding_down(att, expected):
    # SNC 12.0 (16 -> 8, 19 -> 9), SNC 10.4.1
    assert att // TEC["hexsides"]["creek"]["attack_divisor"] == expected


# ================================================================================================== CRT

def test_crt_shape():
    assert COLUMNS == ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]  # SNC 10.3.1
    assert sorted(CRT["results"]) == ["1", "2", "3", "4", "5", "6"]
    for row in CRT["results"].values():
        assert len(row) == len(COLUMNS)
        for c in row:
            a, d = c.split("/")
            assert a.isdigit() and d.isdigit()


@pytest.mark.parametrize(
    ("column", "die", "result", "case"),
    [
        ("3:1", 3, "1/2", "SNC 10.5 / 10.5.1"),
        ("5:1", 6, "0/4", "SNC map errata after 1.3"),
        ("3:1", 2, "2/1", "SNC 12.0 GT 3 Loudian"),
        ("2:1", 3, "1/1", "SNC 12.0 GT 3 3410"),
        ("5:1", 4, "0/3", "SNC 12.0 GT 3 3511: 1:1, concentric 1R, 3R (R3)"),
        ("6:1", 1, "1/2", "SNC 12.0 GT 2 Wusong (R5)"),
        ("4:1", 3, "1/2", "SNC 9.6 overrun (R4)"),
    ],
)
def test_attested_cells(column, die, result, case):
    assert CRT["results"][str(die)][COLUMNS.index(column)] == result, case


def test_attested_list_matches_the_table():
    assert len(CRT["attested"]) == 7
    assert not any(a["column"] == "4:1" and a["die"] == 4 for a in CRT["attested"])  # R3: 3511 is on 5:1
    for a in CRT["attested"]:
        assert CRT["results"][str(a["die"])][COLUMNS.index(a["column"])] == a["result"], a


def test_crt_is_monotone_across_columns_and_down_the_die():
    # R4: better odds never worse for the attacker; higher roll never worse for the attacker
    for die in range(1, 7):
        for i in range(len(COLUMNS) - 1):
            a0, d0 = cell(COLUMNS[i], die)
            a1, d1 = cell(COLUMNS[i + 1], die)
            assert a1 <= a0 and d1 >= d0, (die, COLUMNS[i])
    for col in COLUMNS:
        for die in range(1, 6):
            a0, d0 = cell(col, die)
            a1, d1 = cell(col, die + 1)
            assert a1 <= a0 and d1 >= d0, (col, die)


def test_crt_constraints_from_the_examples():
    col = {c: [cell(c, d) for d in range(1, 7)] for c in COLUMNS}
    # SNC 9.6: 3:1 risks a 2-step loss, 4:1 does not
    assert any(a == 2 for a, _ in col["3:1"]) and all(a < 2 for a, _ in col["4:1"])
    # SNC 9.6 / R18: 4:1 has a 50% chance to clear three one-step divisions
    assert sum(d >= 3 for _, d in col["4:1"]) == 3
    # SNC 12.0 GT 2: 5:1 is the least odds that surely remove a two-step garrison
    assert all(d >= 2 for c in ("5:1", "6:1") for _, d in col[c])
    assert any(d < 2 for _, d in col["4:1"])
    # SNC 12.0 GT 2: 6:1 lowers the risk of a step loss and can cost nothing
    assert sum(a > 0 for a, _ in col["6:1"]) < sum(a > 0 for a, _ in col["5:1"])
    assert any(a == 0 for a, _ in col["6:1"])
    # SNC 12.0 GT 1: at best 4 steps
    assert max(d for c in COLUMNS for _, d in col[c]) == 4


@pytest.mark.parametrize(
    ("att", "dfn", "column", "case"),
    [(26, 7, "3:1", "SNC 10.3"), (5, 9, "1:2", "SNC 10.3"), (80, 10, "6:1", "SNC 10.3.1"),
     (2, 10, "1:3", "SNC 10.3.1"), (23, 6, "3:1", "SNC 9.6"), (24, 6, "4:1", "SNC 9.6"),
     (10, 2, "5:1", "SNC 9.6"), (8, 3, "2:1", "SNC 12.0"), (12, 9, "1:1", "SNC 12.0"),
     (9, 10, "1:2", "SNC 12.0")],
)
def test_odds_examples(att, dfn, column, case):
    assert final_column(att, dfn) == column, case


# ======================================================================= examples of play, end to end

def div(name: str) -> list[dict]:
    return [u for u in UNITS if u.get("formation") == name]


def test_wusong_landing_gt2():
    # SNC 12.0 GT 2: 16 halved to 8 vs 3 = 2:1; +4R = 6:1; roll 1: one step lost, the 2-step garrison gone
    third = sum(u["strength"][0] for u in div("3rd Division"))
    gar = BY_ID["cn-gar-wusong"]
    assert third == 16 and gar["strength"][0] == 3 and gar["steps"] == 2
    att = third // SCN["reinforcements"]["japanese"]["landing_attack_divisor"]
    assert final_column(att, 3) == "2:1"
    col = final_column(att, 3, +4 - terrain_shift_left("3510"))
    assert col == "6:1"
    a, d = cell(col, 1)
    assert a == 1 and d >= gar["steps"]


def test_11th_division_lands_at_6_to_1_gt2():
    # SNC 12.0 GT 2: an easy 6:1 at 3308, no step loss (any roll but 1)
    eleventh = sum(u["strength"][0] for u in div("11th Division"))
    garrison = [u for u in UNITS if u.get("setup") == "3308"]
    assert len(garrison) == 1 and garrison[0]["type"] == "garrison"
    col = final_column(eleventh // 2, garrison[0]["strength"][0], -terrain_shift_left("3308"))
    assert col == "6:1"
    assert any(cell(col, d)[0] == 0 for d in range(2, 7))


def test_attack_on_3511_gt3():
    # SNC 12.0 GT 3: 3rd Division 16 halved for the creek + SNLF 8 = 16 vs 9; 1R concentric (3510 and 3512 are
    # opposite around 3511), +3R; roll 4 = 0/3 (R3)
    snlf = sum(u["strength"][0] for u in units_where(type="snlf"))
    assert snlf == 8
    defenders = [u for u in UNITS if u.get("setup") == "3511"]
    assert sum(u["strength"][0] for u in defenders) == 9
    third = sum(u["strength"][0] for u in div("3rd Division"))
    att = third // 2 + snlf
    assert att == 16
    col = final_column(att, 9, 1 + 3 - terrain_shift_left("3511"))
    assert col == "5:1" and cell(col, 4) == (0, 3)  # as printed
    # 0/3 leaves only the garrison: the other defenders have exactly 3 steps
    assert sum(u["steps"] for u in defenders if u["type"] != "garrison") == 3
    # with the Wusong loss still on (one regiment reduced) the odds are the same (R3)
    reduced = third - 4 + 2
    assert final_column(reduced // 2 + snlf, 9, 1 + 3) == "5:1"


def test_loudian_gt3():
    # SNC 12.0 GT 3: 12:9 = 1:1, 1L town, 3R = 3:1; roll 2: the elite 5 reduced, two regiments reduced
    eleventh = div("11th Division")
    assert sum(u["strength"][0] for u in eleventh) == 12
    col = final_column(12, 9, 3 - terrain_shift_left("3208"))
    assert col == "3:1" and cell(col, 2) == (2, 1)
    assert BY_ID["cn-d11"]["elite"] and BY_ID["cn-d11"]["strength"][0] == 5


def test_3410_gt3():
    # SNC 12.0 GT 3: 3rd Division + detachment 19 halved to 9 vs 10 = 1:2; +3R, 1L town = 2:1; roll 3 = 1/1
    det = strength("jp-det-shigeto")
    assert det == 3
    att = (sum(u["strength"][0] for u in div("3rd Division")) + det) // 2
    assert att == 9
    stack = strength("cn-td1") + strength("cn-td2") + 2
    assert stack == 10 and BY_ID["cn-td1"]["elite"] and BY_ID["cn-td2"]["elite"]
    col = final_column(att, stack, 3 - terrain_shift_left("3410"))
    assert col == "2:1" and cell(col, 3) == (1, 1)
    # a regular division of 2 exists to complete the stack
    assert any(u["size"] == "division" and not u["elite"] and u["strength"] == [2] for u in UNITS)


def test_overrun_and_chang_sho_gt7():
    # SNC 9.6: the 11th (two regiments reduced) overruns a lone 2-factor division: 10:2 = 5:1, 1L marsh,
    # 1L overrun, 1R artillery = 4:1; roll 3: the division eliminated, a third regiment reduced.
    regs = div("11th Division")
    full, red = regs[0]["strength"]
    assert 2 * full + 2 * red == 10
    col = final_column(10, 2, -terrain_shift_left("2707") - TEC["overrun"]["shift_left"] + 1)
    assert col == "4:1"
    a, d = cell(col, 3)
    assert a == 1 and d >= 1
    # then 23 against 6 (three regular divisions) is 3:1; one replacement step makes it 4:1 (R20)
    third_regs = div("3rd Division")
    att = (full + 3 * red) + (3 * third_regs[0]["strength"][0] + third_regs[0]["strength"][1])
    assert att == 23 and final_column(att, 6) == "3:1"
    assert final_column(att + (full - red), 6) == "4:1"


def test_chinese_elite_return_example():
    # SNC 8.1: eliminated on GT 4, roll 4: back on GT 8; past GT 12 it is gone
    er = SCN["replacements"]["chinese_elite_return"]
    assert 4 + 4 == 8 <= er["last_turn"] == 12
    assert er["return_hex"] == "0202" and er["reduced"]
    assert BY_ID["cn-d14"]["elite"]  # SNC 8.1 names the 14th elite


# ================================================================================================ units

CHINESE_SETUP = {
    "3510": ["Wusong Garrison"], "3509": ["Baoshan Garrison"], "2410": ["Suzhou Garrison"],
    "0202": ["Nanking Garrison"], "3710": ["45th Brigade"], "3712": ["55th Division"],
    "3711": ["56th Division"], "3612": ["57th Division"],
    "3412": ["Tax Police Division", "Peace Preservation Corps Division", "20th Brigade"],
}
CHINESE_DIV_PAIRS = {"3511": (87, 98), "3411": (36, 88)}
CHINESE_REINF = [  # SNC 13.0 (GT of the first four rows: ruling R7)
    (2, ["2503"], [11, 14], []),
    (2, ["2410"], [3, 6, 7, 51, 58], []),
    (2, ["1824"], [61, 62, 63], []),
    (2, ["2410"], [], [11, 12, 13, 34, 37]),
    (3, ["2410"], [13, 15, 16, 19, 33, 34, 40, 45, 52, 59, 76, 77, 90, 102, 103, 105, 109, 111, 112, 159, 160,
                   195], []),
    (4, ["2410", "2318"], [8, 9, 18, 44, 60], []),
    (5, ["2410", "2318"], [1, 26, 32, 53, 131, 134, 135, 171, 173, 174, 176], []),
    (6, ["0102"], [46, 170, 172], []),
    (7, ["0102"], [35, 41, 48, 107, 144, 145, 146, 148, 154, 156], [14]),
]


def test_chinese_at_start_units():
    # SNC 13.0
    for hexx, names in CHINESE_SETUP.items():
        for n in names:
            assert named("chinese", n)["setup"] == hexx, n
    for hexx, pair in CHINESE_DIV_PAIRS.items():
        for n in pair:
            assert named("chinese", f"{ordn(n)} Division")["setup"] == hexx
    assert named("chinese", "1/TD Brigade (Training Division)")["arrival_turn"] == 2


def test_chinese_letter_garrisons():
    # SNC 13.0: A-J and N-P at 3511 and every other landing site; K-M at 1824, 1102, 0116
    landing = {str(h) for h in GMAP.hexes_tagged("landing")} - {"3509", "3510"}
    an = [named("chinese", f"Garrison {c}")["setup"] for c in "ABCDEFGHIJNOP"]
    assert sorted(an) == sorted(landing | {"3511"})
    assert sorted(named("chinese", f"Garrison {c}")["setup"] for c in "KLM") == ["0116", "1102", "1824"]
    for c in "ABCDEFGHIJKLMNOP":
        assert named("chinese", f"Garrison {c}")["static"]


@pytest.mark.parametrize(("turn", "hexes", "divs", "bdes"), CHINESE_REINF)
def test_chinese_reinforcements(turn, hexes, divs, bdes):
    for n in divs:
        u = named("chinese", f"{ordn(n)} Division")
        assert (u["arrival_turn"], u["arrival_hexes"]) == (turn, hexes), n
    for n in bdes:
        u = named("chinese", f"{ordn(n)} Brigade")
        assert (u["arrival_turn"], u["arrival_hexes"]) == (turn, hexes), n


def test_chinese_unit_count():
    # SNC 13.0: 20 garrisons and 80 divisions/brigades
    cn = units_where(side="chinese")
    assert sum(u["type"] == "garrison" for u in cn) == 20
    assert sum(u["type"] != "garrison" for u in cn) == 80


JAPANESE_DIVS = [  # SNC 13.0: (formation, turn, hexes or None for any landing)
    ("3rd Division", 2, ["3509", "3510"]),
    ("11th Division", 2, ["3308", "3408"]),
    ("101st Division", 3, ["3308", "3408", "3509", "3510", "3610"]),
    ("9th Division", 4, ["3308", "3408", "3509", "3510", "3610"]),
    ("13th Division", 5, ["3308", "3408", "3509", "3510", "3610"]),
    ("6th Division", 7, None), ("18th Division", 7, None), ("114th Division", 7, None),
    ("16th Division", 8, None),
]


@pytest.mark.parametrize(("formation", "turn", "hexes"), JAPANESE_DIVS)
def test_japanese_divisions(formation, turn, hexes):
    regs = div(formation)
    assert len(regs) == 4  # "four units"
    for u in regs:
        assert u["arrival_turn"] == turn
        if hexes:
            assert u["arrival_hexes"] == hexes
        else:
            assert u["arrival_landing"] == "any"


def test_japanese_at_start_and_snlf_9():
    # SNC 13.0
    assert {u["name"] for u in UNITS if u.get("setup") == "3512"} == {"SNLF 1", "SNLF 2", "Shanghai Garrison"}
    assert {u["name"] for u in UNITS if u.get("setup") == "3611"} == {"SNLF 3", "Garrison A"}
    s9 = named("japanese", "SNLF 9")
    assert (s9["arrival_turn"], s9["arrival_hexes"]) == (1, ["3512", "3611"])
    # SNC 12.0: the Chinese need a result of 3 against 3611; 3512 holds more than 4 steps
    assert sum(u["steps"] for u in UNITS if u.get("setup") == "3611") == 3
    assert sum(u["steps"] for u in UNITS if u.get("setup") == "3512") > 4
    # SNC 12.0: the Japanese add 2 steps on GT 1 (R14)
    assert s9["steps"] == 2


def test_tenth_army_and_16th_division():
    # SNC 8.4.1, 13.0: 6th, 18th, 114th Divisions and the 9th Brigade of the 5th, 14 units, GT 7
    tenth = units_where(army="10th Army")
    assert len(tenth) == 14
    assert all(u["arrival_turn"] == 7 and u["arrival_min_col"] == 32 and u["historical_hex"] == "3417"
               for u in tenth)
    assert sum(u.get("formation") == "9th Brigade, 5th Division" for u in tenth) == 2
    sixteenth = div("16th Division")
    assert all(u["historical_hex"] == "3004" and "arrival_min_col" not in u for u in sixteenth)


def test_detachments():
    # SNC 13.0: Shigeto, Asama, Amaya detachments with the 101st, GT 3
    dets = units_where(size="detachment")
    assert sorted(u["name"] for u in dets) == ["Amaya Detachment", "Asama Detachment", "Shigeto Detachment"]
    assert all(u["arrival_turn"] == 3 for u in dets)


def test_markers():
    # SNC 13.0
    sched = Counter()
    for m in OOB["marker"]:
        sched[(m["side"], m["kind"], m["turn"])] += m["count"]
    assert sched == Counter({
        ("chinese", "artillery", 0): 3, ("japanese", "naval", 0): 2, ("japanese", "naval", 1): 1,
        ("japanese", "air", 2): 1, ("japanese", "artillery", 2): 1, ("japanese", "naval", 2): 1,
        ("japanese", "amphibious", 2): 2, ("japanese", "air", 3): 1, ("japanese", "artillery", 3): 1,
        ("japanese", "air", 4): 1, ("japanese", "artillery", 4): 1, ("japanese", "artillery", 5): 1,
        ("japanese", "artillery", 7): 1, ("japanese", "artillery", 8): 1,
    })


def test_unit_records_are_consistent():
    ids = [u["id"] for u in UNITS]
    assert len(ids) == len(set(ids))
    for u in UNITS:
        assert u["steps"] == len(u["strength"]) in (1, 2), u["id"]
        if u["steps"] == 2:
            assert u["strength"][1] < u["strength"][0], u["id"]
        assert ("setup" in u) + ("arrival_turn" in u) + ("placement" in u) == 1, u["id"]
        assert u.get("static", False) == (u["type"] == "garrison"), u["id"]  # SNC 2.2.1, 9.1, ruling R24
        assert set(u.get("attested", [])) | set(u.get("derived", [])) <= set(u), u["id"]
        if u["side"] == "chinese" and u.get("elite"):
            assert u["steps"] == 2, u["id"]  # SNC 2.2.1 b


def test_counter_mix_adds_up_to_176():
    # SNC 2.0: 176 counters, 6 of them for other games; plus the turn marker (ruling R25)
    markers = sum(m["count"] for m in OOB["marker"])
    assert len(UNITS) + markers + 6 + 1 == 176
    assert len(units_where(side="japanese", type="garrison")) == 6


def test_at_start_stacks_are_legal():
    # SNC 3.0: stacking applies at set-up; SNC 6.2 limits (ruling R13 for garrisons)
    st = SCN["stacking"]
    per_hex = defaultdict(list)
    for u in UNITS:
        if "setup" in u:
            per_hex[(u["side"], u["setup"])].append(u)
    for (side, h), us in per_hex.items():
        if side == "chinese":
            de = 0.0
            for u in us:
                if u["type"] == "garrison":
                    de += st["chinese"]["garrison"]
                else:
                    key = ("elite_" if u["elite"] else "regular_") + u["size"]
                    de += st["chinese"][key]
            assert de <= st["chinese"]["max_de"], (h, de)
        else:
            assert len(us) <= st["japanese"]["max_units"], h


def test_chinese_stacking_example():
    # SNC 6.2: one elite division, one regular division and one regular brigade fit in one hex
    c = SCN["stacking"]["chinese"]
    assert c["elite_division"] + c["regular_division"] + c["regular_brigade"] == c["max_de"] == 3.0


# ============================================================================================= scenario

def test_scenario_facts():
    g = SCN["game"]
    assert g["turns"] == 12 and g["first_side"] == "chinese"                        # SNC 5.1, 5.2
    assert [p["id"] for p in SCN["sequence"]] == [
        "chinese-ops-1", "chinese-reinforcement", "chinese-ops-2",
        "japanese-ops-1", "japanese-reinforcement", "japanese-ops-2", "victory-check"]  # SNC 5.1
    assert len(SCN["declaration"]["options"]) == 4                                  # SNC 5.3
    assert SCN["control"]["japanese_at_start"] == ["3512", "3611"]                  # SNC 3.2
    v = SCN["victory"]
    assert v["neutral_city"] == "3513" and v["chinese_win_at_end_of_turn"] == 12    # SNC 4.3
    assert v["chinese_sudden_death"]["control_hex"] == "3512"                       # SNC 4.1
    assert v["chinese_sudden_death"]["occupy_from_turn"] == 8                       # SNC 4.1
    assert (v["chinese_sudden_defeat"]["from_turn"], v["chinese_sudden_defeat"]["to_turn"]) == (1, 5)  # 4.2
    assert SCN["movement"]["mobile_mf"] == 8 and SCN["movement"]["static_mf"] == 0  # SNC 2.2.1, 9.0
    r = SCN["replacements"]["japanese"]
    assert (r["steps_per_turn"], r["from_turn"], r["accumulate"]) == (2, 3, False)  # SNC 8.3
    assert SCN["air"]["japanese_interdiction"]["from_turn"] == 3                    # SNC 11.2
    assert (SCN["air"]["chinese"]["abort_on"], SCN["air"]["chinese"]["lost_for_game_on"]) == (6, 1)  # 11.3
    assert SCN["reinforcements"]["chinese"]["rail_placement_from_turn"] == 3        # SNC 8.2 b
    assert SCN["reinforcements"]["chinese"]["rail_movement_origins"] == ["0202", "1824"]  # SNC 9.5.2
    assert SCN["reinforcements"]["japanese"]["ten_army_advance_hexes"] == 2         # SNC 8.4.1
    fs = SCN["fire_support"]
    assert fs["chinese_categories"] == ["artillery"] and len(fs["japanese_categories"]) == 4  # SNC 11.1
    assert fs["defensive_categories"] == ["naval"]                                  # SNC 11.1
    assert SCN["stacking"]["japanese"]["max_units"] == 5                            # SNC 6.2


def test_reinforcement_entry_hexes_are_on_the_rail_net_or_the_west_edge():
    # SNC 13.0 entry hexes: Suzhou, Hangzhou, 2318 on the railroad (reconstruction); 0102 on the west edge
    rail = {str(h) for h in GMAP.rail_hexes()}
    assert {"2410", "1824", "2318"} <= rail
    assert "0102" in {str(h) for h in GMAP.edge_hexes("west")}
