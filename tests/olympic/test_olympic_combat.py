"""Olympic combat in play (8.8, 8.9, notes 1-6, 8.51-8.54): given a position, when an order, then events.

The Miyazaki plain is the test ground: 3134-3138 and 3233-3338 are Clear, 3236 is Miyazaki (City, militia 3),
3232 Tsuma (Town, militia 1), columns 29-30 Rough.
"""
from __future__ import annotations

from dataclasses import replace

import pytest
from olympic_given import after, given, of, programmed, refused, when

from app.rules.errors import IllegalOrder
from app.rules.olympic import GAME
from app.rules.olympic.events import (
    AttackCalledOff,
    CasualtyPoints,
    CombatResolved,
    DecisionRequired,
    MilitiaDestroyed,
    UnitEliminated,
    UnitRetreated,
    UnitsAdvanced,
)

JP4A, JP4B, JP3, JP2, JP1 = "jp-154-1", "jp-86-1", "jp-154-2", "jp-212-2", "jp-146-5"  # 4-4, 4-4, 3-4, 2-4, 1-8
US_A, US_B, US_C, MARINE = "us-25-27", "us-25-35", "us-25-161", "us-2mar-2"  # 4-12 x3, 5-12


def test_8_8_note_4_two_americans_attack_at_0_die_1_retreat_two_hexes_from_clear_for_10_points_oo_6_oo_5():
    state = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235", US_B: "3234"}, beachheads=("3333",))
    events = when(state, "american", "attack 3135 with 25-27 25-35", rolls=[1])
    [combat] = of(events, CombatResolved)
    assert (combat.attack, combat.defence, combat.differential, combat.column, combat.result) == \
        (8, "8", 0, "0", "Ar 5/2")
    retreats = of(events, UnitRetreated)
    assert [r.unit for r in retreats] == [US_A, US_B]
    assert all(len(r.path) == 2 for r in retreats)  # from Clear: two hexes (note 2)
    assert [e.points for e in of(events, CasualtyPoints)] == [10]  # 5 x 2 units (note 4)
    assert not of(events, UnitsAdvanced)  # the defenders stay: only attackers advance (ruling R38)


def test_8_8_note_2_a_unit_in_a_town_retreats_one_hex_oo_5():
    state = given(units={JP2: "3232", US_A: "3233", US_B: "3332"})
    events = when(state, "american", "attack 3232 with 25-27 25-35", rolls=[3, 1])  # militia x1, die 1
    [combat] = of(events, CombatResolved)
    assert combat.militia == 1 and combat.differential == 8 - 3 and combat.result == "Dr 3/3"
    [retreat] = of(events, UnitRetreated)
    assert retreat.unit == JP2 and len(retreat.path) == 1
    assert of(events, MilitiaDestroyed) == [MilitiaDestroyed("3232")]  # note 3


def test_8_8_note_1_no_attack_below_minus_2_and_refused_before_any_die():
    state = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235"})
    assert "below -2" in refused(state, "american", "attack 3135 with 25-27", "Olympic 8.8 note 1")


def test_8_8_note_1_an_order_at_exactly_minus_2_is_accepted_and_one_below_is_refused():
    at_minus_2 = given(units={JP4A: "3135", JP2: "3135", US_A: "3235"})  # 4 against 6, no militia in 3135
    [resolved] = of(when(at_minus_2, "american", "attack 3135 with 25-27", rolls=[1]), CombatResolved)
    assert (resolved.differential, resolved.column, resolved.result) == (-2, "-2", "Ae 10/3")
    at_minus_3 = given(units={JP4A: "3135", JP2: "3135", JP1: "3135", US_A: "3235"})  # 4 against 7
    assert "4 against 7 is below -2" in refused(at_minus_3, "american", "attack 3135 with 25-27",
                                                "Olympic 8.8 note 1")


def test_ruling_r28_a_tripled_militia_can_call_the_attack_off_after_its_die():
    state = given(units={US_A: "3235"})  # Miyazaki 3236: militia 3 alone; 4 vs 3/2 is allowed
    events = when(state, "american", "attack 3236 with 25-27", rolls=[1])  # track 4 die 1: tripled, 9
    assert of(events, AttackCalledOff) == [AttackCalledOff("3236", [US_A], 4 - 9)]
    assert not of(events, CombatResolved)
    called_off = after(state, events)
    assert called_off.unit(US_A).attacked and "3236" in called_off.attacked_hexes  # it took part: no second try
    refused(called_off, "american", "attack 3236 with 25-27", "Olympic 8.8")
    shown = GAME.preview(state, GAME.parse("attack 3236 with 25-27", "american", state))   # before it: die 1 says so
    assert shown["militia_dice"][1] == {"factor": "3", "militia": "9", "differential": -5, "column": None}
    assert shown["by_roll"][1]["by_militia"]["1"]["result"] == "called off"  # ruling R58: whatever the combat die
    assert "militia die 1: militia 9 (x3), differential -5: called off (8.8 note 1)" in shown["text"].splitlines()


def test_14_3_track_4_militia_doubled_defends_at_6_oo_10_and_is_destroyed_by_dr():
    state = given(units={US_A: "3235", US_B: "3336", US_C: "3237"})
    events = when(state, "american", "attack 3236 with 25-27 25-35 25-161 advance 25-27", rolls=[2, 5])
    [combat] = of(events, CombatResolved)
    assert (combat.militia, combat.militia_factor, combat.defence, combat.differential) == (3, "2", "6", 6)
    assert combat.result == "Dr 3/3"
    assert of(events, MilitiaDestroyed) == [MilitiaDestroyed("3236")]
    assert of(events, UnitsAdvanced) == [UnitsAdvanced([US_A], "3236")]
    assert after(state, events).american_control == ("3236",)


def test_8_8_note_3_ae_and_ar_leave_the_militia():
    state = given(units={US_A: "3235"})
    events = when(state, "american", "attack 3236 with 25-27", rolls=[6, 1])  # halved: 4 vs 3/2 = +2, die 1
    [combat] = of(events, CombatResolved)
    assert combat.defence == "3/2" and combat.differential == 2 and combat.result == "Dr 2/2"
    events = when(given(units={US_A: "3235"}), "american", "attack 3236 with 25-27", rolls=[3, 1])
    assert of(events, CombatResolved)[0].result == "Ar 5/2" and not of(events, MilitiaDestroyed)


def test_8_9_exchange_the_american_player_chooses_units_worth_the_printed_strength_plus_militia():
    state = given(units={US_A: "3235", US_B: "3336", US_C: "3237"}, beachheads=("3235", "3336", "3237"))
    events = when(state, "american", "attack 3236 with 25-27 25-35 25-161 advance 25-35", rolls=[1, 6])
    [combat] = of(events, CombatResolved)
    assert (combat.defence, combat.differential, combat.result) == ("9", 3, "Ex 10/10")  # militia 3 tripled
    [decision] = of(events, DecisionRequired)
    assert decision.data["required"] == 3  # the militia's unmodified strength (8.9)
    pending = after(state, events)
    assert "worth at least 3" in GAME.prompt(pending).step
    owed = GAME.prompt(pending).owed  # issue 14: where, how much, the candidates with their strengths
    assert owed.where == "3236" and "at least 3" in owed.amount
    assert [c for c, _ in owed.candidates] == [US_A, US_B, US_C]
    assert all(v.startswith("strength ") for _, v in owed.candidates)
    refused(pending, "american", "lose 25-27 25-27", "Olympic sequence")
    refused(pending, "american", "lose 2mar-2", "Olympic 8.9")
    paid = when(pending, "american", "lose 25-27")
    assert [e.unit for e in of(paid, UnitEliminated)] == [US_A]
    assert [e.points for e in of(paid, CasualtyPoints)] == [30]  # 10 x 3 American units (note 4)
    assert of(paid, UnitsAdvanced) == [UnitsAdvanced([US_B], "3236")]
    assert GAME.prompt(after(pending, paid)).side == "american"


def test_ruling_r40_an_exchange_takes_no_unit_more_than_the_defenders_strength_requires():
    """8.9 sets a minimum: the player picks the units, but none whose strength is not needed to reach it. Against
    a 4-4 unit and a city's militia of 3 (7 printed points) two 4s pay, and so do a 4 and the marines' 5; all
    three would lose a unit for nothing; the 5 alone falls short."""
    state = given(units={JP4A: "3236", US_A: "3235", US_B: "3336", MARINE: "3237"},
                  beachheads=("3235", "3336", "3237"))
    events = when(state, "american", "attack 3236 with 25-27 25-35 2mar-2 advance 25-35", rolls=[1, 6])
    [combat] = of(events, CombatResolved)
    assert (combat.attack, combat.defence, combat.result) == (13, "13", "Ex 10/10")  # militia tripled
    [decision] = of(events, DecisionRequired)
    assert decision.data["required"] == 7
    pending = after(state, events)
    assert "no unit more than needed" in GAME.prompt(pending).owed.amount
    why = refused(pending, "american", "lose 25-27 25-35 2mar-2", "Olympic 8.9")
    assert "more than the 7 required" in why
    assert {e.unit for e in of(when(pending, "american", "lose 25-27 25-35"), UnitEliminated)} == {US_A, US_B}
    assert {e.unit for e in of(when(pending, "american", "lose 25-27 2mar-2"), UnitEliminated)} == {US_A, MARINE}
    refused(pending, "american", "lose 2mar-2", "Olympic 8.9")  # 5 of 7: short
    # a game of rules version 6 took the unit it did not need, as it was played (ruling R40)
    old = replace(pending, rules_version=6)
    assert len(of(when(old, "american", "lose 25-27 25-35 2mar-2"), UnitEliminated)) == 3


def test_8_9_an_exchange_the_attackers_cannot_fully_pay_takes_them_all_at_once():
    state = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235", US_B: "3234"})
    events = when(state, "american", "attack 3135 with 25-27 25-35", rolls=[6])
    assert of(events, CombatResolved)[0].result == "Ex 10/10"
    assert not of(events, DecisionRequired)
    assert {e.unit for e in of(events, UnitEliminated)} == {JP4A, JP4B, US_A, US_B}


def test_8_8_note_6_blocked_retreat_costs_10_and_the_unit_returns_on_the_third_turn_after():
    # the American in 3235 is hemmed in: Japanese units and their zones of control all round
    ring = {"jp-156-1": "3134", "jp-156-2": "3136", "jp-154-3": "3336", "jp-212-1": "3334"}
    state = given(units={JP4A: "3135", JP4B: "3135", **ring, US_A: "3235", MARINE: "3034"}, turn=3,
                  beachheads=("3235",))
    events = when(state, "american", "attack 3135 with 25-27 2mar-2", rolls=[1])  # 9 vs 8: +1, die 1
    assert of(events, CombatResolved)[0].result == "Ar 5/2"
    [gone] = of(events, UnitEliminated)
    assert gone.unit == US_A and gone.returns_on == 6
    [points] = of(events, CasualtyPoints)
    assert points.points == 10 + 5


@pytest.mark.parametrize(("turn", "back"), [(7, 10), (8, None)])
def test_8_8_note_6_a_supplied_unit_lost_on_game_turn_7_returns_on_10_and_one_lost_on_8_never(turn, back):
    """Note 6 returns a supplied unit on the third Game-Turn after; the game has ten (ruling R13), so a unit lost on
    Game-Turn 7 is back for the last one and a unit lost on Game-Turn 8 has no Game-Turn 11 to come back on."""
    ring = {"jp-156-1": "3134", "jp-156-2": "3136", "jp-154-3": "3336", "jp-212-1": "3334"}
    state = given(units={JP4A: "3135", JP4B: "3135", **ring, US_A: "3235", MARINE: "3034"}, turn=turn,
                  beachheads=("3235",))
    events = when(state, "american", "attack 3135 with 25-27 2mar-2", rolls=[1])  # Ar; 3235 is hemmed in
    [gone] = of(events, UnitEliminated)
    assert (gone.unit, gone.returns_on) == (US_A, back)
    assert after(state, events).unit(US_A).status == ("eliminated" if back else "removed")


def test_8_8_note_6_an_unsupplied_american_unit_eliminated_costs_30_and_never_returns():
    state = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235", US_B: "3234"}, beachheads=())
    events = when(state, "american", "attack 3135 with 25-27 25-35", rolls=[6])  # Ex, attackers cannot pay
    eliminated = {e.unit: e for e in of(events, UnitEliminated)}
    assert eliminated[US_A].returns_on is None and "unsupplied" in eliminated[US_A].cause
    assert of(events, CasualtyPoints)[0].points == 30 + 30


# --- 8.51-8.54 the Japanese attacks ------------------------------------------------------------------------------

def japanese_combat(**units):
    american = tuple(sorted({h for uid, h in units.items() if uid.startswith("us-")}))
    return given(step="japanese-combat", units=units, beachheads=american)


def test_8_54_a_6_doubles_the_japanese_2_against_an_american_4_and_reads_ex_at_0_oo_8():
    state = japanese_combat(**{JP2: "3135", US_A: "3235"})
    assert programmed(state) == f"jattack {JP2} on {US_A}"
    events = when(state, "japanese", programmed(state), rolls=[6])
    [combat] = of(events, CombatResolved)
    assert (combat.special, combat.attack, combat.differential, combat.column, combat.result) == \
        (True, 4, 0, "0", "Ex 10/10")
    assert {e.unit: e.cause for e in of(events, UnitEliminated)}[JP2] == "special attack (Olympic 8.54)"
    assert of(events, CasualtyPoints)[0].points == 10  # the right-hand number x 1 American unit (note 4)


def test_8_54_the_special_attacker_dies_even_when_the_american_only_retreats():
    state = japanese_combat(**{JP4A: "3135", US_A: "3235"})
    events = when(state, "japanese", programmed(state), rolls=[6])  # doubled 8 vs 4: +4, die 6: Dr 3/5
    assert of(events, CombatResolved)[0].result == "Dr 3/5"
    assert [e.unit for e in of(events, UnitEliminated)] == [JP4A]
    assert [r.unit for r in of(events, UnitRetreated)] == [US_A]
    assert not of(events, UnitsAdvanced)  # the hex is empty, but its attacker is gone (8.53, 8.54)


def test_8_53_the_japanese_attacker_advances_into_the_hex_it_emptied():
    state = japanese_combat(**{JP4A: "3135", US_A: "3235"})
    events = when(state, "japanese", programmed(state), rolls=[5])  # 4 vs 4, die 5: Dr 3/3
    assert of(events, UnitsAdvanced) == [UnitsAdvanced([JP4A], "3235")]
    assert after(state, events).unit(US_A).defended  # attacked this phase: 8.52 matches it no more (R21)
    assert of(events, CasualtyPoints)[0].points == 3
    events = when(state, "japanese", programmed(state), rolls=[1])  # die 1: Ar 5/2, the American holds the hex
    assert [r.unit for r in of(events, UnitRetreated)] == [JP4A] and not of(events, UnitsAdvanced)
    assert after(state, events).unit(US_A).hex == "3235" and after(state, events).unit(JP4A).hex != "3235"


def test_8_52_several_japanese_can_attack_one_american_the_lowest_numbered_hex_attacks_oo_9():
    state = japanese_combat(**{JP4A: "3236", JP4B: "3135", US_A: "3235"})
    assert programmed(state) == f"jattack {JP4B} on {US_A}"  # 3135 is lower than 3236


def test_8_52_one_japanese_unit_attacks_the_american_in_the_highest_numbered_hex():
    state = japanese_combat(**{JP4A: "3235", US_A: "3135", US_B: "3335"})
    assert programmed(state) == f"jattack {JP4A} on {US_B}"
    # the combat panel's reason: either target keeps the one attack 8.51 allows, so 8.52 picks the higher hex
    reason = of(when(state, "japanese", programmed(state), rolls=[5]), CombatResolved)[0].reason
    assert {c["unit"]: c["keeps_maximum"] for c in reason["candidates"]} == {US_A: True, US_B: True}
    assert (reason["target"]["unit"], reason["case"]) == (US_B, "Olympic 8.52")


def test_8_52_in_one_hex_the_strongest_american_first_then_the_top_of_the_stack():
    state = japanese_combat(**{JP4A: "3135", US_A: "3235", MARINE: "3235", US_B: "3235"})
    assert programmed(state) == f"jattack {JP4A} on {MARINE}"
    state = japanese_combat(**{JP4A: "3135", US_A: "3235", US_B: "3235"})
    assert programmed(state) == f"jattack {JP4A} on {US_B}"  # equal strengths: the top unit (placed last)


def test_ruling_r42_a_stack_that_moves_or_retreats_together_keeps_its_top_for_8_52():
    """8.52 attacks the top of an American stack first (equal strengths). A stack moved by naming its hex arrives
    as it stood, and so does a Japanese stack retreating together: neither is turned upside down. A game of rules
    version 6 turned them over, as it was played."""
    stack = given(step="movement", units={US_A: "3235", US_B: "3235"})  # US_B on top
    moved = after(stack, when(stack, "american", "move 3235 to 3234"))
    assert [u.id for u in moved.stack("3234")] == [US_B, US_A]
    attacked = japanese_combat(**{JP4A: "3134", US_A: "3234", US_B: "3234"})
    attacked = replace(attacked, units={**attacked.units, **{u.id: u for u in moved.stack("3234")}})
    assert programmed(attacked) == f"jattack {JP4A} on {US_B}"
    old = replace(stack, rules_version=6)
    assert [u.id for u in after(old, when(old, "american", "move 3235 to 3234")).stack("3234")] == [US_A, US_B]

    defenders = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235", US_B: "3234"}, beachheads=("3235",))
    assert [u.id for u in defenders.stack("3135")] == [JP4B, JP4A]
    events = when(defenders, "american", "attack 3135 with 25-27 25-35", rolls=[5])  # 0, die 5: Dr
    [(there,)] = {tuple(r.path[-1:]) for r in of(events, UnitRetreated)}
    assert [u.id for u in after(defenders, events).stack(there)] == [JP4B, JP4A]


def test_8_51_the_maximum_number_of_attacks_beats_the_8_52_preference():
    # jp in 3134 (lowest) attacks 3135, the one American next to it (3235 is two hexes away), and jp in 3236 then
    # 3235; the choice of a target that keeps the maximum is held by tests/olympic/test_olympic_sequence_walk.py
    state = japanese_combat(**{JP4A: "3134", JP4B: "3236", US_A: "3135", US_B: "3235"})
    first = programmed(state)
    assert first == f"jattack {JP4A} on {US_A}"
    events = when(state, "japanese", first, rolls=[3])
    assert of(events, CombatResolved)[0].reason["attacks_possible"] == 2
    state = after(state, events)
    assert programmed(state) == f"jattack {JP4B} on {US_B}"


def test_8_51_every_possible_attack_is_made_and_then_the_turn_ends():
    state = japanese_combat(**{JP1: "3135", US_A: "3235"})  # 1 vs 4 is -3: not in position (note 1)
    assert programmed(state) == "end"
    refused(state, "japanese", f"jattack {JP1} on {US_A}", "Olympic 8.51")


def test_r30_an_american_attack_or_assault_on_a_second_hex_is_refused_by_the_rule():
    state = given(units={US_A: "3235", US_B: "3336", US_C: "3237", JP4A: "3136"}, beachheads=("3235",))
    assert "on one hex (ruling R30)" in refused(state, "american", "attack 3236 3136 with 25-27 25-35",
                                                "Olympic 8.8")
    with pytest.raises(IllegalOrder) as err:  # the preview refuses it the same way
        GAME.preview(state, GAME.parse("attack 3236 3136 with 25-27", "american", state))
    assert err.value.case == "Olympic 8.8"
    sea = given(step="assault", turn=1, units={US_A: "3437", JP4A: "3337", JP4B: "3336"}, released=False)
    refused(sea, "american", "assault 3337 3336 with 25-27", "Olympic ruling R17")
    with pytest.raises(IllegalOrder) as err:
        GAME.preview(sea, GAME.parse("assault 3337 3336 with 25-27", "american", sea))
    assert err.value.case == "Olympic ruling R17"


def test_preview_shows_every_die_face_by_the_code_the_order_runs_and_rolls_nothing():
    state = given(units={US_A: "3235", US_B: "3336", US_C: "3237"}, beachheads=("3235",))
    command = GAME.parse("attack 3236 with 25-27 25-35 25-161", "american", state)
    shown = GAME.preview(state, command)
    assert shown["militia"] == 3 and shown["terrain"] == "city"
    assert (shown["hex"], shown["case"]) == ("3236", "Olympic 8.8")   # what the API answers and the page reads
    tripled = shown["by_roll"][1]["by_militia"]["1"]  # militia die 1, combat die 1 (ruling R58)
    assert tripled == {"result": "Dr 2/2", "column": "+2, +3", "casualty_points": 6,
                       "events": tripled["events"]}  # militia tripled: 12 vs 9
    assert shown["by_roll"][6]["by_militia"]["6"]["result"] == "De 3/10"  # militia halved: 12 vs 3/2 is +10, die 6
    assert state.casualty_points == 0


def test_the_history_line_of_a_programmed_attack_names_its_reason():
    state = japanese_combat(**{JP4A: "3236", JP4B: "3135", US_A: "3235"})
    [combat] = of(when(state, "japanese", programmed(state), rolls=[3]), CombatResolved)
    line = GAME.describe(combat)
    assert "jp-86-1 (lowest-numbered hex 3135) attacks us-25-27 in 3235 (8.52; 1 attack(s) possible, 8.51)" in line


def test_8_9_at_most_three_attackers_advance_after_an_exchange():
    state = given(units={US_A: "3235", US_B: "3235", US_C: "3137", MARINE: "3137", JP4A: "3136"})
    assert "at most 3 units advance" in refused(
        state, "american", f"attack 3136 with {US_A} {US_B} {US_C} {MARINE} advance {US_A} {US_B} {US_C} {MARINE}",
        "Olympic 8.9")


def test_ruling_r24_the_standing_retreat_order_is_kept_and_a_turns_end_frees_every_unit_to_move_and_attack():
    from app.rules.olympic.events import RetreatPreferenceSet, TurnEnded

    state = given(step="combat", units={US_A: "3235", JP4A: "3136"})
    assert after(state, when(state, "american", "retreat toward 3338")).retreat_toward == "3338"
    assert GAME.evolve(state, RetreatPreferenceSet("3338")).retreat_toward == "3338"
    busy = replace(state, units={**state.units, US_A: replace(state.units[US_A], moved=True, attacked=True,
                                                                defended=True)})
    fresh = GAME.evolve(busy, TurnEnded(2)).units[US_A]
    assert (fresh.moved, fresh.attacked, fresh.defended) == (False, False, False)


def test_the_view_shows_each_counter_its_steps_and_a_japanese_units_release():
    state = given(units={US_A: "3235", JP4A: "3136"}, released=False)
    seen = {u["id"]: u for u in GAME.view(state, "american")["units"]}
    assert seen[US_A]["steps"] == 1 and seen[US_A]["released"] is None
    assert seen[JP4A]["steps"] == 1 and seen[JP4A]["released"] is False
    assert seen[US_B]["steps"] == 1 and seen[US_B]["status"] == "pool"  # not yet in play


def test_8_51_a_japanese_unit_attacks_once_a_phase_even_when_its_advance_puts_it_next_to_another_american():
    """8.51's attacks are each Japanese unit's one attack (ruling R21: a matching uses each unit once): the 4-4 that
    advanced into 3235 after its attack (8.53) stands next to the American in 3335 but attacks no more."""
    state = japanese_combat(**{JP4A: "3135", US_A: "3235", US_B: "3335"})
    events = when(state, "japanese", programmed(state), rolls=[5])  # 4 vs 4, die 5: Dr 3/3
    assert of(events, UnitsAdvanced) == [UnitsAdvanced([JP4A], "3235")]
    advanced = after(state, events)
    assert advanced.unit(JP4A).attacked and programmed(advanced) == "end"


def test_8_8_note_1_an_american_attack_at_plus_12_is_read_on_the_plus_10_column_oo_4():
    state = given(units={JP2: "3135", US_A: "3235", MARINE: "3235", "us-2mar-6": "3235"})  # 14 against 2
    events = when(state, "american", "attack 3135 with 25-27 2mar-2 2mar-6 advance 2mar-2", rolls=[3])
    [combat] = of(events, CombatResolved)
    assert (combat.differential, combat.column, combat.result) == (12, "+10", "De 2/10")
    assert of(events, UnitEliminated) == [UnitEliminated(JP2, "De (Olympic 8.9)")]
    assert [e.points for e in of(events, CasualtyPoints)] == [6]  # the left number 2, three Americans (note 4)
    assert of(events, UnitsAdvanced) == [UnitsAdvanced([MARINE], "3135")]


def test_8_51_a_japanese_unit_at_minus_3_is_in_no_position_to_attack_and_at_minus_2_it_is():
    assert programmed(japanese_combat(**{JP2: "3135", MARINE: "3235"})) == "end"  # 2 against 5: -3 (note 1)
    assert programmed(japanese_combat(**{JP2: "3135", US_A: "3235"})) == f"jattack {JP2} on {US_A}"  # 2 - 4


def test_the_combat_panel_shows_what_the_attackers_lose_on_an_exchange_and_a_special_attack():
    state = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235", US_B: "3234", US_C: "3234"})
    events = when(state, "american", "attack 3135 with 25-27 25-35 25-161", rolls=[6])  # 12 vs 8: +4, die 6
    [combat] = of(events, CombatResolved)
    assert combat.result == "Dr 3/5"
    ex = replace(combat, result="Ex 10/10")  # the same combat read as an exchange (8.9): at least 4 + 4
    assert GAME.combat_summary(ex, state)["losses"] == {"american": "at least 8 strength points", "japanese": "all"}
    special = japanese_combat(**{JP4A: "3135", US_A: "3235"})
    [resolved] = of(when(special, "japanese", programmed(special), rolls=[6]), CombatResolved)  # 8 vs 4: Dr 3/5
    assert resolved.special and GAME.combat_summary(resolved, special)["losses"] == {"japanese": "all",
                                                                                      "american": 0}
