"""SNC movement (9.x), zones of control (7.x), stacking (6.x) and hex control (3.2) through the rules."""
from dataclasses import replace
from unittest import mock

import pytest
from snc_given import RULES, ev, of, position, then, when

from app.rules import legal
from app.rules.engine.state import Memo
from app.rules.errors import IllegalOrder
from app.rules.kernel.memo import IdentityMemo
from app.rules.snc import movement
from app.rules.snc.common import ezoc

MOVE = ("move", "fight")


def test_9_4_chinese_pay_one_mp_per_hex_japanese_two_for_paddy_woods_marsh():
    s = position({"cn-d7": "2606", "cn-d57": "3612"}, turn=7, side="chinese", plan=MOVE)
    e = of(when(s, "chinese", "move d7 to 2608 via 2607"), ev.UnitsMoved)[0]
    assert e.mp == 2  # two marsh hexes, 1 MP each for the Chinese
    s = position({"jp-d3-r6": "2606"}, turn=7, plan=MOVE)
    e = of(when(s, "japanese", "move d3-r6 to 2608 via 2607"), ev.UnitsMoved)[0]
    assert e.mp == 0.5 + 2  # 2607 along the Suzhou road (9.5.1), then marsh 2608 off the road


def test_9_5_1_japanese_road_half_mp_but_river_and_creek_costs_still_paid():
    s = position({"jp-d3-r6": "2806"}, turn=7, plan=MOVE)
    e = of(when(s, "japanese", "move d3-r6 to 2606 via 2706"), ev.UnitsMoved)[0]
    assert e.mp == 1.0  # two road hexes along the road
    s = position({"jp-d3-r6": "3510"}, turn=7, plan=MOVE)
    e = of(when(s, "japanese", "move d3-r6 to 3511"), ev.UnitsMoved)[0]
    assert e.mp == 1.5  # road 1/2 + creek 1 (3510/3511)


def test_1_3_and_9_4_the_international_settlement_and_water_are_never_entered():
    s = position({"jp-d3-r6": "3412"}, turn=7, plan=MOVE)
    with pytest.raises(IllegalOrder, match="SNC 1.3"):
        when(s, "japanese", "move d3-r6 to 3513")
    s = position({"cn-d7": "3509", "cn-d57": "3612"}, turn=7, side="chinese", plan=MOVE)
    with pytest.raises(IllegalOrder, match="SNC 9.4"):
        when(s, "chinese", "move d7 to 3508")


def test_9_1_garrisons_never_move_and_9_0_not_in_a_fight_phase():
    s = position({"cn-gar-c": "3408", "cn-d7": "3308", "cn-d57": "3612"}, turn=7, side="chinese", plan=MOVE)
    with pytest.raises(Exception, match="no chinese mobile unit|SNC 9.1"):
        when(s, "chinese", "move 3408 to 3409")
    with pytest.raises(IllegalOrder, match="SNC 9.1"):
        when(s, "chinese", "move cn-gar-c to 3409")
    s = position({"cn-d7": "3308", "cn-d57": "3612"}, turn=7, side="chinese", plan=("fight", "move"))
    assert "move" not in [a.name for a in RULES.prompt(s).actions]


def test_9_0_a_units_move_is_complete_once_another_unit_moves():
    s = position({"cn-d7": "2707", "cn-d58": "2707", "cn-d57": "3612"}, turn=7, side="chinese", plan=MOVE)
    s = then(s, "chinese", "move d7 to 2708")
    s = then(s, "chinese", "move d7 to 2808")  # still its move: it goes on
    s = then(s, "chinese", "move d58 to 2607")
    with pytest.raises(IllegalOrder, match="SNC 9.0"):
        when(s, "chinese", "move d7 to 2809")


def test_7_1_example_no_zoc_into_a_city_or_across_the_navigable_huangpu_or_into_japanese_coast():
    s = position({"cn-gar-d": "3610", "cn-d57": "3612"}, turn=7)
    z = ezoc(s, "japanese")
    assert "3611" not in z and {"3609", "3710", "3711"}.isdisjoint(z)
    assert "3511" in z and "3510" in z
    s = position({"cn-gar-d": "3610", "jp-d3-r6": "3510"}, turn=7)
    assert "3510" not in ezoc(s, "japanese")  # coastal, within the Naval Gunfire Line


def test_7_2_a_unit_stops_on_entering_an_ezoc_and_leaves_one_only_to_a_hex_free_of_ezoc():
    s = position({"jp-d3-r6": "2806", "cn-d7": "2606"}, turn=7, plan=MOVE)
    with pytest.raises(IllegalOrder, match="SNC 7.2"):
        when(s, "japanese", "move d3-r6 to 2605 via 2706")
    s = position({"jp-d3-r6": "2706", "cn-d7": "2606", "cn-d58": "2806"}, turn=7, plan=MOVE)
    with pytest.raises(IllegalOrder, match="SNC 7.2"):
        when(s, "japanese", "move d3-r6 to 2707")
    # the exception: from an EZOC into a hex free of EZOC, then on as normal (2705, 2704 are not next to 2606)
    s = position({"jp-d3-r6": "2706", "cn-d7": "2606"}, turn=7, plan=MOVE)
    assert of(when(s, "japanese", "move d3-r6 to 2704 via 2705"), ev.UnitsMoved)[0].path == ["2706", "2705", "2704"]
    # 2707 is next to 2606 too: not straight from 2706, but out through 2806 (free) and in again, to stop there
    assert of(when(s, "japanese", "move d3-r6 to 2707"), ev.UnitsMoved)[0].path == ["2706", "2806", "2707"]


def test_6_2_chinese_three_division_equivalents_an_elite_a_regular_and_a_brigade_fit():
    s = position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2708", "cn-b20": "2708", "cn-d57": "3612"},
                 turn=7, side="chinese", plan=MOVE)
    s = then(s, "chinese", "move b45 to 2707")
    s = then(s, "chinese", "end")
    assert s.phase == "reinf"  # 1.5 + 1 + 0.5 = 3 DE
    s = position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2707", "cn-b20": "2708", "cn-d57": "3612"},
                 turn=7, side="chinese", plan=MOVE)
    s = then(s, "chinese", "move b20 to 2707")
    s = then(s, "chinese", "end")  # 6.0 1): checked at the end of a movement phase
    assert s.pending[0]["kind"] == "overstack"
    with pytest.raises(IllegalOrder, match="SNC 6.0"):
        when(s, "chinese", "eliminate b20 b45")  # one brigade is enough
    s = then(s, "chinese", "eliminate b20")
    assert s.units["cn-b20"].status == "dead" and not s.pending


def test_6_2_japanese_one_division_plus_one_unit_snlf_battalions_count_as_a_division():
    d3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
    s = position({**{u: "2707" for u in d3}, "jp-det-shigeto": "2707", "jp-d11-r12": "2708"}, turn=7,
                 plan=MOVE)
    s = then(s, "japanese", "move d11-r12 to 2707")
    s = then(s, "japanese", "end")
    assert s.pending[0]["kind"] == "overstack"
    snlf = ["jp-snlf-1", "jp-snlf-2", "jp-snlf-3", "jp-snlf-9"]
    s = position({**{u: "3512" for u in snlf}, "jp-gar-shanghai": "3512", "cn-d57": "3612"}, turn=7, plan=MOVE)
    s = then(s, "japanese", "end")
    assert not s.pending


def test_3_2_control_switches_when_a_unit_enters_and_9_1_a_garrison_is_placed_in_a_taken_city():
    s = position({"jp-d3-r6": "2409", "cn-d57": "3612"}, turn=7, plan=MOVE)
    assert s.controller("2410") == "chinese"
    s = then(s, "japanese", "move d3-r6 to 2410")
    assert s.controller("2410") == "japanese"
    assert any(u.static for u in s.at("2410"))
    assert s.controller("2411") == "chinese"  # a ZOC projected into a hex does not switch it (3.2 designer's note)
    s = position({"jp-d3-r6": "2409", "cn-d7": "2510", "cn-d57": "3612"}, turn=7, plan=MOVE, control=("2410",))
    s = then(s, "japanese", "end")
    s = replace(s, **{"side": "chinese", "phase": "ops1", "plan": MOVE})
    s = then(s, "chinese", "move d7 to 2410")  # switches back each time the other side enters (3.2)
    assert s.controller("2410") == "chinese"


@pytest.mark.parametrize(("version", "after"), [(5, "reinf"), (3, "reinf"), (2, "ops1")])
def test_6_0_an_end_that_finds_a_stack_over_the_limit_ends_the_phase_once_the_owner_has_eliminated(version, after):
    s = position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2707", "cn-b20": "2707", "cn-d57": "3612"},
                 turn=7, side="chinese", plan=MOVE)
    s = then(replace(s, rules_version=version), "chinese", "end")
    assert s.pending[0]["kind"] == "overstack" and s.phase == "ops1"
    s = then(s, "chinese", "eliminate b20")
    # issue 19: no second move in the ended phase (rules version 3 on); a game stored under version 2 keeps
    # its phase open after the elimination, as it was played then (docs/core.md "Rules versions")
    assert s.phase == after and not s.pending
    # the Japanese Second Operations Phase: after the elimination, the Victory Check (4.3) and the next GT
    d3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
    s = position({**{u: "2707" for u in d3}, "jp-det-shigeto": "2707", "jp-d11-r12": "2707", "cn-d57": "3612"},
                 turn=6, phase="ops2", plan=("fight", "move"))
    s = then(replace(s, rules_version=version), "japanese", "end")
    assert s.pending[0]["kind"] == "overstack"
    s = then(s, "japanese", "eliminate det-shigeto")
    ended = (7, "chinese", "declare") if after == "reinf" else (6, "japanese", "ops2")
    assert (s.turn, s.side, s.phase) == ended and not s.pending


def test_2_2_1_9_0_a_unit_may_spend_all_eight_mp_but_never_more():
    # column 20, rows 14-23: paddy, no hexside feature; the Chinese pay 1 a hex, the Japanese 2 (9.4)
    s = position({"cn-d7": "2014", "cn-d57": "3612"}, turn=7, side="chinese", plan=MOVE)
    rows = [f"20{r}" for r in range(15, 24)]
    assert of(when(s, "chinese", f"move d7 to 2022 via {' '.join(rows[:7])}"), ev.UnitsMoved)[0].mp == 8
    with pytest.raises(IllegalOrder, match="SNC 9.0"):
        when(s, "chinese", f"move d7 to 2023 via {' '.join(rows[:8])}")
    s = position({"jp-d3-r6": "2014"}, turn=7, plan=MOVE)
    assert of(when(s, "japanese", "move d3-r6 to 2018 via 2015 2016 2017"), ev.UnitsMoved)[0].mp == 8
    with pytest.raises(IllegalOrder, match="SNC 9.0"):
        when(s, "japanese", "move d3-r6 to 2019 via 2015 2016 2017 2018")


def test_9_4_ruling_r2_the_chinese_pay_one_more_mp_across_a_creek_and_two_across_a_river():
    s = position({"cn-d7": "3511", "cn-d58": "3610", "cn-d57": "3612"}, turn=7, side="chinese", plan=MOVE)
    assert of(when(s, "chinese", "move d7 to 3510"), ev.UnitsMoved)[0].mp == 2  # creek 3510/3511
    assert of(when(s, "chinese", "move d58 to 3609"), ev.UnitsMoved)[0].mp == 3  # the Huangpu, a river (R10)
    assert of(when(s, "chinese", "move d58 to 3611"), ev.UnitsMoved)[0].mp == 1  # a plain hexside


def test_9_4_japanese_infantry_pay_two_more_mp_across_a_river_and_one_across_a_creek():
    # both off any road: the paddy entered costs the Japanese 2 MP (9.4), the hexside adds its own cost
    s = position({"jp-d3-r6": "3610"}, turn=7, plan=MOVE)
    assert of(when(s, "japanese", "move d3-r6 to 3609"), ev.UnitsMoved)[0].mp == 2 + 2  # the Huangpu, a river
    s = position({"jp-d3-r6": "2512"}, turn=7, plan=MOVE)
    assert of(when(s, "japanese", "move d3-r6 to 2611"), ev.UnitsMoved)[0].mp == 2 + 1  # a creek


def test_6_2_an_elite_brigade_counts_one_division_equivalent():
    # two elite training brigades (1 DE each) and a regular division (1): 3 DE; an elite division more is over
    s = position({"cn-td1": "2707", "cn-td2": "2707", "cn-d7": "2707", "cn-d57": "3612"}, turn=7, side="chinese",
                 plan=MOVE)
    assert not then(s, "chinese", "end").pending
    s = position({"cn-td1": "2707", "cn-td2": "2707", "cn-d87": "2707", "cn-d57": "3612"}, turn=7,
                 side="chinese", plan=MOVE)
    assert then(s, "chinese", "end").pending[0]["kind"] == "overstack"  # 1 + 1 + 1.5


def test_6_2_the_four_regiments_must_be_of_one_division_plus_one_other_unit():
    d3, d11 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"], ["jp-d11-r12", "jp-d11-r22"]
    s = position({**{u: "2707" for u in d3}, "jp-d11-r12": "2707"}, turn=7, plan=MOVE)
    assert not then(s, "japanese", "end").pending  # four of the 3rd and one more: five, the limit
    s = position({**{u: "2707" for u in d3[:3]}, **{u: "2707" for u in d11}}, turn=7, plan=MOVE)
    assert then(s, "japanese", "end").pending[0]["kind"] == "overstack"  # five, but two outside the 3rd


def test_9_0_7_2_a_stacks_destinations_follow_the_enemy_though_the_stack_itself_has_not_moved():
    """Reaches are kept from one position to the next (movement.py `_REACHES`), found again only when what they
    are found from changes: the same stack in the same hex with the same MP lists other destinations, and `do`
    takes other paths, once the enemy stands elsewhere, or once its zone of control reaches other hexes (7.1: not
    into a coastal hex a Japanese unit holds); each as if nothing had been kept."""
    def moves(s, uid):
        listed = [o["order"] for o in legal.legal_orders(RULES, s, "japanese") if o["action"] == "move"]
        return movement.destinations(s, "japanese", [s.units[uid]]), listed

    near = position({"jp-d3-r6": "2806", "cn-d7": "2606"}, turn=7, plan=MOVE)
    far = position({"jp-d3-r6": "2806", "cn-d7": "2206"}, turn=7, plan=MOVE)
    covered = position({"jp-d3-r18": "3509", "jp-d3-r6": "3510", "cn-gar-d": "3610"}, turn=7, plan=MOVE)
    open_ = position({"jp-d3-r18": "3509", "jp-d3-r6": "2806", "cn-gar-d": "3610"}, turn=7, plan=MOVE)
    cases = ((near, "jp-d3-r6"), (far, "jp-d3-r6"), (covered, "jp-d3-r18"), (open_, "jp-d3-r18"))
    kept = [moves(replace(s), uid) for _ in range(2) for s, uid in cases]
    with mock.patch.object(Memo, "memo", lambda self, key, compute: compute()), \
            mock.patch.object(movement, "_REACHES", IdentityMemo(4)), mock.patch.object(movement, "REACHES_KEPT", 0):
        afresh = [moves(s, uid) for s, uid in cases]
    assert kept == afresh * 2
    assert "2404" in kept[1][0] and "2404" not in kept[0][0]  # 7.2: 2606's zone of control closes the way
    assert "2807" in kept[2][0] and "2807" not in kept[3][0]  # 7.2: through 3510, in an EZOC unless covered
    assert of(when(replace(far), "japanese", "move d3-r6 to 2404"), ev.UnitsMoved)[0].path[-1] == "2404"
    with pytest.raises(IllegalOrder, match="SNC 9.0: no legal path"):
        when(replace(near), "japanese", "move d3-r6 to 2404")
