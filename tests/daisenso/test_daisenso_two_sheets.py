"""Ruling D74: the two map sheets do not join (ruling D2), so no distance is read across them: an HQ on the other
sheet gives no Ranged Support (4.2.1.2), an Airdrop marker is not placed on the other sheet (4.1.1), and a position's
retreat does not go there (4.2.5.1); each is refused naming its case where a ValueError ("no distance joins them")
came out of the list of legal orders, the attack, the Airdrop and the position reader. Nothing that used to be
decided changes (those orders never got through), so this is no rules version."""
from __future__ import annotations

import pytest

from app.rules.custom_setup import SetupError
from app.rules.daisenso import GAME
from tests.daisenso.helpers import orders, position, refused, scenario, step, when


def test_4_2_1_2_d74_hqs_on_the_other_sheet_give_no_ranged_support_and_the_list_and_the_attack_go_on():
    """A Japanese army attacks a KMT army on the West sheet; each side has an HQ on the East sheet (next to each
    other there). The list no longer fails, the defender is not asked for Ranged Support its HQ cannot give, and the
    attacker's HQ declared for it is refused by 4.2.1.2."""
    state = position("axis", "western", [("jp-a", "jp-army", "w4622"), ("jp-hq", "jp-hq", "e3509"),
                                         ("cn-1", "kmt-army", "w4722"), ("cn-hq", "kmt-hq", "e3609")], hold="w4722")
    assert {"attack w4722 with jp-a", "attack e3609 with jp-hq"} <= orders(state)
    assert "on another map sheet" in refused(state, "attack w4722 with jp-a hq jp-hq", "Dai Senso 4.2.1.2")
    events, state = when(state, "attack w4722 with jp-a", [3])  # no defender-hq step: no HQ may reach w4722
    assert step(state) == "attacker-result" and state.combat.defender_hq is None


def test_4_1_1_d74_an_airdrop_onto_the_other_sheet_is_refused_naming_4_1_1():
    storm = scenario("august-storm")
    assert step(storm) == "airdrop"
    assert refused(storm, "airdrop ru-1-abde w4623", "Dai Senso 4.1.1") == (
        "Dai Senso 4.1.1: w4623 is on another map sheet than e3509; an Airdrop reaches two hexes")


def test_4_2_5_1_d74_a_positions_retreat_onto_the_other_sheet_is_refused_naming_4_2_5_1():
    raw = {"name": "test", "turn": 1, "phase": "regular", "phasing": "axis", "factions": ["axis", "western"],
           "combat_phases": 2, "victory": {"faction": "axis", "hold": ["w4722"]},
           "combat": {"hex": "w4722", "attackers": ["jp-a"], "stage": "retreat", "result": "Dr2",
                      "retreated": ["e3410"]},
           "unit": [{"id": "jp-a", "kind": "jp-army", "hex": "w4622"},
                    {"id": "cn-1", "kind": "kmt-army", "hex": "e3410"}]}
    with pytest.raises(SetupError) as err:
        GAME.initial_state("custom", {"position": raw})
    assert "4.2.5.1" in str(err.value) and "e3410 is not a hex next to w4722" in str(err.value)
