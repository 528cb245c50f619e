"""Formosa custom positions (docs/custom-positions.md, ruling F98): a game that starts at any phase of any
Game-Turn from a position file, checked as the rules check a position, through `cli.py new --position`."""
from __future__ import annotations

import json

import pytest
from formosa_map import D, ring

from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME

X, AROUND = ring("open")
FIELD = next(str(h) for h in sorted(D.airfields() & D.ports()))


def position(**extra) -> dict:
    base = {"turn": 3, "phase": "allied-movement",
            "units": {"us-7-17": AROUND[0], "us-eng-1": FIELD, "jp-9-7": X, "jp-9-19": AROUND[3]},
            "where": {"us-7-32": "allied-eliminated"}, "revealed": ["jp-9-19"], "bases": ["us-eng-1"],
            "lp": {"allied": 7, "japanese": 4}, "air": {"allied-tac": 6}, "markers": {"amphibious": 1},
            "amoy_turn": 2}
    return {**base, **extra}


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


def test_a_position_starts_in_a_phase_of_the_strike_stage_a_player_acts_in_gt_1_from_strike_planning():
    """6.1, 24.1: GT 1 begins with Strike Planning; a position carries no air plan, so it starts in Strike
    Planning or after it, never in a phase played on entering it or one that needs a mission."""
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
])
def test_a_position_is_refused_with_every_problem_named(change, says):
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": position(**change)})
    assert says in str(err.value)


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
