"""Formosa's displays and tracks in play, through orders: air points as points and the kamikaze's one use (2.5),
who enters which display (5.3), the LP tracks (7.1), and air and naval units bought again once lost while the
kamikaze and the mobile fleet never are (8.4)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import ring

from app.rules.errors import InvalidOrder
from app.rules.formosa import GAME, strategic
from app.rules.formosa.airpower import KamikazeResolved
from app.rules.formosa.events import LogisticsReceived, LpSpent, PointsBought, UnitDeployed
from app.rules.formosa.state import Strike

X, AROUND = ring("open")
D = GAME.data({})
KAMIKAZE = strategic.air_point_limit(D, "japanese", "kamikaze")
US_TAC = strategic.air_point_limit(D, "allied", "tac", "us")


def recruiting(side: str, **fields):
    """A Recruit Phase of GT 3 with LP to spend and an Allied unit on Formosa (no sudden death, 4.1)."""
    units = {"us-7-32": AROUND[0], **fields.pop("units", {})}
    return given(step=f"recruit-{side}", turn=3, units=units, lp={"allied": 30, "japanese": 30}, **fields)


def test_2_5_8_4_kamikaze_points_attack_once_and_are_never_bought_again():
    """2.5 Important: kamikaze points are used once a game; 8.4: they are never replaced, so the points that
    attacked leave the counter mix, while those never used may still be bought."""
    attack = given(step="japanese-special-attack", air={"kamikaze": 3},
                   strike=Strike(missions={"japanese": {"kamikaze": 3}}, revealed=True))
    [resolved] = of(when(attack, "japanese", "roll", [1]), KamikazeResolved)
    assert resolved.points == 3
    attacked = play(attack, "japanese", "roll", [1])
    assert attacked.air["kamikaze"] == 0
    fresh = recruiting("japanese", air={"kamikaze": 0})
    assert of(when(fresh, "japanese", f"buy {KAMIKAZE} kamikaze"), PointsBought)  # the whole mix, never used
    later = replace(fresh, kamikaze_spent=attacked.kamikaze_spent)
    says = refused(later, "japanese", f"buy {KAMIKAZE} kamikaze", "Formosa 8.2")
    assert "used once a game" in says
    assert of(when(later, "japanese", f"buy {KAMIKAZE - 3} kamikaze"), PointsBought)


def test_2_5_air_points_are_bought_as_points_up_to_the_counters_larger_faces():
    """2.5: points, not counters: any number up to the counters' two-point faces added up (8.2)."""
    state = recruiting("allied", air={"allied-tac": US_TAC - 3})
    [bought] = of(when(state, "allied", "buy 3 tac"), PointsBought)
    assert (bought.kind, bought.count) == ("tac", 3)
    refused(state, "allied", "buy 4 tac", "Formosa 8.2")


def test_8_4_air_points_and_gunfire_lost_are_bought_again_the_mobile_fleet_never():
    """8.4: eliminated air points and naval gunfire go back to the Reinforcements Display and may be bought
    again at the chart's price; the mobile fleet's marker, once it has sortied, is out of the game (18.0)."""
    full = recruiting("allied", air={"allied-tac": US_TAC}, naval={"gunfire": 4})
    refused(full, "allied", "buy 1 tac", "Formosa 8.2")  # nothing lost: the mix is in play
    lost = replace(full, air={"allied-tac": US_TAC - 2}, naval={"gunfire": 2})  # after air combat and kamikaze
    events = when(lost, "allied", "buy 2 tac")
    assert of(events, PointsBought)[0].count == 2 and of(events, LpSpent)[0].amount > 0
    assert play(play(lost, "allied", "buy 2 tac"), "allied", "buy 2 gunfire").naval["gunfire"] == 4
    sailed = recruiting("japanese", strike=Strike(fleet_used=True))
    refused(sailed, "japanese", "buy 1 mobile-fleet", "Formosa 18.0")


def test_5_3_no_japanese_unit_enters_amoy_or_the_staging_area_and_no_attack_falls_on_a_display():
    """5.3: friendly units never enter or attack the enemy's displays; only Allied units enter Amoy."""
    state = recruiting("japanese", units={"jp-guerrilla-1": "japanese-replacements"})
    state = play(state, "japanese", "replace jp-guerrilla-1")
    for place in ("amoy", "staging"):
        says = refused(state, "japanese", f"deploy jp-guerrilla-1 {place}", "Formosa 5.3")
        assert "only Allied units enter Amoy" in says
    allied = play(recruiting("allied", units={"us-7-17": "allied-replacements"}, amoy_turn=2), "allied",
                  "replace us-7-17")
    assert of(when(allied, "allied", "deploy us-7-17 amoy"), UnitDeployed)[0].where == "amoy"
    combat = given(units={"us-7-17": AROUND[1], "jp-9-7": X})
    for display in ("amoy", "staging"):
        with pytest.raises((InvalidOrder, ValueError)):
            when(combat, "allied", f"attack {display} with us-7-17")


def test_7_1_both_players_read_both_lp_tracks_and_logistics_moves_them():
    """7.1: a running record of each side's LP on the map's tracks (public), raised by the Logistics Phase
    (7.2)."""
    state = given(step="japanese-combat", turn=3, units={"us-7-32": AROUND[0]}, lp={"allied": 4, "japanese": 2})
    for side in ("allied", "japanese"):
        assert GAME.view(state, side)["lp"] == {"allied": 4, "japanese": 2}
    events = when(state, "japanese", "end", [5])
    income = {e.side: sum(i[1] for i in e.items) for e in of(events, LogisticsReceived)}
    after = play(state, "japanese", "end", [5])
    assert after.turn == 4 and income["japanese"] >= 5 and income["allied"] >= 5
    for side in ("allied", "japanese"):
        assert GAME.view(after, side)["lp"] == {"allied": 4 + income["allied"], "japanese": 2 + income["japanese"]}
