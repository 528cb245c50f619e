"""Ichi-Go rules version 16 (session part 16; docs/rulings/ichigo-engine.md E56): the sequence of play walked phase
by phase. An order given where the sequence does not take it is refused by the case that forbids it there: the orders
only the other side gives (9.7 the Chinese reinforcements, 9.2 the withdrawal, 7.8 the Aerial Supply Marker, 11.17
the tank regiments...), an order of another moment of the turn (9.1 entries in Phase V, 9.7 the Chinese
reinforcements in Phase X, 8.1 the airpower roll opening Phase IV, 11.24 an advance after a battle) and, while a
decision is owed, any other order of its side (8.2: every airpower marker won is placed), as before a nation's
move/fight order is announced (5.5). A game created under version 15 names 5.1, as played."""
from ichigo_given import RULES, position, then

from tests.fuzzing import refusal

UNIT = "jp-cea-3div"


def said(state, side: str, text: str) -> tuple[str, str]:
    """The refusal of `text` now and in the same position of a game created under rules version 15."""
    return refusal(RULES, state, side, text), refusal(RULES, RULES.played_under(state, "15"), side, text)


def test_9_7_9_2_7_8_11_17_an_order_only_the_other_side_gives_names_the_case_that_says_whose_it_is():
    s = position({UNIT: "1902"}, turn=3, phase="V")
    now, before = said(s, "japanese", "reinforce")
    assert now == "Ichi-Go 9.7: the Allied player rolls for and places the Chinese reinforcements"
    assert before == ("Ichi-Go 5.1: 'reinforce' is not allowed now (Turn 3, Phase V (Japanese reinforcement)); "
                      "allowed: enter, absorb, end")
    assert said(s, "allied", "withdraw " + UNIT) == (
        "Ichi-Go 9.2: the Japanese player withdraws two divisions on Turn 5",
        "Ichi-Go 5.1: it is japanese's turn (Turn 3, Phase V (Japanese reinforcement)): 'withdraw' by allied is not "
        "allowed now")
    assert said(s, "japanese", "supply 1901")[0] == "Ichi-Go 7.8: the US Aerial Supply Marker is the Allies'"
    assert said(s, "allied", "commit 1")[0] == "Ichi-Go 11.17: the tank regiments are the Japanese player's"


def test_9_1_9_7_8_1_11_24_an_order_of_another_moment_of_the_turn_names_the_case_that_sets_it():
    moving = position({UNIT: "1902"}, turn=3, phase="VI")
    now, before = said(moving, "japanese", f"enter {UNIT} at 1901")
    assert now == ("Ichi-Go 9.1: Japanese reinforcements enter in Phase V (the Formosa Garrison and the Kwantung Army "
                   "after the Formosa landing, 5.3); 'enter' is not allowed now (Turn 3, Phase VI (Japanese movement "
                   "or combat) (move)); allowed: move, end")
    assert before.startswith("Ichi-Go 5.1: 'enter' is not allowed now (Turn 3, Phase VI")
    assert said(moving, "japanese", "stay")[0].startswith(
        "Ichi-Go 11.24: an advance after combat is decided right after a battle that empties the defender's hex; ")
    chinese = position({UNIT: "1902"}, turn=3, phase="VIII")
    assert said(chinese, "allied", "reinforce")[0].startswith(
        "Ichi-Go 9.7: the Chinese reinforcements are rolled for and placed in Phase X; 'reinforce' is not allowed now")
    air = position({}, turn=3, phase="IV")
    assert said(air, "japanese", "end") == (
        "Ichi-Go 8.1: both players roll at the start of the Airpower Phase; 'end' is not allowed now (Turn 3, Phase IV "
        "(Airpower)); allowed: roll",
        "Ichi-Go 5.1: 'end' is not allowed now (Turn 3, Phase IV (Airpower)); allowed: roll")


def test_8_2_while_the_airpower_markers_won_wait_to_be_placed_another_order_of_their_winner_names_8_2():
    s = then(position({}, phase="IV", turn=3), "japanese", "roll", rolls=[6, 2])       # 4 Japanese markers
    assert s.pending[0]["kind"] == "airpower"
    assert said(s, "japanese", "end") == (
        "Ichi-Go 8.2: all the airpower markers won are placed first; 'end' is not allowed now (Turn 3, japanese "
        "decision: airpower); allowed: air",
        "Ichi-Go 5.1: 'end' is not allowed now (Turn 3, japanese decision: airpower); allowed: air")
    assert said(s, "allied", "withdraw " + UNIT)[0] == "Ichi-Go 9.2: the Japanese player withdraws two divisions on " \
                                                       "Turn 5"


def test_5_5_before_a_nations_move_fight_order_is_announced_its_player_gives_no_other_order():
    s = position({UNIT: "1902"}, turn=3, phase="VI", plans={})
    now, before = said(s, "japanese", f"move {UNIT} to 1903")
    assert now == ("Ichi-Go 5.5: the japanese move/fight order is announced before its phases: `declare japanese "
                   "move-fight|fight-move` comes first; 'move' is not allowed now (Turn 3, Phase VI (Japanese movement "
                   "or combat): declare the japanese order); allowed: declare")
    assert before.startswith("Ichi-Go 5.1: 'move' is not allowed now")
