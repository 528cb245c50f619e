"""Ichi-Go refusals read in full: each names its case and says what is wrong with the order, in the words the
player reads (mutation survivors of issue 19: a refusal's case or reason could change unnoticed)."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, fold, position, then, when
from test_ichigo_engine import us_ids

from app.rules.ichigo import reinforcements
from tests.fuzzing import refusal

BEACHHEADS = {"formosa": "3221", "mainland": "1922"}


def test_9_8_only_us_divisions_waiting_to_land_may_land():
    s = replace(position({"jp-cea-110div": "2010"}, turn=7, causeway=True), phase="I")
    assert refusal(RULES, s, "allied", "land jp-cea-110div") == "Ichi-Go 9.8: only US divisions waiting to land"


def test_8_11_a_us_reinforcement_lands_at_a_beachhead_and_nowhere_else():
    s = position({}, turn=9, phase="II", plans={"us": "move-fight"}, causeway=True, beachheads=BEACHHEADS)
    late = us_ids(10)[9]
    assert refusal(RULES, s, "allied", f"land {late} at 2011") == \
        "Ichi-Go 8.11: US reinforcements land at a beachhead"
    assert refusal(RULES, s, "allied", f"land {late} at 1922") is None


def test_6_4_a_naval_transfer_into_a_full_beachhead_is_refused_with_the_us_limit():
    ids = us_ids(9)
    s = replace(position({**{u: "1922" for u in ids[:8]}, ids[8]: "3221"}, turn=9, causeway=True,
                         beachheads=BEACHHEADS), phase="I")
    assert refusal(RULES, s, "allied", f"transfer {ids[8]}") == "Ichi-Go 6.4: US units: 9 stacked in 1922, limit 8"


def test_11_8_a_us_division_does_not_attack_in_the_chinese_combat_phase():
    us = us_ids(1)[0]
    s = position({us: "2010", "jp-cea-110div": "2011"}, turn=8, phase="VIII", causeway=True,
                 plans={"chinese": "fight-move", "us": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "2012", tried=True),))
    assert refusal(RULES, s, "allied", f"attack 2011 with C01 {us}") == \
        f"Ichi-Go 11.8: {us}: only chinese units attack in this phase"


def test_11_17_committing_more_tank_regiments_than_the_defence_allows_names_the_range():
    s = position({"jp-cea-110div": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    s = then(s, "allied", "attack 2011 with C01 C02")
    assert refusal(RULES, s, "japanese", "commit 2") == "Ichi-Go 11.17: commit 0 to 1 tank regiments"


def test_10_0_only_a_unit_on_the_map_moves():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    assert refusal(RULES, s, "japanese", "move jp-cea-3bde to 2011") == \
        "Ichi-Go 10.0: jp-cea-3bde is not a japanese unit on the map"


def test_5_1_a_us_unit_does_not_move_in_the_chinese_movement_phase():
    us = us_ids(1)[0]
    s = position({us: "2010", "jp-cea-110div": "0812"}, turn=8, phase="VIII", causeway=True,
                 plans={"chinese": "move-fight", "us": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2012", tried=True),))
    assert refusal(RULES, s, "allied", f"move {us} to 2009") == \
        f"Ichi-Go 10.0: {us} moves only in its own nation's movement phase (5.1)"


@pytest.mark.parametrize("unit", ["jp-cea-110div", "jp-cea-11bde"])   # on the map; due on Turn 3
def test_9_1_only_a_reinforcement_due_this_turn_enters(unit):
    s = position({"jp-cea-110div": "2010"}, phase="V")
    assert refusal(RULES, s, "japanese", f"enter {unit} at 1901") == \
        f"Ichi-Go 9.1: {unit} is not a reinforcement available this turn"


def test_6_0_reinforcements_entering_a_hex_past_the_japanese_limit_are_refused():
    s = position({b: "1901" for b in ("jp-cea-1bde", "jp-cea-2bde", "jp-cea-4bde", "jp-cea-5bde")}, phase="V")
    assert refusal(RULES, s, "japanese", "enter jp-cea-3bde jp-cea-27div at 1901") == \
        "Ichi-Go 6.2: Japanese units: 6 stacked in 1901, limit 5"                  # the limit's case (E42)
    assert refusal(RULES, s, "japanese", "enter jp-cea-3bde at 1901") is None
    assert refusal(RULES, RULES.played_under(s, "9"), "japanese", "enter jp-cea-3bde jp-cea-27div at 1901") == \
        "Ichi-Go 6.0: Japanese units: 6 stacked in 1901, limit 5"                  # rules version 9, as played


def _drawn(extra=(), **kw):
    s = position({}, phase="X", extra=extra, **kw)
    s = fold(s, *when(s, "allied", "reinforce", rolls=[1, 1]))
    return s, reinforcements.drawn(s)[0]


def test_6_3_a_drawn_counter_is_not_placed_in_a_city_holding_four_chinese_units():
    s, h = _drawn(extra=tuple(chinese(f"C9{i}", f"cn-reg-1{i}", "0712", tried=True) for i in range(4)))
    assert refusal(RULES, s, "allied", f"place {h} at 0712") == "Ichi-Go 6.3: Chinese units: 5 stacked in 0712, limit 4"
    assert refusal(RULES, s, "allied", f"place {h} at 0716") is None


def test_9_7_a_drawn_counter_is_not_placed_in_a_chinese_city_the_japanese_took():
    s, h = _drawn()
    taken = replace(s, jp_control=s.jp_control | {"0716"})                   # empty, but Japanese controlled
    assert refusal(RULES, taken, "allied", f"place {h} at 0716") == \
        "Ichi-Go 9.7: 0716 is not an initially Chinese city still under Chinese control"
    assert refusal(RULES, s, "allied", f"place {h} at 0716") is None


def test_5_2_the_turn_of_the_causeway_roll_does_not_start_without_it():
    s = replace(position({}, turn=7), phase="start")
    assert refusal(RULES, s, "allied", "end") == "Ichi-Go 5.2: roll on the Causeway or Philippines Table first"
    s = then(s, "allied", "roll", rolls=[1])                                   # the Philippines: no B-29 roll
    assert refusal(RULES, s, "allied", "end") is None


def test_9_4_a_14aa_unit_does_not_land_on_formosa_next_to_a_us_unit():
    s = position({us_ids(1)[0]: "3221"}, turn=8, phase="V", causeway=True, beachheads={"formosa": "3221"})
    units = dict(s.units)
    units["jp-14aa-100div"] = replace(units["jp-14aa-100div"], status="landing")   # survived its shipment
    s = replace(s, units=units)
    for coast in ("3220", "3222", "3321"):                                     # Formosa coast next to 3221
        assert refusal(RULES, s, "japanese", f"enter jp-14aa-100div at {coast}") == \
            f"Ichi-Go 9.4: jp-14aa-100div may not enter at {coast}"
    assert refusal(RULES, s, "japanese", "enter jp-14aa-100div at 3320") is None   # two hexes away


def test_9_4_ruling_e35_a_14aa_unit_lands_at_a_japanese_mainland_port_even_next_to_a_us_unit():
    s = position({us_ids(1)[0]: "3105"}, turn=8, phase="V", causeway=True, beachheads={"formosa": "3221"})
    units = dict(s.units)
    units["jp-14aa-100div"] = replace(units["jp-14aa-100div"], status="landing")   # survived its shipment
    s = replace(s, units=units)
    assert "3105" in s.data.neighbours("3106") and "3106" in s.jp_control      # Shanghai, a US unit next to it
    s = then(s, "japanese", "enter jp-14aa-100div at 3106")
    assert s.units["jp-14aa-100div"].hex == "3106"


def test_11_2_an_attack_on_two_hexes_is_refused_by_the_rule_not_the_parser():
    """Issue 30: the form is read, and the rule that forbids it refuses it, naming its case."""
    s = position({"jp-cea-110div": "2011"}, phase="VI", plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    assert refusal(RULES, s, "japanese", "attack 2010 2012 with jp-cea-110div") == \
        "Ichi-Go 11.2: only one hex may be the object of an attack: attack each hex by its own order"


def test_11_28_the_1st_sf_ordered_into_a_defence_is_refused_by_its_rule():
    s = position({"jp-cea-110div": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    s = then(s, "allied", "attack 2011 with C01 C02")
    for text in ("commit 1 sf", "commit sf"):
        assert refusal(RULES, s, "japanese", text) == \
            "Ichi-Go 11.28: the 1st SF never supports a defence, only an attack"


def test_8_10_an_airlift_of_two_units_is_refused_by_the_one_unit_capacity_not_the_parser():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-02", "0712"), chinese("C02", "cn-reg-07", "0712")))
    assert refusal(RULES, s, "allied", "airlift C01 C02 to 0119") == \
        "Ichi-Go 8.10: the airlift carries one unit a turn: name one unit"
    assert refusal(RULES, s, "allied", "airlift C01 to 0119") is None


def test_8_9_a_b29_raid_on_two_cities_is_refused_by_its_one_marker():
    s = replace(position({"jp-cea-110div": "2011"}, turn=3), phase="start")
    assert refusal(RULES, s, "allied", "b29 2008 1901") == "Ichi-Go 8.9: there is one B-29 marker: place it on one city"
    assert refusal(RULES, s, "allied", "b29 2008") is None


def test_7_8_8_11_the_aerial_supply_marker_and_the_airdrop_each_take_one_hex():
    u = us_ids(1)[0]
    s = position({u: "2011"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)
    assert refusal(RULES, s, "allied", "supply 2011 2012") == \
        "Ichi-Go 7.8: there is one US Aerial Supply Marker: it supplies the US units of one hex"
    assert refusal(RULES, s, "allied", "drop 2012 2013") == \
        "Ichi-Go 8.11: the 11th Airborne makes one airdrop, into one hex"
    assert refusal(RULES, s, "allied", "supply 2011") is None and refusal(RULES, s, "allied", "drop 2012") is None


def test_9_5_two_brigades_absorbed_into_one_division_are_refused_by_the_one_flip_not_the_parser():
    s = position({"jp-cea-40div": "1811", "jp-cea-1bde": "1811", "jp-cea-3bde": "1811"}, phase="V",
                 steps={"jp-cea-40div": 1})
    assert refusal(RULES, s, "japanese", "absorb jp-cea-1bde jp-cea-3bde into jp-cea-40div") == \
        "Ichi-Go 9.5: one brigade flips a reduced division to full strength: absorb one brigade at a time"
    assert refusal(RULES, s, "japanese", "absorb jp-cea-1bde into jp-cea-40div") is None
