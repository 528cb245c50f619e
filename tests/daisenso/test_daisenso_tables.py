"""Dai Senso CRT and Terrain Effects Chart checked against every fact chapter 4 states about them.

crt.toml and terrain.toml are reconstructions (rulings D3, D5, D7-D12 in docs/rulings/daisenso.md); the text's
facts are hard-coded here with their case.
"""

from __future__ import annotations

import pytest

from app.rules.daisenso.data_load import load
from app.rules.kernel.crt import CombatResult

D = load()
CRT = D.crt
COLUMNS = [c.label for c in CRT.columns()]


def score(r: CombatResult) -> float:
    """Ruling D3's score of a result for the attacker: hexes the defender retreats, 1.5 a step lost by the
    defender, -1.5 a step lost by the attacker, Ad -1, Ex -0.25."""
    value = r.defender.retreat + 1.5 * (r.defender.losses - r.attacker.losses)
    if r.attacker.retreat_or_loss:
        value -= 0.25 if r.exchange else 1
    return value


def test_4_2_2_step_3_the_columns_run_from_1_3_to_9_1():
    assert COLUMNS[0] == "1-3" and COLUMNS[-1] == "9-1"


def test_4_2_2_step_3_example_no_column_lies_between_2_1_and_3_1():
    assert COLUMNS.index("3-1") == COLUMNS.index("2-1") + 1


def test_4_2_2_design_note_exactly_two_columns_between_3_1_and_9_1():
    assert COLUMNS.index("9-1") - COLUMNS.index("3-1") == 3


@pytest.mark.parametrize("code", ["Dr3 0/1", "Dr1 0/1", "Ad 1/0"])
def test_4_2_5_3_4_2_6_1_4_2_8_the_results_the_examples_show_are_on_the_table(code):
    assert any(CRT.lookup(c, die).code == code for c in range(len(COLUMNS)) for die in CRT.dice)


def test_4_2_4_1_every_result_kind_is_on_the_table_and_retreats_read_as_retreats():
    codes = {t for c in range(len(COLUMNS)) for die in CRT.dice for t in CRT.lookup(c, die).code.split()}
    assert {"Ad", "Ex", "Dr1", "Dr2", "Dr3"} <= codes
    ad = CRT.notation.parse("Ad 1/0")
    assert (ad.attacker.retreat, ad.attacker.retreat_or_loss, ad.attacker.losses) == (1, True, 1)
    ex = CRT.notation.parse("Ex")
    assert ex.exchange and ex.attacker.retreat_or_loss and ex.defender.retreat == 0
    dr = CRT.notation.parse("Dr3 0/1")
    assert (dr.defender.retreat, dr.defender.losses, dr.attacker.losses) == (3, 1, 0)


def test_d3_the_reconstructed_table_is_monotone_in_odds_and_in_the_die():
    for die in CRT.dice:
        row = [score(CRT.lookup(c, die)) for c in range(len(COLUMNS))]
        assert row == sorted(row), f"die {die}: {row}"
    for c in range(len(COLUMNS)):
        column = [score(CRT.lookup(c, die)) for die in CRT.dice]
        assert column == sorted(column), f"column {COLUMNS[c]}: {column}"


def test_4_2_4_1_weather_weakens_every_dr_and_leaves_ex_ad_and_attrition_alone():
    for c in range(len(COLUMNS)):
        for die in CRT.dice:
            printed, weathered = CRT.lookup(c, die), CRT.lookup(c, die, conversion="weather")
            if printed.defender.retreat:
                assert weathered.defender.retreat == printed.defender.retreat - 1
                assert weathered.exchange == (printed.defender.retreat == 1)
            else:
                assert weathered == printed
            assert (weathered.attacker.losses, weathered.defender.losses) == (
                printed.attacker.losses, printed.defender.losses)


def test_4_2_3_the_shift_sources_each_move_one_column():
    assert {s: D.shift(s) for s in ("air", "airdrop", "armor", "fortress", "hq", "marines")} == dict.fromkeys(
        ("air", "airdrop", "armor", "fortress", "hq", "marines"), 1)
    assert D.tec["weather"]["mud"]["shift_left"] == 1  # 4.2.3.7
    assert D.tec["weather"]["storms"]["shift_left"] == D.tec["weather"]["snow"]["shift_left"] == 0


def test_4_2_3_8_city_1l_river_1l_mountain_no_lower_than_river_clear_0():
    tec = D.tec
    assert tec["features"]["city"]["shift_left"] == 1
    assert tec["hexsides"]["river"]["shift_left"] == 1
    assert tec["hexsides"]["mountain"]["shift_left"] >= tec["hexsides"]["river"]["shift_left"]
    assert tec["terrain"]["clear"]["shift_left"] == 0


def test_4_2_3_6_all_sea_hexside_is_two_left_so_a_marine_nets_one_left():
    assert D.shift("marines") - D.tec["hexsides"]["all-sea"]["shift_left"] == -1


def test_4_2_1_1_4_2_5_2_4_2_8_what_each_hexside_allows():
    hs = D.tec["hexsides"]
    assert hs["all-sea"]["attack"] == "marines" and not hs["all-sea"]["retreat"]
    assert hs["strait"]["retreat"] and D.tec["beachhead"]["retreat"] and D.tec["beachhead"]["attack"] == "yes"
    stops = {k for k, v in hs.items() if v.get("stops_exploitation")} | {"beachhead"}
    assert {"all-sea", "mountain", "strait", "beachhead"} <= stops and "river" not in stops
    hard = {k for k, v in hs.items() if v.get("hard_crossing")} | {"beachhead"}
    assert hard == {"strait", "mountain", "beachhead"}
    marine = {k for k, v in hs.items() if v.get("marine_crossing") and not v.get("all_sea")} | {"beachhead"}
    assert marine == {"strait", "beachhead"} and hs["all-sea"]["marine_crossing"]


def test_4_2_5_1_mountain_hexsides_stop_zoc():
    assert "mountain" in D.zoc.blocked_hexsides and "river" not in D.zoc.blocked_hexsides


def test_4_1_2_and_4_2_3_1_weather_stops_blitz_attacks_but_russians_in_snow_and_grounds_air_shifts():
    w = D.tec["weather"]
    assert all(w[k]["no_blitz_attack"] for k in ("mud", "storms", "snow"))
    assert w["snow"]["blitz_exception"] == "ussr" and "blitz_exception" not in w["mud"]
    assert D.countries[w["snow"]["blitz_exception"]].name == "Russia"
    assert w["mud"]["no_air_shift"] and w["storms"]["no_adjacent_air_shift"] and w["snow"]["no_adjacent_air_shift"]
    assert w["mud"]["no_exploitation_into"] and not w["storms"].get("no_exploitation_into")
