"""Ruling F131 (rules version 16): the list of legal orders offers what the text allows. Every Allied mobile unit may
land (10.2), the Commonwealth's too (Scenario 2, 24.2), so the listed landings carry Commonwealth stacks beside the
US ones (13.1: never together); interdiction may be placed on any hex of the map (16.1), so the listed interdiction
is every hex it acts on, not only hexes holding Japanese units, with one or two points (16.4). A game created under
1-15 lists and decides as played."""
from __future__ import annotations

from formosa_given import play

from app.rules import legal
from app.rules.base import played_under
from app.rules.catalog import installed
from app.rules.kernel.hexgrid import Hex

RULES = installed().rules("formosa")
BEACH = "0815"
CW = {"cw-7-18", "cw-7-21", "cw-7-25", "cw-armor-1", "cw-cdo-3", "cw-eng-1", "cw-hq-1"}
LANDING = {"turn": 3, "phase": "invasion", "markers": {"amphibious": 1}, "revealed": ["jp-9-7"],
           "units": {"jp-9-7": BEACH}, "where": dict.fromkeys(sorted(CW), "allied-staging")}
INTERDICTION = {"turn": 3, "phase": "interdiction", "revealed": ["jp-9-7"],
                "units": {"jp-9-7": "1013", "jp-9-19": "1115", "us-7-17": "1012"},
                "air": {"allied-tac": 4}, "missions": {"allied": {"interdiction": 3}}}


def start(position: dict, version: str | None = None):
    state = RULES.initial_state("2", {"position": position})
    return played_under(RULES, state, version) if version else state


def listed(state, action: str) -> list[str]:
    return [o["order"] for o in legal.legal_orders(RULES, state, "allied", limit=400) if o["action"] == action]


def test_10_2_24_2_the_listed_landings_carry_commonwealth_stacks_and_each_is_accepted_f131():
    state = start(LANDING)
    landings = listed(state, "land")
    cw = [t for t in landings if "cw-" in t]
    assert cw and all({u for u in t.split(" with ")[1].split()} <= CW for t in cw)  # never with US units (13.1)
    assert [t for t in listed(state, "land")[: legal.LIMIT] if "cw-" in t]  # within the list a player reads
    assert any("cw-eng-1" in t for t in cw)  # the engineer too (F128), to build a base
    assert any(not state.data.is_land(Hex.parse(t.split()[1])) for t in cw)  # and at sea, to assault (10.1 item 3)
    order = next(t for t in cw if state.data.is_land(Hex.parse(t.split()[1])))
    after = play(state, "allied", order)
    assert {after.units[u].where for u in order.split(" with ")[1].split()} == {order.split()[1]}
    assert [t for t in legal.orders_to_try(RULES, state, "allied") if "cw-" in t]  # the random player draws them


def test_f131_a_version_15_game_lists_its_landings_as_played():
    old = start(LANDING, "15")
    assert listed(old, "land") and not [t for t in listed(old, "land") if "cw-" in t]


def test_16_1_16_4_the_listed_interdiction_is_every_hex_it_acts_on_with_one_or_two_points_f131():
    state = start(INTERDICTION)
    orders = listed(state, "interdict")
    hexes = {t.split()[1] for t in orders}
    empty = {h for h in hexes if not state.at(h)}
    assert {"1013", "1115"} <= hexes and empty  # hexes next to the Japanese, where their moves go (16.4 items 2-3)
    assert "1012" not in hexes  # an Allied-held hex no Japanese unit may enter
    assert {t.split()[2] for t in orders} == {"1", "2"}
    h = sorted(empty)[0]
    after = play(state, "allied", f"interdict {h} 2")
    assert after.strike.interdicted == ((h, "us", 2),)


def test_f131_a_version_15_game_lists_its_interdiction_as_played():
    old = start(INTERDICTION, "15")
    orders = listed(old, "interdict")
    assert orders and all(old.at(t.split()[1], "japanese") and t.split()[2] == "1" for t in orders)
