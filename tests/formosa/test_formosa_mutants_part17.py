"""Formosa case rows whose own tests killed none of their mutants in session part 17's per-case report
(docs/mutation-survivors.md, part 17), each now held by what the row's reader reads."""
from __future__ import annotations

import pytest
from formosa_map import position as placed

from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME
from tests.formosa.test_formosa_under_way import BB_ATTACK, BB_UNITS, position, refused


def test_15_8_1_a_position_holding_back_an_advance_never_offered_is_refused_naming_why():
    """`under_way._Story.play` 70: the problem of a combat stated `held` (the advance declined, ruling F130) at a
    stage before any advance was offered read "XXheld: ...XX"; no test read it. BB's losses are still owed."""
    said = position(BB_UNITS, {**BB_ATTACK, "stage": "losses", "result": "BB", "held": True})
    assert refused(said, "held") == ("position: [combat] held: no advance of this combat was offered before the "
                                     "stage (Formosa 15.8.1, ruling F130)")


def test_10_1_a_position_whose_stacks_at_sea_are_not_a_map_of_sea_hexes_is_refused_naming_the_form():
    """`custom._at_sea` 13: the problem of an `at_sea` given as a list read upper-cased; no test read it."""
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": placed(phase="invasion", at_sea=["1013"])})
    assert str(err.value) == ("position: [at_sea] maps all-sea hexes to the units on their amphibious marker "
                              "(10.1 item 3)")
