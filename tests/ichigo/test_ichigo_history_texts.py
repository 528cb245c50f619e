"""Ichi-Go history lines a player reads: what was rolled and why, what a battle came to, what a shipment brought
(mutation survivors of issue 19: each text could change unnoticed)."""
import pytest
from ichigo_given import RULES, chinese, ev, of, position, when


@pytest.mark.parametrize(("shipment", "text"), [
    (ev.ShipmentRolled(3, 2, {"jp-14aa-1div": "full", "jp-14aa-8div": "reduced"}),
     "14AA shipment (9.4): die 3 - 1 -> 2 unit(s): jp-14aa-1div full, jp-14aa-8div reduced"),
    (ev.ShipmentRolled(1, 0, {}),
     "14AA shipment (9.4): die 1 - 1 -> 0 unit(s): none; no more 14AA units (5.3 item 8)"),
    # ruling E63: the 1st SF Group is set aside with no survival roll (11.28)
    (ev.ShipmentRolled(3, 2, {"jp-14aa-1sf": "sf", "jp-14aa-3bde": "eliminated"}),
     "14AA shipment (9.4): die 3 - 1 -> 2 unit(s): jp-14aa-1sf set aside, no survival roll (11.28), jp-14aa-3bde "
     "eliminated"),
])
def test_5_3_items_7_and_8_a_shipment_says_what_came_and_only_a_zero_ends_the_14aa(shipment, text):
    assert RULES.describe(shipment) == text


def test_11_27_a_battle_against_only_zero_defenders_reads_as_a_de_under_11_27():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),))   # a zero, untried
    [battle] = of(when(s, "japanese", "attack 2011 with jp-cea-110div"), ev.BattleResolved)
    assert battle.shifts == ["Ichi-Go 11.27: every defender zero"]
    assert RULES.describe(battle) == ("attack on 2011: Ichi-Go 11.27: every defender zero, no die rolled: DE "
                                      "(attacker 0, defender all)")


def test_11_27_a_battle_of_only_zero_attackers_reads_as_no_effect_with_no_die():
    battle = ev.BattleResolved("2011", "japanese", ["jp-cea-110div"], ["cn-reg-04"], 0, 0, "-",
                               ["Ichi-Go 11.27: every attacker zero"], "-", 0, "-", 0, 0, False)
    assert RULES.describe(battle) == ("attack on 2011: Ichi-Go 11.27: every attacker zero, no die rolled: no effect "
                                      "(attacker 0, defender 0)")


def test_7_4_10_14_the_movement_die_of_an_attenuated_japanese_stack_says_what_it_is_for():
    s = position({"jp-cea-110div": "2010"}, turn=7, phase="VI", plans={"japanese": "move-fight"})
    evs = when(s, "japanese", "move jp-cea-110div to 2011", rolls=[2])
    assert [RULES.describe(e) for e in evs[:2]] == [
        "die roll 2 (Japanese movement factor, attenuated supply (7.4, 10.14))", "jp-cea-110div: 3 MP (attenuated)"]
