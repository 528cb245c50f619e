"""Rows of docs/cases/ichigo.md whose fast tests passed with a mutant of the row's own code (issue 30's per-case
mutation report, `bench/mutation.py --cases`, after it charged each mutant to the case cited nearest its
statement), and of the pinned sample's survivors (`bench/mutation.py --packages ichigo --lines`): each test here
holds its row's rule where a player would notice it."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, fold, initial_state, of, position, then, when

from app.events.core import DieRolled
from app.rules.custom_setup import SetupError
from app.rules.ichigo import events as ev
from app.rules.ichigo.view import view
from tests.fuzzing import refusal


def test_3_5_units_a_landing_pushes_out_of_the_port_take_control_of_the_hex_they_are_moved_to():
    """5.3 item 12 (ruling E10): the Japanese division in the port 2719 is moved to 2818, an Allied city; entering
    it gives the Japanese its control (3.5)."""
    us = sorted(u.id for u in initial_state().units.values() if u.nation == "us" and u.id != "us-11ab")[:4]
    s = replace(position({"jp-cea-110div": "2719"}, turn=8, causeway=True, beachheads={"formosa": "3221"},
                         control=initial_state().jp_control - {"3221"}), phase="I")
    assert "2818" not in s.jp_control
    s = then(s, "allied", "land " + " ".join(us) + " at 2719 displace 2818")
    assert s.units["jp-cea-110div"].hex == "2818"
    assert "2818" in s.jp_control and "2719" not in s.jp_control


def test_6_2_a_position_with_six_japanese_units_in_a_hex_is_refused_as_a_position_naming_the_hex():
    six = ["jp-cea-1bde", "jp-cea-2bde", "jp-cea-4bde", "jp-cea-5bde", "jp-cea-6bde", "jp-cea-7bde"]
    with pytest.raises(SetupError) as refused:
        RULES.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "units": dict.fromkeys(six, "2011")}})
    [problem] = refused.value.problems
    assert problem.startswith("overstacked 2011: ") and "6 stacked in 2011, limit 5" in problem
    assert str(refused.value) == f"position: {problem}"


def test_10_18_a_chinese_strategic_move_is_refused_saying_the_chinese_never_use_it():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "1810", tried=True),))
    assert refusal(RULES, s, "allied", "move C01 to 1710 strategic") == \
        "Ichi-Go 10.18: Chinese units never use strategic movement"


def test_11_22_a_de_against_an_empty_japanese_city_destroys_its_intrinsic_garrison():
    """11.22 with 11.29: 9:1 against the garrison alone, city 1L -> 8:1, die 6: DE."""
    s = position({}, phase="VIII", plans={"chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-33", "1810", tried=True), chinese("C02", "cn-reg-02", "1810",
                                                                                  tried=True)))
    evs = when(s, "allied", "attack 1811 with C01 C02", rolls=[6])
    assert of(evs, ev.BattleResolved)[0].result == "DE"
    assert [e.describe() for e in of(evs, ev.GarrisonDestroyed)] == \
        ["the intrinsic garrison of 1811 is destroyed (11.29)"]
    assert "1811" in fold(s, *evs).garrison_lost


def test_3_5_both_sides_see_who_controls_each_watched_hex():
    s = position({"jp-cea-110div": "2010"})
    shown = view(s, "japanese")["control"]
    assert shown == view(s, "allied")["control"]
    assert (shown["0925"], shown["0119"]) == ("japanese", "allied")


def test_5_2_the_causeway_roll_and_the_airbase_modifiers_sign_say_what_each_die_is_for():
    """With every airbase Japanese, a second die gives the airbase modifier's sign (5.2)."""
    start = initial_state()
    s = replace(position({"jp-cea-110div": "0812"}, turn=7,
                         control=start.jp_control | set(start.data.feature("airbase"))), phase="start")
    assert [d.purpose for d in of(when(s, "allied", "roll", rolls=[3, 2]), DieRolled)] == [
        "Causeway or Philippines (5.2)", "sign of the airbase modifier (5.2)"]


def test_5_4_an_attack_on_the_38th_army_force_on_turn_1_is_refused_naming_its_hex():
    s = position({"jp-38a-21div": "0925"}, turn=1, phase="VIII", plans={"chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "0924", tried=True),))
    assert refusal(RULES, s, "allied", "attack 0925 with C01") == \
        "Ichi-Go 5.4: the 38th Army force in 0925 cannot be attacked on Turn 1"


def test_8_10_an_airlift_to_a_hex_that_is_not_a_friendly_city_is_refused_saying_city_to_city():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-02", "0712"),))
    assert refusal(RULES, s, "allied", "airlift C01 to 0713") == \
        "Ichi-Go 8.10: from one friendly-controlled city to another"


def test_9_5_absorbing_into_a_full_strength_division_is_refused_saying_what_absorption_needs():
    s = position({"jp-cea-110div": "1811", "jp-cea-3bde": "1811"}, phase="V")
    assert refusal(RULES, s, "japanese", "absorb jp-cea-3bde into jp-cea-110div") == \
        "Ichi-Go 9.5: a reduced division and an infantry brigade in the same hex"


def test_10_3_a_stack_named_from_two_hexes_is_refused_saying_it_must_start_in_one():
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2012"}, phase="VI", plans={"japanese": "move-fight"})
    assert refusal(RULES, s, "japanese", "move jp-cea-110div jp-cea-26div to 2011") == \
        "Ichi-Go 10.3: units moving together must start in one hex"


def japanese_attack_on_2011():
    """Three divisions against one Chinese unit in 2011, another Chinese unit in 2110; a 2 gives DE (11.22)."""
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010", "jp-cea-62div": "2012", "jp-cea-1bde": "2010"},
                 phase="VI", plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True), chinese("C02", "cn-reg-02", "2110",
                                                                                  tried=True)))
    return then(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div jp-cea-62div", rolls=[2])


def test_11_0_an_attacker_off_the_map_is_refused_naming_it():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True),))
    assert refusal(RULES, s, "japanese", "attack 2011 with jp-cea-110div jp-cea-3bde") == \
        "Ichi-Go 11.0: jp-cea-3bde is not a japanese unit on the map"


def test_11_3_a_unit_that_attacked_this_phase_is_refused_in_a_second_attack():
    s = then(japanese_attack_on_2011(), "japanese", "stay")
    assert refusal(RULES, s, "japanese", "attack 2110 with jp-cea-110div").startswith(
        "Ichi-Go 11.3: jp-cea-110div has already attacked this phase; ")  # and when it may again (E61)


def test_11_24_a_unit_that_did_not_attack_is_refused_in_the_advance_naming_the_attackers():
    assert refusal(RULES, japanese_attack_on_2011(), "japanese", "advance jp-cea-1bde") == \
        "Ichi-Go 11.24: only surviving attackers advance: jp-cea-110div, jp-cea-26div, jp-cea-62div"


def test_11_21_eliminating_a_division_while_the_other_has_two_steps_is_refused_with_the_whole_rule():
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    s = then(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[6])
    assert refusal(RULES, s, "japanese", "lose jp-cea-110div jp-cea-110div") == (
        "Ichi-Go 11.21: no Japanese or US division is eliminated while a unit of the battle has more than one step "
        "(11.21)")

