"""Rules version 23 (issue 30, session part 17): a fresh reading of the rulebook against the engine.

- 4.2 (ruling F171): the score both players read carries the level of victory it gives (Allied VP less Japanese VP
  on 4.2's table), as the end of the game names it;
- 8.1, 13.1, 10.2, 21.0 (ruling F172): a US heavy weapons group is recruited (8.2) into the Staging Area and no
  rule brings it onto Formosa, so a position no longer places one on the map;
- 10.2.2 (ruling F173): an amphibious assault is supported by naval gunfire and tactical air "but not ground attack",
  the LP charts' Ground Attack Shift: it spends no LP, where the engine let the Allies spend one or two."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, position, ring, shore

from app.rules import legal
from app.rules.base import Command
from app.rules.custom_setup import SetupError
from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import CombatResolved, LpSpent, VictoryCounted
from app.rules.formosa.view import view

X, AROUND = ring("open")
ROUGH, _ = ring("rough")
LAST = GAME.initial_state("1", {}).data.scenario(1)["turns"]
PORT = next(str(h) for h in sorted(D.ports()))
BEACH, (SEA,) = shore(1)
FOUR = ("us-7-17", "us-7-32", "us-7-184", "us-27-105")


def test_4_2_the_score_both_players_read_names_its_level_of_victory_f171():
    # the last GT: an Allied engineer base on a major or minor port and two Allied units eliminated
    state = given(step="japanese-combat", turn=LAST, units={
        "us-eng-1": PORT, "us-7-17": ROUGH, "us-7-32": "allied-eliminated", "us-7-184": "allied-eliminated"})
    state = state.with_units(replace(state.units["us-eng-1"], base=True))
    [counted] = of(when(state, "japanese", "end"), VictoryCounted)
    for side in ("allied", "japanese", None):
        score = view(state, side)["score"]
        assert score["by_side"] == {"allied": counted.allied, "japanese": counted.japanese}
        assert score["level"] == counted.level  # what the end of the game would name now
    net = counted.allied - counted.japanese
    assert net <= 6 and counted.level == "Japanese Strategic Victory"
    # 4.2's table read as the text's example bands: 10 against 2 is a Japanese Operational Victory
    assert state.data.victory_level(10 - 2) == "Japanese Operational Victory"
    # ruling F171: a game created under rules 1-22 shows the score it was played with (the automated seats' seed)
    assert "level" not in view(played_under(state, "22"), "allied")["score"]


def test_8_1_13_1_a_us_heavy_weapons_group_is_recruited_into_the_staging_area_and_stays_there_f172():
    # the Allied Recruit Phase with a functional port: its engineer base is the one static unit 13.1 allows
    state = given(step="recruit-allied", units={
        "us-eng-1": PORT, "us-hw-1": "allied-reinforcements", "us-7-17": "allied-staging"}, lp={"allied": 9,
                                                                                                 "japanese": 0})
    state = state.with_units(replace(state.units["us-eng-1"], base=True))
    assert state.functional_ports() == [PORT]
    events = when(state, "allied", "recruit us-hw-1")
    assert [e.amount for e in of(events, LpSpent)] == [4]  # 8.2: the Allies recruit any unit, at the chart's 4 LP
    bought = play(state, "allied", "recruit us-hw-1")
    assert "over-stacked" in refused(bought, "allied", f"deploy us-hw-1 {PORT}", "Formosa 8.1")
    ended = play(bought, "allied", "end")
    assert ended.units["us-hw-1"].where == "allied-staging"  # 8.1 item 2 a: deployed in the Staging Area
    # ruling F172: a position places it in the Staging Area, never on the map (a port with no base is not
    # functional, 8.1 item 2 c; one with a base holds its static unit, 13.1)
    placed = GAME.initial_state("1", {"position": position(where={**position()["where"], "us-hw-1": "allied-staging"})})
    assert placed.units["us-hw-1"].where == "allied-staging"
    field = position()["units"]["us-eng-1"]  # the position's functional port
    bare = next(str(h) for h in sorted(D.ports()) if str(h) != field)
    for port in (field, bare):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": position(units={**position()["units"], "us-hw-1": port})})
        assert "us-hw-1 (heavy-weapons) is static: no rule brings it onto Formosa" in str(err.value)
        assert "(Formosa 13.1; ruling F118, F172)" in str(err.value)
    # a game created under rules 1-22 read its position with the hexes F118 gave it: any port
    old = GAME.initial_state("1", {"position": position(units={**position()["units"], "us-hw-1": bare})}, "22")
    assert old.units["us-hw-1"].where == bare


def test_10_2_2_an_amphibious_assault_spends_no_lp_f173():
    state = given(step="invasion", turn=1, units={**{u: "allied-staging" for u in FOUR}, "jp-9-7": BEACH,
                                                  "jp-cd-1": BEACH},
                  markers={"amphibious": 1}, lp={"allied": 3, "japanese": 2}, naval={"gunfire": 1})
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    for order in (f"assault {BEACH} lp 1", f"assault {BEACH} gunfire 1 lp 2"):
        assert "not by a ground attack shift" in refused(state, "allied", order, "Formosa 10.2.2")
        with pytest.raises(IllegalOrder) as err:  # the preview says so too
            command = GAME.parse(order, "allied", state)
            GAME.preview(state, Command("allied", command.action, command.args))
        assert err.value.case == "Formosa 10.2.2"
    assaults = {o["order"] for o in GAME.legal_orders(state, "allied") if o["order"].startswith("assault")}
    assert f"assault {BEACH} gunfire 1" in assaults and not any(" lp " in f"{o} " for o in assaults)
    assert legal.refusal(GAME, state, GAME.parse(f"assault {BEACH} gunfire 1", "allied", state)) is None
    # the Japanese defender still answers with his LP (15.4.1, the charts' Ground Defense Shift)
    asked = play(state, "allied", f"assault {BEACH} gunfire 1")
    assert asked.pending[0]["kind"] == "defence" and asked.pending[0]["side"] == "japanese"
    [fight] = of(when(asked, "japanese", "defend lp 1", [1]), CombatResolved)
    assert fight.assault == BEACH
    assert {"amount": -1, "case": "Formosa 15.4.1, ruling F22", "reason": "LP spent defending"} in fight.shifts
    # ruling F173: a game created under rules 1-22 spends the LP as it was played
    old = played_under(state, "22")
    assert [e.amount for e in of(when(old, "allied", f"assault {BEACH} lp 1"), LpSpent)] == [1]
    assert any(" lp " in f"{o['order']} " for o in GAME.legal_orders(old, "allied") if o["order"].startswith("assault"))
