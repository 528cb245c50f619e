"""Every worked example of Dai Senso chapter 4 (seed catalog 3.5, DS-1 to DS-21), played through the game's own
states table: a position, the order (with the die it rolls), and the printed result checked in the events, the
odds and shifts, or the orders left open. DS-8, DS-12, DS-13, DS-15 and DS-18 are in test_daisenso_engine.py
(named so); the rest are here. Positions are built from a few units on the reconstructed maps."""
from __future__ import annotations

from app.rules.daisenso.events import CombatResolved, ExploitationOpened, StackRetreated, StepLost
from tests.daisenso.helpers import orders, position, preview, refused, scenario, step, unit, when

CLEAR = "w4221"  # a clear Kwangtung hex whose hexsides to w4220, w4320, w4321, w4222 and w4120 are plain
DEFENDERS = [("cn-army", "kmt-army", CLEAR), ("cn-res", "kiangsu-res", CLEAR)]  # defence 3 + 1 = 4


def resolved(events) -> CombatResolved:
    return next(e for e in events if isinstance(e, CombatResolved))


def shifts_of(p: dict) -> list[str]:
    """'1L 4.2.3.8' for each shift of a preview."""
    return sorted(s.split(" (")[0] + " " + s.split("Dai Senso ")[1].split(":")[0] for s in p["shifts"])


# -- 4.2.2 odds -------------------------------------------------------------------------------------------------
def test_ds1_ds2_4_2_2_step_3_attack_11_against_4_is_2_1_and_one_more_factor_makes_3_1():
    eleven = [("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4320"), ("jp-t", "jp-tank", "w4321")]
    state = position("axis", "western", eleven + DEFENDERS)
    p = preview(state, "attack w4221 with jp-a jp-b jp-t")
    assert (p["attack"], p["defence"], p["raw_odds"], p["shifts"], p["column"]) == (11, 4, "2-1", [], "2-1")
    assert resolved(when(state, "attack w4221 with jp-a jp-b jp-t", [1])[0]).odds == "2-1"
    twelve = position("axis", "western", [*eleven, ("hp-1", "hopeh-infantry", "w4222")] + DEFENDERS)
    p = preview(twelve, "attack w4221 with jp-a jp-b jp-t hp-1")
    assert (p["attack"], p["defence"], p["raw_odds"], p["column"]) == (12, 4, "3-1", "3-1")


def test_ds3_4_2_2_design_note_a_3_1_attack_with_three_right_shifts_is_resolved_on_9_1():
    blitz = {"blitz": True}
    state = position("axis", "western", [
        ("jp-a", "jp-army", "w4220", blitz), ("jp-t", "jp-tank", "w4320", blitz),
        ("jp-d", "jp-division", "w4321", blitz),
        ("jp-hq", "jp-hq", "w4322", blitz), ("jp-air", "jp-air", "w4120", blitz), *DEFENDERS], phase="blitz",
        marker=[{"kind": "blitz", "faction": "axis", "hex": "w4220"}])
    assert step(state) == "blitz-combat"
    order = "attack w4221 with jp-a jp-t jp-d hq jp-hq"
    p = preview(state, order)
    assert (p["attack"], p["defence"], p["raw_odds"]) == (12, 4, "3-1")
    assert shifts_of(p) == ["1R 4.2.3.1", "1R 4.2.3.3", "1R 4.2.3.5"]  # Air unit, Blitz armor, HQ
    assert p["column"] == "9-1" and resolved(when(state, order, [6])[0]).column == "9-1"


def test_ds19_4_2_1_1_no_attack_under_a_raw_1_3_whatever_the_shifts_but_a_defending_hq_does_not_count():
    state = position("axis", "western", [
        ("jp-d", "jp-division", "w4220"), ("jp-air", "jp-air", "w4320"), ("cn-a", "kmt-army", CLEAR),
        ("cn-b", "kmt-army", CLEAR), ("cn-res", "kiangsu-res", CLEAR), ("cn-hq", "kmt-hq", "w4322")])
    # 2 against 7: under 1-3 (0.29), however many right shifts the Air unit and the HQ would give
    assert "under a raw 1-3" in refused(state, "attack w4221 with jp-d", "Dai Senso 4.2.1.1")
    exact = position("axis", "western", [("jp-d", "jp-division", "w4220"), ("cn-a", "kmt-army", CLEAR),
                                         ("cn-b", "kmt-army", CLEAR), ("cn-hq", "kmt-hq", "w4322")])
    _, exact = when(exact, "attack w4221 with jp-d")  # 2 against 6: a raw 1-3
    assert step(exact) == "defender-hq"
    events, _ = when(exact, "support cn-hq", [6])  # the HQ's 3 make it 2 against 9: still resolved, on 1-3
    assert (resolved(events).defence, resolved(events).column) == (9, "1-3")


# -- 4.2.3 shifts ---------------------------------------------------------------------------------------------------
def test_ds4_4_2_3_6_a_marine_attacking_across_an_all_sea_hexside_nets_one_column_left():
    state = position("western", "axis", [("us-mar", "us-marine", "w4323", {"blitz": True}),
                                         ("jp-d", "jp-division", "w4324")], hold="w4324")
    p = preview(state, "attack w4324 with us-mar")  # Amoy to Taihoku, across the All-Sea hexside (4.2.1.3)
    marine_and_hexside = [s for s in p["shifts"] if "4.2.3.6" in s or "hexside" in s]
    assert sorted(s.split(" ")[0] for s in marine_and_hexside) == ["1R", "2L"]  # net one left
    assert shifts_of(p) == ["1L 4.2.3.8", "1R 4.2.3.6", "2L 4.2.3.8"]  # and Taihoku's City
    assert (p["raw_odds"], p["column"]) == ("1-1", "1-3")


def test_ds5_4_2_3_8_a_clear_hex_attacked_across_a_river_and_a_mountain_hexside_gets_one_left():
    state = position("axis", "western", [("jp-a", "jp-army", "w4622"), ("jp-b", "jp-army", "w4822"),
                                         ("cn-army", "kmt-army", "w4722")], hold="w4722")
    p = preview(state, "attack w4722 with jp-a jp-b")
    assert shifts_of(p) == ["1L 4.2.3.8"] and "hexside" in p["shifts"][0]


def test_ds6_4_2_3_8_the_same_attack_on_a_city_chungking_gets_two_left():
    state = position("axis", "western", [("jp-a", "jp-army", "w4720"), ("jp-b", "jp-army", "w4519"),
                                         ("cn-army", "kmt-army", "w4620")], hold="w4620")
    p = preview(state, "attack w4620 with jp-a jp-b")
    assert shifts_of(p) == ["1L 4.2.3.8", "1L 4.2.3.8"]  # the City and the river (not the mountain)
    assert (p["raw_odds"], p["column"]) == ("2-1", "1-2")


# -- 4.2.4 results ---------------------------------------------------------------------------------------------------
def test_ds7_4_2_4_1_mud_storms_or_snow_turn_dr3_dr2_dr1_into_dr2_dr1_ex():
    def attack(weather: str, attackers: list[tuple], die: int) -> CombatResolved:
        state = position("axis", "western", attackers + DEFENDERS, weather={weather: [CLEAR]})
        ids = " ".join(a[0] for a in attackers)
        return resolved(when(state, f"attack {CLEAR} with {ids}", [die])[0])

    three_one = [("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4320"), ("jp-c", "jp-army", "w4321")]
    storms = attack("storms", three_one, 6)  # 12 against 4: 3-1, no shift for Storms
    assert (storms.column, storms.printed, storms.result) == ("3-1", "Dr3 0/1", "Dr2 0/1")
    two_one = [("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4320")]
    snow = attack("snow", two_one, 6)  # 8 against 4: 2-1
    assert (snow.column, snow.printed, snow.result) == ("2-1", "Dr2", "Dr1")
    mud = attack("mud", two_one, 6)  # Mud shifts one left (4.2.3.7): 1-1
    assert (mud.column, mud.printed, mud.result) == ("1-1", "Dr1", "Ex")
    assert "4.2.3.7" in " ".join(mud.shifts)


# -- 4.2.5 retreats ---------------------------------------------------------------------------------------------------
def test_ds9_4_2_5_1_akyab_dr3_after_w4214_and_dacca_the_third_hex_is_w4312_w4413_or_w4414():
    state = position("axis", "western", [
        ("jp-a", "jp-army", "w4115"), ("jp-b", "jp-army", "w4115"), ("jp-c", "jp-army", "w4115"),
        ("jp-d", "jp-army", "w4015"), ("jp-e", "jp-division", "w4015"), ("br-1", "br-fe-infantry", "w4114")],
        hold="w4114")
    events, state = when(state, "attack w4114 with jp-a jp-b jp-c jp-d jp-e", [6])  # 18 v 2, 3L: 3-1
    assert resolved(events).result == "Dr3 0/1"
    assert orders(state) == {"retreat to w4214", "convert br-1"}  # the only hex free of EZOC; Akyab is a City
    _, state = when(state, "retreat to w4214")
    assert orders(state) == {"retreat to w4313", "retreat to w4314"}
    _, state = when(state, "retreat to w4313")  # Dacca
    assert orders(state) == {"retreat to w4312", "retreat to w4413", "retreat to w4414"}
    assert refused(state, "retreat to w4213", "Dai Senso 4.2.5.1").startswith(  # Calcutta: two from Akyab
        "Dai Senso 4.2.5.1: w4213 is not farther from the defending hex w4114 than w4313")
    refused(state, "retreat to w4314", "Dai Senso 4.2.5.1")


def test_ds10_4_2_5_2_from_taihoku_a_retreat_crosses_the_strait_to_foochow_not_the_sea_to_amoy():
    state = position("western", "axis", [
        ("us-m", "us-mech", "w4325"), ("us-a", "us-army", "w4325"), ("us-b", "us-army", "w4325"),
        ("jp-d", "jp-division", "w4324")], hold="w4324",
        marker=[{"kind": "beachhead", "faction": "western", "hex": "w4325", "toward": "w4324"}])
    events, state = when(state, "attack w4324 with us-m us-a us-b", [6])  # 15 v 2: 6-1, City and Beachhead 3L
    assert resolved(events).result == "Dr2"
    retreats = {o for o in orders(state) if o.startswith("retreat")}
    assert retreats == {"retreat to w4224", "retreat to w4424"}  # Takao, and Foochow across the Strait
    assert refused(state, "retreat to w4323", "Dai Senso 4.2.5.2").startswith(  # Amoy: All-Sea
        "Dai Senso 4.2.5.2: w4324/w4323 is an All-Sea hexside, neither a Strait nor a Beachhead Hexside")


def test_ds11_4_2_5_3_a_dr3_that_enters_an_hq_hex_after_two_hexes_converts_the_third_into_a_step():
    def hq_two_hexes_back(raw):
        next(u for u in raw["unit"] if u["id"] == "cn-3-hq")["hex"] = "w4722"
        unit(raw, "jp-34-army", "jp-army", "w4625")

    state = scenario("zhejiang", hq_two_hexes_back)
    _, state = when(state, "attack w4624 with jp-13-army jp-3-tank jp-34-army jp-22-div")
    events, state = when(state, "support", [6])  # 13 v 3: 4-1, rough 1L: 3-1
    assert resolved(events).result == "Dr3 0/1"
    _, state = when(state, "retreat to w4723")
    events, state = when(state, "retreat to w4722")
    assert StackRetreated(["cn-9-war-zone"], "w4723", "w4722", ["cn-3-hq"], True) in events
    assert state.combat.retreat_left == 1 and {o.split()[0] for o in orders(state)} == {"convert"}
    assert {o.split()[1] for o in orders(state)} == {"cn-9-war-zone", "cn-3-hq"}
    events, state = when(state, "convert cn-9-war-zone as kiangsu-res")
    assert state.combat.retreat_left == 0 and step(state) == "defender-losses"


def test_4_2_5_1_priority_two_a_hex_with_a_friendly_unit_only_when_no_farther_hex_is_free_of_ezoc():
    def japanese_at(*hexes):
        def change(raw):
            unit(raw, "cn-res", "kiangsu-res", "w4723")
            for h in hexes:
                unit(raw, f"jp-{h}", "jp-division", h)
        return change

    def beaten(*hexes):
        state = scenario("zhejiang", japanese_at(*hexes))
        _, state = when(state, "attack w4624 with jp-13-army jp-3-tank jp-22-div")
        events, state = when(state, "support", [6])  # 9 v 3: 3-1, rough 1L: 2-1, die 6
        assert resolved(events).result == "Dr2"
        return events, state

    events, _ = beaten("w4724")  # w4623 is free of EZOC: the Res in w4723 (in EZOC) is no option
    assert next(e for e in events if isinstance(e, StackRetreated)).to == "w4623"
    _, state = beaten("w4724", "w4523")  # now no farther hex is free of EZOC: those with a friendly unit
    assert {o for o in orders(state) if o.startswith("retreat")} == {"retreat to w4623", "retreat to w4723"}


# -- 4.2.6 losses ---------------------------------------------------------------------------------------------------
def test_ds14_4_2_6_2_a_us_7_6_2_three_step_mech_losing_a_step_flips_to_its_4_4_1_two_step_side():
    state = position("axis", "western", [
        ("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4320"), ("jp-c", "jp-army", "w4321"),
        ("us-m", "us-mech", CLEAR)], force_pool={"axis": {"jp-division": 3}})
    events, state = when(state, f"attack {CLEAR} with jp-a jp-b jp-c", [4])  # 12 v 6: 2-1, die 4: 1/1
    assert resolved(events).result == "1/1"
    events, state = when(state, "lose jp-a as jp-division")
    assert StepLost("us-m", "defender", becomes="us-army") in events  # the only unit: at once
    mech = state.units["us-m"]
    assert (state.kind(mech).factors, state.kind(mech).steps, state.kind(mech).armor_type) == ("4-4-1", 2, False)


# -- 4.2.8 exploitation ----------------------------------------------------------------------------------------------
def _one_step_russian_routed():
    state = position("axis", "soviet", [("jp-t", "jp-tank", "e3411"), ("jp-a", "jp-army", "e3310"),
                                        ("ru-i", "ru-infantry", "e3410")], hold="e3410")
    events, state = when(state, "attack e3410 with jp-t jp-a", [6])  # 7 v 2: 3-1, die 6
    assert resolved(events).result == "Dr3 0/1"
    while step(state) == "retreat":
        state = when(state, sorted(orders(state))[0])[1]
    return state


def test_ds16_4_2_8_a_one_step_unit_with_dr3_0_1_retreats_three_hexes_then_dies_exploitation_distance_3():
    state = _one_step_russian_routed()
    assert len(set(state.combat.path)) == 3 and "ru-i" not in state.units  # three hexes, then the 0/1
    assert step(state) == "advance" and state.combat.exploit_distance == 3


def test_ds21_4_2_8_design_note_the_exploitation_distance_is_capped_at_the_units_movement_allowance():
    state = _one_step_russian_routed()
    tank = state.units["jp-t"]
    assert state.kind(tank).ma == 2 and state.combat.exploit_distance == 3
    assert "distance is 2" in refused(state, "exploit jp-t e3410 e3409 e3408", "Dai Senso 4.2.8")
    _, state = when(state, "exploit jp-t e3410 e3409")
    assert state.units["jp-t"].hex == "e3409"


def test_ds17_4_2_8_chita_dr1_0_1_converted_in_the_city_leaves_one_attrition_result_distance_1():
    state = position("axis", "soviet", [
        ("jp-t", "jp-tank", "e3509"), ("kw-a", "kwantung-army", "e3509"), ("kw-d", "kwantung-division", "e3508"),
        ("ru-i", "ru-infantry", "e3609")], hold="e3609")
    events, state = when(state, "attack e3609 with jp-t kw-a kw-d", [4])  # 9 v 2: 4-1, the City 1L: 3-1
    assert resolved(events).result == "Dr1 0/1"
    assert "convert ru-i" in orders(state)  # a City without a Blitz marker (4.2.5.3)
    events, state = when(state, "convert ru-i")
    assert ExploitationOpened(1) in events and "ru-i" not in state.units
    assert "distance is 1" in refused(state, "exploit jp-t e3609 e3610", "Dai Senso 4.2.8")
    _, state = when(state, "exploit jp-t e3609")  # no different from Advance After Combat
    assert state.units["jp-t"].hex == "e3609"


def test_4_2_8_exploitation_stops_across_a_mountain_hexside_and_never_enters_mud():
    state = position("soviet", "axis", [
        ("ru-ta", "ru-tank-army", "e3510"), ("ru-a", "ru-army", "e3412"), ("ru-t", "ru-tank", "e3412"),
        ("jp-d", "jp-division", "e3411")], hold="e3411", weather={"mud": ["e3311"]})
    events, state = when(state, "attack e3411 with ru-ta ru-a ru-t", [6])  # 15 v 2: 6-1, City and river 2L
    assert resolved(events).result == "Dr3 0/1"
    while step(state) == "retreat":
        state = when(state, sorted(orders(state))[0])[1]
    assert step(state) == "advance" and state.combat.exploit_distance >= 2
    assert refused(state, "exploit ru-ta e3411 e3311", "Dai Senso 4.2.8") == (
        "Dai Senso 4.2.8: ru-ta may not Exploit into e3311: it is affected by Mud")
    assert "must stop in e3411" in refused(state, "exploit ru-t e3411 e3410", "Dai Senso 4.2.8")  # the Khingan
    _, state = when(state, "exploit ru-ta e3411 e3410")  # across the Argun, a river: on it goes
    assert state.units["ru-ta"].hex == "e3410"


# -- ranges ----------------------------------------------------------------------------------------------------------
def test_ds20_4_1_1_and_4_2_1_2_airdrop_and_ranged_support_reach_two_hexes_counting_the_target_not_the_origin():
    storm = scenario("august-storm")  # ru-1-abde in e3509
    assert "an Airdrop reaches two" in refused(storm, "airdrop ru-1-abde e3412", "Dai Senso 4.1.1")  # three
    assert when(storm, "airdrop ru-1-abde e3411")[1].markers_at("e3411", ("airdrop-soviet",))  # two hexes
    assert when(storm, "airdrop ru-1-abde e3509")[1].markers_at("e3509", ("airdrop-soviet",))  # its own hex
    strait = scenario("strait")  # us-hq-pac in w4423, two hexes from Taihoku
    _, strait = when(strait, "next")
    assert strait.data.atlas.distance(strait.data.atlas.parse("w4423"), strait.data.atlas.parse("w4324")) == 2
    p = preview(strait, "attack w4324 with us-3-mac hq us-hq-pac")
    assert "1R 4.2.3.5" in shifts_of(p)
    far = scenario("strait", lambda r: next(u for u in r["unit"] if u["id"] == "us-hq-pac").update(hex="w4522"))
    _, far = when(far, "next")
    assert "Ranged Support reaches two" in refused(far, "attack w4324 with us-3-mac hq us-hq-pac",
                                                   "Dai Senso 4.2.1.2")
