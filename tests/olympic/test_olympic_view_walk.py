"""Session part 12's walk of app/rules/olympic/view.py, victory.py (its rules: sudden death, the assessment, the
final levels) and combat.py's refusals (issue 30): each line was broken by hand, one at a time, and the fast tier
run (docs/mutation-survivors.md, part 12); each test here failed with a break no other fast test noticed and holds
what a player sees: the counters and control on the map, the combat panel of the replay, the preview's dice, the
end of the game. Each starts from a position (tests/olympic/olympic_given.py)."""
from __future__ import annotations

from dataclasses import replace

from olympic_given import given, of, programmed, refused, when

from app.rules.olympic import GAME, victory
from app.rules.olympic.events import CombatResolved, DecisionRequired, GameEnded
from tests.olympic.test_olympic_combat import JP2, JP4A, US_A, US_B

MIYAZAKI = "3236"  # a City: militia 3 (ruling R11)


def test_the_view_shows_each_counter_as_printed_and_a_city_the_americans_took_as_theirs():
    state = given(units={US_A: MIYAZAKI, JP4A: "3136"}, american_control=(MIYAZAKI,))
    seen = GAME.view(state, "american")
    units = {u["id"]: u for u in seen["units"]}
    assert {k: units[US_A][k] for k in ("nation", "type", "size", "factors")} == \
        {"nation": "us", "type": "infantry", "size": "regiment", "factors": "4-12"}
    assert {k: units[JP4A][k] for k in ("nation", "type", "size", "factors")} == \
        {"nation": "japanese", "type": "infantry", "size": "regiment", "factors": "4-4"}
    assert MIYAZAKI in seen["victory_hexes"] and "3232" not in seen["victory_hexes"]   # R20: Cities, not Towns
    assert seen["control"][MIYAZAKI] == "american"           # R19: taken, though a City is Japanese at start
    assert {seen["control"][h] for h in seen["victory_hexes"] if h != MIYAZAKI} == {"japanese"}   # R20's cities
    assert (seen["winner"], seen["end_reason"], seen["side_to_act"]) == (None, None, "american")


def test_the_view_shows_a_unit_at_sea_and_the_game_turn_a_unit_eliminated_returns_on():
    """Note 6: the 25-27, eliminated supplied on Game-Turn 2, returns on Game-Turn 5; the 25-35 is at sea."""
    state = given(units={US_A: "3235", US_B: "3437"})
    state = replace(state, units={**state.units, US_A: replace(state.units[US_A], status="eliminated", hex=None,
                                                               returns_on=5)})
    units = {u["id"]: u for u in GAME.view(state, "american")["units"]}
    assert (units[US_B]["at_sea"], units[US_A]["returns_on"], units[US_A]["steps"]) == (True, 5, 0)


def test_the_combat_panel_of_an_american_exchange_owes_the_militia_and_reads_the_left_hand_numbers():
    """2 and 3 militia (die 3: Normal) in Miyazaki against 8: +3, die 6: Ex 10/10. The panel shows the sign of the
    differential, what the attackers owe (8.9: the defenders' printed strength plus the militia unmodified), and
    each die's result on the "+2, +3" column with its worth to the attacker (Dr above Ex) and its left-hand
    number (note 4)."""
    state = given(units={JP2: MIYAZAKI, US_A: "3235", US_B: "3235"})
    events = when(state, "american", f"attack {MIYAZAKI} with 25-27 25-35", rolls=[3, 6])
    [combat] = of(events, CombatResolved)
    assert (combat.differential, combat.result) == (3, "Ex 10/10") and of(events, DecisionRequired)
    panel = GAME.combat_summary(combat, state)
    assert panel["odds"] == "+3" and panel["column"] == "+2, +3"
    assert panel["losses"] == {"american": "at least 5 strength points", "japanese": "all"}
    assert [(r["result"], r["value"], r["casualty_points"]) for r in panel["distribution"]] == \
        [("Dr 2/2", 3, 2), ("Dr 2/2", 3, 2), ("Dr 2/2", 3, 2), ("Dr 3/3", 3, 3), ("Dr 3/3", 3, 3), ("Ex 10/10", 2, 10)]


def test_the_combat_panel_of_a_japanese_attack_reads_the_right_hand_numbers():
    """A 4-4 against a 4-12: 0 (column "0"); the panel's numbers are those the Japanese attack inflicts (note 4).
    Its 6 is a special attack (8.54, note 5; ruling R53): the 4 doubled to 8, +4, read on "+4, +7": Dr 3/5, 5
    points (it read Ex 10/10 on column 0, a result no 6 of this attack gives)."""
    state = given(step="japanese-combat", units={JP4A: "3135", US_A: "3235"})
    [combat] = of(when(state, "japanese", programmed(state), rolls=[3]), CombatResolved)
    panel = GAME.combat_summary(combat, state)
    assert (panel["attacker"], panel["odds"], panel["column"]) == ("japanese", "+0", "0")
    assert [r["casualty_points"] for r in panel["distribution"]] == [2, 2, 2, 2, 3, 5]
    assert [(r["column"], r["result"], r["special"]) for r in panel["distribution"]][4:] == [
        ("0", "Dr 3/3", False), ("+4, +7", "Dr 3/5", True)]


def test_ruling_r53_the_panel_of_a_special_attack_reads_the_faces_1_to_5_before_the_doubling_oo_8():
    """OO-8: a Japanese 2 against an American 4 rolls a 6: doubled, 0, Ex 10/10. Its other faces would have read
    the 2 as it is, -2: Ae 10/3, Ae 10/3, Ar 5/2, Ar 5/2, Dr 2/2 (they read column 0 too: Ar, Ar, Ar, Ar, Dr 3/3)."""
    state = given(step="japanese-combat", units={JP2: "3135", US_A: "3235"})
    [combat] = of(when(state, "japanese", programmed(state), rolls=[6]), CombatResolved)
    panel = GAME.combat_summary(combat, state)
    assert (panel["odds"], panel["column"], panel["result"], panel["losses"]["japanese"]) == ("+0", "0", "Ex 10/10",
                                                                                              "all")
    assert [(r["column"], r["result"], r["casualty_points"]) for r in panel["distribution"]] == [
        ("-2", "Ae 10/3", 3), ("-2", "Ae 10/3", 3), ("-2", "Ar 5/2", 2), ("-2", "Ar 5/2", 2), ("-2", "Dr 2/2", 2),
        ("0", "Ex 10/10", 10)]


def test_the_preview_of_an_attack_on_militia_says_its_die_is_rolled_first():
    state = given(units={US_A: "3235", US_B: "3235"})
    shown = GAME.preview(state, GAME.parse(f"attack {MIYAZAKI} with 25-27 25-35", "american", state))
    assert shown["text"].splitlines()[:2] == [
        "attack on 3236 (city, militia 3), Olympic 8.8",
        "the militia die (14.3 track 4) is rolled first, then the combat die"]


def test_the_preview_of_an_amphibious_assault_is_read_from_the_sea():
    """Ruling R17: the 25-35 at sea in 3437 assaults the 4-4 ashore in 3338 (4 against 4: 0); die 1, Ar, and no
    assaulting unit retreats (it is at sea)."""
    state = given(step="assault", units={JP4A: "3338", US_B: "3437"})
    shown = GAME.preview(state, GAME.parse("assault 3338 with 25-35", "american", state))
    assert shown["by_roll"][1]["result"] == "Ar 5/2" and shown["by_roll"][1]["column"] == "0"
    assert not [e for e in shown["by_roll"][1]["events"] if "retreat" in e]


KAGOSHIMA = "1841"


def test_ruling_r20_the_assessment_counts_cities_not_towns_units_south_only_and_never_below_zero():
    """Kagoshima and Miyazaki American, Tsuma (a Town) too; a Japanese unit south of the Objective Line (3135) and
    one north of it (2401): 40 points less two cities' credit count 0."""
    state = given(units={US_A: MIYAZAKI, JP4A: "2401", JP2: "3135"}, casualty_points=40,
                  american_control=(KAGOSHIMA, MIYAZAKI, "3232"))
    assert GAME.view(state, "american")["assessment"] == {
        "objective": False, "japanese_south": [JP2], "key_city": True, "cities": [KAGOSHIMA, MIYAZAKI],
        "points": 40, "counted": 0}


def test_ruling_r20_the_end_of_the_last_game_turn_says_what_was_judged():
    state = given(step="japanese-combat", turn=10, units={US_A: MIYAZAKI, JP2: "3135"}, casualty_points=1500,
                  american_control=(MIYAZAKI,))
    [end] = of(when(state, "japanese", "end"), GameEnded)
    assert (end.winner, end.reason) == ("japanese", "Japanese marginal victory: 1400 points counted (1500 less 1 "
                                                    "cities held), 1 Japanese units south, Kagoshima Japanese "
                                                    "(ruling R20)")
    cleared = given(step="japanese-combat", turn=10, units={US_A: KAGOSHIMA}, casualty_points=900,
                    american_control=(KAGOSHIMA,))
    [end] = of(when(cleared, "japanese", "end"), GameEnded)
    assert end.reason.endswith("800 points counted (900 less 1 cities held), southern Kyushu cleared, Kagoshima "
                               "American (ruling R20)")


def test_the_share_of_the_game_s_time_run_out_is_none_at_game_turn_1_and_nine_tenths_at_game_turn_10():
    assert [victory.progress(given(turn=t)) for t in (1, 10)] == [0.0, 0.9]


# --- combat.py's refusals no other fast test reached ---------------------------------------------------------------

def test_8_8_an_american_attack_on_a_sea_hex_is_refused_as_no_land_hex():
    state = given(units={US_A: "3338"})
    assert refused(state, "american", "attack 3437 with 25-27", "Olympic 8.8") == "Olympic 8.8: 3437 is not a land hex"


def test_ruling_r17_a_unit_still_at_sea_in_the_combat_phase_does_not_attack_ashore():
    """The 25-35 stayed at sea in 3437 through the Amphibious Assault Phase: in the American Forces Combat Phase it
    does not join an attack on the 4-4 next to it in 3338 (ruling R17, whatever the phase's own case)."""
    state = given(units={JP4A: "3338", US_A: "3337", US_B: "3437"})
    assert refused(state, "american", "attack 3338 with 25-27 25-35", "Olympic ruling R17") == \
        "Olympic ruling R17: us-25-35 is at sea: it lands or assaults in the Amphibious Assault Phase"


def test_8_8_no_attack_across_an_all_sea_hexside():
    """1324 and 1325 are next to each other across the Amakusa strait (rulings R15, R17)."""
    state = given(units={JP4A: "1324", US_A: "1325"})
    assert refused(state, "american", "attack 1324 with 25-27", "Olympic 8.8") == \
        "Olympic 8.8: us-25-27 in 1325 is not next to 1324"


def test_sequence_a_a_unit_not_in_play_does_not_attack():
    """The 25-35 waits in the pool (it arrives later, ruling R18): an attack naming it is refused, nothing rolled."""
    state = given(units={US_A: "3235", JP4A: "3136"})
    assert refused(state, "american", "attack 3136 with 25-27 25-35", "Olympic sequence A") == \
        "Olympic sequence A: there is no unit us-25-35 in play"
