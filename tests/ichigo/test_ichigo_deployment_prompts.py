"""Ichi-Go 5.3 items 5 and 6 (ruling E3): after the US landing the Japanese prompt says which army deploys now,
under which case, and lists its units (mutation survivors of issue 19: the army's name and the case could change
unnoticed)."""
from dataclasses import replace

from ichigo_given import fold, position, then, when

from app.rules.ichigo import GAME
from app.rules.ichigo.state import initial_state

FG = ["jp-fg-9div", "jp-fg-12div", "jp-fg-50div", "jp-fg-66div"]


def test_5_3_the_japanese_are_told_to_deploy_the_formosa_garrison_then_the_kwantung_army():
    us = sorted(u.id for u in initial_state().units.values() if u.nation == "us" and u.id != "us-11ab")[:8]
    s = replace(position({"jp-cea-110div": "0812"}, turn=7), phase="start")
    s = then(then(then(s, "allied", "roll", rolls=[6]), "allied", "roll", rolls=[5]), "allied", "end")
    s = fold(s, *when(s, "allied", "land " + " ".join(us)))
    first = GAME.prompt(s).owed
    assert first.what == "deploy the Formosa Garrison (Ichi-Go 5.3, ruling E3)"
    assert {uid for uid, _ in first.candidates} == set(FG)
    s = then(then(s, "japanese", "enter jp-fg-9div jp-fg-12div at 3220"), "japanese",
             "enter jp-fg-50div jp-fg-66div at 3118")
    second = GAME.prompt(s).owed
    assert second.what == "deploy the Kwantung Army (Ichi-Go 5.3, ruling E3)"
    assert "jp-ka-11div" in {uid for uid, _ in second.candidates}
