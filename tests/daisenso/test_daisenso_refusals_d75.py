"""Ruling D75: an order the step does not take now, or one given by the side not acting, is refused naming the case
that orders the step (4.1 the Blitz Combat Segment's steps, 4.2.1 the declaring of attacks, 4.2.2 an Attack
Sequence's steps, with 4.2.1 again for another attack declared before it is complete), where every such refusal named
the chapter, "Dai Senso 4". Messages only: nothing listed, accepted or decided changes (no rules version)."""
from __future__ import annotations

import pytest

from app.events.dice import RecordedDice
from app.rules.daisenso import GAME
from app.rules.errors import IllegalOrder
from tests.daisenso.helpers import position, scenario, step, when
from tests.daisenso.test_daisenso_refusals_d73 import ATTACK, UNITS


def refused_from(state, side: str, order: str, case: str) -> str:
    """The refusal of ``order`` given by ``side``, acting now or not, asserted to name ``case``."""
    with pytest.raises(IllegalOrder) as err:
        GAME.decide(state, GAME.parse(order, side, state), RecordedDice(next_index=0, recorded=[]))
    assert err.value.case == case, str(err.value)
    return str(err.value)


def test_4_1_d75_an_order_out_of_the_blitz_segments_steps_or_out_of_turn_names_4_1():
    storm = scenario("august-storm")
    assert step(storm) == "airdrop"
    assert "'attack' is not allowed now" in refused_from(storm, "allied", "attack e3411 with ru-6-gta", "Dai Senso 4.1")
    assert "'next' by axis" in refused_from(storm, "axis", "next", "Dai Senso 4.1")
    strait = scenario("strait")
    assert step(strait) == "blitz-combat"
    assert "'airdrop' is not allowed now" in refused_from(strait, "allied", "airdrop us-3-mac w4224", "Dai Senso 4.1")


def test_4_2_1_d75_the_regular_segment_names_4_2_1_and_a_blitz_order_there_4_1():
    z = scenario("zhejiang")
    assert step(z) == "regular-combat"
    assert "'next' by western" in refused_from(z, "western", "next", "Dai Senso 4.2.1")
    assert "'convoy' is not allowed now" in refused_from(z, "axis", "convoy pacific", "Dai Senso 4.2.1")
    assert "'airdrop' is not allowed now" in refused_from(z, "axis", "airdrop jp-13-army w4624", "Dai Senso 4.1")


def test_4_2_2_d75_an_attack_sequence_names_4_2_2_and_another_attack_declared_in_it_4_2_1():
    _, z = when(scenario("zhejiang"), "attack w4624 with jp-13-army jp-3-tank jp-22-div")
    assert step(z) == "defender-hq"
    assert "'support' by axis" in refused_from(z, "axis", "support", "Dai Senso 4.2.2")
    assert "'attack' by axis" in refused_from(z, "axis", "attack w4620 with jp-15-army", "Dai Senso 4.2.1")
    _, ex = when(position("axis", "western", UNITS, hold="w4722"), ATTACK, [4])
    assert step(ex) == "attacker-result"
    assert "'next' is not allowed now" in refused_from(ex, "axis", "next", "Dai Senso 4.2.2")
    assert "'lose' by western" in refused_from(ex, "western", "lose cn-1", "Dai Senso 4.2.2")
    assert "'attack' is not allowed now" in refused_from(ex, "axis", "attack w4524 with jp-x", "Dai Senso 4.2.1")
