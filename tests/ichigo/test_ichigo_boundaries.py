"""Ichi-Go rules held at their boundaries: results and refusals a player would notice, each found missing by the
mutation run (issue 19, docs/mutation-survivors.md)."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, then, when
from test_ichigo_engine import mainland_landing, us_ids

from app.rules.custom_setup import SetupError
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.ichigo import GAME
from app.rules.ichigo.view import view
from app.rules.legal import legal_orders
from tests.fuzzing import refusal


def test_11_25_a_momentum_attack_uses_only_the_units_that_just_advanced():
    s = position({"jp-cea-110div": "2010", "jp-ka-11div": "2013"},
                 extra=(chinese("C01", "cn-reg-04", "2011"), chinese("C02", "cn-reg-02", "2012", tried=True)))
    s = then(s, "japanese", "attack 2011 with jp-cea-110div")
    s = then(s, "japanese", "advance jp-cea-110div")
    for order in ("attack 2012 with jp-ka-11div", "attack 2012 with jp-cea-110div jp-ka-11div"):
        assert refusal(RULES, s, "japanese", order) == \
            "Ichi-Go 11.25: a momentum attack uses only units that just advanced"


def test_11_27_every_defender_zero_is_a_de_that_costs_nobody_a_step():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),))   # a zero
    b = of(when(s, "japanese", "attack 2011 with jp-cea-110div"), ev.BattleResolved)[0]
    assert (b.result, b.attacker_losses, b.defender_losses, b.eliminated) == ("DE", 0, 0, True)
    assert (b.tanks, b.special_forces) == ([], False)


def test_ruling_e13_a_stack_cut_short_by_a_full_hex_stops_in_the_hex_before_it_not_earlier():
    full = tuple(chinese(f"C0{i}", f"cn-reg-0{i}", "2013", tried=True) for i in range(2, 6))  # 6.2: four Chinese
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-01", "2011", tried=True), *full))
    evs = when(s, "allied", "move C01 to 2014 via 2012 2013", rolls=[3])  # 2 MP reach 2013, which is full
    assert of(evs, ev.UnitsMoved)[0].path == ["2011", "2012"]
    assert fold(s, *evs).units["C01"].hex == "2012"


def test_3_3_a_custom_position_places_a_named_chinese_regular_face_up_and_refuses_an_empty_draw():
    s = GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "VI",
                                                     "units": {"cn-reg-33": "1210", "jp-cea-110div": "2010"}}})
    [(handle, unit)] = [(k, u) for k, u in s.units.items() if u.ref == "cn-reg-33"]
    assert (unit.hex, unit.tried) == ("1210", True)
    shown = {u["id"]: u for u in view(s, "japanese")["units"]}
    assert (shown[handle]["name"], shown[handle]["untried"]) == ("100th Army", False)
    with pytest.raises(SetupError, match=r"\[draw\] maps a hex to the number of untried counters"):
        GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "units": {"cn-reg-33": "1210"},
                                                      "draw": {"1211": 0}}})


def test_5_0_a_custom_position_in_a_phase_played_only_after_causeway_is_refused_without_it():
    with pytest.raises(SetupError) as refused:
        GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "I", "units": {"jp-cea-110div": "2010"}}})
    assert refused.value.problems == ["Phase I is not played without Causeway (5.0)"]


def test_8_2_8_3_the_list_of_legal_orders_places_the_markers_won_over_enemy_stacks_first_then_its_own():
    s = then(position({"jp-cea-110div": "2010", "jp-cea-26div": "1808"}, phase="IV", turn=3,
                      extra=(chinese("C01", "cn-reg-02", "2012", tried=True),
                             chinese("C02", "cn-reg-07", "1412", tried=True))), "japanese", "roll", rolls=[6, 2])
    assert [o["order"] for o in legal_orders(RULES, s, "japanese")] == ["air 1412 2012 1808 2010"]  # four won


def test_2_10_to_2_12_a_counter_shows_its_combat_factor_without_movement_a_static_one_all_three():
    s = position({"jp-cea-110div": "2010", "jp-14aa-2tkdiv": "2012"})
    shown = {u["id"]: u["factors"] for u in view(s, "japanese")["units"]}
    assert (shown["jp-cea-110div"], shown["jp-14aa-2tkdiv"]) == ("4", "0-6-0")


def test_9_0_a_side_sees_the_turn_each_of_its_reinforcements_enters():
    off = {u["id"]: u for u in view(position({}), "japanese")["own_off_map"]}
    assert (off["jp-cea-11bde"]["entry_turn"], off["jp-cea-27div"]["entry_turn"]) == (3, 2)


@pytest.mark.parametrize(("rolls", "winner"), [([6, 2], "japanese"), ([1, 6], "allied")])
def test_8_1_the_side_that_wins_the_airpower_roll_places_the_markers_and_both_sides_see_it(rolls, winner):
    s = then(position({}, phase="IV", turn=3), "japanese", "roll", rolls=rolls)
    assert RULES.prompt(s).side == winner and [a.name for a in RULES.prompt(s).actions] == ["air"]
    assert view(s, "japanese")["airpower"]["side"] == view(s, "allied")["airpower"]["side"] == winner


@pytest.mark.parametrize(("order", "syntax"), [
    ("move jp-cea-110div 2012", "move UNITS to HEX [via HEX ...] [strategic]"),
    ("absorb jp-cea-11bde jp-cea-110div", "absorb BRIGADE into DIVISION"),
])
def test_an_order_that_cannot_be_read_quotes_the_syntax_of_its_verb(order, syntax):
    s = position({"jp-cea-110div": "2010", "jp-cea-11bde": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    with pytest.raises(InvalidOrder) as info:
        RULES.parse(order, "japanese", s)
    assert str(info.value).startswith(f"cannot read order {order!r}: ")
    assert str(info.value).endswith(f"expected '{syntax}'")


def test_8_2_the_winner_places_every_marker_once_each_on_the_map():
    s = then(position({}, phase="IV", turn=3), "japanese", "roll", rolls=[6, 2])       # 4 Japanese markers
    assert RULES.parse("air 2010 2011", "japanese", s).side == "japanese"
    for order in ("air 2010", "air 2010 2010 2011 2012"):
        assert refusal(RULES, s, "japanese", order) == "Ichi-Go 8.2: place all 4 markers, one per hex"
    assert refusal(RULES, s, "japanese", "air 2010 2011 2012 9950") == "Ichi-Go 8.2: 9950 is not on the map"
    placed = of(when(s, "japanese", "air 2010 2011 2012 2013"), ev.AirpowerPlaced)[0]
    assert placed.hexes == ["2010", "2011", "2012", "2013"]


def test_10_17_a_strategic_move_is_recorded_as_strategic_with_its_doubled_allowance():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    [rolled] = of(when(s, "japanese", "move jp-cea-110div to 2011 strategic"), ev.MovementRolled)
    assert (rolled.mp, rolled.how) == (12, "strategic")


def test_a_snapshot_reads_back_as_the_same_position():
    """docs/architecture.md practice 5: a snapshot is a cache, so loading from it gives the position it saved."""
    s = then(position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),)), "japanese",
             "attack 2011 with jp-cea-110div")
    assert RULES.decode_state(RULES.encode_state(s)) == s


@pytest.mark.parametrize(("roll", "outcome"), [(2, "Philippines"), (3, "Causeway launched")])
def test_5_2_the_history_says_which_way_the_causeway_roll_went_at_its_boundary(roll, outcome):
    s = replace(position({}, turn=7), phase="start")
    [checked] = of(when(s, "allied", "roll", rolls=[roll]), ev.CausewayChecked)
    assert RULES.describe(checked).endswith(f"= {roll + 3} -> {outcome}")


def test_8_10_an_airlift_records_the_city_it_left():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-02", "0712"),))
    [flown] = of(when(s, "allied", "airlift C01 to 0119"), ev.Airlifted)
    assert (flown.unit, flown.origin, flown.hex) == ("C01", "0712", "0119")


def test_6_3_a_militia_does_not_count_so_a_fourth_chinese_unit_joins_it_and_a_fifth_does_not():
    c01 = chinese("C01", "cn-reg-01", "2011", tried=True)

    def hex_with(n):
        there = tuple(chinese(f"C0{i}", f"cn-reg-0{i}", "2012", tried=True) for i in range(2, 2 + n))
        return position({"cn-mil-yrd": "2012"}, phase="VIII", plans={"chinese": "move-fight"}, extra=(c01, *there))

    assert of(when(hex_with(3), "allied", "move C01 to 2012", rolls=[3]), ev.UnitsMoved)[0].path == ["2011", "2012"]
    with pytest.raises(IllegalOrder, match="Ichi-Go 6.3: Chinese units: 5 stacked in 2012, limit 4"):
        when(hex_with(4), "allied", "move C01 to 2012", rolls=[3])


def test_7_4_an_attack_on_attenuated_supply_names_its_shift_and_case():
    s = position({"jp-cea-110div": "2010"}, turn=7, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    [battle] = of(when(s, "japanese", "attack 2011 with jp-cea-110div", rolls=[3]), ev.BattleResolved)
    assert battle.shifts == ["1L (Ichi-Go 7.4: attenuated Japanese supply)"]
    panel = RULES.combat_summary(battle, s)                        # the replay's combat panel
    assert panel["shifts"] == [{"amount": -1, "case": "Ichi-Go 7.4", "reason": "attenuated Japanese supply"}]
    assert (panel["column"], panel["result"], panel["losses"]) == ("1:2", "2/1", {"japanese": 2, "allied": 1})


def test_11_29_a_preview_against_an_empty_japanese_city_counts_its_intrinsic_garrison():
    s = position({}, phase="IX", plans={"chinese": "move-fight"}, extra=(chinese("C01", "cn-reg-02", "1608",
                                                                                  tried=True),))
    shown = RULES.preview(s, RULES.parse("attack 1609 with C01", "allied", s))
    assert (shown["garrison"], shown["defence"]) == (True, 1)


def test_5_3_item_12_the_mainland_landing_is_at_a_port_city_and_its_beachhead_is_shown_to_both_sides():
    s = mainland_landing({})
    land = "land " + " ".join(us_ids(4)) + " at "
    assert refusal(RULES, s, "allied", land + "2420") == ("Ichi-Go 5.3: the mainland landing is at one of the port "
                                                          "cities 1922, 2123, 2521, 2719, 2818 (ruling R10)")
    s = then(s, "allied", land + "2521")
    assert view(s, "japanese")["beachheads"] == view(s, "allied")["beachheads"] == \
        {"formosa": "3221", "mainland": "2521"}


def test_9_2_with_one_eligible_full_division_a_reduced_division_fills_the_second_slot_before_brigades():
    s = position({"jp-cea-26div": "1901", "jp-cea-62div": "1901", "jp-cea-11bde": "1812"}, phase="V", turn=5,
                 steps={"jp-cea-62div": 1})
    assert refusal(RULES, s, "japanese", "withdraw jp-cea-26div jp-cea-11bde") == (
        "Ichi-Go 9.2: withdraw 1 full-strength 4-factor division(s) under 101, 1 reduced division(s) and "
        "0 brigade(s), all in supply")
    s = then(s, "japanese", "withdraw jp-cea-26div jp-cea-62div")
    assert (s.units["jp-cea-26div"].status, s.units["jp-cea-62div"].status) == ("removed", "14aa-pool")


def test_10_1_a_stack_that_began_to_move_goes_on_whole_or_in_part_and_no_unit_joins_it_under_version_12():
    # rules version 13 lets a unit that has not moved join it (10.3, ruling E50: tests/ichigo/test_ichigo_walk13.py)
    s = RULES.played_under(position({"jp-cea-110div": "2010", "jp-ka-11div": "2010", "jp-cea-1bde": "2011"},
                                    phase="VI", plans={"japanese": "move-fight"}), "12")
    s = then(s, "japanese", "move jp-cea-110div jp-ka-11div to 2011")
    assert refusal(RULES, s, "japanese", "move jp-cea-110div jp-ka-11div jp-cea-1bde to 2012") == (
        "Ichi-Go 10.1: a stack that has begun to move goes on only as that stack (or part of it, 10.3), before any "
        "other unit moves")
    # a game created under version 3 moved the stack on only whole (ruling E20)
    assert refusal(RULES, RULES.played_under(s, "3"), "japanese", "move jp-cea-110div to 2012").startswith(
        "Ichi-Go 10.1")
    s = then(s, "japanese", "move jp-cea-110div jp-ka-11div to 2012")
    assert {s.units[u].hex for u in ("jp-cea-110div", "jp-ka-11div")} == {"2012"}


def test_9_5_a_full_strength_division_absorbs_no_brigade_and_a_reduced_one_does():
    full = position({"jp-cea-40div": "1811", "jp-cea-1bde": "1811"}, phase="V")
    assert refusal(RULES, full, "japanese", "absorb jp-cea-1bde into jp-cea-40div") == \
        "Ichi-Go 9.5: a reduced division and an infantry brigade in the same hex"
    reduced = position({"jp-cea-40div": "1811", "jp-cea-1bde": "1811"}, phase="V", steps={"jp-cea-40div": 1})
    assert then(reduced, "japanese", "absorb jp-cea-1bde into jp-cea-40div").units["jp-cea-40div"].steps == 2


def test_10_4_once_another_stack_rolls_to_move_the_first_stack_has_completed_its_move():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-01", "2011", tried=True), chinese("C02", "cn-reg-02", "2015",
                                                                                  tried=True)))
    s = then(s, "allied", "move C01 to 2012", rolls=[6])                     # 5 MP, 1 spent
    s = then(s, "allied", "move C02 to 2016", rolls=[6])
    assert refusal(RULES, s, "allied", "move C01 to 2013") == "Ichi-Go 10.4: C01 has completed its move this phase"


def test_11_29_a_step_loss_destroys_the_intrinsic_garrison_and_the_chinese_still_pay_theirs():
    s = position({}, phase="VIII", plans={"chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-33", "1810", tried=True), chinese("C02", "cn-reg-02", "1810",
                                                                                  tried=True)))
    evs = when(s, "allied", "attack 1811 with C01 C02", rolls=[1])      # 9:1, city 1L -> 8:1, die 1: 0/2
    assert of(evs, ev.BattleResolved)[0].result == "0/2" and of(evs, ev.GarrisonDestroyed)
    s = fold(s, *evs)
    assert [a.name for a in RULES.prompt(s).actions] == ["lose"]          # 11.23: one Chinese step even so
    s = then(s, "allied", "lose C02")
    assert "C02" not in s.units and [a.name for a in RULES.prompt(s).actions] == ["advance", "stay"]
    s = then(s, "allied", "advance C01")
    assert s.units["C01"].hex == "1811" and "1811" not in s.jp_control


def test_11_29_a_lone_chinese_attack_that_does_not_hurt_the_garrison_still_costs_its_steps():
    s = position({}, phase="VIII", plans={"chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "1810", tried=True),))
    evs = when(s, "allied", "attack 1811 with C01", rolls=[1])          # 4:1, city 1L -> 3:1, die 1: 1/0
    assert of(evs, ev.BattleResolved)[0].result == "1/0" and not of(evs, ev.GarrisonDestroyed)
    s = fold(s, *evs)
    assert s.units.get("C01") is None and "1811" in s.jp_control and "1811" not in s.garrison_lost


def test_7_5_a_us_unit_inland_traces_supply_to_the_mainland_beachhead_unless_the_japanese_hold_it():
    from app.rules.ichigo.common import supply_state
    us = us_ids(1)[0]
    held = GAME.initial_state("campaign", {}).jp_control - {"1922", "3221"}
    s = position({us: "1821"}, turn=9, causeway=True, beachheads={"formosa": "3221", "mainland": "1922"},
                 control=held)                                           # 1821: inland, next to 1922
    assert supply_state(s, s.units[us]) == "full"
    lost = replace(s, jp_control=held | {"1922"})
    assert supply_state(lost, lost.units[us]) == "oos"


def test_7_8_the_japanese_entering_the_aerial_supply_hex_take_the_marker_away():
    from app.rules.ichigo.common import us_supplied
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans={"japanese": "move-fight"}, turn=8, causeway=True,
                 aerial_hex="2011")
    assert us_supplied(s, "2011")
    s = then(s, "japanese", "move jp-cea-110div to 2011", rolls=[6])
    assert s.aerial_hex is None and not us_supplied(s, "2011")


@pytest.mark.parametrize("checked", [True, False])
def test_4_1_a_custom_position_says_whether_the_china_collapse_roll_was_made(checked):
    s = GAME.initial_state("campaign", {"position": {
        "turn": 3, "phase": "VI", "units": {"jp-cea-110div": "0812"},
        "plans": {"japanese": "move-fight", "chinese": "move-fight"}, "collapse_checked": checked}})
    rolls = [] if checked else [2]                                       # taking Chungking rolls only once a game
    evs = when(s, "japanese", "move jp-cea-110div to 0712", rolls=rolls)
    assert bool(of(evs, ev.CollapseChecked)) is not checked


@pytest.mark.parametrize("size", [1, 2, 3])
def test_6_6_an_enemy_stack_shows_its_top_unit_and_how_many_lie_under_it(size):
    units = dict.fromkeys(["jp-cea-110div", "jp-ka-11div", "jp-cea-26div"][:size], "2010")
    stack = next(st for st in view(position(units), "allied")["stacks"] if st["hex"] == "2010")
    assert (len(stack["units"]), stack["hidden"]) == (1, size - 1)


def test_11_0_the_list_of_legal_orders_in_a_combat_phase_offers_each_attack_with_its_odds():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    attacks = {o["order"]: o["odds"] for o in legal_orders(RULES, s, "japanese") if o["action"] == "attack"}
    assert attacks == {"attack 2011 with jp-cea-110div": "1:1", "attack 2011 with jp-cea-110div tanks 1": "2:1"}
