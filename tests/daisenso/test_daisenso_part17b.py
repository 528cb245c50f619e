"""Dai Senso, session part 17's open ends of 4.2.6.2 and 4.2.8 (docs/rulings/daisenso.md D84-D86): the counter a step
loss takes off the map goes to its box as that counter, and the player's view of a combat shows its Exploitation
Distance. Each checked under rules version 20 and, as played, under version 19."""
from __future__ import annotations

import pytest

from app.rules.daisenso import GAME, played_under
from app.rules.daisenso.events import StepLost
from tests.daisenso.helpers import drop, position, scenario, unit, when


def abda_hit(version: str | None, keep: str):
    """DS-15: the ABDA army in w4723 (the NEI infantry in its Holding Box, a British FE infantry in the Western Force
    Pool) takes the defender's step of a 1/1 (1-1, die 5) and keeps ``keep``: its StepLost and the state after it."""
    def abda(raw):
        unit(raw, "abda-1", "abda-army", "w4723", holding=["nei-infantry"])
        unit(raw, "jp-x", "jp-army", "w4724")
        unit(raw, "jp-y", "jp-army", "w4724")
        raw["force_pool"]["western"]["br-fe-infantry"] = 1

    state = scenario("zhejiang", abda)
    state = played_under(state, version) if version else state
    _, state = when(state, "attack w4723 with jp-x jp-y", [5])
    _, state = when(state, "lose jp-x as jp-division")
    events, after = when(state, f"lose abda-1 as {keep}")
    return next(e for e in events if isinstance(e, StepLost) and e.unit == "abda-1"), state, after


def counted(state, faction: str, *kinds: str) -> dict[str, int]:
    """How many of each kind the faction's Force Pool and Delay Box hold, together."""
    return {k: state.force_pool.get(faction, {}).get(k, 0) + state.delay_box.get(faction, {}).get(k, 0) for k in kinds}


@pytest.mark.parametrize("version", [None, "19"])
def test_4_2_6_2_d84_the_abda_counter_goes_to_its_force_pool_whichever_component_stays(version):
    """4.2.6.2 removes the two-step unit "from its location" and sends every unit so removed to its Force Pool (or the
    Delay Box); the Holding Box rule reduces the ABDA army by that same procedure. Keeping the NEI unit, the British
    FE step lost is the ABDA counter's: the counter goes back, and no British FE counter appears from nowhere. Keeping
    the British FE (from the Force Pool), the NEI unit in the Holding Box is eliminated, and the counter goes back as
    well. Version 19 and before let the ABDA counter vanish and sent a British FE counter to the pool in its place."""
    kinds = ("abda-army", "br-fe-infantry", "nei-infantry")
    lost, before, after = abda_hit(version, "nei-infantry")
    change = {k: counted(after, "western", k)[k] - counted(before, "western", k)[k] for k in kinds}
    assert [u.kind for u in after.units.values() if u.hex == "w4723"] == ["nei-infantry"]
    if version:
        assert change == {"abda-army": 0, "br-fe-infantry": 1, "nei-infantry": 0}
    else:
        assert change == {"abda-army": 1, "br-fe-infantry": 0, "nei-infantry": 0}
        assert lost.describe().endswith("takes its place, abda-army to the Force Pool")
    lost, before, after = abda_hit(version, "br-fe-infantry")
    change = {k: counted(after, "western", k)[k] - counted(before, "western", k)[k] for k in kinds}
    assert [u.kind for u in after.units.values() if u.hex == "w4723"] == ["br-fe-infantry"]
    if version:
        assert change == {"abda-army": 0, "br-fe-infantry": -1, "nei-infantry": 1}
        return
    assert change == {"abda-army": 1, "br-fe-infantry": -1, "nei-infantry": 1}
    assert lost.describe().endswith("abda-army to the Force Pool, nei-infantry from its Holding Box to the Force Pool")


@pytest.mark.parametrize("version", [None, "19"])
def test_4_2_8_d85_the_view_of_a_combat_shows_its_exploitation_distance(version):
    """The Exploitation Distance 4.2.8 gives a combat (here 1: the defender retreated one hex) bounds every
    Exploitation the attacker may order; the history's line wrote it, the player's view of the combat did not.
    Version 19 and before keep their view (an automated seat's dice are seeded from it)."""
    state = position("axis", "western", [("jp-a", "jp-army", "w4224"), ("jp-b", "jp-army", "w4224"),
                                         ("us-i", "us-infantry", "w4324")], hold="w4324")
    state = played_under(state, version) if version else state
    _, state = when(state, "attack w4324 with jp-a jp-b", [3])  # 8 against 2, the City 1L: 3-1, die 3: Dr1
    _, state = when(state, "retreat to w4424")
    assert state.combat.stage == "advance" and state.combat.exploit_distance == 1
    shown = GAME.view(state, "allies")["combat"]
    assert shown.get("exploit_distance") == (None if version else 1)


def flipped_mech_broken_down(version: str | None):
    """DS-13: a US mech army and a US army on a Beachhead attack Taihoku; Ad 1/0: the Ad's armor step flips the mech
    to its 4-4-1 side; the Attrition step then breaks that side down to a US infantry from the Force Pool."""
    def mech(raw):
        drop(raw, "us-10-army")
        unit(raw, "us-mech-1", "us-mech", "w4325", blitz=True)
        unit(raw, "us-army-1", "us-army", "w4325", blitz=True)

    state = scenario("strait", mech)
    state = played_under(state, version) if version else state
    _, state = when(state, "attack w4324 with us-mech-1 us-army-1", [1])
    assert state.units["us-mech-1"].kind == "us-army"
    events, after = when(state, "lose us-mech-1 as us-infantry")
    return next(e for e in events if isinstance(e, StepLost) and e.unit == "us-mech-1"), state, after


@pytest.mark.parametrize("version", [None, "19"])
def test_4_2_6_2_d86_a_flipped_us_mech_broken_down_goes_to_the_delay_box_as_the_mech(version):
    """4.2.6.2 flips the US 7-6-2 mech to its 4-4-1 side: the same unit, the same counter. Broken down next, that
    counter is removed and goes to the Delay Box, as its Delay Stripe says, and the box holds a mech army; version 19
    and before sent the side shown, a US infantry army with no stripe, to the Force Pool."""
    lost, before, after = flipped_mech_broken_down(version)
    gone = {k: counted(after, "western", k)[k] - counted(before, "western", k)[k] for k in ("us-mech", "us-army")}
    if version:
        assert (lost.box, lost.box_kind) == ("pool", "us-army") and gone == {"us-mech": 0, "us-army": 1}
        return
    assert (lost.box, lost.box_kind) == ("delay", "us-mech") and gone == {"us-mech": 1, "us-army": 0}
    assert after.delay_box["western"]["us-mech"] == before.delay_box.get("western", {}).get("us-mech", 0) + 1
