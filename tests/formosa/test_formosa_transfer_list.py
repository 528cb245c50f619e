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


def reached(state, side: str, action: str, units) -> set[str]:
    """The `action` orders `side`'s unit orders (`legal.naming`) hold, for each of `units`."""
    return {o["order"] for uid in units for o in legal.naming(RULES, state, side, uid) if o["action"] == action}


def accepted(state, side: str, texts) -> set[str]:
    return {t for t in texts if legal.refusal(RULES, state, RULES.parse(t, side, state)) is None}


def test_8_1_8_2_every_unit_may_be_recruited_and_deployed_where_8_1_allows_through_its_orders_f125():
    """8.2: of a type of several strengths the player picks which unit; the list named the first of each type, so
    the others were reached nowhere; and a unit bought is deployed in every place 8.1 allows, not two of them."""
    from formosa_given import play

    ports = ["0413", "0918"]
    position = {"turn": 3, "phase": "recruit-allied", "bases": ["us-eng-1", "us-eng-2"], "amoy_turn": 2,
                "lp": {"allied": 20}, "units": {"us-eng-1": ports[0], "us-eng-2": ports[1], "jp-9-7": "1014"}}
    state = RULES.initial_state("1", {"position": position})
    waiting = [u.id for u in state.in_display("allied-reinforcements")]
    recruits = accepted(state, "allied", [f"recruit {u}" for u in waiting])
    assert "recruit us-armor-2" in recruits and reached(state, "allied", "recruit", waiting) == recruits
    for order in ("recruit us-armor-2", "recruit us-77-306", "recruit us-arty-3", "recruit us-eng-5"):
        state = play(state, "allied", order)
    bought = ["us-armor-2", "us-77-306", "us-arty-3", "us-eng-5"]
    deploys = accepted(state, "allied", [f"deploy {u} {p}" for u in bought for p in [*ports, "amoy", "1014"]])
    assert len(deploys) == 12 and reached(state, "allied", "deploy", bought) == deploys
    japanese = RULES.initial_state("1", {"position": {**position, "phase": "recruit-japanese", "lp": {"japanese": 9},
                                                      "units": {**position["units"], "jp-12-24": "1020"}}})
    guards = [u.id for u in japanese.in_display("japanese-reinforcements") if japanese.spec(u.id).type == "guard"]
    for uid in guards[:3]:
        japanese = play(japanese, "japanese", f"recruit {uid}")
    land = [str(h) for h in japanese.data.land() if japanese.data.map.features_of(h)]
    deploys = accepted(japanese, "japanese", [f"deploy {u} {h}" for u in guards[:3] for h in land])
    assert len(deploys) == 6 and reached(japanese, "japanese", "deploy", guards[:3]) == deploys
