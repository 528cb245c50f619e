"""Dai Senso's Combat Phase through its states table: given a position / when an order (with the dice it rolls) /
then the events or the refusal with its case. Positions are the shipped scenarios, changed where a test needs."""
from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules.daisenso import GAME
from app.rules.daisenso.events import (
    AirdropPlaced,
    AirdropToDelayBox,
    CombatResolved,
    CvStrikesReturned,
    MarkersToDelayBox,
    StackRetreated,
    StepLost,
    UnitAdvanced,
)
from app.rules.engine.events import GameEnded
from app.rules.errors import IllegalOrder
from tests.daisenso.helpers import (
    drop,
    ds12_after_the_roll,
    ds18_force,
    orders,
    position,
    preview,
    refused,
    scenario,
    step,
    unit,
    when,
)


# -- 4.1 the Blitz segment --------------------------------------------------------------------------------------
def test_4_1_without_a_blitz_marker_the_phase_opens_at_regular_combat_and_cv_strikes_return():
    z = scenario("zhejiang")
    assert step(z) == "regular-combat" and GAME.prompt(z).side == "axis"
    strait = scenario("strait")
    assert step(strait) == "blitz-combat"  # a Blitz marker; no airborne unit, so no Airdrop step
    events, after = when(strait, "next")
    assert CvStrikesReturned(["us-tf-58"]) in events  # 4.1.5 at the end of the segment
    assert step(after) == "regular-combat" and after.used_box == {"east-china-sea": ("us-cv",)}


def test_4_1_5_every_cv_strike_in_a_hex_returns_the_defenders_too():
    """4.1.5 sends all CV Strike units in hexes to their Naval Zone's Used Box, not only the phasing faction's: the
    Japanese CV Strike off Formosa leaves before the Regular Combat Segment. A game of rules version 3 returned
    only the phasing faction's (ruling D38)."""
    from app.rules.daisenso import played_under

    raw = lambda r: unit(r, "jp-kido-butai", "jp-cv", "w4021", zone="east-china-sea")  # noqa: E731
    events, after = when(scenario("strait", raw), "next")
    assert CvStrikesReturned(["jp-kido-butai", "us-tf-58"]) in events
    assert "jp-kido-butai" not in after.units and sorted(after.used_box["east-china-sea"]) == ["jp-cv", "us-cv"]
    events, old = when(played_under(scenario("strait", raw), "3"), "next")
    assert CvStrikesReturned(["us-tf-58"]) in events and old.units["jp-kido-butai"].hex == "w4021"


def test_4_1_1_airdrop_within_two_hexes_and_not_next_to_an_enemy_air_unit():
    storm = scenario("august-storm")
    assert step(storm) == "airdrop"
    assert "an Airdrop reaches two" in refused(storm, "airdrop ru-1-abde e3313", "Dai Senso 4.1.1")
    events, after = when(storm, "airdrop ru-1-abde e3411")
    assert events == [AirdropPlaced("ru-1-abde", "e3411")] and "ru-1-abde" not in after.units
    guarded = scenario("august-storm", lambda r: unit(r, "jp-air", "jp-air", "e3311"))
    assert "enemy Air unit" in refused(guarded, "airdrop ru-1-abde e3411", "Dai Senso 4.1.1")


def test_4_1_2_blitz_attackers_must_be_blitz_enabled_and_mud_stops_a_blitz_but_russians_go_into_snow():
    storm = scenario("august-storm")
    _, combat = when(storm, "next")
    refused(combat, "attack e3410 with ru-chita-garrison", "Dai Senso 4.2.1")  # not adjacent
    slow = scenario("august-storm", lambda r: r["unit"][1].update(blitz=False))
    _, slow = when(slow, "next")
    assert "not Blitz-enabled" in refused(slow, "attack e3410 with ru-36-army", "Dai Senso 4.1.2")
    muddy = scenario("august-storm", lambda r: r["weather"].update(mud=["e3311", "e3410"]))
    _, muddy = when(muddy, "next")
    assert "under mud" in refused(muddy, "attack e3410 with ru-6-gta", "Dai Senso 4.1.2")
    snowy = scenario("august-storm", lambda r: r["weather"].update(snow=["e3412", "e3410"]))
    _, snowy = when(snowy, "next")
    assert "under snow" in refused(snowy, "attack e3410 with ru-6-gta mpr-cav", "Dai Senso 4.1.2")
    events, _ = when(snowy, "attack e3410 with ru-6-gta ru-36-army", [6])
    assert any(isinstance(e, CombatResolved) for e in events)


def test_4_1_3_and_4_1_3_1_and_4_1_4_landings_from_beachheads_snlf_markers_and_airdrops():
    open_beach = scenario("strait", lambda r: drop(r, "jp-taihoku-fort", "jp-9-div"))
    events, landing = when(open_beach, "next")
    assert step(landing) == "landing" and orders(landing) == {"land us-10-army", "next"}
    assert "one at a time" in refused(landing, "land us-10-army us-3-mac", "Dai Senso 4.1.3")
    events, landing = when(landing, "land us-10-army")
    assert landing.units["us-10-army"].hex == "w4324"

    def snlf(raw):
        raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                          {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        raw["force_pool"]["axis"]["detachment-japan"] = 1

    z = scenario("zhejiang", snlf)
    assert step(z) == "blitz-combat"
    _, z = when(z, "next")
    assert orders(z) == {"snlf w4626", "next"}
    _, z = when(z, "snlf w4626")
    assert any(m.kind == "detachment-japan" and m.hex == "w4725" for m in z.markers)
    assert "detachment-japan" not in z.force_pool["axis"]

    storm = scenario("august-storm", lambda r: r["force_pool"]["soviet"].update({"ru-airborne": 1}))
    assert "one at a time" in refused(storm, "airdrop ru-1-abde ru-6-gta e3310", "Dai Senso 4.1.1")
    _, storm = when(storm, "airdrop ru-1-abde e3310")
    _, storm = when(storm, "next")
    _, storm = when(storm, "next")
    assert step(storm) == "airdrop-landing"
    assert refused(storm, "airland e3310 ru-airborne", "Dai Senso 4.1.4") == (  # elite, and not infantry
        "Dai Senso 4.1.4: ru-airborne cannot land: a one-step, non-elite infantry of its nationality (ru-infantry)")
    assert "no soviet Airdrop marker in e3311" in refused(storm, "airland e3311 ru-infantry", "Dai Senso 4.1.4")
    events, storm = when(storm, "airland e3310 ru-infantry")
    assert any(u.kind == "ru-infantry" and u.hex == "e3310" for u in storm.units.values())
    assert storm.force_pool["soviet"]["ru-infantry"] == 2 and storm.delay_box["soviet"] == {"ru-airborne": 1}


def test_4_2_3_2_and_4_2_3_3_blitz_shifts_airdrop_and_armor_and_the_weather_weakens_the_result():
    storm = scenario("august-storm")
    _, storm = when(storm, "airdrop ru-1-abde e3411")
    _, storm = when(storm, "next")
    preview = GAME.preview(storm, GAME.parse("attack e3411 with ru-6-gta ru-36-army", "allied", storm))
    shifts = " ".join(preview["shifts"])
    assert "4.2.3.2" in shifts and "4.2.3.3" in shifts and "4.2.3.4: fortress" in shifts
    assert "4.2.3.8: city" in shifts and "4.2.3.5" not in shifts


def test_4_2_3_every_shift_of_the_strait_assault_with_its_case_and_the_preview_matches_the_order():
    strait = scenario("strait")
    order = "attack w4324 with us-3-mac us-6-mar us-10-army hq us-hq-pac"
    p = GAME.preview(strait, GAME.parse(order, "allied", strait))
    assert (p["attack"], p["defence"], p["raw_odds"], p["column"]) == (13, 5, "2-1", "2-1")
    assert sorted(s.split(" (")[0] + " " + s.split("Dai Senso ")[1].split(":")[0] for s in p["shifts"]) == sorted([
        "1R 4.2.3.1", "1R 4.2.3.1", "1L 4.2.3.1",  # the US Air Force and CV Strike; the Japanese Air Force at Takao
        "1L 4.2.3.4", "1R 4.2.3.5", "1R 4.2.3.6", "1L 4.2.3.8", "1L 4.2.3.8"])  # fortress, HQ, marines, City, Strait
    for die, code in p["by_roll"].items():
        events, _ = when(strait, order, [die])
        assert next(e for e in events if isinstance(e, CombatResolved)).result == code


def _unsupplied(*ids):
    def change(raw):
        for u in raw["unit"]:
            if u["id"] in ids:
                u["supplied"] = False
    return change


def _shift_cases(state, order) -> list[str]:
    return sorted(s.split("Dai Senso ")[1].split(":")[0] for s in preview(state, order)["shifts"])


def test_4_2_3_3_an_unsupplied_blitz_enabled_armor_unit_gives_no_armor_shift():
    order = "attack e3411 with ru-6-gta ru-36-army"
    supplied = when(scenario("august-storm"), "next")[1]
    assert "4.2.3.3" in _shift_cases(supplied, order)
    cut_off = when(scenario("august-storm", _unsupplied("ru-6-gta")), "next")[1]
    assert "4.2.3.3" not in _shift_cases(cut_off, order)
    _, attacking = when(cut_off, order, [3])  # it still attacks: 4.2.1 needs no supply
    assert "e3411" in attacking.attacked_hexes


def test_4_2_3_5_an_unsupplied_hq_gives_no_hq_shift_attacking_or_defending_nor_ranged_support():
    order = "attack w4825 with jp-china-hq"
    add = lambda r: unit(r, "cn-x", "kiangsu-res", "w4825")  # noqa: E731
    assert "4.2.3.5" in _shift_cases(scenario("zhejiang", add), order)
    cut_off = scenario("zhejiang", lambda r: (add(r), _unsupplied("jp-china-hq")(r)))
    assert "4.2.3.5" not in _shift_cases(cut_off, order)  # it attacks (4.2.1: supply not needed), unshifted
    assert "supplied" in refused(cut_off, "attack w4624 with jp-13-army hq jp-china-hq", "Dai Senso 4.2.1.2")
    defence = "attack w4620 with jp-15-army"  # the Chungking HQ defends in its own hex
    assert "4.2.3.5" in _shift_cases(scenario("zhejiang"), defence)
    assert "4.2.3.5" not in _shift_cases(scenario("zhejiang", _unsupplied("cn-chungking-hq")), defence)


def test_4_2_3_6_unsupplied_marines_give_no_marine_shift_and_4_2_1_3_make_no_marine_assault():
    across_the_strait = "attack w4324 with us-3-mac"
    assert "4.2.3.6" in _shift_cases(scenario("strait"), across_the_strait)
    cut_off = scenario("strait", _unsupplied("us-3-mac", "us-6-mar"))
    assert "4.2.3.6" not in _shift_cases(cut_off, across_the_strait)
    refused(cut_off, "attack w4324 with us-6-mar", "Dai Senso 4.2.1.1")  # All-Sea: supplied marines only


def test_4_2_3_4_an_unsupplied_fortress_still_shifts_and_4_2_3_6_a_marine_not_blitz_enabled_does_not():
    """The fortress's shift needs no supply (4.2.3.4); the marines' needs a supplied *and* Blitz-enabled marine,
    in the Regular Combat Segment too (4.2.3.6)."""
    across_the_strait = "attack w4324 with us-3-mac"
    regular = when(scenario("strait", _unsupplied("jp-taihoku-fort")), "next")[1]
    assert step(regular) == "regular-combat" and "4.2.3.4" in _shift_cases(regular, across_the_strait)

    def plain(raw):
        next(u for u in raw["unit"] if u["id"] == "us-3-mac")["blitz"] = False

    regular = when(scenario("strait", plain), "next")[1]
    assert "4.2.3.6" not in _shift_cases(regular, across_the_strait)
    assert "4.2.3.6" in _shift_cases(regular, "attack w4324 with us-6-mar")  # the Blitz-enabled one still does


def test_4_2_2_step_2_an_unsupplied_hq_gives_the_defence_no_ranged_support():
    """4.2.1.2: only a supplied HQ gives Ranged Support, the defender's too: with the KMT HQ behind Quzhou cut
    off, the defender is not asked (4.2.2 step 2) and the combat is resolved at once."""
    order = "attack w4624 with jp-13-army"
    assert step(when(scenario("zhejiang"), order)[1]) == "defender-hq"
    events, after = when(scenario("zhejiang", _unsupplied("cn-3-hq")), order, [3])
    assert step(after) != "defender-hq" and any(isinstance(e, CombatResolved) for e in events)
    assert after.combat is None or after.combat.defender_hq is None


# -- 4.2.1 attacks ------------------------------------------------------------------------------------------------
def test_4_2_1_each_hex_and_each_unit_once_per_segment_and_every_unit_in_the_hex_defends():
    z = scenario("zhejiang")
    events, after = when(z, "attack w4620 with jp-15-army", [4])
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    assert resolved.defence == 6  # the Szechwan War Zone and the HQ in Chungking, both
    while after.combat is not None:
        after = _settle(after)
    assert "already been attacked" in refused(after, "attack w4620 with jp-15-army", "Dai Senso 4.2.1")


def _settle(state):
    """Give the first open choice until the combat is over (for tests that do not look at the choices)."""
    first = sorted(orders(state))[0]
    return when(state, first)[1]


def test_4_2_1_1_ds18_japanese_siamese_and_hopeh_exp_attack_together_but_not_with_a_regular_hopeh():
    z = scenario("zhejiang", ds18_force)
    assert "two Minor Countries (hopeh, siam)" in refused(
        z, "attack w4624 with jp-22-div th-1 hp-exp hp-1", "Dai Senso 4.2.1.1")
    events, after = when(z, "attack w4624 with jp-22-div th-1 hp-exp")
    assert step(after) == "defender-hq"  # accepted: the defender may now answer with its HQ


def test_4_2_1_1_a_minor_countrys_unit_under_free_passage_stays_home_a_marker_elsewhere_does_not_hold_it():
    def place(raw):
        unit(raw, "th-1", "siam-infantry", "w4524")

    held = scenario("zhejiang", lambda r: (place(r), r.update(free_passage=["siam"])))
    assert "th-1 belongs to Siam, which has a Free Passage, Mobilizing or No Occupation marker" in refused(
        held, "attack w4624 with th-1", "Dai Senso 4.2.1.1")
    elsewhere = scenario("zhejiang", lambda r: (place(r), r.update(mobilizing=[{"country": "hopeh",
                                                                                   "faction": "axis"}])))
    _, after = when(elsewhere, "attack w4624 with th-1")
    assert step(after) == "defender-hq"  # Hopeh's marker says nothing of a Siamese unit


def test_4_2_1_1_no_attack_across_all_sea_but_by_marines_nor_by_a_zero_attack_factor():
    strait = scenario("strait", lambda r: unit(r, "us-inf", "us-infantry", "w4323", blitz=True))
    assert "All-Sea hexside" in refused(strait, "attack w4324 with us-inf", "Dai Senso 4.2.1.1")
    ok, _ = when(strait, "attack w4324 with us-6-mar", [6])  # 4.2.1.3 Marine Assault
    assert any(isinstance(e, CombatResolved) for e in ok)
    z = scenario("zhejiang", lambda r: unit(r, "jp-fort", "jp-fortress", "w4524"))
    assert "Attack Factor of 0" in refused(z, "attack w4624 with jp-fort", "Dai Senso 4.2.1.1")


def test_4_2_1_2_ranged_support_reaches_two_hexes_and_the_defender_may_answer():
    z = scenario("zhejiang")
    assert "not adjacent to w4620" in refused(z, "attack w4620 with jp-22-div", "Dai Senso 4.2.1")
    far = scenario("zhejiang", lambda r: next(u for u in r["unit"] if u["id"] == "jp-china-hq").update(hex="w4822"))
    assert "Ranged Support reaches two" in refused(
        far, "attack w4624 with jp-13-army hq jp-china-hq", "Dai Senso 4.2.1.2")
    events, after = when(z, "attack w4624 with jp-13-army jp-3-tank jp-22-div hq jp-china-hq")
    assert step(after) == "defender-hq" and GAME.prompt(after).side == "allied"  # 4.2.2 step 2
    assert "support cn-3-hq" in orders(after)


def test_4_2_1_and_4_2_1_2_one_hex_an_attack_and_one_hq_a_side_refused_by_the_rule_not_the_grammar():
    z = scenario("zhejiang", lambda r: (unit(r, "jp-hq-2", "jp-hq", "w4725"), unit(r, "cn-hq-2", "kmt-hq", "w4723")))
    assert "one adjacent hex, not w4624, w4620" in refused(
        z, "attack w4624 w4620 with jp-13-army jp-15-army", "Dai Senso 4.2.1")
    assert "one HQ per faction" in refused(
        z, "attack w4624 with jp-13-army hq jp-china-hq jp-hq-2", "Dai Senso 4.2.1.2")
    with pytest.raises(IllegalOrder) as err:  # the preview refuses it the same way
        preview(z, "attack w4624 w4620 with jp-13-army jp-15-army")
    assert err.value.case == "Dai Senso 4.2.1"
    with pytest.raises(IllegalOrder) as err:
        preview(z, "attack w4624 with jp-13-army hq jp-china-hq jp-hq-2")
    assert err.value.case == "Dai Senso 4.2.1.2"
    _, asked = when(z, "attack w4624 with jp-13-army")
    assert step(asked) == "defender-hq"
    assert "one HQ per faction" in refused(asked, "support cn-3-hq cn-hq-2", "Dai Senso 4.2.1.2")
    attacks = [o for o in orders(z) if o.startswith("attack ")]  # the list of legal orders: one HQ at most
    assert attacks and not [o for o in attacks if "jp-china-hq" in o and "jp-hq-2" in o]


# -- 4.2.5 retreats, 4.2.6 losses, 4.2.8 exploitation: the 9th War Zone example (DS-12) ---------------------------
def test_ds12_the_9th_war_zone_breaks_its_hq_retreats_picks_up_the_res_and_the_tank_exploits():
    events, z = ds12_after_the_roll()
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    assert (resolved.column, resolved.result) == ("3-1", "Dr3 0/1")
    assert step(z) == "retreat" and {o.split()[0] for o in orders(z)} == {"convert"}  # the HQ: no retreat
    _, z = when(z, "convert cn-3-hq as kiangsu-res")
    res = next(u for u in z.units.values() if u.kind == "kiangsu-res")
    assert res.hex == "w4623" and res.id not in z.combat.defenders
    assert orders(z) >= {"retreat to w4623", "retreat to w4723"}
    assert "one hex at a time" in refused(z, "retreat to w4623 w4522", "Dai Senso 4.2.5")  # 4.2.5: hex by hex
    events, z = when(z, "retreat to w4623")
    assert StackRetreated(["cn-9-war-zone"], "w4624", "w4623", [res.id], True) in events
    assert {o for o in orders(z) if o.startswith("retreat")} == {"retreat to w4522", "retreat to w4722"}
    _, z = when(z, "retreat to w4722")
    assert step(z) == "defender-losses"  # the 0/1, from any unit of the force, the Res included
    _, z = when(z, f"lose {res.id}")
    assert step(z) == "advance" and z.combat.exploit_distance == 2
    assert "not adjacent" in refused(z, "exploit jp-3-tank w4624 w4522", "Dai Senso 4.2.8")
    refused(z, "exploit jp-3-tank w4624 w4523 w4423", "Dai Senso 4.2.8")  # distance 2 (MA 2)
    events, z = when(z, "exploit jp-3-tank w4624 w4623")
    assert UnitAdvanced("jp-3-tank", ["w4624", "w4623"]) in events
    assert "may not Advance" in refused(z, "advance jp-china-hq", "Dai Senso 4.2.7")  # an HQ never advances
    assert "jp-china-hq may not Advance After Combat, so it may not Exploit" in refused(
        z, "exploit jp-china-hq w4624 w4623", "Dai Senso 4.2.8")
    assert "one unit at a time" in refused(z, "advance jp-13-army jp-22-div", "Dai Senso 4.2.7")
    _, z = when(z, "advance jp-13-army")
    _, z = when(z, "stop")
    assert z.combat is None and step(z) == "regular-combat"


def test_ds8_4_2_5_1_the_15th_army_beaten_at_chungking_may_not_fall_back_to_the_no_hexes():
    z = scenario("zhejiang")
    events, z = when(z, "attack w4620 with jp-15-army", [4])
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    assert (resolved.column, resolved.result) == ("1-3", "Ad")
    assert refused(z, "retreat w4520 to w4519", "Dai Senso 4.2.5.1").startswith(
        "Dai Senso 4.2.5.1: w4519 is not farther from the defending hex w4620 than w4520")
    assert {o for o in orders(z) if o.startswith("retreat")} == {
        "retreat w4520 to w4420", "retreat w4520 to w4421", "retreat w4520 to w4521"}
    events, z = when(z, "retreat w4520 to w4421")
    assert StackRetreated(["jp-15-army"], "w4520", "w4421", [], False) in events
    supported = scenario("zhejiang", lambda r: unit(r, "jp-11-hq", "jp-hq", "w4521"))
    _, supported = when(supported, "attack w4620 with jp-15-army hq jp-11-hq", [1])  # 7 v 6, 3 left: Ad 1/0
    assert supported.combat.result.startswith("Ad")
    assert not {o for o in orders(supported) if o.startswith("retreat")}  # the supporting HQ is in the force
    assert refused(supported, "retreat w4520 to w4421", "Dai Senso 4.2.5.2").startswith(
        "Dai Senso 4.2.5.2: jp-11-hq, the HQ that gave the attack Ranged Support, is part of the force")


def test_ds13_4_2_6_1_a_beachhead_force_takes_ad_as_an_armor_step_then_any_attrition_step():
    def mech(raw):
        drop(raw, "us-10-army")
        unit(raw, "us-mech-1", "us-mech", "w4325", blitz=True)
        unit(raw, "us-army-1", "us-army", "w4325", blitz=True)

    strait = scenario("strait", mech)
    events, strait = when(strait, "attack w4324 with us-mech-1 us-army-1", [1])
    assert next(e for e in events if isinstance(e, CombatResolved)).result == "Ad 1/0"
    assert StepLost("us-mech-1", "ad", becomes="us-army") in events  # the only way: no retreat from the sea
    assert orders(strait) == {"lose us-mech-1 as us-infantry", "lose us-army-1 as us-infantry"}
    owed = [c for c, _ in GAME.prompt(strait).owed.candidates]
    assert owed == ["lose us-mech-1 as us-infantry", "lose us-army-1 as us-infantry"]  # typeable as printed (issue 27)
    for text in owed:
        when(strait, text)


def test_ds15_4_2_6_2_abda_loses_a_step_keeping_either_component():
    def abda(raw):
        unit(raw, "abda-1", "abda-army", "w4723", holding=["nei-infantry"])
        unit(raw, "jp-x", "jp-army", "w4724")
        unit(raw, "jp-y", "jp-army", "w4724")
        raw["force_pool"]["western"]["br-fe-infantry"] = 1

    for keep, held in (("nei-infantry", None), ("br-fe-infantry", "nei-infantry")):
        z = scenario("zhejiang", abda)
        _, z = when(z, "attack w4723 with jp-x jp-y", [5])  # 8 v 3 is 2-1, the river 1L: 1-1, die 5: 1/1
        assert z.combat.result == "1/1" and step(z) == "attacker-losses"
        _, z = when(z, "lose jp-x as jp-division")
        events, z = when(z, f"lose abda-1 as {keep}")
        lost = next(e for e in events if isinstance(e, StepLost))
        assert (lost.replacement_kind, lost.from_holding) == (keep, keep == "nei-infantry")
        assert (lost.box_kind, lost.held_kind) == ("abda-army", held)  # the counter to its Force Pool (ruling D84)
        assert any(u.kind == keep and u.hex == "w4723" for u in z.units.values())


def test_4_2_6_2_abda_keeps_its_british_component_only_if_the_force_pool_holds_one():
    """The Holding Box holds the NEI infantry and the Western Force Pool no British FE infantry: the step loss takes
    the NEI unit from the Holding Box into the hex, the only way left (4.2.6.2, D27); no FE unit appears from an empty
    pool. Rules version 3 offered the FE unit all the same (ruling D41)."""
    from app.rules.daisenso import played_under

    def abda(raw):
        unit(raw, "abda-1", "abda-army", "w4723", holding=["nei-infantry"])
        unit(raw, "jp-x", "jp-army", "w4724")
        unit(raw, "jp-y", "jp-army", "w4724")

    def hit(version: str):
        state = played_under(scenario("zhejiang", abda), version)
        assert "br-fe-infantry" not in state.force_pool["western"]
        _, state = when(state, "attack w4723 with jp-x jp-y", [5])  # 1-1, die 5: 1/1 (as DS-15)
        return when(state, "lose jp-x as jp-division")

    events, state = hit("4")
    lost = next(e for e in events if isinstance(e, StepLost) and e.unit == "abda-1")
    assert (lost.replacement_kind, lost.box_kind, lost.from_holding) == ("nei-infantry", "br-fe-infantry", True)
    assert [u.kind for u in state.units.values() if u.hex == "w4723"] == ["nei-infantry"]
    _, old = hit("3")
    assert orders(old) == {"lose abda-1 as nei-infantry", "lose abda-1 as br-fe-infantry"}


def test_4_2_2_a_lone_detachment_marker_falls_without_a_die_and_allows_advance_not_exploitation():
    """4.2.2: the attacker may Advance After Combat, no Exploitation: the prompt asks for an advance alone and lists
    no `exploit`, which is refused by 4.2.2 (rules version 12, ruling D62); a game of version 11 offered both and
    refused the Exploitation by 4.2.8, as played."""
    from app.rules.daisenso import played_under

    storm = scenario("august-storm", lambda r: unit(r, "ru-tk", "ru-tank", "e3309", blitz=True))
    _, storm = when(storm, "next")
    events, storm = when(storm, "attack e3310 with ru-tk")  # armor, yet no Exploitation after this win
    assert MarkersToDelayBox("e3310", ["detachment-japan"], "axis") in events
    assert not any(isinstance(e, CombatResolved) for e in events) and storm.delay_box["axis"] == {"detachment-japan": 1}
    prompt = GAME.prompt(storm)
    assert prompt.step == "combat at e3310: Advance After Combat"
    assert tuple(a.name for a in prompt.actions) == ("advance", "stop")
    assert prompt.owed.what == ("advance into the defending hex, or stop (4.2.7; no Exploitation: an attack on "
                                "markers alone allows Advance After Combat, not Exploitation, 4.2.2)")
    assert orders(storm) == {"advance ru-tk", "stop"}
    assert refused(storm, "exploit ru-tk e3310 e3210", "Dai Senso 4.2.2") == \
        "Dai Senso 4.2.2: an attack on markers alone allows Advance After Combat, not Exploitation"
    old = played_under(storm, "11")
    assert tuple(a.name for a in GAME.prompt(old).actions) == ("advance", "exploit", "stop")
    assert GAME.prompt(old).owed.what == "advance or exploit into the defending hex, or stop (4.2.7, 4.2.8)"
    assert "Advance, not Exploitation" in refused(old, "exploit ru-tk e3310 e3210", "Dai Senso 4.2.8")
    events, storm = when(storm, "advance ru-tk")
    assert UnitAdvanced("ru-tk", ["e3310"]) in events and storm.combat is None


# -- 4.3 and the end -----------------------------------------------------------------------------------------------
def test_4_3_convoys_return_markers_are_set_aside_and_the_other_faction_fights_next():
    strait = scenario("strait")
    _, strait = when(strait, "next")  # end of Blitz Combat: CV Strikes return
    _, strait = when(strait, "next")  # end of Regular Combat
    assert step(strait) == "convoys" and orders(strait) == {"convoy east-china-sea", "next"}
    _, strait = when(strait, "convoy east-china-sea")
    events, strait = when(strait, "next")
    assert strait.convoys["western/east-china-sea"] == {"convoys": 1, "used": 0}
    assert not strait.has_marker("western", "blitz") and not any(u.blitz for u in strait.units.values()
                                                               if u.faction == "western")
    assert (strait.combat_phase, strait.phasing, step(strait)) == (2, "axis", "regular-combat")


def test_d16_the_scenario_ends_after_its_combat_phases_with_the_holder_of_its_hexes():
    strait = scenario("strait")
    for _ in range(6):
        if step(strait) == "over":
            break
        _, strait = when(strait, "next")
    assert step(strait) == "over" and GAME.outcome(strait).winner == "axis"
    assert "does not hold w4324" in GAME.outcome(strait).reason
    ended = [e for e in when(scenario("strait"), "next")[0] if isinstance(e, GameEnded)]
    assert not ended


def test_4_2_5_3_voluntary_conversion_in_chita_and_d20_kwantung_advances_only_while_no_china_is_under_a_policy():
    def kantokuen(raw, policy=()):
        raw.update(phasing="axis", phase="regular", policy=list(policy))
        raw["marker"] = [m for m in raw["marker"] if m["kind"] != "blitz"]
        drop(raw, "ru-transbaikal", "ru-12-af")
        unit(raw, "kw-6-army", "kwantung-army", "e3608")

    for policy in ((), ("china",)):
        chita = scenario("august-storm", lambda r, p=policy: kantokuen(r, p))
        _, chita = when(chita, "attack e3609 with kw-6-army", [6])  # 4 v 2, the City 1L: 1-1, die 6: Dr1
        assert chita.combat.result == "Dr1" and step(chita) == "retreat"
        assert "convert ru-chita-garrison" in orders(chita)  # a City without a Blitz marker (4.2.5.3)
        _, chita = when(chita, "convert ru-chita-garrison")
        if policy:
            assert chita.combat is None  # Nationalist China under a Policy: no advance out of a Dependent (D20)
        else:
            events, chita = when(chita, "advance kw-6-army")
            assert chita.units["kw-6-army"].hex == "e3609"


def test_d17_d18_d23_a_failure_marker_a_truce_or_pre_war_stops_an_attack():
    def western(raw, **more):
        raw.update(phasing="western", phase="regular", **more)

    failing = scenario("zhejiang", western)
    assert "Failure marker in w4620" in refused(
        failing, "attack w4520 with cn-szechwan-war-zone", "Dai Senso 4.2.1.1")
    truce = scenario("zhejiang", lambda r: western(r, truce=[{"factions": ["axis", "western"]}]))
    assert "at truce" in refused(truce, "attack w4520 with cn-chungking-hq", "Dai Senso 4.2.1.1")
    pre_war = scenario("zhejiang", lambda r: western(r, pre_war=True))
    assert "Pre-War" in refused(pre_war, "attack w4520 with cn-chungking-hq", "Dai Senso 4.2.1.1")


# -- found by the issue 17 audit -----------------------------------------------------------------------------------
def test_4_2_1_2_an_hq_that_attacked_gives_no_ranged_support_later_in_the_segment():
    z = scenario("zhejiang", lambda r: unit(r, "cn-x", "kiangsu-res", "w4825"))
    _, z = when(z, "attack w4825 with jp-china-hq", [6])  # the HQ attacks from w4725 itself
    while z.combat is not None:
        z = _settle(z)
    assert "already took part in a combat" in refused(
        z, "attack w4624 with jp-13-army hq jp-china-hq", "Dai Senso 4.2.1.2")


def test_4_2_6_2_a_broken_down_counter_goes_where_an_eliminated_one_would_delay_box_or_out_of_the_game():
    z = scenario("zhejiang")
    _, z = when(z, "attack w4624 with jp-13-army jp-3-tank jp-22-div hq jp-china-hq")
    _, z = when(z, "support cn-3-hq", [6])
    events, z = when(z, "convert cn-3-hq as kiangsu-res")
    assert z.delay_box["western"] == {"kmt-hq": 1}  # the KMT HQ has a Delay Stripe
    assert z.force_pool["western"]["kiangsu-res"] == 1
    ig = position("western", "axis", [("us-a", "us-army", "w4220"), ("us-b", "us-army", "w4320"),
                                      ("us-c", "us-army", "w4321"), ("jp-ig", "jp-ig-hq", "w4221")],
                  force_pool={"axis": {"jp-division": 1}, "western": {"us-infantry": 1}})
    _, ig = when(ig, "attack w4221 with us-a us-b us-c", [5])  # 12 v 5: 2-1, the HQ 1L: 1-1, die 5: 1/1
    events, ig = when(ig, "lose us-a as us-infantry")
    broken = next(e for e in events if isinstance(e, StepLost) and e.unit == "us-a")
    assert GAME.describe(broken).endswith("us-army to the Force Pool")  # no Delay Stripe: its Force Pool
    assert ig.force_pool["western"].get("us-army") == 1
    lost = next(e for e in events if isinstance(e, StepLost) and e.unit == "jp-ig")
    assert (lost.replacement_kind, lost.box) == ("jp-division", "")  # the IG HQ leaves the game
    assert "jp-ig-hq" not in ig.force_pool.get("axis", {}) and not ig.delay_box.get("axis")


def _beachhead_at_w4425(phasing: str, units: list[tuple]):
    return position(phasing, "axis" if phasing == "western" else "western", units, hold="w4324",
                    marker=[{"kind": "beachhead", "faction": "western", "hex": "w4425", "toward": "w4324"}])


def test_4_2_1_1_and_4_2_1_3_a_stack_at_sea_is_attacked_across_its_beachhead_hexside_or_by_marines_only():
    axis = _beachhead_at_w4425("axis", [("us-a", "us-army", "w4425"), ("jp-d", "jp-division", "w4324"),
                                        ("jp-e", "jp-division", "w4424"), ("jp-s", "jp-snlf", "w4424")])
    assert "All-Sea hexside w4424/w4425" in refused(axis, "attack w4425 with jp-e", "Dai Senso 4.2.1.1")
    assert preview(axis, "attack w4425 with jp-d")["column"]  # across the Beachhead Hexside: any unit
    assert preview(axis, "attack w4425 with jp-s")["column"]  # a supplied marine: any All-Sea hexside
    western = _beachhead_at_w4425("western", [("us-a", "us-army", "w4425"), ("us-m", "us-marine", "w4425",
                                                                          {"blitz": True}),
                                              ("jp-e", "jp-division", "w4424")])
    assert "All-Sea hexside" in refused(western, "attack w4424 with us-a", "Dai Senso 4.2.1.1")
    p = preview(western, "attack w4424 with us-m")  # from its Beachhead across another All-Sea hexside
    assert any("4.2.3.6" in s for s in p["shifts"]) and any(s.startswith("2L") and "hexside" in s
                                                            for s in p["shifts"])


def test_4_1_3_1_an_snlf_beachhead_lands_one_detachment_and_d19_not_into_a_policy_affected_country():
    def snlf(raw, policy=()):
        raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                          {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        raw["force_pool"]["axis"]["detachment-japan"] = 2
        raw["policy"] = list(policy)

    z = scenario("zhejiang", snlf)
    _, z = when(z, "next")
    _, z = when(z, "snlf w4626")
    assert z.force_pool["axis"]["detachment-japan"] == 1 and "snlf w4626" not in orders(z)
    assert "yet to land" in refused(z, "snlf w4626", "Dai Senso 4.1.3.1")
    closed = scenario("zhejiang", lambda r: snlf(r, ["kiangsu"]))  # w4725 is in Kiangsu
    _, closed = when(closed, "next")  # no landing possible: the step passes by itself (rules version 13, ruling D64)
    assert step(closed) == "regular-combat"

    def and_another(raw):  # a second SNLF Beachhead-0 off w4524, in Chekiang, keeps the step open
        snlf(raw, ["kiangsu"])
        raw["marker"].append({"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4525", "toward": "w4524"})

    _, closed = when(scenario("zhejiang", and_another), "next")
    assert step(closed) == "landing" and orders(closed) == {"snlf w4525", "next"}
    assert "Policy Affected" in refused(closed, "snlf w4626", "Dai Senso 4.1.3.1")


def test_4_1_3_a_ground_unit_on_an_snlf_beachhead_0_makes_a_beachhead_landing():
    """An SNLF Beachhead-0 is a Beachhead marker with a Beachhead Hexside (4.1.3.1): a supplied, Blitz-enabled
    Japanese division on it lands across that hexside as from any Beachhead (4.1.3), besides the Detachment the
    marker lands on its own. Rules version 3 let only units on a plain Beachhead land (ruling D39)."""
    from app.rules.daisenso import played_under

    def snlf(raw):
        raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                          {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        unit(raw, "jp-x", "jp-division", "w4626", blitz=True)

    _, z = when(scenario("zhejiang", snlf), "next")
    assert step(z) == "landing" and orders(z) == {"land jp-x", "next"}
    _, z = when(z, "land jp-x")
    assert z.units["jp-x"].hex == "w4725"
    _, old = when(played_under(scenario("zhejiang", snlf), "3"), "next")
    assert "land jp-x" not in orders(old)


def test_4_2_5_an_attacking_stack_retreating_into_friends_takes_them_into_the_rest_of_its_results():
    z = scenario("zhejiang", lambda r: unit(r, "jp-x", "jp-division", "w4421"))
    events, z = when(z, "attack w4620 with jp-15-army", [1])  # 4 v 6, 3 left: 1-3, die 1: Ad 1/0
    assert next(e for e in events if isinstance(e, CombatResolved)).result == "Ad 1/0"
    events, z = when(z, "retreat w4520 to w4421")
    assert StackRetreated(["jp-15-army"], "w4520", "w4421", ["jp-x"], False) in events
    assert "lose jp-x" in orders(z)  # the Attrition step may come from the unit caught up in the retreat
    assert z.units["jp-x"].attacked  # involved in the combat: it attacks no more this segment (ruling D32)


def test_4_1_3_no_beachhead_landing_into_a_hex_holding_an_enemy_unit():
    _, held = when(scenario("strait"), "next")  # Taihoku still held: nothing may land, the step passes
    assert step(held) == "regular-combat"
    _, open_beach = when(scenario("strait", lambda r: drop(r, "jp-taihoku-fort", "jp-9-div")), "next")
    assert step(open_beach) == "landing"


def test_4_2_3_1_and_4_2_3_5_air_units_give_no_shift_in_mud_only_from_the_hex_in_storms_and_hqs_shift_both_ways():
    def battle(weather=None, air_hex="w4320"):
        return position("axis", "western", [
            ("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4322"), ("jp-air", "jp-air", air_hex),
            ("cn-a", "kmt-army", "w4221"), ("cn-hq", "kmt-hq", "w4221"), ("cn-air", "chinese-air", "w4223")],
            weather={weather: ["w4221"]} if weather else {})

    def shifts(state, order="attack w4221 with jp-a"):
        return sorted(s.split(" (")[0] + " " + s.split("Dai Senso ")[1].split(":")[0]
                      for s in preview(state, order)["shifts"])

    assert shifts(battle()) == ["1L 4.2.3.5", "1R 4.2.3.1"]  # the Chinese Air Force two hexes off: none
    assert shifts(battle("mud")) == ["1L 4.2.3.5", "1L 4.2.3.7"]
    assert shifts(battle("storms")) == ["1L 4.2.3.5"]  # adjacent in Storms: no shift
    assert shifts(battle("storms", "w4221")) == ["1L 4.2.3.5", "1R 4.2.3.1"]  # in the defending hex: the shift
    hq = position("axis", "western", [("jp-a", "jp-army", "w4220"), ("jp-hq", "jp-hq", "w4320"),
                                      ("cn-a", "kmt-army", "w4221")])
    assert shifts(hq) == [] and shifts(hq, "attack w4221 with jp-a jp-hq") == ["1R 4.2.3.5"]


def test_4_2_7_an_hq_that_attacked_from_next_door_does_not_advance_but_the_others_do():
    state = position("axis", "western", [("jp-a", "jp-army", "w4220"), ("jp-hq", "jp-hq", "w4320"),
                                         ("cn-r", "kiangsu-res", "w4221")])
    _, state = when(state, "attack w4221 with jp-a jp-hq", [6])  # 7 v 1: 6-1, HQ 1R: 9-1, die 6: Dr3 0/2
    while state.combat is not None and step(state) != "advance":
        state = _settle(state)
    assert "may not Advance" in refused(state, "advance jp-hq", "Dai Senso 4.2.7")
    assert orders(state) == {"advance jp-a", "stop"}  # no armor-type unit attacked: no Exploitation


def test_4_2_8_without_an_armor_type_unit_the_advance_prompt_offers_no_exploitation():
    """4.2.8: Exploitation only where the attacking force included an armor-type unit: after an infantry attack
    the prompt asks for an advance alone and `exploit` is refused by 4.2.8 (rules version 12, ruling D62)."""
    state = position("axis", "western", [("jp-a", "jp-army", "w4220"), ("cn-r", "kiangsu-res", "w4221")])
    _, state = when(state, "attack w4221 with jp-a", [6])
    while state.combat is not None and step(state) != "advance":
        state = _settle(state)
    prompt = GAME.prompt(state)
    assert prompt.step == "combat at w4221: Advance After Combat"
    assert tuple(a.name for a in prompt.actions) == ("advance", "stop")
    assert prompt.owed.what == ("advance into the defending hex, or stop (4.2.7; no Exploitation: no armor-type "
                                "unit attacked here: Advance, not Exploitation, 4.2.8)")
    assert refused(state, "exploit jp-a w4221", "Dai Senso 4.2.8") == \
        "Dai Senso 4.2.8: no armor-type unit attacked here: Advance, not Exploitation"


def test_4_3_step_3_axis_ground_units_left_at_sea_without_a_beachhead_are_eliminated():
    def at_sea(raw):
        raw["marker"] += [{"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        unit(raw, "jp-snlf", "jp-snlf", "w4626")
        raw.update(phase="marker")

    z = scenario("zhejiang", at_sea)
    assert step(z) == "convoys"
    _, z = when(z, "next")
    assert "jp-snlf" not in z.units and z.delay_box["axis"] == {"jp-snlf": 1}  # it has a Delay Stripe
    assert not z.markers_at("w4626")


def test_d15_an_overstacked_hex_at_the_segments_end_is_owed_by_its_owner_and_the_prompt_says_how_many():
    z = scenario("zhejiang", lambda r: [unit(r, f"jp-x{n}", "jp-division", "w4524") for n in (1, 2)])
    crowded = replace(z, units={**z.units, "jp-13-army": replace(z.units["jp-13-army"], hex="w4524")})
    _, ended = when(crowded, "next")
    assert step(ended) == "overstack" and GAME.prompt(ended).side == "axis"
    owed = GAME.prompt(ended).owed
    assert owed.where == "w4524" and owed.amount == "w4524: 1 too many"
    assert {uid for uid, _ in owed.candidates} == {"jp-22-div", "jp-x1", "jp-x2", "jp-13-army"}
    assert dict(owed.candidates)["jp-x1"].endswith("in w4524") and "ruling D15" in owed.what
    _, after = when(ended, "eliminate jp-x1")
    assert step(after) != "overstack" and "jp-x1" not in after.units  # eliminated: back to its Force Pool


def test_the_combat_panel_of_a_resolved_attack_reads_its_odds_result_and_every_face():
    from app.rules.daisenso.view import combat_summary

    z = scenario("zhejiang")
    _, declared = when(z, "attack w4624 with jp-13-army jp-3-tank jp-22-div")
    events, _ = when(declared, "support", [6])
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    before = declared
    for e in events[:events.index(resolved)]:
        before = GAME.evolve(before, e)
    panel = combat_summary(resolved, before)
    assert (panel["attacker"], panel["hex"], panel["column"], panel["roll"]) == ("axis", "w4624", resolved.column, 6)
    assert (panel["attack"], panel["defence"], panel["odds"]) == (resolved.attack, resolved.defence, resolved.odds)
    assert panel["attackers"] == ["jp-13-army", "jp-3-tank", "jp-22-div"] and panel["defender"] == "allied"
    assert panel["result"] == resolved.result and panel["case"] == "Dai Senso 4.2.2"
    assert [d["roll"] for d in panel["distribution"]] == [1, 2, 3, 4, 5, 6]
    assert next(d["result"] for d in panel["distribution"] if d["roll"] == 6) == resolved.result
    assert combat_summary(resolved, z) is None  # no combat under way


def test_4_3_step_2_with_no_marker_to_set_aside_and_no_blitz_enabled_unit_nothing_is_cleared():
    from app.rules.daisenso.events import MarkersCleared

    cleared = ("blitz", "totsugeki", "failure", "snlf-beachhead-0")
    quiet = scenario("zhejiang", lambda r: r.update(marker=[m for m in r["marker"] if m["kind"] not in cleared]))
    events, _ = when(quiet, "next")  # the Axis segment ends: no convoys to return, then the Marker Segment
    assert not [e for e in events if isinstance(e, MarkersCleared)]
    events, _ = when(scenario("zhejiang"), "next")
    assert [(e.faction, e.kinds) for e in events if isinstance(e, MarkersCleared)] == [("axis", ["totsugeki"])]


def test_the_history_line_of_a_step_loss_says_where_the_counter_goes():
    from app.rules.daisenso.events import StepLost

    assert GAME.describe(StepLost("cn-x", "attrition", box="delay")) == "cn-x is eliminated (to the Delay Box)"
    assert GAME.describe(StepLost("cn-x", "attrition", box="pool")) == "cn-x is eliminated (to the Force Pool)"
    assert GAME.describe(StepLost("jp-ig", "attrition")) == "jp-ig is eliminated (out of the game)"
    assert GAME.describe(StepLost("cn-9", "attrition", becomes="kiangsu-res")) == "cn-9 loses a step: now kiangsu-res"
    line = GAME.describe(StepLost("cn-3-hq", "Dr", replacement="kiangsu-res.1", replacement_kind="kiangsu-res",
                                  box="pool", box_kind="kmt-hq"))
    assert line == "cn-3-hq loses a step: kiangsu-res.1 (kiangsu-res) takes its place, kmt-hq to the Force Pool"


def test_d15_an_overstack_at_the_blitz_segments_end_is_settled_before_regular_combat():
    storm = scenario("august-storm")
    crowded = replace(storm, units={**storm.units, **{uid: replace(storm.units[uid], hex="e3510")
                                                      for uid in ("ru-chita-garrison", "mpr-cav")}})
    ended, passed = crowded, []
    while step(ended) != "overstack":  # the Blitz segment's steps, to its end (4.1.5): stacks conform (D15)
        passed.append(step(ended))
        _, ended = when(ended, "next")
    assert passed[0] == "airdrop" and "regular-combat" not in passed
    assert GAME.prompt(ended).owed.where == "e3510"
    _, after = when(ended, "eliminate mpr-cav")
    assert step(after) == "regular-combat"


def test_4_2_7_an_enemy_marker_other_than_a_beachhead_left_in_the_emptied_hex_does_not_stop_the_advance():
    def stronger(raw):
        unit(raw, "jp-40-div", "jp-division", "w4524")
        unit(raw, "jp-34-army", "jp-army", "w4625")
        unit(raw, "jp-air", "jp-air", "w4523")
        raw["marker"].append({"kind": "logistics-western", "faction": "western", "hex": "w4624"})

    z = scenario("zhejiang", stronger)
    _, z = when(z, "attack w4624 with jp-13-army jp-3-tank jp-34-army jp-22-div jp-40-div hq jp-china-hq")
    _, z = when(z, "support cn-3-hq", [6])
    for order in ("convert cn-3-hq as kiangsu-res", "retreat to w4623", "retreat to w4722"):
        _, z = when(z, order)
    _, z = when(z, sorted(o for o in orders(z) if o.startswith("lose "))[0])
    assert any(m.kind == "logistics-western" and m.hex == "w4624" for m in z.markers)
    assert step(z) == "advance" and "advance jp-13-army" in orders(z)


def test_4_1_4_an_airdrop_refused_its_kind_is_told_every_kind_that_may_land():
    def western_drop(raw):
        raw["marker"].append({"kind": "airdrop-western", "faction": "western", "hex": "w4424"})
        raw["force_pool"]["western"]["br-fe-infantry"] = 1

    strait = scenario("strait", western_drop)
    while step(strait) != "airdrop-landing":
        _, strait = when(strait, "next")
    assert refused(strait, "airland w4424 us-marine", "Dai Senso 4.1.4").endswith(
        "us-marine cannot land: a one-step, non-elite infantry of its nationality (br-fe-infantry, us-infantry)")


def test_4_2_6_1_a_marine_that_attacked_across_a_strait_still_owes_the_first_step_after_its_stack_retreats():
    """Ad 1/0: the stack that attacked Taihoku from Foochow across the strait falls back a hex; the attrition step
    that follows is the force's first loss, so it is the marine's (where the marine stands now does not matter)."""
    state = position("western", "axis", [("us-mar", "us-marine", "w4424"), ("us-inf", "us-infantry", "w4424"),
                                         ("jp-a", "jp-army", "w4324")], hold="w4324")
    events, state = when(state, "attack w4324 with us-mar us-inf", [1])  # 4 v 4, City and strait 2L: 1-3
    assert next(e for e in events if isinstance(e, CombatResolved)).result == "Ad 1/0"
    events, state = when(state, "retreat w4424 to w4524")
    assert StepLost("us-mar", "attacker", box="delay", box_kind="us-marine") in events  # the only choice (D27)
    assert "us-mar" not in state.units and state.units["us-inf"].kind == "us-infantry"


def test_4_2_6_1_once_a_marine_attacks_across_the_strait_any_marine_step_is_the_first_loss():
    """Two marines attack Taihoku, one from Foochow across the strait, one overland from Takao: the force includes
    a marine attacking across a Strait Hexside, so its first step loss must be a marine step, and either marine's
    is one (4.2.6.1 asks for a marine step, not that marine's). Rules version 3 took it from the marine that
    crossed, with no choice left (ruling D40)."""
    from app.rules.daisenso import played_under

    def ad(version: str):
        state = played_under(position("western", "axis", [
            ("us-mar", "us-marine", "w4424"), ("us-m2", "us-marine", "w4224"), ("jp-a", "jp-army", "w4324")],
            hold="w4324"), version)
        return when(state, "attack w4324 with us-mar us-m2", [1])  # 4 v 4, City and strait 2L: 1-3, Ad 1/0

    events, state = ad("4")
    assert next(e for e in events if isinstance(e, CombatResolved)).result == "Ad 1/0"
    assert {"lose us-mar", "lose us-m2"} <= orders(state) and not any(isinstance(e, StepLost) for e in events)
    events, state = when(state, "lose us-m2")
    assert StepLost("us-m2", "ad", box="delay", box_kind="us-marine") in events  # the Ad step, the choice made
    assert StepLost("us-mar", "attacker", box="delay", box_kind="us-marine") in events  # then the attrition step
    events, _ = ad("3")
    assert StepLost("us-mar", "ad", box="delay", box_kind="us-marine") in events  # the only choice it gave (D27)


def test_4_2_6_1_a_game_of_rules_version_2_keeps_the_first_loss_it_was_played_with():
    from app.rules.daisenso import played_under

    state = position("western", "axis", [("us-mar", "us-marine", "w4424"), ("us-inf", "us-infantry", "w4424"),
                                         ("jp-a", "jp-army", "w4324")], hold="w4324")
    old = played_under(state, "2")
    assert played_under(state, "21") == state and old.rules_version == 2
    assert played_under(state, "20").rules_version == 20  # version 20 refused a Western-Soviet position (D87)
    assert played_under(state, "18").rules_version == 18  # version 18 put ZOC into every hex at sea by a coast (D82)
    assert played_under(state, "17").rules_version == 17  # version 17 broke a War Zone down to any Res (D79)
    assert played_under(state, "16").rules_version == 16  # version 16 listed fewer attacks and Exploitations (D71, D72)
    assert played_under(state, "15").rules_version == 15  # version 15 compared featured hexsides only (D9)
    assert played_under(state, "14").rules_version == 14  # version 14 landed no SNLF without a Blitz marker (D70)
    assert played_under(state, "12").rules_version == 12  # version 12 kept no truce on markers, no D64 (ruling D64)
    assert played_under(state, "11").rules_version == 11  # version 11 offered Exploitation after any combat (D62)
    assert played_under(state, "10").rules_version == 10  # version 10 kept D56-D58 (ruling D60)
    assert played_under(state, "9").rules_version == 9  # version 9 kept D55 (rulings D56-D58)
    assert played_under(state, "8").rules_version == 8  # version 8 kept D50, D51, D54 (ruling D55)
    assert played_under(state, "7").rules_version == 7  # version 7 kept D45, D46, D49 (rulings D50, D51)
    assert played_under(state, "6").rules_version == 6  # version 6 kept D44 (rulings D45, D46)
    assert played_under(state, "5").rules_version == 5  # version 5 kept D42, D43 (ruling D44)
    assert played_under(state, "3").rules_version == 3  # version 3 kept D37 (ruling D38)
    assert played_under(state, "4").rules_version == 4  # version 4 kept D38-D41 (rulings D42, D43)
    _, old = when(old, "attack w4324 with us-mar us-inf", [1])
    _, old = when(old, "retreat w4424 to w4524")
    assert orders(old) == {"lose us-mar", "lose us-inf"}  # version 2 looked at the hexside the marine is behind now


def test_4_2_7_an_enemy_air_unit_left_in_the_emptied_hex_stops_the_advance_and_the_exploitation():
    """The defender's Air unit does not retreat with the ground units (4.2.5); the hex still holds an enemy unit,
    so no attacker enters it (4.2.7, 4.2.8), as no Exploitation enters such a hex further on. A game of rules
    version 2 advances as it did (ruling D37)."""
    from app.rules.daisenso import played_under

    def beaten(version: str):
        state = played_under(position("soviet", "axis", [
            ("ru-ta", "ru-tank-army", "e3510"), ("ru-a", "ru-army", "e3412"), ("ru-t", "ru-tank", "e3412"),
            ("jp-d", "jp-division", "e3411"), ("jp-air", "jp-air", "e3411")], hold="e3411"), version)
        events, state = when(state, "attack e3411 with ru-ta ru-a ru-t", [6])  # 6-1, the Air unit, City, river
        assert next(e for e in events if isinstance(e, CombatResolved)).result == "Dr2"
        events, state = when(state, "retreat to e3310")
        while step(state) == "retreat":
            events, state = when(state, sorted(o for o in orders(state) if o.startswith("retreat"))[0])
        assert state.units["jp-air"].hex == "e3411" and not state.ground_at("e3411", "axis")
        return events, state

    events, state = beaten("3")
    assert step(state) != "advance" and not any(isinstance(e, UnitAdvanced) for e in events)
    assert all(u.hex != "e3411" for u in state.units.values() if u.faction == "soviet")
    _, old = beaten("2")
    assert step(old) == "advance" and "advance ru-a" in orders(old)


def test_4_2_8_a_friendly_air_unit_in_an_ezoc_hex_lets_the_exploiting_unit_go_on():
    """The tank army exploits through the emptied hex, which the Japanese division next door holds in its zone of
    control; the Soviet Air unit over that hex is another friendly unit there, so on it goes (4.2.8). Rules
    version 2 stopped it (ruling D37)."""
    from app.rules.daisenso import played_under

    def exploiting(version: str, air: bool):
        state = played_under(position("soviet", "axis", [
            ("ru-ta", "ru-tank-army", "e3510"), ("ru-a", "ru-army", "e3412"), ("ru-t", "ru-tank", "e3412"),
            ("jp-d", "jp-division", "e3411"), ("jp-x", "jp-division", "e3511"),
            *([("ru-air", "ru-air", "e3411")] if air else [])], hold="e3411"), version)
        _, state = when(state, "attack e3411 with ru-ta ru-a ru-t", [6])  # Dr3 0/1: the division retreats, dies
        for order in ("retreat to e3310", "retreat to e3210"):
            _, state = when(state, order)
        assert step(state) == "advance" and state.combat.exploit_distance == 3
        return state

    assert "must stop in e3411" in refused(exploiting("3", False), "exploit ru-ta e3411 e3410", "Dai Senso 4.2.8")
    _, state = when(exploiting("3", True), "exploit ru-ta e3411 e3410")
    assert state.units["ru-ta"].hex == "e3410"
    assert "must stop in e3411" in refused(exploiting("2", True), "exploit ru-ta e3411 e3410", "Dai Senso 4.2.8")


def test_4_2_1_2_an_hq_on_a_beachhead_supports_across_its_beachhead_hexside_up_to_two_hexes():
    """The US HQ on the Beachhead off Taihoku (w4325, pointing to w4324) supports the attack out of Taihoku on
    w4224, two hexes away across its Beachhead Hexside; w4524, two hexes away only over the sea, it cannot reach.
    Rules version 2 allowed Taihoku alone (ruling D37)."""
    from app.rules.daisenso import played_under

    def beachhead(target: str, version: str = "3"):
        return played_under(position("western", "axis", [
            ("us-hq", "us-hq", "w4325"), ("us-inf", "us-infantry", "w4324"), ("us-inf-2", "us-infantry", "w4424"),
            ("jp-d", "jp-division", target)], hold=target,
            marker=[{"kind": "beachhead", "faction": "western", "hex": "w4325", "toward": "w4324"}]), version)

    p = preview(beachhead("w4224"), "attack w4224 with us-inf hq us-hq")
    assert p["attack"] == 5 and any("4.2.3.5" in s for s in p["shifts"])  # its 3 and the HQ shift
    assert "only across its Beachhead Hexside" in refused(beachhead("w4524"), "attack w4524 with us-inf-2 hq us-hq",
                                                          "Dai Senso 4.2.1.2")
    assert "only across its Beachhead Hexside" in refused(beachhead("w4224", "2"), "attack w4224 with us-inf hq us-hq",
                                                          "Dai Senso 4.2.1.2")


def test_4_2_1_2_two_hqs_of_one_faction_do_not_attack_one_hex_together():
    """Two Japanese HQs next to the Chinese army: one of them may attack with the army, not both (one HQ of a
    faction takes part in a combat). Rules version 2 let both add their factors (ruling D37)."""
    from app.rules.daisenso import played_under

    state = position("axis", "western", [("jp-hq", "jp-hq", "w4220"), ("jp-hq2", "jp-hq", "w4320"),
                                         ("jp-a", "jp-army", "w4321"), ("cn-army", "kmt-army", "w4221")])
    assert "jp-hq, jp-hq2" in refused(state, "attack w4221 with jp-hq jp-hq2 jp-a", "Dai Senso 4.2.1.2")
    assert preview(state, "attack w4221 with jp-hq jp-a")["attack"] == 7
    assert preview(played_under(state, "2"), "attack w4221 with jp-hq jp-hq2 jp-a")["attack"] == 10


def test_4_1_3_a_normal_landing_into_an_enemy_detachment_sends_it_to_the_delay_box():
    """4.1.3 bars a landing into a hex holding an enemy unit only, so a Beachhead Landing may go into a hex holding
    an enemy Detachment or Logistics marker; the marker then goes to its Delay Box, as a Special SNLF Landing's
    does (4.1.3.1). Rules version 4 left it in the hex with the unit that landed (ruling D42)."""
    from app.rules.daisenso import played_under

    def held_by_a_detachment(raw):
        drop(raw, "jp-taihoku-fort", "jp-9-div")
        raw["marker"].append({"kind": "detachment-japan", "faction": "axis", "hex": "w4324"})

    _, z = when(scenario("strait", held_by_a_detachment), "next")
    assert step(z) == "landing" and "land us-10-army" in orders(z)
    events, z = when(z, "land us-10-army")
    assert MarkersToDelayBox("w4324", ["detachment-japan"], "axis") in events
    assert z.units["us-10-army"].hex == "w4324" and not z.markers_at("w4324", ("detachment-japan",))
    assert z.delay_box["axis"] == {"detachment-japan": 1}
    _, old = when(played_under(scenario("strait", held_by_a_detachment), "4"), "next")
    _, old = when(old, "land us-10-army")
    assert old.markers_at("w4324", ("detachment-japan",)) and "axis" not in old.delay_box


def test_4_1_2_the_weather_ban_is_on_units_so_a_hex_holding_only_markers_falls_to_a_blitz():
    """4.1.2 bars Blitz attacks on units in hexes under Mud, Storms or Snow; a Detachment or Logistics marker is not
    a unit (4.2.1, 4.1.3.1 name them apart), so a Blitz attack on a hex holding only such markers takes them
    without a die (4.2.2) whatever the weather. A hex under Mud with a unit in it is still barred. Rules version 4
    barred both (ruling D43)."""
    from app.rules.daisenso import played_under

    def muddy(raw):
        unit(raw, "ru-tk", "ru-tank", "e3309", blitz=True)
        raw["weather"]["mud"] = ["e3311", "e3310"]

    _, storm = when(scenario("august-storm", muddy), "next")
    events, after = when(storm, "attack e3310 with ru-tk")
    assert MarkersToDelayBox("e3310", ["detachment-japan"], "axis") in events
    assert not any(isinstance(e, CombatResolved) for e in events)
    assert not after.markers_at("e3310") and "advance ru-tk" in orders(after)
    held = scenario("august-storm", lambda r: (muddy(r), unit(r, "kw-x", "kwantung-division", "e3310")))
    _, held = when(held, "next")
    assert "under mud" in refused(held, "attack e3310 with ru-tk", "Dai Senso 4.1.2")
    _, old = when(played_under(scenario("august-storm", muddy), "4"), "next")
    assert "under mud" in refused(old, "attack e3310 with ru-tk", "Dai Senso 4.1.2")


def test_4_2_7_and_4_2_8_an_unsupplied_attacker_neither_advances_nor_exploits():
    """Only supplied ground units of the attacking force Advance After Combat (4.2.7) or Exploit (4.2.8); an
    unsupplied one attacks (4.2.1) but stays where it is when the hex is emptied."""
    state = position("axis", "western", [("jp-a", "jp-army", "w4220", {"supplied": False}),
                                         ("jp-t", "jp-tank", "w4320", {"supplied": False}),
                                         ("jp-b", "jp-army", "w4320"), ("cn-r", "kiangsu-res", "w4221")])
    _, state = when(state, "attack w4221 with jp-a jp-t jp-b", [6])
    while state.combat is not None and step(state) != "advance":
        state = _settle(state)
    assert "may not Advance" in refused(state, "advance jp-a", "Dai Senso 4.2.7")
    assert "may not Exploit" in refused(state, "exploit jp-t w4221", "Dai Senso 4.2.8")
    assert "advance jp-b" in orders(state) and not any(o.endswith(("jp-a", "jp-t")) for o in orders(state))


def test_4_1_1_4_1_3_and_4_1_3_1_an_unsupplied_unit_or_marker_neither_airdrops_nor_lands():
    """An Airdrop needs a supplied airborne unit (4.1.1), a Beachhead Landing a supplied ground unit (4.1.3), a
    Special SNLF Landing a supplied SNLF Beachhead-0 (4.1.3.1): each step with nothing supplied to act passes by
    itself (ruling D26)."""
    assert step(scenario("august-storm")) == "airdrop"
    assert step(scenario("august-storm", _unsupplied("ru-1-abde"))) == "blitz-combat"
    open_beach = lambda r: drop(r, "jp-taihoku-fort", "jp-9-div")  # noqa: E731
    assert step(when(scenario("strait", open_beach), "next")[1]) == "landing"
    cut_off = scenario("strait", lambda r: (open_beach(r), _unsupplied("us-10-army")(r)))
    assert step(when(cut_off, "next")[1]) == "regular-combat"

    def snlf(supplied):
        def change(raw):
            raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                              {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725",
                               "supplied": supplied}]
            raw["force_pool"]["axis"]["detachment-japan"] = 1
        return change

    assert "snlf w4626" in orders(when(scenario("zhejiang", snlf(True)), "next")[1])
    unsupplied = when(scenario("zhejiang", snlf(False)), "next")[1]
    assert step(unsupplied) == "regular-combat" and "detachment-japan" not in {m.kind for m in unsupplied.markers}


def test_4_1_4_an_unsupplied_airdrop_marker_goes_to_the_delay_box_and_a_supplied_one_may_land():
    def two_drops(raw):
        raw["marker"] += [{"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3409", "supplied": False},
                          {"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3309"}]

    storm = scenario("august-storm", two_drops)
    _, storm = when(storm, "next")  # no Airdrop this time
    events, storm = when(storm, "next")  # no Blitz attack; nothing to land from a Beachhead
    assert step(storm) == "airdrop-landing"
    assert AirdropToDelayBox("e3409", "soviet", False) in events  # one marker at a time (ruling D51)
    assert storm.delay_box["soviet"] == {"ru-airborne": 1}  # the airborne unit on the marker's other side
    assert "airland e3309 ru-infantry" in orders(storm) and not any("e3409" in o for o in orders(storm))
    _, storm = when(storm, "airland e3309 ru-infantry")  # a position's marker lands as one the Airdrop placed
    assert [u.kind for u in storm.at("e3309")] == ["ru-infantry"]
    assert storm.delay_box["soviet"] == {"ru-airborne": 2}


def test_4_1_2_an_hq_not_blitz_enabled_gives_no_ranged_support_to_a_blitz_attack_but_does_to_a_regular_one():
    slow_hq = scenario("strait", lambda r: [u.update(blitz=False) for u in r["unit"] if u["id"] == "us-hq-pac"])
    order = "attack w4324 with us-3-mac hq us-hq-pac"
    assert "not Blitz-enabled" in refused(slow_hq, order, "Dai Senso 4.1.2")  # the Blitz limit (ruling D73)
    _, regular = when(slow_hq, "next")
    assert step(regular) == "regular-combat" and "4.2.3.5" in _shift_cases(regular, order)


def test_4_2_2_step_2_a_defending_hex_holding_an_hq_gets_no_other_hqs_ranged_support():
    in_range = lambda r: unit(r, "cn-x-hq", "kmt-hq", "w4719")  # noqa: E731  two hexes from Chungking
    _, asked = when(scenario("zhejiang", lambda r: (in_range(r), drop(r, "cn-chungking-hq"))),
                    "attack w4620 with jp-15-army")
    assert asked.pending[0]["kind"] == "defender-hq"
    events, held = when(scenario("zhejiang", in_range), "attack w4620 with jp-15-army", [1])
    assert any(isinstance(e, CombatResolved) for e in events) and held.combat.defender_hq is None


def test_4_2_5_2_a_defending_force_with_a_fortress_cannot_retreat_and_converts_the_result():
    def fight(*more):
        return position("western", "axis", [("us-a", "us-army", "w4320"), ("us-b", "us-army", "w4320"),
                                            ("us-c", "us-army", "w4321"), ("us-d", "us-army", "w4321"),
                                            ("jp-d", "jp-division", "w4221"), *more])

    order = "attack w4221 with us-a us-b us-c us-d"
    events, free = when(fight(), order, [1])  # 6-1, die 1: Dr1; w4120 is free of EZOC
    assert StackRetreated(["jp-d"], "w4221", "w4120", [], True) in events
    _, held = when(fight(("jp-f", "jp-fortress", "w4221")), order, [5])  # the fortress's 1L, 2-1: Dr1
    assert held.combat.result == "Dr1" and orders(held) == {"convert jp-d", "convert jp-f"}  # MA 0: no retreat


def test_4_2_7_a_unit_with_a_movement_allowance_of_0_does_not_advance():
    state = position("axis", "western", [("jp-a", "jp-army", "w4220", {"values": {"attack": 7, "defense": 4, "ma": 0}}),
                                         ("jp-b", "jp-army", "w4320"), ("cn-r", "kiangsu-res", "w4221")])
    _, state = when(state, "attack w4221 with jp-a jp-b", [6])  # Dr3 0/2
    while state.combat is not None and step(state) != "advance":
        state = _settle(state)
    assert orders(state) == {"advance jp-b", "stop"}
    assert "may not Advance" in refused(state, "advance jp-a", "Dai Senso 4.2.7")


def test_4_2_5_3_no_voluntary_conversion_in_a_city_holding_a_blitz_marker():
    def kantokuen(raw, blitz_in_chita):
        raw.update(phasing="axis", phase="regular")
        raw["marker"] = [m for m in raw["marker"] if m["kind"] != "blitz"]
        if blitz_in_chita:
            raw["marker"].append({"kind": "blitz", "faction": "soviet", "hex": "e3609"})
        drop(raw, "ru-transbaikal", "ru-12-af")
        unit(raw, "kw-6-army", "kwantung-army", "e3608")

    for blitz_in_chita in (False, True):
        chita = scenario("august-storm", lambda r, b=blitz_in_chita: kantokuen(r, b))
        _, chita = when(chita, "attack e3609 with kw-6-army", [6])  # Dr1
        assert ("convert ru-chita-garrison" in orders(chita)) is not blitz_in_chita
        assert "retreat to e3610" in orders(chita)


def _blitz_position(*more, markers=()):
    return position("axis", "western", [*more], phase="blitz",
                    marker=[{"kind": "blitz", "faction": "axis", "hex": "w4320"}, *markers])


def test_4_2_5_2_a_retreat_does_not_enter_a_hex_holding_an_enemy_airdrop_marker():
    units = [("jp-a", "jp-army", "w4320", {"blitz": True}), ("jp-b", "jp-army", "w4320", {"blitz": True}),
             ("jp-c", "jp-army", "w4320", {"blitz": True}), ("cn-r", "kiangsu-res", "w4221")]
    _, open_ = when(_blitz_position(*units), "attack w4221 with jp-a jp-b jp-c", [1])  # Dr1 0/1
    assert {"retreat to w4120", "retreat to w4222"} <= orders(open_)
    dropped = _blitz_position(*units, markers=[{"kind": "airdrop-axis", "faction": "axis", "hex": "w4120"}])
    events, _ = when(dropped, "attack w4221 with jp-a jp-b jp-c", [1])  # the one hex left: taken at once
    assert StackRetreated(["cn-r"], "w4221", "w4222", [], True) in events


def test_4_1_1_design_note_a_friendly_airdrop_marker_negates_the_ezoc_for_a_retreat():
    """w4420 lies in the ZOC of the Chinese army in w4520; the Japanese Airdrop marker there negates it, so the
    beaten Japanese army may fall back into it under priority 1 (4.2.5.1), beside w4319."""
    units = [("jp-a", "jp-army", "w4320", {"blitz": True}), ("cn-a", "kmt-army", "w4221"),
             ("cn-b", "kmt-army", "w4221"), ("cn-c", "kmt-army", "w4520")]
    _, plain = when(_blitz_position(*units), "attack w4221 with jp-a", [3])  # Ad
    assert {o for o in orders(plain) if o.startswith("retreat")} == {"retreat w4320 to w4319"}
    dropped = _blitz_position(*units, markers=[{"kind": "airdrop-axis", "faction": "axis", "hex": "w4420"}])
    _, beaten = when(dropped, "attack w4221 with jp-a", [3])
    assert {o for o in orders(beaten) if o.startswith("retreat")} == {"retreat w4320 to w4319",
                                                                       "retreat w4320 to w4420"}


def test_4_2_6_1_after_the_first_armor_step_the_next_loss_may_come_from_any_attacker():
    state = position("axis", "western", [("jp-t", "jp-tank", "w4320"), ("jp-u", "jp-tank", "w4320"),
                                         ("jp-a", "jp-army", "w4220"), ("cn-a", "kmt-army", "w4221"),
                                         ("cn-b", "kmt-army", "w4221"), ("cn-c", "kmt-army", "w4221")])
    _, state = when(state, "attack w4221 with jp-t jp-u jp-a", [1])  # Ad 1/0
    assert {o for o in orders(state) if o.startswith("lose")} == {"lose jp-t", "lose jp-u"}
    _, state = when(state, "lose jp-t")
    assert orders(state) == {"lose jp-a", "lose jp-u"}


def test_4_2_1_an_hq_that_gave_ranged_support_attacks_no_more_in_the_segment():
    z = scenario("zhejiang", lambda r: unit(r, "cn-x", "kiangsu-res", "w4825"))
    assert preview(z, "attack w4825 with jp-china-hq")["column"]  # next door, it could attack
    _, z = when(z, "attack w4624 with jp-13-army jp-3-tank hq jp-china-hq")
    _, z = when(z, "support", [6])
    while z.combat is not None:
        z = _settle(z)
    assert "already attacked" in refused(z, "attack w4825 with jp-china-hq", "Dai Senso 4.2.1")


def test_4_2_8_only_a_force_that_included_an_armor_type_unit_exploits():
    state = position("axis", "western", [("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4320"),
                                         ("cn-r", "kiangsu-res", "w4221")])
    _, state = when(state, "attack w4221 with jp-a jp-b", [6])  # Dr3
    while state.combat is not None and step(state) != "advance":
        state = _settle(state)
    assert "no armor-type unit attacked here" in refused(state, "exploit jp-a w4221", "Dai Senso 4.2.8")


def test_d17_a_failure_marker_of_the_attacker_stops_exploitation_into_its_hex():
    def won(*markers):
        state = position("axis", "western", [("jp-t", "jp-tank", "w4220"), ("jp-a", "jp-army", "w4320"),
                                             ("cn-r", "kiangsu-res", "w4221")], marker=list(markers))
        _, state = when(state, "attack w4221 with jp-t jp-a", [6])  # Dr3 0/1: Exploitation Distance 3
        while state.combat is not None and step(state) != "advance":
            state = _settle(state)
        return state

    assert "exploit jp-t w4221 w4222" in orders(won())
    failing = won({"kind": "failure", "faction": "axis", "hex": "w4222"})
    refused(failing, "exploit jp-t w4221 w4222", "Dai Senso 4.2.8")
    assert "exploit jp-t w4221 w4120" in orders(failing)


def test_4_2_8_a_minor_countrys_unit_under_free_passage_exploits_only_inside_its_country():
    """Kiangsu holds w4724, w4725 and w4825; w4625 lies outside. The Kiangsu army (a what-if with an MA of 2, D35)
    and a US mech take w4725: under Free Passage the army may Exploit only on inside Kiangsu."""
    def won(free_passage):
        state = position("western", "axis", [
            ("ks-a", "kiangsu-war-zone", "w4724", {"values": {"attack": 6, "defense": 4, "ma": 2}}),
            ("us-m", "us-mech", "w4825"), ("jp-d", "jp-division", "w4725")], free_passage=free_passage, hold="w4725")
        _, state = when(state, "attack w4725 with ks-a us-m", [6])  # Dr3 0/1
        while state.combat is not None and step(state) != "advance":
            state = _settle(state)
        return state

    assert "exploit ks-a w4725 w4625" in orders(won([]))
    held = won(["kiangsu"])
    refused(held, "exploit ks-a w4725 w4625", "Dai Senso 4.2.8")
    assert "exploit ks-a w4725 w4724" in orders(held)


def test_4_1_4_a_game_of_rules_version_4_starts_from_its_positions_airdrop_markers_as_they_were():
    """A position's Airdrop marker carries its airborne unit since rules version 5; a game created before starts
    without it (so an automated seat's seed reads the state it read), and its marker still lands."""
    from app.rules.daisenso import played_under

    drop_in = lambda r: r["marker"].append({"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3309"})  # noqa: E731
    def origins(state):
        return [m.origin for m in state.markers if m.kind == "airdrop-soviet"]

    assert origins(scenario("august-storm", drop_in)) == ["ru-airborne"]
    old = played_under(scenario("august-storm", drop_in), "4")
    assert origins(old) == [None]
    _, old = when(old, "next")
    _, old = when(old, "next")
    _, old = when(old, "airland e3309 ru-infantry")
    assert [u.kind for u in old.at("e3309")] == ["ru-infantry"] and old.delay_box["soviet"] == {"airdrop-soviet": 1}


def test_4_2_5_4_2_7_4_2_8_enemy_markers_in_a_hex_a_unit_retreats_advances_or_exploits_into_go_to_the_delay_box():
    """4.2.5.2 lets a retreat, 4.2.7 an Advance After Combat and 4.2.8 an Exploitation enter a hex holding an enemy
    Detachment or Logistics marker; the marker then goes to its owner's Delay Box, as 4.2.2 and 4.1.3.1 send it
    when a force takes its hex. Rules version 5 left such markers in the hex with the enemy unit (ruling D44)."""
    from app.rules.daisenso import played_under

    def marked(raw):
        unit(raw, "jp-40-div", "jp-division", "w4524")
        unit(raw, "jp-34-army", "jp-army", "w4625")
        unit(raw, "jp-air", "jp-air", "w4523")
        raw["marker"] += [{"kind": "logistics-western", "faction": "western", "hex": "w4624"},
                          {"kind": "detachment-japan", "faction": "axis", "hex": "w4722"},
                          {"kind": "detachment-western", "faction": "western", "hex": "w4723"}]

    def fought(state):
        _, z = when(state, "attack w4624 with jp-13-army jp-3-tank jp-34-army jp-22-div jp-40-div hq jp-china-hq")
        _, z = when(z, "support cn-3-hq", [6])  # Dr3 0/1
        _, z = when(z, "convert cn-3-hq as kiangsu-res")
        _, z = when(z, "retreat to w4623")
        into, z = when(z, "retreat to w4722")
        _, z = when(z, sorted(o for o in orders(z) if o.startswith("lose "))[0])
        return into, z

    into, z = fought(scenario("zhejiang", marked))
    assert MarkersToDelayBox("w4722", ["detachment-japan"], "axis") in into  # 4.2.5.2: the retreat took its hex
    assert step(z) == "advance" and z.delay_box["axis"] == {"detachment-japan": 1}
    events, z = when(z, "exploit jp-3-tank w4624 w4723")
    assert [e for e in events if isinstance(e, MarkersToDelayBox)] == [
        MarkersToDelayBox("w4624", ["logistics-western"], "western"),
        MarkersToDelayBox("w4723", ["detachment-western"], "western")]
    assert z.delay_box["western"]["logistics-western"] == 1 and not z.markers_at("w4624") and not z.markers_at(
        "w4723")
    _, z = fought(scenario("zhejiang", marked))
    events, z = when(z, "advance jp-13-army")  # 4.2.7: the Advance After Combat alone takes the marker too
    assert MarkersToDelayBox("w4624", ["logistics-western"], "western") in events
    into, old = fought(played_under(scenario("zhejiang", marked), "5"))
    assert not any(isinstance(e, MarkersToDelayBox) for e in into)
    _, old = when(old, "exploit jp-3-tank w4624 w4723")
    assert {(m.kind, m.hex) for m in old.markers} >= {("detachment-japan", "w4722"), ("logistics-western", "w4624"),
                                                       ("detachment-western", "w4723")}


def test_4_2_4_1_an_ex_defenders_step_may_come_from_the_hq_giving_ranged_support():
    """Ex, the attacker having taken its step: the defending hex retreats a hex or one of the defending units
    loses a step; the HQ giving Ranged Support is one of them (4.2.2 step 3, 4.2.6) and keeps the force from
    retreating (4.2.5.2), so it may pay the step (ruling D45). A game of rules version 6 offers the hex's units
    only, as it was played."""
    from app.rules.daisenso import played_under

    def exchanged(version: str):
        state = played_under(scenario("zhejiang"), version)
        _, state = when(state, "attack w4624 with jp-13-army jp-22-div")
        _, state = when(state, "support cn-3-hq", [6])  # 1-2, die 6: Ex
        assert state.combat.result == "Ex"
        return when(state, "lose jp-22-div")[1]

    now = exchanged("7")
    assert step(now) == "exchange" and "lose cn-3-hq as kiangsu-res" in orders(now)
    events, after = when(now, "lose cn-3-hq as kiangsu-res")
    lost = next(e for e in events if isinstance(e, StepLost))
    assert (lost.unit, lost.replacement_kind) == ("cn-3-hq", "kiangsu-res")
    assert after.combat is None or after.combat.stage != "exchange"  # the Ex is satisfied: nobody retreats
    assert after.units["cn-9-war-zone"].hex == "w4624"
    assert not [o for o in orders(exchanged("6")) if "cn-3-hq" in o]


def test_4_1_4_an_airdrop_landing_sends_enemy_detachment_and_logistics_markers_to_the_delay_box():
    """The Airdrop marker may share a hex with enemy markers (4.1.1); the one-step unit landing there sends them to
    the Delay Box as every other unit placed in their hex does (ruling D46, after D42 and D44). A game of rules
    version 6 left them there."""
    from app.rules.daisenso import played_under

    def landed(version: str):
        storm = played_under(scenario("august-storm", lambda r: r["force_pool"]["soviet"].update({"ru-airborne": 1})),
                             version)
        _, storm = when(storm, "airdrop ru-1-abde e3310")  # onto the Japanese Detachment there
        _, storm = when(storm, "next")
        _, storm = when(storm, "next")
        return when(storm, "airland e3310 ru-infantry")

    events, now = landed("7")
    assert MarkersToDelayBox("e3310", ["detachment-japan"], "axis") in events
    assert not now.markers_at("e3310") and now.delay_box["axis"]["detachment-japan"] == 1
    _, old = landed("6")
    assert [m.kind for m in old.markers_at("e3310")] == ["detachment-japan"]


def test_4_2_2_step_2_the_list_of_legal_orders_says_its_odds_are_before_the_defenders_ranged_support():
    """The defender declares its HQ's Ranged Support after the attack (4.2.2 step 2), so the odds the list shows
    for an attack it may still answer are marked as before that support, in the list, its email and its page; an
    attack on a hex holding an HQ (no Ranged Support, 4.2.1.2) is not. The odds themselves, which greedy rates,
    are the same as before."""
    from app.mail.layout import render_kinds
    from app.rules.daisenso.view import ODDS_NOTE

    z = scenario("zhejiang")
    listed = {o["order"]: o for o in GAME.legal_orders(z, "axis")}
    supported = listed["attack w4624 with jp-13-army jp-22-div jp-3-tank hq jp-china-hq"]
    assert (supported["odds"], supported["odds_note"]) == ("4-1", ODDS_NOTE)
    assert "odds_note" not in listed["attack w4620 with jp-15-army"]  # Chungking's HQ is in the hex
    kinds = [{"action": "attack", "orders": [supported]}]
    assert ("(odds column 4-1, before the defender's Ranged Support (Dai Senso 4.2.2 step 2))"
            in render_kinds(kinds, [{"name": "attack", "syntax": "attack HEX", "case": "Dai Senso 4.2.2"}]))
    _, asked = when(z, supported["order"])
    events, _ = when(asked, "support cn-3-hq", [6])
    assert next(e for e in events if isinstance(e, CombatResolved)).column == "1-1"  # the listed 4-1, answered


def test_4_2_5_3_voluntary_conversion_when_every_attacker_crosses_a_mountain_hexside_and_only_before_retreating():
    """Voluntary Retreat Conversion (4.2.5.3): a defender outside any City attacked only across Mountain hexsides
    may take a step instead of a hex; with one attacker across a plain hexside it may not; and once it has
    retreated a hex it converts no more (ruling D48)."""
    def attacked(units, target, die):
        state = position("western", "axis", [*units, ("jp-d", "jp-division", target)], hold=target)
        return when(state, f"attack {target} with {' '.join(u[0] for u in units)}", [die])[1]

    behind = [("us-a", "us-army", "w4115"), ("us-b", "us-army", "w4115"), ("us-c", "us-army", "w4115")]
    across = attacked(behind, "w4116", 6)  # w4115/w4116 is a Mountain hexside; the hex is no City
    assert across.combat.result == "Dr2"
    assert orders(across) == {"convert jp-d", "retreat to w4017", "retreat to w4117", "retreat to w4217"}
    _, one_back = when(across, "retreat to w4117")
    assert one_back.combat.retreat_left == 1
    assert orders(one_back) == {"retreat to w4018", "retreat to w4118", "retreat to w4218"}
    both = attacked([("us-a", "us-army", "w4114"), ("us-b", "us-army", "w4116")], "w4115", 6)  # two Mountain sides
    assert "convert jp-d" in orders(both)
    plain = attacked([("us-a", "us-army", "w4114"), ("us-b", "us-army", "w4015")], "w4115", 4)  # w4015: plain
    # (the plain hexside also takes the Mountain's shift away, D9: 8 against 2 on the 4-1 column)
    assert plain.combat.result == "Dr2 0/1" and orders(plain) == {"retreat to w4116", "retreat to w4216"}


def test_4_2_3_1_a_nationalist_chinese_air_unit_shifts_for_its_own_nationality_not_for_a_province_alone():
    """4.2.3.1: an Air unit shifts a combat holding a unit of its nationality. The Kiangsu 9th War Zone is a
    Chinese province's unit (D6), not Nationalist China's: the Chinese Air Force next to it gives its defence no
    shift, until the KMT HQ's Ranged Support brings a Nationalist Chinese unit into the combat (the clarification
    on multi-national HQs). The Chinese groups are 4.2.1.2's exceptions for HQs (ruling D49). A game of rules
    version 6 counted the groups, as it was played."""
    from app.rules.daisenso import played_under

    def shifts(version: str, support: str) -> list[str]:
        z = scenario("zhejiang", lambda r: next(u for u in r["unit"] if u["id"] == "cn-air").update(hex="w4723"))
        _, asked = when(played_under(z, version), "attack w4624 with jp-13-army")
        events, _ = when(asked, support, [3])
        return [s for s in next(e for e in events if isinstance(e, CombatResolved)).shifts if "4.2.3.1" in s]

    assert shifts("7", "support") == []
    assert shifts("7", "support cn-3-hq") == ["1L (Dai Senso 4.2.3.1: cn-air (Chinese Air Force))"]
    assert shifts("6", "support") == ["1L (Dai Senso 4.2.3.1: cn-air (Chinese Air Force))"]


def test_4_1_3_an_hq_that_gave_ranged_support_in_blitz_combat_makes_no_beachhead_landing():
    """4.1.3: a unit that attacked in the Blitz Combat Segment makes no Beachhead Landing; an HQ giving Ranged
    Support is one of the attacking units (4.2.2 step 3, 4.2.3.5). The US HQ on the Beachhead off Taihoku supports
    the Blitz attack on w4224 across its Beachhead Hexside, so it stays on the Beachhead; without that support it
    may land; the infantry with it on the Beachhead lands either way. A game of rules version 7 let the HQ land, as
    it was played (ruling D50)."""
    from app.rules.daisenso import played_under

    start = position("western", "axis", [
        ("us-hq", "us-hq", "w4325", {"blitz": True}), ("us-inf", "us-infantry", "w4324", {"blitz": True}),
        ("us-inf-2", "us-infantry", "w4325", {"blitz": True}), ("jp-d", "jp-division", "w4224")],
        hold="w4224", phase="blitz",
        marker=[{"kind": "beachhead", "faction": "western", "hex": "w4325", "toward": "w4324"},
                {"kind": "blitz", "faction": "western", "hex": "w4324"}])

    def landing(state):
        _, state = when(state, "attack w4224 with us-inf hq us-hq", [5])  # Dr1: jp-d falls back
        _, state = when(state, "stop")
        _, state = when(state, "next")
        return state

    supported = landing(start)
    assert step(supported) == "landing" and orders(supported) == {"land us-inf-2", "next"}
    assert "us-hq is not a supplied" in refused(supported, "land us-hq", "Dai Senso 4.1.3")
    _, quiet = when(start, "next")
    assert step(quiet) == "landing" and "land us-hq" in orders(quiet)
    assert "land us-hq" in orders(landing(played_under(start, "7")))


def test_4_1_4_two_airdrop_markers_in_one_hex_go_to_the_delay_box_one_at_a_time():
    """4.1.1 lets an Airdrop marker join another in a hex; 4.1.4 sends each marker to the Delay Box or lands it on
    its own. Two Soviet markers in e3309: the one withdrawn goes, the other still lands; of an unsupplied and a
    supplied marker there, only the unsupplied one goes at the step's start. Rules version 7 sent every such marker
    of the hex at once (ruling D51)."""
    from app.rules.daisenso import played_under

    def two_drops(first_supplied: bool):
        def change(raw):
            raw["marker"] += [{"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3309",
                               "supplied": first_supplied},
                              {"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3309"}]
        return scenario("august-storm", change)

    def at_airdrop_landing(state):
        for _ in range(2):  # no Airdrop, no Blitz attack; nothing lands from a Beachhead
            events, state = when(state, "next")
        assert step(state) == "airdrop-landing"
        return events, state

    _, both = at_airdrop_landing(two_drops(True))
    events, one = when(both, "withdraw e3309")
    assert events == [AirdropToDelayBox("e3309", "soviet")]
    assert len(one.markers_at("e3309", ("airdrop-soviet",))) == 1 and one.delay_box["soviet"] == {"ru-airborne": 1}
    _, one = when(one, "airland e3309 ru-infantry")
    assert [u.kind for u in one.at("e3309")] == ["ru-infantry"] and one.delay_box["soviet"] == {"ru-airborne": 2}
    events, mixed = at_airdrop_landing(two_drops(False))
    assert AirdropToDelayBox("e3309", "soviet", False) in events
    assert [m.supplied for m in mixed.markers_at("e3309", ("airdrop-soviet",))] == [True]
    assert "airland e3309 ru-infantry" in orders(mixed)
    _, old = at_airdrop_landing(played_under(two_drops(True), "7"))
    _, old = when(old, "withdraw e3309")
    assert not old.markers_at("e3309", ("airdrop-soviet",)) and old.delay_box["soviet"] == {"ru-airborne": 2}


def test_4_1_a_position_in_the_middle_of_blitz_combat_opens_past_the_airdrop_step():
    """Every activity of a Blitz step comes before the next step's (4.1 clarification): a position that says an
    attack of its Blitz Combat Segment has been made (ruling D36) is past step 1, so the airborne unit waiting there
    airdrops no more. Without such an attack the segment opens at the Airdrop. A game of rules version 7 opened at the
    Airdrop, as it was played (ruling D54)."""
    from app.rules.daisenso import played_under

    def attacked(raw):
        raw["attacked_hexes"] = ["e3410"]
        next(u for u in raw["unit"] if u["id"] == "ru-36-army")["attacked"] = True

    mid = scenario("august-storm", attacked)
    assert step(mid) == "blitz-combat" and not any(o.startswith("airdrop") for o in orders(mid))
    assert "attack e3411 with ru-6-gta" in orders(mid) and "attack e3410 with ru-6-gta" not in orders(mid)
    assert step(scenario("august-storm")) == "airdrop"
    assert step(played_under(mid, "7")) == "airdrop"
