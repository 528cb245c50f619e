"""Ruling F125 (rules version 13): the list of legal orders names every unit that may make a naval transfer (21.0),
and a unit's orders (`orders for UNIT` by email, the play page's ?naming=) hold every transfer it may make; the
random player still draws from the few the list tried before (app/rules/legal.py `listed_candidates`)."""
from __future__ import annotations

from app.rules import legal
from app.rules.base import played_under
from app.rules.catalog import installed

RULES = installed().rules("formosa")
PORT = "0413"
POSITION = {"turn": 3, "phase": "naval-transfer", "bases": ["us-eng-1"], "revealed": ["jp-9-7"],
            "units": {"us-eng-1": PORT, "us-7-17": PORT, "us-27-105": "0815", "us-27-106": "1012", "jp-9-7": "1014"}}


def start(version: str | None = None):
    state = RULES.initial_state("1", {"position": POSITION})
    return played_under(RULES, state, version) if version else state


def every_transfer(state) -> set[str]:
    """Each `transfer UNIT to PLACE` the decider accepts, tried for every Allied unit and place."""
    places = ["staging"] + sorted(str(h) for h in state.data.land() if state.data.is_coastal(h))
    found = set()
    for u in state.units.values():
        if u.side == "allied" and u.where != "out":
            for place in places:
                text = f"transfer {u.id} to {place}"
                if legal.refusal(RULES, state, RULES.parse(text, "allied", state)) is None:
                    found.add(text)
    return found


def test_21_0_every_legal_transfer_is_reached_through_its_unit_and_every_unit_is_listed_f125():
    state = start()
    legal_now = every_transfer(state)
    assert {"transfer us-7-32 to 0413", "transfer us-27-105 to 0413", "transfer us-7-17 to 1012"} <= legal_now
    units = {text.split()[1] for text in legal_now}
    reached = {o["order"] for uid in units for o in legal.naming(RULES, state, "allied", uid)
               if o["action"] == "transfer"}
    assert reached == legal_now
    [kind] = [k for k in legal.by_kind(RULES, state, "allied") if k["action"] == "transfer"]
    assert kind["count"] == len(units) and {s for o in kind["orders"] for s in o["subject"]} == units


def test_f125_the_random_player_draws_from_the_same_orders_and_a_version_12_game_lists_as_played():
    state = start()
    assert legal.orders_to_try(RULES, state, "allied") == legal.orders_to_try(RULES, start("12"), "allied")
    old = start("12")
    assert not [o for o in legal.naming(RULES, old, "allied", "us-7-32") if o["action"] == "transfer"]
