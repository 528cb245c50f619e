"""Issue 30's Dai Senso boundaries no test held: where a retreat (4.2.5-4.2.5.2) or an Exploitation (4.2.8) may go
next to a Neutral Minor Country, a Policy Affected Country (ruling D19) or an enemy Beachhead marker, and a landing
onto the lander's own Failure marker (D17) or a faction at truce (D18). Each from a position of a few units: what
the list of legal orders offers, where the units end up, and the refusal of the hex the rules bar, read whole with
its case."""
from __future__ import annotations

from app.rules.daisenso import played_under
from app.rules.daisenso.events import ExploitationOpened, MarkersToDelayBox, StackRetreated, StepLost
from app.rules.engine.events import DecisionRequired
from tests.daisenso.helpers import drop, orders, position, refused, scenario, step, unit, when
from tests.daisenso.test_daisenso_under_way import raw_of, start

# The KMT army at w4618 (Szechwan, mountain) beaten by three Japanese armies from w4619: 12 against 3, 4-1, one
# column left for the mountain, 3-1; a die of 3 is a Dr1. w4717 and w4517 lie outside the armies' ZOC, and so
# does w4617, in Tibet.
SZECHWAN = [("jp-a", "jp-army", "w4619"), ("jp-b", "jp-army", "w4619"), ("jp-c", "jp-army", "w4619"),
            ("cn-a", "kmt-army", "w4618")]


def _beaten(units, hold, attack, die=3, **more):
    return when(position("axis", "western", units, hold=hold, **more), attack, [die])


def retreats(state) -> set[str]:
    return {o for o in orders(state) if o.startswith("retreat")}


def test_4_2_5_2_no_retreat_into_a_neutral_minor_or_a_policy_affected_country_listed_or_ordered():
    """Tibet open, the Dr1 may go to w4617 as to the two Szechwan and Yunnan hexes; Tibet neutral or under a Policy,
    w4617 is neither listed nor taken when ordered, and the refusal names 4.2.5.2 and the country."""
    _, open_ = _beaten(SZECHWAN, "w4618", "attack w4618 with jp-a jp-b jp-c")
    assert retreats(open_) == {"retreat to w4517", "retreat to w4617", "retreat to w4717"}
    events, gone = when(open_, "retreat to w4617")
    assert StackRetreated(["cn-a"], "w4618", "w4617", [], True) in events and gone.units["cn-a"].hex == "w4617"
    for status, what in (("neutral", "a Neutral Minor Country"), ("policy", "a Policy Affected Country")):
        _, closed = _beaten(SZECHWAN, "w4618", "attack w4618 with jp-a jp-b jp-c", **{status: ["tibet"]})
        assert retreats(closed) == {"retreat to w4517", "retreat to w4717"}
        assert refused(closed, "retreat to w4617", "Dai Senso 4.2.5.2") == (
            f"Dai Senso 4.2.5.2: w4617 lies in Tibet, {what} (ruling D19); open: retreat to w4517, "
            "retreat to w4717")
        assert closed.units["cn-a"].hex == "w4618"


def test_4_2_5_3_a_force_whose_only_way_out_lies_in_a_neutral_country_converts_its_retreat_into_a_step():
    """With armies at w4718 and w4518 too, every hex out of w4618 but w4617 is in their ZOC and holds no friend: the
    Dr1 retreats into Tibet while it is open; neutral, it cannot retreat, and the result becomes a step (4.2.5.3),
    the army breaking down to the Szechwan Res infantry of the Force Pool in w4618."""
    around = [*SZECHWAN[:2], ("jp-c", "jp-army", "w4718"), ("jp-d", "jp-army", "w4518"), SZECHWAN[3]]
    pool = {"western": {"szechwan-res": 1}}
    attack = "attack w4618 with jp-a jp-b jp-c jp-d"
    events, open_ = _beaten(around, "w4618", attack, force_pool=pool)  # 16 against 3: 4-1, 3-1 in the mountain
    assert StackRetreated(["cn-a"], "w4618", "w4617", [], True) in events
    events, closed = _beaten(around, "w4618", attack, force_pool=pool, neutral=["tibet"])
    assert not [e for e in events if isinstance(e, StackRetreated)]
    lost = next(e for e in events if isinstance(e, StepLost))
    assert (lost.unit, lost.pays, lost.replacement_kind) == ("cn-a", "retreat", "szechwan-res")
    assert {u.kind for u in closed.units.values() if u.hex == "w4618"} == {"szechwan-res"}


def test_4_2_5_2_d65_a_hex_of_a_dependent_belongs_to_its_policy_affected_country():
    """Ruling D65: a Dependent's hexes belong to its country, as 4.2.1.2 says a Dependent does. The KMT army at
    w4317 (Yunnan) beaten from w4417 may fall back into Burma at w4217; with Britain under a Policy it may not."""
    yunnan = [("jp-a", "jp-army", "w4417"), ("jp-b", "jp-army", "w4417"), ("jp-c", "jp-army", "w4417"),
              ("cn-a", "kmt-army", "w4317")]
    attack = "attack w4317 with jp-a jp-b jp-c"
    _, open_ = _beaten(yunnan, "w4317", attack)
    assert retreats(open_) == {"retreat to w4217", "retreat to w4218", "retreat to w4318"}
    _, closed = _beaten(yunnan, "w4317", attack, policy=["britain"])
    assert retreats(closed) == {"retreat to w4218", "retreat to w4318"}
    assert refused(closed, "retreat to w4217", "Dai Senso 4.2.5.2").startswith(
        "Dai Senso 4.2.5.2: w4217 lies in Burma, a Dependent of Britain, a Policy Affected Country (ruling D19)")


def _taihoku(*beachheads: str):
    """The Japanese division in Taihoku (w4324, a City) beaten across the Strait from Foochow, 12 against 2: 6-1,
    two columns left, 3-1, die 3: Dr1; a Beachhead marker of each faction named in w4325, pointing at Taihoku."""
    units = [("us-a", "us-army", "w4424"), ("us-b", "us-army", "w4424"), ("us-c", "us-army", "w4424"),
             ("jp-d", "jp-division", "w4324")]
    markers = [{"kind": "beachhead", "faction": f, "hex": "w4325", "toward": "w4324"} for f in beachheads]
    _, state = when(position("western", "axis", units, hold="w4324", marker=markers),
                    "attack w4324 with us-a us-b us-c", [3])
    return state


def test_4_2_5_2_no_retreat_into_a_hex_holding_an_enemy_beachhead_marker():
    """On its own Beachhead at w4325 the division may retreat to sea, across the Beachhead Hexside (4.2.5); the
    enemy's Beachhead marker there too, or there alone, it may not (4.2.5.2), and the refusal says so. Amoy, across
    an All-Sea hexside, is refused by the hexside rule whatever the markers."""
    own = _taihoku("axis")
    assert orders(own) == {"retreat to w4224", "retreat to w4325", "convert jp-d"}  # convert: a City (4.2.5.3)
    _, at_sea = when(own, "retreat to w4325")
    assert at_sea.units["jp-d"].hex == "w4325"
    for markers in (("axis", "western"), ("western",)):
        barred = _taihoku(*markers)
        assert orders(barred) == {"retreat to w4224", "convert jp-d"}
        assert refused(barred, "retreat to w4325", "Dai Senso 4.2.5.2") == (
            "Dai Senso 4.2.5.2: w4325 holds an enemy Beachhead marker; open: retreat to w4224, convert jp-d")
    assert refused(own, "retreat to w4323", "Dai Senso 4.2.5.2").startswith(
        "Dai Senso 4.2.5.2: w4324/w4323 is an All-Sea hexside, neither a Strait nor a Beachhead Hexside")


def test_4_2_4_1_d61_a_retreat_ordered_while_one_attacking_stack_is_hemmed_in_is_refused_naming_why():
    """The 15th Army and a division at w4720 attack Chungking for an Ad; Nationalist armies at w4721 and w4821 leave
    the division's stack no hex to retreat into, so no attacker retreats and one of them loses the step (ruling
    D61): the 15th Army's retreat to w4421, open to it alone, is refused naming 4.2.4.1 and the stack hemmed in,
    and the division's retreat into an army's hex naming 4.2.5.2."""
    def hemmed(raw):
        unit(raw, "jp-x", "jp-division", "w4720")
        unit(raw, "cn-x", "kmt-army", "w4721")
        unit(raw, "cn-y", "kmt-army", "w4821")

    _, z = when(scenario("zhejiang", hemmed), "attack w4620 with jp-15-army jp-x", [4])  # 1-3, die 4: Ad
    assert orders(z) == {"lose jp-15-army as jp-division", "lose jp-x"}
    assert refused(z, "retreat w4520 to w4421", "Dai Senso 4.2.4.1") == (
        "Dai Senso 4.2.4.1: the attacking stack in w4720 cannot retreat, so the attackers do not retreat: one of "
        "them loses a step (ruling D61); open: lose jp-15-army as jp-division, lose jp-x")
    assert refused(z, "retreat w4720 to w4721", "Dai Senso 4.2.5.2").startswith(
        "Dai Senso 4.2.5.2: w4721 holds an enemy unit")


# -- 4.2.8 Exploitation ----------------------------------------------------------------------------------------------
def _tank_breaks_through(**more):
    """A Japanese tank division and army from w4619 beat the Szechwan Res at w4618: 7 against 1, 6-1, one column
    left for the mountain, 4-1, die 4: Dr2 0/1. It falls back to w4717 and w4818 (the one hex left when Tibet is
    closed, taken at once) and the Attrition eliminates it: Exploitation Distance 2, the tank's MA."""
    units = [("jp-t", "jp-tank", "w4619"), ("jp-a", "jp-army", "w4619"), ("cn-r", "szechwan-res", "w4618")]
    _, state = _beaten(units, "w4618", "attack w4618 with jp-t jp-a", 4, **more)
    _, state = when(state, "retreat to w4717")
    if step(state) == "retreat":
        _, state = when(state, "retreat to w4818")
    assert "cn-r" not in state.units and state.combat.exploit_distance == 2
    return state


def exploits(state) -> set[str]:
    return {o for o in orders(state) if o.startswith("exploit")}


def test_4_2_8_no_exploitation_into_a_neutral_minor_or_a_policy_affected_country_listed_or_ordered():
    """Tibet open, the tank may exploit through the defending hex into w4617; neutral or under a Policy, that path
    is neither listed nor taken when ordered, the refusal naming 4.2.8, the hex and the country, and the tank's
    other paths stay open."""
    open_ = _tank_breaks_through()
    assert "exploit jp-t w4618 w4617" in exploits(open_)
    _, gone = when(open_, "exploit jp-t w4618 w4617")
    assert gone.units["jp-t"].hex == "w4617"
    for status, what in (("neutral", "a Neutral Minor Country"), ("policy", "a Policy Affected Country")):
        closed = _tank_breaks_through(**{status: ["tibet"]})
        assert exploits(closed) == exploits(open_) - {"exploit jp-t w4618 w4617"}
        assert refused(closed, "exploit jp-t w4618 w4617", "Dai Senso 4.2.8") == (
            f"Dai Senso 4.2.8: jp-t may not Exploit into w4617: it lies in Tibet, {what} (ruling D19)")
        assert closed.units["jp-t"].hex == "w4619"


def test_4_2_8_no_exploitation_into_a_sea_hex_holding_a_beachhead_nor_an_advance_into_a_defending_hex_holding_one():
    """The US mech army and an army in w4224 beat the Japanese division in Taihoku (11 against 2, 4-1, a City: 3-1,
    die 5: Dr2 0/1); it falls back across the Strait to Foochow and w4423 and is eliminated. The mech may exploit
    through Taihoku into Foochow, but not into w4325, the Axis's Beachhead off Taihoku: an Exploiting unit is placed
    in Land hexes only (4.2.8, ruling D10). And when the Japanese division stands on that Beachhead and is
    destroyed there, the hex keeps the enemy Beachhead marker: no unit advances or exploits into it (4.2.7), and the
    combat ends without asking."""
    beachhead = [{"kind": "beachhead", "faction": "axis", "hex": "w4325", "toward": "w4324"}]
    units = [("us-m", "us-mech", "w4224"), ("us-a", "us-army", "w4224"), ("jp-d", "jp-division", "w4324")]
    _, state = when(position("western", "axis", units, hold="w4324", marker=beachhead), "attack w4324 with us-m us-a",
                    [5])
    _, state = when(state, "retreat to w4424")
    _, state = when(state, "retreat to w4423")
    assert state.combat.exploit_distance == 2
    # w4224 too, the hex the mech exploits from: any adjacent Land hex (4.2.8, ruling D68); Taihoku alone too, the
    # army's only one (MA 1) (ruling D72)
    assert exploits(state) == {"exploit us-m w4324 w4224", "exploit us-m w4324 w4323", "exploit us-m w4324 w4424",
                               "exploit us-m w4324", "exploit us-a w4324"}
    assert refused(state, "exploit us-m w4324 w4325", "Dai Senso 4.2.8") == (
        "Dai Senso 4.2.8: us-m may not Exploit into w4325: it is not a Land hex")
    at_sea = [("us-a", "us-army", "w4324"), ("us-b", "us-army", "w4324"), ("us-c", "us-army", "w4324"),
              ("jp-d", "jp-division", "w4325")]
    events, state = when(position("western", "axis", at_sea, hold="w4324", marker=beachhead),
                         "attack w4325 with us-a us-b us-c", [6])  # 12 against 2, the Beachhead Hexside 2L: Dr3 0/1
    assert "jp-d" not in state.units and state.combat is None and step(state) == "regular-combat"
    assert not [e for e in events if isinstance(e, DecisionRequired)]
    assert not [e for e in events if isinstance(e, ExploitationOpened)]  # no Exploitation Distance (ruling D69)
    assert {m.kind for m in state.markers_at("w4325")} == {"beachhead"}


# -- 4.1.3 landings: the lander's own Failure marker (D17), a faction at truce (D18) -----------------------------------
def _landing(*markers: dict, keep=(), **more):
    """The Strait's Beachhead Landing step with Taihoku (w4324) and Takao (w4224) emptied of Japanese units (but those
    kept): the Tenth Army may land at Taihoku from its Beachhead at w4325, and a second army at Takao from a
    Beachhead at w4225."""
    def cleared(r):
        drop(r, *({"jp-taihoku-fort", "jp-9-div", "jp-10-army", "jp-8-air"} - set(keep)))
        r["marker"] += [{"kind": "beachhead", "faction": "western", "hex": "w4225", "toward": "w4224"}, *markers]
        unit(r, "us-x", "us-army", "w4225", blitz=True)
        r.update(more)

    _, state = when(scenario("strait", cleared), "next")
    assert step(state) == "landing"
    return state


def test_4_1_3_d17_no_landing_onto_the_landers_own_failure_marker_the_enemys_stops_nothing():
    """A Western Failure marker in Taihoku keeps the Tenth Army on its Beachhead: not listed, and refused naming
    4.1.3 and the marker, while the army off Takao lands; an Axis Failure marker there limits only the Axis."""
    own = _landing({"kind": "failure", "faction": "western", "hex": "w4324"})
    assert orders(own) == {"land us-x", "next"}
    assert refused(own, "land us-10-army", "Dai Senso 4.1.3") == (
        "Dai Senso 4.1.3: a western Failure marker is in w4324 (D17)")
    assert own.units["us-10-army"].hex == "w4325"
    enemys = _landing({"kind": "failure", "faction": "axis", "hex": "w4324"})
    assert orders(enemys) == {"land us-10-army", "land us-x", "next"}
    _, landed = when(enemys, "land us-10-army")
    assert landed.units["us-10-army"].hex == "w4324"


def test_4_1_3_d63_at_truce_no_landing_onto_the_other_factions_units_or_markers():
    """The Western and Axis factions at truce. A Japanese Detachment alone in Taihoku: without the truce the Tenth
    Army lands and sends it to the Delay Box (D42); at truce it may not, since that would do what an attack on it
    does (4.2.2), which a truce forbids (rules version 13, ruling D63); a game of version 12 lands as played. The
    Japanese army back in Takao is an enemy unit there at truce too (4.1.3)."""
    detachment = {"kind": "detachment-japan", "faction": "axis", "hex": "w4324"}
    truce = [{"factions": ["western", "axis"]}]
    war = _landing(detachment)
    events, landed = when(war, "land us-10-army")
    assert MarkersToDelayBox("w4324", ["detachment-japan"], "axis") in events
    assert landed.delay_box["axis"] == {"detachment-japan": 1}
    peace = _landing(detachment, truce=truce)
    assert orders(peace) == {"land us-x", "next"}
    assert refused(peace, "land us-10-army", "Dai Senso 4.1.3") == (
        "Dai Senso 4.1.3: w4324 holds axis Detachment or Logistics markers, which the landing would send to the Delay "
        "Box, and the western and axis factions are at truce (D18, D63)")
    events, _ = when(played_under(peace, "12"), "land us-10-army")
    assert MarkersToDelayBox("w4324", ["detachment-japan"], "axis") in events
    army = _landing(truce=truce, keep=("jp-10-army",))
    assert orders(army) == {"land us-10-army", "next"}
    assert refused(army, "land us-x", "Dai Senso 4.1.3") == "Dai Senso 4.1.3: w4224 holds an enemy unit"


def test_4_1_1_and_4_1_4_d63_at_truce_no_airdrop_nor_airdrop_landing_onto_the_other_factions_detachment():
    """August Storm with the Soviet and Axis factions at truce: the Japanese Detachment alone at e3310 is no Airdrop
    hex (its Airdrop Landing would send it to the Delay Box, D46), and a Soviet Airdrop marker already there is
    withdrawn, not landed (rules version 13, ruling D63); version 12 allowed both, as played."""
    truce = [{"factions": ["soviet", "axis"]}]
    peace = scenario("august-storm", lambda r: r.update(truce=truce))
    assert "airdrop ru-1-abde e3310" in orders(scenario("august-storm"))
    assert "airdrop ru-1-abde e3310" not in orders(peace)
    assert refused(peace, "airdrop ru-1-abde e3310", "Dai Senso 4.1.1") == (
        "Dai Senso 4.1.1: e3310 holds axis Detachment or Logistics markers, which its Airdrop Landing would send to "
        "the Delay Box, and the soviet and axis factions are at truce (D18, D63)")
    assert "airdrop ru-1-abde e3310" in orders(played_under(peace, "12"))

    def dropped(r):
        drop(r, "ru-1-abde")
        r["marker"].append({"kind": "airdrop-soviet", "hex": "e3310"})
        r.update(step="airdrop-landing", truce=truce)

    marker = scenario("august-storm", dropped)
    assert orders(marker) == {"withdraw e3310", "next"}
    assert refused(marker, "airland e3310 ru-infantry", "Dai Senso 4.1.4").endswith(
        "the soviet and axis factions are at truce (D18, D63): withdraw the marker")
    events, _ = when(played_under(marker, "12"), "airland e3310 ru-infantry")
    assert MarkersToDelayBox("e3310", ["detachment-japan"], "axis") in events


def test_4_1_3_1_d64_an_snlf_beachhead_0_that_cannot_land_opens_no_beachhead_landing_step():
    """Zhejiang with the Axis's Blitz marker and an SNLF Beachhead-0 off w4725, in Kiangsu under a Policy (D19): its
    Detachment cannot land and no unit is on a Beachhead, so the step has nothing to decide and passes by itself
    (ruling D26; rules version 13, ruling D64). Version 12 opened it with `next` alone, as played, and a game of
    version 12 started from a position at that step still opens there."""
    def snlf(raw):
        raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                          {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        raw["force_pool"]["axis"]["detachment-japan"] = 1
        raw["policy"] = ["kiangsu"]

    blitz = scenario("zhejiang", snlf)
    _, passed = when(blitz, "next")
    assert step(passed) == "regular-combat"
    _, opened = when(played_under(blitz, "12"), "next")
    assert step(opened) == "landing" and orders(opened) == {"next"}
    # a position standing at that step (ruling D60) opens as the sequence would under the game's own version
    at_landing = raw_of("zhejiang", lambda r: (snlf(r), r.update(step="landing")))
    assert step(start(at_landing)) == "regular-combat"
    assert step(start(at_landing, "12")) == "landing"


def _snlf_off_w4725(phasing: str = "axis"):
    """Zhejiang (no Blitz marker) with an Axis SNLF Beachhead-0 at w4626 pointing to w4725 and a Japanese
    Detachment in the Axis Force Pool."""
    def change(raw):
        raw["marker"] += [{"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        raw["force_pool"]["axis"]["detachment-japan"] = 1
        raw["phasing"] = phasing
    return change


def test_4_1_3_1_d70_an_snlf_beachhead_0_lands_its_detachment_without_the_blitz_marker():
    """4.1.3.1 asks only for a supplied SNLF Beachhead-0 on the map (no ground unit, the marker Blitz-enabled of
    itself): without the Axis's Blitz marker the Blitz Combat Segment opens at its Beachhead Landing step for it,
    the Detachment lands, and the CV Strike step (4.1.5) ends the segment (rules version 15, ruling D70). Version 14
    made that segment its CV Strike step alone (4.1 clarification), as played."""
    raw = raw_of("zhejiang", _snlf_off_w4725())
    axis = start(raw)
    assert step(axis) == "landing" and orders(axis) == {"snlf w4626", "next"}
    _, landed = when(axis, "snlf w4626")
    assert any(m.kind == "detachment-japan" and m.hex == "w4725" for m in landed.markers)
    assert step(when(landed, "next")[1]) == "regular-combat"
    # the Axis Combat Phase that follows the Western one opens the same way (4.1, 4.1.3.1)
    western = start(raw_of("zhejiang", _snlf_off_w4725("western")))
    _, axis_phase = when(western, "next")  # the Western Regular Combat Segment ends: its Marker Segment
    while step(axis_phase) not in ("landing", "regular-combat") or axis_phase.phasing != "axis":
        _, axis_phase = when(axis_phase, "next")
    assert step(axis_phase) == "landing" and "snlf w4626" in orders(axis_phase)
    # a position may start at that step; version 14 has no such step and starts at the Regular Combat Segment
    assert step(start(raw_of("zhejiang", lambda r: (_snlf_off_w4725()(r), r.update(step="landing"))))) == "landing"
    old = start(raw, "14")
    assert step(old) == "regular-combat" and not any(o.startswith("snlf") for o in orders(old))
