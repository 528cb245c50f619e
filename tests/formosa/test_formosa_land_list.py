"""Ruling F128 (rules version 14): the listed landings (10.1, 10.2) offer a stack carrying an engineer, so a player
picking from the list, and every automated seat, can bring an engineer ashore to build a base (20.1); a game
created under 1-13 lists its landings as played."""
from __future__ import annotations

from formosa_given import play

from app.rules import legal
from app.rules.base import played_under
from app.rules.catalog import installed
from app.rules.kernel.hexgrid import Hex

RULES = installed().rules("formosa")
PORT = "0413"
BEACH = "0815"  # a Japanese-held beach: its all-sea neighbours may take a marker (10.1 item 3)
POSITION = {"turn": 3, "phase": "invasion", "markers": {"amphibious": 1}, "revealed": ["jp-9-7"],
            "units": {"jp-9-7": BEACH, "us-eng-1": PORT}, "bases": ["us-eng-1"],
            "where": {"us-eng-2": "allied-staging", "us-eng-3": "allied-staging"}}


def start(version: str | None = None):
    state = RULES.initial_state("1", {"position": POSITION})
    return played_under(RULES, state, version) if version else state


def landings(state) -> list[str]:
    return [o["order"] for o in legal.legal_orders(RULES, state, "allied") if o["action"] == "land"]


def test_10_2_the_list_offers_landings_carrying_an_engineer_and_each_is_accepted_f128():
    state = start()
    listed = landings(state)
    with_engineer = [t for t in listed if "us-eng-" in t]
    assert with_engineer and len(listed) <= legal.LIMIT
    assert all(t.endswith(" us-eng-2") and len(t.split(" with ")[1].split()) == 4 for t in with_engineer)
    assert "us-eng-1" not in " ".join(listed)  # on its base side it is static: it lands nowhere (10.2, 2.4)
    seas = {t.split()[1] for t in with_engineer if not state.data.is_land(Hex.parse(t.split()[1]))}
    assert seas  # an opposed landing too: the engineer goes to sea beside the regiments (10.1 item 3, 10.2)
    order = next(t for t in with_engineer if state.data.objectives(Hex.parse(t.split()[1])))
    hex = order.split()[1]
    state = play(state, "allied", order)
    assert state.units["us-eng-2"].where == hex and state.units["us-eng-2"].pinned  # ashore where it may build


def test_f128_a_version_13_game_lists_and_draws_its_landings_as_played():
    old = start("13")
    listed = landings(old)
    assert listed and not [t for t in listed if "us-eng-" in t]
    first_four = "us-1mar-1 us-1mar-5 us-1mar-7 us-27-105"
    assert {t.split(" with ")[1] for t in listed} == {first_four}
    assert not [t for t in legal.orders_to_try(RULES, old, "allied") if "us-eng-" in t]
