"""Rows of docs/cases/ichigo.md whose fast tests passed with a mutant of the row's own code (issue 30's per-case
mutation report, `bench/mutation.py --cases`, after it charged each mutant to the case cited nearest its
statement), and of the pinned sample's survivors (`bench/mutation.py --packages ichigo --lines`): each test here
holds its row's rule where a player would notice it."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, fold, initial_state, of, position, then, when

from app.rules.custom_setup import SetupError
from app.rules.ichigo import events as ev
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
