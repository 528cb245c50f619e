"""Dai Senso 4.2.8 in the list of legal orders (rules version 9, ruling D55: every Exploitation path, one for each end
and enemy markers swept), and orders naming two things where a rule takes one at a time (a second Airdrop hex
4.1.1, a second Airdrop marker withdrawn or landed 4.1.4 and D51, a second unit eliminated D15, exploiting 4.2.8,
losing 4.2.6 or converting 4.2.5.3 a step, a second attacking stack retreating 4.2.5, a second SNLF Landing D34, a
second Troop Convoy 4.3): read, then refused by that rule naming its case, nothing written and no die rolled."""
from __future__ import annotations

from dataclasses import replace

from app.events.store import EventStore
from app.projections import state as projection
from app.rules import legal
from app.rules.catalog import installed
from app.rules.daisenso import GAME, played_under
from app.rules.daisenso.events import MarkersToDelayBox, UnitAdvanced
from app.rules.errors import IllegalOrder
from app.service import games
from tests.daisenso.helpers import ds12_after_the_roll, orders, position, refused, scenario, step, unit, when

CATALOG = installed()  # the rule sets installed here
FAST_TANK = {"values": {"attack": 3, "defense": 2, "ma": 3}}  # a what-if Japanese tank division of MA 3 (D35)


def routed(version: str | None = None, markers=()):
    """A Dr3 0/1 on a one-step Russian unit (DS-16): it retreats three hexes and dies, an Exploitation Distance of
    3; the tank attacking with the Japanese army has an MA of 3 here, so it may exploit three hexes deep."""
    state = position("axis", "soviet", [("jp-t", "jp-tank", "e3411", FAST_TANK), ("jp-a", "jp-army", "e3310"),
                                        ("ru-i", "ru-infantry", "e3410")], hold="e3410", marker=list(markers))
    if version:
        state = played_under(state, version)
    _, state = when(state, "attack e3410 with jp-t jp-a", [6])  # 7 v 2: 3-1, die 6: Dr3 0/1
    while step(state) == "retreat":
        state = when(state, sorted(orders(state))[0])[1]
    assert step(state) == "advance" and state.combat.exploit_distance == 3
    return state


def exploits(state) -> list[dict]:
    return [o for o in GAME.legal_orders(state, GAME.prompt(state).side) if o["action"] == "exploit"]


def every_legal_path(state, uid: str) -> set[tuple[str, ...]]:
    """Every path of up to three hexes from the defending hex the decider accepts, tried one by one."""
    atlas, target = state.data.atlas, state.combat.target
    paths, level = set(), [(target,)]
    for _ in range(2):
        level = [(*p, str(n)) for p in level for n in atlas.neighbours(atlas.parse(p[-1])) if str(n) not in p]
        paths |= {p for p in level if GAME.is_legal(state, GAME.parse(f"exploit {uid} {' '.join(p)}", "axis", state))}
    return paths


def test_4_2_8_the_list_names_every_place_an_exploiting_unit_may_reach_three_hexes_deep():
    state = routed()
    everyone = exploits(state)
    listed = [o for o in everyone if o["subject"] == ["jp-t"] and len(o["order"].split()) > 3]
    # into the defending hex alone, each (the army's MA of 1 takes it no farther) (ruling D72)
    assert {o["order"] for o in everyone if o not in listed} == {"exploit jp-a e3410", "exploit jp-t e3410"}
    legal_paths = every_legal_path(state, "jp-t")
    assert any(len(p) == 3 for p in legal_paths)
    ends = {p[-1] for p in legal_paths}
    assert {o["at"][0] for o in listed} == ends  # each end reached, marked on the map where the path ends
    assert len(listed) == len(ends)  # one path each: without enemy markers two paths to a hex leave one position
    assert all(tuple(o["order"].split()[2:]) in legal_paths and o["subject"] == ["jp-t"] for o in listed)
    assert "exploit jp-t e3410 e3409 e3308" in {o["order"] for o in listed}
    assert "exploit jp-t e3410 e3409 e3308" in legal.orders_to_try(GAME, state, "axis")  # what a random seat draws
    events, after = when(state, "exploit jp-t e3410 e3409 e3308")
    assert UnitAdvanced("jp-t", ["e3410", "e3409", "e3308"]) in events and after.units["jp-t"].hex == "e3308"


def test_4_2_8_d44_two_paths_to_one_hex_are_both_listed_when_one_sweeps_an_enemy_detachment_on_the_way():
    detachment = {"kind": "detachment-soviet", "faction": "soviet", "hex": "e3309"}
    state = routed(markers=[detachment])
    to_e3308 = sorted(o["order"] for o in exploits(state) if o["at"] == ["e3308"])
    assert to_e3308 == ["exploit jp-t e3410 e3309 e3308", "exploit jp-t e3410 e3409 e3308"]
    events, _ = when(state, "exploit jp-t e3410 e3309 e3308")
    assert MarkersToDelayBox("e3309", ["detachment-soviet"], "soviet") in events
    events, _ = when(state, "exploit jp-t e3410 e3409 e3308")
    assert not any(isinstance(e, MarkersToDelayBox) for e in events)


def test_4_2_8_a_game_of_rules_version_8_lists_two_hex_paths_and_still_takes_a_longer_one_typed():
    state = routed("8")
    assert state.rules_version == 8
    assert {len(o["order"].split()) for o in exploits(state)} == {4}  # exploit UNIT e3410 HEX: two hexes
    _, after = when(state, "exploit jp-t e3410 e3409 e3308")
    assert after.units["jp-t"].hex == "e3308"


def test_4_2_8_the_three_scenarios_exploit_two_hexes_at_most_so_version_9_lists_them_as_version_8_did():
    """Ruling D55: the printed counters' MAs are 2 at most, so the list changes only with a what-if (D35)."""
    storm = scenario("august-storm")
    assert max(storm.kind(u).ma for u in storm.units.values()) == 2
    state = position("axis", "soviet", [("jp-t", "jp-tank", "e3411"), ("jp-a", "jp-army", "e3310"),
                                        ("ru-i", "ru-infantry", "e3410")], hold="e3410")
    for version in ("8", None):
        s = played_under(state, version) if version else state
        _, s = when(s, "attack e3410 with jp-t jp-a", [6])
        while step(s) == "retreat":
            s = when(s, sorted(orders(s))[0])[1]
        tank = ["exploit jp-t e3410 e3409", "exploit jp-t e3410 e3509", "exploit jp-t e3410 e3510",
                "exploit jp-t e3410 e3411", "exploit jp-t e3410 e3310", "exploit jp-t e3410 e3309"]
        # from rules version 17 each is listed into the defending hex alone too, the army (MA 1) with it (ruling D72)
        assert [o["order"] for o in exploits(s)] == (
            tank if version else [tank[0], "exploit jp-a e3410", *tank[1:], "exploit jp-t e3410"])


# -- one at a time: the rule refuses the second -------------------------------------------------------------------
def test_4_2_8_exploitation_is_conducted_one_unit_at_a_time():
    state = routed()
    assert "name one, not jp-t, jp-a" in refused(state, "exploit jp-t jp-a e3410 e3409", "Dai Senso 4.2.8")


def test_4_1_1_an_airdrop_marker_is_placed_in_one_hex_and_two_hexes_are_read_as_hexes():
    storm = scenario("august-storm")
    assert step(storm) == "airdrop"
    why = refused(storm, "airdrop ru-1-abde e3411 e3410", "Dai Senso 4.1.1")
    assert "an Airdrop marker is placed in one hex: name one, not e3411, e3410" in why
    assert "one at a time" in refused(storm, "airdrop ru-1-abde ru-6-gta e3411", "Dai Senso 4.1.1")  # two units
    assert orders(storm) >= {"airdrop ru-1-abde e3411"}  # the list reads as before


def test_4_1_4_d51_an_airdrop_marker_goes_to_the_delay_box_one_at_a_time():
    def two_drops(raw):
        raw["marker"] += [{"kind": "airdrop-soviet", "faction": "soviet", "hex": h} for h in ("e3309", "e3311")]

    state = scenario("august-storm", two_drops)
    for _ in range(2):  # no Airdrop, no Blitz attack
        state = when(state, "next")[1]
    assert step(state) == "airdrop-landing" and {"withdraw e3309", "withdraw e3311"} <= orders(state)
    why = refused(state, "withdraw e3309 e3311", "Dai Senso 4.1.4")
    assert "one at a time (ruling D51): name one, not e3309, e3311" in why


def test_d15_overstacked_units_are_eliminated_one_at_a_time():
    z = scenario("zhejiang", lambda r: [unit(r, f"jp-x{n}", "jp-division", "w4524") for n in (1, 2)])
    crowded = replace(z, units={**z.units, "jp-13-army": replace(z.units["jp-13-army"], hex="w4524")})
    _, ended = when(crowded, "next")
    assert step(ended) == "overstack"
    assert "name one, not jp-x1, jp-x2" in refused(ended, "eliminate jp-x1 jp-x2", "Dai Senso 4.2.5.3")


def test_a_refused_second_airdrop_hex_writes_nothing_and_rolls_no_die(tmp_path):
    store = EventStore(str(tmp_path / "g.sqlite3"))
    game_id = games.create_game(store, CATALOG, "daisenso", "august-storm")
    for side in ("axis", "allied"):
        games.join(store, CATALOG, game_id, side, f"{side}@example.org", f"{side} text")
    before = projection.load(store, CATALOG, game_id)
    head = store.head(game_id)
    try:
        games.submit(store, CATALOG, game_id, "allied", "airdrop ru-1-abde e3411 e3410")
    except IllegalOrder as exc:
        assert exc.case == "Dai Senso 4.1.1" and "placed in one hex: name one, not e3411, e3410" in str(exc)
    else:
        raise AssertionError("a second Airdrop hex was accepted")
    after = projection.load(store, CATALOG, game_id)
    assert store.head(game_id) == head and after.meta.rolls == before.meta.rolls


def test_4_2_6_and_4_2_5_an_attacker_loses_one_step_at_a_time_and_its_stacks_retreat_apart():
    state = position("western", "axis", [("us-mar", "us-marine", "w4424"), ("us-m2", "us-marine", "w4224"),
                                         ("jp-a", "jp-army", "w4324")], hold="w4324")
    _, state = when(state, "attack w4324 with us-mar us-m2", [1])  # 1-3, Ad 1/0: retreat or one step
    assert step(state) == "attacker-result" and {"lose us-mar", "lose us-m2"} <= orders(state)
    assert "name one, not us-mar, us-m2" in refused(state, "lose us-mar us-m2", "Dai Senso 4.2.6")
    assert "retreat apart, one at a time: name one, not w4424, w4224" in refused(
        state, "retreat w4424 w4224 to w4423", "Dai Senso 4.2.5")


def test_4_2_5_3_a_retreat_result_converts_one_step_at_a_time():
    _, z = ds12_after_the_roll()  # 3-1, Dr3 0/1: the HQ holds the force, so a step
    assert step(z) == "retreat" and "convert cn-3-hq as kiangsu-res" in orders(z)
    assert "one for one: name one, not cn-3-hq, cn-9-war-zone" in refused(
        z, "convert cn-3-hq cn-9-war-zone", "Dai Senso 4.2.5.3")


def test_4_1_3_1_and_4_1_4_and_4_3_one_snlf_landing_one_airdrop_landing_one_convoy_an_order():
    def snlf(raw):
        raw["marker"] += [{"kind": "blitz", "faction": "axis", "hex": "w4625"},
                          {"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        raw["force_pool"]["axis"]["detachment-japan"] = 1

    z = when(scenario("zhejiang", snlf), "next")[1]
    assert orders(z) == {"snlf w4626", "next"}
    assert "(ruling D34): name one, not w4626, w4525" in refused(z, "snlf w4626 w4525", "Dai Senso 4.1.3.1")

    def two_drops(raw):
        raw["marker"] += [{"kind": "airdrop-soviet", "faction": "soviet", "hex": h} for h in ("e3309", "e3311")]

    storm = scenario("august-storm", two_drops)
    for _ in range(2):
        storm = when(storm, "next")[1]
    assert {"airland e3309 ru-infantry", "airland e3311 ru-infantry"} <= orders(storm)
    assert "one at a time (ruling D51): name one, not e3309, e3311" in refused(
        storm, "airland e3309 e3311 ru-infantry", "Dai Senso 4.1.4")
    assert "one one-step infantry unit: name one, not ru-infantry, ru-airborne" in refused(
        storm, "airland e3309 ru-infantry ru-airborne", "Dai Senso 4.1.4")

    strait = scenario("strait")
    for _ in range(2):  # Blitz Combat, Regular Combat: the Marker Segment
        strait = when(strait, "next")[1]
    assert step(strait) == "convoys" and "convoy east-china-sea" in orders(strait)
    assert "one Troop Convoy marker at a time: name one, not east-china-sea, south-china-sea" in refused(
        strait, "convoy east-china-sea south-china-sea", "Dai Senso 4.3")
