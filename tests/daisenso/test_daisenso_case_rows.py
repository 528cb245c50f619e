"""Rows of docs/cases/daisenso.md whose mapped tests passed with the row's own code broken (issue 30's per-case
mutation report, `bench/mutation.py --cases`): each test here holds its row's rule where a player would notice,
in the refusal he reads whole with its case, the shifts the preview and the history show, the prompt, or where his
units end up. Each was checked by making its row's mutant by hand (docs/mutation-survivors.md) and seeing it fail."""
from __future__ import annotations

import copy

import pytest

from app.rules.daisenso import GAME
from app.rules.daisenso.data_load import DataError, build, load
from app.rules.daisenso.events import AirdropToDelayBox, CombatResolved, StackRetreated, StepLost
from tests.daisenso.helpers import (
    drop,
    ds12_after_the_roll,
    orders,
    position,
    preview,
    refused,
    scenario,
    step,
    unit,
    when,
)
from tests.daisenso.test_daisenso_position import problems, raw
from tests.daisenso.test_daisenso_under_way import ds12, raw_of, start
from tests.daisenso.test_daisenso_under_way import problems as problems_in_play
from tests.daisenso.test_daisenso_units import raw_files


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


# -- the rows of part 8's per-case report (docs/mutation-survivors.md): each refusal read whole, with its case --
def test_4_1_1_a_unit_that_is_no_airborne_unit_ordered_to_airdrop_is_refused_naming_4_1_1():
    """The Airdrop step of August Storm: the 6th Guards Tank Army is no airborne unit, so its airdrop is refused
    by 4.1.1, saying what may airdrop."""
    storm = scenario("august-storm")
    assert step(storm) == "airdrop"
    assert refused(storm, "airdrop ru-6-gta e3411", "Dai Senso 4.1.1") == (
        "Dai Senso 4.1.1: ru-6-gta is not a supplied, Blitz-enabled airborne unit in a Land hex")


def test_4_1_3_a_landing_ordered_for_an_enemy_unit_is_refused_naming_4_1_3_and_whose_unit_it_is():
    """The Beachhead Landing step of the Strait: the Allied player names the Japanese 10th Army."""
    _, landing = when(scenario("strait", lambda r: drop(r, "jp-taihoku-fort", "jp-9-div")), "next")
    assert step(landing) == "landing"
    assert refused(landing, "land jp-10-army", "Dai Senso 4.1.3") == (
        "Dai Senso 4.1.3: jp-10-army is an axis unit; allied does not command it")


def test_4_2_1_1_no_attack_into_a_policy_affected_country_listed_or_ordered():
    """D19: Chekiang under a Policy, the 9th War Zone in it at w4624 is neither offered as a target nor attacked
    when ordered; the refusal names 4.2.1.1 and the ruling."""
    z = scenario("zhejiang", lambda r: r.update(policy=["chekiang"]))
    assert not [o for o in orders(z) if o.startswith("attack w4624")]
    assert refused(z, "attack w4624 with jp-13-army", "Dai Senso 4.2.1.1") == (
        "Dai Senso 4.2.1.1: w4624 lies in a Neutral Minor or Policy Affected Country (D19)")


def test_4_2_3_6_a_terrain_file_without_the_all_sea_hexside_is_refused_saying_so():
    """A player replacing terrain.toml (docs/daisenso-data.md) who leaves out the All-Sea hexside is told so: for
    each map sheet drawing one, and once for the game itself, which makes every hexside at sea one (ruling D11) and
    reads it in 4.2.1.1 and 4.2.3.6 even on sheets that draw none."""
    tec, crt, units = raw_files()
    tec = copy.deepcopy(tec)
    del tec["hexsides"]["all-sea"]
    with pytest.raises(DataError) as info:
        build(load().atlas, tec, crt, units)
    assert str(info.value) == ("Dai Senso data: terrain.toml has no [hexsides.all-sea] for sheet 'w'; "
                               "terrain.toml has no [hexsides.all-sea] for sheet 'e'; "
                               "terrain.toml has no [hexsides.all-sea] (4.2.1.1, 4.2.3.6)")


def test_4_2_4_1_an_ad_answered_by_a_step_loss_goes_to_the_losses_and_the_history_tells_no_retreat():
    """Ad against Chungking: the attacker answers with a step of the division instead of retreating (4.2.4.1);
    the defender owes no retreat, so the history goes on to the losses, no "retreat" stage in it (a stored game's
    events would no longer verify with one more)."""
    z = scenario("zhejiang", lambda r: unit(r, "jp-x", "jp-division", "w4720"))
    _, z = when(z, "attack w4620 with jp-15-army jp-x", [4])  # 1-3, die 4: Ad
    events, z = when(z, "lose jp-x")
    assert [e.describe() for e in events] == [
        "axis answered the attacker-result decision", "jp-x is eliminated (to the Force Pool)",
        "combat: attacker-losses", "combat: defender-losses", "combat: advance", "combat at w4620 over"]
    assert z.combat is None and z.units["jp-15-army"].hex == "w4520"


def test_4_2_5_an_attacking_stack_ordered_to_retreat_two_hexes_at_once_is_refused_naming_4_2_5():
    """Ad: the stack in w4720 is told to retreat to w4721 and w4821 in one order; refused, one hex at a time."""
    z = scenario("zhejiang", lambda r: unit(r, "jp-x", "jp-division", "w4720"))
    _, z = when(z, "attack w4620 with jp-15-army jp-x", [4])
    assert refused(z, "retreat w4720 to w4721 w4821", "Dai Senso 4.2.5") == (
        "Dai Senso 4.2.5: a force retreats one hex at a time: name one, not w4721, w4821")
    assert z.units["jp-x"].hex == "w4720"


def test_4_2_5_3_a_force_held_by_its_supporting_hq_converts_every_hex_of_a_dr2_not_only_the_first():
    """DS-12's attack rolled a 5, Dr2 0/1: the 3rd HQ giving Ranged Support is part of the force, which may not
    retreat (4.2.5.2), so each hex is converted into a step (4.2.5.3). The 9th War Zone converts the first; the
    HQ still holds the force, so the second is a step again, never a retreat."""
    _, z = ds12_after_the_roll(5)
    assert (z.combat.result, step(z)) == ("Dr2 0/1", "retreat")
    events, z = when(z, "convert cn-9-war-zone as kiangsu-res")  # its own country's Res (ruling D79)
    assert next(e for e in events if isinstance(e, StepLost)).replacement == "cn-9-war-zone.1"
    assert step(z) == "retreat" and orders(z) == {
        "convert cn-3-hq as hunan-res", "convert cn-3-hq as kiangsu-res", "convert cn-3-hq as szechwan-res",
        "convert cn-9-war-zone.1"}
    _, z = when(z, "convert cn-9-war-zone.1")
    assert "cn-9-war-zone.1" not in z.units and z.units["cn-3-hq"].hex == "w4623"


def test_4_2_6_2_a_holding_box_unit_holding_no_component_of_its_own_is_refused_with_the_key_to_write():
    """ABDA placed with a US infantry in its Holding Box: the position is refused naming 4.2.6.2, the components
    it may hold and the line to write."""
    base = copy.deepcopy(raw("strait"))
    base["unit"].append({"id": "abda", "kind": "abda-army", "hex": "w4423", "holding": ["us-infantry"]})
    assert problems(base) == ['[[unit]] abda: its Holding Box holds one of br-fe-infantry, nei-infantry (4.2.6.2): '
                              'holding = ["..."]']


def test_4_2_7_the_advance_prompt_names_the_hex_and_every_unit_that_may_advance_with_its_values():
    """DS-12 after the retreats and the 0/1: the Japanese player is asked to advance or exploit into w4624, and
    the prompt lists the units that may, the China HQ not among them (an HQ never advances)."""
    _, z = ds12_after_the_roll()
    _, z = when(z, "convert cn-3-hq as kiangsu-res")
    res = next(u.id for u in z.units.values() if u.kind == "kiangsu-res")
    for order in ("retreat to w4623", "retreat to w4722", f"lose {res}"):
        _, z = when(z, order)
    assert GAME.prompt(z).owed.text() == "\n".join([
        "advance or exploit into the defending hex, or stop (4.2.7, 4.2.8) in w4624: any of these units",
        "    jp-13-army               4-4 infantry", "    jp-3-tank                3-2 armor",
        "    jp-34-army               4-4 infantry", "    jp-22-div                2-2 infantry",
        "    jp-40-div                2-2 infantry"])
    assert "exploit jp-3-tank w4624 w4623" in orders(z) and not [o for o in orders(z) if "jp-china-hq" in o]


# -- 4.1.1 and 4.1.4: boundaries no test held (issue 30, the Blitz segment's steps) ---------------------------
def _airborne_at(hex_):
    return scenario("strait", lambda r: unit(r, "us-11-abn", "us-airborne", hex_, blitz=True))


def test_4_1_1_an_airborne_unit_on_a_beachhead_at_sea_makes_no_airdrop():
    """4.1.1: only an airborne unit in a Land hex airdrops; on its Beachhead in the All-Sea hex w4325 it does not,
    while the one in Foochow may."""
    both = scenario("strait", lambda r: (unit(r, "us-11-abn", "us-airborne", "w4424", blitz=True),
                                         unit(r, "us-17-abn", "us-airborne", "w4325", blitz=True)))
    assert step(both) == "airdrop"
    assert any(o.startswith("airdrop us-11-abn ") for o in orders(both))
    assert not any(o.startswith("airdrop us-17-abn ") for o in orders(both))
    assert "in a Land hex" in refused(both, "airdrop us-17-abn w4324", "Dai Senso 4.1.1")
    assert step(_airborne_at("w4325")) == "blitz-combat"  # alone at sea: no Airdrop step at all (ruling D26)


def test_4_1_1_no_airdrop_marker_is_placed_in_an_all_sea_hex_even_one_holding_a_beachhead_marker():
    foochow = _airborne_at("w4424")
    listed = orders(foochow)
    assert "airdrop us-11-abn w4422" in listed and "airdrop us-11-abn w4325" not in listed
    assert "w4325 is not a Land hex" in refused(foochow, "airdrop us-11-abn w4325", "Dai Senso 4.1.1")


def test_4_1_4_an_airdrop_marker_stacked_with_an_enemy_unit_goes_to_the_delay_box_at_the_landing_step():
    """4.1.4: the Airdrop marker dropped on the Japanese in e3411 is stacked with an enemy unit when the Airdrop
    Landing step comes, so it lands nothing and goes to the Delay Box; the one dropped in e3310 may land."""
    storm = scenario("august-storm")
    _, storm = when(storm, "airdrop ru-1-abde e3411")
    _, storm = when(storm, "next")  # no more Airdrops
    events, storm = when(storm, "next")  # no Blitz attack
    assert AirdropToDelayBox("e3411", "soviet", True) in events
    assert not any(m.hex == "e3411" for m in storm.markers) and storm.delay_box["soviet"] == {"ru-airborne": 1}
    assert not any(o.startswith("airland e3411") for o in orders(storm))


def test_4_2_8_an_exploiting_unit_stops_in_the_hex_it_enters_across_an_all_sea_hexside():
    """4.2.8: a US mech (a what-if with an MA of 3, ruling D35) exploits three hexes from Taihoku after the
    defenders there were eliminated; Amoy lies across an All-Sea hexside, so it stops there and never reaches
    w4322 beyond it (and Foochow across the Strait stops it too)."""
    def after_the_attack(r):
        drop(r, "jp-taihoku-fort", "jp-9-div", "jp-10-army")
        unit(r, "us-1-armd", "us-mech", "w4224", blitz=True, attacked=True,
             values={"attack": 7, "defense": 6, "ma": 3})
        r["attacked_hexes"] = ["w4324"]
        r["combat"] = {"hex": "w4324", "attackers": ["us-1-armd"], "stage": "advance", "result": "Dr3 0/1",
                       "converted": 1, "unsatisfied": 3}

    state = start(raw_of("strait", after_the_attack))
    assert step(state) == "advance" and state.combat.exploit_distance == 3
    assert orders(state) == {"advance us-1-armd", "exploit us-1-armd w4324 w4323", "exploit us-1-armd w4324 w4424",
                             "exploit us-1-armd w4324", "stop"}  # Taihoku alone too (ruling D72)
    assert refused(state, "exploit us-1-armd w4324 w4323 w4322", "Dai Senso 4.2.8") == (
        "Dai Senso 4.2.8: the unit must stop in w4323")


# -- 4.1.1 and 4.2.1.2: a two-hex path whose every middle hex lies in a closed country ----------------------------
def test_4_1_1_an_airdrop_path_is_not_traced_across_a_policy_affected_country():
    """From w4016 (Burma) to w4018 (Indochina) every two-hex path crosses Siam (w4017): the Airdrop is listed and
    taken while Siam is open, neither listed nor taken once Siam is a Policy Affected Country (D19)."""
    def drop_zone(**more):
        return position("western", "axis", [("us-11-abn", "us-airborne", "w4016", {"blitz": True}),
                                            ("jp-x", "jp-division", "w4118")], phase="blitz", hold="w4018",
                        marker=[{"kind": "blitz", "faction": "western", "hex": "w4016"}], **more)

    assert "airdrop us-11-abn w4018" in orders(drop_zone())
    closed = drop_zone(policy=["siam"])
    assert step(closed) == "airdrop" and not any(o.endswith(" w4018") for o in orders(closed))
    assert refused(closed, "airdrop us-11-abn w4018", "Dai Senso 4.1.1") == (
        "Dai Senso 4.1.1: every Airdrop Path crosses a Neutral Minor or Policy Affected Country")


def test_4_2_1_2_a_ranged_support_path_is_not_traced_into_a_policy_affected_country():
    """The US HQ in w4016 reaches w4018 only through Siam (w4017): its Ranged Support is offered while Siam is open
    and refused, naming 4.2.1.2, once Siam is Policy Affected; the attack itself still goes in without it."""
    def front(**more):
        return position("western", "axis", [("us-hq-x", "us-hq", "w4016"), ("us-10", "us-army", "w4117"),
                                            ("jp-x", "jp-division", "w4018")], hold="w4018", **more)

    assert "attack w4018 with us-10 hq us-hq-x" in orders(front())
    closed = front(policy=["siam"])
    assert {o for o in orders(closed) if "w4018" in o} == {"attack w4018 with us-10"}
    assert refused(closed, "attack w4018 with us-10 hq us-hq-x", "Dai Senso 4.2.1.2") == (
        "Dai Senso 4.2.1.2: no path for us-hq-x's Ranged Support avoids a Neutral or Policy Affected Country")


def test_4_2_1_an_air_unit_next_to_the_defender_is_no_ground_unit_and_attacks_no_hex():
    """4.2.1: the phasing faction attacks with its ground units; the US Air Force beside Taihoku gives its shift
    (4.2.3.1) but is refused as an attacker by 4.2.1 itself, not by the Attack Factor rule."""
    assert refused(scenario("strait"), "attack w4324 with us-14-af", "Dai Senso 4.2.1") == (
        "Dai Senso 4.2.1: us-14-af is not a ground unit")


# -- the rows of this session's per-case rerun (docs/mutation-survivors.md, part 10) -------------------------------
def test_4_2_1_1_a_position_whose_attack_crossed_an_all_sea_hexside_is_refused_naming_4_2_1_1():
    """Ruling D60: an attack a position holds under way is checked by the attack's own rules. A Japanese army at
    w4622 said to have attacked the KMT HQ's hex w4623 across the lake hexside (an All-Sea hexside, ruling D5), with
    no Marine Assault, is refused: the problem read whole, with its case."""
    raw = ds12({"hex": "w4623", "attackers": ["jp-x"]})
    unit(raw, "jp-x", "jp-army", "w4622")
    assert problems_in_play(raw) == ("[combat] jp-x cannot attack across the All-Sea hexside w4622/w4623 (Dai "
                                     "Senso 4.2.1.1, ruling D60)")
