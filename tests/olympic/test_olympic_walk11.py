"""Session part 15's reading of the Olympic fragments against the engine (docs/rulings/olympic.md): ruling R49, the
list of legal orders holds every landing, attack (each set of attackers, each advance), exchange loss, move,
placement and standing retreat hex (rules version 10; version 9 listed a few of each, and a player who asked for a
unit's orders never saw the rest); ruling R50, an amphibious assault that names an advance is refused by R17; ruling
R51, an order naming two hexes where it takes one is refused by its rule, not as an order that cannot be read."""
from __future__ import annotations

import tomllib
from itertools import combinations

from olympic_given import given, refused, when
from test_olympic_position import docs_example, start

from app.rules import legal
from app.rules.olympic import GAME, played_under

LANDING = "1343"  # a Satsuma invasion zone hex with three land hexes next to it
BEACH = ("1344", "1442", "1443")


def _listed(state, verb: str | None = None) -> set[str]:
    return {o["order"] for o in GAME.legal_orders(state, "american") if verb is None or o["action"] == verb}


def _named(state, word: str, verb: str) -> set[str]:
    return {o["order"] for o in legal.naming(GAME, state, "american", word) if o["action"] == verb}


def test_ruling_r49_every_land_hex_next_to_a_unit_at_sea_is_listed_for_it_and_its_stack():
    state = given("assault", 1, {"us-25-27": LANDING, "us-25-35": LANDING})
    every = {f"land {u} at {h}" for u in ("us-25-27", "us-25-35", "us-25-27 us-25-35") for h in BEACH}
    assert _listed(state, "land") == every  # each accepted as listed (the list keeps what the decider accepts)
    assert len(_listed(played_under(state, "9"), "land")) == 4  # version 9: two hexes a unit, no stack


def test_ruling_r49_every_set_of_attackers_and_every_advance_of_three_at_most_is_listed():
    # 8.8, 8.9, R30, R38: one hex, any of the units next to it, any three (or fewer) of them named to advance
    state = given("combat", 2, {"us-25-27": "3334", "us-25-35": "3334", "us-25-161": "3233", "jp-154-1": "3333"},
                  beachheads=("3334",))
    units = sorted(["us-25-27", "us-25-35", "us-25-161"])
    every = set()
    for k in (1, 2, 3):
        for chosen in combinations(units, k):
            every.add(f"attack 3333 with {' '.join(chosen)}")
            every |= {f"attack 3333 with {' '.join(chosen)} advance {' '.join(a)}"
                      for j in range(1, k + 1) for a in combinations(chosen, j)}
    on_it = {o for o in _listed(state, "attack") if o.startswith("attack 3333 ")}  # (3232's militia: one more hex)
    assert len(every) == 26 and on_it == every
    assert {f"attack 3333 with {' '.join(units)}"} == {
        o for o in _listed(played_under(state, "9"), "attack") if o.startswith("attack 3333 ")}


def test_ruling_r49_every_set_of_attackers_an_exchange_may_eliminate_is_listed_r40():
    # the documented exchange: three 4s owe the 154th's 4 and Miyazaki's militia, 3: any two, none spare (R40)
    state = start(tomllib.loads(docs_example(3)))
    every = {f"lose {a} {b}" for a, b in combinations(["us-25-27", "us-25-35", "us-25-161"], 2)}
    assert _listed(state, "lose") == every
    for order in every:
        assert when(state, "american", order)
    assert len(_listed(played_under(state, "9"), "lose")) == 1


def test_ruling_r49_a_units_orders_hold_every_hex_it_may_move_to_and_its_stack_is_listed_moving_together():
    # R10: 12 MP; R11: no entering an intact militia; the Japanese in 1640 stop the way into their zone (R15)
    state = given("movement", 2, {"us-25-27": "1443", "us-25-35": "1443", "jp-154-1": "1640"}, beachheads=("1443",))
    moves = _named(state, "us-25-27", "move")
    alone = {o for o in moves if o.startswith("move us-25-27 to ")}
    assert len(alone) > 30 and len(_named(played_under(state, "9"), "us-25-27", "move")) == 3
    assert "move us-25-27 to 1641" in alone and "move us-25-27 to 1541" not in alone  # 1541: a town's militia
    together = {o.replace("move us-25-27 us-25-35 ", "move us-25-27 ") for o in moves} - alone
    assert not together and {o.replace("us-25-27", "us-25-27 us-25-35", 1) for o in alone} <= moves


def test_ruling_r49_every_zone_hex_and_beachhead_for_each_unit_and_every_beachhead_to_retreat_toward():
    placed = _named(given("placement", 1), "us-amer-182", "place")
    zones = {str(h) for z in GAME.data().zones for h in GAME.data().zone_hexes(z)}
    assert {o for o in placed if o.startswith("place us-amer-182 at ")} == {f"place us-amer-182 at {h}" for h in zones}
    state = given("reinforcement", 2, {"us-25-27": "1443", "jp-154-1": "1640"}, beachheads=("1443", "1442"))
    assert {"place us-77-305 at 1443", "place us-77-305 at 1442"} <= _named(state, "us-77-305", "place")
    assert {"retreat toward 1443", "retreat toward 1442"} <= _listed(state, "retreat")
    old = played_under(state, "9")
    assert "place us-77-305 at 1442" not in _named(old, "us-77-305", "place")
    assert _listed(old, "retreat") == {"retreat toward 1443"}


def test_ruling_r50_an_amphibious_assault_names_no_advance_its_survivors_land():
    # R17, R38: after an assault that clears the hex the surviving assaulting units land, three at most
    state = given("assault", 1, {"us-25-27": LANDING, "us-25-35": LANDING, "jp-154-1": "1442"})
    says = refused(state, "american", "assault 1442 with 25-27 25-35 advance 25-27", "Olympic ruling R17")
    assert "advance" in says and "land" in says


def test_ruling_r51_an_order_naming_two_hexes_where_it_takes_one_is_refused_by_its_rule_not_as_unreadable():
    # issue 30: "every refusal a rule causes names the rule" (Ichi-Go's attack on two hexes, Olympic's R30)
    placing = given("placement", 1)
    assert "one invasion zone hex" in refused(placing, "american", "place 25-27 at 1343 1342", "Olympic 14.4")
    landing = given("assault", 2, {"us-25-27": LANDING, "us-25-35": LANDING})
    assert "one land hex" in refused(landing, "american", "land 25-27 at 1443 1344", "Olympic ruling R17")
    refused(landing, "american", "place 77-305 at 1343 1342", "Olympic ruling R17")  # the later invasion
    moving = given("movement", 2, {"us-25-27": "1443"}, beachheads=("1443",))
    assert "via" in refused(moving, "american", "move 25-27 to 1444 1442", "Olympic ruling R10")
    refused(moving, "american", "retreat toward 1442 1443", "Olympic ruling R24")
    placing = given("reinforcement", 2, {"us-25-27": "1443"}, beachheads=("1443", "1442"))
    refused(placing, "american", "place 25-35 at 1442 1443", "Olympic ruling R18")
    assert when(placing, "american", "place 25-35 at 1442")  # one hex, as before
    japanese = given("japanese-combat", 2, {"us-25-27": "3235", "us-25-35": "3235", "jp-154-1": "3135"},
                     beachheads=("3235",))
    refused(japanese, "japanese", "jattack jp-154-1 on us-25-27 us-25-35", "Olympic 8.52")  # by hand: one unit
