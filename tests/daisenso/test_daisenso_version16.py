"""Dai Senso rules version 16 (docs/rulings/daisenso.md D9): the one hexside shift of 4.2.3.8 is the lowest among
every hexside the adjacent attacking units cross, so an attacker across a plain hexside leaves the defender no
hexside shift. Games created under version 15 or before decide as they were played (docs/core.md "Rules
versions")."""
from __future__ import annotations

import pytest

from app.rules.daisenso import GAME
from tests.daisenso.helpers import preview

# The KMT army in the clear hex w4722 (DS-5's): a river hexside toward w4622, a plain one toward w4723.
RIVER_AND_PLAIN = [("jp-a", "jp-army", "w4622"), ("jp-b", "jp-army", "w4723"), ("cn-army", "kmt-army", "w4722")]


def _state(version: str | None):
    raw = {"name": "test", "turn": 1, "phase": "regular", "phasing": "axis", "factions": ["axis", "western"],
           "combat_phases": 2, "victory": {"faction": "axis", "hold": ["w4722"]},
           "unit": [{"id": u, "kind": k, "hex": h} for u, k, h in RIVER_AND_PLAIN]}
    return GAME.initial_state("custom", {"position": raw}, version)


@pytest.mark.parametrize(("version", "hexside"), [(None, []), ("15", ["1L"])])
def test_4_2_3_8_d9_an_attacker_across_a_plain_hexside_makes_the_lowest_hexside_shift_none(version, hexside):
    """Two Japanese armies attack the clear hex w4722, one across its river hexside, one across a plain hexside: the
    lowest hexside shift among the hexsides attacked across is the plain one's, none; the attack is 8 against 4,
    2-1 on the 2-1 column. Version 15 compared the river alone and read 1-1."""
    state = _state(version)
    p = preview(state, "attack w4722 with jp-a jp-b")
    assert [s.split(" ")[0] for s in p["shifts"] if "hexside" in s] == hexside
    column = "2-1" if version is None else "1-1"
    assert (p["raw_odds"], p["column"]) == ("2-1", column)
    listed = {o["order"]: o for o in GAME.legal_orders(state, "axis")}
    assert listed["attack w4722 with jp-a jp-b"]["odds"] == column  # the list a player and a seat read


def test_4_2_3_8_d9_across_the_river_alone_the_river_still_shifts_one_left():
    """The same defender attacked across its river hexsides only (w4622 and w4623): the river's 1L stands."""
    units = [("jp-a", "jp-army", "w4622"), ("jp-b", "jp-army", "w4623"), ("cn-army", "kmt-army", "w4722")]
    raw = {"name": "test", "turn": 1, "phase": "regular", "phasing": "axis", "factions": ["axis", "western"],
           "combat_phases": 2, "victory": {"faction": "axis", "hold": ["w4722"]},
           "unit": [{"id": u, "kind": k, "hex": h} for u, k, h in units]}
    p = preview(GAME.initial_state("custom", {"position": raw}), "attack w4722 with jp-a jp-b")
    assert [s.split(" ")[0] for s in p["shifts"] if "hexside" in s] == ["1L"]
