"""SNC reinforcements and replacements (8.x, 11.2, 11.3, 13.0) and the 12.0 GT 2 landings."""
from dataclasses import replace

import pytest
from snc_given import RULES, ev, fold, given, of, position, then, when

from app.rules.errors import IllegalOrder
from app.rules.snc.reinforcements import due

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
D11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]


def japanese_reinforcement_phase(turn=2):
    """GT `turn` from the 13.0 set-up, the Japanese Reinforcement Phase (their units not yet landed)."""
    s = given()
    s = fold(s, ev.PhasesDeclared("chinese", "move", "move"))
    for _ in range(3):
        s = fold(s, ev.PhaseEnded(side=s.side, phase=s.phase, turn=s.turn))
    s = fold(s, ev.PhasesDeclared("japanese", "fight", "fight"), ev.PhaseEnded(side="japanese", phase="ops1", turn=1))
    return s


def at_gt2_japanese_reinforcement_phase():
    s = japanese_reinforcement_phase()
    s = fold(s, ev.ReinforcementsPlaced(["jp-snlf-9"], "3512", "landing"),
             ev.PhaseEnded(side="japanese", phase="reinf", turn=1),
             ev.PhaseEnded(side="japanese", phase="ops2", turn=1), ev.PhasesDeclared("chinese", "move", "move"),
             ev.PhaseEnded(side="chinese", phase="ops1", turn=2), ev.PhaseEnded(side="chinese", phase="reinf", turn=2),
             ev.PhaseEnded(side="chinese", phase="ops2", turn=2), ev.PhasesDeclared("japanese", "move", "fight"),
             ev.PhaseEnded(side="japanese", phase="ops1", turn=2))
    assert (s.turn, s.side, s.phase) == (2, "japanese", "reinf")
    return s


def test_13_0_set_up_places_the_at_start_units_and_holds_the_rest_by_gt():
    s = given()
    assert sorted(u.id for u in s.at("3512")) == ["jp-gar-shanghai", "jp-snlf-1", "jp-snlf-2"]
    assert {u.id for u in s.at("3511")} >= {"cn-d87", "cn-d98"}
    assert s.units["jp-snlf-9"].status == "pool" and s.units["jp-snlf-9"].arrival_turn == 1
    assert s.jp_control == frozenset({"3512", "3611"})  # 3.2


def test_8_4_snlf_9_lands_unopposed_at_shanghai_on_gt_1():
    s = japanese_reinforcement_phase()
    events = when(s, "japanese", "land snlf-9 at 3611")
    assert of(events, ev.ReinforcementsPlaced)[0].hex == "3611"
    with pytest.raises(IllegalOrder, match="SNC 13.0"):
        when(s, "japanese", "land snlf-9 at 3510")


def test_12_0_gt2_wusong_landing_8_on_3_with_four_markers_is_6_to_1_die_1_loses_a_step():
    s = at_gt2_japanese_reinforcement_phase()
    s = then(s, "japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510 support amphibious naval air artillery")
    events = when(s, "chinese", "pass", rolls=[1])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds, r.column) == (8, 3, "2:1", "6:1")  # 8.4: 16 halved
    s = fold(s, *events)
    assert s.units["cn-gar-wusong"].status == "dead"  # the two-step garrison is removed
    s = then(s, "japanese", "lose d3-r6")  # the Japanese choose which regiment loses the step
    assert {s.units[u].hex for u in D3} == {"3510"}  # 8.4 1): survivors advance into the landing hex
    assert s.controller("3510") == "japanese"


def test_12_0_gt2_chuanshakou_landing_is_an_easy_6_to_1_without_loss():
    s = at_gt2_japanese_reinforcement_phase()
    events = when(s, "japanese", "land d11-r12 d11-r22 d11-r43 d11-r44 at 3308 support amphibious", rolls=[3])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.column) == (6, 1, "6:1") and r.attacker_losses == 0
    s = fold(s, *events)
    assert {s.units[u].hex for u in D11} == {"3308"}


def test_8_4_2_chinese_survivors_retreat_garrison_steps_die_and_the_japanese_lose_one_step_more():
    s = position({"cn-gar-wusong": "3510", "cn-d7": "3510", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2,
                 phase="reinf", pool=tuple(D3))
    events = when(s, "japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510", rolls=[3])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds, r.result) == (8, 5, "1:1", "2/1")
    s = fold(s, *events)
    assert s.units["cn-gar-wusong"].status == "dead"  # reduced by the result, its last step dies retreating
    assert s.pending[0]["kind"] == "retreat" and s.pending[0]["side"] == "chinese"
    assert RULES.prompt(s).owed.text().splitlines() == [   # what the Chinese player is asked, and where to
        "retreat the Chinese survivors one hex (SNC 8.4): cn-d7 in 3510: one of these hexes",
        *(f"    {h:24} open" for h in ("3509", "3609", "3610", "3511", "3410", "3409"))]
    with pytest.raises(IllegalOrder, match="SNC 8.4"):
        when(s, "chinese", "retreat to 3408")  # two hexes away
    s = then(s, "chinese", "retreat to 3511")
    assert s.units["cn-d7"].hex == "3511"
    assert s.pending[0]["data"]["count"] == 3  # two steps from the CRT and one more (8.4 2)
    s = then(s, "japanese", "lose d3-r6 d3-r18 d3-r34")
    assert {s.units[u].hex for u in D3} == {"3510"}


def test_8_3_japanese_replacements_two_steps_with_a_loc_to_a_landing_hex_first_thing_in_the_phase():
    s = position({"jp-d3-r6": "3410", "jp-d3-r18": "3410", "jp-d3-r34": "3410", "cn-d57": "3612"}, turn=3,
                 phase="reinf", steps={"jp-d3-r6": 1, "jp-d3-r18": 1, "jp-d3-r34": 1})
    s = fold(s, ev.PhaseEnded(side="japanese", phase="ops1", turn=3)) if s.phase == "ops1" else s
    s = replace(s, **{"replacements": 2})
    with pytest.raises(IllegalOrder, match="SNC 8.3"):
        when(s, "japanese", "replace d3-r6 d3-r18 d3-r34")
    s = then(s, "japanese", "replace d3-r6 d3-r18")
    assert not s.units["jp-d3-r6"].reduced and s.replacements == 0
    assert "replace" not in [a.name for a in __import__("snc_given").RULES.prompt(s).actions]


@pytest.mark.parametrize(("turn", "steps"), [(2, 0), (3, 2)])
def test_8_3_two_replacement_steps_from_gt_3_in_the_reinforcement_phase(turn, steps):
    s = position({"jp-d3-r6": "3409", "cn-d57": "3612"}, turn=turn, plan=("move", "move"), steps={"jp-d3-r6": 1})
    s = then(s, "japanese", "end")
    assert s.phase == "reinf" and s.replacements == steps
    assert ("replace" in [a.name for a in __import__("snc_given").RULES.prompt(s).actions]) is bool(steps)


def test_8_3_no_replacement_without_a_line_of_communication():
    s = position({"jp-d3-r6": "1102", "cn-d7": "1202", "cn-d58": "1002", "cn-d51": "1103", "cn-d61": "1101",
                  "cn-d62": "1003", "cn-d63": "1203", "cn-d57": "3612"}, turn=3, phase="reinf",
                 steps={"jp-d3-r6": 1})
    s = replace(s, **{"replacements": 2})
    with pytest.raises(IllegalOrder, match="SNC 8.3: jp-d3-r6 has no line of communication"):
        when(s, "japanese", "replace d3-r6")


def test_8_2_chinese_reinforcements_placed_in_listed_hex_may_move_but_not_next_to_the_japanese():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2, side="chinese", phase="reinf")
    s = replace(s, **{"units": {**s.units, "cn-d7": s.units["cn-d7"].__class__(
        **{**s.units["cn-d7"].__dict__, "arrival_turn": 2})}})
    with pytest.raises(IllegalOrder, match="SNC 13.0"):
        when(s, "chinese", "place d7 at 2409")
    s = then(s, "chinese", "place d7 at 2410")
    s = then(s, "chinese", "move d7 to 2610")
    assert s.units["cn-d7"].hex == "2610"


def test_8_2_reinforcements_are_not_placed_or_moved_next_to_a_japanese_unit():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d3-r6": "2612"}, turn=2, side="chinese",
                 phase="reinf", pool=("cn-d7", "cn-d11"))
    # 2410 is two hexes from 2612: placed, it may move to 2511 (two from 2612) but not into 2511's neighbour 2611
    s = then(s, "chinese", "place d7 at 2410")
    assert of(when(s, "chinese", "move d7 to 2511"), ev.UnitsMoved)
    with pytest.raises(IllegalOrder, match="SNC 8.2: reinforcements placed in their listed hex may not move adjacent"):
        when(s, "chinese", "move d7 to 2611")
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d3-r6": "2603"}, turn=2, side="chinese",
                 phase="reinf", pool=("cn-d11",))
    with pytest.raises(IllegalOrder, match="SNC 8.2: Chinese reinforcements may not be placed adjacent"):
        when(s, "chinese", "place d11 at 2503")


def test_8_0_3_1_no_reinforcement_arrives_before_its_gt():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=1, side="chinese", phase="reinf", pool=("cn-d7",))
    with pytest.raises(IllegalOrder, match="SNC 8.0: cn-d7 arrives on GT 2"):  # 8.2 before rules version 14 (E30)
        when(s, "chinese", "place d7 at 2410")
    s = replace(s, **{"turn": 2})
    assert of(when(s, "chinese", "place d7 at 2410"), ev.ReinforcementsPlaced)


def test_5_3_chinese_who_fight_in_the_first_phase_still_move_arriving_reinforcements():
    s = given(ev.PhasesDeclared("chinese", "fight", "fight"))
    s = then(s, "chinese", "end")
    assert s.phase == "reinf"
    names = [a.name for a in __import__("snc_given").RULES.prompt(s).actions]
    assert "move" in names and "place" in names


def test_8_1_an_elite_eliminated_on_gt_4_with_a_4_returns_on_gt_8_reduced_at_nanking():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-d87": "3410", "cn-d57": "3612"}, turn=4,
                 steps={"cn-d87": 1})
    events = when(s, "japanese", "attack 3410 with 3409", rolls=[6, 4])
    sched = of(events, ev.EliteScheduled)[0]
    assert (sched.unit, sched.roll, sched.turn) == ("cn-d87", 4, 8)
    s = fold(s, *events)
    s8 = replace(s, **{"turn": 8, "side": "chinese", "phase": "reinf", "pending": (), "battle": None})
    assert "cn-d87" in [u.id for u in due(s8, "chinese")]
    with pytest.raises(IllegalOrder, match=r"SNC 8.1: cn-d87 returns in or adjacent to Nanking \(0202\), not 2410"):
        when(s8, "chinese", "place d87 at 2410")
    with pytest.raises(IllegalOrder, match="SNC 8.1: returning elites are placed in or adjacent to Nanking"):
        when(s8, "chinese", "rail d87 to 0105")  # not by railroad (8.2 b) either
    s8 = then(s8, "chinese", "place d87 at 0302")
    assert s8.units["cn-d87"].reduced


@pytest.mark.parametrize(("turn", "returns"), [(8, 12), (9, 0)])
def test_8_1_an_elite_returns_on_gt_12_at_the_latest_and_is_gone_if_the_roll_goes_beyond(turn, returns):
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-d87": "3410"}, turn=turn, steps={"cn-d87": 1})
    events = when(s, "japanese", "attack 3410 with 3409", rolls=[6, 4])
    assert of(events, ev.EliteScheduled)[0].turn == returns  # GT + 4: 12 is on the track, 13 is not


def test_11_2_interdiction_removes_combat_factors_of_this_turns_reinforcements_chinese_choose():
    s = given()
    s = replace(s, **{"turn": 4, "phase": "reinf", "plan": ("move", "move")})
    prompt = __import__("snc_given").RULES.prompt(s)
    assert [a.name for a in prompt.actions] == ["air", "proceed"]
    s = then(s, "chinese", "proceed", rolls=[3])
    assert s.pending[0]["kind"] == "interdiction"
    with pytest.raises(IllegalOrder, match="SNC 11.2"):
        when(s, "chinese", "remove d9 d8")  # 3 factors are covered without the 8th
    s = then(s, "chinese", "remove d9")
    assert s.units["cn-d9"].status == "removed"


@pytest.mark.parametrize(("roll", "chosen"), [(4, False), (3, True)])
def test_11_2_the_chinese_choose_only_when_the_reinforcements_total_more_than_the_roll(roll, chosen):
    # ruling R28: the 9th Division (elite 4) alone arrives on GT 4; a roll of 4 takes it, a 3 asks which to remove
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=4, side="chinese", phase="reinf", pool=("cn-d9",))
    events = when(s, "chinese", "proceed", rolls=[roll])
    assert bool(of(events, ev.DecisionRequired)) is chosen
    if not chosen:
        assert of(events, ev.UnitsRemoved)[0].units == ["cn-d9"]


def test_11_2_no_interdiction_before_gt_3():
    s = given()
    s = replace(s, **{"turn": 2, "phase": "reinf", "plan": ("move", "move")})
    assert "proceed" not in [a.name for a in __import__("snc_given").RULES.prompt(s).actions]
    s = replace(s, **{"turn": 3})
    assert [a.name for a in __import__("snc_given").RULES.prompt(s).actions] == ["air", "proceed"]


def test_11_3_chinese_air_disrupts_the_interdiction_on_a_6():
    s = given()
    s = replace(s, **{"turn": 4, "phase": "reinf", "plan": ("move", "move")})
    events = when(s, "chinese", "air", rolls=[6])
    assert of(events, ev.UnitsRemoved)[0].units == []
    events = when(s, "chinese", "air", rolls=[5, 3])  # a 5 does not: the Japanese roll 3
    assert of(events, ev.DecisionRequired)[0].data["roll"] == 3


def test_8_2_b_railroad_placement_needs_a_rail_loc_to_the_west_or_south_edge_from_gt_3():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=3, side="chinese", phase="reinf")
    s = replace(s, **{"interdicted": 3,
                       "units": {**s.units, "cn-d13": s.units["cn-d13"].__class__(
                           **{**s.units["cn-d13"].__dict__, "arrival_turn": 3})}})
    s2 = then(s, "chinese", "rail d13 to 1605")
    assert s2.units["cn-d13"].placed_by == "rail"
    early = replace(s, **{"turn": 2, "units": {**s.units, "cn-d13": s.units["cn-d13"].__class__(
        **{**s.units["cn-d13"].__dict__, "arrival_turn": 2})}})
    with pytest.raises(IllegalOrder, match="SNC 8.2: railroad placement starts on GT 3"):  # E17; 5.1 before
        when(early, "chinese", "rail d13 to 1605")
    with pytest.raises(IllegalOrder, match="SNC 8.2"):
        when(s2, "chinese", "move d13 to 1606")
    blocked = replace(s, **{"units": {**s.units, "jp-d3-r6": s.units["jp-d3-r6"].__class__(
        **{**s.units["jp-d3-r6"].__dict__, "hex": "1404", "status": "map"}),
        "jp-d3-r18": s.units["jp-d3-r18"].__class__(**{**s.units["jp-d3-r18"].__dict__, "hex": "1807",
                                                        "status": "map"})}})
    with pytest.raises(IllegalOrder, match="SNC 8.2"):
        when(blocked, "chinese", "rail d13 to 1605")


ENCLOSED = {"cn-gar-wusong": "3510", "cn-d87": "3511", "cn-d57": "3611", "cn-b45": "3710"}


@pytest.mark.parametrize(("unit", "chinese", "allowed"), [
    ("snlf-1", ENCLOSED, False),
    ("snlf-1", {"cn-d57": "3611", "cn-b45": "3710"}, True),
    ("d3-r6", ENCLOSED, True),
])
def test_8_3_an_snlf_is_replaced_through_wusong_or_a_yangtze_landing_hex_not_the_huangpu_landing_3610(unit, chinese,
                                                                                                         allowed):
    # A reduced unit in 3610 (a landing hex on the Huangpu, 12.0); 3611 and 3710 held, 3609 and 3711 in their
    # ZOC. With Wusong and 3511 held too, 3610 is all it can reach: a landing hex, enough for a regiment (8.3),
    # not for an SNLF, which needs Wusong or another Yangtze hex (8.3 designer's note; issue 19, D8).
    s = position({f"jp-{unit}": "3610", **chinese}, turn=3, phase="reinf", steps={f"jp-{unit}": 1})
    s = replace(s, **{"replacements": 2})
    if allowed:
        assert not then(s, "japanese", f"replace {unit}").units[f"jp-{unit}"].reduced
        return
    with pytest.raises(IllegalOrder, match=f"SNC 8.3: jp-{unit} has no line of communication to Wusong"):
        when(s, "japanese", f"replace {unit}")


def test_8_4_2_a_lone_detachment_at_1_to_3_removes_the_two_step_wusong_garrison_and_dies_ruling_r32():
    s = position({"cn-gar-wusong": "3510", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=3, phase="reinf",
                 pool=("jp-det-shigeto",))
    events = when(s, "japanese", "land det-shigeto at 3510", rolls=[1])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.column, r.result) == (1, 3, "1:3", "3/0")  # 3 halved to 1 (8.4)
    # 8.4 2): the garrison survived the combat, so its steps are eliminated; the Japanese lose 3 + 1 (only 2 there)
    assert [e.units for e in of(events, ev.StepsLost)] == [["cn-gar-wusong"] * 2, ["jp-det-shigeto"] * 2]
    s = fold(s, *events)
    assert s.at("3510") == [] and s.controller("3510") == "chinese" and s.battle is None and not s.pending


def test_8_4_r33_a_landing_halves_the_sum_of_its_factors_not_each_unit():
    s = at_gt2_japanese_reinforcement_phase()
    # two regiments of 3 (ruling R20): 6 halved is 3; each rounded down alone would give 1 + 1
    events = when(s, "japanese", "land d11-r12 d11-r22 at 3308", rolls=[6])
    r = of(events, ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds) == (3, 1, "3:1")


def test_11_2_r36_the_interdiction_takes_only_the_reinforcements_listed_for_this_gt_not_delayed_ones():
    # the 9th Division (GT 4, delayed) and the 53rd (GT 5, 1 factor) wait on GT 5: a roll of 1 takes the 53rd alone,
    # with no choice offered, and the 9th may still be placed
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=5, side="chinese", phase="reinf",
                 pool=("cn-d9", "cn-d53"))
    events = when(s, "chinese", "proceed", rolls=[1])
    assert not of(events, ev.DecisionRequired) and of(events, ev.UnitsRemoved)[0].units == ["cn-d53"]
    s = fold(s, *events)
    assert s.units["cn-d9"].status == "pool" and "cn-d9" in {u.id for u in due(s, "chinese")}
    # on GT 8 nothing is listed for the Chinese: a reinforcement delayed to it is not interdicted at all
    late = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=8, side="chinese", phase="reinf", pool=("cn-d9",))
    assert "proceed" not in [a.name for a in RULES.prompt(late).actions]
    assert then(late, "chinese", "place d9 at 2410").units["cn-d9"].hex == "2410"
