"""Rows of docs/cases/ichigo.md whose mapped tests passed with the row's enforcing line broken by hand (issue 30,
session part 10: each case-citing refusal of app/rules/ichigo cut, one at a time, only the row's tests run): each test
here fails with that line broken and holds its row's rule where a player would notice it (a refusal naming its case,
nothing done)."""
from dataclasses import replace

from ichigo_given import RULES, chinese, position

from tests.fuzzing import refusal
from tests.ichigo.test_ichigo_refusal_texts import _drawn, us_ids


def test_8_9_the_b29_marker_goes_only_on_a_japanese_controlled_city():
    s = replace(position({"jp-cea-110div": "2011"}, turn=3), phase="start")
    assert refusal(RULES, s, "allied", "b29 0119") == "Ichi-Go 8.9: 0119 is not a Japanese-controlled city"  # Chinese
    assert refusal(RULES, s, "allied", "b29 2009") == "Ichi-Go 8.9: 2009 is not a Japanese-controlled city"  # no city
    assert refusal(RULES, s, "allied", "b29 1901") is None


def test_7_8_the_aerial_supply_marker_goes_only_on_an_out_of_supply_us_stack():
    s = position({"us-1c": "2011"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)
    assert refusal(RULES, s, "allied", "supply 2012") == "Ichi-Go 7.8: 2012 holds no otherwise out-of-supply US stack"
    assert refusal(RULES, s, "allied", "supply 2011") is None


def test_8_10_an_airlift_goes_from_one_friendly_city_to_another_never_to_where_it_stands_or_a_plain_hex():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-02", "0712"), chinese("C02", "cn-reg-07", "0713")))
    city = "Ichi-Go 8.10: from one friendly-controlled city to another"
    assert refusal(RULES, s, "allied", "airlift C01 to 0712") == city  # where it stands
    assert refusal(RULES, s, "allied", "airlift C01 to 0714") == city  # no city
    assert refusal(RULES, s, "allied", "airlift C02 to 0119") == city  # from no city
    assert refusal(RULES, s, "allied", "airlift C01 to 0119") is None
    moved = replace(s, units={**s.units, "C01": replace(s.units["C01"], mp=2)})  # it has begun to move
    assert refusal(RULES, moved, "allied", "airlift C01 to 0119") == ("Ichi-Go 8.10: C01 may not be airlifted (militia "
                                                                      "never; US only the 11th Airborne; only a unit "
                                                                      "that has not moved)")


def test_11_29_the_11th_airborne_drops_on_no_hex_an_intrinsic_japanese_garrison_holds():
    s = position({"us-1c": "2011"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)
    assert refusal(RULES, s, "allied", "drop 2606") == \
        "Ichi-Go 11.29: 2606 holds an intrinsic Japanese garrison: attack it first (ruling E5)"
    assert refusal(RULES, s, "allied", "drop 2012") is None


def test_6_4_the_11th_airborne_drops_on_no_hex_chinese_units_hold():
    s = position({"us-1c": "2011"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True,
                 extra=(chinese("C01", "cn-reg-02", "2012"),))
    assert refusal(RULES, s, "allied", "drop 2012") == \
        "Ichi-Go 6.4: chinese and us units may not stack together in 2012"
    assert refusal(RULES, s, "allied", "drop 2013") is None


def test_5_3_the_formosa_landing_named_at_another_hex_is_refused():
    s = replace(position({}, turn=7, causeway=True), phase="I")
    land = "land " + " ".join(us_ids(2))
    assert refusal(RULES, s, "allied", land + " at 3220") == "Ichi-Go 5.3: the Formosa landing is at 3221"
    assert refusal(RULES, s, "allied", land + " at 3221") is None and refusal(RULES, s, "allied", land) is None


def test_5_3_nine_divisions_landing_at_once_are_refused_by_the_landing_s_limit():
    """The landing takes up to eight divisions (5.3 item 4): the refusal names the landing, not 6.4's stack."""
    s = replace(position({}, turn=7, causeway=True), phase="I")
    assert refusal(RULES, s, "allied", "land " + " ".join(us_ids(9))) == "Ichi-Go 5.3: up to 8 divisions land"


def test_6_4_a_us_reinforcement_landing_on_a_beachhead_holding_eight_us_divisions_is_refused():
    ids = us_ids(9)
    for ashore, answer in ((8, "Ichi-Go 6.4: US units: 9 stacked in 3221, limit 8"), (7, None)):
        s = position({u: "3221" for u in ids[:ashore]}, turn=9, phase="II", plans={"us": "move-fight"},
                     causeway=True, beachheads={"formosa": "3221"})
        assert refusal(RULES, s, "allied", f"land {ids[8]} at 3221") == answer


def test_10_11_a_naval_transfer_takes_us_units_of_one_beachhead_only():
    ids = us_ids(3)
    s = replace(position({ids[0]: "3221", ids[1]: "3221", ids[2]: "3222"}, turn=9, causeway=True,
                         beachheads={"formosa": "3221", "mainland": "1922"},
                         extra=(chinese("C01", "cn-reg-02", "3221"),)), phase="I")
    why = "Ichi-Go 10.11: US units that begin Phase I in one beachhead hex"
    assert refusal(RULES, s, "allied", f"transfer {ids[2]}") == why               # off the beachhead
    assert refusal(RULES, s, "allied", f"transfer {ids[0]} {ids[2]}") == why      # from two hexes
    assert refusal(RULES, s, "allied", "transfer C01") == why                     # a Chinese unit
    assert refusal(RULES, s, "allied", f"transfer {ids[0]}") is None


def test_5_4_the_38th_army_force_makes_no_attack_on_turn_1_and_may_from_turn_2():
    for turn, answer in ((1, "Ichi-Go 5.4: the 38th Army force never attacks on Turn 1"), (2, None)):
        s = position({"jp-38a-21div": "0925"}, turn=turn, phase="VI", plans={"japanese": "fight-move"},
                     extra=(chinese("C01", "cn-reg-02", "0924"),))
        assert refusal(RULES, s, "japanese", "attack 0924 with jp-38a-21div") == answer


def test_11_17_tank_regiments_support_no_chinese_attack_and_no_attack_on_formosa():
    s = position({"jp-cea-110div": "2010"}, phase="VIII", plans={"chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "2011"),))
    assert refusal(RULES, s, "allied", "attack 2010 with C01 tanks 1") == (  # rules version 18 (ruling E67)
        "Ichi-Go 11.17: tank regiments are Japanese and support Japanese attacks only: an Allied attack names no "
        "'tanks', not even 'tanks 0'")
    assert refusal(RULES, RULES.played_under(s, "17"), "allied", "attack 2010 with C01 tanks 1") == \
        "Ichi-Go 11.17: tank regiments support Japanese attacks only, never momentum"
    assert refusal(RULES, s, "allied", "attack 2010 with C01") is None
    s = position({"jp-cea-110div": "3222", "us-1c": "3221"}, turn=8, causeway=True)  # on Formosa
    assert refusal(RULES, s, "japanese", "attack 3221 with jp-cea-110div tanks 1") == (  # version 18 (ruling E67)
        "Ichi-Go 11.17: tank regiments fight on the mainland only: an attack on 3221, on Formosa, names no 'tanks', "
        "not even 'tanks 0'")
    assert refusal(RULES, RULES.played_under(s, "17"), "japanese", "attack 3221 with jp-cea-110div tanks 1") == \
        "Ichi-Go 11.17: tank regiments fight on the mainland only"
    assert refusal(RULES, s, "japanese", "attack 3221 with jp-cea-110div") is None


def test_10_0_a_us_unit_does_not_move_in_the_chinese_movement_phase():
    s = position({"us-1c": "2012"}, turn=8, phase="VIII", plans={"chinese": "move-fight", "us": "move-fight"},
                 causeway=True, extra=(chinese("C01", "cn-reg-02", "0712"),))
    assert refusal(RULES, s, "allied", "move us-1c to 2013") == \
        "Ichi-Go 10.0: us-1c moves only in its own nation's movement phase (5.1)"
    assert refusal(RULES, s, "allied", "move C01 to 0713") is None


def test_9_5_absorption_only_in_an_initially_japanese_controlled_city():
    why = "Ichi-Go 9.5: absorption only in an initially Japanese-controlled city"
    for hex_, answer in (("2010", why), ("1811", None)):
        s = position({"jp-cea-40div": hex_, "jp-cea-1bde": hex_}, phase="V", steps={"jp-cea-40div": 1})
        assert refusal(RULES, s, "japanese", "absorb jp-cea-1bde into jp-cea-40div") == answer


def test_9_7_only_a_counter_drawn_this_phase_is_placed():
    s, drawn = _drawn(extra=(chinese("C77", "cn-reg-02", "0919"),))
    assert refusal(RULES, s, "allied", "place C77 at 0716") == "Ichi-Go 9.7: C77 is not a counter drawn this phase"
    assert refusal(RULES, s, "allied", f"place {drawn} C77 at 0716") == \
        "Ichi-Go 9.7: C77 is not a counter drawn this phase"
    assert refusal(RULES, s, "allied", f"place {drawn} at 0716") is None


def test_5_5_a_nation_declares_its_order_only_before_its_own_phase():
    s = position({"jp-cea-110div": "2010"}, phase="VII", plans={})
    assert refusal(RULES, s, "japanese", "declare chinese move-fight") == \
        "Ichi-Go 5.5: the chinese order is not declared now"
    assert refusal(RULES, s, "japanese", "declare japanese move-fight") is None


def test_8_9_after_causeway_the_start_of_a_turn_ends_only_once_the_b29_roll_is_made():
    s = replace(position({"jp-cea-110div": "2010"}, turn=8, causeway=True), phase="start")
    assert refusal(RULES, s, "allied", "end") == "Ichi-Go 8.9: roll for the B-29 raid first"
    assert refusal(RULES, replace(s, b29_rolled=8), "allied", "end") is None


def test_5_3_phase_i_of_the_formosa_landing_turn_ends_only_after_the_landing():
    s = replace(position({}, turn=7, causeway=True), phase="I")
    assert refusal(RULES, s, "allied", "end") == "Ichi-Go 5.3: the US landing is mandatory this turn"
    assert refusal(RULES, replace(s, beachheads={"formosa": "3221"}), "allied", "end") is None
