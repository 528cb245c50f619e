"""Ichi-Go departures from the text found by checking the engine case by case against the rulebook, fixed under
rules version 4 (rulings E16-E28, docs/rulings/ichigo-engine.md); each is tested under version 4 and as a game
created under version 3 still decides it (docs/core.md "Rules versions")."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, when

from app.events.core import DieRolled
from app.rules.errors import IllegalOrder
from app.rules.ichigo.common import supply_state, us_supplied


def v3(state):
    return RULES.played_under(state, "3")


# -- 10.14, 10.15 (ruling E16): one movement roll for a stack, even when its units move off in different ways --
def attenuated_stack():
    """Turn 8, no Causeway: Japanese supply is attenuated and each stack rolls for its MP (7.4, 10.14)."""
    return position({"jp-cea-1bde": "2010", "jp-cea-2bde": "2010"}, turn=8, phase="VI",
                    plans={"japanese": "move-fight"}, causeway=False)


def test_10_14_the_second_unit_of_a_japanese_stack_moves_on_the_stacks_one_roll():
    s = attenuated_stack()
    s = fold(s, *when(s, "japanese", "move jp-cea-1bde to 2011", rolls=[5]))
    second = when(s, "japanese", "move jp-cea-2bde to 2009")          # no die: the stack has rolled its 5
    assert not of(second, DieRolled)
    assert of(second, ev.MovementRolled)[0].mp == 5 and of(second, ev.UnitsMoved)[0].path == ["2010", "2009"]


def test_10_14_a_stack_elsewhere_still_rolls_its_own_die():
    s = position({"jp-cea-1bde": "2010", "jp-cea-2bde": "2110"}, turn=8, phase="VI",
                 plans={"japanese": "move-fight"}, causeway=False)
    s = fold(s, *when(s, "japanese", "move jp-cea-1bde to 2011", rolls=[5]))
    assert of(when(s, "japanese", "move jp-cea-2bde to 2111", rolls=[2]), ev.MovementRolled)[0].mp == 3


def test_10_15_r20_a_chinese_stack_rolls_once_for_the_units_it_splits_into():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-01", "2011", tried=True),
                        chinese("C02", "cn-reg-02", "2011", tried=True)))
    s = fold(s, *when(s, "allied", "move C01 to 2012", rolls=[3]))       # 3 - 1 = 2 MP (10.15)
    second = when(s, "allied", "move C02 to 2010")
    assert not of(second, DieRolled) and of(second, ev.MovementRolled)[0].mp == 2


def test_10_14_a_game_created_under_version_3_rolls_again_for_each_part_of_the_stack():
    s = v3(attenuated_stack())
    s = fold(s, *when(s, "japanese", "move jp-cea-1bde to 2011", rolls=[5]))
    assert of(when(s, "japanese", "move jp-cea-2bde to 2009", rolls=[1]), ev.MovementRolled)[0].mp == 3


# -- 9.5 (ruling E17): the division and the brigade begin Phase V in the city ----------------------------------
def reduced_division_in_kaifeng():
    """Turn 2, Phase V: the reduced 40th Division in Kaifeng (1901, an initial Japanese city on the north edge,
    ruling R1), where the 3rd Brigade, due on Turn 2 (3.4), may enter (9.1)."""
    s = position({"jp-cea-40div": "1901"}, phase="V", steps={"jp-cea-40div": 1})
    return fold(s, *when(s, "japanese", "enter jp-cea-3bde at 1901"))


def test_9_5_a_brigade_that_entered_this_phase_is_not_absorbed():
    with pytest.raises(IllegalOrder, match="9.5") as refused:
        when(reduced_division_in_kaifeng(), "japanese", "absorb jp-cea-3bde into jp-cea-40div")
    assert "jp-cea-3bde" in str(refused.value)


def test_9_5_a_brigade_there_as_phase_v_began_is_absorbed():
    s = position({"jp-cea-40div": "1901", "jp-cea-1bde": "1901"}, phase="V", steps={"jp-cea-40div": 1})
    [absorbed] = when(s, "japanese", "absorb jp-cea-1bde into jp-cea-40div")
    assert absorbed == ev.BrigadeAbsorbed("jp-cea-1bde", "jp-cea-40div")


def test_9_5_a_game_created_under_version_3_absorbs_the_brigade_that_just_entered():
    s = v3(reduced_division_in_kaifeng())
    assert fold(s, *when(s, "japanese", "absorb jp-cea-3bde into jp-cea-40div")).units["jp-cea-40div"].steps == 2


# -- 7.8 (ruling E18): the Japanese who take the Aerial Supply Marker's hex by an advance remove the marker --------
def japanese_take_the_aerial_supply_hex(state):
    """Turn 8 after Causeway: the reduced 1st Cavalry in inland 2011 under the Aerial Supply Marker (7.8) is
    destroyed by three Japanese divisions (6:1 less 1L for attenuated supply, 7.4; a 6 is DE) and the 110th
    advances into 2011 (11.24)."""
    s = fold(state, *when(state, "japanese", "attack 2011 with 2012", rolls=[6]))
    return fold(s, *when(s, "japanese", "advance jp-cea-110div"))


def aerial_supply_position():
    return position({"us-1c": "2011", "jp-cea-110div": "2012", "jp-cea-3div": "2012", "jp-cea-13div": "2012"},
                    turn=8, phase="VII", causeway=True, plans={"japanese": "move-fight"}, steps={"us-1c": 1},
                    aerial_hex="2011", aerial_turn=8)


def test_7_8_a_japanese_advance_into_the_aerial_supply_hex_removes_the_marker():
    s = aerial_supply_position()
    assert us_supplied(s, "2011")                                   # the marker supplies its hex (7.8)
    s = japanese_take_the_aerial_supply_hex(s)
    assert s.units["jp-cea-110div"].hex == "2011"
    assert s.aerial_hex is None and not us_supplied(s, "2011")     # a US unit coming back there is out of supply


def test_7_8_a_game_created_under_version_3_keeps_the_marker_after_the_advance():
    s = japanese_take_the_aerial_supply_hex(v3(aerial_supply_position()))
    assert s.aerial_hex == "2011"


# -- 11.17 (ruling E19): a tank regiment may support the static 2nd Tank Division's defence ---------------------
def chinese_attack_on_the_2nd_tank_division():
    """Turn 2, Phase IX: a tried Chinese 4 attacks the static 2nd Tank Division (defence 6, 2.12), alone and in
    supply on the mainland; the three CEA tank regiments wait off the map (3.4, 11.17)."""
    return position({"jp-14aa-2tkdiv": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                    extra=(chinese("C01", "cn-reg-02", "2010", tried=True),))


def test_11_17_the_japanese_may_commit_a_tank_regiment_to_the_static_2nd_tank_divisions_defence():
    s = chinese_attack_on_the_2nd_tank_division()
    s = fold(s, *when(s, "allied", "attack 2011 with C01"))           # no die yet: the Japanese decide
    assert RULES.prompt(s).side == "japanese" and RULES.prompt(s).actions[0].name == "commit"
    with pytest.raises(IllegalOrder, match="11.17"):
        when(s, "japanese", "commit 2")                               # one division defending: one regiment
    [battle] = of(when(s, "japanese", "commit 1", rolls=[4]), ev.BattleResolved)
    assert battle.odds == "1:2" and battle.column == "1:3" and len(battle.tanks) == 1


def test_11_17_a_game_created_under_version_3_rolls_at_once_against_the_2nd_tank_division():
    s = v3(chinese_attack_on_the_2nd_tank_division())
    assert of(when(s, "allied", "attack 2011 with C01", rolls=[4]), ev.BattleResolved)[0].tanks == []


# -- the worked example of 11.25 (IG-19) on its own hexes ---------------------------------------------------------
def chinese_unit_left_in_1903():
    """Turn 2: the 1st Brigade's attack from 1902 into 1903 (2 on 5, 1:3, die 1: 1/0) leaves the Chinese C01 there;
    the 26th Division waits in 1803, next to 1903, and a different stack, 110th and 3rd Divisions in 2103, faces an
    untried C02 in 2003, next to 1903 too."""
    s = position({"jp-cea-1bde": "1902", "jp-cea-26div": "1803", "jp-cea-110div": "2103", "jp-cea-3div": "2103"},
                 extra=(chinese("C01", "cn-reg-57", "1903", tried=True), chinese("C02", "cn-reg-04", "2003")))
    return fold(s, *when(s, "japanese", "attack 1903 with jp-cea-1bde", rolls=[1]))


def test_11_25_example_a_different_stack_attacks_1903_again_only_by_a_momentum_attack():
    s = chinese_unit_left_in_1903()
    assert s.units["C01"].hex == "1903"
    with pytest.raises(IllegalOrder, match="11.4"):
        when(s, "japanese", "attack 1903 with jp-cea-26div")          # an ordinary second attack is refused
    s = fold(s, *when(s, "japanese", "attack 2003 with 2103"))         # C02 is a zero: in effect a DE (11.27)
    s = fold(s, *when(s, "japanese", "advance jp-cea-110div jp-cea-3div"))
    [battle] = of(when(s, "japanese", "attack 1903 with jp-cea-110div jp-cea-3div", rolls=[6]), ev.BattleResolved)
    assert battle.hex == "1903" and battle.defenders == ["C01"] and battle.attack == 8


# -- 10.3 (ruling E20): a unit splits off a stack under way and the rest go on ----------------------------------
def brigades_moved_together():
    """Turn 2: the 1st and 2nd Brigades move together from 2010 to 2110 (1 MP of their 6, 10.14)."""
    s = position({"jp-cea-1bde": "2010", "jp-cea-2bde": "2010"}, phase="VI", plans={"japanese": "move-fight"})
    return fold(s, *when(s, "japanese", "move jp-cea-1bde jp-cea-2bde to 2110"))


def test_10_3_one_unit_of_a_moving_stack_goes_on_and_the_other_stays_where_the_stack_is():
    s = brigades_moved_together()
    s = fold(s, *when(s, "japanese", "move jp-cea-1bde to 2210"))
    assert s.units["jp-cea-1bde"].hex == "2210" and s.units["jp-cea-1bde"].mp_used == 2
    assert s.units["jp-cea-2bde"].hex == "2110"
    with pytest.raises(IllegalOrder, match="10.4"):                  # the brigade left behind has ended its move
        when(s, "japanese", "move jp-cea-2bde to 2111")


def test_10_3_a_game_created_under_version_3_moves_the_stack_on_only_whole():
    s = v3(brigades_moved_together())
    with pytest.raises(IllegalOrder, match="10.1"):
        when(s, "japanese", "move jp-cea-1bde to 2210")


# -- 8.1 (ruling E21, R13): a 0-0 tie of two rolled dice is rerolled like any tie ----------------------------------
def airpower_turn_7_with_five_airbases():
    """Turn 7, no Causeway, Phase IV: the Japanese subtract 2 (8.1) and the Allies, holding five of the eight
    airbases, 1 (8.7); both floored at 0. A Japanese 2 and an Allied 1 are both 0."""
    s = position({}, phase="IV", turn=7, causeway=False)
    bases = sorted(s.data.feature("airbase"))
    return position({}, phase="IV", turn=7, causeway=False, control=s.jp_control | set(bases[5:]))


def test_8_1_a_tie_at_zero_is_rerolled():
    rolled = of(when(airpower_turn_7_with_five_airbases(), "japanese", "roll", rolls=[2, 1, 6, 1]),
                ev.AirpowerRolled)
    assert [(r.japanese, r.allied, r.winner, r.markers) for r in rolled] == [(0, 0, None, 0), (4, 0, "japanese", 4)]


def test_8_1_a_game_created_under_version_3_ends_the_roll_on_a_tie_at_zero():
    rolled = of(when(v3(airpower_turn_7_with_five_airbases()), "japanese", "roll", rolls=[2, 1]), ev.AirpowerRolled)
    assert [(r.winner, r.markers) for r in rolled] == [(None, 0)]


# -- 8.11, 9.8 (ruling E22): US reinforcements land, and the 11th Airborne drops, in the US Movement Phase ---------
def us_fighting_first(turn=8):
    """Turn 8 after Causeway, the Allies declared fight-move for the US (5.5): Phase III is the US Movement Phase;
    both beachheads are in Allied hands."""
    s = position({}, turn=turn, phase="III", plans={"us": "fight-move"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"})
    return replace(s, jp_control=s.jp_control - {"3221", "1922"})


def test_8_11_under_fight_move_the_11th_airborne_drops_in_phase_iii():
    [drop] = of(when(us_fighting_first(), "allied", "drop 2011"), ev.Airlifted)
    assert drop.unit == "us-11ab" and drop.hex == "2011" and drop.drop


def test_9_8_under_fight_move_us_reinforcements_land_at_a_beachhead_in_phase_iii():
    s = fold(us_fighting_first(), *when(us_fighting_first(), "allied", "land us-11ab at 3221"))
    assert s.units["us-11ab"].hex == "3221" and s.phase == "III"


def test_9_8_no_us_landing_in_the_us_combat_phase():
    s = position({}, turn=8, phase="II", plans={"us": "fight-move"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"})
    with pytest.raises(IllegalOrder, match="Ichi-Go 5.5: this us phase was declared for combat"):  # E38; 5.1 before
        when(s, "allied", "land us-11ab at 3221")


def test_8_11_a_game_created_under_version_3_lands_and_drops_in_phase_ii_only():
    s = v3(us_fighting_first())
    for order in ("land us-11ab at 3221", "drop 2011"):
        with pytest.raises(IllegalOrder, match="5.1"):
            when(s, "allied", order)


# -- 5.3 item 7, 9.4 (ruling E23): the 14AA shipment is rolled every Phase V while the pool lasts ------------------
def japanese_reinforcements_after_causeway():
    """Turn 8, Phase V after Causeway: the 14AA units wait in their pool (5.3 item 7)."""
    return position({}, turn=8, phase="V", causeway=True)


def test_5_3_item_7_phase_v_does_not_end_before_the_14aa_roll():
    s = japanese_reinforcements_after_causeway()
    with pytest.raises(IllegalOrder, match="5.3") as refused:
        when(s, "japanese", "end")
    assert str(refused.value) == ("Ichi-Go 5.3: roll for this turn's 14AA shipment first (item 7: every Phase V "
                                  "while the pool lasts)")
    s = fold(s, *when(s, "japanese", "ship", rolls=[1]))               # 1 - 1 = 0: no more 14AA (item 8)
    assert of(when(s, "japanese", "end"), ev.PhaseEnded)


def test_5_3_item_7_a_game_created_under_version_3_may_end_phase_v_without_the_roll():
    assert of(when(v3(japanese_reinforcements_after_causeway()), "japanese", "end"), ev.PhaseEnded)


# -- 8.11, 6.3-6.4 (ruling E24): the 11th Airborne never drops onto a Chinese stack -------------------------------
def airdrop_next_to_a_chinese_unit():
    """Turn 8, US Movement Phase II: the 11th Airborne may drop (8.11); the Chinese C01 holds clear 2011."""
    s = position({}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    return replace(s, jp_control=s.jp_control - {"3221", "1922"})


def test_8_11_the_11th_airborne_may_not_drop_onto_chinese_units():
    s = airdrop_next_to_a_chinese_unit()
    with pytest.raises(IllegalOrder, match="6.4"):
        when(s, "allied", "drop 2011")
    [drop] = of(when(s, "allied", "drop 2012"), ev.Airlifted)             # a clear hex of its own
    assert drop.hex == "2012"


def test_8_11_a_game_created_under_version_3_dropped_onto_the_chinese_as_played():
    assert of(when(v3(airdrop_next_to_a_chinese_unit()), "allied", "drop 2011"), ev.Airlifted)


# -- 8.11, 7.8 (ruling E25): the Aerial Supply Marker the drop uses lands with the 11th Airborne ------------------
def airdrop_cut_off():
    """Turn 8, US Movement Phase II: no beachhead to trace supply to (7.5; the position names none), so a US unit
    inland is supplied only by the Aerial Supply Marker (7.8)."""
    return position({}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)


def test_8_11_the_11th_airborne_dropped_inland_is_supplied_by_the_aerial_supply_marker():
    s = fold(airdrop_cut_off(), *when(airdrop_cut_off(), "allied", "drop 2012"))
    assert s.aerial_hex == "2012" and supply_state(s, s.units["us-11ab"]) == "full"
    with pytest.raises(IllegalOrder, match="Ichi-Go 7.8: the Aerial Supply Marker is placed at most once a turn"):
        when(s, "allied", "supply 2012")
    s = fold(s, *when(s, "allied", "move us-11ab to 2112"))
    assert supply_state(s, s.units["us-11ab"]) == "oos"              # it supplies its hex only


def test_8_11_a_game_created_under_version_3_left_the_dropped_division_out_of_supply():
    s = v3(airdrop_cut_off())
    s = fold(s, *when(s, "allied", "drop 2012"))
    assert s.aerial_hex is None and supply_state(s, s.units["us-11ab"]) == "oos"


# -- 8.11, 11.29 (ruling E26): no airdrop into a city its intrinsic Japanese garrison defends ---------------------
def test_8_11_the_11th_airborne_may_not_drop_into_shanghai_held_by_its_intrinsic_garrison():
    s = airdrop_cut_off()                                           # Shanghai 3106: no Japanese unit, its garrison
    with pytest.raises(IllegalOrder, match="11.29"):
        when(s, "allied", "drop 3106")
    assert "3106" in s.jp_control


def test_8_11_a_game_created_under_version_3_took_shanghai_by_the_drop_as_played():
    s = v3(airdrop_cut_off())
    assert "3106" not in fold(s, *when(s, "allied", "drop 3106")).jp_control


# -- 9.2, 8.9 (ruling E27): a division under the B-29 raid is out of supply, so not withdrawn -----------------------
def withdrawal_under_the_b29():
    """Turn 5, Phase V: the 26th Division sits within three hexes of the B-29 marker placed on Wuhan (2008) this
    turn (8.9), the 3rd and 13th Divisions far from it; all three are full-strength 4-factor divisions under 101."""
    return position({"jp-cea-26div": "2011", "jp-cea-3div": "1901", "jp-cea-13div": "1901"}, phase="V", turn=5,
                    b29_hex="2008", b29_used=True, b29_units=frozenset({"jp-cea-26div"}))


def test_9_2_the_withdrawal_takes_only_divisions_in_supply_and_the_b29_raid_puts_them_out():
    s = withdrawal_under_the_b29()
    with pytest.raises(IllegalOrder, match="9.2"):
        when(s, "japanese", "withdraw jp-cea-26div jp-cea-3div")
    [withdrawn] = of(when(s, "japanese", "withdraw jp-cea-3div jp-cea-13div"), ev.UnitsWithdrawn)
    assert withdrawn.units == ["jp-cea-3div", "jp-cea-13div"]


def test_9_2_a_game_created_under_version_3_withdrew_the_division_under_the_raid():
    s = v3(withdrawal_under_the_b29())
    assert of(when(s, "japanese", "withdraw jp-cea-26div jp-cea-3div"), ev.UnitsWithdrawn)


def test_10_15_8_10_a_unit_airlifted_into_a_hex_after_its_stack_rolled_rolls_its_own_die():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-01", "0712", tried=True),
                        chinese("C02", "cn-reg-02", "0712", tried=True),
                        chinese("C03", "cn-reg-03", "1418", tried=True)))
    s = fold(s, *when(s, "allied", "move C01 to 0812", rolls=[4]))       # Chungking's stack rolls 3 MP
    s = fold(s, *when(s, "allied", "airlift C03 to 0712"))              # 8.10: the Allies hold the air
    assert of(when(s, "allied", "move C03 to 0711", rolls=[6]), ev.MovementRolled)[0].mp == 5
    assert of(when(s, "allied", "move C02 to 0711"), ev.MovementRolled)[0].mp == 3


# -- 11.25, 8.9 (ruling E28): the units that advanced in supply make the momentum attack, the others may not ------
def advance_with_one_unit_under_the_b29(played_under=lambda s: s):
    """Turn 2: the 110th and 3rd Divisions in 2010 destroy an untried zero in 2011 (11.27: in effect a DE) and
    both advance; the 3rd started the turn within range of the B-29 raid, so it is out of supply all turn (8.9).
    C02 waits in 2012, next to 2011."""
    s = position({"jp-cea-110div": "2010", "jp-cea-3div": "2010"}, b29_hex="1708", b29_used=True,
                 b29_units=frozenset({"jp-cea-3div"}),
                 extra=(chinese("C01", "cn-reg-04", "2011"), chinese("C02", "cn-reg-02", "2012", tried=True)))
    s = played_under(s)
    s = fold(s, *when(s, "japanese", "attack 2011 with 2010"))
    return fold(s, *when(s, "japanese", "advance jp-cea-110div jp-cea-3div"))


def test_11_25_only_the_advancing_units_in_supply_make_the_momentum_attack():
    s = advance_with_one_unit_under_the_b29()
    assert s.pending[0]["kind"] == "momentum" and s.pending[0]["data"]["units"] == ["jp-cea-110div"]
    with pytest.raises(IllegalOrder, match="11.25"):
        when(s, "japanese", "attack 2012 with jp-cea-110div jp-cea-3div")
    [battle] = of(when(s, "japanese", "attack 2012 with jp-cea-110div", rolls=[6]), ev.BattleResolved)
    assert battle.attackers == ["jp-cea-110div"]


def test_11_25_a_game_created_under_version_3_offered_no_momentum_attack_to_a_partly_supplied_advance():
    assert not advance_with_one_unit_under_the_b29(v3).pending
