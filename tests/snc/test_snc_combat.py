"""SNC combat (10.x, 11.x) and the combat examples of 12.0 and 9.6, played through the rules."""
import pytest
from snc_given import RULES, ev, fold, of, position, then, when

from app.rules.errors import IllegalOrder
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.shifts import Shift
from app.rules.snc.combat import assess, loss_candidates
from app.rules.snc.data_load import load

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
D11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]
SNLF = ["jp-snlf-1", "jp-snlf-2", "jp-snlf-3", "jp-snlf-9"]


def at(hex_, ids):
    return {u: hex_ for u in ids}


def test_10_5_crt_3_to_1_die_3_is_1_over_2_and_map_errata_5_to_1_die_6_is_0_over_4():
    crt = load().crt
    assert crt.cell("3:1", 3).code == "1/2"
    assert crt.cell("5:1", 6).code == "0/4"


def test_12_0_gt3_3511_creek_halves_the_3rd_division_and_three_markers_give_0_over_3():
    s = position({**at("3510", D3), **at("3512", SNLF), "jp-gar-shanghai": "3512",
                  "cn-d87": "3511", "cn-d98": "3511", "cn-gar-a": "3511"}, turn=3)
    events = when(s, "japanese", "attack 3511 with 3510 3512 support air artillery naval")
    assert of(events, ev.DecisionRequired)[0].kind == "intercept"
    s = fold(s, *events)
    events = when(s, "chinese", "pass", rolls=[4])
    r = of(events, ev.CombatResolved)[0]
    # 16 across the creek = 8, + 8 SNLF = 16 vs 9: 1:1 (10.3 rounds down, not the printed 2:1)
    assert (r.attack, r.defence, r.odds) == (16, 9, "1:1")
    assert any("SNC 10.4.2" in x for x in r.shifts)  # 3510 and 3512 are opposite hexes around 3511
    assert (r.column, r.result) == ("5:1", "0/3")
    s = fold(s, *events)
    # 10.5.2: the elite 87th is reduced first, then the 87th and 98th (3 each) tie: the Chinese choose
    assert s.pending[0]["kind"] == "losses" and s.pending[0]["side"] == "chinese"
    s = then(s, "chinese", "lose d87 d98 d87", rolls=[5])  # 8.1: the elite 87th returns on GT 3 + 5
    assert s.units["cn-d87"].status == "returning" and s.units["cn-d87"].return_turn == 8
    assert [u.id for u in s.at("3511")] == ["cn-gar-a"]  # the garrison is left to be mopped up
    assert s.battle is None


def test_12_0_gt3_loudian_town_1L_and_3R_give_3_to_1_die_2_is_2_over_1():
    s = position({**at("3308", D11), "cn-d87": "3208", "cn-d98": "3208", "cn-b45": "3208",
                  "cn-d57": "3612"}, turn=3)
    s = then(s, "japanese", "attack 3208 with 3308 support air artillery naval")
    events = when(s, "chinese", "pass", rolls=[2])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds, r.column, r.result) == (12, 9, "1:1", "3:1", "2/1")
    assert any("SNC 10.4.1: town" in x for x in r.shifts)
    s = fold(s, *events)
    assert s.units["cn-d87"].reduced  # the elite 5 is reduced (10.5.2 item 1, no choice)
    s = then(s, "japanese", "lose d11-r12 d11-r22")
    assert sum(s.units[u].reduced for u in D11) == 2


def test_12_0_gt3_3410_creek_19_to_9_against_10_is_1_to_2_then_2_to_1_die_3_is_1_over_1():
    s = position({**at("3510", D3), "jp-det-shigeto": "3510",
                  "cn-td1": "3410", "cn-td2": "3410", "cn-d7": "3410",
                  "cn-d57": "3612"}, turn=3)
    s = then(s, "japanese", "attack 3410 with 3510 support air artillery naval")
    events = when(s, "chinese", "pass", rolls=[3])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds, r.column, r.result) == (9, 10, "1:2", "2:1", "1/1")
    s = fold(s, *events)
    s = then(s, "chinese", "lose td1")
    assert s.units["cn-td1"].reduced
    with pytest.raises(IllegalOrder, match="SNC 10.5.2"):
        when(s, "japanese", "lose det-shigeto")  # a 4-strength regiment must go before the 3 detachment
    s = then(s, "japanese", "lose d3-r6")
    assert s.units["jp-d3-r6"].cf == 2


def test_9_6_overrun_of_2707_marsh_10_on_2_with_artillery_is_4_to_1_and_the_11th_advances():
    s = position({**at("2806", D11), "cn-d7": "2707", "cn-d58": "2606", "cn-d61": "2606", "cn-d62": "2606"},
                 turn=7, plan=("move", "fight"), steps={"jp-d11-r43": 1, "jp-d11-r44": 1})
    s = fold(s, ev.UnitsMoved(D11, ["2806"], 5.0))  # it rumbled into 2806 with 3 MP left
    events = when(s, "japanese", "overrun 2707 with 2806 support artillery", rolls=[3])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds) == (10, 2, "5:1")
    assert any("SNC 9.6" in x for x in r.shifts) and any("marsh" in x for x in r.shifts)
    assert r.column == "4:1"
    s = fold(s, *events)
    assert s.units["cn-d7"].status == "dead"
    s = then(s, "japanese", "lose d11-r12")  # a third regiment is reduced (the two full ones tie)
    assert {s.units[u].hex for u in D11} == {"2707"}
    assert s.units["jp-d11-r12"].mp_used == 8


def test_9_6_no_overrun_into_a_town_or_without_the_extra_mp():
    s = position({**at("2706", D11), "cn-d58": "2606"}, plan=("move", "fight"))
    with pytest.raises(IllegalOrder, match="SNC 9.6: no overrun into a town"):
        when(s, "japanese", "overrun 2606 with 2706")
    s = position({**at("2806", D11), "cn-d7": "2707"}, plan=("move", "fight"))
    s = fold(s, ev.UnitsMoved(D11, ["2806"], 6.0))
    with pytest.raises(IllegalOrder, match="SNC 9.6: the overrun needs 3 MP"):
        when(s, "japanese", "overrun 2707 with 2806")


def test_10_4_1_town_in_marsh_gives_chinese_two_left_japanese_defenders_none_and_cities_two():
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606", "cn-d7": "2410"}, turn=7)
    p = assess(s, {"hex": "2606", "side": "japanese", "kind": "attack", "attackers": ["jp-d11-r12"],
                   "defenders": ["cn-d58"]})
    assert p.shifts.net == -2
    s2 = position({"cn-d58": "2706", "jp-d11-r12": "2606"}, turn=7)
    p2 = assess(s2, {"hex": "2606", "side": "chinese", "kind": "attack", "attackers": ["cn-d58"],
                     "defenders": ["jp-d11-r12"]})
    assert [sh.reason for sh in p2.shifts.shifts] == ["marsh"]  # 10.4.1: the town shift is Chinese only
    p3 = assess(s, {"hex": "2410", "side": "japanese", "kind": "attack", "attackers": ["jp-d11-r12"],
                    "defenders": ["cn-d7"]})
    assert [(sh.amount, sh.reason) for sh in p3.shifts.shifts] == [(-2, "city")]


@pytest.mark.parametrize(("hexes", "shift"), [
    (["2511", "2513"], True),            # opposite hexes (N, S)
    (["2511", "2611"], False),           # two hexes side by side
    (["2511", "2612", "2412"], True),    # three with one hex between each (N, SE, SW)
    (["2511", "2611", "2612"], False),   # three in a row
    (["2511", "2611", "2612", "2513"], True),  # more than three
])
def test_10_4_2_concentric_opposite_alternating_or_more_than_three_hexes(hexes, shift):
    regiments = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"][:len(hexes)]
    s = position({**dict(zip(regiments, hexes, strict=True)), "cn-d7": "2512"}, turn=7)
    p = assess(s, {"hex": "2512", "side": "japanese", "kind": "attack", "attackers": regiments,
                   "defenders": ["cn-d7"]})
    assert any(sh.case == "SNC 10.4.2" and sh.amount == 1 for sh in p.shifts.shifts) is shift


def test_10_4_2_concentric_shift_for_opposite_hexes_but_never_into_a_city():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3411", "cn-d7": "3410", "cn-d58": "2410",
                  "jp-d11-r12": "2409", "jp-d11-r22": "2411"}, turn=7)
    p = assess(s, {"hex": "3410", "side": "japanese", "kind": "attack", "attackers": ["jp-d3-r6", "jp-d3-r18"],
                   "defenders": ["cn-d7"]})
    assert any(sh.case == "SNC 10.4.2" for sh in p.shifts.shifts)
    p = assess(s, {"hex": "2410", "side": "japanese", "kind": "attack",
                   "attackers": ["jp-d11-r12", "jp-d11-r22"], "defenders": ["cn-d58"]})
    assert not any(sh.case == "SNC 10.4.2" for sh in p.shifts.shifts)


def test_10_0_each_hex_attacked_once_and_each_unit_attacks_once_per_phase():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-d87": "3408", "cn-d8": "3410"}, turn=7)
    s = then(s, "japanese", "attack 3408 with d3-r6", rolls=[5])  # 4 on 5 = 1:2, die 5 = 1/1: both reduced
    assert s.battle is None and s.units["cn-d87"].reduced and s.units["jp-d3-r6"].reduced
    with pytest.raises(IllegalOrder, match="SNC 10.0: 3408 has already been attacked"):
        when(s, "japanese", "attack 3408 with d3-r18")
    with pytest.raises(IllegalOrder, match="SNC 10.0: jp-d3-r6 has already attacked this phase"):
        when(s, "japanese", "attack 3410 with d3-r6")
    assert of(when(s, "japanese", "attack 3410 with d3-r18", rolls=[1]), ev.CombatResolved)


def test_10_2_static_units_never_attack():
    s = position({"cn-gar-c": "3408", "jp-d3-r6": "3409"}, side="chinese", turn=7)
    with pytest.raises(IllegalOrder, match="SNC 10.2"):
        when(s, "chinese", "attack 3409 with cn-gar-c")


def test_10_4_1_no_attack_across_all_lake_hexsides():
    s = position({"cn-d7": "2608", "jp-d3-r6": "2709"}, side="chinese", turn=7)
    with pytest.raises(IllegalOrder, match="SNC 10.4.1"):
        when(s, "chinese", "attack 2709 with d7")


def test_10_5_2_reduce_before_eliminate_strongest_first_japanese_garrisons_last():
    s = position({"jp-gar-shanghai": "3512", "jp-snlf-1": "3512", "jp-d3-r6": "3512"}, turn=7,
                 steps={"jp-snlf-1": 1})
    units = [s.units[u] for u in ("jp-gar-shanghai", "jp-snlf-1", "jp-d3-r6")]
    steps = {u.id: u.steps for u in units}
    assert loss_candidates(units, steps) == ["jp-d3-r6"]  # the only two-step unit
    steps["jp-d3-r6"] = 1
    assert loss_candidates(units, steps) == ["jp-d3-r6"]  # strongest (2 against the SNLF's 1)
    steps["jp-d3-r6"] = 0
    assert loss_candidates(units, steps) == ["jp-snlf-1"]  # the garrison (2) goes last


def test_10_5_3_advance_after_combat_into_the_emptied_hex_only_and_9_1_garrison_on_a_city():
    s = position({"jp-d3-r6": "2409", "jp-d3-r18": "2409", "cn-d7": "2410"}, turn=7)
    s = then(s, "japanese", "attack 2410 with 2409", rolls=[6])
    assert s.pending[0]["kind"] == "advance"
    with pytest.raises(IllegalOrder, match="SNC 10.5.3"):
        when(s, "japanese", "advance d3-r6 to 2411")
    s = then(s, "japanese", "advance d3-r6 to 2410")
    assert s.units["jp-d3-r6"].hex == "2410" and s.units["jp-d3-r18"].hex == "2409"
    assert s.controller("2410") == "japanese"  # 3.2
    assert any(u.static and u.side == "japanese" for u in s.at("2410"))  # 9.1


def test_11_1_one_marker_per_kind_and_11_4_naval_only_near_the_rivers():
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7)
    with pytest.raises(IllegalOrder, match="SNC 11.4"):
        when(s, "japanese", "attack 2606 with d11-r12 support naval")
    with pytest.raises(IllegalOrder, match="SNC 11.1"):
        when(s, "japanese", "attack 2606 with d11-r12 support artillery artillery")
    s = position({"cn-d58": "2706", "jp-d11-r12": "2606"}, turn=7, side="chinese")
    with pytest.raises(IllegalOrder, match="SNC 11.0"):
        when(s, "chinese", "attack 2606 with d58 support air")


def test_11_3_chinese_air_six_aborts_the_japanese_air_marker_and_one_loses_the_air_force():
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7)
    s = then(s, "japanese", "attack 2606 with d11-r12 support air")
    events = when(s, "chinese", "intercept", rolls=[6, 3])
    assert of(events, ev.AirInterception)[0].aborted
    assert not any("air support" in x for x in of(events, ev.CombatResolved)[0].shifts)
    events = when(s, "chinese", "intercept", rolls=[1, 3])
    assert fold(s, *events).chinese_air is False
    for roll in (2, 5):  # only a 6 aborts and only a 1 loses the air force
        events = when(s, "chinese", "intercept", rolls=[roll, 3])
        assert not of(events, ev.AirInterception)[0].aborted and fold(s, *events).chinese_air is True
        assert any("air support" in x for x in of(events, ev.CombatResolved)[0].shifts)


def test_11_4_defensive_naval_gunfire_shifts_a_chinese_attack_left():
    s = position({"cn-d55": "3610", "jp-snlf-3": "3611", "jp-gar-a": "3611"}, turn=7, side="chinese")
    s = then(s, "chinese", "attack 3611 with d55")
    assert s.pending[0]["kind"] == "defend"
    events = when(s, "japanese", "support naval", rolls=[3])
    assert any("SNC 11.4" in x for x in of(events, ev.CombatResolved)[0].shifts)
    # only a hex next to the rivers: 3409, one hex inland from the Yangtze, gets no defensive gunfire
    s = position({"cn-d55": "3410", "jp-d3-r6": "3409"}, turn=7, side="chinese")
    events = when(s, "chinese", "attack 3409 with d55", rolls=[3])
    assert not of(events, ev.DecisionRequired) and of(events, ev.CombatResolved)


def test_11_4_defensive_naval_gunfire_is_one_column_left_and_the_history_says_so():
    s = position({"cn-d87": "3410", "cn-d98": "3410", "jp-d3-r6": "3510", "jp-snlf-1": "3512"}, turn=7,
                 side="chinese")
    s = then(s, "chinese", "attack 3510 with d87 d98")
    [unsupported] = of(when(s, "japanese", "pass", rolls=[3]), ev.CombatResolved)
    [supported] = of(when(s, "japanese", "support naval", rolls=[3]), ev.CombatResolved)
    assert unsupported.describe() == "attack on 3510: 4:4 = 1:1, shifts none -> 1:1, die 3: 2/1"
    assert supported.describe() == ("attack on 3510: 4:4 = 1:1, shifts 1L (SNC 11.4: defensive naval gunfire) "
                                    "-> 1:2, die 3: 2/0")


def test_6_0_2_after_each_combat_both_players_bring_every_hex_within_the_limits():
    # four Chinese divisions at Suzhou (placed there, R23: no check on placement); a Japanese attack elsewhere
    suzhou = {u: "2410" for u in ("cn-d7", "cn-d8", "cn-d18", "cn-d44")}
    s = position({"jp-d3-r6": "3409", "cn-gar-c": "3408", **suzhou, "cn-d57": "3612"}, turn=7)
    s = then(s, "japanese", "attack 3408 with d3-r6", rolls=[6])
    s = then(s, "japanese", "stay")
    assert s.pending[0]["kind"] == "overstack" and s.pending[0]["side"] == "chinese"
    s = then(s, "chinese", "eliminate d8")
    assert not s.pending and len(s.at("2410")) == 3 and s.phase == "ops1"  # the phase goes on


def test_6_0_after_combat_the_owner_eliminates_excess_units():
    s = position({**at("3409", D3), "jp-d11-r12": "3409", "cn-gar-c": "3408"}, turn=7)
    s = then(s, "japanese", "attack 3408 with d3-r6", rolls=[6])
    s = then(s, "japanese", "advance d3-r6 to 3408")
    assert not s.pending  # 3409 now holds 3 + 1: fine
    assert RULES.prompt(s).step.endswith("(fight)")


def test_10_3_1_zero_factors_across_a_creek_stay_on_1_to_3_where_one_factor_reaches_1_to_2():
    # ruling R30: the 1-factor 20th Brigade across the creek 3412/3313 attacks with 0 (10.4.1 rounds down); 0 on 3
    # is worse than any 1:n, so artillery's 1R leaves it on 1:3 (10.3.1); from 3413 (no creek) 1 on 3 gets 1:2
    for origin, attack, odds, column in (("3412", 0, "0", "1:3"), ("3413", 1, "1:3", "1:2")):
        s = position({"cn-b20": origin, "jp-d11-r12": "3313"}, side="chinese", turn=7)
        r = of(when(s, "chinese", "attack 3313 with b20 support artillery", rolls=[4]), ev.CombatResolved)[0]
        assert (r.attack, r.defence, r.odds, r.column) == (attack, 3, odds, column)


@pytest.mark.parametrize(("origin", "target", "allowed"), [
    ("3312", "3412", False),  # neither hex on a river nor one hex inland from the Yangtze (issue 19, D5)
    ("3411", "3410", False),  # two hexes from the Yangtze, one from the Huangpu bank: no band along the Huangpu
    ("3510", "3410", True),   # from Wusong, on the Huangpu (12.0 GT 3)
    ("3410", "3409", True),   # into a hex one inland from the Yangtze (3408 is on it)
    ("3409", "3410", True),   # from such a hex
])
def test_11_4_naval_gunfire_for_attacks_on_or_from_the_rivers_or_one_hex_inland_from_the_yangtze(origin, target,
                                                                                                 allowed):
    s = position({"jp-d11-r12": origin, "cn-d7": target}, turn=7)
    order = f"attack {target} with d11-r12 support naval"
    if not allowed:
        with pytest.raises(IllegalOrder, match="SNC 11.4"):
            when(s, "japanese", order)
        return
    r = of(when(s, "japanese", order, rolls=[4]), ev.CombatResolved)[0]
    assert any("SNC 11.4" in x for x in r.shifts)


def test_10_0_9_6_a_hex_overrun_this_phase_is_overrun_again_only_by_the_units_that_overran_it():
    s = position({**at("2806", D11), "jp-d3-r6": "2807", "cn-d87": "2707", "cn-d7": "2707"}, plan=("move", "fight"))
    # 12 on 7 = 1:1, 1L marsh, 1L overrun: 1:3; die 6 = 1/1: the elite 87th is reduced, the Chinese hold 2707
    s = then(s, "japanese", "overrun 2707 with 2806", rolls=[6])
    s = then(s, "japanese", "lose d11-r12")
    assert s.battle is None and {u.id for u in s.at("2707")} == {"cn-d87", "cn-d7"}
    with pytest.raises(IllegalOrder, match="SNC 10.0: 2707 has already been overrun"):
        when(s, "japanese", "overrun 2707 with d3-r6")  # issue 19, D6: another stack
    events = when(s, "japanese", "overrun 2707 with 2806", rolls=[1])  # 9.6: the overrunning units, one MP more
    assert of(events, ev.CombatResolved) and of(events, ev.UnitsMoved)[0].mp == 1


def test_10_5_3_an_advance_observes_the_stacking_limit_five_units_advance_six_do_not():
    s = position({**at("3409", D3), "jp-det-shigeto": "3409", "jp-d11-r12": "3309", "cn-gar-c": "3408"})
    s = then(s, "japanese", "attack 3408 with 3409 3309", rolls=[6])
    assert s.pending[0]["kind"] == "advance"
    six = " ".join([*D3, "det-shigeto", "d11-r12"])
    with pytest.raises(IllegalOrder, match="SNC 10.5.3: an advance observes the stacking limits"):
        when(s, "japanese", f"advance {six} to 3408")  # issue 19, D7: not accepted and then eliminated
    s = then(s, "japanese", f"advance {' '.join(D3)} det-shigeto to 3408")  # a division and one unit: the limit
    assert len(s.at("3408")) == 5 and not s.pending


def test_10_5_3_an_advance_into_a_city_counts_the_9_1_garrison_it_brings():
    s = position({**at("2409", D3), "jp-det-shigeto": "2409", "cn-d7": "2410"})
    s = then(s, "japanese", "attack 2410 with 2409", rolls=[6])  # 19 on 2, city 2L: 6:1, die 6 = 0/4
    with pytest.raises(IllegalOrder, match="SNC 10.5.3"):
        when(s, "japanese", f"advance {' '.join(D3)} det-shigeto to 2410")
    s = then(s, "japanese", f"advance {' '.join(D3)} to 2410")
    assert len(s.at("2410")) == 5 and any(u.static for u in s.at("2410")) and not s.pending


@pytest.mark.parametrize(("attack", "defence", "odds"), [
    (21, 7, "3:1"), (20, 7, "2:1"),   # 10.3: rounded down; 3:1 reached exactly
    (7, 7, "1:1"), (6, 7, "1:2"),     # fewer factors than the defender: a poor odds attack, rounded up
    (5, 10, "1:2"), (5, 11, "1:3"),
])
def test_10_3_odds_at_the_rounding_boundaries(attack, defence, odds):
    assert preview_attack(load().crt, attack, defence).odds.label == odds


@pytest.mark.parametrize(("attack", "defence", "right", "column"), [
    (6, 1, 0, "6:1"), (7, 1, 0, "6:1"), (7, 1, -1, "6:1"), (6, 1, -1, "5:1"),  # 10.3.1: final odds
    (1, 3, 0, "1:3"), (1, 4, 0, "1:3"), (1, 3, 1, "1:2"), (1, 4, 1, "1:3"),
])
def test_10_3_1_the_end_columns_take_the_final_odds_beyond_them(attack, defence, right, column):
    assert preview_attack(load().crt, attack, defence, [Shift(right, "SNC 10.4", "net shift")]).column_label == column


def test_10_4_1_creek_halving_is_on_the_total_of_the_attackers_across_it_rounded_down():
    # two 1-factor brigades across the creek 3412/3313: 1 + 1 halved = 1 (each alone: 1/2 -> 0)
    s = position({"cn-b20": "3412", "cn-b45": "3412", "jp-d11-r12": "3313"}, side="chinese", turn=7)
    p = assess(s, {"hex": "3313", "side": "chinese", "kind": "attack", "attackers": ["cn-b20", "cn-b45"],
                   "defenders": ["jp-d11-r12"]})
    assert p.attack.total == 1
    p = assess(s, {"hex": "3313", "side": "chinese", "kind": "attack", "attackers": ["cn-b20"],
                   "defenders": ["jp-d11-r12"]})
    assert p.attack.total == 0
    # the Huangpu, a river: a third (10.4.1); 3 across it is 1
    s = position({"cn-d98": "3612", "jp-snlf-1": "3512"}, side="chinese", turn=7)
    p = assess(s, {"hex": "3512", "side": "chinese", "kind": "attack", "attackers": ["cn-d98"],
                   "defenders": ["jp-snlf-1"]})
    assert p.attack.total == 1
