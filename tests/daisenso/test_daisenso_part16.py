"""Dai Senso, session part 16's reading of chapter 4 (docs/rulings/daisenso.md D78 on): the table's ends, and
what the text states that the engine did not yet do. Positions built from a few units (tests/daisenso/helpers.py)."""
from __future__ import annotations

import pytest

from app.rules.daisenso import played_under
from tests.daisenso.helpers import ds12_after_the_roll, orders, position, preview, refused, scenario, step, unit, when

_NOTHING = {"attack": 1, "defense": 0, "ma": 1}  # a what-if counter with no Defense Factor (ruling D35)


def test_4_2_2_step_3_d78_a_defender_total_of_0_is_odds_greater_than_9_1_so_9_1():
    """A US infantry a what-if gave a Defense Factor of 0, alone in w4723, against a Japanese division (2): the Defender
    Total divides into no ratio, so the odds are greater than every one, treated as 9-1 (4.2.2 step 3). Before, the
    list of legal orders and the attack failed with a server error."""
    state = position("axis", "western", [("jp-a", "jp-division", "w4722"),
                                         ("us-d", "us-infantry", "w4723", {"values": _NOTHING})], hold="w4723")
    assert "attack w4723 with jp-a" in orders(state)
    shown = preview(state, "attack w4723 with jp-a")
    assert (shown["attack"], shown["defence"], shown["raw_odds"], shown["column"]) == (2, 0, "9-1", "9-1")
    events, after = when(state, "attack w4723 with jp-a", [3])
    resolved = events[1]
    assert (resolved.attack, resolved.defence, resolved.odds, resolved.column) == (2, 0, "9-1", "9-1")
    assert after.combat.result == "Dr2 0/1"


def _shift_cases(state, order: str) -> list[str]:
    """The case of each shift the preview of ``order`` shows ("1R (Dai Senso 4.2.3.2: ...)" -> "4.2.3.2")."""
    return [s.split(": ")[0].split("Dai Senso ")[1] for s in preview(state, order)["shifts"]]


def _settle(state):
    """Plays the combat under way to its end by the first open choice, stopping at the advance."""
    while state.combat is not None:
        listed = sorted(orders(state))
        _, state = when(state, "stop" if "stop" in listed else listed[0])
    return state


def test_4_2_5_example_an_hq_a_retreat_enters_took_part_and_gives_no_ranged_support_later():
    """4.2.5's example ("Doh!"): a KMT army beaten out of w4723 (Dr2) retreats into w4722, where the KMT HQ stands; the
    HQ joins the retreating force, which then cannot retreat (4.2.5.2) and converts its second hex into a step, and
    the HQ has taken part in the combat: the next attack of the segment, on w4623 next to it, gets no Ranged Support
    from it (4.2.1.2), where before that combat the defender could have declared it."""
    state = position("axis", "western", [
        ("jp-a", "jp-army", "w4724"), ("jp-b", "jp-army", "w4824"), ("jp-c", "jp-army", "w4522"),
        ("cn-a", "kmt-army", "w4723"), ("cn-hq", "kmt-hq", "w4722"), ("cn-b", "kmt-army", "w4623")], hold="w4723")
    _, fresh = when(state, "attack w4623 with jp-c")
    assert fresh.pending[0]["kind"] == "defender-hq" and "support cn-hq" in orders(fresh)
    _, state = when(state, "attack w4723 with jp-a jp-b")
    events, state = when(state, "support", [6])  # 8 v 3: 2-1, die 6: Dr2; w4722 the one hex open (ruling D27)
    assert events[-2].to == "w4722" and events[-2].joined == ["cn-hq"]
    assert orders(state) == {"convert cn-a", "convert cn-hq"}  # 4.2.5.3: a force with an HQ retreats no more
    _, state = when(state, "convert cn-a")
    state = _settle(state)
    events, state = when(state, "attack w4623 with jp-c", [3])  # straight to the die: no HQ left to answer
    assert not any(p["kind"] == "defender-hq" for p in state.pending) and events[1].defence == 3


def test_4_2_3_5_clarification_an_hq_that_gave_ranged_support_still_defends_its_own_hex_with_its_shift():
    """4.2.3.5's clarification: the KMT HQ gave Ranged Support to the defence of w4723 earlier in the segment (a
    position says so, ruling D36); attacked in its own hex, w4722, it adds its Defense Factor and its HQ shift."""
    state = position("axis", "western", [
        ("jp-d", "jp-army", "w4721"), ("jp-e", "jp-army", "w4822"),
        ("cn-hq", "kmt-hq", "w4722", {"fought": True}), ("cn-a", "kmt-army", "w4723")],
        hold="w4722", attacked_hexes=["w4723"])
    shown = preview(state, "attack w4722 with jp-d jp-e")
    assert (shown["attack"], shown["defence"], shown["defender_may_add_hq"]) == (8, 3, False)
    assert "1L (Dai Senso 4.2.3.5: defending HQ)" in shown["shifts"]


@pytest.mark.parametrize("version", [None, "17"])
def test_4_2_6_2_d79_a_minor_countrys_two_step_unit_breaks_down_to_its_own_countrys_unit(version):
    """DS-12's attack rolled a 5, Dr2 0/1, the force held by the KMT HQ's Ranged Support: the Kiangsu 9th War Zone
    converting a hex into a step takes a one-step unit that could have combined it (4.2.6.2), a Kiangsu Res, not the
    Hunan or Szechwan Res of the Force Pool (units of other Minor Countries, 4.2.1.1); the KMT HQ, Nationalist China's,
    takes any of them (4.2.5.3's example gives it a Kiangsu Res). Version 17 and before offered every Res for both."""
    _, z = ds12_after_the_roll(5)
    z = played_under(z, version) if version else z
    war_zone = {o for o in orders(z) if o.startswith("convert cn-9-war-zone")}
    hq = {o for o in orders(z) if o.startswith("convert cn-3-hq")}
    assert hq == {f"convert cn-3-hq as {p}-res" for p in ("kiangsu", "hunan", "szechwan")}
    if version:
        assert war_zone == {f"convert cn-9-war-zone as {p}-res" for p in ("kiangsu", "hunan", "szechwan")}
        return
    assert war_zone == {"convert cn-9-war-zone as kiangsu-res"}
    assert refused(z, "convert cn-9-war-zone as hunan-res", "Dai Senso 4.2.6.2").startswith(
        "Dai Senso 4.2.6.2: hunan-res could not have combined cn-9-war-zone, of another nationality (ruling D79): "
        "cn-9-war-zone's step is lost by putting in its place one of kiangsu-res")


@pytest.mark.parametrize("version", [None, "17"])
def test_4_2_2_step_3_d80_odds_the_defenders_ranged_support_puts_under_1_3_read_1_3(version):
    """A Japanese division (2) attacks a US army and infantry (6) in w4723: a raw 1-3, allowed (4.2.1.1); the US HQ's
    Ranged Support adds 3, 2 against 9, odds under 1-3, which step 3 treats as 1-3: the history reads "1-3", as it
    reads "9-1" for odds above 9-1. Version 17 and before wrote the ratio, "2-9"."""
    state = position("axis", "western", [("jp-a", "jp-division", "w4722"), ("us-a", "us-army", "w4723"),
                                         ("us-i", "us-infantry", "w4723"), ("us-hq", "us-hq", "w4823")],
                     hold="w4723")
    state = played_under(state, version) if version else state
    _, state = when(state, "attack w4723 with jp-a")
    events, _ = when(state, "support us-hq", [1])
    resolved = events[2]
    assert (resolved.attack, resolved.defence, resolved.column) == (2, 9, "1-3")
    assert resolved.odds == ("2-9" if version else "1-3")
    assert resolved.describe().startswith("w4723: 2 to 9, " + resolved.odds + " [")


def test_4_2_3_2_each_airdrop_marker_shifts_and_4_2_3_3_armor_shifts_once_in_blitz_combat_only():
    """August Storm with a second airborne unit and a tank added: both Airdrop markers in Manchouli (e3411) give a
    column each (4.2.3.2: "for each Airdrop marker"); the tank army and the tank give the Armor shift once ("one shift
    total, not one per armor unit"); in the Regular Combat Segment neither shift is given ("only during Blitz
    Combat")."""
    def more(raw):
        unit(raw, "ru-2-abde", "ru-airborne", "e3509", blitz=True)
        unit(raw, "ru-t", "ru-tank", "e3510", blitz=True)

    order = "attack e3411 with ru-6-gta ru-36-army ru-t"
    state = scenario("august-storm", more)
    _, state = when(state, "airdrop ru-1-abde e3411")
    _, state = when(state, "airdrop ru-2-abde e3411")
    _, state = when(state, "next")
    cases = _shift_cases(state, order)
    assert (cases.count("4.2.3.2"), cases.count("4.2.3.3")) == (2, 1)
    while step(state) != "regular-combat":
        _, state = when(state, "next")
    cases = _shift_cases(state, order)
    assert "4.2.3.2" not in cases and "4.2.3.3" not in cases and "4.2.3.4" in cases


def test_4_1_d81_an_attack_previewed_in_the_airdrop_step_is_previewed_as_the_blitz_attack_it_will_be():
    """August Storm opens at the Airdrop step (4.1 step 1); the attack a player previews there is made in the next step,
    Blitz Combat, with the Armor shift (4.2.3.3) and each Airdrop marker already placed (4.2.3.2): the preview shows
    those, as it does once the step is reached. It showed a Regular Combat attack, without them."""
    order = "attack e3411 with ru-6-gta ru-36-army"
    state = scenario("august-storm")
    assert step(state) == "airdrop"
    _, dropped = when(state, "airdrop ru-1-abde e3411")
    _, blitz = when(dropped, "next")
    assert preview(dropped, order) == preview(blitz, order)
    assert {"4.2.3.2", "4.2.3.3"} <= set(_shift_cases(dropped, order))
