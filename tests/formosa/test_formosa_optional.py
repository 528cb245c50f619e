"""Formosa's optional rules (25.1-25.10) through orders: each rule works in a game created with it, and a game
created without it refuses the rule's order naming the case (or plays as if the rule were not printed)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, M, ring, shore

from app.events.core import DieRolled
from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.engine.events import DecisionRequired
from app.rules.formosa import GAME, movement
from app.rules.formosa.airpower import B29Struck
from app.rules.formosa.events import (
    Airlifted,
    AirSupplyFlown,
    BattlefieldLp,
    CombatResolved,
    GuerrillaRallied,
    RaiderHits,
    SpecialHeld,
    SpecialLanding,
    UnitDeployed,
    UnitEliminated,
    UnitsAdvanced,
    VictoryCounted,
    VpAwarded,
)
from app.rules.formosa.state import Strike
from app.rules.kernel.hexgrid import Hex

CATALOG = installed()  # the rule sets installed here

X, AROUND = ring("open")
ROUGH, ROUGH_AROUND = ring("rough")
H = Hex.parse


def opt(state, *rules: str):
    """The same position in a game created with these optional rules."""
    return replace(state, data=GAME.data({"optional": list(rules)}))


def beyond(hex_: str, away_from: str) -> str:
    """An open neighbour of `hex_` outside the ring, across no hexside feature and not next to `away_from`."""
    return next(str(n) for n in M.neighbours(H(hex_)) if D.is_land(n) and M.terrain_of(n) == "open"
                and not M.features_of(n) and not M.hexside_features(H(hex_), n) and str(n) not in (X, *AROUND)
                and n not in M.neighbours(H(away_from)))


def based(state, uid: str):
    return state.with_units(replace(state.units[uid], base=True))


# -- 25.0 ------------------------------------------------------------------------------------------------------------
def test_25_0_the_optional_rules_are_checked_when_the_game_is_created():
    for bad, says in ((["25.11"], "unknown optional rule '25.11'"), (["25.1", "25.1"], "named twice"),
                      ("25.1", "is a list")):
        with pytest.raises(ValueError, match=says):
            GAME.initial_state("1", {"optional": bad})
    plain = GAME.initial_state("1", {})
    chosen = GAME.initial_state("1", {"optional": ["25.5", "25.7"]})
    assert plain.units["us-97-303"].where == "out" and plain.units["jp-marine"].where == "out"
    assert chosen.units["us-97-303"].where == "allied-reinforcements"
    assert chosen.units["jp-marine"].where == "japanese-reinforcements" and chosen.units["jp-raiders"].where == "out"


def test_25_0_the_cli_records_the_rules_chosen_in_the_first_event_and_other_games_refuse_them(run):
    game = run("new", "formosa", "--optional", "25.1,25.6", "--optional", "25.10").output.strip()
    store = EventStore(run.db)
    try:
        first = next(iter(store.events(game)))
        assert first.payload["options"] == {"optional": ["25.1", "25.6", "25.10"]}
        assert projection.load(store, CATALOG, game).game.data.optional == {"25.1", "25.6", "25.10"}
    finally:
        store.close()
    other = run("new", "snc", "--optional", "25.1", ok=False)
    assert other.exit_code == 1 and "unknown option 'optional'" in other.output
    bad = run("new", "formosa", "--optional", "26.1", ok=False)
    assert bad.exit_code == 1 and "unknown optional rule '26.1'" in bad.output


# -- 25.1 exploitation ---------------------------------------------------------------------------------------------
def _de_then_hold(*rules):
    far = beyond(AROUND[1], AROUND[3])
    state = opt(given(units={"us-7-17": AROUND[1], "us-7-32": AROUND[3], "jp-guerrilla-1": X,
                             "jp-guerrilla-2": far}), *rules)
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32", [3])  # 800%: DE
    return play(state, "allied", "hold"), far


def test_25_1_after_a_de_one_stack_of_the_force_attacks_again_and_a_de_offers_another():
    state, far = _de_then_hold("25.1")
    # the stacks of the force next to an enemy hex: us-7-32 has none
    assert state.pending[0]["kind"] == "exploit" and state.pending[0]["units"] == ["us-7-17"]
    refused(state, "allied", f"exploit {far} with us-7-17 us-7-32", "Formosa 25.1")
    refused(state, "allied", f"exploit {X} with us-7-17", "Formosa 25.1")  # nobody left in X
    events = when(state, "allied", f"exploit {far} with us-7-17", [6])  # 4 against 1: DE
    [resolved] = of(events, CombatResolved)
    assert resolved.exploitation and resolved.code == "DE" and "exploitation" in resolved.describe()
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-guerrilla-2"]
    after = play(state, "allied", f"exploit {far} with us-7-17", [6])
    assert after.pending[0]["kind"] == "advance"
    assert play(after, "allied", "hold").pending == ()  # no enemy left next to the force
    assert play(state, "allied", "hold").pending == ()  # the attacker may decline


def test_25_1_an_exploitation_attack_is_declared_as_any_attack_its_support_checked_and_the_defender_asked():
    """F90, F99: the attacker's LP are checked as in any attack (19.5 item 2: a unit tracing a line), and the
    defender with LP is asked before the die (F22)."""
    state, far = _de_then_hold("25.1")
    with_lp = replace(state, lp={"allied": 1, "japanese": 1})
    refused(with_lp, "allied", f"exploit {far} with us-7-17 lp 1", "Formosa 15.4.1, 19.5")  # nothing spent
    asked = play(with_lp, "allied", f"exploit {far} with us-7-17")
    assert asked.pending[0] == {"kind": "defence", "side": "japanese", "hexes": [far]} and asked.combat is None
    [resolved] = of(when(asked, "japanese", "defend", [6]), CombatResolved)
    assert resolved.exploitation and resolved.attackers == ["us-7-17"] and resolved.hexes == [far]


def test_25_1_without_the_rule_a_de_ends_the_combat_and_exploit_is_refused():
    state, far = _de_then_hold()
    assert state.pending == () and state.step == "allied-combat"
    says = refused(state, "allied", f"exploit {far} with us-7-17", "Formosa 25.1")
    assert "optional rule 25.1" in says
    assert "exploit" not in [a.name for a in GAME.prompt(state).actions]


# -- 25.2 battlefield LP -------------------------------------------------------------------------------------------
def test_25_2_the_attacker_gains_one_lp_for_advancing_into_the_defenders_hex_f28():
    state = opt(given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guerrilla-1": X},
                      lp={"allied": 3, "japanese": 0}), "25.2")
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32", [3])
    held = when(state, "allied", "hold")
    assert not of(held, BattlefieldLp)  # one factor eliminated and no advance
    state = play(state, "allied", f"advance us-7-17 to {X}")
    [lp] = of(when(state, "allied", "hold"), BattlefieldLp)  # the combat ends when us-7-32 holds
    assert (lp.side, lp.lp, lp.advanced) == ("allied", 1, True)
    assert play(state, "allied", "hold").lp["allied"] == 3  # received after the Logistics Phase (7.2, F105)


def test_7_2_25_2_battlefield_lp_are_spent_from_the_next_game_turn_on():
    from app.rules.formosa import played_under
    from app.rules.formosa.events import LogisticsReceived

    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guerrilla-1": X, "jp-guard-1": AROUND[3],
             "us-27-105": AROUND[4]}
    state = opt(given(units=units, turn=3, lp={"allied": 0, "japanese": 0}, naval={}, air={}), "25.2")
    state = play(play(state, "allied", f"attack {X} with us-7-17 us-7-32", [3]), "allied", f"advance us-7-17 to {X}")
    won = play(state, "allied", "hold")
    assert won.lp["allied"] == 0 and won.lp_due == {"allied": 1}
    refused(won, "allied", f"attack {AROUND[3]} with us-27-105 lp 1", "Formosa 7.2")  # not this GT
    old = play(played_under(state, "3"), "allied", "hold")
    assert old.lp["allied"] == 1 and not old.lp_due  # ruling F105: a game before version 4 spent them at once
    logistics = replace(won.move("jp-guard-1", "out"), step="japanese-combat", combat=None, pending=(),
                        attacked_hexes=())
    [_, allied] = of(when(logistics, "japanese", "end", [1]), LogisticsReceived)
    assert ["LP received after the last Logistics Phase", 1, "Formosa 7.2"] in allied.items
    nxt = play(logistics, "japanese", "end", [1])
    assert nxt.turn == 4 and nxt.lp["allied"] == 5 + 1 and not nxt.lp_due


def test_25_2_without_the_rule_an_advance_gains_nothing():
    state = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guerrilla-1": X},
                  lp={"allied": 3, "japanese": 0})
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32", [3])
    state = play(state, "allied", f"advance us-7-17 to {X}")
    assert play(state, "allied", "hold").lp["allied"] == 3


SHORE, (SEA,) = shore(1)
INLAND = next(str(n) for n in M.neighbours(H(SHORE)) if D.is_land(n) and not M.hexside_features(H(SHORE), n))


def _assault(*rules):
    state = given(step="invasion", turn=1, units={"us-7-17": "allied-staging", "us-7-32": "allied-staging",
                                                   "jp-guard-1": SHORE, "jp-guerrilla-1": INLAND},
                  markers={"amphibious": 1})
    state = play(opt(state, *rules), "allied", f"land {SEA} with us-7-17 us-7-32")
    return when(state, "allied", f"assault {SHORE}", [6]), state  # 8 against 2, die 6: DE


def test_25_1_25_2_an_opposed_landing_that_clears_its_hex_earns_the_lp_and_offers_the_exploitation_f99():
    events, state = _assault("25.1", "25.2")
    assert of(events, CombatResolved)[0].code == "DE" and of(events, UnitsAdvanced)[0].path == [SHORE]
    [lp] = of(events, BattlefieldLp)
    assert (lp.side, lp.advanced) == ("allied", True)
    landed = play(state, "allied", f"assault {SHORE}", [6])
    assert landed.pending[0]["kind"] == "exploit" and landed.pending[0]["units"] == ["us-7-17", "us-7-32"]
    [again] = of(when(landed, "allied", f"exploit {INLAND} with us-7-17 us-7-32", [6]), CombatResolved)
    assert again.exploitation and not again.assault and again.hexes == [INLAND]
    plain, _ = _assault()
    assert not of(plain, BattlefieldLp) and not [e for e in plain if isinstance(e, DecisionRequired)]


# -- 25.3 air transport --------------------------------------------------------------------------------------------
FIELD = next(str(h) for h in sorted(D.airfields()) if D.is_land(h))


def _airlift_position(*rules):
    state = given(step="allied-movement", units={"us-eng-1": FIELD, "us-7-17": "allied-staging",
                                                  "us-7-32": "allied-staging", "us-armor-1": "allied-staging"},
                  air={"air-supply": 1})
    return opt(based(state, "us-eng-1"), *rules)


def test_25_3_the_air_supply_marker_flies_one_unit_to_a_functional_airbase_for_one_mp():
    state = _airlift_position("25.3")
    refused(state, "allied", f"airlift us-armor-1 to {FIELD}", "Formosa 25.3")  # armor does not fly
    refused(state, "allied", f"airlift us-7-17 to {X}", "Formosa 25.3")  # not an airbase
    [flown] = of(when(state, "allied", f"airlift us-7-17 to {FIELD}"), Airlifted)
    assert flown.hex == FIELD
    state = play(state, "allied", f"airlift us-7-17 to {FIELD}")
    u = state.units["us-7-17"]
    assert u.where == FIELD and movement.allowance(state, u) == D.unit("us-7-17").mf - 1
    refused(state, "allied", f"airlift us-7-32 to {FIELD}", "Formosa 25.3")  # one marker, one unit a turn


def test_25_3_a_marker_that_flew_a_unit_gives_no_air_supply_that_allied_player_turn_but_may_the_next():
    """25.3: the air supply marker that airlifted flies no other mission (air supply, 19.4) that player turn; the
    Allied defence in the Japanese player turn may have it (19.4: once a GT, and it has not supplied a combat)."""
    state = _airlift_position("25.3")
    state = state.with_units(replace(state.units["us-7-32"], where=AROUND[0]),
                             replace(state.units["jp-guerrilla-1"], where=X))
    attack = f"attack {X} with us-7-32 supply air"
    assert of(when(replace(state, step="allied-combat"), "allied", attack, [1]), AirSupplyFlown)  # no line: allowed
    flown = play(state, "allied", f"airlift us-7-17 to {FIELD}")
    refused(replace(flown, step="allied-combat"), "allied", attack, "Formosa 25.3")
    japanese = play(replace(flown, step="japanese-combat"), "japanese", f"attack {AROUND[0]} with jp-guerrilla-1")
    assert japanese.pending[0]["kind"] == "defence"
    assert of(when(japanese, "allied", "defend supply air", [1]), AirSupplyFlown)


def test_25_3_without_the_rule_airlift_is_refused_naming_it():
    state = _airlift_position()
    says = refused(state, "allied", f"airlift us-7-17 to {FIELD}", "Formosa 25.3")
    assert "optional rule 25.3" in says


# -- 25.4 USMC replacements ----------------------------------------------------------------------------------------
PORT = next(str(p) for p in sorted(D.ports()) if any(D.is_land(n) and not M.features_of(n)
                                                      for n in M.neighbours(p)))
NEXT_TO_PORT = next(str(n) for n in M.neighbours(H(PORT)) if D.is_land(n) and not M.features_of(n))


def _usmc_position(*rules):
    state = given(step="recruit-allied", units={"us-eng-1": PORT, "us-hq-3ac": NEXT_TO_PORT,
                                                 "us-1mar-1": "allied-replacements"}, lp={"allied": 5, "japanese": 0})
    state = opt(based(state, "us-eng-1"), *rules)
    return play(state, "allied", "replace us-1mar-1")


def test_25_4_a_replaced_marine_deploys_with_a_us_hq_that_traces_to_a_functional_port():
    state = _usmc_position("25.4")
    assert f"deploy us-1mar-1 {NEXT_TO_PORT}" in [o["order"] for o in GAME.legal_orders(state, "allied")]  # offered
    [deployed] = of(when(state, "allied", f"deploy us-1mar-1 {NEXT_TO_PORT}"), UnitDeployed)
    assert deployed.where == NEXT_TO_PORT
    refused(state, "allied", f"deploy us-1mar-1 {X}", "Formosa 8.1, ruling F35")  # no HQ there


def test_25_4_19_2_the_hq_a_replaced_marine_joins_must_trace_a_line_to_a_functional_port():
    state = given(step="recruit-allied", units={"us-eng-1": PORT, "us-hq-3ac": NEXT_TO_PORT,
                                                 "us-1mar-1": "allied-replacements"}, lp={"allied": 5, "japanese": 0})
    state = play(opt(state, "25.4"), "allied", "replace us-1mar-1")  # no base built: the port is not functional
    says = refused(state, "allied", f"deploy us-1mar-1 {NEXT_TO_PORT}", "Formosa 25.4")
    assert says.endswith(f"no US HQ in {NEXT_TO_PORT} traces a line of supply to a functional port (19.2)")


def test_25_4_without_the_rule_the_marine_may_not_deploy_with_the_hq():
    says = refused(_usmc_position(), "allied", f"deploy us-1mar-1 {NEXT_TO_PORT}", "Formosa 25.4")
    assert "optional rule 25.4" in says


# -- 25.5 the 97th Division ----------------------------------------------------------------------------------------
NINETY_SEVENTH = ("us-97-303", "us-97-386", "us-97-387")


def _recruit_position(*rules):
    return opt(given(step="recruit-allied", units={u: "allied-reinforcements" for u in NINETY_SEVENTH},
                     lp={"allied": 10, "japanese": 0}), *rules)


def test_25_5_the_97th_is_recruited_whole_and_costs_the_allies_5_vp_at_the_end():
    state = _recruit_position("25.5")
    refused(state, "allied", "recruit us-97-303", "Formosa 25.5")  # a) all three at the same time
    state = play(state, "allied", "recruit " + " ".join(NINETY_SEVENTH))
    assert state.lp["allied"] == 10 - 3 * 2 and all(state.units[u].where == "allied-staging" for u in NINETY_SEVENTH)
    last = state.data.scenario(1)["turns"]
    end = replace(state, step="japanese-combat", turn=last, to_place=())
    [counted] = of(when(end, "japanese", "end"), VictoryCounted)
    assert counted.detail["allied"]["the 97th Infantry Division recruited (25.5)"] == -5


def test_25_5_without_the_rule_the_97th_does_not_exist():
    says = refused(_recruit_position(), "allied", "recruit " + " ".join(NINETY_SEVENTH), "Formosa 25.5")
    assert "optional rule 25.5" in says


# -- 25.6 die-hards ------------------------------------------------------------------------------------------------
def _die_hard_position(*rules):
    attackers = {"us-7-17": ROUGH_AROUND[0], "us-7-32": ROUGH_AROUND[0], "us-7-184": ROUGH_AROUND[1],
                 "us-27-105": ROUGH_AROUND[1]}
    return opt(given(units={**attackers, "jp-guard-1": ROUGH, "jp-guerrilla-1": "japanese-reinforcements"}), *rules)


ATTACK_ROUGH = f"attack {ROUGH} with us-7-17 us-7-32 us-7-184 us-27-105"  # 16 against 2, one left: 600-699%


def test_25_6_a_die_below_the_factor_puts_a_guerrilla_in_the_hex_and_stops_the_advance():
    state = _die_hard_position("25.6")
    events = when(state, "allied", ATTACK_ROUGH, [6, 1])
    assert of(events, CombatResolved)[0].code == "DE"
    [rallied] = of(events, GuerrillaRallied)
    assert (rallied.unit, rallied.hex, rallied.die) == ("jp-guerrilla-1", ROUGH, 1)
    assert [d.purpose for d in of(events, DieRolled)][1] == f"die-hards in {ROUGH} (Formosa 25.6)"  # as both read
    after = play(state, "allied", ATTACK_ROUGH, [6, 1])
    assert after.units["jp-guerrilla-1"].where == ROUGH and after.pending == ()  # nothing cleared: no advance
    failed = play(state, "allied", ATTACK_ROUGH, [6, 2])  # 2 is not below the guard's 2
    assert failed.units["jp-guerrilla-1"].where == "japanese-reinforcements"
    assert failed.pending[0]["kind"] == "advance"


def test_25_6_without_the_rule_no_die_is_rolled_for_die_hards():
    events = when(_die_hard_position(), "allied", ATTACK_ROUGH, [6])
    assert not of(events, GuerrillaRallied) and of(events, DecisionRequired)[0].kind == "advance"


# -- 25.7 Marine Brigade, 25.8 raiders -----------------------------------------------------------------------------
BEACH = sorted(str(h) for h in M.hexes_with("beach") if not M.features_of(h) - {"beach"})[0]


def _landing_position(*rules, **units):
    units = {"us-27-105": ROUGH, **units}  # an Allied unit on Formosa: no sudden death (4.1)
    state = given(step="japanese-movement", units={"jp-marine": "japanese-reinforcements",
                                                    "jp-raiders": "japanese-reinforcements", **units},
                  special_ready=("jp-marine", "jp-raiders"), air={"allied-tac": 5})
    return opt(state, *rules)


def test_25_7_the_marine_brigade_recruited_at_set_up_waits_off_the_map():
    state = opt(given(step="setup-japanese", turn=1, units={"jp-marine": "japanese-reinforcements"},
                      lp={"allied": 0, "japanese": 5}), "25.7")
    events = when(state, "japanese", "recruit jp-marine")
    assert of(events, SpecialHeld) and "jp-marine" not in play(state, "japanese", "recruit jp-marine").to_place


def test_25_7_the_brigade_lands_on_a_beach_by_its_die_once_a_gt():
    state = _landing_position("25.7")
    [landed] = of(when(state, "japanese", f"land {BEACH} with jp-marine", [4]), SpecialLanding)
    assert landed.result == "lands"
    after = play(state, "japanese", f"land {BEACH} with jp-marine", [4])
    assert after.units["jp-marine"].where == BEACH and after.units["jp-marine"].moved
    gone = play(state, "japanese", f"land {BEACH} with jp-marine", [1])
    assert gone.units["jp-marine"].where == "japanese-eliminated"
    back = play(state, "japanese", f"land {BEACH} with jp-marine", [3])
    assert back.units["jp-marine"].where == "japanese-reinforcements"
    refused(back, "japanese", f"land {BEACH} with jp-marine", "Formosa 25.7")  # again in a later GT
    refused(replace(state, turn=1), "japanese", f"land {BEACH} with jp-marine", "Formosa 25.7")  # from GT 2
    refused(state, "japanese", f"land {X} with jp-marine", "Formosa 25.7")  # neither port nor beach


def test_25_7_without_the_rule_land_is_refused_naming_it():
    says = refused(_landing_position(), "japanese", f"land {BEACH} with jp-marine", "Formosa 25.7")
    assert "optional rule 25.7" in says


def test_25_8_raiders_on_an_allied_airfield_are_eliminated_and_destroy_tac_points():
    state = _landing_position("25.8", **{"us-7-17": FIELD})
    events = when(state, "japanese", f"raid {FIELD}", [5, 6])
    assert of(events, SpecialLanding)[0].result == "lands and is eliminated"
    assert of(events, RaiderHits)[0].lost == {"allied-tac": 2}
    after = play(state, "japanese", f"raid {FIELD}", [5, 6])
    assert after.air["allied-tac"] == 3 and after.units["jp-raiders"].where == "japanese-eliminated"
    empty = play(_landing_position("25.8"), "japanese", f"raid {FIELD}", [4])
    assert empty.units["jp-raiders"].where == FIELD


def test_25_8_the_raiders_destroy_points_on_the_ground_first_then_interdicting_ones_f95_f99():
    """F99: in the Japanese Movement Phase the Allied TAC points still flying are those interdicting (16.4); the
    raiders' hits fall on the others first (US, then Commonwealth), and only then take interdiction points off
    the map."""
    strike = Strike(missions={"allied": {"interdiction": 4}}, revealed=True,
                    interdicted=((X, "us", 2), (ROUGH, "us", 2)))
    state = replace(_landing_position("25.8", **{"us-7-17": FIELD}), air={"allied-tac": 5, "cw-tac": 0},
                    strike=strike)
    [hits] = of(when(state, "japanese", f"raid {FIELD}", [5, 6]), RaiderHits)
    assert (hits.lost, hits.flying) == ({"allied-tac": 2}, {"interdiction": 1})
    after = play(state, "japanese", f"raid {FIELD}", [5, 6])
    assert after.air["allied-tac"] == 3 and after.strike.missions["allied"]["interdiction"] == 3
    assert after.strike.interdicted == ((X, "us", 2), (ROUGH, "us", 1))
    grounded = replace(state, air={"allied-tac": 5, "cw-tac": 1})
    [hits] = of(when(grounded, "japanese", f"raid {FIELD}", [5, 6]), RaiderHits)
    assert (hits.lost, hits.flying) == ({"allied-tac": 1, "cw-tac": 1}, {})


def test_25_7_25_8_no_special_landing_enters_a_hex_the_b29_suppressed():
    """16.5 DS item 4: no Japanese unit enters a suppressed hex, the special reinforcements included."""
    state = replace(_landing_position("25.7", "25.8"), strike=Strike(suppressed=(BEACH, FIELD)))
    refused(state, "japanese", f"land {BEACH} with jp-marine", "Formosa 16.5")
    refused(state, "japanese", f"raid {FIELD}", "Formosa 16.5")
    assert all(FIELD not in o and BEACH not in o for o in GAME.legal_orders(state, "japanese"))


def test_25_8_without_the_rule_raid_is_refused_naming_it():
    refused(_landing_position(), "japanese", f"raid {FIELD}", "Formosa 25.8")


# -- 25.9 Takasago -------------------------------------------------------------------------------------------------
MOUNTAIN = ring("mountain")[0]


def test_25_9_takasago_is_recruited_at_set_up_and_deployed_on_any_hex():
    state = opt(given(step="setup-japanese", turn=1, units={"jp-takasago": "japanese-reinforcements"},
                      lp={"allied": 0, "japanese": 5}), "25.9")
    state = play(state, "japanese", "recruit jp-takasago")
    assert play(state, "japanese", f"place jp-takasago {MOUNTAIN}").units["jp-takasago"].where == MOUNTAIN


def test_25_9_without_the_rule_takasago_is_refused_naming_it():
    state = given(step="setup-japanese", turn=1, units={"jp-takasago": "japanese-reinforcements"},
                  lp={"allied": 0, "japanese": 5})
    refused(state, "japanese", "recruit jp-takasago", "Formosa 25.9")


# -- 25.10 PW Camp -------------------------------------------------------------------------------------------------
def test_25_10_the_camp_must_be_set_up_in_a_town_that_is_no_city():
    state = GAME.initial_state("1", {"optional": ["25.10"]})
    assert "jp-pw-camp" in state.to_place and "jp-pw-camp" not in GAME.initial_state("1", {}).to_place
    state = play(state, "japanese", "roll", [1, 1, 1])
    city = sorted(str(h) for h in M.hexes_with("city"))[0]
    town = sorted(str(h) for h in M.hexes_with("town") - M.hexes_with("city"))[0]
    refused(state, "japanese", f"place jp-pw-camp {city}", "Formosa 25.10")
    assert play(state, "japanese", f"place jp-pw-camp {town}").units["jp-pw-camp"].where == town


def test_25_10_the_camp_is_the_last_unit_lost_in_its_hex_and_taking_it_is_worth_5_vp():
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "us-hq-3ac": AROUND[2], "jp-pw-camp": X, "jp-guard-1": X}
    state = opt(given(units=units), "25.10")
    events = when(state, "allied", f"attack {X} with us-7-17 us-7-32 us-hq-3ac", [6])  # 9 against 3: D1
    assert of(events, CombatResolved)[0].code == "D1"
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-guard-1"]  # no choice: the camp goes last
    alone = opt(given(units={**units, "jp-guard-1": "out"}), "25.10")
    alone = play(alone, "allied", f"attack {X} with us-7-17 us-7-32 us-hq-3ac", [3])  # 900%: DE
    [vp] = of(when(alone, "allied", f"advance us-7-17 to {X}"), VpAwarded)
    assert (vp.side, vp.vp) == ("allied", 5)
    assert play(alone, "allied", f"advance us-7-17 to {X}").vp_adjust == {"allied": 5}


def test_25_10_a_loss_order_naming_the_camp_before_the_others_in_its_hex_is_refused():
    """The camp is the last unit eliminated in its hex (25.10): the D1 loss the Japanese player names is one of
    the two others, as the list of legal orders offers; `lose jp-pw-camp` is refused naming 25.10 (ruling F114,
    rules version 8). A game created under version 7 accepted it, and is decided as it was played."""
    from app.rules.formosa import played_under

    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "us-hq-3ac": AROUND[2], "us-7-184": AROUND[3],
             "us-27-105": AROUND[4], "jp-pw-camp": X, "jp-guard-1": X, "jp-9-7": X}
    state = opt(given(units=units), "25.10")
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32 us-hq-3ac us-7-184 us-27-105", [6])
    assert state.pending[0]["case"] == "Formosa 15.5 D1"
    assert {o["order"] for o in GAME.legal_orders(state, "japanese")} == {"lose jp-9-7", "lose jp-guard-1"}
    assert "last" in refused(state, "japanese", "lose jp-pw-camp", "Formosa 25.10")
    assert [e.unit for e in of(when(state, "japanese", "lose jp-guard-1"), UnitEliminated)] == ["jp-guard-1"]
    old = replace(state, rules_version=7)
    assert played_under(state, "7").rules_version == 7
    assert [e.unit for e in of(when(old, "japanese", "lose jp-pw-camp"), UnitEliminated)] == ["jp-pw-camp"]


def test_25_10_15_6_the_camp_takes_no_part_in_its_hexs_counterattack():
    from app.rules.formosa import played_under

    state = opt(given(units={"us-7-17": AROUND[0], "jp-pw-camp": X, "jp-guard-1": X}, naval={}, air={}), "25.10")
    first, counter = of(when(state, "allied", f"attack {X} with us-7-17", [4, 3]), CombatResolved)
    assert first.code == "CA" and first.defence == 3  # 4 against 3: the camp defends
    assert counter.counterattack and counter.attackers == ["jp-guard-1"] and counter.attack == 2  # it never attacks
    _, old = of(when(played_under(state, "3"), "allied", f"attack {X} with us-7-17", [4, 3]), CombatResolved)
    assert old.attack == 3  # ruling F105
    alone = opt(given(units={"us-7-17": AROUND[0], "jp-pw-camp": X}, naval={}, air={}), "25.10")
    events = when(alone, "allied", f"attack {X} with us-7-17", [1])  # 400%, die 1: CA
    assert [e.code for e in of(events, CombatResolved)] == ["CA"]  # the camp alone: no counterattack


def test_25_10_the_camp_on_the_map_at_the_end_gives_the_japanese_3_vp():
    last = GAME.initial_state("1", {}).data.scenario(1)["turns"]
    state = given(step="japanese-combat", turn=last, units={"jp-pw-camp": X, "us-7-17": ROUGH})
    with_camp = opt(state, "25.10")
    [counted] = of(when(with_camp, "japanese", "end"), VictoryCounted)
    assert counted.detail["japanese"]["the PW Camp on the map (25.10)"] == 3
    [plain] = of(when(state, "japanese", "end"), VictoryCounted)
    assert plain.japanese == counted.japanese - 3


def test_25_10_a_b29_d1_on_the_camp_alone_removes_it_for_5_japanese_vp_and_with_others_the_die_decides():
    """The B-29 strike (16.5): on a D1 the PW Camp alone is removed for 5 Japanese VP; with other units a die,
    1-3 the same, 4-6 the Japanese player loses a combat unit (never the camp)."""
    def struck(units, rolls):
        state = opt(given(step="b29", units={**units, "us-7-17": ROUGH}, air={"b29": 1},
                          strike=Strike(missions={"allied": {"b29": 1}}, revealed=True)), "25.10")
        events = when(state, "allied", f"strike {X}", [4, *rolls])  # open column, die 4: D1
        assert of(events, B29Struck)[0].code == "D1"
        return events

    alone = struck({"jp-pw-camp": X}, [])
    assert [(e.unit, e.to) for e in of(alone, UnitEliminated)] == [("jp-pw-camp", "out")]
    assert [(v.side, v.vp) for v in of(alone, VpAwarded)] == [("japanese", 5)]
    mixed = {"jp-pw-camp": X, "jp-guard-1": X}
    assert [e.unit for e in of(struck(mixed, [3]), UnitEliminated)] == ["jp-pw-camp"]
    kept = struck(mixed, [4])
    assert [e.unit for e in of(kept, UnitEliminated)] == ["jp-guard-1"] and not of(kept, VpAwarded)


def test_the_optional_rules_events_name_no_japanese_unit_to_the_allies_and_the_exploit_choice_stays_private():
    """Fog (11.0): the Allies read a Japanese unit only in the view; an exploitation choice is the attacker's."""
    for event in (SpecialLanding("jp-marine", BEACH, "25.7", 4, "lands"), GuerrillaRallied("jp-guerrilla-1", X, 1),
                  SpecialHeld("jp-raiders")):
        assert "jp-" not in str(GAME.visible(event, "allied")) and GAME.visible(event, "japanese") is True
    state, _far = _de_then_hold("25.1")
    japanese = GAME.view(state, "japanese")["pending"][0]
    assert japanese == {"kind": "exploit", "side": "allied"}
    assert GAME.view(state, "allied")["pending"][0]["units"] == ["us-7-17"]


def test_8_1_25_7_25_8_a_special_landing_deploys_within_the_stacking_limits_f108():
    """8.1: units deployed on the map meet the stacking limits; 25.7 and 25.8 deploy their unit onto the map, so a
    hex that would hold a fourth Japanese mobile unit (13.2) is refused before any die."""
    from app.rules.formosa import played_under

    three = {"jp-9-7": FIELD, "jp-9-19": FIELD, "jp-9-35": FIELD, "jp-12-24": BEACH, "jp-12-46": BEACH,
             "jp-12-48": BEACH}
    state = _landing_position("25.7", "25.8", **three)
    assert "13.2" in refused(state, "japanese", f"raid {FIELD}", "Formosa 8.1")
    assert "13.2" in refused(state, "japanese", f"land {BEACH} with jp-marine", "Formosa 8.1")
    roomy = replace(state, units={**state.units, "jp-9-35": replace(state.units["jp-9-35"], where="out")})
    assert play(roomy, "japanese", f"raid {FIELD}", [4]).units["jp-raiders"].where == FIELD
    old = play(played_under(state, "4"), "japanese", f"raid {FIELD}", [4])  # ruling F108: 13.3 took the excess
    assert old.units["jp-raiders"].where == FIELD
