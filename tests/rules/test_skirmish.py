"""Skirmish rules (docs/rules/skirmish.md), given events / when order / then events or refusal."""
import random
from dataclasses import replace

import pytest

from app.events.dice import RecordedDice
from app.rules.base import Command
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.skirmish import GAME as RULES
from app.rules.skirmish.combat import odds_column
from app.rules.skirmish.events import AttackResolved, GameEnded, StepEnded, StepLost, UnitMoved
from app.service import audit
from tests.conftest import play_random

CATALOG = installed()  # the rule sets installed here


def given(*events, **placements):
    state = RULES.initial_state("standard", {})
    for event in events:
        state = RULES.evolve(state, event)
    units = dict(state.units)
    for uid, hex_ in placements.items():
        units[uid] = replace(units[uid], hex=hex_)
    return replace(state, units=units)


def when(state, side, order, rolls=()):
    return RULES.decide(state, RULES.parse(order, side, state), RecordedDice(next_index=0, recorded=list(rolls)))


def refused(state, side, order, case):
    with pytest.raises(IllegalOrder) as err:
        when(state, side, order)
    assert err.value.case == case
    return str(err.value)


def test_sk_4_1_move_pays_terrain_up_to_allowance():
    assert when(given(), "red", "move R1 0202") == [UnitMoved("R1", ["0202"])]  # woods, 2 MP
    assert "only 1 MP remain" in refused(given(), "red", "move R1 0202 0303", "SK 4.1")  # woods + woods
    refused(given(), "red", "move R1 0304", "SK 4.1")  # not adjacent


def test_sk_4_1_a_unit_moves_once_per_turn():
    state = given(UnitMoved("R1", ["0202"]))
    refused(state, "red", "move R1 0302", "SK 4.1")


def test_sk_4_2_no_entry_into_enemy_hex():
    refused(given(B1="0202"), "red", "move R1 0202", "SK 4.2")


def test_sk_4_3_stop_on_entering_enemy_zoc():
    state = given(B1="0303")
    assert when(state, "red", "move R2 0203") == [UnitMoved("R2", ["0203"])]
    assert "must stop" in refused(state, "red", "move R2 0203 0204", "SK 4.3")


def test_sk_4_3_no_zoc_to_zoc_move_but_leaving_is_allowed():
    state = given(B1="0303", R2="0203")
    refused(state, "red", "move R2 0202", "SK 4.3")  # 0202 is also adjacent to 0303
    assert when(state, "red", "move R2 0103") == [UnitMoved("R2", ["0103"])]


def test_sk_4_4_stacking_limit():
    state = given(R2="0202", R3="0202")
    refused(state, "red", "move R1 0202", "SK 4.4")


def test_sk_5_2_odds_rounding_and_limits():
    columns = RULES.data().columns
    assert odds_column(4, 3, columns) == "1:1"
    assert odds_column(9, 2, columns) == "4:1"
    assert odds_column(2, 4, columns) == "1:2"
    assert odds_column(2, 5, columns) is None


def test_sk_5_2_defence_doubled_in_woods_and_too_weak_attack_refused():
    state = given(R3="0402", B2="0502")  # B2 (3) in woods defends at 6; R3 attacks at 2
    state = replace(state, step="combat")
    assert "below 1:2" in refused(state, "red", "attack 0502 with R3", "SK 5.2")


def test_sk_5_3_result_from_the_table_and_strongest_unit_loses_first():
    state = replace(given(R1="0402", R2="0403", B1="0503", B3="0504"), step="combat")  # 0503 clear
    events = when(state, "red", "attack 0503 with R1 R2", rolls=[5])  # 7 : 4 -> 1:1, die 5 -> D1
    assert events[1] == AttackResolved("0503", ["R1", "R2"], 7, 4, "1:1", 5, "D1")
    assert events[2:] == [StepLost("B1", False)]


def test_sk_5_4_exchange_of_steps_and_elimination():
    state = replace(given(R1="0402", B3="0403"), step="combat")
    reduced = RULES.evolve(state, StepLost("B3", False))
    events = when(reduced, "red", "attack 0403 with R1", rolls=[1])  # 4:1 column, die 1 -> D1
    assert events[2:] == [StepLost("B3", True)]
    attacker_loses = when(state, "red", "attack 0403 with R1", rolls=[1])
    assert attacker_loses[1].column == "2:1" and attacker_loses[2:] == [StepLost("R1", False)]


def test_sk_5_1_attack_needs_adjacent_own_units_once_per_turn():
    state = replace(given(R1="0402", B1="0503"), step="combat")
    refused(state, "red", "attack 0503 with R2", "SK 5.1")
    refused(state, "red", "attack 0402 with R1", "SK 5.1")  # no enemy there
    after = RULES.evolve(state, AttackResolved("0503", ["R1"], 4, 4, "1:1", 3, "NE"))
    refused(after, "red", "attack 0503 with R1", "SK 5.1")


def test_sk_6_1_last_unit_eliminated_ends_the_game():
    state = given(*[StepLost(u, True) for u in ("B1", "B2")], R1="0402", B3="0403")
    state = replace(state, step="combat")
    events = when(state, "red", "attack 0403 with R1", rolls=[6])
    assert events[-1] == GameEnded("red", "blue has no units left (SK 6.1)")
    assert RULES.outcome(RULES.evolve(state, events[-1])).winner == "red"


def test_sk_6_2_village_holder_wins_after_turn_6():
    state = replace(given(UnitMoved("B2", ["0403"])), turn=6, side="blue", step="combat")
    assert when(state, "blue", "end") == [StepEnded("blue", "combat"), GameEnded("blue", "blue holds the village "
                                                                                        "0403 (SK 6.2)")]


def test_sk_3_sequence_of_steps_and_turns():
    state = given()
    state = RULES.evolve(state, StepEnded("red", "movement"))
    assert (state.side, state.step) == ("red", "combat")
    state = RULES.evolve(state, StepEnded("red", "combat"))
    assert (state.side, state.step, state.turn) == ("blue", "movement", 1)
    state = RULES.evolve(RULES.evolve(state, StepEnded("blue", "movement")), StepEnded("blue", "combat"))
    assert (state.side, state.step, state.turn) == ("red", "movement", 2)


@pytest.mark.parametrize("order", ["", "move", "move R1", "attack 0101 R1", "move R1 to 99", "dance"])
def test_unreadable_orders(order):
    with pytest.raises(InvalidOrder):
        RULES.parse(order, "red", given())


def test_cannot_order_enemy_units():
    refused(given(), "blue", "move R1 0202", "SK 3.3")


def test_state_survives_snapshot_encoding():
    state = given(UnitMoved("R1", ["0202"]), StepLost("B1", False))
    assert RULES.decode_state(RULES.encode_state(state)) == state


@pytest.mark.slow  # random games played to their end
@pytest.mark.parametrize("seed", range(4))
def test_random_games_end_without_dead_ends_and_verify(store, seed):
    """The fuzzer (docs/architecture.md practice 10): random legal orders to the end, then a clean audit."""
    from app.service import games

    game_id = games.create_game(store, CATALOG, "skirmish")
    play_random(store, game_id, random.Random(seed))
    from app.projections import state as projection

    assert RULES.outcome(projection.load(store, CATALOG, game_id).game) is not None
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0  # the seed is revealed at the end


def test_command_round_trip():
    command = RULES.parse("attack 0403 with r1, r2", "red", given())
    assert command == Command("red", "attack", {"hex": "0403", "units": ["R1", "R2"]})
    assert Command.from_dict(command.to_dict()) == command
