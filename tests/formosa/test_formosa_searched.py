"""The orders the strong opponent searches for the Allies in Formosa from search edition 7 (app/rules/formosa/
searched.py, the rule set's `searched` hook): no LP spent below what a base in reach needs (20.1), no Base Building
Phase ended while a base can be built, no unit put or left where 15.0 forces a hopeless attack on it (14.2).
Edition 6 and older seats search every listed order, as their games were played."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, play
from formosa_map import ring

from app.rules import evaluation, practice
from app.rules.formosa import GAME
from app.rules.formosa.searched import base_reserve, hopeless, searched
from app.rules.kernel.hexgrid import Hex

D = GAME.data({})
ENGINEER = next(u.id for u in D.units if u.side == "allied" and u.type == "engineer" and u.nationality == "us")
PORT = next(str(h) for h in sorted(D.ports()) if set(D.objectives(h)) == {"minor-port"})  # a base: 3 LP (20.1)
JAPANESE = [u.id for u in D.units if u.side == "japanese" and u.type == "infantry" and u.cf == 4
            and not u.indicator][:3]
X, AROUND = ring()


def listed(state) -> list[str]:
    return [item["order"] for item in GAME.legal_orders(state, "allied")]


def test_the_hook_is_read_from_edition_7_only():
    assert evaluation.hook(GAME, "searched", 6, since=7) is None
    assert evaluation.hook(GAME, "searched", 7, since=7) is GAME.searched


def test_the_recruit_phase_keeps_the_lp_a_base_in_reach_needs():
    """20.1: an engineer in a minor port builds its base for 3 LP. With 4 LP, a 3-LP amphibious marker would leave
    1 and is passed over; a 1-LP drop zone marker leaves the 3 and is searched, as is ending the phase. Without an
    engineer on the map nothing is kept."""
    state = given(step="recruit-allied", turn=5, units={ENGINEER: PORT}, lp={"allied": 4, "japanese": 0})
    assert base_reserve(state) == 3
    orders = listed(state)
    kept = searched(state, "allied", orders)
    assert "buy 1 amphibious" in orders and "buy 1 amphibious" not in kept
    assert {"buy 1 drop-zone", "end"} <= set(kept)
    staging = replace(state, units={**state.units, ENGINEER: replace(state.units[ENGINEER], where="allied-staging")})
    assert base_reserve(staging) == 0 and searched(staging, "allied", listed(staging)) == listed(staging)


def test_the_base_building_phase_is_not_ended_while_a_base_can_be_built():
    """20.1: with the engineer in the port and the LP for it, the search builds the base (edition 7); ending the
    phase is not searched, nor is giving a base up (20.2), which it had built again for an LP each time."""
    state = given(step="base-building", turn=5, units={ENGINEER: PORT}, lp={"allied": 3, "japanese": 0})
    assert searched(state, "allied", listed(state)) == [f"build {PORT}"]
    order, _ = practice.choose(GAME, "search", state, "allied", {"edition": 7, "playouts": 4})
    assert order == f"build {PORT}"
    poor = replace(state, lp={"allied": 2, "japanese": 0})
    assert searched(poor, "allied", listed(poor)) == ["end"]
    built = play(state, "allied", f"build {PORT}")
    assert f"demobilise {PORT}" in listed(built) and searched(built, "allied", listed(built)) == ["end"]


def test_no_unit_is_moved_or_left_where_15_0_forces_a_hopeless_attack():
    """14.1, 14.2, 15.0: a US regiment (4) next to three Japanese regiments (12) must attack them at 33%, the
    <=49% column; a move into such a hex is passed over, and while a listed move takes the regiment out the
    Movement Phase is not ended. Concealed units count 3 each (11.1: their factors unseen)."""
    start, far = (next(str(h) for h in sorted(D.map.hexes()) if D.map.distance(h, Hex.parse(X)) == n and D.is_land(h))
                  for n in (3, 2))
    units = {**dict.fromkeys(JAPANESE, X), "us-7-17": AROUND[0], "us-27-105": start}
    state = given(step="allied-movement", turn=5, units=units)
    assert hopeless(state, AROUND[0], [])
    orders = listed(state)
    kept = searched(state, "allied", orders)
    assert "end" in orders and "end" not in kept
    assert any(o.startswith("move us-7-17") for o in kept)
    into, away = f"move us-27-105 {AROUND[4]}", f"move us-27-105 {far}"  # as a longer list would give them
    assert searched(state, "allied", [into, away, "end"]) == [away, "end"]
    assert hopeless(state, AROUND[0], ["us-7-184"])  # 8 against 12: 66%, the 50-99% column, still below 100%
    assert not hopeless(state, AROUND[0], ["us-7-184", "us-1mar-1"])  # 13 against 12: 108%
    hidden = given(step="allied-movement", turn=5, units=units, concealed=tuple(JAPANESE))
    assert hopeless(hidden, AROUND[0], ["us-7-184"])  # 8 against 9
    assert not hopeless(hidden, AROUND[0], ["us-1mar-1"])  # 9 against 9: 100%


def test_a_hopeless_landing_is_still_searched_while_no_allied_unit_is_on_formosa():
    """4.1: from GT 2 no Allied ground unit on Formosa is a Japanese Strategic Victory: a landing next to the three
    regiments is passed over once the Allies hold a hex, never while ending the phase is all that would be left."""
    empty = given(step="invasion", turn=1, units={**dict.fromkeys(JAPANESE, X), "us-7-17": "allied-staging"})
    orders = [f"land {AROUND[0]} with us-7-17", "end"]
    assert searched(empty, "allied", orders) == orders
    ashore = given(step="invasion", turn=1, units={**dict.fromkeys(JAPANESE, X), "us-7-17": "allied-staging",
                                                  "us-7-184": AROUND[3]})
    assert searched(ashore, "allied", orders) == ["end"]


def test_the_naval_transfer_phase_ships_staged_units_ashore_and_takes_off_only_threatened_ones():
    """21.0: from the Staging Area to a port the Allies hold costs nothing (no marker): while one can be shipped
    ashore, ending the phase is not searched; a unit on Formosa is shipped back only if a hopeless attack waits
    for it there (it may embark in an EZOC)."""
    state = given(step="naval-transfer", turn=3, units={ENGINEER: "allied-staging", "us-7-17": PORT})
    orders = listed(state)
    assert f"transfer {ENGINEER} to {PORT}" in orders and "transfer us-7-17 to staging" in orders
    assert searched(state, "allied", orders) == [f"transfer {ENGINEER} to {PORT}"]
    threatened = given(step="naval-transfer", turn=3, units={**dict.fromkeys(JAPANESE, X), "us-7-17": AROUND[0]})
    assert searched(threatened, "allied", ["transfer us-7-17 to staging", "end"]) == ["transfer us-7-17 to staging"]
