"""Ruling D73: a refused step loss names the rule that bars it (a faction's own units 4.2.6, the units of the combat
4.2.4, the attacking force's first step 4.2.6.1, what takes the unit's place 4.2.6.2, a conversion 4.2.5.3), where
every such refusal named 4.2.6.1, the attacker's rule, the defender's losses too; and an HQ not Blitz-enabled
declared for Blitz Combat's Ranged Support is refused by 4.1.2, the Blitz Combat Segment's own limit, as an attacking
unit not Blitz-enabled is. Messages only: nothing accepted or decided changes (no rules version)."""
from __future__ import annotations

from tests.daisenso.helpers import orders, position, refused, scenario, step, when

# Two KMT armies in the clear hex w4722; the 3rd Tank and two Japanese armies next to it, one more army far off
UNITS = [("jp-a", "jp-army", "w4622"), ("jp-t", "jp-tank", "w4723"), ("jp-c", "jp-army", "w4623"),
         ("cn-1", "kmt-army", "w4722"), ("cn-2", "kmt-army", "w4722"), ("cn-x", "kmt-army", "w4524"),
         ("jp-x", "jp-army", "w4424")]
ATTACK = "attack w4722 with jp-a jp-t jp-c"


def test_4_2_6_1_d73_the_attackers_first_step_refused_from_an_infantry_army_names_4_2_6_1_and_the_armor():
    """11 against 6 at 1-1 (the hexside none: D9), die 4: Ex. The first step the force loses is the tank's (4.2.6.1);
    a unit outside the combat or the enemy's is refused by its own rule."""
    _, state = when(position("axis", "western", UNITS, hold="w4722"), ATTACK, [4])
    assert step(state) == "attacker-result" and state.combat.result == "Ex"
    assert "must be an armor-type step: jp-t" in refused(state, "lose jp-a", "Dai Senso 4.2.6.1")
    assert "jp-x took no part in the combat at w4722" in refused(state, "lose jp-x", "Dai Senso 4.2.4")
    assert "cn-1 is a western unit" in refused(state, "lose cn-1", "Dai Senso 4.2.6")
    assert "lose jp-t" in orders(state)


def test_4_2_4_d73_the_defenders_attrition_refused_outside_its_force_names_4_2_4_not_the_attackers_rule():
    """Die 5: 1/1. The tank's step is the attacker's one way (applied at once, D27); the defender owes a step from its
    two armies: a KMT army two hexes off, a Japanese unit, or a replacement the army has none of are refused, each by
    its own rule (before: all "4.2.6.1: not open now", the Attacker Losses rule)."""
    _, state = when(position("axis", "western", UNITS, hold="w4722"), ATTACK, [5])
    assert step(state) == "defender-losses" and orders(state) == {"lose cn-1", "lose cn-2"}
    assert "only the units involved in a combat" in refused(state, "lose cn-x", "Dai Senso 4.2.4")
    assert "the western faction loses steps from its own units" in refused(state, "lose jp-a", "Dai Senso 4.2.6")
    assert "name no kind" in refused(state, "lose cn-1 as kmt-army", "Dai Senso 4.2.6.2")


def test_4_1_2_d73_an_hq_not_blitz_enabled_declared_for_blitz_ranged_support_is_refused_naming_4_1_2():
    slow_hq = scenario("strait", lambda r: [u.update(blitz=False) for u in r["unit"] if u["id"] == "us-hq-pac"])
    why = refused(slow_hq, "attack w4324 with us-3-mac hq us-hq-pac", "Dai Senso 4.1.2")
    assert why == "Dai Senso 4.1.2: us-hq-pac is not Blitz-enabled"


def test_4_2_7_d73_a_refused_advance_says_which_of_4_2_7s_conditions_the_unit_fails():
    """The Japanese army and HQ beat a Kiangsu Res unit (Dr3 0/2, it is gone); the HQ attacked from next door, a
    Japanese division two hexes off did not attack: each refused advance says why (before: "may not Advance" alone)."""
    state = position("axis", "western", [("jp-a", "jp-army", "w4220"), ("jp-hq", "jp-hq", "w4320"),
                                         ("jp-d", "jp-division", "w4420"), ("cn-r", "kiangsu-res", "w4221")])
    _, state = when(state, "attack w4221 with jp-a jp-hq", [6])  # 7 v 1: 6-1, HQ 1R: 9-1, die 6: Dr3 0/2
    while step(state) == "retreat":
        state = when(state, sorted(orders(state))[0])[1]
    assert step(state) == "advance" and orders(state) == {"advance jp-a", "stop"}
    assert refused(state, "advance jp-hq", "Dai Senso 4.2.7") == (
        "Dai Senso 4.2.7: jp-hq may not Advance After Combat into w4221: it is an HQ")
    assert "jp-d may not Advance After Combat into w4221: it is not one of the units that attacked w4221" in refused(
        state, "advance jp-d", "Dai Senso 4.2.7")


def test_4_2_1_2_d73_the_defender_naming_the_attackers_hq_for_its_ranged_support_is_told_whose_hq_it_is():
    """Step 2 of the attack on the 9th War Zone: the China HQ is the attacker's (before: "shares no nationality")."""
    _, z = when(scenario("zhejiang"), "attack w4624 with jp-13-army jp-3-tank jp-22-div")
    assert step(z) == "defender-hq" and orders(z) == {"support", "support cn-3-hq"}
    assert refused(z, "support jp-china-hq", "Dai Senso 4.2.1.2") == (
        "Dai Senso 4.2.1.2: jp-china-hq is an axis unit; allied does not command it")
