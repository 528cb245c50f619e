"""Rows of docs/cases/formosa.md whose own tests passed with a mutant of the row's code (issue 30's per-case
mutation report, `bench/mutation.py --report --cases --lines --packages formosa`): a custom position
(docs/custom-positions.md, ruling F98) refused with the whole problem a scenario designer reads, naming its case,
or accepted where the rules allow the state it describes."""
from __future__ import annotations

import pytest
from formosa_map import D, position, ring

from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME

X, AROUND = ring("open")
FIELD = next(str(h) for h in sorted(D.airfields() & D.ports()))
FIVE = {"us-7-17": AROUND[0], "us-7-32": AROUND[0], "us-7-184": AROUND[0], "us-27-105": AROUND[0],
        "us-27-106": AROUND[0]}  # five mobile US units: one over the Allied limit of four (13.1)


def problems(**change) -> list[str]:
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": position(**change)})
    return err.value.problems


def test_2_5_a_position_s_kamikaze_spent_is_a_count_of_points_used_once_a_game():
    assert problems(kamikaze_spent=-1) == [
        "'kamikaze_spent' is the number of kamikaze points that have attacked (2.5: once a game)"]


def test_5_2_a_position_gives_no_control_in_formosa_control_is_occupation():
    assert problems(control={"allied": [X]}) == [
        "[control]: in Formosa control is occupation (5.2): place units instead"]


def test_10_2_1_landed_units_belong_to_the_phases_up_to_the_allied_combat_phase_of_their_landing():
    assert problems(phase="base-building", landed=["us-7-17"]) == [
        "landed: units that made an amphibious invasion this GT attack the adjacent Japanese units in the ensuing "
        "Allied Combat Phase (10.2.1, 10.2.2): a position at invasion (ruling F124), naval-transfer, allied-movement "
        "or allied-combat"]


def test_15_0_attacked_hexes_belong_to_a_combat_or_invasion_phase():
    assert problems(attacked_hexes=[X]) == [
        "attacked_hexes: the hexes attacked in this Combat Phase (15.0), or assaulted in this Invasion Phase (10.2.2, "
        "ruling F124); a position at 'allied-movement' has none"]


def test_15_5_an_advance_follows_a_result_that_lets_the_attacker_advance_and_the_refusal_lists_them():
    assert problems(phase="allied-combat", attacked_hexes=[X],
                    advance={"attackers": ["us-7-17"], "hexes": [X], "result": "NE"}) == [
        "[advance] result: one that lets the attacker advance (BB, B1, DR, D1, DE) (15.5, 15.8)"]


def test_16_4_interdiction_points_are_placed_in_the_interdiction_phase_not_before_it():
    assert problems(interdiction={X: 1})[0] == (
        "[interdiction]: the points are placed in the Allied Interdiction Phase (16.4); a position at "
        "'allied-movement' comes before it")


def test_18_0_fleet_sortied_is_true_or_this_game_turn_s_result_each_named():
    assert problems(fleet_sortied="won") == [
        "'fleet_sortied' is true (on an earlier GT) or this GT's result: 'fiasco', 'indecisive', 'decisive' (18.0: "
        "the mobile fleet sorties once a game)"]


def test_20_1_a_base_is_an_allied_engineer_in_a_port_or_airfield_hex():
    assert problems(bases=["us-7-17"]) == [
        "bases: us-7-17 is not an Allied engineer placed in a port or airfield hex (20.1)"]


def test_13_0_13_3_five_us_units_that_stand_still_are_over_the_limit_and_not_told_of_nationalities():
    [problem] = problems(units={**FIVE, "jp-9-7": X}, where={}, revealed=[], bases=[])
    assert problem == (
        f"{AROUND[0]}: allied units over the stacking limits (13.1, 13.2); stacking is checked at the end of the "
        "Recruit, Movement and Combat Phases, so only the phasing side stands over the limits in the middle of a "
        "phase, in a hex a unit landed, dropped (pinned, landed), moved (moved) or advanced (attacked) into (13.0, "
        "13.3; ruling F126)")


def test_13_3_the_phasing_side_stands_over_the_limit_in_a_hex_a_unit_moved_into_this_phase_f126():
    state = GAME.initial_state("1", {"position": position(units={**FIVE, "jp-9-7": X}, where={}, revealed=[],
                                                          bases=[], moved=["us-27-106"])})
    assert state.step == "allied-movement" and len(state.at(AROUND[0], "allied")) == 5
    assert AROUND[0] in state.overstacked("allied")  # to be within the limits by the end of the phase (13.3)
