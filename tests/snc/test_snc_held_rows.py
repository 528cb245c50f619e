"""Rows of docs/cases/snc.md whose mapped tests passed with the row's enforcing line broken by hand (issue 30,
session part 10: a woods defence, a river attack of more than 3 factors, a city's movement cost, a road without
its road hexside, an overrun into a city, a two-step unit no stronger than a one-step one): each test here fails
with that line broken and holds its row's rule where a player would notice it (a preview's shift and strength, the
MP a move spends, a refusal, who loses the step); and a non-adjacent attacker (10.0), accepted with its refusal cut,
a unit whose move is complete (9.0), a landing's survivors with nowhere to retreat (8.4), ruling R1's TEC flag, an
interdiction removal one unit too many when the rest cover the roll exactly (11.2)."""
import pytest
from snc_given import RULES, ev, of, position, then, when

from app.rules.errors import IllegalOrder
from app.rules.snc.combat import assess, loss_candidates

MOVE = ("move", "fight")


def test_10_4_1_a_chinese_defender_in_woods_gets_one_column_left():
    s = position({"jp-d3-r6": "0204", "cn-d57": "0205"})  # 0205 woods without a town, 0204 clear, no hexside
    p = assess(s, {"hex": "0205", "side": "japanese", "kind": "attack", "attackers": ["jp-d3-r6"],
                   "defenders": ["cn-d57"]})
    assert [(sh.amount, sh.reason, sh.case) for sh in p.shifts.shifts] == [(-1, "woods", "SNC 10.4.1")]


def test_10_4_1_five_factors_across_a_river_count_one_a_third_rounded_down():
    """The Huangpu (3612/3512) is a river: 5 across it is 1 (a third), not 2 (a half, as across a creek)."""
    s = position({"cn-d87": "3612", "jp-snlf-1": "3512"}, side="chinese")
    p = assess(s, {"hex": "3512", "side": "chinese", "kind": "attack", "attackers": ["cn-d87"],
                   "defenders": ["jp-snlf-1"]})
    assert p.attack.total == 1


def test_9_5_a_japanese_unit_entering_a_city_pays_one_mp_whatever_the_hexs_natural_terrain():
    s = position({"jp-d3-r6": "1724"}, plan=MOVE)  # Hangzhou 1824 is a city in paddy (2 MP without the city)
    assert of(when(s, "japanese", "move d3-r6 to 1824"), ev.UnitsMoved)[0].mp == 1


def test_9_5_1_two_road_hexes_not_joined_by_a_road_cost_the_terrain_entered():
    """2407 and 2508 both carry a road, but it does not cross their common hexside: the Japanese pay the paddy of
    2508 (2 MP), not the road's half MP."""
    s = position({"jp-d3-r6": "2407"}, plan=MOVE)
    assert of(when(s, "japanese", "move d3-r6 to 2508"), ev.UnitsMoved)[0].mp == 2


def test_9_6_no_overrun_into_a_city():
    s = position({"jp-d3-r6": "2409", "jp-d3-r18": "2409", "cn-d7": "2410"}, plan=MOVE)
    with pytest.raises(IllegalOrder) as refused:
        when(s, "japanese", "overrun 2410 with 2409")
    assert str(refused.value) == "SNC 9.6: no overrun into a city hex (2410)"


def test_10_5_2_a_two_step_unit_is_reduced_before_an_equally_strong_one_step_unit_is_eliminated():
    """Item 1 before item 2 (ruling E2): the full SNLF battalion (2 CF, two steps) loses the step, not the reduced
    regiment beside it (2 CF, one step), though neither is stronger; in a battle the step is taken at once."""
    s = position({"jp-snlf-1": "3409", "jp-d3-r6": "3409", "cn-d87": "3408"}, side="chinese", steps={"jp-d3-r6": 1})
    units = [s.units["jp-snlf-1"], s.units["jp-d3-r6"]]
    assert loss_candidates(units, {"jp-snlf-1": 2, "jp-d3-r6": 1}) == ["jp-snlf-1"]
    after = then(s, "chinese", "attack 3409 with d87", rolls=[4])  # 5:4 = 1:1, die 4: 1/1
    assert (after.units["jp-snlf-1"].steps, after.units["jp-d3-r6"].steps) == (1, 1) and not after.pending


def test_10_0_a_unit_not_adjacent_to_the_hex_it_attacks_is_refused_naming_it():
    s = position({"jp-d3-r6": "2408", "cn-d7": "2410"})
    with pytest.raises(IllegalOrder) as refused:
        when(s, "japanese", "attack 2410 with d3-r6", rolls=[1])
    assert str(refused.value) == "SNC 10.0: jp-d3-r6 in 2408 is not adjacent to 2410"


def test_9_0_a_unit_whose_move_another_units_move_ended_does_not_move_again():
    s = position({"jp-d3-r6": "2409", "jp-d3-r18": "2506", "cn-d7": "2410"}, plan=MOVE)
    s = then(then(s, "japanese", "move d3-r6 to 2309"), "japanese", "move d3-r18 to 2507")
    with pytest.raises(IllegalOrder) as refused:
        when(s, "japanese", "move d3-r6 to 2209")
    assert str(refused.value) == "SNC 9.0: jp-d3-r6 has completed its move this phase"


def test_10_4_1_r1_the_tec_s_town_flag_chooses_the_errata_s_one_left_for_a_town_in_marsh():
    """Ruling R1 and docs/snc-data.md: `adds_to_terrain_shift = false` in terrain.toml reads the errata inside 10.4.1
    (a town in marsh gives the Chinese 1L, not 2L); the flag was read by no code."""
    from dataclasses import replace

    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"})
    battle = {"hex": "2606", "side": "japanese", "kind": "attack", "attackers": ["jp-d11-r12"], "defenders": ["cn-d58"]}
    assert assess(s, battle).shifts.net == -2  # the shipped reading: town 1L + marsh 1L
    tec = {**s.data.tec, "features": {**s.data.tec["features"],
                                      "town": {**s.data.tec["features"]["town"], "adds_to_terrain_shift": False}}}
    errata = replace(s, data=replace(s.data, tec=tec))
    assert [(sh.amount, sh.reason) for sh in assess(errata, battle).shifts.shifts] == [(-1, "town (chinese defender)")]


def test_8_4_chinese_survivors_of_a_landing_with_no_hex_to_retreat_into_are_eliminated():
    """Ruling E3: every hex next to Wusong holds a Japanese unit, so the 7th Division, left after the landing's
    2/1, cannot retreat and is eliminated; the Japanese still lose the extra step (8.4 2))."""
    ring = ["3509", "3609", "3610", "3511", "3410", "3409"]
    blockers = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44", "jp-snlf-1", "jp-snlf-2"]
    d3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
    s = position({"cn-gar-wusong": "3510", "cn-d7": "3510", "cn-d57": "3612", **dict(zip(blockers, ring, strict=True))},
                 turn=2, phase="reinf", pool=tuple(d3))
    events = when(s, "japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510", rolls=[3])  # 8:5 = 1:1, die 3: 2/1
    assert [(e.units, e.reason) for e in of(events, ev.StepsLost)][-1] == (["cn-d7"], "retreat")
    s = then(s, "japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510", rolls=[3])
    assert s.units["cn-d7"].status == "dead" and s.pending[0]["data"]["count"] == 3


def test_11_2_a_reinforcement_whose_factors_the_others_cover_exactly_is_not_removed():
    """Ruling R28: no more units than needed. A roll of 4 is covered by the 8th and 18th Divisions (2 + 2): a third
    2-factor division is refused, though without it the others only just cover the roll."""
    from dataclasses import replace

    from snc_given import given

    from tests.fuzzing import refusal

    s = then(replace(given(), turn=4, phase="reinf", plan=("move", "move")), "chinese", "proceed", rolls=[4])
    assert refusal(RULES, s, "chinese", "remove d8 d18 d44") == "SNC 11.2: 4 factors are covered without cn-d8"
    assert refusal(RULES, s, "chinese", "remove d8 d18") is None
