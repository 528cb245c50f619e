"""SNC rules version 12 (ruling E24 of docs/rulings/snc-engine.md): the list of legal orders (and a unit's or a hex's
orders, `orders for UNIT|HEX`) holds orders the rules allow that it never named: the 12.0 Wusong landing with all four
markers, an attack with two of its three markers, an advance by part of the survivors when all of them would break
the stacking limit, the 10th Army's second hex by part of a landing hex's units. A game created under version 11 is
listed as it was (docs/core.md "Rules versions")."""
from dataclasses import replace

from snc_given import RULES, given, position, then
from test_snc_reinforcements import at_gt2_japanese_reinforcement_phase

from app.rules import legal

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]


def orders(state, side: str, word: str) -> list[str]:
    return [o["order"] for o in legal.naming(RULES, state, side, word)]


def under(state, version: str | None):
    return RULES.played_under(state, version) if version else state


def test_8_4_12_0_the_wusong_landing_with_all_four_markers_is_listed():
    s = at_gt2_japanese_reinforcement_phase()
    wusong = "land jp-d3-r18 jp-d3-r34 jp-d3-r6 jp-d3-r68 at 3510 support amphibious air artillery naval"
    assert wusong in [o["order"] for o in legal.legal_orders(RULES, s, "japanese")]  # among the first 40
    assert wusong not in orders(under(s, "11"), "japanese", "3510")


def test_11_1_an_attack_is_listed_with_any_two_of_the_three_markers_allowed():
    s = position({"jp-d3-r6": "3510", "jp-d3-r18": "3510", "cn-d87": "3511"}, turn=3)
    two = {"attack 3511 with jp-d3-r6 jp-d3-r18 support air artillery",
           "attack 3511 with jp-d3-r6 jp-d3-r18 support air naval",
           "attack 3511 with jp-d3-r6 jp-d3-r18 support artillery naval"}
    assert two <= set(orders(s, "japanese", "3511"))
    assert not two & set(orders(under(s, "11"), "japanese", "3511"))


def six_survivors(version: str | None = None):
    """Six Japanese regiments from two hexes clear 3408: all six may not advance (6.2: five), the 3rd Division may."""
    s = position({**{u: "3409" for u in D3}, "jp-d11-r12": "3309", "jp-d11-r22": "3309", "cn-gar-c": "3408",
                  "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=7)
    return then(under(s, version), "japanese", "attack 3408 with " + " ".join(D3) + " d11-r12 d11-r22", rolls=[6])


def test_10_5_3_when_all_survivors_would_overstack_the_list_offers_the_parts_that_may_advance():
    listed = [o["order"] for o in legal.legal_orders(RULES, six_survivors(), "japanese")]
    assert "advance jp-d3-r18 jp-d3-r34 jp-d3-r6 jp-d3-r68 to 3408" in listed
    assert "advance jp-d11-r12 jp-d3-r18 jp-d3-r34 jp-d3-r6 jp-d3-r68 to 3408" in listed  # a division and one more
    assert "advance jp-d11-r12 to 3408" in listed and "stay" in listed
    assert [o["order"] for o in legal.legal_orders(RULES, six_survivors("11"), "japanese")] == ["stay"]


def test_8_4_1_the_list_offers_the_second_hex_to_each_division_of_a_landing_hex_holding_more_than_five():
    army = sorted(u.id for u in position({}).units.values() if u.army)
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(army))
    s = then(s, "japanese", "land " + " ".join(army) + " at 3417", rolls=[6])
    s = then(s, "japanese", "stay")  # all fourteen in the landing hex
    advances = [o for o in orders(s, "japanese", "3416") if o.startswith("advance ")]
    assert "advance jp-d18-r114 jp-d18-r124 jp-d18-r55 jp-d18-r56 to 3416" in advances
    assert not [o for o in orders(under(s, "11"), "japanese", "3416") if o.startswith("advance ")]


def test_11_2_the_list_offers_every_set_of_reinforcements_that_covers_the_roll_with_none_not_needed():
    """Ruling R28: GT 4's reinforcements (13.0) and a roll of 3: any one that covers it alone, or two that do only
    together; the list named one set."""
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=4, side="chinese", phase="reinf",
                 pool=("cn-d8", "cn-d9", "cn-d18", "cn-d44", "cn-d60"))
    s = then(s, "chinese", "proceed", rolls=[3])
    cf = {u: s.units[u].cf for u in s.pending[0]["data"]["units"]}
    removals = {frozenset(o.split()[1:]) for o in orders(s, "chinese", "remove") if o.startswith("remove ")}
    alone = {frozenset([u]) for u, f in cf.items() if f >= 3}
    pairs = {frozenset([a, b]) for a in cf for b in cf if a < b and cf[a] < 3 and cf[b] < 3 and cf[a] + cf[b] >= 3}
    assert alone and pairs and removals == alone | pairs
    assert len([o for o in orders(under(s, "11"), "chinese", "remove") if o.startswith("remove ")]) == 1


def test_8_2_b_the_list_offers_a_rail_placement_on_every_railroad_hex_allowed():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d9-r7": "1404"}, turn=5, side="chinese", phase="reinf",
                 pool=("cn-d1",))
    s = replace(s, interdicted=5)
    rails = {o.split()[-1] for o in orders(s, "chinese", "cn-d1") if o.startswith("rail ")}
    assert {"1706", "0202", "1824"} <= rails and not {"1505", "1404"} & rails  # 7.0: 1505 is next to 1404
    assert len({o for o in orders(under(s, "11"), "chinese", "cn-d1") if o.startswith("rail ")}) == 1


def test_8_4_the_list_offers_each_survivor_of_a_landing_retreating_its_own_way():
    d101 = tuple(sorted(u.id for u in given().units.values()
                        if u.side == "japanese" and u.arrival_turn == 3 and u.size == "regiment"))
    s = position({"jp-d3-r6": "3509", "cn-d87": "3408", "cn-d36": "3408", "cn-d88": "3409", "cn-d57": "3412"},
                 turn=3, side="japanese", phase="reinf", pool=d101)
    s = then(s, "japanese", f"land {' '.join(d101)} at 3408", rolls=[1])
    retreats = set(orders(s, "chinese", "3309"))
    assert {"retreat to 3309", "retreat cn-d87 to 3309", "retreat cn-d36 to 3309"} <= retreats
    assert set(orders(under(s, "11"), "chinese", "3309")) == {"retreat to 3309"}


def test_9_6_the_list_offers_a_stack_moving_together_as_an_overrun_needs():
    """9.6: the 11th Division overruns 2707 after moving together into 2806 (the 9.6 example); the list named each
    regiment's move alone, and regiments that moved one by one may not overrun together."""
    d11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]
    s = position({**{u: "2906" for u in d11}, "cn-d7": "2707", "cn-d57": "3612", "jp-snlf-1": "3512"},
                 plan=("move", "fight"))
    together = "move " + " ".join(d11) + " to 2806"
    assert together in orders(s, "japanese", "2806") and together not in orders(under(s, "11"), "japanese", "2806")
    s = then(s, "japanese", together)
    assert any(o.startswith("overrun 2707 with " + " ".join(d11)) for o in orders(s, "japanese", "2707"))


def test_8_3_8_4_the_list_offers_two_replacements_in_one_order_and_one_regiment_landing_alone():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=4,
                 phase="reinf", steps={"jp-d3-r6": 1, "jp-d3-r18": 1}, pool=("jp-d9-r7", "jp-d9-r19"))
    s = replace(s, replacements=2)
    listed = [o["order"] for o in legal.legal_orders(RULES, s, "japanese")]
    assert "replace jp-d3-r18 jp-d3-r6" in listed or "replace jp-d3-r6 jp-d3-r18" in listed
    assert "land jp-d9-r7 at 3509" in orders(s, "japanese", "jp-d9-r7")
    assert "land jp-d9-r7 at 3509" not in orders(under(s, "11"), "japanese", "jp-d9-r7")


def test_9_0_a_units_orders_name_every_hex_it_can_reach_not_only_the_forty_nearest():
    """9.0: a Chinese division in open country reaches far more than 40 hexes with its 8 MP (1 MP a hex, 9.4); the
    list names its 40 nearest first (legal.LIMIT keeps the list short), and the unit's own orders every one."""
    from app.rules.snc import movement

    s = position({"cn-d7": "2014", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=7, side="chinese",
                 plan=("move", "move"))
    reach = movement.nearest_destinations(s, "chinese", [s.units["cn-d7"]])
    assert len(reach) > 60
    moves = {o.split()[-1] for o in orders(s, "chinese", "cn-d7") if o.startswith("move ")}
    assert moves == set(reach)
    assert len({o for o in orders(under(s, "11"), "chinese", "cn-d7") if o.startswith("move ")}) == 40


def test_10_5_2_the_list_offers_every_way_to_lose_two_steps_among_six_equal_brigades():
    """10.5.2: six one-step brigades of 1 lose two steps: any two of them, 15 ways; the list named 12."""
    brigades = ["cn-b20", "cn-b45", "cn-b11", "cn-b12", "cn-b13", "cn-b34"]
    s = position({**{b: "2707" for b in brigades}, "cn-d57": "3612", "jp-snlf-1": "3512",
                  **{u: "2806" for u in D3}}, turn=7)
    s = then(s, "japanese", "attack 2707 with 2806", rolls=[6])
    assert s.pending[0]["kind"] == "losses" and s.pending[0]["data"]["count"] == 2
    losses = [o["order"] for o in legal.legal_orders(RULES, s, "chinese")]
    assert len(losses) == 15 and all(o.startswith("lose ") for o in losses)
    assert len(legal.legal_orders(RULES, under(s, "11"), "chinese")) == 12


def test_6_0_the_list_offers_two_units_that_are_both_needed_beside_the_one_that_does_alone():
    """6.0: 4.5 DE in 2707 (6.2): the elite 14th (1.5) alone, or a division and a brigade, or two divisions, none of
    which could be spared; the list named only the fewest (one unit)."""
    s = position({"cn-d14": "2707", "cn-d7": "2707", "cn-d58": "2707", "cn-b20": "2707", "cn-b45": "2707",
                  "cn-d57": "3612"}, turn=7, side="chinese", plan=("move", "move"))
    s = then(s, "chinese", "end")
    listed = {o["order"] for o in legal.legal_orders(RULES, s, "chinese")}
    assert listed == {"eliminate cn-d14", "eliminate cn-b45 cn-d7", "eliminate cn-b45 cn-d58", "eliminate cn-b20 cn-d7",
                      "eliminate cn-b20 cn-d58", "eliminate cn-d7 cn-d58"}
    assert {o["order"] for o in legal.legal_orders(RULES, under(s, "11"), "chinese")} == {"eliminate cn-d14"}
