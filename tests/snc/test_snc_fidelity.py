"""SNC cases whose departures issue 30's fidelity pass found, each decided under rules version 4 and, for a game
created before it, as it was played (docs/rulings/snc-engine.md E15)."""
from dataclasses import replace

import pytest
from snc_given import position, then, when

from app.rules.errors import IllegalOrder

MOVE = ("move", "move")
D6 = ["jp-d6-r13", "jp-d6-r23", "jp-d6-r45", "jp-d6-r47"]


def under(state, version):
    return replace(state, rules_version=version)


@pytest.mark.parametrize("version, garrisoned", [(4, True), (3, False)])
def test_9_1_a_japanese_unit_reoccupying_an_empty_japanese_city_places_a_garrison(version, garrisoned):
    # Shanghai is Japanese-controlled but empty (its units were lost, no Chinese unit entered it: 3.2)
    s = under(position({"jp-d3-r6": "3511", "cn-d57": "3411"}, turn=6, plan=MOVE), version)
    assert s.controller("3512") == "japanese" and not s.at("3512")
    s = then(s, "japanese", "move d3-r6 to 3512")
    assert any(u.static and u.side == "japanese" for u in s.at("3512")) is garrisoned


@pytest.mark.parametrize("version", [4, 3])
def test_6_0_the_10th_army_landing_at_one_hex_is_not_cut_to_the_stacking_limit_in_the_reinforcement_phase(version):
    army = sorted(u.id for u in position({}).units.values() if u.army)
    assert len(army) == 14  # 8.4.1: fourteen units, landing at one location
    s = under(position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(army)), version)
    s = then(s, "japanese", "land " + " ".join(army) + " at 3417", rolls=[6])
    s = then(s, "japanese", "advance " + " ".join(D6) + " to 3317")
    if version == 3:  # the engine checked the limits after the landing combat and took units from the Army
        assert s.pending[0]["kind"] == "overstack" and s.pending[0]["data"]["hex"] == "3417"
        return
    # 6.0: the limits apply at the end of a movement Operations Phase and after combats in a fight one only
    assert not s.pending and s.battle is None
    assert sum(s.units[u].hex == "3417" for u in army) == 10
    s = then(s, "japanese", "end")
    assert s.phase == "ops2" and not s.pending
    s = replace(s, plan=("fight", "move"))
    s = then(s, "japanese", "end")  # the end of a movement phase: now the owner brings 3417 within the limits
    assert s.pending[0]["kind"] == "overstack" and s.pending[0]["data"]["hex"] == "3417"


D16 = ["jp-d16-r9", "jp-d16-r20", "jp-d16-r33", "jp-d16-r38"]


@pytest.mark.parametrize("version", [4, 3])
def test_8_4_2_a_16th_division_regiment_delayed_to_a_later_gt_lands_at_the_divisions_one_location(version):
    s = under(position({"jp-snlf-1": "3512"}, turn=8, phase="reinf", pool=tuple(D16)), version)
    s = then(s, "japanese", "land " + " ".join(D16[:2]) + " at 2604")
    s = then(s, "japanese", "end")
    s = replace(then(s, "japanese", "end"), turn=9, side="japanese", phase="reinf")  # 8.0: two were delayed
    if version == 3:  # the one location was only held within one Reinforcement Phase
        assert {then(s, "japanese", "land " + " ".join(D16[2:]) + " at 2804").units[u].hex for u in D16[2:]} == {"2804"}
        return
    with pytest.raises(IllegalOrder, match="SNC 8.4.2: these reinforcements land at one location \\(2604\\)"):
        when(s, "japanese", "land " + " ".join(D16[2:]) + " at 2804")
    s = then(s, "japanese", "land " + " ".join(D16[2:]) + " at 2604")
    assert {s.units[u].hex for u in D16} == {"2604"}


D18 = ["jp-d18-r55", "jp-d18-r56", "jp-d18-r114", "jp-d18-r124"]


def _army():
    return sorted(u.id for u in position({}).units.values() if u.army)


@pytest.mark.parametrize("version", [5, 4])
def test_8_4_1_the_10th_army_splits_its_second_hex_advance_among_the_hexes_next_to_the_landing_hex(version):
    army = _army()
    s = under(position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(army)), version)
    s = then(s, "japanese", "land " + " ".join(army) + " at 3417", rolls=[6])
    s = then(s, "japanese", "advance " + " ".join(D6) + " to 3317")  # the decision after the landing combat
    assert not s.pending and s.battle is None
    if version == 4:  # one group went on, the rest stayed in the landing hex
        with pytest.raises(IllegalOrder, match="not allowed now"):
            when(s, "japanese", "advance " + " ".join(D18) + " to 3416")
        return
    # ruling R34: each unit goes on to any hex next to the landing hex, a group at a time, in this phase
    s = then(s, "japanese", "advance " + " ".join(D18) + " to 3416")
    assert {s.units[u].hex for u in D6} == {"3317"} and {s.units[u].hex for u in D18} == {"3416"}
    assert s.controller("3416") == "japanese"
    with pytest.raises(IllegalOrder, match="SNC 8.4.1: jp-d6-r13 is not a 10th Army unit standing in the hex"):
        when(s, "japanese", "advance jp-d6-r13 to 3316")  # its second hex is made
    s = then(s, "japanese", "end")  # the others stay: the order is the player's to give, never owed
    assert s.phase == "ops2" and sum(s.units[u].hex == "3417" for u in army) == 6
    with pytest.raises(IllegalOrder):
        when(s, "japanese", "advance " + " ".join(sorted(set(army) - set(D6) - set(D18))[:2]) + " to 3318")


@pytest.mark.parametrize("version", [5, 4])
def test_8_4_1_the_10th_army_landing_where_no_chinese_unit_stands_still_goes_a_second_hex(version):
    s = under(position({"jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(D6 + D18)), version)
    s = then(s, "japanese", "land " + " ".join(D6) + " at 3417")  # no Chinese unit there: no combat
    assert {s.units[u].hex for u in D6} == {"3417"} and not s.pending
    if version == 4:
        with pytest.raises(IllegalOrder, match="not allowed now"):
            when(s, "japanese", "advance " + " ".join(D6) + " to 3317")
        return
    # ruling R35: the landing hex is the first of the two hexes, combat or not; nothing is owed meanwhile
    s = then(s, "japanese", "land " + " ".join(D18) + " at 3417")  # the Army's one location, now Japanese
    s = then(s, "japanese", "advance " + " ".join(D6[:2]) + " to 3317")
    assert {s.units[u].hex for u in D6[:2]} == {"3317"} and s.controller("3317") == "japanese"
    s = then(s, "japanese", "advance " + " ".join(D18) + " to 3416")
    assert {s.units[u].hex for u in D18} == {"3416"} and {s.units[u].hex for u in D6[2:]} == {"3417"}
