"""Rows of docs/cases/formosa.md whose own tests passed with a mutant of the row's code (issue 30's per-case
mutation report, `bench/mutation.py --report --cases --lines --packages formosa`): what the players read in the
view and the prompt (4.2, 16.6, 25.0)."""
from __future__ import annotations

from formosa_given import given, play, when
from formosa_map import ring

from app.rules.formosa import GAME
from app.rules.formosa.state import Strike
from app.rules.formosa.view import view

X, AROUND = ring("open")


def test_4_2_both_players_read_the_score_under_its_name_with_its_case():
    state = given(units={"us-7-17": AROUND[0], "jp-9-7": X})
    assert view(state, "allied")["score"]["name"] == "Victory points (Formosa 4.2)"
    assert view(state, "japanese")["score"]["name"] == "Victory points (Formosa 4.2)"


def test_25_0_the_optional_rules_chosen_are_shown_to_both_players_in_their_numbers_order():
    start = GAME.initial_state("1", {"optional": ["25.10", "25.2", "25.1"]})
    for side in ("allied", "japanese"):
        assert view(start, side)["optional_rules"] == ["25.1", "25.2", "25.10"]


def test_16_6_the_allied_player_is_asked_to_split_the_kamikaze_hits_in_words_naming_the_case():
    state = given(step="japanese-special-attack", air={"kamikaze": 3}, units={"us-7-17": AROUND[0]},
                  strike=Strike(missions={"japanese": {"kamikaze": 3}}, revealed=True), markers={"amphibious": 2},
                  naval={"gunfire": 2})
    state = play(state, "japanese", "roll", [6])  # three points on the 3-4 column: two hits (an Allied unit on
    # Formosa: no sudden death, 4.1)
    assert GAME.prompt(state).step == ("Game-Turn 2: allied to decide: return 2 amphibious markers and naval gunfire "
                                       "units in all (16.6)")


def test_6_1_16_1_the_strike_reveal_phase_is_played_at_once_and_shows_each_side_the_others_plan():
    state = given(step="strike-planning-japanese", units={"us-7-17": AROUND[0]},
                  air={"allied-tac": 2, "japanese-tac": 2})
    state = play(state, "japanese", "plan 2 air-superiority")
    assert view(state, "allied")["missions"] == {}  # planned in secret (16.1)
    said = [e.describe() for e in when(state, "allied", "plan 1 air-superiority 1 tactical")]
    assert said[-3:] == ["Game-Turn 2: strike reveal phase",
                         "strikes revealed: Allied 1 air-superiority, 1 tactical; Japanese 2 air-superiority "
                         "(Formosa 16.1)",
                         "Game-Turn 2: air superiority phase"]
    state = play(state, "allied", "plan 1 air-superiority 1 tactical")
    assert state.step == "air-superiority"
    for side in ("allied", "japanese"):
        shown = view(state, side)["missions"]
        assert shown["japanese"]["air-superiority"] == 2 and shown["allied"]["tactical"] == 1
