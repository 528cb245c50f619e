"""Ichi-Go departures from the text found in the rulebook pass of issue 30 (part 4), ruled in
docs/rulings/ichigo-engine.md (E34) and fixed under rules version 8; each is tested under version 8 and as a game
created under version 7 still decides it (docs/core.md "Rules versions")."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, position, then

from app.rules.ichigo.common import garrison_at


def under(state, version):
    return RULES.played_under(state, str(version))


@pytest.mark.parametrize("version", [8, 7])
def test_11_29_a_destroyed_garrison_of_a_city_the_allies_never_took_does_not_return_when_the_japanese_pass(version):
    # 1811 is an initial Japanese city whose intrinsic garrison an Allied attack destroyed without taking the city
    # (no survivor advanced): it is still Japanese-controlled. A Japanese division passes through it.
    s = under(position({"jp-cea-110div": "1812"}, phase="VI", plans={"japanese": "move-fight"},
                       garrison_lost=frozenset({"1811"})), version)
    assert "1811" in s.jp_control and not garrison_at(s, "1811")
    s = then(s, "japanese", "move jp-cea-110div to 1810 via 1811")
    assert s.units["jp-cea-110div"].hex == "1810"
    # 11.29: the garrison returns only once the Allies have captured the city and the Japanese liberate it
    assert garrison_at(s, "1811") is (version < 8)


@pytest.mark.parametrize("version", [8, 7])
def test_11_29_a_city_the_allies_captured_gets_its_garrison_back_when_the_japanese_liberate_it(version):
    s = position({"jp-cea-110div": "1812"}, phase="VI", plans={"japanese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "1610", tried=True),), garrison_lost=frozenset({"1811"}))
    s = under(replace(s, jp_control=s.jp_control - {"1811"}), version)       # the Allies took 1811 and left it
    s = then(s, "japanese", "move jp-cea-110div to 1810 via 1811")
    assert "1811" in s.jp_control and garrison_at(s, "1811")
