"""SNC 12.0, the example of play, step by step: the Japanese player turn of GT 2 (the Wusong and Chuanshakou
landings, the second-phase attacks on 3408 and Baoshan), the Chinese GT 3 Move/Move, and the Japanese GT 3
Fight/Fight (3511, Loudian, the replacements, the 101st at 3610 with the detachments, 3511 mopped up, 3410), one
position carried from each order to the next. The Chinese dispositions are those the example describes; where it
leaves them open (which units, besides the ones it names) the choice is ours and said so. Rulings: R3 (the 3511
odds), R5 (the Wusong cell), R20 (unit values)."""
import pytest
from snc_given import ev, fold, of, position, then, when

from app.rules.errors import IllegalOrder

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
D11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]
D101 = ["jp-d101-r101", "jp-d101-r103", "jp-d101-r149", "jp-d101-r157"]
DETS = ["jp-det-shigeto", "jp-det-asama", "jp-det-amaya"]
SNLF = ["jp-snlf-1", "jp-snlf-2", "jp-snlf-3", "jp-snlf-9"]


def battle(state, side, order, rolls, answer="pass"):
    """An attack or landing the Chinese air force lets pass (11.3): the state after it and its combat result."""
    state = then(state, side, order)
    assert state.pending[0]["kind"] == "intercept"
    events = when(state, "chinese", answer, rolls=rolls)
    return fold(state, *events), of(events, ev.CombatResolved)[0]


def combat(state, side, order, rolls):
    """An attack or landing resolved at once: the state after it and its combat result."""
    events = when(state, side, order, rolls=rolls)
    return fold(state, *events), of(events, ev.CombatResolved)[0]


def test_12_0_the_example_of_play_gt_2_and_gt_3_step_by_step():
    chinese = {
        "cn-gar-wusong": "3510", "cn-gar-baoshan": "3509", "cn-gar-b": "3308", "cn-gar-c": "3408",
        "cn-gar-d": "3610",
        "cn-gar-a": "3511", "cn-d87": "3511", "cn-d98": "3511",        # 9 on GT 3 (R20)
        "cn-d11": "3208", "cn-d51": "3208", "cn-b11": "3208",          # Loudian: the elite 5 and 4 more (our choice)
        "cn-td1": "3410", "cn-td2": "3410", "cn-d7": "3410",           # the training-brigade stack, 10 (R20)
        "cn-d36": "3411", "cn-d57": "3612",                             # kept next to Shanghai (4.2; our choice)
    }
    japanese = {**{u: "3512" for u in ("jp-snlf-1", "jp-snlf-2", "jp-snlf-9", "jp-gar-shanghai")},
                "jp-snlf-3": "3611", "jp-gar-a": "3611"}
    s = position({**chinese, **japanese}, turn=2, phase="reinf", plan=("fight", "fight"),
                 pool=(*D3, *D11, *D101, *DETS))

    # GT 2, Japanese Reinforcement Phase: the 3rd Division at Wusong, 16 halved to 8 against 3: 2:1, +4R: 6:1
    s, r = battle(s, "japanese", "land " + " ".join(D3) + " at 3510 support amphibious naval air artillery", [1])
    assert (r.attack, r.defence, r.odds, r.column, r.roll) == (8, 3, "2:1", "6:1", 1)
    assert r.attacker_losses == 1  # "he rolls a 1 and loses a step"
    s = then(s, "japanese", "lose d3-r6")
    assert s.units["cn-gar-wusong"].status == "dead" and {s.units[u].hex for u in D3} == {"3510"}
    # the 11th Division at Chuanshakou 3308: an easy 6:1 (12 halved to 6 against 1), no step loss
    s, r = combat(s, "japanese", "land " + " ".join(D11) + " at 3308", [3])
    assert (r.attack, r.defence, r.column, r.attacker_losses) == (6, 1, "6:1", 0)
    assert {s.units[u].hex for u in D11} == {"3308"} and s.units["cn-gar-b"].status == "dead"
    s = then(s, "japanese", "end")

    # GT 2, Second Operations Phase: the 11th attacks 3408, the 3rd Baoshan 3509, no loss; neither advances
    s, r = combat(s, "japanese", "attack 3408 with " + " ".join(D11), [6])
    assert r.attacker_losses == 0 and s.units["cn-gar-c"].status == "dead"
    s = then(s, "japanese", "stay")
    s, r = combat(s, "japanese", "attack 3509 with " + " ".join(D3), [6])
    assert r.attacker_losses == 0 and s.units["cn-gar-baoshan"].status == "dead"
    s = then(s, "japanese", "stay")
    assert {s.units[u].hex for u in D3} == {"3510"} and {s.units[u].hex for u in D11} == {"3308"}
    s = then(s, "japanese", "end")
    assert (s.turn, s.side, s.phase) == (3, "chinese", "declare")

    # GT 3, Chinese: Move/Move (the units in 3511 cannot withdraw: 7.2); no move is needed for the example
    s = then(s, "chinese", "declare move move")
    for h in ("3410", "3411"):  # "they can not withdraw due to ZOCs": every hex next to 3511 is in a Japanese ZOC
        with pytest.raises(IllegalOrder, match="SNC 7.2"):
            when(s, "chinese", f"move d98 to {h}")
    for _ in range(3):
        s = then(s, "chinese", "end")
    assert (s.side, s.phase) == ("japanese", "declare")

    # GT 3, Japanese: Fight/Fight. 3511 by the 3rd (14 after Wusong, 7 across the creek) and the four SNLF (8)
    s = then(s, "japanese", "declare fight fight")
    s, r = battle(s, "japanese", "attack 3511 with 3510 3512 3611 support air artillery naval", [4])
    assert (r.attack, r.defence, r.odds, r.column, r.result) == (15, 9, "1:1", "5:1", "0/3")  # ruling R3
    s = then(s, "chinese", "lose d87 d98 d87", rolls=[5])  # 8.1: the elite 87th returns on GT 3 + 5
    assert [u.id for u in s.at("3511")] == ["cn-gar-a"]  # "left to be mopped up in the second operation phase"
    # the 11th into Loudian 3208: 12:9, 1:1, 1L town, 3R: 3:1; a 2 is 2/1
    s, r = battle(s, "japanese", "attack 3208 with " + " ".join(D11) + " support air artillery naval", [2])
    assert (r.attack, r.defence, r.odds, r.column, r.result) == (12, 9, "1:1", "3:1", "2/1")
    assert any("town" in x for x in r.shifts)
    assert s.units["cn-d11"].reduced  # the Chinese elite 5 is reduced
    s = then(s, "japanese", "lose d11-r12 d11-r22")  # two of the Japanese regiments
    s = then(s, "japanese", "end")

    # GT 3, Reinforcement Phase: a replacement brings the 3rd back to full strength, one for the 11th (8.3)
    s = then(s, "japanese", "replace d3-r6 d11-r12")
    assert not any(s.units[u].reduced for u in D3) and [u for u in D11 if s.units[u].reduced] == ["jp-d11-r22"]
    # the 101st lands on 3610 and eliminates its garrison, linking up with north-east Shanghai
    s, r = combat(s, "japanese", "land " + " ".join(D101) + " at 3610 support amphibious", [6])
    assert r.attacker_losses == 0 and {s.units[u].hex for u in D101} == {"3610"}
    # one detachment to each division
    for det, h in zip(DETS, ("3510", "3308", "3610"), strict=True):
        s = then(s, "japanese", f"land {det} at {h}")
    assert {s.units[u].hex for u in D3 + ["jp-det-shigeto"]} == {"3510"}
    s = then(s, "japanese", "end")

    # GT 3, Second Operations Phase: the 101st and the SNLF eliminate the 3511 garrison; the 101st advances
    s, r = combat(s, "japanese", "attack 3511 with " + " ".join(D101) + " 3512", [6])
    assert r.attacker_losses == 0 and s.units["cn-gar-a"].status == "dead"
    s = then(s, "japanese", "advance " + " ".join(D101) + " to 3511")
    assert {s.units[u].hex for u in D101} == {"3511"}
    # the 3rd (16 + the 3 detachment = 19, halved to 9 for the creek) on the training brigades in 3410 (10):
    # 1:2, 3R and 1L for the town: 2:1; a 3 is 1/1
    s, r = battle(s, "japanese", "attack 3410 with 3510 support air artillery naval", [3])
    assert (r.attack, r.defence, r.odds, r.column, r.result) == (9, 10, "1:2", "2:1", "1/1")
    s = then(s, "chinese", "lose td1")
    assert s.units["cn-td1"].reduced  # one elite brigade is reduced
    s = then(s, "japanese", "lose d3-r18")
    assert s.units["jp-d3-r18"].reduced and s.units["jp-d3-r18"].strength[0] == 4  # a 4-strength regiment
