"""Formosa as players read it (issue 27): a step name says its side once, and a move written in the other games'
form (`move UNITS to HEX`) is refused with Formosa's own form, under its case."""
from formosa_given import given

from app.rules.formosa import GAME
from tests.fuzzing import refusal


def test_a_phase_names_its_side_once():
    assert GAME.prompt(given(step="japanese-combat")).step == \
        "Game-Turn 2: japanese combat phase"
    assert GAME.prompt(given(step="allied-movement")).step == "Game-Turn 2: allied movement phase"


def test_12_0_the_other_games_move_form_is_refused_showing_formosas():
    state = given(step="allied-movement", units={"us-7-17": "2715"})
    assert refusal(GAME, state, "allied", "move us-7-17 to 2716") == \
        "Formosa 12.0: a unit moves alone, along every hex it enters: 'move UNIT HEX [HEX ...]'"
