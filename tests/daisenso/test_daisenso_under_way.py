"""Dai Senso positions with play under way (ruling D60, rules version 11): the step of a segment a position starts
in (`step`), an SNLF Beachhead-0 that has landed (`landed`) and the attack under way (`[combat]`) at each point of
4.2.2's sequence: declared with the attacker's support and the defender's still to come, both declared and the
die to roll, and each stage of the results (4.2.4-4.2.8). Each is played on, most against the same combat played
from its declaration (DS-12's attack on the Kiangsu 9th War Zone); each misstatement is refused naming its case."""
from __future__ import annotations

import copy
import tomllib

import pytest

from app.rules.custom_setup import SetupError
from app.rules.daisenso import GAME, data
from app.rules.daisenso.events import CombatResolved, ExploitationOpened, StepLost
from tests.daisenso.helpers import ds12_after_the_roll, orders, step, unit, when

DS12_ATTACK = ["jp-13-army", "jp-3-tank", "jp-34-army", "jp-22-div", "jp-40-div"]


def raw_of(name: str, change=None) -> dict:
    with open(data.SCENARIOS / f"{name}.toml", "rb") as f:
        raw = copy.deepcopy(tomllib.load(f))
    if change:
        change(raw)
    return raw


def start(raw: dict, version: str | None = None):
    return GAME.initial_state("custom", {"position": raw}, version)


def problems(raw: dict) -> str:
    with pytest.raises(SetupError) as err:
        start(raw)
    return "\n".join(err.value.problems)


def ds12(combat: dict | None = None, **more) -> dict:
    """Zhejiang as DS-12 plays it (the 40th Division, the 34th Army and an Air unit added), in its Regular Combat
    Segment, with `combat` under way."""
    def change(raw):
        unit(raw, "jp-40-div", "jp-division", "w4524")
        unit(raw, "jp-34-army", "jp-army", "w4625")
        unit(raw, "jp-air", "jp-air", "w4523")
        raw["phase"] = "regular"
        if combat is not None:
            raw["combat"] = combat
        raw.update(more)
    return raw_of("zhejiang", change)


def test_d60_an_attack_declared_waits_for_the_defenders_ranged_support_and_plays_on_as_declared_in_play():
    """4.2.2 steps 1-2: the attack on w4624 declared with the China HQ's support; the defender still to answer. The
    same answer and die give the same resolution as the attack declared in play (DS-12)."""
    state = start(ds12({"hex": "w4624", "attackers": DS12_ATTACK, "hq": "jp-china-hq"}))
    assert step(state) == "defender-hq" and GAME.prompt(state).side == "allied"
    assert orders(state) == {"support", "support cn-3-hq"}
    assert state.units["jp-china-hq"].fought and all(state.units[u].attacked for u in DS12_ATTACK)
    assert "w4624" in state.attacked_hexes  # attacked once a segment (4.2.1)
    events, after = when(state, "support cn-3-hq", [6])
    played, played_state = ds12_after_the_roll()
    mine = next(e for e in events if isinstance(e, CombatResolved))
    assert mine == next(e for e in played if isinstance(e, CombatResolved))
    assert step(after) == step(played_state) == "retreat" and orders(after) == orders(played_state)


def test_d60_with_the_supports_declared_the_attacker_rolls_the_die():
    """4.2.2 steps 3-5: the defender has declared its support (or none): what is left is the attacker's die, the
    `roll` order, resolved as the attack would be at once in play."""
    state = start(ds12({"hex": "w4624", "attackers": DS12_ATTACK, "hq": "jp-china-hq", "defender_hq": "cn-3-hq",
                        "stage": "roll"}))
    assert step(state) == "roll" and GAME.prompt(state).side == "axis" and orders(state) == {"roll"}
    assert state.units["cn-3-hq"].fought
    events, after = when(state, "roll", [6])
    played, _ = ds12_after_the_roll()
    assert next(e for e in events if isinstance(e, CombatResolved)) == next(
        e for e in played if isinstance(e, CombatResolved))
    assert step(after) == "retreat"
    declined = start(ds12({"hex": "w4624", "attackers": DS12_ATTACK, "hq": "jp-china-hq", "stage": "roll"}))
    resolved = next(e for e in when(declined, "roll", [6])[0] if isinstance(e, CombatResolved))
    assert (resolved.defence, resolved.column) == (3, "9-1")  # no KMT HQ: its 2 and its shift left out (3-1)
    # with no HQ of the defender able to support, the attack declared is at its die at once
    strait = start(raw_of("strait", lambda r: r.update(combat={"hex": "w4324", "attackers": ["us-3-mac"]})))
    assert step(strait) == "roll"


def test_d60_a_retreat_half_made_goes_on_from_where_the_force_stands_and_counts_its_hexes():
    """4.2.5, 4.2.5.1, 4.2.8: DS-12 after the KMT HQ broke down (converted: its Res stays in w4623) and the 9th War
    Zone retreated one hex into w4623, taking the Res along: the force retreats on, farther from w4624 only, and
    the Exploitation Distance counts the hex the position says it entered."""
    def moved(raw):
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "cn-3-hq"]
        next(u for u in raw["unit"] if u["id"] == "cn-9-war-zone")["hex"] = "w4623"
        unit(raw, "cn-res", "kiangsu-res", "w4623")
    raw = ds12({"hex": "w4624", "attackers": DS12_ATTACK, "hq": "jp-china-hq", "stage": "retreat",
                "result": "Dr3 0/1", "retreated": ["w4623"], "converted": 1})
    moved(raw)
    state = start(raw)
    assert step(state) == "retreat" and state.combat.retreat_left == 1
    assert set(state.combat.defenders) == {"cn-9-war-zone", "cn-res"}
    assert {o for o in orders(state) if o.startswith("retreat")} == {"retreat to w4522", "retreat to w4722"}
    _, state = when(state, "retreat to w4722")
    assert step(state) == "defender-losses"
    events, state = when(state, "lose cn-res")
    assert ExploitationOpened(2) in events and step(state) == "advance"
    _, state = when(state, "exploit jp-3-tank w4624 w4623")
    assert state.units["jp-3-tank"].hex == "w4623"
    supported = copy.deepcopy(raw)  # the KMT HQ's Ranged Support in the force: it never retreated (4.2.5.2)
    supported["combat"].update(defender_hq="cn-3-hq", converted=0, result="Dr2")
    supported["unit"] = [u for u in supported["unit"] if u["id"] != "cn-res"]
    supported["unit"].append({"id": "cn-3-hq", "kind": "kmt-hq", "hex": "w4722"})
    assert "retreated: a force with the HQ giving it Ranged Support does not retreat (Dai Senso 4.2.5.2" in \
        problems(supported)


def test_d60_the_attackers_ad_half_retreated_and_the_first_loss_of_the_marine_that_crossed_the_water():
    """4.2.4.1 Ad, 4.2.5, 4.2.6.1 (rulings D37, D40): the strait assault beaten off, Ad 1/0. The Marines (who
    attacked from Amoy across the All-Sea hexside, `from`) have retreated a hex; the III Amphibious Corps' stack in
    Foochow still owes its retreat; then the first step the force loses is a marine step."""
    def ad(stage, **more):
        def change(raw):
            raw.update(phase="regular", used_box={"east-china-sea": ["us-cv"]})
            raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
            next(u for u in raw["unit"] if u["id"] == "us-6-mar")["hex"] = "w4322"
            raw["combat"] = {"hex": "w4324", "attackers": ["us-3-mac", "us-6-mar"], "from": {"us-6-mar": "w4323"},
                             "stage": stage, "result": "Ad 1/0", **more}
        return raw_of("strait", change)

    state = start(ad("attacker-retreat"))
    assert step(state) == "attacker-retreat" and state.combat.stacks_to_retreat == ("w4424",)
    assert {o.split(" to ")[0] for o in orders(state)} == {"retreat w4424"}
    _, state = when(state, "retreat w4424 to w4523")
    assert step(state) == "attacker-losses"
    assert {o.split()[1] for o in orders(state)} == {"us-3-mac", "us-6-mar"}  # marines both (D40), not the army
    losses = start(ad("attacker-losses", attacker_result="retreat"))
    assert step(losses) == "attacker-losses" and {o.split()[1] for o in orders(losses)} == {"us-3-mac", "us-6-mar"}
    # without `from`, the Marines would have attacked from where they stand, not next to Taihoku
    bare = ad("attacker-losses", attacker_result="retreat")
    del bare["combat"]["from"]
    assert "us-6-mar attacked from w4322, which is not adjacent to w4324 (Dai Senso 4.2.1" in problems(bare)
    unmoved = ad("attacker-losses")
    next(u for u in unmoved["unit"] if u["id"] == "us-6-mar")["hex"] = "w4323"
    assert "attacker_result: how the attacker met its Ad 1/0 (\"retreat\" or \"step\") (Dai Senso 4.2.4.1" in \
        problems(unmoved)


def test_d60_an_exchange_the_attacker_paid_waits_for_the_defenders_retreat_or_step():
    """4.2.4.1 Ex: the attacker has taken its step (so its first loss is taken); the defender retreats a hex or
    loses a step."""
    state = start(ds12({"hex": "w4624", "attackers": DS12_ATTACK, "stage": "exchange", "result": "Ex"}))
    assert step(state) == "exchange" and GAME.prompt(state).side == "allied" and state.combat.attacker_lost == 1
    assert "lose cn-9-war-zone" in {o.split(" as ")[0] for o in orders(state)}
    assert any(o.startswith("retreat to") for o in orders(state))


def test_d60_attrition_half_paid_owes_the_rest_and_an_armor_unit_lost_still_lets_the_force_exploit():
    """4.2.6, 4.2.8: a Dr3 0/2 met by a step and two hexes, one of its two Attrition steps paid (`owed` 1); then an
    advance where `armor` says the tank that attacked is gone (4.2.8: 'even if it did not survive'), so the others
    may exploit."""
    def routed(raw):  # the KMT HQ broken down into a Res that the retreat took along
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "cn-3-hq"]
        next(u for u in raw["unit"] if u["id"] == "cn-9-war-zone")["hex"] = "w4722"
        unit(raw, "cn-res", "kiangsu-res", "w4722")
    raw = ds12({"hex": "w4624", "attackers": DS12_ATTACK, "hq": "jp-china-hq", "stage": "defender-losses",
                "result": "Dr3 0/2", "retreated": ["w4623", "w4722"], "converted": 1, "owed": 1})
    routed(raw)
    state = start(raw)
    assert step(state) == "defender-losses" and state.combat.defender_losses == 1
    _, state = when(state, "lose cn-res")
    assert step(state) == "advance" and state.combat.exploit_distance == 2
    without_tank = ds12({"hex": "w4624", "attackers": ["jp-13-army", "jp-34-army"], "stage": "advance",
                         "result": "Dr2", "retreated": ["w4623", "w4722"], "armor": True})
    routed(without_tank)
    next(u for u in without_tank["unit"] if u["id"] == "jp-13-army")["values"] = {"ma": 2}  # a what-if (D35)
    without_tank["unit"] = [u for u in without_tank["unit"] if u["id"] != "jp-3-tank"]
    state = start(without_tank)
    assert step(state) == "advance" and "exploit jp-13-army w4624 w4623" in orders(state)
    plain = copy.deepcopy(without_tank)
    del plain["combat"]["armor"]
    assert not any(o.startswith("exploit") for o in orders(start(plain)))  # no armor: Advance only


def test_d60_the_defender_gone_leaves_results_unsatisfied_that_lengthen_the_exploitation():
    """4.2.8: the defending force eliminated with a result unsatisfied: the Exploitation Distance adds it."""
    raw = ds12({"hex": "w4624", "attackers": DS12_ATTACK, "stage": "advance", "result": "Dr3 0/1",
                "retreated": ["w4623"], "converted": 1, "unsatisfied": 1})
    raw["unit"] = [u for u in raw["unit"] if u["id"] not in ("cn-9-war-zone", "cn-3-hq")]
    state = start(raw)
    assert step(state) == "advance" and state.combat.exploit_distance == 2
    kept = copy.deepcopy(raw)
    kept["unit"].append({"id": "cn-res", "kind": "kiangsu-res", "hex": "w4623"})
    assert "unsatisfied: results go unsatisfied only once the defending force is gone" in problems(kept)


def test_d60_the_attack_on_markers_alone_stands_at_its_advance():
    """4.2.2: an attack on a hex of enemy markers alone succeeds without a die; its markers went to the Delay Box
    when it was declared; the attacker advances, never exploits, and gives no HQ (ruling D57)."""
    combat = {"hex": "w4724", "attackers": ["jp-3-tank"], "stage": "advance"}
    gone = ds12(combat)
    gone["marker"] = [m for m in gone["marker"] if m["kind"] != "logistics-axis"]
    gone["marker"].append({"kind": "logistics-western", "hex": "w4724"})
    assert "put the western Detachment and Logistics markers of w4724 in the Delay Box" in problems(gone)
    gone["marker"].pop()
    state = start(gone)
    assert step(state) == "advance" and state.combat.automatic and orders(state) == {"advance jp-3-tank", "stop"}
    with_hq = copy.deepcopy(gone)
    with_hq["combat"]["hq"] = "jp-china-hq"
    assert "no HQ gives Ranged Support to an attack on markers alone (ruling D57)" in problems(with_hq)


@pytest.mark.parametrize(("combat", "more", "found"), [
    ({"hex": "w4624", "attackers": ["jp-15-army"]}, {}, "jp-15-army attacked from w4520, which is not adjacent to "
                                                        "w4624 (Dai Senso 4.2.1, ruling D60)"),
    ({"hex": "w4624", "attackers": ["jp-22-div"], "result": "Dr1"}, {}, "at stage support the die is not rolled yet "
                                                                        "(step 5)"),
    ({"hex": "w4624", "attackers": ["jp-22-div"], "stage": "retreat", "result": "Dr7"}, {},
     "is not one the Combat Results Table gives"),
    ({"hex": "w4624", "attackers": ["jp-22-div"], "stage": "retreat", "result": "Dr3 0/1"}, {"weather":
     {"mud": ["w4624"]}}, "not one the Combat Results Table gives under mud"),
    ({"hex": "w4624", "attackers": ["jp-22-div"], "defender_hq": "cn-3-hq"}, {},
     "at stage support the defender has yet to declare it"),
    ({"hex": "w4624", "attackers": ["jp-22-div", "jp-13-army"], "stage": "retreat", "result": "1/1"}, {},
     "stage retreat: the result 1/1 owes nothing there"),
    ({"hex": "w4624", "attackers": ["jp-22-div"], "stage": "retreat", "result": "Dr2", "retreated": ["w4623",
                                                                                                      "w4624"]},
     {}, "retreated: w4624 is not a hex next to w4623 farther from w4624 (Dai Senso 4.2.5.1"),
    ({"hex": "w4624", "attackers": ["jp-22-div"], "hq": "jp-china-hq", "stage": "retreat", "result": "Dr1",
      "converted": 1}, {}, "stage retreat: the Dr1's Retreat result is met already"),
    ({"hex": "w4624", "attackers": ["jp-13-army", "jp-22-div"], "hq": "jp-china-hq", "stage": "roll"},
     {"turn": 1}, None),
    ({"hex": "w4624", "attackers": ["jp-13-army"], "stage": "roll"}, {"phase": "marker"},
     "not in the Marker Segment (4.3)"),
    ({"hex": "w4620", "attackers": ["jp-15-army"], "stage": "roll"}, {"values": {"jp-15-army": {"attack": 1}}},
     "1 against 6 is under a raw 1-3: no such attack (Dai Senso 4.2.1.1"),
    ({"hex": "w4624", "attackers": ["jp-13-army", "jp-china-hq"], "hq": "cn-3-hq"}, {},
     "hq cn-3-hq: it belongs to the defender"),
])
def test_d60_a_combat_the_rules_never_reach_is_refused_naming_its_case(combat, more, found):
    more = dict(more)
    values = more.pop("values", {})
    raw = ds12(combat, **more)
    for u in raw["unit"]:
        if u["id"] in values:
            u["values"] = values[u["id"]]  # a what-if counter (ruling D35)
    if found is None:
        assert step(start(raw)) == "roll"
        return
    assert found in problems(raw)


def test_d60_steps_of_the_blitz_segment_and_an_snlf_beachhead_that_landed():
    """4.1, 4.1.3, 4.1.3.1, 4.1.4 (rulings D34, D54, D60): a position starts at the Beachhead Landing step, where a
    unit that attacked in the Blitz Combat does not land and an SNLF Beachhead-0 that has landed lands no more; at
    the Airdrop Landing step an unsupplied marker goes to the Delay Box as the step begins."""
    def landing(raw, **more):
        raw.update(step="landing", attacked_hexes=["w4324"], **more)
        raw["unit"] = [u for u in raw["unit"] if u["id"] not in ("jp-9-div", "jp-taihoku-fort")]
        next(u for u in raw["unit"] if u["id"] == "us-3-mac").update(attacked=True)

    state = start(raw_of("strait", landing))
    assert step(state) == "landing" and orders(state) == {"land us-10-army", "next"}
    attacked = raw_of("strait", landing)
    next(u for u in attacked["unit"] if u["id"] == "us-10-army").update(attacked=True)
    assert step(start(attacked)) == "regular-combat"  # nobody may land, no Airdrop marker: on to 4.1.5 and 4.2

    def snlf(raw, landed):
        raw.update(phase="blitz", step="landing")
        raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                          {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4826", "toward": "w4725",
                           "landed": landed}]
        raw["force_pool"]["axis"]["detachment-japan"] = 1
    fresh = start(raw_of("zhejiang", lambda r: snlf(r, False)))
    assert "snlf w4826" in orders(fresh)
    assert "snlf w4826" not in orders(start(raw_of("zhejiang", lambda r: snlf(r, True))))
    early = raw_of("zhejiang", lambda r: (snlf(r, True), r.update(step="blitz-combat")))
    assert "'landed' only from step 3 of the Axis's Blitz Combat Segment (4.1.3.1)" in problems(early)

    def airland(raw):
        raw.update(step="airdrop-landing")
        raw["marker"] += [{"kind": "airdrop-western", "faction": "western", "hex": "w4424", "supplied": False}]
    events_free = start(raw_of("strait", airland))
    assert not events_free.markers_at("w4424", ("airdrop-western",)) and step(events_free) == "regular-combat"
    assert events_free.delay_box["western"]["us-airborne"] == 2


def test_d60_a_step_the_sequence_never_reaches_is_refused_and_version_10_refuses_the_new_keys():
    """4.1 clarification: a faction without its Blitz marker on the map has no Airdrop, Blitz Combat, Landing or
    Airdrop Landing step; the Airdrop step comes before any attack; 4.1.5 and 4.3 steps 2-3 take no order."""
    no_blitz = raw_of("zhejiang", lambda r: (r.update(step="landing"),
                                             r.update(marker=[m for m in r["marker"] if m["kind"] != "blitz"])))
    assert "only its CV Strike Returns step (4.1 clarification)" in problems(
        raw_of("strait", lambda r: (r.update(step="landing"), r.update(
            marker=[m for m in r["marker"] if m["kind"] != "blitz"]))))
    assert no_blitz["step"] == "landing"
    assert "(4.1 clarification, ruling D54)" in problems(raw_of("strait", lambda r: r.update(
        step="airdrop", attacked_hexes=["w4324"])))
    assert "4.1.5 and 4.3 steps 2-3 take no order" in problems(raw_of("strait", lambda r: r.update(
        step="cv-strike-returns")))
    old = raw_of("strait", lambda r: r.update(step="blitz-combat", combat={"hex": "w4324", "attackers": ["us-3-mac"]}))
    with pytest.raises(SetupError) as err:
        start(old, "10")
    assert {"'step' came with rules version 11", "[combat] came with rules version 11"} <= set(err.value.problems)


def test_d60_the_document_position_plays():
    """docs/custom-positions.md's Dai Senso position with an attack under way starts at its decision and plays."""
    text = open("docs/custom-positions.md", encoding="utf-8").read()
    block = text.split("### Dai Senso")[1].split("### Operation Causeway")[0].split("```toml")[2].split("```")[0]
    state = start(tomllib.loads(block))
    assert step(state) == "retreat" and GAME.prompt(state).side == "axis"
    events, state = when(state, "convert jp-9-div")
    assert any(isinstance(e, StepLost) for e in events)


def test_d60_an_ad_rolled_waits_for_the_attackers_choice_and_the_marker_segment_starts_at_its_convoys():
    """4.2.4.1 Ad: every attacking stack retreats a hex or one attacking unit takes a step, the attacker's choice;
    4.3 step 1: a position may name the Marker Segment's step, its Troop Convoy back from the Used Box."""
    def ad(raw):
        raw.update(phase="regular", used_box={"east-china-sea": ["us-cv"]})
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
        raw["combat"] = {"hex": "w4324", "attackers": ["us-3-mac", "us-6-mar"], "stage": "attacker-result",
                         "result": "Ad 1/0"}
    state = start(raw_of("strait", ad))
    assert step(state) == "attacker-result" and GAME.prompt(state).side == "allied"
    assert {"lose us-6-mar", "retreat w4424 to w4523"} <= orders(state)
    events, state = when(state, "lose us-6-mar")
    assert [e.pays for e in events if isinstance(e, StepLost)] == ["ad", "attacker"]  # the 1/0 from the corps
    assert step(state) == "regular-combat" and state.combat is None  # Taihoku held: no advance

    def convoys(raw):
        raw.update(phase="marker", step="convoys", used_box={"east-china-sea": ["us-cv"]})
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
    state = start(raw_of("strait", convoys))
    assert step(state) == "convoys" and orders(state) == {"convoy east-china-sea", "next"}


def test_d60_a_combat_segments_end_with_a_stack_over_the_limit_waits_for_its_owner():
    """Ruling D15 (4.2.5.3 design note, 4.2.7): a position may stand at a Combat Segment's end, a stack left over the
    limit by the segment's retreats and advances, its owner to eliminate; in the Blitz segment after 4.1.5 has
    returned the CV Strikes. With no stack over the limit, or no attack made, there is nothing to settle."""
    def crowded(raw, phase="regular", made=True):
        raw.update(phase=phase, step="overstack")
        if phase == "regular":
            raw.update(used_box={"east-china-sea": ["us-cv"]})
            raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
        raw["unit"] += [{"id": f"us-x{n}", "kind": "us-infantry", "hex": "w4424"} for n in range(3)]
        if made:
            raw["attacked_hexes"] = ["w4324"]

    state = start(raw_of("strait", crowded))
    assert step(state) == "overstack" and GAME.prompt(state).side == "allied"
    assert "eliminate us-x0" in orders(state) and "attack w4324 with us-3-mac" not in orders(state)
    _, settled = when(state, "eliminate us-x0")
    assert step(settled) == "convoys" and len(settled.ground_at("w4424")) == 3
    blitz = start(raw_of("strait", lambda r: crowded(r, "blitz")))
    assert step(blitz) == "overstack" and blitz.used_box == {"east-china-sea": ("us-cv",)}  # 4.1.5 first
    _, settled = when(blitz, "eliminate us-x1")
    assert step(settled) == "regular-combat"
    assert "'step' overstack: a stack over the limit at a Combat Segment's end is one a retreat or an advance" in \
        problems(raw_of("strait", lambda r: crowded(r, made=False)))
    roomy = raw_of("strait", crowded)
    roomy["unit"] = [u for u in roomy["unit"] if u["id"] not in ("us-x0", "us-x1", "us-x2")]
    assert "so the segment's end has nothing to settle (ruling D15)" in problems(roomy)


def test_d61_an_ad_is_met_by_retreating_only_when_every_attacking_stack_can_retreat():
    """4.2.4.1 Ad, 4.2.5.2 (ruling D61): the Tenth Army on its Beachhead cannot retreat (its one crossing leads back
    to Taihoku), so the assault's Ad is met by a step although the corps in Foochow could fall back; without the
    Tenth Army the corps' stack chooses."""
    def ad(raw, attackers):
        raw.update(phase="regular", used_box={"east-china-sea": ["us-cv"]})
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
        raw["combat"] = {"hex": "w4324", "attackers": attackers, "stage": "attacker-result", "result": "Ad"}
    both = start(raw_of("strait", lambda r: ad(r, ["us-3-mac", "us-10-army"])))
    # one way left: the marine step of the corps that crossed the Strait (4.2.6.1), applied at once (ruling D27)
    assert both.combat is None and step(both) == "regular-combat"
    assert "us-3-mac" in both.removed and both.units["us-10-army"].hex == "w4325"
    corps = start(raw_of("strait", lambda r: ad(r, ["us-3-mac"])))
    assert {o.split()[0] for o in orders(corps)} == {"lose", "retreat"}


def test_d16_victory_is_read_after_the_last_combat_phase_only_from_ground_units_on_every_hex():
    """Ruling D16 at its boundaries: the scenario ends after the Marker Segment of its last Combat Phase, not
    before; the faction wins only if its ground units stand on every hex it must hold (an Air unit holds none); a
    stack over the limit at the last Combat Segment's end is settled before the end is read."""
    def end(units, phases=1, hold=("w4624", "w4625"), step_="convoys", **more):
        raw = {"name": "end", "turn": 3, "phase": "marker", "step": step_, "phasing": "western",
               "factions": ["axis", "western"], "combat_phases": phases, "neutral": ["tibet", "nepal"],
               "victory": {"faction": "axis", "hold": list(hold)},
               "unit": [{"id": i, "kind": k, "hex": h} for i, k, h in units], **more}
        return start(raw)

    both = [("jp-a", "jp-army", "w4624"), ("jp-b", "jp-army", "w4625"), ("cn-a", "kmt-army", "w4722")]
    events, over = when(end(both), "next")
    assert step(over) == "over" and GAME.outcome(over).winner == "axis" and "holds w4624, w4625" in \
        GAME.outcome(over).reason
    _, on = when(end(both, phases=2), "next")  # not the last Combat Phase: the Axis's begins
    assert step(on) != "over" and on.combat_phase == 4 and on.phasing == "axis"
    one = [*both[:1], ("jp-air", "jp-air", "w4625"), both[2]]
    _, lost = when(end(one), "next")
    assert GAME.outcome(lost).winner == "allied" and "does not hold w4625" in GAME.outcome(lost).reason
    crowded = [("jp-a", "jp-army", "w4624"), ("cn-a", "kmt-army", "w4722"),
               *[(f"cn-x{n}", "kiangsu-res", "w4723") for n in range(4)]]
    state = end(crowded, hold=("w4723",), step_="overstack", phase="regular", attacked_hexes=["w4624"],
                victory={"faction": "western", "hold": ["w4723"]})
    for n in range(4):
        if step(state) != "overstack":
            break
        _, state = when(state, f"eliminate cn-x{n}")
    assert step(state) == "over" and GAME.outcome(state).winner == "allied"  # three Res left in w4723 hold it
    assert len(state.ground_at("w4723")) == 3


def test_d60_units_an_attacking_stack_retreated_into_share_its_attrition():
    """4.2.5, ruling D32: the Marines' stack fell back from Amoy into w4322, where the 10th Marines (`joined`) stood;
    they are of the attacking force now: the Ad 1/0's step may be theirs (any marine's, D40), and they attack no
    more this segment. A unit said to have joined where no attacking stack retreated is refused."""
    def ad(raw, where="w4322"):
        raw.update(phase="regular", used_box={"east-china-sea": ["us-cv"]})
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
        next(u for u in raw["unit"] if u["id"] == "us-6-mar")["hex"] = "w4322"
        raw["unit"].append({"id": "us-10-mar", "kind": "us-marine", "hex": where})
        raw["combat"] = {"hex": "w4324", "attackers": ["us-3-mac", "us-6-mar"], "from": {"us-6-mar": "w4323"},
                         "joined": ["us-10-mar"], "stage": "attacker-retreat", "result": "Ad 1/0"}
    state = start(raw_of("strait", ad))
    assert "us-10-mar" in state.combat.attackers and state.units["us-10-mar"].attacked
    _, state = when(state, "retreat w4424 to w4523")
    assert "lose us-10-mar" in orders(state)
    assert ("[combat] joined: us-10-mar in w4423 stands where no attacking stack retreated (ruling D32) (Dai Senso "
            "4.2.5, ruling D60)") in problems(raw_of("strait", lambda r: ad(r, "w4423")))
