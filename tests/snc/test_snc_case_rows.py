"""Rows of docs/cases/snc.md whose mapped tests passed with the row's own code broken (issue 30's per-case mutation
report, `bench/mutation.py --cases`): each test here holds its row's rule where a player would notice it."""
from dataclasses import replace

import pytest
from snc_given import given, position, then

from app.rules.errors import IllegalOrder
from app.rules.snc import GAME as RULES
from tests.fuzzing import refusal


def test_11_3_the_chinese_player_is_told_the_air_marker_may_be_intercepted_and_what_each_die_does():
    s = then(position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7), "japanese",
             "attack 2606 with d11-r12 support air")
    prompt = RULES.prompt(s)
    assert prompt.side == "chinese"
    assert prompt.owed.what == ("the Japanese air marker supports this attack: intercept it with the Chinese air "
                                "force, or pass (SNC 11.3: a 6 aborts the marker, a 1 loses the Chinese air force)")
    assert prompt.owed.where == "2606"


def test_6_2_eliminating_too_few_units_of_an_overstacked_hex_is_refused_naming_the_hex_and_6_2():
    """Ruling R13: three detachments in one hex are two too many; eliminating one leaves 3409 over 6.2's limit."""
    s = position({"jp-det-shigeto": "3409", "jp-det-asama": "3410", "jp-det-amaya": "3410", "cn-d57": "3612",
                  "jp-snlf-1": "3512"}, plan=("move", "fight"))
    s = then(s, "japanese", "move det-asama det-amaya to 3409")
    s = then(s, "japanese", "end")
    assert RULES.prompt(s).owed.where == "3409"
    with pytest.raises(IllegalOrder) as refused:
        then(s, "japanese", "eliminate det-asama")
    assert refused.value.case == "SNC 6.2"
    assert str(refused.value) == "SNC 6.2: 3409 would still be over the stacking limit"


D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]


@pytest.mark.parametrize(("version", "refused"), [("2", True), ("3", False), ("5", False)])
def test_8_5_a_marker_used_in_the_first_operations_phase_bars_others_in_the_reinforcement_phase_before_version_3_only(
        version, refused):
    """Ruling E13: a game created under rules version 2 lets no marker follow one used in the First Operations
    Phase; from version 3 only the marker used there is spent (8.5)."""
    s = position({"jp-d11-r12": "3409", "cn-gar-c": "3408", "cn-gar-wusong": "3510", "cn-d57": "3612",
                  "jp-snlf-1": "3512"}, turn=2, pool=tuple(D3))
    s = then(RULES.played_under(s, version), "japanese", "attack 3408 with d11-r12 support artillery", rolls=[6])
    s = then(s, "japanese", "stay") if s.pending else s
    s = then(s, "japanese", "end")
    landing = "land " + " ".join(D3) + " at 3510 support naval amphibious"
    if refused:
        with pytest.raises(IllegalOrder) as refusal:
            then(s, "japanese", landing, rolls=[6])
        assert str(refusal.value) == ("SNC 8.5: markers were used in the First Operations Phase: none in the "
                                      "Reinforcement Phase too")
    else:
        naval = s.markers_available("japanese", "naval")
        assert then(s, "japanese", landing, rolls=[6]).markers_available("japanese", "naval") == naval - 1


def test_11_2_interdiction_refuses_fewer_combat_factors_than_the_roll_saying_how_many_were_named():
    s = then(replace(given(), turn=4, phase="reinf", plan=("move", "move")), "chinese", "proceed", rolls=[3])
    assert s.pending[0]["data"]["roll"] == 3
    assert refusal(RULES, s, "chinese", "remove d8") == "SNC 11.2: 2 combat factors named; the roll was 3"
    assert refusal(RULES, s, "chinese", "remove d9") is None
