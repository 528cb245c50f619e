"""SNC cases whose departures issue 30's fidelity pass found, each decided under rules version 4 and, for a game
created before it, as it was played (docs/rulings/snc-engine.md E15)."""
from dataclasses import replace

import pytest
from snc_given import position, then

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
