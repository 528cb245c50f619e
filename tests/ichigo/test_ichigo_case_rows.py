"""Rows of docs/cases/ichigo.md whose mapped tests passed with the row's own code broken (issue 30's per-case
mutation report, `bench/mutation.py --cases`): each test here holds its row's rule where a player would notice it."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, then, when
from test_ichigo_fidelity import reduced_division_in_kaifeng
from test_ichigo_limits import ring

from app.events.core import DieRolled
from app.rules.custom_setup import SetupError
from tests.fuzzing import refusal


def test_2_12_a_static_unit_ordered_to_move_is_refused_saying_it_never_moves():
    s = position({"cn-mil-yrd": "1309"}, phase="VIII", plans={"chinese": "move-fight"})
    assert refusal(RULES, s, "allied", "move cn-mil-yrd to 1308") == \
        "Ichi-Go 10.1: cn-mil-yrd is static and never moves (2.12)"


def test_7_0_a_chinese_unit_is_in_supply_even_cut_off_and_next_to_the_b29_marker():
    """7.0: the Chinese are always in supply; neither a B-29 marker beside them (8.9) nor any path halves them."""
    s = position({"jp-cea-110div": "2011"}, turn=8, phase="IX", plans={"chinese": "move-fight"}, b29_hex="2010",
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True),))
    shown = RULES.preview(s, RULES.parse("attack 2011 with C01", "allied", s))
    assert (shown["supply"], shown["attack"], shown["shifts"]) == ({"C01": "full"}, 4, [])


def test_7_3_the_preview_of_an_out_of_supply_attack_says_why_the_attack_is_halved_and_rounds_up():
    s = position({"jp-cea-40div": "2011"}, phase="VII", extra=ring("2011"))     # a 3-factor division, cut off
    shown = RULES.preview(s, RULES.parse("attack 2010 with jp-cea-40div", "japanese", s))
    assert shown["supply"] == {"jp-cea-40div": "oos"}
    assert shown["why"] == ["  attack: jp-cea-40div 3 x1/2 (out of supply, Ichi-Go 7.3) = 3/2",
                            "  attack total 3/2 rounded to 2"]


def test_8_9_a_japanese_unit_that_moves_through_the_b29_range_is_out_of_supply_after_leaving_it():
    s = replace(position({"jp-cea-110div": "2012"}, turn=3,                   # 4 hexes from Wuhan 2008
                         extra=(chinese("C01", "cn-reg-02", "2212", tried=True),)), phase="start")
    s = replace(then(s, "allied", "b29 2008"), phase="VI", plans={"japanese": "move-fight"})
    attack = "attack 2212 with jp-cea-110div"
    s = then(s, "japanese", "move jp-cea-110div to 2112 via 2011")           # 2011 is 3 hexes from it, 2112 four
    s = then(s, "japanese", "end")
    assert s.phase == "VII"
    assert RULES.preview(s, RULES.parse(attack, "japanese", s))["supply"] == {"jp-cea-110div": "oos"}


def test_9_2_the_history_says_which_withdrawn_division_leaves_the_game_and_which_goes_to_the_14aa_pool():
    s = position({"jp-cea-26div": "1901", "jp-cea-62div": "1901", "jp-cea-116div": "1812"}, phase="V", turn=5)
    [withdrawn] = of(when(s, "japanese", "withdraw jp-cea-26div jp-cea-62div"), ev.UnitsWithdrawn)
    assert withdrawn.describe() == \
        "withdrawn (9.2): jp-cea-26div leaves the game; jp-cea-62div goes to the 14AA pool"


def test_9_3_releasing_anything_but_two_formosa_garrison_divisions_is_refused_saying_what_to_name():
    s = position({}, phase="V", turn=9, causeway=False)
    for order in ("release jp-fg-9div", "release jp-fg-9div jp-cea-110div"):
        assert refusal(RULES, s, "japanese", order) == "Ichi-Go 9.3: name two Formosa Garrison divisions"


def test_9_5_from_rules_version_4_a_brigade_that_entered_this_phase_is_refused_naming_it():
    """Ruling E17 came with version 4: a game created under it refuses the absorption (version 3 absorbed it)."""
    s = RULES.played_under(reduced_division_in_kaifeng(), "4")
    assert refusal(RULES, s, "japanese", "absorb jp-cea-3bde into jp-cea-40div") == (
        "Ichi-Go 9.5: jp-cea-3bde entered this phase: the division and the brigade must both begin Phase V in the city")


def test_9_9_a_position_with_a_chinese_unit_on_formosa_is_refused_naming_the_unit_and_9_9():
    with pytest.raises(SetupError) as refused:
        RULES.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "units": {"cn-reg-05": "3221"}}})
    assert refused.value.problems == ["C01: Chinese units never enter Formosa (9.9)"]
    s = RULES.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "units": {"cn-reg-05": "2410"}}})
    assert [u.hex for u in s.units.values() if u.ref == "cn-reg-05"] == ["2410"]


def test_10_2_a_move_past_the_allowance_is_refused_naming_both_hexes_and_the_mp():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    assert refusal(RULES, s, "japanese", "move jp-cea-110div to 2710") == \
        "Ichi-Go 10.2: no legal path from 2010 to 2710 with 6 MP"


@pytest.mark.parametrize("version", ["3", RULES.version])
def test_10_17_a_stack_that_rolled_no_mp_keeps_that_roll_and_may_not_turn_strategic(version):
    """A Chinese stack rolls once as it starts to move (10.15): a 1 before Causeway is 0 MP, and a second order
    neither rolls again (also in a game created under rules version 3, before stacks shared one roll) nor chooses
    strategic movement now (10.17: chosen when the stack starts to move)."""
    s = RULES.played_under(position({"jp-cea-110div": "0812"}, phase="VIII", plans={"chinese": "move-fight"},
                                    extra=(chinese("C01", "cn-reg-02", "2010", tried=True),)), version)
    s = then(s, "allied", "move C01 to 2012 via 2011", rolls=[1])
    assert (s.units["C01"].hex, s.units["C01"].mp) == ("2010", 0)
    assert refusal(RULES, s, "allied", "move C01 to 2011") == "Ichi-Go 10.0: the unit in 2010 has no movement points"
    assert refusal(RULES, s, "allied", "move C01 to 2011 strategic") == \
        "Ichi-Go 10.17: strategic movement is chosen when a stack starts to move"


def test_11_0_an_attack_needs_an_enemy_unit_or_for_the_allies_an_intrinsic_garrison_in_the_target_hex():
    s = position({"jp-cea-110div": "2010"})
    assert refusal(RULES, s, "japanese", "attack 2011 with jp-cea-110div") == "Ichi-Go 11.0: 2011 holds no enemy unit"
    s = position({}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "1608", tried=True),))
    assert refusal(RULES, s, "allied", "attack 1607 with C01") == "Ichi-Go 11.0: 1607 holds no enemy unit"
    assert refusal(RULES, s, "allied", "attack 1609 with C01") is None                # the empty city's garrison


@pytest.mark.parametrize(("target", "attacker", "shift"), [
    ("2810", "2809", "1L (Ichi-Go 11.11: defender in rough)"),
    ("2809", "2808", "2L (Ichi-Go 11.12: defender in mountain)"),
    ("1210", "1209", "1L (Ichi-Go 11.14: defender in city)")])
def test_11_11_11_12_11_14_the_preview_names_the_defender_hexs_terrain_shift_and_its_case(target, attacker, shift):
    s = position({"jp-cea-110div": attacker}, extra=(chinese("C01", "cn-reg-02", target, tried=True),))
    assert RULES.preview(s, RULES.parse(f"attack {target} with jp-cea-110div", "japanese", s))["shifts"] == [shift]


def two_chinese_regiments_attacked_in_2011(roll: int) -> tuple:
    s = position({"jp-cea-110div": "2010", "jp-cea-3div": "2010"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),
                        chinese("C02", "cn-reg-03", "2011", tried=True)))
    return s, when(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-3div", rolls=[roll])


def test_11_19_the_combat_die_says_which_hex_it_is_rolled_for():
    _, events = two_chinese_regiments_attacked_in_2011(2)
    assert [e.purpose for e in of(events, DieRolled)] == ["combat on 2011 (11.19)"]


def test_11_20_after_a_1_1_the_defender_is_asked_first_to_lose_a_step_in_the_defending_hex():
    s, events = two_chinese_regiments_attacked_in_2011(2)
    assert of(events, ev.BattleResolved)[0].result == "1/1"
    prompt = RULES.prompt(fold(s, *events))
    assert prompt.side == "allied"
    assert (prompt.owed.what, prompt.owed.where) == (
        "lose 1 step(s) (Ichi-Go 11.20-11.23; name a unit twice for two steps)", "2011")


def test_11_28_the_1st_sf_group_named_before_it_arrives_is_refused_by_11_28():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    assert refusal(RULES, s, "japanese", "attack 2011 with jp-cea-110div sf") == \
        "Ichi-Go 11.28: the 1st SF Group is not available for this attack"
