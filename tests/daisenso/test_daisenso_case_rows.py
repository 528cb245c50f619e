"""Rows of docs/cases/daisenso.md whose mapped tests passed with the row's own code broken (issue 30's per-case
mutation report, `bench/mutation.py --cases`): each test here holds its row's rule where a player would notice,
in the refusal he reads, the shifts the preview and the history show, or where his units end up."""
from __future__ import annotations

import copy

from app.rules.daisenso.events import CombatResolved, StackRetreated
from tests.daisenso.helpers import drop, orders, preview, refused, scenario, step, unit, when
from tests.daisenso.test_daisenso_position import problems, raw


def test_4_1_3_a_landing_into_a_hex_holding_an_enemy_unit_is_refused_naming_4_1_3_while_another_unit_lands():
    """The Beachhead Landing step is open (the Tenth Army may land at Taihoku), and a second US army on a Beachhead
    off Takao orders its landing: refused by 4.1.3's restriction, naming the hex and why."""
    def two_beachheads(r):
        drop(r, "jp-taihoku-fort", "jp-9-div")
        r["marker"].append({"kind": "beachhead", "faction": "western", "hex": "w4225", "toward": "w4224"})
        unit(r, "us-x", "us-army", "w4225", blitz=True)

    _, landing = when(scenario("strait", two_beachheads), "next")
    assert step(landing) == "landing" and orders(landing) == {"land us-10-army", "next"}
    assert refused(landing, "land us-x", "Dai Senso 4.1.3") == "Dai Senso 4.1.3: w4224 holds an enemy unit"
    assert landing.units["us-x"].hex == "w4225"


def _blitz_marker_in(hex_label: str):
    return lambda r: r["marker"].append({"kind": "blitz", "faction": "soviet", "hex": hex_label})


def test_4_2_3_2_only_an_airdrop_marker_in_the_defending_hex_shifts_not_the_attackers_blitz_marker_there():
    """The attacker's own Blitz marker may lie in the hex he attacks (4.2.5.3 reads it there); it is no Airdrop
    marker, so the preview shows no 4.2.3.2 shift, and with the Airdrop marker beside it one column."""
    order = "attack e3411 with ru-6-gta ru-36-army"
    _, marked = when(scenario("august-storm", _blitz_marker_in("e3411")), "next")
    assert not [s for s in preview(marked, order)["shifts"] if "4.2.3.2" in s]
    _, both = when(scenario("august-storm", _blitz_marker_in("e3411")), "airdrop ru-1-abde e3411")
    _, both = when(both, "next")
    assert [s for s in preview(both, order)["shifts"] if "4.2.3.2" in s] == [
        "1R (Dai Senso 4.2.3.2: Airdrop marker in e3411)"]


def test_4_2_3_5_the_preview_and_the_history_name_the_hq_shift_of_each_side():
    """An HQ in the defending hex shifts one column left, an attacking HQ one right: each named as such where the
    player reads the odds, in the preview and in the battle's line of the history."""
    z = scenario("zhejiang")
    defence = "attack w4620 with jp-15-army"  # the Chungking HQ defends in its own hex
    assert "1L (Dai Senso 4.2.3.5: defending HQ)" in preview(z, defence)["shifts"]
    events, _ = when(z, defence, [4])
    assert "1L (Dai Senso 4.2.3.5: defending HQ)" in next(e for e in events if isinstance(e, CombatResolved)).describe()
    attack = "attack w4825 with jp-china-hq"
    with_hq = scenario("zhejiang", lambda r: unit(r, "cn-x", "kiangsu-res", "w4825"))
    assert "1R (Dai Senso 4.2.3.5: attacking HQ)" in preview(with_hq, attack)["shifts"]


def test_4_2_4_1_an_ad_sends_every_attacking_stack_back_one_hex_each_apart_and_the_defender_stays():
    """Ad against Chungking attacked from two hexes: the first stack's retreat is the answer to the result, then
    the second stack (only it) retreats from its own hex; the combat ends and the defenders stay put."""
    z = scenario("zhejiang", lambda r: unit(r, "jp-x", "jp-division", "w4720"))
    events, z = when(z, "attack w4620 with jp-15-army jp-x", [4])  # 6 v 6, four left: 1-3, die 4: Ad
    assert next(e for e in events if isinstance(e, CombatResolved)).result == "Ad"
    assert {"retreat w4520 to w4420", "retreat w4720 to w4721", "lose jp-x"} <= orders(z)
    events, z = when(z, "retreat w4520 to w4420")
    assert StackRetreated(["jp-15-army"], "w4520", "w4420", [], False) in events
    assert step(z) == "attacker-retreat" and orders(z) == {"retreat w4720 to w4721", "retreat w4720 to w4821"}
    events, z = when(z, "retreat w4720 to w4721")
    assert StackRetreated(["jp-x"], "w4720", "w4721", [], False) in events
    assert (z.units["jp-15-army"].hex, z.units["jp-x"].hex) == ("w4420", "w4721")
    assert z.combat is None and step(z) == "regular-combat"
    assert {u.id for u in z.units.values() if u.hex == "w4620"} == {"cn-chungking-hq", "cn-szechwan-war-zone"}


def test_4_2_5_a_position_puts_a_ground_unit_at_sea_only_on_its_own_factions_beachhead_marker():
    """A force retreats into a Land hex or an All-Sea hex holding a friendly Beachhead marker (4.2.5), so a ground
    unit is at sea only there: a position placing one elsewhere at sea is refused naming the case."""
    def army_at_w4425(beachhead_faction=None):
        r = copy.deepcopy(raw("strait"))
        r["unit"].append({"id": "us-x", "kind": "us-army", "hex": "w4425"})
        if beachhead_faction:
            r["marker"].append({"kind": "beachhead", "faction": beachhead_faction, "hex": "w4425",
                                "toward": "w4324"})
        return r

    why = ("[[unit]] us-x: w4425 is not a Land hex; a ground unit stands at sea only on its faction's Beachhead "
           "marker (4.2.5, 4.3 step 3)")
    assert problems(army_at_w4425()) == [why]
    assert problems(army_at_w4425("axis")) == [why]
    assert scenario("strait", lambda r: r.update(army_at_w4425("western"))).units["us-x"].hex == "w4425"
