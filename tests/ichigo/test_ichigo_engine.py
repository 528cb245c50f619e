"""Ichi-Go engine, case by case (given a position / when an order / then the events). Worked examples of the
rulebook name their case; the map hexes used are plain clear hexes of the reconstructed map unless a case
names its own (2011: clear, no river, no city; its neighbours 2010 and 2012 are opposite)."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, then, when

from app.events.core import DieRolled
from app.events.dice import RecordedDice
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.ichigo import causeway, combat, reinforcements, victory
from app.rules.ichigo.data_load import H, load
from app.rules.ichigo.state import initial_state, next_position
from app.rules.kernel.movement import Mover, Situation, validate_path

D = load()


def deployed():
    s = initial_state()
    return fold(s, *RULES.decide(s, RULES.parse("deploy", "allied", s), RecordedDice(0, recorded=[1] * 80)))


# -- 3.x set-up and control ----------------------------------------------------------------------------------
def test_3_2_militia_set_up_face_up_yrd_in_1309():
    s = initial_state()
    assert s.units["cn-mil-yrd"].hex == "1309" and s.units["cn-mil-yrd"].tried


def test_3_3_diamonds_and_chinese_cities_get_untried_regulars_drawn_blind():
    s = deployed()
    assert len([u for u in s.at("1904") if not u.tried]) == 2      # diamond "2"
    assert len([u for u in s.at("2004") if not u.tried]) == 1      # diamond "1"
    for city in ("1422", "1615", "2217"):                           # Wuzhow, Shaoyeng, Ganzhow
        assert len([u for u in s.at(city) if not u.tried]) == 1
    assert {u.id for u in s.at("1418")} >= {"cn-mil-gm"} and len(s.at("1418")) == 2   # even with a militia
    assert len(s.draw_pool) == 70 - 44                             # ruling R27


def test_3_3_6_6_untried_values_are_hidden_from_both_players_and_spectators():
    s = deployed()
    for side in ("japanese", "allied", None):
        v = RULES.view(s, side)
        units = [u for st in v["stacks"] for u in st["units"] if u.get("untried")]
        assert units and all("strength" not in u and "name" not in u for u in units)
    e = ev.UnitDrawn("C01", "cn-reg-04", "1904")
    for side in ("allied", None):
        assert RULES.visible(e, side) == "a Chinese regular is drawn blind as counter C01 at 1904"
    # 6.6: the Japanese see a counter arrive, not its handle (it may lie under the top unit)
    assert RULES.visible(e, "japanese") == "a Chinese regular is drawn blind at 1904"
    assert RULES.visible(DieRolled(0, 70, 5, "blind draw of a Chinese regular (3.3, 9.7)"), "allied") is not True


def test_6_6_an_enemy_stack_shows_its_top_unit_only_and_its_own_side_every_unit():
    stack = ["jp-cea-3div", "jp-cea-13div", "jp-cea-68div"]
    s = position({uid: "1812" for uid in stack})
    seen = {side: next(st for st in RULES.view(s, side)["stacks"] if st["hex"] == "1812")
            for side in ("allied", "japanese", None)}
    [top] = seen["allied"]["units"]
    assert seen["allied"]["hidden"] == 2 and top["id"] in stack
    assert [u["id"] for u in RULES.view(s, "allied")["units"] if u["hex"] == "1812"] == [top["id"]]
    assert RULES.view(s, "allied")["units"][0]["hidden_below"] == 2
    for side in ("japanese", None):  # the owner and the referee see the whole stack
        assert sorted(u["id"] for u in seen[side]["units"]) == sorted(stack) and seen[side]["hidden"] == 0


def test_3_4_cea_1st_brigade_in_1906_and_3rd_brigade_waits_for_turn_2():
    s = initial_state()
    assert s.units["jp-cea-1bde"].hex == "1906"
    assert s.units["jp-cea-3bde"].status == "pool" and s.units["jp-cea-3bde"].entry_turn == 2


def test_3_5_initial_gearr_control_and_control_changes_on_entry():
    s = initial_state()
    assert {"1906", "1812", "0925"} <= s.jp_control and "1801" not in s.jp_control and "1813" not in s.jp_control
    s = position({"jp-cea-116div": "1812"}, phase="VI", plans={"japanese": "move-fight"}, turn=2)
    s = then(s, "japanese", "move jp-cea-116div to 1813")
    assert "1813" in s.jp_control


def test_3_5_city_stays_chinese_when_every_unit_of_both_sides_is_eliminated():
    # 2 vs 3 = 1:2, city 1L -> 1:3; die 6 on the Japanese line at 1:3 = 3/2: both sides wiped out.
    s = position({"jp-cea-1bde": "1812"}, extra=(chinese("C01", "cn-reg-01", "1813", tried=True),))
    evs = when(s, "japanese", "attack 1813 with jp-cea-1bde", rolls=[6])
    s2 = fold(s, *evs)
    assert of(evs, ev.BattleResolved)[0].result == "3/2"
    assert not s2.at("1813") and not s2.units["jp-cea-1bde"].on_map
    assert "1813" not in s2.jp_control


# -- 5.x sequence of play ---------------------------------------------------------------------------------
def test_5_1_phases_i_to_iii_only_with_causeway_and_iv_only_without():
    s = replace(initial_state(), phase="start", turn=2)
    assert next_position(s) == (2, "IV")
    s = replace(s, causeway=True, turn=8)
    assert next_position(s) == (8, "I")
    assert next_position(replace(s, phase="III")) == (8, "V")
    assert next_position(replace(s, phase="X")) == (9, "start")


def test_5_5_japanese_declare_the_chinese_order_until_causeway_then_the_allies_do():
    s = position({}, phase="VIII", plans={})
    assert RULES.prompt(s).side == "japanese"
    with pytest.raises(IllegalOrder, match="Ichi-Go 5.5: the japanese player declares the chinese order"):
        when(s, "allied", "declare chinese move-fight")  # rules version 10 (E40); before it "5.1: not allowed now"
    s = then(s, "japanese", "declare chinese fight-move")
    assert s.mode() == "fight" and RULES.prompt(s).side == "allied"
    assert RULES.prompt(replace(s, plans={}, causeway=True)).side == "allied"


def test_5_4_38th_army_neither_moves_nor_is_attacked_on_turn_1():
    s = position({"jp-38a-21div": "0925"}, turn=1, phase="VI", plans={"japanese": "move-fight"})
    with pytest.raises(IllegalOrder, match="5.4"):
        when(s, "japanese", "move jp-38a-21div to 0924")


# -- 10.x movement ----------------------------------------------------------------------------------------
def test_10_13_river_hexside_into_a_mountain_hex_costs_3_mp():
    mover = Mover(H("2810"), 6, ("japanese",))
    assert validate_path(D.map, D.movement, mover, [H("2810"), H("2809")], Situation()) == 3


def test_10_14_japanese_have_6_mp_on_turns_1_to_6_and_roll_from_turn_7():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    evs = when(s, "japanese", "move jp-cea-110div to 2011")
    assert of(evs, ev.MovementRolled)[0].mp == 6
    s7 = replace(s, turn=7)
    evs = when(s7, "japanese", "move jp-cea-110div to 2011", rolls=[4])
    assert of(evs, ev.MovementRolled)[0].mp == 4 and of(evs, ev.MovementRolled)[0].how == "attenuated"


def test_10_15_chinese_roll_one_die_less_one_per_stack_r20():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, extra=(chinese("C01", "cn-reg-01", "2011"),))
    evs = when(s, "allied", "move C01 to 2012", rolls=[1])       # 0 MP: no minimum move (10.2), ruling E13
    assert of(evs, ev.MovementRolled)[0].mp == 0 and not of(evs, ev.UnitsMoved)
    evs = when(s, "allied", "move C01 to 2012", rolls=[2])
    assert of(evs, ev.MovementRolled)[0].mp == 1


def test_10_17_strategic_movement_doubles_and_keeps_away_from_the_enemy():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    evs = when(s, "japanese", "move jp-cea-110div to 2011 strategic")
    assert of(evs, ev.MovementRolled)[0].mp == 12


def test_6_2_japanese_stack_at_most_five_units():
    six = ["jp-cea-1bde", "jp-cea-2bde", "jp-cea-4bde", "jp-cea-5bde", "jp-cea-6bde", "jp-cea-7bde"]
    s = position({u: ("2011" if i < 5 else "2010") for i, u in enumerate(six)}, phase="VI",
                 plans={"japanese": "move-fight"})
    with pytest.raises(IllegalOrder, match="Ichi-Go 6.2: "):
        when(s, "japanese", "move jp-cea-7bde to 2011")


def test_6_5_markers_take_no_stacking_room():
    four = {"jp-cea-1bde": "2011", "jp-cea-2bde": "2011", "jp-cea-4bde": "2011", "jp-cea-5bde": "2011",
            "jp-cea-6bde": "2010"}
    s = position(four, phase="VI", plans={"japanese": "move-fight"}, air_side="japanese", air_hexes=("2011",),
                 b29_hex="2011")
    assert {u.id for u in then(s, "japanese", "move jp-cea-6bde to 2011").at("2011")} == set(four)


def test_6_3_militia_do_not_count_and_static_units_never_move():
    s = position({"cn-mil-yrd": "1309"}, phase="VIII", plans={"chinese": "move-fight"})
    with pytest.raises(IllegalOrder, match="10.1"):
        when(s, "allied", "move cn-mil-yrd to 1308", rolls=[6])


def test_9_6_armies_mix_in_one_stack_that_moves_and_attacks_together_with_tank_regiments():
    mixed = {"jp-cea-110div": "2010", "jp-ka-11div": "2010", "jp-14aa-1div": "2010", "jp-fg-9div": "2010"}
    s = position(mixed, phase="VI", plans={"japanese": "move-fight"})
    moved = then(s, "japanese", "move 2010 to 2011")
    assert {u.id for u in moved.at("2011")} == set(mixed)
    s = position(mixed, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    b = of(when(s, "japanese", "attack 2011 with 2010 tanks 2", rolls=[1]), ev.BattleResolved)[0]
    assert set(b.attackers) == set(mixed) and len(b.tanks) == 2


# -- 11.x combat ------------------------------------------------------------------------------------------
def test_11_2_attackers_must_be_adjacent_to_the_one_target_hex():
    s = position({"jp-cea-110div": "1911"}, extra=(chinese("C01", "cn-reg-01", "2012", tried=True),))
    with pytest.raises(IllegalOrder, match="11.2"):
        when(s, "japanese", "attack 2012 with jp-cea-110div")


def test_11_19_11_20_japanese_2_to_1_die_6_is_2_over_4_defender_first():
    # 8 (two divisions) against 4 in clear terrain, no shifts: 2:1, die 6 -> 2/4.
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    evs = when(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[6])
    b = of(evs, ev.BattleResolved)[0]
    assert (b.attack, b.defence, b.odds, b.column, b.result) == (8, 4, "2:1", "2:1", "2/4")
    assert of(evs, ev.ReturnedToPool)                                # the defender removes first (11.20)
    s = fold(s, *evs)
    assert RULES.prompt(s).side == "japanese" and RULES.prompt(s).actions[0].name == "lose"


def test_11_21_no_division_eliminated_while_a_unit_of_its_side_in_the_battle_has_two_steps():
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    s = then(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[6])
    with pytest.raises(IllegalOrder, match="11.21"):
        when(s, "japanese", "lose jp-cea-110div jp-cea-110div")
    s2 = then(s, "japanese", "lose jp-cea-110div jp-cea-26div")
    assert s2.units["jp-cea-110div"].steps == 1 and s2.units["jp-cea-26div"].steps == 1
    assert RULES.prompt(s2).actions[0].name == "advance"


def test_11_15_concentric_from_opposite_hexes_is_1r_for_the_japanese():
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2012"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    a = combat.assess(s, "japanese", "2011", [s.units["jp-cea-110div"], s.units["jp-cea-26div"]],
                      [s.units["C01"]], 0, False)
    assert any("11.15" in x for x in a["shifts"]) and a["column_label"] == "3:1"


def test_11_15_edge_hexes_1601_1702_1801_give_no_concentric_bonus_against_1701():
    from app.rules.kernel.concentric import concentric_shift
    assert concentric_shift(D.concentric, D.map.grid, H("1701"), [H("1601"), H("1702"), H("1801")],
                            "japanese") is None


def test_11_15_chinese_never_get_the_concentric_bonus():
    s = position({"jp-cea-110div": "2011"}, extra=(chinese("C01", "cn-reg-02", "2010", tried=True),
                                                  chinese("C02", "cn-reg-07", "2012", tried=True)))
    a = combat.assess(s, "allied", "2011", [s.units["C01"], s.units["C02"]], [s.units["jp-cea-110div"]], 0, False)
    assert not any("11.15" in x for x in a["shifts"])


def test_11_13_attack_across_a_river_is_halved_on_the_total_rounded_up():
    s = position({"jp-cea-1bde": "2503"}, extra=(chinese("C01", "cn-reg-02", "2603", tried=True),))
    a = combat.assess(s, "japanese", "2603", [s.units["jp-cea-1bde"]], [s.units["C01"]], 0, False)
    assert a["attack"] == 1                                          # 2 halved = 1


def test_11_17_one_tank_regiment_per_supplied_brigade_or_division_each_1r_and_eliminated():
    # IG-14: one division and two brigades may take up to three regiments; four is refused.
    units = {"jp-cea-110div": "2010", "jp-cea-1bde": "2010", "jp-cea-2bde": "2010"}
    s = position(units, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    with pytest.raises(IllegalOrder, match="11.17"):
        when(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-1bde jp-cea-2bde tanks 4", rolls=[1])
    evs = when(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-1bde jp-cea-2bde tanks 3", rolls=[1])
    b = of(evs, ev.BattleResolved)[0]
    assert b.odds == "2:1" and b.column == "5:1" and len(b.tanks) == 3
    assert of(evs, ev.SupportExpended)[0].units == b.tanks          # gone whatever the result


def test_11_23_chinese_attackers_lose_double_and_at_least_one_step():
    s = position({"jp-cea-1bde": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    # 8 on 2 = 4:1 Chinese line; die 1 -> 1/1: the Chinese lose 2 steps.
    s = then(s, "allied", "attack 2011 with C01 C02")
    evs = when(s, "japanese", "commit 0", rolls=[1])                  # 11.17: no defensive tanks
    b = of(evs, ev.BattleResolved)[0]
    assert b.result == "1/1" and b.attacker_losses == 2
    # IG-18, a result of 0 costing one step: tests/ichigo/test_ichigo_limits.py


def test_11_26_militia_never_attack():
    s = position({"jp-cea-1bde": "1309", "cn-mil-ym": "1408"}, phase="IX", plans={"chinese": "move-fight"})
    with pytest.raises(IllegalOrder, match="11.26"):
        when(s, "allied", "attack 1309 with cn-mil-ym")


def test_11_27_untried_defenders_revealed_a_zero_lone_defender_is_a_de_and_goes_back_to_the_pool():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),))   # a zero
    evs = when(s, "japanese", "attack 2011 with jp-cea-110div")
    assert of(evs, ev.Revealed)[0].strength == 0 and of(evs, ev.ReturnedToPool)
    assert of(evs, ev.BattleResolved)[0].result == "DE"
    s2 = fold(s, *evs)
    assert "cn-reg-04" in s2.draw_pool and RULES.prompt(s2).actions[0].name == "advance"


def test_11_24_11_25_advance_then_a_japanese_momentum_attack_on_turns_1_to_6():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),
                                                   chinese("C02", "cn-reg-02", "2012", tried=True)))
    s = then(s, "japanese", "attack 2011 with jp-cea-110div")
    s = then(s, "japanese", "advance jp-cea-110div")
    assert s.units["jp-cea-110div"].hex == "2011"
    assert RULES.prompt(s).step.endswith("momentum")
    evs = when(s, "japanese", "attack 2012 with jp-cea-110div", rolls=[3])
    assert of(evs, ev.BattleResolved)[0].hex == "2012"
    s7 = replace(position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),)), turn=7)
    s7 = then(s7, "japanese", "attack 2011 with jp-cea-110div")
    s7 = then(s7, "japanese", "advance jp-cea-110div")
    assert not s7.pending                                           # no momentum from Turn 7


def test_11_29_intrinsic_garrison_defends_an_empty_initial_japanese_city_with_the_city_shift():
    s = position({}, phase="IX", plans={"chinese": "move-fight"}, extra=(chinese("C01", "cn-reg-02", "1810",
                                                                                 tried=True),))
    assert "1811" in s.jp_control
    a = combat.assess(s, "allied", "1811", [s.units["C01"]], [], 0, False)
    assert a["defence"] == 1 and any("11.14" in x for x in a["shifts"])


def test_11_29_allies_who_eliminate_every_japanese_unit_in_an_initial_japanese_city_may_advance_into_it():
    s = position({"jp-cea-3div": "1811"}, phase="VIII", plans={"chinese": "fight-move"}, steps={"jp-cea-3div": 1},
                 extra=tuple(chinese(f"C0{i}", ref, "1810", tried=True)
                             for i, ref in enumerate(("cn-reg-33", "cn-reg-57", "cn-reg-02"), 1)))
    s = then(s, "allied", "attack 1811 with C01 C02 C03")
    s = then(s, "japanese", "commit 0", rolls=[1])     # 14:2 = 7:1, city 1L -> 6:1, die 1: 0/1 (11.23: 1 Chinese)
    assert s.units["jp-cea-3div"].status == "dead" and "1811" in s.jp_control
    s = then(s, "allied", "lose C03")
    assert [a.name for a in RULES.prompt(s).actions] == ["advance", "stay"]   # the garrison did not defend
    s = then(s, "allied", "advance C01 C02")
    assert s.units["C01"].hex == "1811" and "1811" not in s.jp_control


def test_11_22_11_29_a_de_result_destroys_the_intrinsic_garrison_and_the_allies_may_advance():
    s = position({}, phase="VIII", plans={"chinese": "fight-move"},
                 extra=tuple(chinese(f"C0{i}", ref, "1810", tried=True)
                             for i, ref in enumerate(("cn-reg-33", "cn-reg-57", "cn-reg-02"), 1)))
    evs = when(s, "allied", "attack 1811 with C01 C02 C03", rolls=[5])   # 14:1, city 1L -> 9:1, die 5: DE
    assert of(evs, ev.BattleResolved)[0].result == "DE" and of(evs, ev.GarrisonDestroyed)
    s = fold(s, *evs)
    s = then(s, "allied", "lose C03")                                   # 11.23: the Chinese lose a step even so
    s = then(s, "allied", "advance C01 C02")
    assert s.units["C01"].hex == "1811" and "1811" not in s.jp_control


# -- 4.x victory, 5.2 Causeway, 8.x airpower, 9.7 Chinese reinforcements ------------------------------------
def test_4_5_allies_win_at_once_holding_shanghai_and_wuhan():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2009", tried=True),),
                 control=initial_state().jp_control - {"3106"}, garrison_lost=frozenset({"2008"}))
    evs = when(s, "allied", "move C01 to 2008", rolls=[3])
    assert of(evs, ev.GameEnded)[0].winner == "allied"


def test_4_1_china_collapse_rolled_once_when_chungking_falls():
    s = position({"jp-cea-110div": "0812"}, phase="VI", plans={"japanese": "move-fight"}, turn=3)
    s = replace(s, jp_control=s.jp_control - {"0712"})
    evs = when(s, "japanese", "move jp-cea-110div to 0712", rolls=[2])
    c = of(evs, ev.CollapseChecked)[0]
    assert not c.collapsed and not of(evs, ev.GameEnded)
    s2 = fold(s, *evs)
    assert s2.collapse_checked                                      # IG-24: never consulted again


def test_4_2_vp_at_end_of_turn_9():
    s = position({}, phase="X", turn=9, reinforced=True)
    evs = when(s, "allied", "end")
    assert of(evs, ev.GameEnded) and "4.2" in of(evs, ev.GameEnded)[0].reason


def test_8_1_turn_1_japanese_plus_one_ties_are_rerolled_and_the_winner_gets_the_difference():
    s = position({}, phase="IV", turn=1)
    evs = when(s, "japanese", "roll", rolls=[3, 4, 6, 2])            # 3+1 vs 4 tie, then 7 vs 2
    rolled = of(evs, ev.AirpowerRolled)
    assert rolled[0].winner is None and rolled[1].winner == "japanese" and rolled[1].markers == 5   # max 5 (R13)
    s3 = position({}, phase="IV", turn=3)
    r = of(when(s3, "japanese", "roll", rolls=[6, 2]), ev.AirpowerRolled)[0]
    assert (r.winner, r.markers) == ("japanese", 4)                 # IG-D2


def test_8_7_fewer_allied_airbases_subtract_from_the_allied_roll():
    s = position({}, phase="IV", turn=3)
    s = replace(s, jp_control=s.jp_control | {"1123", "1220", "1418", "1506"})    # Allies keep 4 of 8
    r = of(when(s, "japanese", "roll", rolls=[1, 5]), ev.AirpowerRolled)[0]
    assert r.allied == 3                                            # IG-D3


def test_9_7_chinese_reinforcements_halved_when_every_airbase_is_japanese():
    s = position({}, phase="X")
    s = replace(s, jp_control=s.jp_control | D.feature("airbase"))
    evs = when(s, "allied", "reinforce", rolls=[5, 1, 1, 1])
    assert of(evs, ev.ChineseReinforcementRolled)[0].count == 3     # IG-D6
    assert len(of(evs, ev.UnitDrawn)) == 3


def test_5_2_causeway_roll_adds_every_modifier():
    s = replace(position({"jp-cea-110div": "0812"}, turn=7), phase="start")
    evs = when(s, "allied", "roll", rolls=[1])
    c = of(evs, ev.CausewayChecked)[0]
    assert c.total == 1 + sum(int(m.split()[0]) for m in c.modifiers)
    assert any("Chungking" in m for m in c.modifiers)


def test_sequence_random_game_ends_by_turn_nine_or_twelve():
    s = position({}, phase="X", turn=9, reinforced=True)
    assert s.last_turn() == 9 and replace(s, causeway=True).last_turn() == 12
    assert victory.final_outcome(s).winner in ("allied", "japanese", None)


# -- 5.3 Causeway effects -------------------------------------------------------------------------------------
def test_5_3_items_7_to_9_14aa_shipment_blind_pick_and_transport_survival():
    s = position({}, turn=7, phase="V", causeway=True)
    # roll 3 -> 2 units; picks: index 1 and then 1 of the rest; survival dice 2 and 5.
    evs = when(s, "japanese", "ship", rolls=[3, 1, 1, 2, 5])
    sh = of(evs, ev.ShipmentRolled)[0]
    assert sh.count == 2 and len(sh.fates) == 2
    s2 = fold(s, *evs)
    assert not reinforcements.shipment_due(s2)                        # once a turn
    zero = fold(s, *when(s, "japanese", "ship", rolls=[1]))
    assert zero.aa14_closed                                           # a 0 ends 14AA arrivals (5.3 item 8)


def test_11_28_1st_sf_never_rolls_for_survival():
    s = position({}, turn=7, phase="V", causeway=True)
    pool = sorted(u.id for u in s.units.values() if u.status == "14aa-pool")
    i = pool.index("jp-14aa-1sf") + 1
    evs = when(s, "japanese", "ship", rolls=[2, i])
    assert of(evs, ev.ShipmentRolled)[0].fates == {"jp-14aa-1sf": "sf"}
    assert combat.sf_ready(fold(s, *evs)) is not None


def test_8_9_after_causeway_the_allies_roll_each_turn_for_a_b29():
    s = replace(position({}, turn=8, causeway=True), phase="start")
    assert [a.name for a in RULES.prompt(s).actions] == ["roll", "end"]
    s2 = then(s, "allied", "roll", rolls=[2])
    assert "b29" in [a.name for a in RULES.prompt(s2).actions]
    s3 = then(s, "allied", "roll", rolls=[5])
    assert "b29" not in [a.name for a in RULES.prompt(s3).actions]


# -- 7.x supply, 8.x airpower effects, 9.x Japanese reinforcements ----------------------------------------------
def cut_off():
    """A Japanese division at 2011 ringed by Chinese units in every neighbour: no supply path (7.1)."""
    ring = tuple(chinese(f"C{i:02d}", ref, n, tried=True)
                 for i, (ref, n) in enumerate(zip(("cn-reg-01", "cn-reg-02", "cn-reg-03", "cn-reg-05", "cn-reg-06",
                                                   "cn-reg-07"), D.neighbours("2011"), strict=True), start=1))
    return position({"jp-cea-110div": "2011"}, phase="VI", plans={"japanese": "move-fight"}, extra=ring)


def test_7_1_japanese_supply_traces_to_the_north_edge_and_is_cut_by_enemy_units():
    from app.rules.ichigo.common import japanese_supplied, supply_state
    s = position({"jp-cea-110div": "2011"})
    assert japanese_supplied(s, "2011") and supply_state(s, s.units["jp-cea-110div"]) == "full"
    s = cut_off()
    assert supply_state(s, s.units["jp-cea-110div"]) == "oos"
    assert japanese_supplied(position({}), "1901")                    # Kaifeng: source and supply city (R1)


def test_7_3_oos_japanese_attack_at_half_rounded_up():
    s = cut_off()
    a = combat.assess(s, "japanese", "2010", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, False)
    assert a["attack"] == 2                                           # 4 halved


def test_7_4_attenuated_japanese_attacks_shift_1l_from_turn_7():
    s = replace(position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),)),
                turn=7)
    a = combat.assess(s, "japanese", "2011", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, False)
    assert any("7.4" in x for x in a["shifts"]) and a["net"] == -1


def test_8_4_entering_enemy_airpower_range_costs_one_more_mp():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"}, air_side="allied",
                 air_hexes=("2012",))
    evs = when(s, "japanese", "move jp-cea-110div to 2011")
    assert of(evs, ev.UnitsMoved)[0].mp == 2


def test_8_5_11_18_airpower_shifts_one_column_at_most():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),),
                 air_side="japanese", air_hexes=("2011", "2012"))
    a = combat.assess(s, "japanese", "2011", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, False)
    assert [x for x in a["shifts"] if "11.18" in x] == ["1R (Ichi-Go 11.18: friendly airpower in range)"]


def test_11_11_11_12_11_14_terrain_shifts_of_the_defender_hex():
    assert D.terrain_shifts("2011") == []
    assert [n for n, _, _ in D.terrain_shifts("2810")] == [1]          # rough
    assert [n for n, _, _ in D.terrain_shifts("2809")] == [2]          # mountain
    assert [c for _, c, _ in D.terrain_shifts("3106")] == ["Ichi-Go 11.14"]


def test_11_8_each_attacker_uses_its_own_line():
    s = position({"jp-cea-1bde": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True),))
    a = combat.assess(s, "allied", "2011", [s.units["C01"]], [s.units["jp-cea-1bde"]], 0, False)
    assert a["line"] == "chinese"


def test_11_22_de_eliminates_every_defender():
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010", "jp-cea-62div": "2012"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True),))
    # 12 on 1 -> >=10:1 plus concentric; die 2 -> DE.
    evs = when(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div jp-cea-62div", rolls=[2])
    b = of(evs, ev.BattleResolved)[0]
    assert b.result == "DE" and b.eliminated and b.attacker_losses == 0
    assert not fold(s, *evs).at("2011")


def test_9_1_reinforcements_enter_at_north_edge_sources_never_the_south_edge():
    s = position({}, phase="V", turn=2)
    hexes = reinforcements.entry_hexes(s)
    assert "1901" in hexes and "0925" not in hexes and "1801" not in hexes    # R21: 1801 is Chinese
    s2 = then(s, "japanese", "enter jp-cea-3bde at 1901")
    assert s2.units["jp-cea-3bde"].hex == "1901"
    with pytest.raises(IllegalOrder, match="9.1"):
        when(s, "japanese", "enter jp-cea-3bde at 0925")


def test_9_2_turn_5_withdraws_two_full_strength_4_factor_divisions_under_101():
    s = position({"jp-cea-26div": "1901", "jp-cea-62div": "1901", "jp-cea-116div": "1812"}, phase="V", turn=5)
    assert [a.name for a in RULES.prompt(s).actions] == ["withdraw"]
    with pytest.raises(IllegalOrder, match="9.2"):
        when(s, "japanese", "withdraw jp-cea-26div jp-cea-116div")
    s2 = then(s, "japanese", "withdraw jp-cea-26div jp-cea-62div")
    assert s2.units["jp-cea-26div"].status == "removed" and s2.units["jp-cea-62div"].status == "14aa-pool"


def test_9_3_turn_9_without_causeway_two_formosa_divisions_join_the_reinforcements():
    s = position({}, phase="V", turn=9, causeway=False)
    fg = sorted(u.id for u in s.units.values() if u.status == "formosa-garrison")
    s2 = then(s, "japanese", f"release {fg[0]} {fg[1]}")
    assert s2.units[fg[0]].status == "pool" and "release" not in [a.name for a in RULES.prompt(s2).actions]


def test_9_5_a_reduced_division_absorbs_a_brigade_in_an_initial_japanese_city():
    s = position({"jp-cea-40div": "1811", "jp-cea-1bde": "1811"}, phase="V", steps={"jp-cea-40div": 1})
    s2 = then(s, "japanese", "absorb jp-cea-1bde into jp-cea-40div")
    assert s2.units["jp-cea-40div"].steps == 2 and s2.units["jp-cea-1bde"].status == "removed"


def test_9_7_a_chinese_reinforcement_is_placed_only_in_a_held_chinese_city_not_at_takao_tainan():
    """A drawn Chinese reinforcement goes to an initially Chinese city still under Chinese control (9.7): 3221,
    Takao-Tainan on Formosa, is none. (9.9's own refusals: tests/ichigo/test_ichigo_case_rows.py and
    tests/ichigo/test_ichigo_rows_part8.py.)"""
    s = position({}, phase="X")
    s = fold(s, *when(s, "allied", "reinforce", rolls=[1, 1]))
    h = reinforcements.drawn(s)[0]
    with pytest.raises(IllegalOrder) as refused:
        when(s, "allied", f"place {h} at 3221")
    assert str(refused.value) == "Ichi-Go 9.7: 3221 is not an initially Chinese city still under Chinese control"
    s2 = then(s, "allied", f"place {h} at 0712")
    assert s2.units[h].hex == "0712" and not s2.units[h].tried


def test_11_17_japanese_commit_defensive_tanks_before_the_allied_die_each_1l_counted_as_losses():
    s = position({"jp-cea-110div": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    s = then(s, "allied", "attack 2011 with C01 C02")                  # no die yet: the Japanese decide
    assert RULES.prompt(s).side == "japanese" and RULES.prompt(s).actions[0].name == "commit"
    with pytest.raises(IllegalOrder, match="11.17"):
        when(s, "japanese", "commit 2")                               # one division defending: at most one
    evs = when(s, "japanese", "commit 1", rolls=[4])
    b = of(evs, ev.BattleResolved)[0]
    assert b.odds == "2:1" and b.column == "1:1" and len(b.tanks) == 1
    assert of(evs, ev.SupportExpended)[0].units == b.tanks


# -- the US after Causeway: landings, supply, airlift, airdrop, naval transfer, gunfire, sudden death -----------
def us_ids(n):
    s = initial_state()
    return sorted(u.id for u in s.units.values() if u.nation == "us" and u.id != "us-11ab")[:n]


def test_5_3_item_4_up_to_eight_us_divisions_land_at_3221_and_6_4_is_the_us_limit():
    s = replace(position({}, turn=7, causeway=True), phase="I")
    nine = us_ids(9)
    with pytest.raises(IllegalOrder):
        when(s, "allied", "land " + " ".join(nine))
    s2 = then(s, "allied", "land " + " ".join(nine[:8]))
    assert s2.beachheads == {"formosa": "3221"} and len(s2.at("3221")) == 8


FG = ["jp-fg-9div", "jp-fg-12div", "jp-fg-50div", "jp-fg-66div"]
KA = ["jp-ka-11div", "jp-ka-25div", "jp-ka-57div", "jp-ka-107div", "jp-ka-108div", "jp-ka-111div", "jp-ka-112div",
      "jp-ka-73bde", "jp-ka-79bde"]


def waiting(s):
    return sorted(u.id for u in s.units.values() if u.army in ("FG", "KA") and u.status in reinforcements.ARRIVALS)


def test_5_3_items_4_to_6_e3_the_formosa_garrison_then_the_kwantung_army_deploy_right_after_the_landing():
    s = replace(position({"jp-cea-110div": "0812"}, turn=7), phase="start")
    s = then(s, "allied", "roll", rolls=[6])                            # Causeway launched
    assert s.causeway and not waiting(s)                                # nobody deploys before the landing
    s = then(then(s, "allied", "roll", rolls=[5]), "allied", "end")     # no B-29; Phase I
    evs = when(s, "allied", "land " + " ".join(us_ids(8)))
    assert [e.kind for e in of(evs, ev.DecisionRequired)] == ["formosa-garrison", "kwantung-army"]
    s = fold(s, *evs)
    p = RULES.prompt(s)
    assert p.side == "japanese" and [a.name for a in p.actions] == ["enter"] and p.step.endswith("formosa-garrison")
    with pytest.raises(IllegalOrder, match="not allowed now"):
        when(s, "allied", "end")                                        # Phase I waits for the deployments
    with pytest.raises(IllegalOrder, match="5.3.*Formosa Garrison"):
        when(s, "japanese", "enter jp-ka-11div at 1901")                # item 6 comes after item 5
    with pytest.raises(IllegalOrder, match="5.3.*Formosa Garrison"):
        when(s, "japanese", "enter jp-cea-3bde at 1901")                # other reinforcements wait for Phase V
    with pytest.raises(IllegalOrder, match="5.3"):
        when(s, "japanese", "enter jp-fg-9div at 3221")                 # not the beachhead
    s = then(s, "japanese", "enter jp-fg-9div jp-fg-12div at 3220")
    assert RULES.prompt(s).step.endswith("formosa-garrison")            # all four deploy
    s = then(s, "japanese", "enter jp-fg-50div jp-fg-66div at 3118")
    assert RULES.prompt(s).step.endswith("kwantung-army")
    with pytest.raises(IllegalOrder, match="9.1"):
        when(s, "japanese", "enter jp-ka-11div at 3119")                # only by the 9.1 hexes
    s = then(s, "japanese", f"enter {' '.join(KA[:5])} at 1901")
    evs = when(s, "japanese", f"enter {' '.join(KA[5:])} at 2001")
    assert of(evs, ev.DecisionMade)[0].kind == "kwantung-army"
    s = fold(s, *evs)
    assert not s.pending and not waiting(s) and RULES.prompt(s).side == "allied" and s.phase == "I"
    assert {u.army for u in combat.tank_pool(s)} == {"CEA", "KA"}       # 11.17: the regiments stay off the map
    s5 = replace(s, phase="V")                                          # Phase V no longer offers them
    with pytest.raises(IllegalOrder, match="9.1"):
        when(s5, "japanese", "enter jp-ka-11div at 2101")
    assert of(when(s5, "japanese", "enter jp-cea-3bde at 2101"), ev.ReinforcementsEntered)


def test_5_3_item_6_e3_kwantung_units_no_entry_hex_can_take_wait_for_phase_v():
    full = ["jp-cea-1bde", "jp-cea-2bde", "jp-cea-4bde", "jp-cea-5bde"]  # 1901, the only 9.1 hex, has room for 1
    only_1901 = initial_state().jp_control - (D.north_edge() - {"1901"})
    s = replace(position({u: "1901" for u in full}, turn=7, causeway=True, control=only_1901), phase="I")
    assert reinforcements.entry_hexes(s) == {"1901"}
    s = then(s, "allied", "land " + " ".join(us_ids(8)))
    s = then(s, "japanese", f"enter {' '.join(FG)} at 3220")
    evs = when(s, "japanese", "enter jp-ka-11div at 1901")
    assert of(evs, ev.DecisionMade)[0].kind == "kwantung-army"         # the rest cannot enter: the decision ends
    s = fold(s, *evs)
    assert not s.pending and RULES.prompt(s).side == "allied" and waiting(s) == sorted(KA[1:])
    s5 = replace(s, phase="V", jp_control=s.jp_control | {"2001"})
    assert of(when(s5, "japanese", "enter jp-ka-25div at 2001"), ev.ReinforcementsEntered)   # 9.4 keeps 9.1
    s = replace(position({u: "1901" for u in [*full, "jp-cea-6bde"]}, turn=7, causeway=True, control=only_1901),
                phase="I")
    s = then(s, "allied", "land " + " ".join(us_ids(8)))
    evs = when(s, "japanese", f"enter {' '.join(FG)} at 3220")        # 1901 full: no Kwantung decision at all
    assert [e.kind for e in of(evs, ev.DecisionMade)] == ["formosa-garrison", "kwantung-army"]


def mainland_landing(units: dict, extra=(), **kw):
    """Turn 8, Phase I, the Formosa beachhead held: the mainland landing is due (5.3 item 12)."""
    return replace(position(units, turn=8, causeway=True, beachheads={"formosa": "3221"}, extra=extra,
                            control=initial_state().jp_control - {"3221"}, **kw), phase="I")


def test_5_3_item_12_e10_the_allied_player_names_the_hex_the_units_in_the_port_move_to():
    land = "land " + " ".join(us_ids(4)) + " at 2521"
    s = mainland_landing({"jp-cea-110div": "2521"})                     # free: 2420, 2421, 2520 (the rest is sea)
    with pytest.raises(IllegalOrder, match="5.3.*displace HEX.*2420, 2421, 2520"):
        when(s, "allied", land)                                         # more than one hex: the choice is needed
    with pytest.raises(IllegalOrder, match="5.3.*2519 is not adjacent to 2521"):
        when(s, "allied", land + " displace 2519")
    with pytest.raises(IllegalOrder, match="5.3.*2620 is not a land hex"):
        when(s, "allied", land + " displace 2620")
    s2 = then(s, "allied", land + " displace 2421")
    assert s2.units["jp-cea-110div"].hex == "2421" and len(s2.at("2521")) == 4 and "2521" not in s2.jp_control
    bdes = ["jp-cea-1bde", "jp-cea-2bde", "jp-cea-4bde", "jp-cea-5bde"]
    s = mainland_landing({"jp-cea-110div": "2521", "jp-cea-6bde": "2521", **{b: "2421" for b in bdes}},
                         extra=(chinese("C01", "cn-reg-02", "2520", tried=True),))
    with pytest.raises(IllegalOrder, match="5.3.*2520 holds allied units"):
        when(s, "allied", land + " displace 2520")
    with pytest.raises(IllegalOrder, match="5.3.*limit 5"):
        when(s, "allied", land + " displace 2421")                      # 4 + 2 Japanese units
    s2 = then(s, "allied", land)                                        # one hex left: it need not be named
    assert {s2.units[u].hex for u in ("jp-cea-110div", "jp-cea-6bde")} == {"2420"}
    with pytest.raises(IllegalOrder, match="5.3.*no Japanese or Chinese units in 3221"):
        when(replace(s, turn=7, beachheads={}), "allied", "land us-1c displace 3220")


@pytest.mark.slow  # a long game played first
def test_5_3_item_12_e10_chinese_units_too_and_the_nearest_hex_when_no_adjacent_one_can_take_them():
    land = "land " + " ".join(us_ids(4)) + " at 2818"
    s = mainland_landing({"jp-cea-110div": "2817", "jp-cea-26div": "2718"},
                         extra=(chinese("C01", "cn-reg-02", "2818", tried=True),))
    with pytest.raises(IllegalOrder, match="5.3.*2719 holds an intrinsic Japanese garrison"):
        when(s, "allied", land + " displace 2719")
    with pytest.raises(IllegalOrder, match="5.3.*2817 holds japanese units"):
        when(s, "allied", land + " displace 2817")
    options = causeway.displacement_hexes(s, "2818")
    assert options and all(D.distance("2818", h) == 2 for h in options)
    with pytest.raises(IllegalOrder, match="5.3.*displace HEX"):
        when(s, "allied", land)
    with pytest.raises(IllegalOrder, match="5.3.*2616 is not 2 hexes from 2818"):
        when(s, "allied", land + " displace 2616")
    s2 = then(s, "allied", land + f" displace {options[0]}")
    assert s2.units["C01"].hex == options[0] and s2.beachheads["mainland"] == "2818"   # 6.3: no Chinese-US stack
    s3 = then(replace(s, garrison_lost=frozenset({"2719"})), "allied", land)   # 2719 is then the only hex
    assert s3.units["C01"].hex == "2719" and "2719" not in s3.jp_control        # 3.5: entering takes control


def test_5_3_item_12_land_order_syntax():
    s = mainland_landing({})
    cmd = RULES.parse("land us-1c at 2521 displace 2420", "allied", s)
    assert cmd.args == {"units": ["us-1c"], "hex": "2521", "displace": "2420"}
    for bad in ("land us-1c at 2521 displace", "land us-1c at 2521 at 2123", "land us-1c at 2521 to 2420"):
        with pytest.raises(InvalidOrder, match="displace HEX"):
            RULES.parse(bad, "allied", s)


def test_4_4_japanese_win_at_once_taking_a_us_beachhead():
    s = position({"jp-cea-110div": "3220"}, turn=8, phase="VI", plans={"japanese": "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221"})
    evs = when(s, "japanese", "move jp-cea-110div to 3221")          # out of supply on Formosa: 3 MP
    assert of(evs, ev.GameEnded)[0].winner == "japanese"


def test_7_7_7_8_coastal_us_units_are_supplied_and_the_aerial_marker_supplies_one_stack():
    from app.rules.ichigo.common import supply_state
    u = us_ids(1)[0]
    s = position({u: "2011"}, turn=8, phase="III", plans={"us": "move-fight"}, causeway=True)
    assert supply_state(s, s.units[u]) == "oos"
    s2 = then(s, "allied", "supply 2011")
    assert supply_state(s2, s2.units[u]) == "full"
    with pytest.raises(IllegalOrder, match="not allowed now|7.8"):
        when(s2, "allied", "supply 2011")
    s3 = position({u: "3220"}, turn=8, causeway=True)
    assert supply_state(s3, s3.units[u]) == "full"                    # 3220 is coastal


def test_8_10_one_chinese_unit_airlifted_between_friendly_cities_under_air_superiority():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-02", "0712"),))
    s2 = then(s, "allied", "airlift C01 to 0119")
    assert s2.units["C01"].hex == "0119" and "airlift" not in [a.name for a in RULES.prompt(s2).actions]
    s3 = replace(s, air_side="japanese")
    with pytest.raises(IllegalOrder):
        when(s3, "allied", "airlift C01 to 0119")


def test_8_11_the_11th_airborne_drops_once_on_clear_or_rough_and_uses_the_airlift_and_aerial_marker():
    s = position({}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)
    s2 = then(s, "allied", "drop 2011")
    assert s2.units["us-11ab"].hex == "2011" and s2.airdropped
    assert "supply" not in [a.name for a in RULES.prompt(s2).actions]
    with pytest.raises(IllegalOrder, match="8.11"):
        when(s, "allied", "drop 2809")                                # mountain


def test_5_3_item_13_the_11th_airborne_is_not_in_the_turn_8_landing_but_lands_at_a_beachhead_from_phase_ii():
    s = replace(position({}, turn=8, causeway=True, beachheads={"formosa": "3221"}), phase="I")
    with pytest.raises(IllegalOrder, match="8.11"):
        when(s, "allied", "land us-11ab " + " ".join(us_ids(2)) + " at 1922")
    s = position({}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"})
    assert then(s, "allied", "land us-11ab at 3221").units["us-11ab"].hex == "3221"


def test_10_11_from_turn_9_us_units_in_one_beachhead_sail_to_the_other():
    ids = us_ids(2)
    s = replace(position({ids[0]: "3221", ids[1]: "3221"}, turn=9, causeway=True,
                         beachheads={"formosa": "3221", "mainland": "1922"}), phase="I")
    s2 = then(s, "allied", f"transfer {ids[0]}")
    assert s2.units[ids[0]].hex == "1922" and s2.units[ids[1]].hex == "3221"


def test_11_16_naval_gunfire_shifts_for_us_and_chinese_in_coastal_hexes_after_causeway():
    u = us_ids(1)[0]
    s = position({u: "3221", "jp-cea-110div": "3222"}, turn=8, phase="III", plans={"us": "fight-move"},
                 causeway=True)
    a = combat.assess(s, "allied", "3222", [s.units[u]], [s.units["jp-cea-110div"]], 0, False)
    assert "1R (Ichi-Go 11.16: US naval gunfire)" in a["shifts"]


def test_9_8_later_us_divisions_land_at_a_beachhead_which_stays_one_of_two():
    ids = us_ids(10)
    s = position({}, turn=9, phase="II", plans={"us": "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"})
    s2 = then(s, "allied", f"land {ids[9]} at 1922")
    assert s2.units[ids[9]].hex == "1922" and s2.beachheads == {"formosa": "3221", "mainland": "1922"}


def test_8_9_japanese_units_that_start_within_three_hexes_of_the_b29_stay_oos_all_turn():
    from app.rules.ichigo.common import supply_state
    s = replace(position({"jp-cea-110div": "2011"}, turn=3), phase="start")     # 3 hexes from Wuhan 2008
    s = then(s, "allied", "b29 2008")
    assert supply_state(s, s.units["jp-cea-110div"]) == "oos"
    s = replace(s, phase="VI", plans={"japanese": "move-fight"})
    evs = when(s, "japanese", "move jp-cea-110div to 2112")                    # 4 hexes away
    assert of(evs, ev.MovementRolled)[0].mp == 3                        # OOS: 3 MP (7.3, R19)
    s = fold(s, *evs)
    assert supply_state(s, s.units["jp-cea-110div"]) == "oos"           # out of range now, still OOS


def test_every_ichigo_event_reads_as_a_sentence_in_the_log():
    import dataclasses
    import inspect

    from app.rules.ichigo import GAME

    describe = GAME.describe

    samples = {"str": "1906", "int": 1, "float": 1.0, "bool": True, "list[str]": ["jp-cea-3div"],
               "dict": {"jp-cea-3div": "full"}, "str | None": "japanese", "list": ["1906"], "tuple": ("1906",),
               "int | None": 1}
    kinds = [c for _, c in inspect.getmembers(ev, inspect.isclass)
             if dataclasses.is_dataclass(c) and c.__module__ == ev.__name__]
    assert len(kinds) > 25
    for kind in kinds:
        e = kind(**{f.name: samples[str(f.type)] for f in dataclasses.fields(kind)})
        assert describe(e) != kind.__name__, f"{kind.__name__} has no log text"
