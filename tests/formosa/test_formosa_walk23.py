"""Rules version 23 (issue 30, session part 17): a fresh reading of the rulebook against the engine.

- 4.2 (ruling F171): the score both players read carries the level of victory it gives (Allied VP less Japanese VP
  on 4.2's table), as the end of the game names it;
- 8.1, 13.1, 10.2, 21.0 (ruling F172): a US heavy weapons group is recruited (8.2) into the Staging Area and no
  rule brings it onto Formosa, so a position no longer places one on the map."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, position, ring

from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import LpSpent, VictoryCounted
from app.rules.formosa.view import view

X, AROUND = ring("open")
ROUGH, _ = ring("rough")
LAST = GAME.initial_state("1", {}).data.scenario(1)["turns"]
PORT = next(str(h) for h in sorted(D.ports()))


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
