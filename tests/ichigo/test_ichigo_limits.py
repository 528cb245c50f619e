"""Ichi-Go cases at their limits: the value just inside and just outside each limit the rulebook sets, and each
exception beside the rule it excepts (a test here fails when the limit moves by one). Positions use plain clear
hexes of the reconstructed map unless a case names its own (2011: clear, no river, no city, neighbours 2010 and
2012 opposite each other)."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, then, when

from app.events.core import DieRolled
from app.rules.errors import IllegalOrder
from app.rules.ichigo import combat
from app.rules.ichigo.common import supply_state
from app.rules.ichigo.data_load import H, load
from app.rules.ichigo.state import initial_state
from app.rules.ichigo.view import view

D = load()
MOVE = {"japanese": "move-fight"}


def us(n: int) -> list[str]:
    return sorted(u.id for u in initial_state().units.values() if u.nation == "us" and u.id != "us-11ab")[:n]


def ring(center: str, skip: int | None = None) -> tuple:
    """Tried Chinese units in every neighbour of `center` but the `skip`-th."""
    refs = ("cn-reg-01", "cn-reg-02", "cn-reg-03", "cn-reg-05", "cn-reg-06", "cn-reg-07")
    return tuple(chinese(f"C{i:02d}", ref, n, tried=True)
                 for i, (ref, n) in enumerate(zip(refs, D.neighbours(center), strict=True), start=1) if i - 1 != skip)


# -- 4.x victory ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "collapsed"), [(4, False), (5, True)])
def test_4_1_china_collapses_on_a_modified_6_not_on_a_5(roll, collapsed):
    s = position({"jp-cea-110div": "0812"}, phase="VI", plans=MOVE, turn=3)
    s = replace(s, jp_control=s.jp_control - {"0712"})
    evs = when(s, "japanese", "move jp-cea-110div to 0712", rolls=[roll])
    c = of(evs, ev.CollapseChecked)[0]
    assert c.total == roll + 1 and c.collapsed is collapsed       # +1: no Chinese east of the GEARR
    assert bool(of(evs, ev.GameEnded)) is collapsed


@pytest.mark.parametrize(("hex_", "vp"), [("0812", True), ("1212", True), ("1312", False)])
def test_4_2_a_japanese_unit_within_five_hexes_of_chungking_scores_one_at_six_none(hex_, vp):
    from app.rules.ichigo.victory import vp_no_causeway
    s = position({"jp-cea-110div": hex_}, phase="X", turn=9)
    assert D.distance("0712", hex_) in (1, 5, 6)
    assert ("Japanese within 5 hexes of Chungking" in vp_no_causeway(s)[1]) is vp


def test_4_5_the_allies_win_only_holding_shanghai_and_wuhan_at_once():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2009", tried=True),), garrison_lost=frozenset({"2008"}))
    assert "3106" in s.jp_control
    assert not of(when(s, "allied", "move C01 to 2008", rolls=[3]), ev.GameEnded)   # Wuhan alone
    s = replace(s, jp_control=s.jp_control - {"3106"})
    assert of(when(s, "allied", "move C01 to 2008", rolls=[3]), ev.GameEnded)[0].winner == "allied"


# -- 5.x sequence, Causeway ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "launched"), [(2, False), (3, True)])
def test_5_2_causeway_is_launched_on_a_modified_6_the_philippines_on_a_5(roll, launched):
    s = replace(position({}, turn=7), phase="start")
    c = of(when(s, "allied", "roll", rolls=[roll]), ev.CausewayChecked)[0]
    assert c.total == roll + 3 and c.launched is launched         # +3: three Chinese-controlled mainland ports
    assert fold(s, *when(s, "allied", "roll", rolls=[roll])).causeway is launched


@pytest.mark.parametrize(("size", "die", "fate"), [
    ("brigade", 3, "full"), ("brigade", 4, "eliminated"),
    ("division", 2, "full"), ("division", 3, "reduced"), ("division", 4, "reduced"), ("division", 5, "eliminated"),
])
def test_5_3_item_9_transport_survival_at_each_boundary_of_the_die(size, die, fate):
    s = position({}, turn=7, phase="V", causeway=True)
    pool = sorted(u.id for u in s.units.values() if u.status == "14aa-pool")
    uid = next(u for u in pool if s.units[u].size == size and u != "jp-14aa-1sf")
    evs = when(s, "japanese", "ship", rolls=[2, pool.index(uid) + 1, die])   # a 2: one unit, picked blind
    assert of(evs, ev.ShipmentRolled)[0].fates == {uid: fate}


def test_5_4_the_38th_army_is_free_from_turn_2():
    s = position({"jp-38a-21div": "0925"}, turn=1, phase="VI", plans=MOVE)
    with pytest.raises(IllegalOrder, match="5.4"):
        when(s, "japanese", "move jp-38a-21div to 0924")
    assert of(when(replace(s, turn=2), "japanese", "move jp-38a-21div to 0924"), ev.UnitsMoved)
    s = position({"jp-38a-21div": "0925"}, turn=1, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "0924", tried=True),))
    with pytest.raises(IllegalOrder, match="5.4"):
        when(s, "allied", "attack 0925 with C01")


# -- 6.x stacking -------------------------------------------------------------------------------------------------
def test_6_2_the_fifth_japanese_unit_stacks_the_sixth_does_not():
    six = ["jp-cea-1bde", "jp-cea-2bde", "jp-cea-4bde", "jp-cea-5bde", "jp-cea-6bde", "jp-cea-7bde"]
    s = position({u: ("2011" if i < 4 else "2010") for i, u in enumerate(six)}, phase="VI", plans=MOVE)
    s = then(s, "japanese", "move jp-cea-6bde to 2011")
    assert len(s.at("2011")) == 5
    with pytest.raises(IllegalOrder, match="Ichi-Go 6.2: "):
        when(s, "japanese", "move jp-cea-7bde to 2011")


def test_6_3_four_chinese_units_stack_a_fifth_does_not_and_militia_do_not_count():
    four = tuple(chinese(f"C0{i}", f"cn-reg-0{i}", "2011", tried=True) for i in (1, 2, 3, 5))
    fifth = chinese("C06", "cn-reg-06", "2012", tried=True)
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, extra=(*four[:3], four[3], fifth))
    s3 = position({}, phase="VIII", plans={"chinese": "move-fight"}, extra=(*four[:3], replace(four[3], hex="2012")))
    assert len(then(s3, "allied", "move C05 to 2011", rolls=[2]).at("2011")) == 4
    with pytest.raises(IllegalOrder, match="Ichi-Go 6.3: "):
        when(s, "allied", "move C06 to 2011", rolls=[2])
    s = position({"cn-mil-yrd": "1309"}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(*(replace(u, hex="1309") for u in four[:3]), replace(four[3], hex="1310")))
    assert len(then(s, "allied", "move C05 to 1309", rolls=[6]).at("1309")) == 5   # four and the militia


# -- 7.x supply -----------------------------------------------------------------------------------------------------
def test_7_1_one_open_neighbour_keeps_the_path_and_it_may_run_next_to_chinese_units():
    s = position({"jp-cea-110div": "2011"}, extra=ring("2011", skip=0))
    assert supply_state(s, s.units["jp-cea-110div"]) == "full"
    s = position({"jp-cea-110div": "2011"}, extra=ring("2011"))
    assert supply_state(s, s.units["jp-cea-110div"]) == "oos"


def test_7_3_out_of_supply_halves_the_attack_rounding_up_and_leaves_3_mp():
    s = position({"jp-cea-40div": "2011"}, phase="VII", extra=ring("2011"))     # a 3-factor division
    a = combat.assess(s, "japanese", "2010", [s.units["jp-cea-40div"]], [s.units["C01"]], 0, False)
    assert a["attack"] == 2                                                    # 3 halved = 1.5, up to 2
    s = position({"jp-cea-40div": "2011"}, phase="VI", plans=MOVE, extra=ring("2011", skip=0))
    assert of(when(s, "japanese", f"move jp-cea-40div to {D.neighbours('2011')[0]}"), ev.MovementRolled)[0].mp == 6


@pytest.mark.parametrize(("turn", "net"), [(6, 0), (7, -1)])
def test_7_4_japanese_attacks_take_1l_from_turn_7_not_before(turn, net):
    s = position({"jp-cea-110div": "2010"}, turn=turn, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    a = combat.assess(s, "japanese", "2011", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, False)
    assert a["net"] == net


def test_7_4_out_of_supply_replaces_the_attenuated_shift_by_halving():
    s = replace(position({"jp-cea-110div": "2011"}, extra=ring("2011")), turn=7)
    a = combat.assess(s, "japanese", "2010", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, False)
    assert a["attack"] == 2 and not any("7.4" in x for x in a["shifts"])


def test_7_9_out_of_supply_us_units_attack_at_half_rounded_up():
    u = us(1)[0]
    s = position({u: "2011", "jp-cea-110div": "2012"}, turn=8, causeway=True)
    a = combat.assess(s, "allied", "2012", [s.units[u]], [s.units["jp-cea-110div"]], 0, False)
    assert supply_state(s, s.units[u]) == "oos" and a["attack"] == 3      # 6 halved
    s = position({u: "3220", "jp-cea-110div": "3120"}, turn=8, causeway=True)
    assert supply_state(s, s.units[u]) == "full"                          # coastal (7.7)


# -- 8.x airpower -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("turn", "japanese"), [(1, 4), (2, 3)])
def test_8_1_the_japanese_add_one_on_turn_1_only(turn, japanese):
    s = position({}, phase="IV", turn=turn)
    assert of(when(s, "japanese", "roll", rolls=[3, 1]), ev.AirpowerRolled)[0].japanese == japanese


@pytest.mark.parametrize(("held", "allied"), [(6, 5), (5, 4), (1, 0)])
def test_8_7_the_allied_roll_loses_one_for_each_airbase_below_six(held, allied):
    bases = sorted(D.feature("airbase"))
    s = position({}, phase="IV", turn=3)
    s = replace(s, jp_control=(s.jp_control - set(bases)) | set(bases[held:]))
    assert of(when(s, "japanese", "roll", rolls=[1, 5]), ev.AirpowerRolled)[0].allied == allied


def test_8_7_with_no_airbase_the_allies_do_not_roll():
    s = position({}, phase="IV", turn=3)
    s = replace(s, jp_control=s.jp_control | D.feature("airbase"))
    r = of(when(s, "japanese", "roll", rolls=[4]), ev.AirpowerRolled)[0]
    assert (r.allied, r.winner, r.markers) == (0, "japanese", 4)


def test_8_3_8_4_a_hex_two_from_an_enemy_marker_costs_no_more():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans=MOVE, air_side="allied", air_hexes=("2013",))
    assert of(when(s, "japanese", "move jp-cea-110div to 2011"), ev.UnitsMoved)[0].mp == 1   # 2011-2013: 2 apart
    s = replace(s, air_hexes=("2012",))
    assert of(when(s, "japanese", "move jp-cea-110div to 2011"), ev.UnitsMoved)[0].mp == 2


def test_8_5_enemy_airpower_in_range_shifts_the_attack_1l():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),),
                 air_side="allied", air_hexes=("2012",))
    a = combat.assess(s, "japanese", "2011", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, False)
    assert [x for x in a["shifts"] if "11.18" in x] == ["1L (Ichi-Go 11.18: enemy airpower in range)"]


@pytest.mark.parametrize(("roll", "raid"), [(3, True), (4, False)])
def test_8_9_after_causeway_a_b29_raid_on_1_to_3(roll, raid):
    s = replace(position({}, turn=8, causeway=True), phase="start")
    assert ("b29" in [a.name for a in RULES.prompt(then(s, "allied", "roll", rolls=[roll])).actions]) is raid


@pytest.mark.parametrize(("hex_", "oos"), [("2011", True), ("2112", False)])
def test_8_9_units_within_three_hexes_of_the_b29_are_out_of_supply(hex_, oos):
    s = replace(position({"jp-cea-110div": hex_}, turn=3), phase="start")
    assert D.distance("2008", hex_) == (3 if oos else 4)
    s = then(s, "allied", "b29 2008")
    assert (supply_state(s, s.units["jp-cea-110div"]) == "oos") is oos


def test_8_6_the_airpower_markers_and_the_b29_are_retrieved_when_the_game_turn_ends():
    """The Japanese won Turn 3's airpower, a B-29 raid left the 110th out of supply (8.9); the Chinese
    reinforcement phase, the turn's last, ends."""
    s = position({"jp-cea-110div": "2112"}, phase="X", turn=3, air_side="japanese", air_hexes=("2010", "2011"),
                 air_rolled=True, b29_hex="2008", b29_units=frozenset({"jp-cea-110div"}))
    s = then(s, "allied", "reinforce", rolls=[1, 1])                       # 9.7: one counter drawn
    s = then(s, "allied", "place C01 at 0119")
    for side in ("japanese", "allied"):                                     # still out until the turn ends
        assert (view(s, side)["airpower"], view(s, side)["b29"]) == ({"side": "japanese", "hexes": ["2010", "2011"]},
                                                                     "2008")
    assert supply_state(s, s.units["jp-cea-110div"]) == "oos"
    s = then(s, "allied", "end")
    assert (s.turn, s.phase) == (4, "start")
    for side in ("japanese", "allied"):
        assert (view(s, side)["airpower"], view(s, side)["b29"]) == ({"side": None, "hexes": []}, None)
    assert supply_state(s, s.units["jp-cea-110div"]) != "oos"
    s = then(s, "allied", "end")                                           # no raid this turn
    assert (s.phase, [a.name for a in RULES.prompt(s).actions]) == ("IV", ["roll"])   # 8.1 rolled anew


# -- 9.x reinforcements --------------------------------------------------------------------------------------------
def test_9_3_the_formosa_divisions_are_released_on_turn_9_only():
    s = position({}, phase="V", turn=8, causeway=False)
    assert "release" not in [a.name for a in RULES.prompt(s).actions]
    assert "release" in [a.name for a in RULES.prompt(replace(s, turn=9)).actions]


def test_9_7_reinforcements_are_halved_only_when_every_airfield_is_japanese():
    bases = sorted(D.feature("airbase"))
    s = position({}, phase="X")
    s = replace(s, jp_control=s.jp_control | set(bases[1:]))                  # seven of eight
    assert of(when(s, "allied", "reinforce", rolls=[5, 1, 1, 1, 1, 1]), ev.ChineseReinforcementRolled)[0].count == 5


# -- 10.x movement ------------------------------------------------------------------------------------------------
def test_10_14_japanese_have_6_mp_through_turn_6():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans=MOVE, turn=6)
    assert of(when(s, "japanese", "move jp-cea-110div to 2011"), ev.MovementRolled)[0].mp == 6


def test_10_15_after_causeway_the_chinese_keep_the_whole_roll():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, turn=8, causeway=True,
                 extra=(chinese("C01", "cn-reg-01", "2011"),))
    assert of(when(s, "allied", "move C01 to 2012", rolls=[1]), ev.MovementRolled)[0].mp == 1


def test_10_16_us_units_have_6_mp_and_3_out_of_supply():
    u = us(1)[0]
    s = position({u: "3220"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)   # coastal (7.7)
    assert of(when(s, "allied", f"move {u} to 3218"), ev.MovementRolled)[0].mp == 6
    s = position({u: "2011"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True)
    assert of(when(s, "allied", f"move {u} to 2012"), ev.MovementRolled)[0].mp == 3         # 7.9


def test_10_17_no_strategic_move_that_starts_or_ends_next_to_the_enemy():
    s = position({"jp-cea-110div": "2010"}, phase="VI", plans=MOVE,
                 extra=(chinese("C01", "cn-reg-02", "2013", tried=True),))
    with pytest.raises(IllegalOrder, match=r"Ichi-Go 10\.17: a strategic move never ends next to an enemy unit"):
        when(s, "japanese", "move jp-cea-110div to 2012 strategic")               # 2012 is next to 2013
    assert of(when(s, "japanese", "move jp-cea-110div to 2011 strategic"), ev.MovementRolled)[0].mp == 12
    s = replace(s, units={**s.units, "C01": replace(s.units["C01"], hex="2011")})
    with pytest.raises(IllegalOrder, match="10.17"):
        when(s, "japanese", "move jp-cea-110div to 2009 strategic")               # starts next to C01


# -- 11.x combat ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("hexes", "shift"), [
    (["2010", "2012"], True),                      # opposite
    (["2010", "2111"], False),                     # side by side
    (["2010", "2112", "1912"], True),              # three, one hex between each
    (["2010", "2111", "2112"], False),             # three in a row
    (["2010", "2111", "2112", "2012"], True),      # more than three
])
def test_11_15_concentric_patterns_around_2011(hexes, shift):
    units = ["jp-cea-110div", "jp-cea-26div", "jp-cea-62div", "jp-cea-37div"][:len(hexes)]
    s = position(dict(zip(units, hexes, strict=True)), extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    a = combat.assess(s, "japanese", "2011", [s.units[u] for u in units], [s.units["C01"]], 0, False)
    assert any("11.15" in x for x in a["shifts"]) is shift


def test_11_15_the_us_concentric_shift_is_2r_and_never_against_a_city():
    a, b = us(2)
    s = position({a: "2010", b: "2012", "jp-cea-110div": "2011"}, turn=8, causeway=True)
    got = combat.assess(s, "allied", "2011", [s.units[a], s.units[b]], [s.units["jp-cea-110div"]], 0, False)
    assert "2R (Ichi-Go 11.15: concentric attack)" in got["shifts"]
    s = position({a: "1810", b: "1812", "jp-cea-110div": "1811"}, turn=8, causeway=True)
    got = combat.assess(s, "allied", "1811", [s.units[a], s.units[b]], [s.units["jp-cea-110div"]], 0, False)
    assert not any("11.15" in x for x in got["shifts"])                             # 1811 is a city


def test_11_13_river_halving_rounds_up_a_3_to_2_and_no_attack_across_a_lake():
    s = position({"jp-cea-40div": "2503"}, extra=(chinese("C01", "cn-reg-02", "2603", tried=True),))
    a = combat.assess(s, "japanese", "2603", [s.units["jp-cea-40div"]], [s.units["C01"]], 0, False)
    assert a["attack"] == 2
    # IG-12: two 1-factor units (reduced 3-factor divisions) across the river make 1 together, not 1 each
    s = position({"jp-cea-40div": "2503", "jp-cea-68div": "2503"}, steps={"jp-cea-40div": 1, "jp-cea-68div": 1},
                 extra=(chinese("C01", "cn-reg-02", "2603", tried=True),))
    a = combat.assess(s, "japanese", "2603", [s.units["jp-cea-40div"], s.units["jp-cea-68div"]], [s.units["C01"]],
                      0, False)
    assert a["attack"] == 1
    s = position({"jp-cea-40div": "2703"}, extra=(chinese("C01", "cn-reg-02", "2803", tried=True),))
    assert "lake" in D.map.hexside_features(H("2703"), H("2803"))
    with pytest.raises(IllegalOrder, match="11.13"):
        when(s, "japanese", "attack 2803 with jp-cea-40div")


def test_11_16_naval_gunfire_only_after_causeway_and_only_for_a_coastal_hex():
    u = us(1)[0]
    s = position({u: "3221", "jp-cea-110div": "3222"}, turn=8, phase="III", plans={"us": "fight-move"},
                 causeway=True)
    s_before = replace(s, causeway=False)
    a = combat.assess(s_before, "allied", "3222", [s.units[u]], [s.units["jp-cea-110div"]], 0, False)
    assert not any("11.16" in x for x in a["shifts"])
    s = position({u: "2010", "jp-cea-110div": "2011"}, turn=8, causeway=True)
    a = combat.assess(s, "allied", "2011", [s.units[u]], [s.units["jp-cea-110div"]], 0, False)
    assert not any("11.16" in x for x in a["shifts"])                               # 2011 is inland


def test_11_23_a_chinese_result_of_0_costs_one_step_of_1_costs_two():
    # 14 (two 5s and a 4) on 2 = 7:1 Chinese line, city 1L: 6:1; die 1 = 0/1 and die 1 at 2:1 = 1/1 (crt.toml)
    cn = tuple(chinese(f"C0{i}", ref, "1810", tried=True) for i, ref in enumerate(("cn-reg-33", "cn-reg-57",
                                                                                     "cn-reg-02"), 1))
    s = position({"jp-cea-3div": "1811"}, phase="VIII", plans={"chinese": "fight-move"}, steps={"jp-cea-3div": 1},
                 extra=cn)
    s = then(s, "allied", "attack 1811 with C01 C02 C03")
    b = of(when(s, "japanese", "commit 0", rolls=[1]), ev.BattleResolved)[0]
    assert (b.result, b.attacker_losses) == ("0/1", 1)
    s = position({"jp-cea-1bde": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    s = then(s, "allied", "attack 2011 with C01 C02")
    b = of(when(s, "japanese", "commit 0", rolls=[1]), ev.BattleResolved)[0]
    assert (b.result, b.attacker_losses) == ("1/1", 2)


def test_11_23_6_6_the_chinese_are_told_the_step_they_owe_and_the_values_of_each_tried_attacker():
    # a 0/1 result costs the Chinese attackers one step; the decision names the battle hex, the count and each
    # candidate's values (a tried counter shows them; only an untried one would read "untried", 6.6)
    s = position({"jp-cea-1bde": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True),
                        chinese("C04", "cn-reg-57", "2012", tried=True)))
    s = then(s, "allied", "attack 2011 with C01 C02 C04")
    s = fold(s, *when(s, "japanese", "commit 0", rolls=[1]))
    owed = RULES.prompt(s).owed
    assert (owed.where, owed.amount) == ("2011", "1 step(s) from these units")
    assert owed.candidates == (("C01", "4-4, 1/1 step(s), army"), ("C02", "4-4, 1/1 step(s), army"),
                               ("C04", "5-5, 1/1 step(s), army group"))


def test_11_4_11_25_a_hex_attacked_this_phase_is_attacked_again_only_by_a_momentum_attack():
    # IG-19: an attack from 2010 on 2011 leaves the Chinese unit there; a different stack may not attack it again
    s = position({"jp-cea-1bde": "2010", "jp-cea-26div": "2012"},
                 extra=(chinese("C01", "cn-reg-57", "2011", tried=True),))
    s = then(s, "japanese", "attack 2011 with jp-cea-1bde", rolls=[1])        # 2 on 5: 1:3, die 1: the brigade dies
    assert s.units["C01"].on_map and not s.pending
    with pytest.raises(IllegalOrder, match="11.4: 2011 has already been attacked this phase"):
        when(s, "japanese", "attack 2011 with jp-cea-26div")


def test_11_25_momentum_attacks_through_turn_6_only():
    s = position({"jp-cea-110div": "2010"}, turn=6, extra=(chinese("C01", "cn-reg-04", "2011"),
                                                          chinese("C02", "cn-reg-02", "2012", tried=True)))
    s = then(then(s, "japanese", "attack 2011 with jp-cea-110div"), "japanese", "advance jp-cea-110div")
    assert RULES.prompt(s).step.endswith("momentum")


def test_11_26_militia_are_never_taken_as_attacker_losses():
    s = position({"jp-cea-1bde": "1310", "cn-mil-yrd": "1309"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "1309", tried=True),))
    s = then(s, "allied", "attack 1310 with C01")
    s = fold(s, *when(s, "japanese", "commit 0", rolls=[1])) if s.pending else s
    assert s.units["cn-mil-yrd"].on_map


def test_11_27_when_every_attacker_is_zero_no_die_is_rolled_and_the_defender_loses_nothing():
    # ruling E12: the only attack of 0 factors; no die is rolled, the defender loses nothing else
    s = position({"jp-cea-110div": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-04", "2010"),))                       # untried, a zero
    evs = when(s, "allied", "attack 2011 with C01")
    s2 = fold(s, *evs)
    b = of(evs, ev.BattleResolved)[0]
    assert b.result == "-" and not of(evs, DieRolled) and s2.units["jp-cea-110div"].steps == 2
    assert "cn-reg-04" in s2.draw_pool and not s2.pending


def test_7_1_an_empty_enemy_controlled_city_blocks_the_path_a_japanese_one_does_not():
    # 1008's neighbours are held by Chinese units but for the Chinese city 1009, which no unit holds
    refs = ("cn-reg-01", "cn-reg-02", "cn-reg-03", "cn-reg-05", "cn-reg-06")
    held = tuple(chinese(f"C0{i}", ref, h, tried=True)
                 for i, (ref, h) in enumerate(zip(refs, ("1007", "1108", "1109", "0909", "0908"), strict=True), 1))
    s = position({"jp-cea-110div": "1008"}, extra=held)
    assert "1009" not in s.jp_control and supply_state(s, s.units["jp-cea-110div"]) == "oos"
    s = replace(s, jp_control=s.jp_control | {"1009"})
    assert supply_state(s, s.units["jp-cea-110div"]) == "full"


def test_8_1_the_winner_gets_five_markers_at_most():
    r = of(when(position({}, phase="IV", turn=1), "japanese", "roll", rolls=[6, 1]), ev.AirpowerRolled)[0]
    assert (r.japanese, r.allied, r.winner, r.markers) == (7, 1, "japanese", 5)


@pytest.mark.parametrize(("turn", "japanese"), [(6, 3), (7, 1)])
def test_8_1_without_causeway_the_japanese_subtract_two_from_turn_7(turn, japanese):
    s = position({}, phase="IV", turn=turn, causeway=False)
    assert of(when(s, "japanese", "roll", rolls=[3, 5]), ev.AirpowerRolled)[0].japanese == japanese


def test_9_2_a_division_numbered_101_or_more_is_not_withdrawn():
    s = position({"jp-cea-26div": "1901", "jp-cea-62div": "1901", "jp-cea-104div": "1812"}, phase="V", turn=5)
    with pytest.raises(IllegalOrder, match="9.2"):
        when(s, "japanese", "withdraw jp-cea-26div jp-cea-104div")
    assert of(when(s, "japanese", "withdraw jp-cea-26div jp-cea-62div"), ev.UnitsWithdrawn)


def test_6_4_eight_us_units_stack_a_ninth_does_not_and_6_3_never_with_chinese_units():
    ids = us(9)
    s = position({**{u: "3220" for u in ids[:7]}, ids[7]: "3219", ids[8]: "3219"}, turn=8, phase="II",
                 plans={"us": "move-fight"}, causeway=True)
    s = then(s, "allied", f"move {ids[7]} to 3220")
    assert len(s.at("3220")) == 8
    with pytest.raises(IllegalOrder, match="Ichi-Go 6.4: "):
        when(s, "allied", f"move {ids[8]} to 3220")
    s = position({ids[0]: "2011"}, phase="VIII", plans={"chinese": "move-fight"}, turn=8, causeway=True,
                 extra=(chinese("C01", "cn-reg-01", "2010", tried=True),))
    with pytest.raises(IllegalOrder, match="Ichi-Go 6.3: "):
        when(s, "allied", "move C01 to 2011", rolls=[3])
    assert of(when(s, "allied", "move C01 to 2012 via 2011", rolls=[3]), ev.UnitsMoved)   # passing through


def test_11_24_an_advance_observes_the_stacking_limit():
    five = {"jp-cea-1bde": "2010", "jp-cea-2bde": "2010", "jp-cea-4bde": "2010", "jp-cea-5bde": "2010",
            "jp-cea-110div": "2010", "jp-cea-26div": "2012"}
    s = position(five, extra=(chinese("C01", "cn-reg-04", "2011"),))                 # a zero: in effect a DE
    s = then(s, "japanese", f"attack 2011 with {' '.join(five)}")
    with pytest.raises(IllegalOrder, match="11.24"):
        when(s, "japanese", f"advance {' '.join(five)}")
    assert len(then(s, "japanese", f"advance {' '.join(list(five)[:5])}").at("2011")) == 5


def test_11_3_a_unit_attacks_once_a_phase():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-57", "2011", tried=True),
                                                   chinese("C02", "cn-reg-02", "2009", tried=True)))
    s = then(s, "japanese", "attack 2011 with jp-cea-110div", rolls=[1])       # 4 on 5: 1:2, die 1 = 1/0
    assert s.units["C01"].on_map and s.units["jp-cea-110div"].steps == 1 and not s.pending
    with pytest.raises(IllegalOrder, match="11.3|already attacked"):
        when(s, "japanese", "attack 2009 with jp-cea-110div")


def test_11_28_the_1st_sf_group_shifts_one_column_right():
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    a = combat.assess(s, "japanese", "2011", [s.units["jp-cea-110div"]], [s.units["C01"]], 0, True)
    assert "1R (Ichi-Go 11.28: 1st SF Group)" in a["shifts"] and a["net"] == 1
