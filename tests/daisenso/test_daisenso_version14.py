"""Dai Senso rules version 14 (docs/rulings/daisenso.md D67-D69): a position names no Dependent as a country with a
status of its own, and a game of version 13 that did names it as the Dependent it is; a combat after which no unit
may advance writes no Exploitation Distance to the history. An Exploitation may go back into the hex the unit
attacked from, as 4.2.8 is written (D68, not a version-14 change). Games created under version 13 decide as they
were played (docs/core.md "Rules versions")."""
from __future__ import annotations

import pytest

from app.rules.custom_setup import SetupError
from app.rules.daisenso import GAME, played_under
from app.rules.daisenso.events import ExploitationOpened, UnitAdvanced
from tests.daisenso.helpers import orders, position, refused, step, when

# The KMT army in Yunnan (w4517) beaten by three Japanese armies from w4518: a Dr1, whose hexes farther away are
# w4417, w4617 and w4516 in Burma, a Dependent of Britain.
YUNNAN = [("jp-a", "jp-army", "w4518"), ("jp-b", "jp-army", "w4518"), ("jp-c", "jp-army", "w4518"),
          ("cn-a", "kmt-army", "w4517")]


def raw(units, **more) -> dict:
    return {"name": "test", "turn": 1, "phase": "regular", "phasing": "axis", "factions": ["axis", "western"],
            "combat_phases": 2, "victory": {"faction": "axis", "hold": ["w4517"]},
            "unit": [{"id": u[0], "kind": u[1], "hex": u[2]} for u in units], **more}


@pytest.mark.parametrize("key", ["neutral", "policy", "free_passage", "no_occupation"])
def test_d67_a_position_naming_a_dependent_as_a_country_of_its_own_is_refused(key):
    with pytest.raises(SetupError) as bad:
        GAME.initial_state("custom", {"position": raw(YUNNAN, **{key: ["burma"]})})
    assert f"'{key}': Burma is a Dependent of Britain, not a country of its own: its hexes have Britain's status " \
           "(ruling D65)" in str(bad.value)


def test_d67_a_game_of_version_13_with_a_neutral_dependent_names_it_as_a_dependent():
    state = GAME.initial_state("custom", {"position": raw(YUNNAN, neutral=["burma"])}, "13")
    _, beaten = when(state, "attack w4517 with jp-a jp-b jp-c", [3])
    assert step(beaten) == "retreat" and "retreat to w4516" not in orders(beaten)
    assert refused(beaten, "retreat to w4516", "Dai Senso 4.2.5.2") == (
        "Dai Senso 4.2.5.2: w4516 lies in Burma, a Dependent of Britain, neutral in this position (ruling D19); "
        "open: retreat to w4417, retreat to w4617")
    in_burma = raw([*YUNNAN, ("br-a", "br-army", "w4416")], neutral=["burma"])
    with pytest.raises(SetupError) as bad:
        GAME.initial_state("custom", {"position": in_burma}, "13")
    assert "[[unit]] br-a: w4416 is in Burma, a Dependent of Britain, neutral in this position (13.4): no unit is " \
           "there" in str(bad.value)


def test_d67_britain_policy_affected_still_closes_burma():
    _, beaten = when(position("axis", "western", YUNNAN, hold="w4517", policy=["britain"]),
                     "attack w4517 with jp-a jp-b jp-c", [3])
    assert "retreat to w4516" not in orders(beaten)


# -- D68: back into the hex the unit exploits from, as 4.2.8 is written ------------------------------------------------
def test_4_2_8_d68_an_exploiting_unit_may_be_placed_back_in_the_hex_it_exploits_from():
    """A Japanese tank (e3411) and army (e3310) beat the Russian infantry in e3410 (Dr3 0/1): it retreats and dies.
    From the defending hex the tank goes to any adjacent Land hex, the one it attacked from included."""
    state = position("axis", "soviet", [("jp-t", "jp-tank", "e3411"), ("jp-a", "jp-army", "e3310"),
                                        ("ru-i", "ru-infantry", "e3410")], hold="e3410")
    _, state = when(state, "attack e3410 with jp-t jp-a", [6])
    while step(state) == "retreat":
        state = when(state, sorted(orders(state))[0])[1]
    assert step(state) == "advance"
    assert "exploit jp-t e3410 e3411" in orders(state)
    events, after = when(state, "exploit jp-t e3410 e3411")
    assert UnitAdvanced("jp-t", ["e3410", "e3411"]) in events and after.units["jp-t"].hex == "e3411"


# -- D69: no Exploitation Distance where no unit may advance --------------------------------------------------------
BEACHHEAD = [{"kind": "beachhead", "faction": "axis", "hex": "w4325", "toward": "w4324"}]
AT_SEA = [("us-a", "us-army", "w4324"), ("us-b", "us-army", "w4324"), ("us-c", "us-army", "w4324"),
          ("jp-d", "jp-division", "w4325")]


@pytest.mark.parametrize(("version", "written"), [(None, []), ("13", ["Exploitation Distance 3"])])
def test_4_2_7_d69_a_combat_at_sea_with_no_advance_writes_no_exploitation_distance(version, written):
    """The Japanese division on its Beachhead off Taihoku destroyed (Dr3 0/1): the hex keeps the Axis Beachhead, so
    no unit advances (4.2.7) and the combat ends; version 13 wrote an Exploitation Distance of 3 to the history."""
    state = position("western", "axis", AT_SEA, hold="w4324", marker=BEACHHEAD)
    state = played_under(state, version) if version else state
    events, after = when(state, "attack w4325 with us-a us-b us-c", [6])
    assert after.combat is None and "jp-d" not in after.units
    assert [e.describe() for e in events if isinstance(e, ExploitationOpened)] == written
