"""A Formosa position with a combat under way (ruling F130, `[combat]` of docs/custom-positions.md): at each point
of a worked example the position gives the same events as the combat played from its declaration, and each
misstatement is refused naming its case."""
from __future__ import annotations

import pytest
from formosa_given import documented_position, of, when
from formosa_map import M, ring

from app.events.core import DieRolled
from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME
from app.rules.formosa.events import CombatResolved, UnitEliminated, UnitRetreated, UnitsAdvanced
from app.rules.kernel.hexgrid import Hex
from tests.served import Served

X, AROUND = ring("open")
PEAK, PEAK_AROUND = ring("peak")
MARINES = ["us-1mar-1", "us-1mar-5"]


def position(units: dict, combat: dict, lp: dict | None = None, **keys) -> dict:
    revealed = [u for u in units if u.startswith("jp-")]
    return {"turn": 4, "phase": "allied-combat", "revealed": revealed, "units": units,
            "lp": lp or {"allied": 0, "japanese": 0}, "combat": combat, **keys}


def start(pos: dict, optional=()):
    return GAME.initial_state("1", {"position": pos, **({"optional": list(optional)} if optional else {})})


def played(state, orders) -> list[list]:
    """The events of each order (side, text, dice) given in turn from `state`."""
    out = []
    for side, text, rolls in orders:
        events = when(state, side, text, rolls)
        out.append(events)
        for e in events:
            if not isinstance(e, DieRolled):
                state = GAME.evolve(state, e)
    return out


def refused(pos: dict, says: str, optional=()) -> str:
    with pytest.raises(SetupError) as err:
        start(pos, optional)
    assert says in str(err.value), str(err.value)
    return str(err.value)


# -- the worked example of 15.5 (CF-6): two US 5-5 attack a Japanese 3-6, BB ----------------------------------
BB_UNITS = {"us-1mar-1": AROUND[0], "us-1mar-5": AROUND[1], "jp-50-301": X}
BB_ATTACK = {"attackers": MARINES, "hexes": [X]}
BB_ORDERS = [("japanese", "defend", [3]), ("allied", "lose us-1mar-5", []), ("allied", f"advance us-1mar-1 to {X}", [])]


def test_f130_positions_at_each_point_of_the_15_5_bloodbath_give_the_events_the_combat_played():
    """Declared (the Japanese, with an LP, asked for their defence, F22), rolled (BB: the Allies name the 5-5
    they lose), the loss named (the survivor may advance): each point a position, each continuing as played."""
    lp = {"allied": 0, "japanese": 1}
    state = start(position(BB_UNITS, {"stage": "defence", **BB_ATTACK}, lp))
    assert state.pending[0]["kind"] == "defence" and state.strike.declared["units"] == MARINES
    whole = played(state, BB_ORDERS)
    [resolved] = of(whole[0], CombatResolved)
    assert (resolved.code, [e.unit for e in of(whole[0], UnitEliminated)]) == ("BB", ["jp-50-301"])
    assert of(whole[2], UnitsAdvanced)[0].path == [X]
    points = [({"stage": "losses", "result": "BB"}, 1),
              ({"stage": "advance", "result": "BB", "lost": ["us-1mar-5"]}, 2)]
    for said, done in points:
        state = start(position(BB_UNITS, {**BB_ATTACK, **said, "defence": {}}, lp))
        assert played(state, BB_ORDERS[done:]) == whole[done:], said
        assert state.lp["japanese"] == 1  # the defender committed nothing


def test_f130_the_attacker_s_support_is_checked_as_the_attack_order_checks_it():
    """The attacker's LP are spent with the attack (15.4.1) only by a force with a line of supply (19.5 item 2):
    without a functional port there is none, and the position is refused by that rule."""
    attack = {"attackers": MARINES, "hexes": [X], "lp": 1, "stage": "losses", "result": "BB"}
    says = refused(position(BB_UNITS, attack, {"allied": 2, "japanese": 0}), "line of supply")
    assert "ruling F130" in says


# -- a DR whose retreat is a choice, and a DE's advance and 25.1's exploitation offer ------------------------
def test_f130_a_retreat_to_make_and_one_made_are_positions_that_play_on_as_the_combat():
    state = start(position(BB_UNITS, {"stage": "retreat", **BB_ATTACK, "result": "DR"}))
    assert state.pending[0] == {"units": ["jp-50-301"], "kind": "retreat", "side": "japanese"}
    paths = [o["order"] for o in GAME.legal_orders(state, "japanese") if o["action"] == "retreat"]
    assert len(paths) > 1
    path = paths[-1].split()[2:]
    whole = played(state, [("japanese", paths[-1], []), ("allied", f"advance us-1mar-1 to {X}", [])])
    assert of(whole[0], UnitRetreated)[0].path == [X, *path]
    after = start(position(BB_UNITS, {"stage": "advance", **BB_ATTACK, "result": "DR",
                                      "retreats": {"jp-50-301": path}}))
    assert played(after, [("allied", f"advance us-1mar-1 to {X}", [])]) == whole[1:]
    assert after.units["jp-50-301"].where == path[-1]


def test_f130_a_de_s_advance_and_the_exploitation_offered_after_it_f90():
    beyond = next(str(n) for n in M.neighbours(Hex.parse(AROUND[0])) if str(n) not in (X, *AROUND))
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guerrilla-1": X, "jp-50-301": beyond}
    attack = {"attackers": ["us-7-17", "us-7-32"], "hexes": [X], "result": "DE"}
    done = {"attacked_hexes": [beyond]}  # attacked earlier this phase: no ZOC left to attack (15.0), F4 may again
    state = start(position(units, {"stage": "advance", **attack}, **done), ["25.1"])
    whole = played(state, [("allied", f"advance us-7-32 to {X}", []), ("allied", "hold", [])])
    assert whole[1][-1].kind == "exploit" and whole[1][-1].data == {"units": ["us-7-17"]}
    offered = start(position(units, {"stage": "exploitation", **attack, "advanced": {"us-7-32": [X]}}, **done),
                    ["25.1"])
    assert offered.pending[0] == {"units": ["us-7-17"], "kind": "exploit", "side": "allied"}
    assert offered.units["us-7-32"].where == X
    held = start(position(units, {"stage": "exploitation", **attack, "held": True}, **done), ["25.1"])
    assert held.units["us-7-32"].where == AROUND[1]
    assert held.pending[0]["units"] == ["us-7-17"]  # the one stack next to an enemy hex (F90)
    # without 25.1 the DE ends the combat with the advance: no exploitation stage
    refused(position(units, {"stage": "exploitation", **attack, "held": True}, **done), "the combat is over")


def test_f130_a_ca_s_counterattack_waits_for_its_hex_and_its_own_result_is_played_15_6():
    units = {"us-1mar-1": PEAK_AROUND[0], "us-7-17": PEAK_AROUND[1], "jp-guerrilla-1": PEAK}
    attack = {"attackers": ["us-1mar-1", "us-7-17"], "hexes": [PEAK], "result": "CA"}
    state = start(position(units, {"stage": "counterattack", **attack}))
    assert state.pending[0]["kind"] == "counterattack" and state.pending[0]["hexes"] == sorted(PEAK_AROUND[:2])
    [counter] = of(when(state, "japanese", f"counterattack {PEAK_AROUND[1]}", [6]), CombatResolved)
    assert counter.counterattack and counter.code == "CA"
    # a counterattack result the column never gives is refused by 15.2
    refused(position(units, {"stage": "advance", **attack, "counterattacked": PEAK_AROUND[1],
                             "counter_result": "DE"}), "column")


# -- misstatements, each refused naming its case ---------------------------------------------------------------
@pytest.mark.parametrize(("said", "says"), [
    ({"stage": "losses", "result": "DE"}, "'DE': the attack reads the 300-399% column"),          # 15.2
    ({"stage": "retreat", "result": "BB"}, "stage retreat: after what is stated the combat waits for allied's losses"),
    ({"stage": "advance", "result": "BB", "lost": ["us-1mar-1", "us-1mar-5"]}, "Formosa 15.5 BB"),  # none to spare
    ({"stage": "advance", "result": "BB", "lost": ["us-1mar-5", "jp-50-301"]}, "jp-50-301"),       # not a choice
    ({"stage": "losses"}, "give its result"),
    ({"stage": "defence"}, "the combat does not wait there"),                                     # no LP: F22
    ({"stage": "losses", "result": "BB", "defence": {"lp": 1}}, "the defender was never asked"),
    ({"stage": "losses", "result": "XX"}, "a result of the Combat Results Tables"),
    ({"stage": "soon", "result": "BB"}, "stage: one of"),
])
def test_f130_each_misstatement_is_refused_naming_its_case(said, says):
    message = refused(position(BB_UNITS, {**BB_ATTACK, **said}), says)
    assert "Formosa " in message


def test_f130_an_attack_no_order_could_make_is_refused_by_the_attack_order_s_case():
    far = {"us-1mar-1": AROUND[0], "us-1mar-5": AROUND[3], "jp-50-301": AROUND[1]}
    message = refused(position(far, {"stage": "losses", "attackers": MARINES, "hexes": [AROUND[1]],
                                     "result": "BB"}), "is not next to")
    assert message.endswith("(Formosa 15.0, ruling F130)")
    refused({**position(BB_UNITS, {"stage": "losses", **BB_ATTACK, "result": "BB"}), "phase": "allied-movement"},
            "an attack is made in a Combat Phase")
    both = {**position(BB_UNITS, {"stage": "losses", **BB_ATTACK, "result": "BB"}),
            "advance": {"attackers": MARINES, "hexes": [X], "result": "DE"}}
    refused(both, "one combat is under way at a time")


def test_f130_the_documented_combat_position_is_played(store):
    """docs/custom-positions.md's `[combat]` example, through the service: the Japanese name their loss of the
    B1 and the combat goes on to the Allied one."""
    doc = documented_position(6)
    assert doc["combat"]["stage"] == "losses"
    game = Served(store, "formosa", doc, ("allied", "japanese"))
    assert game.state().game.pending[0]["side"] == "allied"
    assert "Formosa 15.5" in game.refused("allied", "lose jp-9-7")
    assert "Formosa 15.5" in game.refused("allied", "lose us-7-17 us-1mar-1")
    events = game.do("allied", "lose us-7-17")
    assert [e.payload["unit"] for e in events if e.type == "formosa.UnitEliminated"] == ["us-7-17"]
    assert game.state().game.pending[0] == {**game.state().game.pending[0], "kind": "losses", "side": "japanese"}


def test_f130_an_assault_from_the_sea_under_way_waits_for_the_defence_then_for_who_lands_10_2_2():
    """An assault by two stacks at sea (F24) that the Japanese, with an LP, may answer (F22); after its DE more
    units are at sea than the beach holds, and the Allies choose who lands (F127): both points are positions."""
    from formosa_map import shore

    beach, (sea, sea2) = shore(2)
    four = ["us-7-17", "us-7-32", "us-7-184", "us-27-105"]
    base = {"turn": 3, "phase": "invasion", "revealed": ["jp-guard-1"], "units": {"jp-guard-1": beach},
            "at_sea": {sea: four, sea2: ["us-27-106"]}, "lp": {"allied": 0, "japanese": 1}}
    assault = {"hexes": [beach], "from": [sea, sea2]}
    state = start({**base, "combat": {"stage": "defence", **assault}})
    assert state.pending[0]["kind"] == "defence" and state.strike.declared["assault"] == beach
    rolls = [f for f in range(1, 7) if when(state, "japanese", "defend", [f]) and
             of(when(state, "japanese", "defend", [f]), CombatResolved)[0].code == "DE"]
    whole = played(state, [("japanese", "defend", rolls[:1]), ("allied", f"advance {' '.join(four)} to {beach}", [])])
    assert whole[0][-1].kind == "advance"
    owed = start({**base, "combat": {"stage": "advance", **assault, "result": "DE", "defence": {}}})
    assert played(owed, [("allied", f"advance {' '.join(four)} to {beach}", [])]) == whole[1:]
    refused({**base, "combat": {"stage": "losses", **assault, "result": "DE"}}, "waits for allied's advance")
    refused({**base, "combat": {"stage": "advance", "attackers": four, **assault, "result": "DE"}},
            "the attackers are the stacks at sea")


@pytest.mark.parametrize("said", [
    "x", {"stage": "losses"}, {"result": []}, {"counter_result": {}}, {"stage": []}, {"hexes": "x"}, {"hexes": []},
    {"attackers": [1]}, {"lost": "x"}, {"retreats": {"us-1mar-1": "x"}}, {"retreats": []}, {"counterattacked": 5},
    {"defence": []}, {"defence": {"lp": "x"}}, {"lp": -1}, {"gunfire": True}, {"air_supply": 1}, {"held": 1},
    {"exploitation": "y"}, {"from": [X]}, {"extra": 1},
])
def test_f130_a_malformed_combat_is_refused_with_a_clear_error(said):
    whole = said in ("x", {"stage": "losses"})  # not a table, or without its hexes
    combat = said if whole else {"stage": "losses", **BB_ATTACK, "result": "BB", **said}
    with pytest.raises(SetupError) as err:
        start(position(BB_UNITS, combat))
    assert "[combat]" in str(err.value) or "'combat " in str(err.value)


def test_f130_the_documented_defence_and_advance_positions_are_played():
    """docs/custom-positions.md: the attack waiting for the Japanese answer, its LP spent (15.4.1), and the same
    combat after its BB with the Allied loss named: the answer then the advance."""
    asked = start(documented_position(7))
    assert asked.pending[0] == {"hexes": ["1013"], "kind": "defence", "side": "japanese"}
    assert asked.lp["allied"] == 2  # the attack's LP is spent with it
    [resolved] = of(when(asked, "japanese", "defend", [3]), CombatResolved)
    assert {"amount": 1, "case": "Formosa 15.4.1", "reason": "LP spent attacking"} in resolved.shifts
    owed = start(documented_position(8))
    assert owed.units["us-1mar-5"].where == "allied-eliminated" and owed.pending[0]["kind"] == "advance"
    [advanced] = of(when(owed, "allied", "advance us-1mar-1 to 1013"), UnitsAdvanced)
    assert advanced.units == ["us-1mar-1"]
