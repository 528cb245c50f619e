"""Rows of docs/cases/snc.md whose tests passed with a mutant of the row's own code (issue 30's per-case mutation
report, `bench/mutation.py --cases`, after it charged each mutant to the case cited nearest its statement)."""
import pytest
from snc_given import given, position, when

from app.rules.errors import IllegalOrder
from app.rules.snc import victory


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
