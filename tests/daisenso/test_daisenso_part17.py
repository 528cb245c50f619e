"""Dai Senso, session part 17's reading of chapter 4 (docs/rulings/daisenso.md D82 on): where the engine still read
the chapter otherwise than its rulings. Positions built from a few units (tests/daisenso/helpers.py); each departure
checked under rules version 19 and, as played, under version 18."""
from __future__ import annotations

import pytest

from app.rules.daisenso import played_under
from tests.daisenso.helpers import orders, position, when

# a US infantry in Taihoku (w4324, a City), its Western Beachhead in w4425 pointing at it; Japanese armies attack from
# Takao (w4224) and a Japanese division stands in w4524, across the sea from w4425 (no Beachhead Hexside there)
TAIHOKU = [("jp-a", "jp-army", "w4224"), ("jp-b", "jp-army", "w4224"), ("jp-c", "jp-division", "w4524"),
           ("us-i", "us-infantry", "w4324")]
BEACHHEAD = [{"kind": "beachhead", "faction": "western", "hex": "w4425", "toward": "w4324"}]


@pytest.mark.parametrize("version", [None, "18"])
def test_4_2_5_1_d82_no_zoc_reaches_a_beachhead_at_sea_across_an_all_sea_hexside(version):
    """A Dr1 on Taihoku (8 against 2, the City 1L: 3-1, die 3): the US infantry may retreat across its Beachhead
    Hexside into w4425 (4.2.5), farther from Taihoku. The Japanese division in w4524 is across an All-Sea hexside from
    it (every hexside of a hex at sea is one, D11), and ZOC does not cross an All-Sea hexside (D12): w4425 is free of
    EZOC, a hex of Priority 1 (4.2.5.1), and the defender chooses between it and converting the hex into its step (a
    City without a Blitz marker, 4.2.5.3). Version 18 and before put w4425 in the division's ZOC: no hex of Priority 1
    or 2 was left, and the infantry was eliminated at once (4.2.5.3's Mandatory Retreat Conversion)."""
    state = position("axis", "western", TAIHOKU, hold="w4324", marker=BEACHHEAD)
    state = played_under(state, version) if version else state
    events, state = when(state, "attack w4324 with jp-a jp-b", [3])
    assert events[1].result == "Dr1"
    if version:
        assert "us-i" not in state.units and state.combat.stage == "advance"
        return
    assert orders(state) == {"retreat to w4425", "convert us-i"}
    events, state = when(state, "retreat to w4425")
    assert state.units["us-i"].hex == "w4425" and state.combat.exploit_distance == 1


@pytest.mark.parametrize("version", [None, "18"])
def test_4_2_5_3_d83_an_hq_giving_ranged_support_from_next_door_crosses_no_hexside_for_voluntary_conversion(version):
    """Two US armies attack a Japanese division in w4115 (no City) across Mountain hexsides, from w4114 and w4116; the
    US HQ in w4215, next to the hex across a plain hexside, gives Ranged Support (11 against 2: 4-1, the HQ 1R, the
    Mountain 2L: 3-1, die 3: Dr1). Every adjacent attacking ground unit attacks across a Mountain hexside, the HQ
    attacking across none (it gives Ranged Support: rulings D9, D48), so the defender may convert the hex into a step
    instead of retreating (4.2.5.3). Version 18 and before counted the HQ among the attackers: the plain hexside took
    the option away and the one retreat, into w4015, was made at once."""
    attack = [("us-a", "us-army", "w4114"), ("us-b", "us-army", "w4116"), ("us-hq", "us-hq", "w4215")]
    state = position("western", "axis", [*attack, ("jp-d", "jp-division", "w4115")], hold="w4115")
    state = played_under(state, version) if version else state
    events, after = when(state, "attack w4115 with us-a us-b hq us-hq", [3])
    assert (events[1].column, events[1].result) == ("3-1", "Dr1")
    if version:
        assert after.units["jp-d"].hex == "w4015"
        return
    assert orders(after) == {"retreat to w4015", "convert jp-d"}
    # the same HQ attacking from next door (one of the attacking units) crosses its plain hexside, which also takes
    # the Mountain's shift away (D9): 6-1, die 1, Dr1, and no conversion: the one retreat is made at once
    events, after = when(state, "attack w4115 with us-a us-b us-hq", [1])
    assert (events[1].column, events[1].result) == ("6-1", "Dr1") and after.units["jp-d"].hex == "w4015"



def test_4_2_2_step_4_and_4_2_4_2_the_combat_panel_reads_each_shift_and_both_sides_attrition():
    """The replay's combat panel (app/rules/base.py `combat_summary`) for DS-6's attack on Chungking (the City and the
    river hexside 1L each), with the Japanese HQ's Ranged Support and an Air unit next to the hex (1R each): each shift
    with its columns, right positive and left negative, and its case (4.2.2 step 4), and the Attrition of both sides,
    the attacker's number left of the slash and the defender's right of it (4.2.4.2). The panel gave every shift as 0
    columns, and the attacker's Attrition alone."""
    from app.rules.daisenso import GAME
    from app.rules.daisenso.events import CombatResolved
    from app.rules.daisenso.view import combat_summary

    state = position("axis", "western", [("jp-a", "jp-army", "w4720"), ("jp-b", "jp-army", "w4519"),
                                         ("jp-hq", "jp-hq", "w4820"), ("jp-air", "jp-air", "w4621"),
                                         ("cn-army", "kmt-army", "w4620")], hold="w4620")
    events, _ = when(state, "attack w4620 with jp-a jp-b hq jp-hq", [4])
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    for e in events[:events.index(resolved)]:
        state = GAME.evolve(state, e)
    panel = combat_summary(resolved, state)
    assert (resolved.column, resolved.result) == ("3-1", "Dr1 0/1")  # 11 against 3: 3-1, net 0
    assert panel["losses"] == {"axis": 0, "allied": 1}
    assert sorted((s["amount"], s["case"]) for s in panel["shifts"]) == [
        (-1, "Dai Senso 4.2.3.8"), (-1, "Dai Senso 4.2.3.8"), (1, "Dai Senso 4.2.3.1"), (1, "Dai Senso 4.2.3.5")]


def test_4_2_1_2_clarification_an_hq_whose_hex_was_attacked_is_soaked_off_and_supports_no_later_defence():
    """4.2.1.2's clarification: attacking a defending HQ's hex "soaks it off". The KMT HQ in w4722 may give the army
    in w4723 Ranged Support (4.2.2 step 2) until its own hex is attacked (8 against 3, die 2: Ad, the attacker taking a
    step); then it took part in a combat, and the attack on w4723 that follows goes to its die with no step 2."""
    state = position("axis", "western", [
        ("jp-a", "jp-army", "w4724"), ("jp-b", "jp-army", "w4824"), ("jp-c", "jp-army", "w4721"),
        ("jp-d", "jp-army", "w4622"), ("cn-a", "kmt-army", "w4723"), ("cn-hq", "kmt-hq", "w4722")], hold="w4723")
    _, fresh = when(state, "attack w4723 with jp-a jp-b")
    assert orders(fresh) == {"support", "support cn-hq"}
    _, state = when(state, "attack w4722 with jp-c jp-d", [2])
    _, state = when(state, "lose jp-c")
    assert state.combat is None
    events, state = when(state, "attack w4723 with jp-a jp-b", [3])
    assert not any(p["kind"] == "defender-hq" for p in state.pending) and events[1].defence == 3
