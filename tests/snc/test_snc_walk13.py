"""SNC rules version 13 (session part 16; docs/rulings/snc-engine.md E25, docs/rulings/snc.md R38): the sequence of
play walked step by step. An order given where the sequence does not take it is refused by the case that forbids it
there: nothing before the player turn's declaration (5.3), the orders only the other side gives (8.1: the Chinese
receive no replacements; 8.2/8.4: Chinese reinforcements are placed, Japanese ones land; 9.6, 11.1, 11.2, 11.3), a
decision's order with no decision owed (10.5.3, 10.5.2, 6.0, 11.2) and any other order while one is (10.1, 6.0).
A game created under version 12 names 5.1, as played. Also 8.3: a reduced detachment takes a replacement step."""
from dataclasses import replace

from snc_given import RULES, position, then

from tests.fuzzing import refusal

BASE = {"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d3-r6": "3409", "cn-d7": "3309"}


def said(state, side: str, text: str) -> tuple[str, str]:
    """The refusal of `text` now and in the same position of a game created under rules version 12."""
    return refusal(RULES, state, side, text), refusal(RULES, RULES.played_under(state, "12"), side, text)


def test_5_3_before_the_declaration_of_his_player_turn_a_player_may_give_no_other_order():
    s = position(BASE, turn=4, side="japanese", phase="declare", plan=())
    for text in ("move d3-r6 to 3509", "attack 3309 with d3-r6", "end"):
        now, before = said(s, "japanese", text)
        assert now == ("SNC 5.3: prior to the start of his player turn the player announces what each Operations "
                       "Phase is for: `declare move|fight move|fight` comes first")
        assert before.startswith(f"SNC 5.1: '{text.split()[0]}' is not allowed now (GT 4, japanese phase-order "
                                 "declaration); allowed: declare")


def test_8_1_8_2_8_4_an_order_only_the_other_side_gives_names_the_case_that_says_whose_it_is():
    chinese = replace(position(BASE, turn=4, side="chinese", phase="reinf", plan=("move", "move"), pool=("cn-d9",)),
                      interdicted=4)
    assert said(chinese, "chinese", "replace d57") == (
        "SNC 8.1: the Chinese player receives no replacements; an eliminated elite unit comes back by the Turn Record "
        "Track",
        "SNC 5.1: 'replace' is not allowed now (GT 4, chinese Reinforcement Phase); allowed: place, rail, move, end")
    assert said(chinese, "chinese", "land d9 at 3408")[0] == (
        "SNC 8.2: Chinese reinforcements are placed in their listed hex or on a railroad hex; only Japanese "
        "reinforcements land (8.4)")
    assert said(chinese, "chinese", "overrun 3409 with d57")[0] == "SNC 9.6: only the Japanese overrun"
    japanese = replace(position(BASE, turn=4, side="japanese", phase="reinf", plan=("move", "move"),
                                pool=("jp-d9-r7",)), replacements=2)
    now, before = said(japanese, "japanese", "place d9-r7 at 3408")
    assert now == "SNC 8.4: Japanese reinforcements arrive by amphibious landing: `land UNITS at HEX`"
    assert before.startswith("SNC 5.1: 'place' is not allowed now (GT 4, japanese Reinforcement Phase)")
    assert said(japanese, "japanese", "retreat to 3510")[0] == (
        "SNC 8.4: only the Chinese survivors of a landing retreat")
    fighting = position(BASE, turn=4, side="chinese", plan=("fight", "fight"))
    assert said(fighting, "chinese", "replace d57")[0].startswith("SNC 8.1: the Chinese player receives no "
                                                                  "replacements")
    assert said(fighting, "chinese", "support naval")[0] == (
        "SNC 11.1: only the Japanese naval gunfire markers support a defence")


def test_10_5_3_6_0_10_5_2_a_decisions_order_given_with_none_owed_names_the_moment_that_asks_for_it():
    s = position(BASE, turn=4, side="japanese", plan=("fight", "fight"))
    now, before = said(s, "japanese", "stay")
    assert now == ("SNC 10.5.3: an advance after combat is decided right after a battle that leaves the defender's "
                   "hex empty, and by its attacker; 'stay' is not allowed now (GT 4, japanese First Operations Phase "
                   "(fight)); allowed: attack, end")
    assert before == ("SNC 5.1: 'stay' is not allowed now (GT 4, japanese First Operations Phase (fight)); allowed: "
                      "attack, end")
    assert said(s, "japanese", "eliminate d3-r6")[0].startswith(
        "SNC 6.0: units are eliminated when a check finds their hex over the stacking limits; 'eliminate' is not "
        "allowed now")
    assert said(s, "japanese", "lose d3-r6")[0].startswith(
        "SNC 10.5.2: steps are lost when a battle's result leaves their owner a choice of units")


def test_10_1_6_0_while_a_decision_is_owed_any_other_order_of_its_side_names_the_case_that_puts_it_first():
    battle = then(position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7), "japanese",
                  "attack 3408 with d3-r6 support air")
    assert battle.pending[0]["kind"] == "intercept"
    assert said(battle, "chinese", "attack 3409 with d87") == (
        "SNC 10.1: the battle at 3408 is resolved before another order is given; 'attack' is not allowed now (GT 7, "
        "chinese decision: intercept); allowed: intercept, pass",
        "SNC 5.1: 'attack' is not allowed now (GT 7, chinese decision: intercept); allowed: intercept, pass")
    assert said(battle, "japanese", "end")[0].startswith("SNC 5.1: it is chinese's turn")  # the side not acting
    over = then(position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2707", "cn-b20": "2707", "cn-d57": "3612"},
                         turn=7, side="chinese", plan=("move", "move")), "chinese", "end")
    assert over.pending[0]["kind"] == "overstack"
    assert said(over, "chinese", "move d57 to 3613")[0] == (
        "SNC 6.0: 2707 is brought within the stacking limits first; 'move' is not allowed now (GT 7, chinese "
        "decision: overstack); allowed: eliminate")


def test_8_3_r38_a_reduced_detachment_takes_a_replacement_step_as_a_regiment_does():
    """8.3 rebuilds "reduced regiments"; 2.2.1 lets every reduced Japanese unit regain its step by replacement, and
    8.3's own designer's note replaces SNLF battalions: a detachment (the fifth unit of a stack as a regiment is,
    ruling R13) takes one (ruling R38)."""
    s = replace(position({"jp-det-shigeto": "3409", "jp-d3-r6": "3409", "jp-snlf-1": "3512", "cn-d57": "3612"},
                         turn=4, phase="reinf", plan=("move", "move"), steps={"jp-det-shigeto": 1, "jp-d3-r6": 1}),
                replacements=2)
    s = then(s, "japanese", "replace det-shigeto d3-r6")
    assert (s.units["jp-det-shigeto"].steps, s.units["jp-det-shigeto"].cf, s.units["jp-d3-r6"].steps,
            s.replacements) == (2, 3, 2, 0)
