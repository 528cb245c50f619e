"""Rows of docs/cases/formosa.md whose own tests passed with a mutant of the row's code (issue 30's per-case
mutation report, `bench/mutation.py --report --cases --lines --packages formosa`): the Strategic Stage and set-up
through orders (3.0, 7.2, 7.3, 8.0-8.4, 9.1, 11.0), each test reading what a player reads: the refusal whole, the
history line, the game's record of the LP received, the other side's view."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import ring

from app.rules.formosa import GAME
from app.rules.formosa.events import LogisticsReceived, SetupEnded
from app.rules.formosa.view import view

X, AROUND = ring("open")
D = GAME.data({})
MAJOR = sorted(str(h) for h in D.map.hexes_with("major-port") - D.airfields())


def recruiting(side: str, **fields):
    """A Recruit Phase of GT 3 with LP to spend and an Allied unit on Formosa (no sudden death, 4.1)."""
    units = {"us-7-32": AROUND[0], **fields.pop("units", {})}
    return given(step=f"recruit-{side}", turn=3, units=units, lp={"allied": 30, "japanese": 30}, **fields)


def test_7_3_a_unit_is_bought_with_recruit_and_buy_names_the_points_and_markers():
    assert refused(recruiting("allied"), "allied", "buy 1 us-7-17", "Formosa 7.3") == (
        "Formosa 7.3: allied buys units with 'recruit'; points and markers: tac, gunfire, amphibious, drop-zone, "
        "b29, air-supply")


def test_8_0_a_unit_recruited_must_be_in_the_reinforcements_display():
    assert refused(recruiting("allied"), "allied", "recruit us-7-32", "Formosa 8.0") == (
        "Formosa 8.0: us-7-32 is not in the allied reinforcements")


def test_8_3_a_unit_replaced_must_be_in_the_replacements_display():
    assert refused(recruiting("allied"), "allied", "replace us-7-32", "Formosa 8.3") == (
        "Formosa 8.3: us-7-32 is not in the allied replacements")


def test_8_4_air_points_are_bought_again_only_up_to_the_counter_mix_and_the_refusal_says_no_more():
    full = recruiting("allied", air={"allied-tac": 99})
    assert refused(full, "allied", "buy 1 tac", "Formosa 8.2") == "Formosa 8.2: the counter mix holds 28 tac"


def test_8_2_the_history_of_a_set_up_end_names_the_units_set_aside_only_when_there_are_some():
    state = GAME.initial_state("1", {})
    state = play(play(play(state, "japanese", "roll", [6, 1, 1]), "japanese", "deploy default"), "japanese",
                 "buy 1 tac")
    [japanese] = of(when(state, "japanese", "end"), SetupEnded)
    assert japanese.describe() == "japanese set-up complete; set aside: 18 units (Formosa 8.2)"
    state = play(state, "japanese", "end")
    for order in ("choose us-armor-1 us-armor-2", "choose us-arty-1 us-arty-2 us-arty-3",
                  "choose us-eng-1 us-eng-2 us-eng-3 us-eng-4 us-eng-5 us-eng-6 us-eng-7"):
        state = play(state, "allied", order)
    [allied] = of(when(state, "allied", "end"), SetupEnded)
    assert not allied.set_aside and allied.describe() == "allied set-up complete"


def test_7_2_9_1_the_record_of_the_allied_lp_received_names_each_items_case():
    state = replace(given(step="japanese-combat", turn=3, units={"us-eng-1": MAJOR[0]}), amoy_turn=2)
    state = state.with_units(replace(state.units["us-eng-1"], base=True))
    [_, allied] = of(when(state, "japanese", "end", [4]), LogisticsReceived)
    assert allied.items == [["Scenario 1", 5, "Formosa 7.2"], ["Amoy", 5, "Formosa 7.2, 9.1"],
                            ["1 functional major ports", 3, "Formosa 7.2, 20.0"],
                            ["0 functional minor ports", 0, "Formosa 7.2, 20.0"],
                            ["0 functional airfields", 0, "Formosa 7.2, 20.0"]]


def test_11_0_the_allies_read_the_japanese_lp_a_recruit_spends_but_not_the_unit_recruited():
    state = recruiting("japanese", units={"jp-guard-1": "japanese-reinforcements"})
    assert [e.describe() for e in when(state, "japanese", "recruit jp-guard-1")] == [
        "japanese spends 1 LP: recruit 1 unit(s)", "jp-guard-1 recruited (to deploy on Formosa)"]
    seen = view(play(state, "japanese", "recruit jp-guard-1"), "allied")
    assert seen["lp"] == {"allied": 30, "japanese": 29}  # 7.1: both LP tracks are public
    assert "jp-guard-1" not in str(seen["units"])
