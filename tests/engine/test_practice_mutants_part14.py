"""Practice opponents' mutation survivors of session part 14 (docs/mutation-survivors.md, part 14), each killed by
what a player of a stored game would see its automated seat do."""
from __future__ import annotations

import pytest

from app.rules import practice
from app.rules.skirmish import GAME as SKIRMISH


def skirmish():
    return SKIRMISH.initial_state("standard", {})


@pytest.mark.parametrize("edition", [2, 7])
def test_a_stored_games_greedy_seat_before_edition_8_still_walks_its_own_units_toward_the_village(edition):
    """`practice.greedy` 30: greedy before edition 8 (the frozen greedy of games stored then) rates the listed
    orders as its own side sees and gives them; rated for no side, none of its units is its own, no move is worth
    giving, and the seat ends the step where it used to march three hexes onto the village."""
    state = skirmish()
    text, reason = practice.choose(SKIRMISH, "greedy", state, "red", settings={"edition": edition})
    assert text.startswith("move R") and text.endswith(" 0403")
    assert reason["rule"] == "move toward objectives" and reason["gain"] == 3
