"""Operation Olympic data checked against every fact the rules fragments state, case by case, and the printed and
derived examples of the seed catalog (OO-1 ... OO-10) that data and the kernel alone can compute.

Expected values come from the rules text (the case is in each test's name); the data files under test are
app/rules/olympic/data/. Rulings (R1 ...) are docs/rulings/olympic.md.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.catalog import installed
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, step_cost
from app.rules.kernel.odds import compute_odds
from app.rules.kernel.pieces import Piece
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.stacking import overstacked
from app.rules.kernel.zoc import zoc_hexes
from app.rules.olympic import data
from app.rules.olympic.data_load import DataError, hex_identity, load

CATALOG = installed()  # the rule sets installed here

H = Hex.parse
G = load()
CRT = G.crt


def column(attack, defence) -> str:
    return preview_attack(CRT, attack, defence).column_label


# --- 8.8 the CRT and its notes ----------------------------------------------------------------------------------

def test_8_8_nine_columns_by_attack_differential_as_printed_and_six_die_rolls():
    assert [c.label for c in CRT.columns()] == ["-2", "-1", "0", "+1", "+2, +3", "+4, +7", "+8", "+9", "+10"]
    assert CRT.dice == (1, 2, 3, 4, 5, 6)
    assert CRT.odds.method == "differential"


@pytest.mark.parametrize("attack,defence,label", [
    (6, 4, "+2, +3"), (7, 4, "+2, +3"), (8, 4, "+4, +7"), (11, 4, "+4, +7"), (12, 4, "+8"), (4, 4, "0"),
    (3, 4, "-1"), (2, 4, "-2"),
])
def test_8_8_ruling_r2_the_two_ranged_headings_cover_2_to_3_and_4_to_7(attack, defence, label):
    assert column(attack, defence) == label


def test_8_8_note_1_above_plus_10_is_plus_10_and_below_minus_2_is_no_attack_oo_4():
    assert column(16, 4) == "+10"  # OO-4: +12 is read as +10
    assert preview_attack(CRT, 16, 4).result(1).code == preview_attack(CRT, 14, 4).result(1).code == "De 2/10"
    minus_three = preview_attack(CRT, 1, 4)  # OO-4: -3 is illegal
    assert not minus_three.allowed
    assert minus_three.odds.refusal.startswith("Olympic 8.8 note 1")
    assert G.crt_raw["table"]["minimum"] == -2 and G.crt_raw["table"]["beyond_last"] == "+10"


def test_8_8_ruling_r3_the_differential_is_attack_minus_defence_rounded_down():
    # a halved militia (track 4, die 6) leaves half points: 4 against 3 1/2 is +1/2, read as 0
    odds = compute_odds(CRT.odds, CRT.columns(), 4, Fraction(7, 2))
    assert odds.value == 0 and CRT.columns()[odds.column].label == "0"


def test_8_9_the_five_result_codes():
    ae, de, ar, dr, ex = (CRT.notation.parse(c) for c in ("Ae 10/3", "De 2/10", "Ar 5/2", "Dr 3/5", "Ex 10/10"))
    assert ae.attacker.eliminated and not ae.defender.eliminated
    assert de.defender.eliminated and not de.attacker.eliminated
    assert ar.markers == {"attacker-retreats"} and not ar.attacker.eliminated
    assert dr.markers == {"defender-retreats"} and not dr.defender.eliminated
    assert ex.exchange and ex.defender.eliminated and not ex.attacker.eliminated
    exchange = G.crt_raw["exchange"]
    assert exchange["advance_limit"] == 3 and exchange["militia_counts_unmodified"] is True


@pytest.mark.parametrize("name,terrain,hexes", [
    ("Kushikino", "town", 1), ("Kagoshima", "city", 1), ("Kirishima", "rough", 1),
])
def test_8_8_note_2_retreat_one_hex_from_rough_city_or_town_oo_5(name, terrain, hexes):
    h = G.hex_named(name)
    assert G.map.terrain_of(h) == terrain
    assert G.retreat_hexes(h) == hexes


def test_8_8_note_2_retreat_two_hexes_from_clear_oo_5():
    clear = sorted(G.map.hexes_of_terrain("clear"))
    assert clear and {G.retreat_hexes(h) for h in clear} == {2}


def test_8_8_note_3_every_result_but_ae_and_ar_destroys_an_attacked_militia():
    assert sorted(G.crt_raw["militia"]["destroyed_by"]) == ["De", "Dr", "Ex"]
    codes = {cell.split()[0] for row in G.crt_raw["results"].values() for cell in row}
    assert codes == {"Ae", "Ar", "De", "Dr", "Ex"}


def test_8_8_note_4_two_americans_attacking_at_0_roll_1_cost_10_points_oo_6():
    r = preview_attack(CRT, 8, 8).result(1)
    assert r.code == "Ar 5/2"
    assert r.value("cp_us_attacking") * 2 == 10
    assert G.crt_raw["casualty_points"]["per_american_unit"] is True


def test_8_8_note_4_a_japanese_attack_on_one_american_at_plus_9_roll_1_costs_10_points_oo_7():
    r = preview_attack(CRT, 13, 4).result(1)
    assert r.code == "De 3/10" and r.defender.eliminated
    assert r.value("cp_japan_attacking") * 1 == 10


def test_8_8_note_6_blocked_retreat_10_points_unsupplied_30_return_after_3_turns():
    cp = G.crt_raw["casualty_points"]
    assert (cp["blocked_retreat_supplied"], cp["unsupplied_eliminated"], cp["return_after_turns"]) == (10, 30, 3)


# --- 8.51-8.54 Japanese special combat rules --------------------------------------------------------------------

def test_8_54_and_note_5_a_6_doubles_the_japanese_strength_and_reads_the_new_column_oo_8():
    special = G.crt_raw["special_attack"]
    assert (special["die"], special["strength_multiplier"], special["attacker_eliminated"]) == (6, 2, True)
    two_on_four = preview_attack(CRT, 2, 4)
    assert two_on_four.column_label == "-2" and two_on_four.result(6).code == "Dr 2/5"
    doubled = preview_attack(CRT, 2 * special["strength_multiplier"], 4)
    assert doubled.column_label == "0" and doubled.result(special["die"]).code == "Ex 10/10"


def test_8_51_to_8_53_attack_choices_are_data():
    attacks = G.priorities["attacks"]
    assert attacks["maximum"] is True
    assert (attacks["attacker"], attacks["target"]) == ("lowest-hex-identity", "highest-hex-identity")
    assert attacks["within_hex"] == ["strongest", "top-of-stack"]
    assert attacks["advance"] == "mandatory"


def test_8_52_of_japanese_units_in_1210_and_1305_the_one_in_1210_attacks_oo_9():
    candidates = [H("1305"), H("1210")]
    assert min(candidates, key=hex_identity) == H("1210")


# --- 14.3 the Japanese Doctrine Chart ---------------------------------------------------------------------------

DOCTRINE = {
    1: ["all", "half", "half", "half", "half", "none"],
    2: ["all", "all", "inland", "coastal", "southern", "northern"],
    3: [("3-10", "2-10"), ("2-10", "2-8"), ("2-8", "1-8"), ("1-8",), ("1-8",), ()],
    4: [Fraction(3), Fraction(2), Fraction(1), Fraction(1), Fraction(1), Fraction(1, 2)],
    5: [3, 2, 2, 1, 1, 1],
}


@pytest.mark.parametrize("track", sorted(DOCTRINE))
def test_14_3_every_track_and_die_roll_as_printed(track):
    assert [G.doctrine[track].result(die) for die in range(1, 7)] == DOCTRINE[track]


def test_14_3_release_notes_automatic_on_turn_4_on_contact_and_half_of_the_unreleased():
    assert G.release["automatic_turn"] == 4
    assert G.release["adjacent_american_releases"] is True
    assert G.release["half_of"] == "unreleased"


def test_14_3_track_3_every_turn_and_its_types_are_the_reinforcement_pool():
    named = {t for die in range(1, 7) for t in G.doctrine[3].result(die)}
    pool = {u.category for u in G.japanese("reinforcement")}
    assert named == pool == {"3-10", "2-10", "2-8", "1-8"}
    assert G.doctrine[3].roll == "doctrine-phase"


def test_14_3_track_4_a_militia_of_3_under_die_2_defends_at_6_oo_10():
    kagoshima = G.hex_named("Kagoshima")
    assert G.militia(kagoshima) == 3
    assert G.militia(kagoshima) * G.militia_factor(2) == 6
    assert G.doctrine[4].roll == "each-militia-in-combat"


def test_14_3_track_5_only_in_the_first_amphibious_assault_phase():
    assert G.doctrine[5].roll == "first-amphibious-assault"
    assert {G.tokko_table(d) for d in range(1, 7)} == set(G.tokko.tables) == {1, 2, 3}


# --- 14.4 the Tokko Results Tables ------------------------------------------------------------------------------

def test_14_4_tables_1_to_3_as_printed_with_no_effect_as_0():
    assert G.tokko.tables == {1: (100, 100, 100, 0, 0, 0), 2: (100, 100, 100, 100, 0, 0),
                              3: (300, 200, 100, 100, 0, 0)}


def test_14_4_table_4_names_the_six_southern_zones_in_order():
    assert [G.tokko.zone(d) for d in range(1, 7)] == ["tsuno", "miyazaki", "ariake", "osumi", "satsuma", "sendai"]
    assert G.tokko.by_identity == ("fukuoka", "imari")


def test_14_4_three_units_per_100_points_as_one_stack_from_one_hex_oo_2():
    assert [G.tokko.units_removed(p) for p in (100, 200, 300)] == [3, 6, 9]
    assert G.tokko.units_per_group == G.scenario["stacking"]["max_units"]  # a group is one full stack


def test_14_4_a_zone_with_no_americans_is_rolled_again_oo_3():
    assert set(G.tokko.reroll_when) == {"zone-empty", "zone-short"}
    assert G.tokko.permanent is True and G.tokko.extra_casualty_points == 0
    assert G.tokko.from_hex == "highest-identity"


def test_14_4_note_2326_is_higher_than_2325_and_both_are_on_the_map_oo_1():
    assert hex_identity(H("2326")) > hex_identity(H("2325"))
    assert hex_identity(H("2326")) == 2326
    assert G.map.on_map(H("2326")) and G.map.on_map(H("2325"))


@pytest.mark.parametrize("zone", ["tsuno", "miyazaki", "ariake", "osumi", "satsuma", "sendai", "fukuoka", "imari"])
def test_14_4_every_invasion_zone_is_sea_hexes_off_a_beach(zone):
    hexes = G.zone_hexes(zone)
    assert hexes
    assert all(not G.is_land(h) for h in hexes)
    assert G.beaches(zone)
    assert max(hexes, key=hex_identity) in hexes  # the highest identity hex is well defined in every zone


def test_14_4_the_six_table_zones_are_southern_kyushu_and_fukuoka_and_imari_are_northern():
    north_rows = max(h.row for z in G.tokko.by_identity for h in G.zone_hexes(z))
    for zone in G.tokko.zones:
        assert min(h.row for h in G.zone_hexes(zone)) > north_rows
        assert any(G.is_southern(b) for b in G.beaches(zone))


# --- 14.51-14.58 the Japanese movement priorities ---------------------------------------------------------------

def test_14_51_categories_move_slowest_and_weakest_first():
    assert G.priorities["movement"]["order"] == ["2-4", "3-4", "4-4", "1-8", "2-8", "2-10", "3-10"]
    on_map = {u.category for u in G.units if u.side == "japanese"}
    assert on_map == set(G.priorities["movement"]["order"])


def test_14_51_a_replacement_units_file_with_a_japanese_type_outside_the_seven_categories_is_refused(tmp_path,
                                                                                                   monkeypatch):
    # the programmed Japanese move category by category (14.51): a unit of an eighth type would never move
    first = 'id = "jp-212-1"\nside = "japanese"\nname = "212th Division, 1st regiment"\nclass = "coastal"\n' \
            'size = "regiment"\narm = "infantry"\nstrength = 3\n'
    text = data.UNITS.read_text()
    assert first in text
    (tmp_path / "units.toml").write_text(text.replace(first, first.replace("strength = 3", "strength = 5")))
    monkeypatch.setattr(data, "UNITS", tmp_path / "units.toml")
    with pytest.raises(DataError) as err:
        load()
    assert err.value.problems == ["jp-212-1: type 5-4 is not a 14.51 category (2-4, 3-4, 4-4, 1-8, 2-8, 2-10, "
                                  "3-10)"]


def test_14_52_routes_are_measured_in_movement_points():
    assert G.priorities["route"]["measure"] == "movement-points"


def test_14_53_primary_and_secondary_destinations():
    d = G.priorities["destinations"]
    assert (d["primary"], d["secondary"]) == ("vacant-adjacent-to-american", "vacant-adjacent-to-primary")


def test_14_54_terrain_preference_rough_city_town_clear_and_the_map_has_exactly_those():
    assert G.priorities["destinations"]["terrain_preference"] == ["rough", "city", "town", "clear"]
    land = {G.map.terrain_of(h) for h in G.map.hexes() if G.is_land(h)}
    assert land == {"rough", "city", "town", "clear"}
    assert [G.terrain_rank(G.hex_named(n)) for n in ("Kirishima", "Kagoshima", "Kushikino")] == [0, 1, 2]


def test_14_54_a_replacement_terrain_file_with_another_land_terrain_is_refused_naming_the_four(tmp_path,
                                                                                              monkeypatch):
    # the programmed Japanese rank destinations by exactly these four (14.54 A-D): a fifth has no rank
    text = data.TERRAIN.read_text() + "\n[terrain.swamp]\nmp = 3\nretreat_hexes = 1\nmilitia = 0\n"
    (tmp_path / "terrain.toml").write_text(text)
    monkeypatch.setattr(data, "TERRAIN", tmp_path / "terrain.toml")
    with pytest.raises(DataError) as err:
        load()
    assert err.value.problems == ["the land terrain types are rough, city, town, clear (14.54), not clear, rough, "
                                  "town, city, swamp"]


def test_14_55_to_14_57_tie_breaks():
    assert G.priorities["order_within_category"]["first"] == "nearest-to-destination"
    assert G.priorities["order_within_category"]["tie"] == "highest-hex-identity"
    assert G.priorities["destination_tie"]["tie"] == "highest-hex-identity"


def test_14_58_all_sea_hexsides_exist_and_block_movement_and_zoc():
    sides = G.map.hexsides_with("all-sea")
    assert sides
    kagoshima = G.hex_named("Kagoshima")
    side = next(s for s in sides if kagoshima in s.hexes())
    other = side.other(kagoshima)
    mover = Mover.single(kagoshima, float("inf"), "japanese")
    with pytest.raises(RuleViolation, match="Olympic 14.58"):
        step_cost(G.map, G.movement, mover, kagoshima, other)
    unit = Piece("us", "american", move_class="american")
    assert other not in zoc_hexes(G.map, kagoshima, [unit], G.zoc)
    assert G.priorities["destinations"]["unreachable"] == "ignored"


# --- sequence of play -------------------------------------------------------------------------------------------

def test_sequence_of_play_american_then_japanese_no_movement_on_turn_1_no_air_interdiction_solitaire():
    phases = [(p["phase"], p["player"]) for p in G.scenario["sequence"] if p.get("solitaire", True)]
    assert phases == [
        ("american-movement", "american"), ("american-amphibious-assault", "american"),
        ("american-combat", "american"), ("american-reinforcement", "american"),
        ("japanese-doctrine", "japanese"), ("japanese-movement", "japanese"), ("japanese-combat", "japanese"),
        ("game-turn-indication", "none"),
    ]
    assert G.scenario["sequence"][0]["skip_on_turn"] == 1
    skipped = {p["phase"] for p in G.scenario["sequence"] if p.get("solitaire") is False}
    assert skipped == {"american-air-interdiction", "air-interdiction-removal"}


# --- orders of battle, stacking, map ----------------------------------------------------------------------------

def test_14_3_the_japanese_are_coastal_line_and_reinforcement_units():
    assert all(G.japanese(k) for k in ("coastal", "line", "reinforcement"))
    assert all(u.setup is not None for k in ("coastal", "line") for u in G.japanese(k))
    assert all(G.is_coastal(u.setup) for u in G.japanese("coastal"))


def test_14_3_track_2_each_release_word_selects_some_line_units():
    line = G.japanese("line")
    groups = {
        "inland": [u for u in line if not G.is_coastal(u.setup)],
        "coastal": [u for u in line if G.is_coastal(u.setup)],
        "southern": [u for u in line if G.is_southern(u.setup)],
        "northern": [u for u in line if not G.is_southern(u.setup)],
    }
    assert all(groups.values())


def test_8_52_american_strengths_differ_and_an_american_4_exists_for_oo_8():
    strengths = {u.strength for u in G.american()}
    assert len(strengths) > 1 and 4 in strengths
    assert len(G.american(arrival=1)) >= G.tokko.units_per_group


def test_stacking_three_units_a_hex_implied_by_14_4_and_8_9():
    cap = G.scenario["stacking"]["max_units"]
    assert cap == G.crt_raw["exchange"]["advance_limit"] == 3
    three = [Piece(f"us{i}", "american") for i in range(3)]
    assert not overstacked(three, G.stacking)
    assert overstacked(three + [Piece("us3", "american")], G.stacking)[0].case == "Olympic ruling R14"


def test_map_geography_kagoshima_south_of_the_objective_line_kumamoto_north_sakurajima_joined_to_osumi():
    assert G.is_southern(G.hex_named("Kagoshima")) and G.map.terrain_of(G.hex_named("Kagoshima")) == "city"
    assert not G.is_southern(G.hex_named("Kumamoto"))
    sakurajima, kanoya = G.hex_named("Sakurajima"), G.hex_named("Kanoya")
    path = reach(G.map, G.movement, Mover.single(sakurajima, float("inf"), "japanese"), Situation())
    assert kanoya in path
    assert G.map.hexside_features(G.hex_named("Kagoshima"), H("1941")) == {"all-sea"}


def test_movement_costs_rough_2_others_1_reconstructed():
    mover = Mover.single(G.hex_named("Kagoshima"), 12, "american")
    rough = next(n for n in G.map.neighbours(mover.start) if G.map.terrain_of(n) == "rough"
                 and not G.map.hexside_features(mover.start, n))
    assert step_cost(G.map, G.movement, mover, mover.start, rough) == 2


# --- the files stand alone and are checked together -------------------------------------------------------------

def test_a_replacement_map_without_the_invasion_zones_is_refused_naming_every_problem():
    text = data.MAP.read_text().replace("zone-ariake = [", "zone-ariake-x = [")
    text = text.replace('"zone-imari", "south"', '"zone-imari", "zone-ariake-x", "south"')
    with pytest.raises(DataError) as err:
        load({"map": text})
    assert any("invasion zone 'ariake'" in p for p in err.value.problems)


def test_an_unknown_option_or_a_bad_custom_map_is_refused_with_a_clear_error(store):
    from app.service import games
    from app.service.games import GameError

    with pytest.raises(GameError, match="unknown option 'scenario'"):
        games.create_game(store, CATALOG, "olympic", options={"scenario": "x"})
    with pytest.raises(GameError, match="unknown tag 'zone-imari-2'"):
        games.create_game(store, CATALOG, "olympic", options={"map": data.MAP.read_text().replace("zone-ariake = [",
                                                                                       "zone-imari-2 = [")})
