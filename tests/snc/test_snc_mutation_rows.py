"""Rows of docs/cases/snc.md whose tests passed with a mutant of the row's own code (issue 30's per-case mutation
report, `bench/mutation.py --cases`, after it charged each mutant to the case cited nearest its statement)."""
from dataclasses import replace

import pytest
from snc_given import RULES, fold, given, of, position, then, when

from app.events.core import DieRolled
from app.rules.errors import IllegalOrder
from app.rules.snc import victory
from app.rules.snc.view import view
from tests.fuzzing import refusal

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]


def test_3_2_both_sides_see_who_controls_each_city():
    s = given()
    shown = view(s, "chinese")["control"]
    assert shown == view(s, "japanese")["control"]
    assert (shown["3512"], shown["0202"]) == ("japanese", "chinese")


def test_5_0_the_share_of_the_game_run_out_is_none_on_gt_1_and_grows_by_a_twelfth_each_gt():
    """5.0: twelve Game-Turns; the search weighs the victory conditions more as they run out (its `progress`)."""
    assert victory.progress(given()) == 0.0
    assert victory.progress(position({"cn-d87": "3511"}, turn=7)) == 0.5
    assert victory.progress(position({"cn-d87": "3511"}, turn=12)) == 11 / 12


def test_11_1_two_markers_of_one_kind_in_an_attack_are_refused_saying_one_of_each_kind():
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7)
    with pytest.raises(IllegalOrder) as refused:
        when(s, "japanese", "attack 2606 with d11-r12 support artillery artillery")
    assert str(refused.value) == "SNC 11.1: one marker of each kind at most per attack"


def test_8_1_a_returning_elite_and_a_new_reinforcement_in_one_place_order_are_refused_saying_to_split_them():
    """cn-d87 eliminated on GT 4 with a 4 returns on GT 8 (8.1); cn-d46, due since GT 6, arrives at 0102, next to
    Nanking, where the elite may return too."""
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-d87": "3410", "cn-d57": "3612"}, turn=4,
                 steps={"cn-d87": 1}, pool=("cn-d46",))
    s = fold(s, *when(s, "japanese", "attack 3410 with 3409", rolls=[6, 4]))
    s = replace(s, turn=8, side="chinese", phase="reinf", pending=(), battle=None)
    assert refusal(RULES, s, "chinese", "place d87 d46 at 0102") == \
        "SNC 8.1: place returning elites and new reinforcements by separate orders"
    assert {u.hex for u in then(s, "chinese", "place d46 at 0102").units.values() if u.id == "cn-d46"} == {"0102"}


def test_8_3_a_replacement_left_unused_is_lost_once_a_landing_is_made():
    s = position({"cn-gar-wusong": "3510", "cn-d57": "3612", "jp-snlf-1": "3512", "jp-d11-r12": "3409"}, turn=2,
                 phase="reinf", pool=tuple(D3), steps={"jp-d11-r12": 1})
    s = replace(s, replacements=1)
    assert [a.name for a in RULES.prompt(s).actions] == ["replace", "land", "end"]
    s = then(s, "japanese", "land " + " ".join(D3) + " at 3510", rolls=[6])
    assert s.replacements == 0 and [a.name for a in RULES.prompt(s).actions] == ["land", "end"]


def test_8_5_a_marker_used_in_the_first_operations_phase_is_refused_in_the_reinforcement_phase_saying_why():
    s = position({"jp-d11-r12": "3409", "cn-gar-c": "3408", "cn-gar-wusong": "3510", "cn-d57": "3612",
                  "jp-snlf-1": "3512"}, turn=2, pool=tuple(D3))
    s = then(s, "japanese", "attack 3408 with d11-r12 support artillery", rolls=[6])
    s = then(then(s, "japanese", "stay") if s.pending else s, "japanese", "end")
    assert refusal(RULES, s, "japanese", "land " + " ".join(D3) + " at 3510 support artillery") == (
        "SNC 8.5: every artillery marker was used in the First Operations Phase or already in this one; a marker is "
        "used in the First Operations Phase or the Reinforcement Phase, not both")


def test_10_2_a_static_unit_named_in_an_attack_is_refused_saying_it_never_attacks():
    s = position({"cn-gar-c": "3408", "jp-d11-r12": "3409", "jp-snlf-1": "3512"}, turn=2, side="chinese")
    assert refusal(RULES, s, "chinese", "attack 3409 with cn-gar-c") == \
        "SNC 10.2: cn-gar-c is a static unit and never attacks"


def test_11_0_amphibious_support_in_an_attack_over_land_is_refused_saying_it_is_for_assaults_only():
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7)
    assert refusal(RULES, s, "japanese", "attack 2606 with d11-r12 support amphibious") == \
        "SNC 11.0: amphibious invasion support is for amphibious assaults only"


def test_11_2_the_interdiction_die_says_what_it_is_rolled_for():
    evs = when(replace(given(), turn=4, phase="reinf", plan=("move", "move")), "chinese", "proceed", rolls=[3])
    assert [d.purpose for d in of(evs, DieRolled)] == ["SNC 11.2 Japanese air interdiction"]
