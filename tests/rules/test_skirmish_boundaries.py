"""Skirmish at the edges of its rules (docs/rules/skirmish.md): losses that eliminate, a unit that attacked once,
and the data as the loader builds it (built inside the tests, so a change to the loader is seen by them)."""
from dataclasses import replace

import pytest

from app.events.dice import RecordedDice
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.skirmish import GAME as RULES
from app.rules.skirmish import data_load
from app.rules.skirmish.combat import losses
from app.rules.skirmish.events import AttackResolved, StepLost


def combat_at(**placements):
    state = RULES.initial_state("standard", {})
    units = {uid: replace(u, hex=placements.get(uid, u.hex)) for uid, u in state.units.items()}
    return replace(state, units=units, step="combat")


def test_sk_5_4_ae_eliminates_an_attacker_with_one_step_left_and_reduces_a_fresh_one():
    state = combat_at(R1="0402", R2="0403")
    reduced = RULES.evolve(state, StepLost("R1", False))
    attackers = [reduced.units["R1"], reduced.units["R2"]]
    assert losses(attackers, [], "AE") == [StepLost("R1", True), StepLost("R2", False)]


def test_sk_5_4_d2_on_a_lone_unit_with_one_step_eliminates_it_once():
    state = RULES.evolve(combat_at(B1="0503"), StepLost("B1", False))
    assert losses([], [state.units["B1"]], "D2") == [StepLost("B1", True)]


def test_sk_5_4_a_reduced_unit_is_halved_to_at_least_1_and_the_strongest_loses_next():
    # B1 (4) has lost a step: 2; B3 (2) is fresh. D2: B3 first (equal strength, the later id), halved to 1, so
    # the second step falls on B1, which it eliminates
    state = RULES.evolve(combat_at(B1="0503", B3="0503"), StepLost("B1", False))
    assert losses([], [state.units["B1"], state.units["B3"]], "D2") == [StepLost("B3", False), StepLost("B1", True)]


def test_sk_5_1_a_unit_that_attacked_attacks_no_other_hex_this_turn():
    state = combat_at(R1="0402", B1="0503", B3="0502")
    after = RULES.evolve(state, AttackResolved("0503", ["R1"], 4, 4, "1:1", 3, "NE"))
    assert after.units["R1"].attacked
    with pytest.raises(IllegalOrder) as err:
        RULES.decide(after, RULES.parse("attack 0502 with R1", "red", after), RecordedDice(next_index=0, recorded=[]))
    assert err.value.case == "SK 5.1"


def test_sk_5_4_an_eliminated_unit_has_no_steps_and_leaves_the_map():
    state = RULES.evolve(combat_at(B1="0503"), StepLost("B1", True))
    assert (state.units["B1"].steps, state.units["B1"].hex) == (0, None)
    [seen] = [u for u in RULES.view(state, "red")["units"] if u["id"] == "B1"]
    assert (seen["steps"], seen["hex"]) == (0, None)


def test_the_data_is_the_tables_files_and_takes_no_options():
    data = data_load.load({})
    assert data.village == "0403" and data.defence_multiplier == {"woods": 2}
    assert (data.movement.move_case, data.movement.prohibited_case, data.movement.enemy_case) == (
        "SK 4.1", "SK 4.1", "SK 4.2")
    assert (data.movement.ezoc_stop_case, data.movement.ezoc_exit_case, data.movement.ezoc_exit) == (
        "SK 4.3", "SK 4.3", "non-ezoc")
    assert (data.allowance, data.stack_limit, data.last_turn, data.first_side) == (3, 2, 6, "red")
    assert data.columns == ("1:2", "1:1", "2:1", "3:1", "4:1") and data.result(5, "1:1") == "D1"
    assert data.units["B2"].strength == 3 and data.terrain("0403") == "village"
    with pytest.raises(ValueError, match="skirmish takes no options"):
        data_load.load({"map": "x"})


def refusal(state, side, order):
    with pytest.raises(IllegalOrder) as err:
        RULES.decide(state, RULES.parse(order, side, state), RecordedDice(next_index=0, recorded=[]))
    return err.value.case, str(err.value)


def test_sk_3_3_the_side_to_move_ordering_an_enemy_unit_is_refused_by_that_rule_naming_the_unit_and_its_side():
    # the side not to move is refused by the states table (test_skirmish.py); the side to move naming an enemy
    # unit reaches the order's own check, in either step
    start = RULES.initial_state("standard", {})
    assert refusal(start, "red", "move B1 0602") == ("SK 3.3", "SK 3.3: B1 is a blue unit; red cannot order it")
    state = combat_at(R1="0402", B1="0503", B2="0502")
    assert refusal(state, "red", "attack 0503 with R1 B2") == (
        "SK 3.3", "SK 3.3: B2 is a blue unit; red cannot order it")


def test_sk_1_2_a_unit_not_on_the_map_is_refused_by_name_whether_unknown_or_eliminated():
    state = RULES.initial_state("standard", {})
    assert refusal(state, "red", "move R9 0202") == ("SK 1.2", "SK 1.2: there is no unit R9 on the map")
    gone = RULES.evolve(state, StepLost("R1", True))
    assert refusal(gone, "red", "move R1 0202") == ("SK 1.2", "SK 1.2: there is no unit R1 on the map")


def test_a_word_that_is_no_unit_id_is_quoted_back_saying_so_and_what_the_order_expects():
    with pytest.raises(InvalidOrder) as err:
        RULES.parse("move R1-X 0202", "red", RULES.initial_state("standard", {}))
    assert str(err.value) == ("cannot read order 'move R1-X 0202': 'R1-X' is not a unit id; "
                              "expected 'move UNIT HEX [HEX ...]'")
