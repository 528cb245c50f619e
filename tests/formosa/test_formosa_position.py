"""Formosa custom positions (docs/custom-positions.md, ruling F98): a game that starts at any phase of any
Game-Turn from a position file, checked as the rules check a position, through `cli.py new --position`."""
from __future__ import annotations

import json

import pytest
from formosa_map import D, M, position, ring

from app.rules.custom_setup import SetupError
from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME
from app.rules.kernel.hexgrid import Hex

X, AROUND = ring("open")
FIELD = next(str(h) for h in sorted(D.airfields() & D.ports()))
TOWN, TOWN_NEXT = next((str(h), str(n)) for h in sorted(M.hexes_with("town")) for n in M.neighbours(h)
                       if D.is_land(n) and M.terrain_of(n) == "open" and not M.features_of(n))


def test_a_position_starts_the_game_at_its_phase_with_its_units_points_and_concealment():
    state = GAME.initial_state("1", {"position": position()})
    assert (state.turn, state.step, GAME.prompt(state).side) == (3, "allied-movement", "allied")
    assert state.units["us-7-17"].where == AROUND[0] and state.units["us-eng-1"].base
    assert state.units["jp-9-7"].concealed and not state.units["jp-9-19"].concealed  # 11.1: concealed unless named
    assert state.units["us-7-32"].where == "allied-eliminated" and state.lp == {"allied": 7, "japanese": 4}
    assert state.amoy_turn == 2 and state.markers["amphibious"] == 1 and state.to_place == ()
    printed = [u for u in GAME.initial_state("1", {}).to_place if u not in ("jp-9-7", "jp-9-19")]
    assert {state.units[u].where for u in printed} == {"out"}  # the printed set-up is the position's
    assert FIELD in state.functional_ports()
    moved = GAME.legal_orders(state, "allied")
    assert any(o["order"].startswith("move us-7-17") for o in moved)
    seen = GAME.view(state, "allied")
    assert "jp-9-7" not in json.dumps(seen) and "jp-9-19" in json.dumps(seen)


def test_12_2_a_unit_the_position_says_has_moved_is_offered_no_move_and_refused_one():
    from formosa_given import refused

    state = GAME.initial_state("1", {"position": position(moved=["us-7-17"])})
    assert not [o for o in GAME.legal_orders(state, "allied") if o["order"].startswith("move us-7-17")]
    assert refused(state, "allied", f"move us-7-17 {AROUND[1]}", "Formosa 12.2") == \
        "Formosa 12.2: us-7-17: each unit moves once a Movement Phase"


def test_a_position_starts_in_a_phase_of_the_strike_stage_a_player_acts_in_gt_1_from_strike_planning():
    """6.1, 24.1: GT 1 begins with Strike Planning; a position without an air plan starts in Strike Planning or
    after it, never in a phase played on entering it or one that needs a mission (F104)."""
    planning = position(turn=1, phase="strike-planning-japanese", amoy_turn=None, air={"japanese-tac": 2})
    state = GAME.initial_state("1", {"position": planning})
    assert (state.turn, GAME.prompt(state).side, state.strike.missions) == (1, "japanese", {})
    assert any(o["order"].startswith("plan ") for o in GAME.legal_orders(state, "japanese"))
    with pytest.raises(SetupError, match="on Game-Turn 1 is one of strike-planning-japanese"):
        GAME.initial_state("1", {"position": position(turn=1, phase="amoy", amoy_turn=None)})


@pytest.mark.parametrize("change,says", [
    ({"turn": 14}, "'turn' is a Game-Turn from 1 to 13"),
    ({"turn": 1, "phase": "recruit-allied"}, "'phase' on Game-Turn 1"),
    ({"phase": "logistics"}, "'phase' on Game-Turn 3"),
    ({"phase": "air-return"}, "'phase' on Game-Turn 3"),
    ({"phase": "b29"}, "'phase' on Game-Turn 3"),
    ({"steps": {"us-7-17": 1}}, "no steps"),
    ({"control": {"allied": [X]}}, "control is occupation"),
    ({"units": {"us-7-17": X, "jp-9-7": X}, "revealed": [], "bases": []}, f"{X} holds units of both sides"),
    ({"units": {"jp-marine": X}}, "jp-marine is not in this game"),
    ({"bases": ["us-7-17"]}, "bases: us-7-17 is not an Allied engineer"),
    ({"where": {"us-7-32": "japanese-replacements"}}, "not a display of the allied player"),
    ({"revealed": ["us-7-17"]}, "revealed: us-7-17 is not a Japanese unit"),
    ({"air": {"allied-tac": -1}}, "[air] maps"),
    ({"amoy_turn": 5}, "'amoy_turn'"),
    ({"phase": "recruit-allied", "missions": {"allied": {"tactical": 1}}}, "[missions] allied: the air plan is made"),
    ({"missions": {"allied": {"tactical": 7}}}, "[missions] allied: Formosa 16.1: 7 tac points assigned but only 6"),
    ({"missions": {"allied": {"kamikaze": 1}}}, "[missions] maps allied and japanese"),
    ({"phase": "allied-combat", "suppressed": [X]}, "give [missions] allied b29 = 1"),
    ({"phase": "allied-combat", "suppressed": [AROUND[5]], "missions": {"allied": {"b29": 1}}, "air": {"b29": 1}},
     f"suppressed: {AROUND[5]} holds no Japanese unit"),
    ({"phase": "recruit-allied", "suppressed": [X]}, "the B-29 strikes in the Allied B-29 Phase"),
    ({"phase": "allied-combat", "suppressed": X}, "'suppressed' is a list of hexes"),
    ({"fleet_sortied": True, "air": {"mobile-fleet": 1}}, "the marker is removed from the game"),
    ({"values": {"us-7-17": {"cf": -1}}}, "[values] us-7-17: cf is a whole number from 0 to 99"),
    ({"values": {"us-7-17": {"steps": 2}}}, "[values] us-7-17: 'steps' is not a value a position changes"),
    ({"values": {"us-7-17": {"indicator": "X"}}}, "[values] us-7-17: indicator is one of"),
    ({"counterattack": {"attackers": ["us-7-17"], "defenders": ["jp-9-7"]}}, "[counterattack] is declared in a "
                                                                           "Combat Phase"),
    ({"phase": "allied-combat", "counterattack": {"attackers": ["us-7-17"], "defenders": ["jp-9-19"]}},
     "[counterattack]: the attack that rolled the CA is not one the rules allow: Formosa 15.0"),
    ({"phase": "allied-combat", "units": {"us-7-17": TOWN_NEXT, "jp-9-7": TOWN, "jp-hw-1": TOWN},
      "revealed": ["jp-hw-1"],
      "bases": [], "counterattack": {"attackers": ["us-7-17"], "defenders": ["jp-9-7", "jp-hw-1"]}},
     "15.5 CA item 1"),
    ({"phase": "allied-combat", "counterattack": {"attackers": ["us-7-17"]}}, "has 'attackers' and 'defenders'"),
    ({"phase": "japanese-special-attack", "pinned": ["us-7-17"]}, "pinned: units that landed, dropped or moved by "
     "sea this GT are held in the Allied Movement Phase that follows (10.2.1, 10.3, 21.0): a position at invasion "
     "(ruling F124), naval-transfer or allied-movement"),
    ({"phase": "invasion", "pinned": ["us-7-17"]}, "pinned: in the Invasion Phase the units pinned and not landed "
     "have dropped (10.3): us-7-17 is no airborne regiment"),
    ({"phase": "allied-movement", "pinned": ["jp-9-7"]}, "pinned: jp-9-7 is not an Allied unit"),
    ({"phase": "japanese-movement", "interdiction": {X: 2}}, "[interdiction]: 2 us points placed, 0 assigned"),
    ({"phase": "japanese-movement", "interdiction": {X: 3}}, "[interdiction] 1013: 1 or 2 points"),
    ({"interdiction": {X: 1}}, "a position at 'allied-movement' comes before it"),
    ({"phase": "recruit-allied", "fleet_sortied": "decisive"}, "this GT's sortie is made in its Japanese Special"),
    ({"fleet_sortied": "won"}, "'fleet_sortied' is true (on an earlier GT) or this GT's result"),
    ({"kamikaze_spent": -1}, "'kamikaze_spent' is the number"),
    ({"air_supply_used": 1}, "'air_supply_used' is true or false"),
    ({"attacked": ["us-7-17"], "attacked_hexes": [X]}, "attacked: belongs to the phase it happened in"),
    ({"phase": "allied-combat", "attacked": ["us-7-17"]}, "attacked: the hexes the units attacked"),
    ({"moved": ["jp-9-7"]}, "moved: jp-9-7 is not an Allied unit placed"),
    ({"attacked_hexes": [X]}, "attacked_hexes: the hexes attacked in this Combat Phase"),
])
def test_a_position_is_refused_with_every_problem_named(change, says):
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": position(**change)})
    assert says in str(err.value)


def test_6_1_24_1_a_position_in_a_phase_game_turn_1_does_not_play_is_told_the_phases_it_plays():
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": position(turn=1, phase="recruit-allied", amoy_turn=None)})
    assert err.value.problems == [
        "'phase' on Game-Turn 1 is one of strike-planning-japanese, strike-planning-allied, air-superiority, "
        "japanese-special-attack, invasion, naval-transfer, allied-movement, allied-combat, base-building, "
        "japanese-movement, japanese-combat (Formosa 6.1, 24.1; the B-29 and Interdiction Phases need their "
        "mission in [missions])"]


def test_an_overstacked_position_is_refused():
    units = {f"us-7-{n}": X for n in (17, 32, 184)} | {"us-27-105": X, "us-27-106": X}
    with pytest.raises(SetupError, match="over the stacking limits"):
        GAME.initial_state("1", {"position": position(units=units, where={}, revealed=[], bases=[])})


def test_a_position_file_with_optional_rules_starts_a_game_through_the_cli(run, tmp_path):
    path = tmp_path / "pos.toml"
    path.write_text(f'turn = 2\nphase = "japanese-movement"\nrevealed = []\n[units]\n"us-7-17" = "{AROUND[0]}"\n'
                    f'"jp-9-7" = "{X}"\n[where]\n"jp-marine" = "japanese-reinforcements"\n')
    game = run("new", "formosa", "--position", str(path), "--optional", "25.7").output.strip()
    shown = json.loads(run("show", game, "--json").output)
    assert shown["to_act"] == "japanese" and "land" in {a["name"] for a in shown["actions"]}
    run("join", game, "--side", "japanese", "--name", "j@example.org")
    run("join", game, "--side", "allied", "--name", "a@example.org")
    beach = sorted(str(h) for h in D.map.hexes_with("beach"))[-1]
    done = run("do", game, "--as", "japanese", f"land {beach} with jp-marine", ok=False)
    assert "25.7" in done.output
    assert "chain intact" in run("verify", game).output


def test_a_position_in_a_combat_phase_has_revealed_the_concealed_units_in_an_allied_zoc():
    """11.2 item 1: the Combat Phase began with them revealed (a deception unit revealed is removed, 11.1)."""
    state = GAME.initial_state("1", {"position": position(
        phase="allied-combat", units={"us-7-17": AROUND[0], "jp-9-7": X, "jp-deception-1": AROUND[1],
                                      "jp-9-19": "1805"}, revealed=[], bases=[])})
    assert not state.units["jp-9-7"].concealed and state.units["jp-deception-1"].where == "out"
    assert state.units["jp-9-19"].concealed  # far from any Allied unit


def test_a_hex_label_of_another_map_is_refused_by_name():
    with pytest.raises(SetupError, match="us-7-17: w1234 is not a land hex"):
        GAME.initial_state("1", {"position": position(units={"us-7-17": "w1234"}, revealed=[], bases=[])})


def test_f104_the_documented_mid_combat_position_plays_its_counterattack():
    from formosa_given import documented_position, of, when

    from app.rules.formosa.events import CombatResolved

    state = GAME.initial_state("1", {"position": documented_position(1)})
    assert state.strike.suppressed == ("1013",) and state.strike.fleet_used and state.strike.revealed
    assert state.strike.missions == {"allied": {"b29": 1, "tactical": 2}, "japanese": {"air-superiority": 1}}
    assert state.data.unit("us-7-17").cf == 6 and state.data.unit("us-7-17").mf == 5  # the what-if 6-5
    assert state.units["us-27-105"].attacked and state.attacked_hexes == ("1115", "1013")
    assert GAME.prompt(state).side == "japanese"
    assert [o["order"] for o in GAME.legal_orders(state, "japanese")] == ["counterattack 1012", "counterattack 1113"]
    [counter] = of(when(state, "japanese", "counterattack 1012", [6]), CombatResolved)
    assert counter.counterattack and counter.defence == 6  # the what-if 17th alone: us-7-32 attacked from 1113
    assert counter.shifts == [{"amount": 1, "case": "Formosa 15.6", "reason": "counterattack"}]  # 15.6 item 2


def test_f104_an_air_plan_starts_the_b29_and_interdiction_phases_and_a_suppressed_hex_shifts_the_attack():
    from formosa_given import of, play, when

    from app.rules.formosa.airpower import B29Struck

    plan = {"allied": {"b29": 1, "interdiction": 2}}
    state = GAME.initial_state("1", {"position": position(phase="b29", missions=plan, revealed=["jp-9-7"],
                                                          air={"allied-tac": 6, "b29": 1})})
    assert GAME.prompt(state).side == "allied" and state.strike.revealed
    [hit] = of(when(state, "allied", f"strike {X}", [5]), B29Struck)
    assert hit.hex == X
    later = GAME.initial_state("1", {"position": position(phase="interdiction", missions=plan,
                                                          air={"allied-tac": 6, "b29": 1})})
    assert any(o["order"].startswith("interdict ") for o in GAME.legal_orders(later, "allied"))
    suppressed = GAME.initial_state("1", {"position": position(
        phase="allied-combat", missions={"allied": {"b29": 1}}, air={"b29": 1}, suppressed=[X],
        units={"us-7-17": AROUND[0], "jp-9-7": X}, revealed=["jp-9-7"], bases=[])})
    shown = GAME.preview(suppressed, GAME.parse(f"attack {X} with us-7-17", "allied", suppressed))
    assert {"amount": 1, "case": "Formosa 16.5", "reason": "B-29 suppression of the defender"} in shown["shifts"]
    moved = play(replace_step(suppressed, "japanese-movement"), "japanese", "end")
    assert moved.units["jp-9-7"].where == X


def replace_step(state, step):
    from dataclasses import replace

    return replace(state, step=step)


def test_f104_a_sortied_fleet_sorties_no_more_and_a_recruited_one_does():
    from formosa_given import of, play, refused, when

    from app.rules.formosa.airpower import FleetSortied

    spent = GAME.initial_state("1", {"position": position(phase="japanese-special-attack", fleet_sortied=True)})
    spent = play(spent, "japanese", "roll", [1])  # the kamikaze roll comes first (16.6); no sortie is left
    assert spent.step != "japanese-special-attack"
    refused(replace_step(spent, "japanese-special-attack"), "japanese", "sortie", "Formosa 18.0")
    ready = GAME.initial_state("1", {"position": position(phase="japanese-special-attack",
                                                          air={"allied-tac": 6, "mobile-fleet": 1})})
    ready = play(ready, "japanese", "roll", [1])
    assert ready.step == "japanese-special-attack" and of(when(ready, "japanese", "sortie", [1]), FleetSortied)


def test_f104_a_what_if_counter_attacks_and_moves_with_its_own_values():
    what_if = position(phase="allied-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}, revealed=["jp-9-7"],
                       bases=[], values={"us-7-17": {"cf": 9, "indicator": "A"}})
    state = GAME.initial_state("1", {"position": what_if})
    shown = GAME.preview(state, GAME.parse(f"attack {X} with us-7-17", "allied", state))
    assert shown["attack"] == 9
    assert {"amount": 1, "case": "Formosa 15.4.1", "reason": "attack bonus unit"} in shown["shifts"]
    printed = GAME.initial_state("1", {"position": {**what_if, "values": {}}})
    assert GAME.preview(printed, GAME.parse(f"attack {X} with us-7-17", "allied", printed))["attack"] == \
        D.unit("us-7-17").cf
    assert GAME.data({}).unit("us-7-17").cf == D.unit("us-7-17").cf  # the printed data is untouched


ISLAND = """[map]
name = "a test island with its own ports and towns"
parity = "even-low"
cols = [1, 6]
rows = [1, 6]
[vocabulary]
terrain = ["sea", "open", "rough", "mountain", "peak", "mud-flats"]
hexside = ["river", "bridged-river", "all-sea"]
features = ["city", "town", "major-port", "minor-port", "airfield", "industry", "beach"]
[terrain]
default = "sea"
open = ["0202", "0203", "0302", "0303", "0304", "0402", "0403", "0404", "0503"]
[features]
city = ["0303"]
town = ["0403"]
major-port = ["0202"]
minor-port = ["0503"]
airfield = ["0302"]
"""


def test_f103_a_custom_map_with_its_own_ports_and_towns_is_played_as_it_is(run, tmp_path):
    (tmp_path / "island.toml").write_text(ISLAND)
    (tmp_path / "pos.toml").write_text('turn = 2\nphase = "recruit-japanese"\nbases = ["us-eng-1"]\n[units]\n'
                                       '"jp-9-7" = "0303"\n"us-eng-1" = "0202"\n"us-7-17" = "0202"\n'
                                       '[where]\n"jp-guerrilla-1" = "japanese-reinforcements"\n'
                                       '"us-7-32" = "allied-replacements"\n[lp]\njapanese = 5\nallied = 5\n')
    game = run("new", "formosa", "--map", str(tmp_path / "island.toml"), "--position", str(tmp_path / "pos.toml"))
    game = game.output.strip()
    run("join", game, "--side", "japanese", "--name", "j@example.org")
    run("join", game, "--side", "allied", "--name", "a@example.org")
    run("do", game, "--as", "japanese", "recruit jp-guerrilla-1")
    refused = run("do", game, "--as", "japanese", "deploy jp-guerrilla-1 0404", ok=False)  # open, no feature
    assert refused.exit_code == 2 and "Formosa 8.1" in refused.output
    run("do", game, "--as", "japanese", "deploy jp-guerrilla-1 0403")  # this map's town (8.1)
    run("do", game, "--as", "japanese", "end")
    run("do", game, "--as", "allied", "replace us-7-32")
    run("do", game, "--as", "allied", "deploy us-7-32 0202")  # this map's major port, functional (8.1, 20.0)
    state = json.loads(run("state", game, "--json").output)
    assert {u["id"]: u["hex"] for u in state["units"] if u["id"] in ("jp-guerrilla-1", "us-7-32")} == {
        "jp-guerrilla-1": "0403", "us-7-32": "0202"}
    assert "chain intact" in run("verify", game).output


def test_f103_a_custom_map_s_own_roads_carry_a_mechanized_unit_into_its_mountains():
    """12.2, 12.4 on a custom map: the road it states is the road the rules read, and a map without it has none."""
    from formosa_given import when

    hills = ISLAND.replace('open = ["0202"', 'mountain = ["0204"]\nopen = ["0202", "0205"')
    road = hills + '\n[[roads]]\npath = ["0203", "0204", "0205"]\n'
    position = {"turn": 2, "phase": "allied-movement", "units": {"us-armor-1": "0203", "jp-9-7": "0503"}}
    state = GAME.initial_state("1", {"map": road, "position": position})
    [(path, mp)] = [(e.path, e.mp) for e in when(state, "allied", "move us-armor-1 0204 0205")]
    assert path[-2:] == ["0204", "0205"] and mp == 1  # half an MP a road hex (12.4)
    state = GAME.initial_state("1", {"map": hills, "position": position})
    with pytest.raises(IllegalOrder) as err:
        when(state, "allied", "move us-armor-1 0204 0205")
    assert err.value.case == "Formosa 12.2"


def test_f104_pinned_units_interdicted_hexes_a_fleet_result_spent_kamikaze_and_used_air_supply():
    from formosa_given import of, refused, when

    from app.rules.formosa import strategic
    from app.rules.formosa.events import UnitMoved

    pinned = GAME.initial_state("1", {"position": position(phase="allied-movement", pinned=["us-7-17"])})
    refused(pinned, "allied", f"move us-7-17 {AROUND[1]}", "Formosa 10.2.1, 10.3, 21.0")
    interdicted = GAME.initial_state("1", {"position": position(
        phase="japanese-movement", units={"jp-9-7": X}, revealed=[], bases=[], where={},
        missions={"allied": {"interdiction": 2}}, interdiction={AROUND[0]: 2})})
    plain = GAME.initial_state("1", {"position": position(phase="japanese-movement", units={"jp-9-7": X},
                                                          revealed=[], bases=[], where={})})
    [slow] = of(when(interdicted, "japanese", f"move jp-9-7 {AROUND[0]}"), UnitMoved)
    [fast] = of(when(plain, "japanese", f"move jp-9-7 {AROUND[0]}"), UnitMoved)
    assert slow.mp == fast.mp + 2  # 16.4 item 3
    barred = GAME.initial_state("1", {"position": position(phase="invasion", fleet_sortied="decisive",
                                                           where={"us-7-32": "allied-staging"})})
    assert barred.strike.gunfire_withdrawn and barred.strike.amphibious_barred
    refused(barred, "allied", f"land {AROUND[5]} with us-7-32", "Formosa 18.0")
    mix = strategic.air_point_limit(D, "japanese", "kamikaze")
    spent = GAME.initial_state("1", {"position": position(phase="recruit-japanese", kamikaze_spent=mix - 1,
                                                          lp={"japanese": 20, "allied": 0})})
    when(spent, "japanese", "buy 1 kamikaze")
    assert "have attacked" in refused(spent, "japanese", "buy 2 kamikaze", "Formosa 8.2")  # 2.5: once a game
    supplied = GAME.initial_state("1", {"position": position(
        phase="allied-combat", air_supply_used=True, air={"air-supply": 1}, units={"us-7-17": AROUND[0], "jp-9-7": X},
        revealed=["jp-9-7"], bases=[])})
    refused(supplied, "allied", f"attack {X} with us-7-17 supply air", "Formosa 19.4")  # once a GT


def test_f104_the_documented_positions_in_the_middle_of_a_movement_phase_play_on():
    from formosa_given import documented_position, of, refused, when

    from app.rules.formosa.events import UnitMoved

    allied = GAME.initial_state("1", {"position": documented_position(2)})
    assert allied.strike.gunfire_withdrawn and not allied.strike.amphibious_barred  # an Indecisive Action
    refused(allied, "allied", "move us-7-17 0913", "Formosa 10.2.1, 10.3, 21.0")  # it landed this GT
    refused(allied, "allied", "move us-27-105 1114", "Formosa 12.2")  # it has moved this phase
    japanese = GAME.initial_state("1", {"position": documented_position(3)})
    assert japanese.units["jp-9-7"].moved and japanese.kamikaze_spent == 3 and japanese.air_supply_turn == 5
    refused(japanese, "japanese", "move jp-9-7 1015", "Formosa 12.2")
    [moved] = of(when(japanese, "japanese", "move jp-9-19 1114"), UnitMoved)
    assert moved.mp == D.movement.costs["non-mechanized"].terrain.get("open", 1) + 2  # two interdiction points


def test_7_2_a_position_holds_the_battlefield_lp_for_the_next_game_turn():
    later = position(phase="japanese-combat", lp_next_turn={"allied": 1})
    state = GAME.initial_state("1", {"position": later, "optional": ["25.2"]})
    assert state.lp_due == {"allied": 1} and GAME.view(state, "japanese")["lp_next_turn"] == {"allied": 1}
    with pytest.raises(SetupError, match="25.2"):
        GAME.initial_state("1", {"position": later})  # no battlefield LP without the rule
    with pytest.raises(SetupError, match="25.2"):
        GAME.initial_state("1", {"position": position(phase="amoy", lp_next_turn={"allied": 1}),
                                 "optional": ["25.2"]})  # nor before this GT's first combat


def test_8_1_12_2_a_position_places_no_unit_where_no_rule_could_have_brought_it_f118():
    """Ruling F118 (F115): a mechanized unit in a roadless mountain or peak hex, a static unit outside the hexes it
    is deployed in, and US beside Commonwealth units are impossible states, refused naming their case."""
    gmap = D.map
    roadless = next(str(h) for h in sorted(gmap.hexes()) if gmap.terrain_of(h) in ("mountain", "peak")
                    and not (gmap.is_road_hex(h) or gmap.is_rail_hex(h)))
    road = next(str(h) for h in sorted(gmap.hexes()) if gmap.terrain_of(h) == "mountain"
                and gmap.is_road_hex(h) and not gmap.features_of(h) & {"city", "town"})
    for uid in ("jp-armor-1", "us-armor-1"):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": position(units={**position()["units"], uid: roadless})})
        assert f"{uid} is mechanized" in str(err.value) and "Formosa 12.2, 8.1; rulings F115, F118" in str(err.value)
    assert GAME.initial_state("1", {"position": position(units={**position()["units"], "jp-armor-1": road})})
    plain = next(h for h in AROUND if not gmap.features_of(Hex.parse(h)))
    for uid, why in (("jp-cd-1", "Formosa 8.1; ruling F118"), ("jp-hw-1", "Formosa 8.1; ruling F118"),
                     ("us-hw-1", "Formosa 13.1; ruling F118, F172")):  # F172: an Allied one on no hex at all
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": position(units={**position()["units"], uid: plain})})
        assert f"{uid} (heavy-weapons) is static" in str(err.value) or f"{uid} (coastal-defense) is static" in str(
            err.value)
        assert f"({why})" in str(err.value)
    port = next(str(h) for h in sorted(D.ports()) if str(h) != FIELD)
    placed = GAME.initial_state("1", {"position": position(units={**position()["units"], "jp-cd-1": port})})
    assert placed.units["jp-cd-1"].where == port  # a port, where 8.1 deploys it
    with pytest.raises(SetupError) as err:
        GAME.initial_state("2", {"position": position(units={**position()["units"], "cw-7-18": AROUND[0]})})
    assert "US and Commonwealth units never stack together (Formosa 5.1 item 1, 13.1)" in str(err.value)


def test_9_1_24_1_a_position_keeps_amoy_s_timing_and_has_the_6th_marines_arrive_f118():
    """Amoy falls in the Amoy Operation Phase (9.1, 6.1), and the 6th Marine Division enters the Amoy Display when the
    Allied Recruit Phase of the next GT begins (24.1, F34): a position's `amoy_turn` keeps both (ruling F118)."""
    marines = ("us-6mar-4", "us-6mar-22", "us-6mar-29")
    with pytest.raises(SetupError) as err:  # the Recruit Phase comes before this GT's Amoy Operation Phase
        GAME.initial_state("1", {"position": position(turn=3, phase="recruit-allied", amoy_turn=3)})
    assert "Amoy falls in the Amoy Operation Phase (9.1, 6.1)" in str(err.value)
    for phase, turn, there in (("strike-planning-japanese", 3, "out"), ("recruit-japanese", 4, "out"),
                               ("recruit-allied", 4, "amoy"), ("allied-movement", 6, "amoy")):
        state = GAME.initial_state("1", {"position": position(turn=turn, phase=phase, amoy_turn=3)})
        assert {state.units[u].where for u in marines} == {there}, (phase, turn)
    landed = GAME.initial_state("1", {"position": position(units={**position()["units"], "us-6mar-4": AROUND[1]},
                                                          where={"us-6mar-22": "allied-staging"})})
    assert [landed.units[u].where for u in marines] == [AROUND[1], "allied-staging", "amoy"]
    old = GAME.initial_state("1", {"position": position(
        where={"us-6mar-22": "amoy"})}, "9")  # created under 1-9: only what the position named arrived
    assert [old.units[u].where for u in marines] == ["out", "amoy", "out"]
    for early in ({"units": {**position()["units"], "us-6mar-4": AROUND[1]}}, {"where": {"us-6mar-4": "amoy"}}):
        with pytest.raises(SetupError) as err:  # before Amoy falls the division is not in the game
            GAME.initial_state("1", {"position": position(amoy_turn=None, **early)})
        assert "us-6mar-4 is not in this game" in str(err.value)


def test_f118_a_stored_game_created_under_rules_9_loads_replays_and_verifies_with_the_position_it_was_given(store):
    """The rules version a game was created under reaches the reading of its position (Rules.initial_state's
    `version`): a check a later version added (ruling F118, version 10) refuses a new game, never a stored one."""
    import dataclasses

    from app.projections import replay
    from app.projections import state as projection
    from app.rules.base import Catalog
    from app.rules.catalog import installed
    from app.service import audit, games
    from app.service.games import GameError

    gmap = D.map
    plain = next(h for h in AROUND[4:] if not gmap.features_of(Hex.parse(h)))
    roadless = next(str(h) for h in sorted(gmap.hexes()) if gmap.terrain_of(h) in ("mountain", "peak")
                    and not (gmap.is_road_hex(h) or gmap.is_rail_hex(h)))
    options = {"position": position(units={**position()["units"], "jp-cd-1": plain, "jp-armor-1": roadless})}
    catalog = installed()
    with pytest.raises(GameError, match="ruling F118"):  # a new game: read under this version
        games.create_game(store, catalog, "formosa", "1", options, auto={})
    then = Catalog.of(dataclasses.replace(GAME, version="9"))  # the server as it was under version 9
    game_id = games.create_game(store, then, "formosa", "1", options, auto={})
    loaded = projection.load(store, catalog, game_id)  # today's server
    assert loaded.game.rules_version == 9 and loaded.game.units["jp-cd-1"].where == plain
    assert loaded.game.units["jp-armor-1"].where == roadless
    move = next(o["order"] for o in GAME.legal_orders(loaded.game, "allied") if o["order"].startswith("move us-7-17"))
    games.submit(store, catalog, game_id, "allied", move)
    games.submit(store, catalog, game_id, "allied", "end")
    report = audit.verify_stored(store, catalog, game_id)
    assert report.ok and report.orders_replayed == 2, report.problems
    frames = replay.build(store, catalog, game_id, "all").frames
    assert len(frames) >= 3 and projection.load(store, catalog, game_id).game.units["us-7-17"].where == move.split()[-1]


def test_8_1_10_1_12_2_no_mechanized_unit_is_deployed_or_lands_in_a_mountain_port_without_a_road_f120():
    """Ruling F120: on a map whose port is a mountain hex no road runs through (a custom map: the printed one has
    none), a mechanized unit neither deploys there (8.1) nor lands there (10.1), as it sets up and moves by sea
    there under F115; a non-mechanized unit does both. A game created under 1-9 is decided as played."""
    from formosa_given import play, refused, when

    from app.rules.formosa import played_under

    rugged = ISLAND.replace('open = ["0202", ', 'mountain = ["0202"]\nopen = [')
    base = {"turn": 3, "bases": ["us-eng-1"], "units": {"us-eng-1": "0202", "jp-9-7": "0404"},
            "lp": {"allied": 10, "japanese": 0}}
    recruit = GAME.initial_state("1", {"map": rugged, "position": {**base, "phase": "recruit-allied",
                                                                   "where": {"us-armor-1": "allied-replacements",
                                                                             "us-7-32": "allied-replacements"}}})
    recruit = play(play(recruit, "allied", "replace us-armor-1"), "allied", "replace us-7-32")
    assert "mechanized" in refused(recruit, "allied", "deploy us-armor-1 0202", "Formosa 8.1")
    assert not [o for o in GAME.legal_orders(recruit, "allied") if o["order"] == "deploy us-armor-1 0202"]
    play(recruit, "allied", "deploy us-7-32 0202")  # infantry goes in
    play(played_under(recruit, "9"), "allied", "deploy us-armor-1 0202")  # as played under 1-9
    invasion = GAME.initial_state("1", {"map": rugged, "position": {
        **base, "phase": "invasion", "markers": {"amphibious": 1},
        "where": {"us-armor-1": "allied-staging", "us-7-32": "allied-staging"}}})
    assert "ruling F115" in refused(invasion, "allied", "land 0202 with us-armor-1 us-7-32", "Formosa 12.2")
    assert when(invasion, "allied", "land 0202 with us-7-32")
    assert when(played_under(invasion, "9"), "allied", "land 0202 with us-armor-1 us-7-32")
    assault = GAME.initial_state("1", {"map": rugged, "position": {
        "turn": 3, "phase": "invasion", "units": {"jp-guard-1": "0202", "jp-9-7": "0404"}, "revealed": ["jp-guard-1"],
        "markers": {"amphibious": 1}, "where": {"us-armor-1": "allied-staging", "us-7-32": "allied-staging"}}})
    assault = play(assault, "allied", "land 0201 with us-armor-1 us-7-32")  # at sea next to the held port
    cleared = play(assault, "allied", "assault 0202", [6])  # DE: the hex is cleared
    assert (cleared.units["us-7-32"].where, cleared.units["us-armor-1"].where) == ("0202", "allied-staging")
    [failed] = [e for e in when(assault, "allied", "assault 0202", [6]) if type(e).__name__ == "LandingFailed"]
    assert failed.units == ["us-armor-1"] and "ruling F120" in failed.why
    as_played = play(played_under(assault, "9"), "allied", "assault 0202", [6])
    assert as_played.units["us-armor-1"].where == "0202"
