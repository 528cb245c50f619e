"""The Strategic Stage in play (6.1): logistics (7.2; CF-D2, CF-D3), the recruit phases (8.0-8.3, F26, F34) and
Amoy (9.1; CF-D1), through orders; the arithmetic itself is strategic.py's (test_formosa_strategic.py)."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when

from app.rules.formosa import GAME
from app.rules.formosa.events import AmoyRolled, LogisticsReceived, LpLost, UnitsReturned
from app.rules.kernel.hexgrid import Hex

D = GAME.data({})
MAJOR = sorted(str(h) for h in D.map.hexes_with("major-port") - D.airfields())
MINOR = sorted(str(h) for h in D.map.hexes_with("minor-port") - D.airfields())
FIELDS = sorted(str(h) for h in D.airfields() - D.ports())


def bases(state, hexes: dict[str, str]):
    state = given(step="japanese-combat", turn=3, units=hexes)
    return state.with_units(*(replace(state.units[u], base=True) for u in hexes if u.startswith("us-eng")))


def test_7_2_logistics_scenario_1_with_amoy_a_major_two_minor_ports_three_airfields_is_16_cf_d2():
    engineers = [f"us-eng-{n}" for n in range(1, 7)]
    places = [MAJOR[0], MINOR[0], MINOR[1], *FIELDS[:3]]
    state = replace(bases(None, dict(zip(engineers, places, strict=True))), amoy_turn=2)
    [jp, allied] = of(when(state, "japanese", "end", [4]), LogisticsReceived)
    assert sum(i[1] for i in allied.items) == 16
    assert sum(i[1] for i in jp.items) == 4  # no Japanese-held airfield here


def test_7_2_japanese_die_4_with_five_airfields_is_6_cf_d3():
    japanese = {f"jp-9-{n}": FIELDS[i] for i, n in enumerate((7, 19, 35))} | {
        "jp-12-24": FIELDS[3], "jp-12-46": FIELDS[4]}
    near = {str(n) for f in FIELDS[:5] for n in D.map.neighbours(Hex.parse(f))}
    japanese["us-7-17"] = next(str(h) for h in sorted(D.land()) if str(h) not in near and str(h) not in FIELDS)
    state = given(step="japanese-combat", turn=3, units=japanese)
    [jp, _] = of(when(state, "japanese", "end", [4]), LogisticsReceived)
    assert sum(i[1] for i in jp.items) == 6


def test_9_1_amoy_falls_on_a_die_below_the_turn_cf_d1_and_the_6th_marines_arrive_next_turn_f34():
    state = given(step="amoy", turn=2, units={"us-7-17": MAJOR[0]})
    [no] = of(when(state, "allied", "roll", [2]), AmoyRolled)
    [yes] = of(when(state, "allied", "roll", [1]), AmoyRolled)
    assert (no.captured, yes.captured) == (False, True)
    assert of(when(replace(state, turn=7), "allied", "roll", [6]), AmoyRolled)[0].captured
    captured = play(state, "allied", "roll", [1])
    assert captured.amoy_turn == 2 and captured.step == "strike-planning-japanese"
    nxt = replace(captured, step="recruit-japanese", turn=3)
    nxt = play(nxt, "japanese", "end")
    assert nxt.step == "recruit-allied" and nxt.units["us-6mar-4"].where == "amoy"
    after_recruit = play(nxt, "allied", "end")
    assert after_recruit.step == "strike-planning-japanese"  # the Amoy phase is passed over once Amoy has fallen


def test_8_0_recruits_deploy_this_turn_or_return_and_lp_above_20_are_lost_f26():
    city = sorted(str(h) for h in D.map.hexes_with("city") if h in D.ports())[0]
    waiting = {u: "japanese-reinforcements" for u in ("jp-imb-70", "jp-guard-1", "jp-guard-2")}
    state = given(step="recruit-japanese", turn=3, units={"jp-12-24": city, "us-7-17": MAJOR[0], **waiting},
                  lp={"japanese": 25, "allied": 3})
    refused(state, "japanese", "recruit jp-imb-70", "Formosa 8.2")  # first-line infantry: set-up only
    state = play(state, "japanese", "recruit jp-guard-1 jp-guard-2")
    refused(state, "japanese", "deploy jp-guard-1 1320", "Formosa 8.1")  # no city or port with a Japanese unit
    state = play(state, "japanese", f"deploy jp-guard-1 {city}")
    assert state.units["jp-guard-1"].concealed and state.units["jp-guard-1"].where == city
    events = when(state, "japanese", "end")
    assert of(events, UnitsReturned)[0].units == ["jp-guard-2"]
    assert of(events, LpLost)[0].amount == 3  # 23 left: 3 over the cap


def test_8_3_a_replaced_japanese_unit_deploys_revealed_and_allied_replacements_go_to_staging():
    city = sorted(str(h) for h in D.map.hexes_with("city") if h in D.ports())[0]
    state = given(step="recruit-japanese", turn=3, units={"jp-12-24": city, "jp-guard-3": "japanese-replacements",
                                                          "us-7-17": "allied-replacements", "us-7-32": MAJOR[0]},
                  lp={"japanese": 5, "allied": 5})
    state = play(play(state, "japanese", "replace jp-guard-3"), "japanese", f"deploy jp-guard-3 {city}")
    assert not state.units["jp-guard-3"].concealed  # 11.2
    state = play(state, "japanese", "end")
    history = [e.describe() for e in when(state, "allied", "replace us-7-17")]  # what both players read
    assert history == ["allied spends 1 LP: replace 1 unit(s)", "us-7-17 replaced (allied-staging)"]
    state = play(state, "allied", "replace us-7-17")
    assert state.units["us-7-17"].where == "allied-staging" and state.lp["allied"] == 4


def test_8_1_an_allied_reinforcement_deploys_on_a_functional_port_within_the_stacking_limits():
    from app.rules.formosa import played_under

    port = MAJOR[0]
    units = {"us-eng-1": port, "us-7-17": port, "us-7-32": port, "us-7-184": port, "us-27-105": port,
             "us-27-106": "allied-reinforcements"}
    state = given(step="recruit-allied", turn=3, units=units, lp={"japanese": 0, "allied": 5})
    state = play(state.with_units(replace(state.units["us-eng-1"], base=True)), "allied", "recruit us-27-106")
    assert "13.1" in refused(state, "allied", f"deploy us-27-106 {port}", "Formosa 8.1")  # a fifth mobile unit
    play(state.move("us-27-105", "allied-staging"), "allied", f"deploy us-27-106 {port}")
    play(played_under(state, "3"), "allied", f"deploy us-27-106 {port}")  # ruling F105: 13.3 took the excess


def test_8_1_an_allied_recruit_still_in_the_staging_area_deploys_only_in_the_recruit_phase_it_was_bought():
    """...and is no longer listed among the units to place once that phase is over (it is deployed there)."""
    port = MAJOR[0]
    state = given(step="recruit-allied", turn=3, units={"us-eng-1": port, "us-27-106": "allied-reinforcements"},
                  lp={"japanese": 0, "allied": 5})
    state = play(state.with_units(replace(state.units["us-eng-1"], base=True)), "allied", "recruit us-27-106")
    play(state, "allied", f"deploy us-27-106 {port}")  # bought this phase: it may
    assert (GAME.view(state, None)["to_place"], GAME.view(state, "allied")["to_place"]) == (["us-27-106"], 1)
    assert GAME.view(state, "japanese")["to_place"] == []  # still to deploy, but hidden in the Staging Area (F129)
    state = play(state, "allied", "end")
    assert state.units["us-27-106"].where == "allied-staging"
    # deployed in the Staging Area (8.1 2a) when the phase ended: no longer a unit to place, for either side
    assert (GAME.view(state, "japanese")["to_place"], GAME.view(state, "allied")["to_place"]) == ([], 0)
    assert GAME.view(replace(state, rules_version=6), "japanese")["to_place"] == ["us-27-106"]  # F113: as played
    state = play(replace(state, step="recruit-japanese", turn=4), "japanese", "end")
    assert (state.step, state.turn) == ("recruit-allied", 4)
    says = refused(state, "allied", f"deploy us-27-106 {port}", "Formosa 8.1")  # bought on Game-Turn 3
    assert "us-27-106 was not recruited or replaced this phase" in says


def test_8_1_11_2_a_replaced_unit_not_deployed_goes_back_to_be_replaced_never_recruited_concealed_f108():
    from app.rules.formosa import played_under

    state = given(step="recruit-japanese", turn=3, units={"jp-12-24": FIELDS[0], "us-7-17": MAJOR[0],
                                                          "jp-guard-3": "japanese-replacements"},
                  lp={"japanese": 5, "allied": 0})
    state = play(state, "japanese", "replace jp-guard-3")  # and not deployed this Recruit Phase
    [back] = of(when(state, "japanese", "end"), UnitsReturned)
    assert back.units == ["jp-guard-3"] and back.replaced == ["jp-guard-3"]
    ended = play(state, "japanese", "end")
    assert ended.units["jp-guard-3"].where == "japanese-replacements"  # 11.2: it returns only by replacement
    old = play(played_under(state, "4"), "japanese", "end")  # ruling F108: it joined the reinforcements
    assert old.units["jp-guard-3"].where == "japanese-reinforcements"
