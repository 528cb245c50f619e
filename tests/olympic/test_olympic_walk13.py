"""Session part 17's reading of the Olympic fragments against the engine (docs/rulings/olympic.md): ruling R54, the
preview of every kind of attack says what the order would do: an exchange that waits for the player's losses costs
note 4's points (it showed 0), and a Japanese attack has a preview whose 6 is a special attack (8.54, note 5); ruling
R55, the orders the Tokko and Doctrine steps do not take, and a placement in Game-Turn 1's assaults, are refused by
the case of their phase (R52): previews and refusals change nothing stored, so no rules version. Rules version 11:
American attackers retreat (Ar) a stack at a time, keeping its top for 8.52 (R56), and an exchange judges the
attackers' supply once the defenders are gone (R57). And two worked cases held in play: OO-2's 100 and 300 points,
8.52's attacker in a stack."""
from __future__ import annotations

from dataclasses import replace

import pytest
from olympic_given import after, given, of, programmed, refused, when
from test_olympic_combat import JP2, JP4A, JP4B, US_A, US_B, japanese_combat
from test_olympic_sequence import ARIAKE_A, ARIAKE_B, MIYAZAKI_A, division, tokko_position

from app.events.core import DieRolled
from app.rules import legal
from app.rules.errors import IllegalOrder
from app.rules.olympic import GAME, combat, played_under
from app.rules.olympic.events import CasualtyPoints, CombatResolved, TokkoLosses, UnitEliminated, UnitRetreated

MIYAZAKI = "3236"  # a City: militia 3
ARIAKE_C = "2846"  # the Ariake zone hex numbered next below 2945


def _preview(state, order: str, side: str = "american") -> dict:
    return GAME.preview(state, GAME.parse(order, side, state))


def test_ruling_r54_the_preview_of_an_exchange_waiting_for_the_losses_counts_note_4s_points():
    """Two American 4s against Miyazaki's 4-4 and militia 3: on a 6 the militia is halved (4 + 3/2), 8 against 5 1/2
    reads +2, Ex 10/10. The exchange owes 4 + 3 = 7 (8.9), so the player chooses the losses (8 > 7), and the
    combat costs 10 for each of the two attackers, 20, whichever are lost; the preview said 0 (no points were
    counted before the losses were chosen)."""
    state = given(units={JP4A: MIYAZAKI, US_A: "3235", US_B: "3336"}, beachheads=("3235", "3336"))
    six = _preview(state, f"attack {MIYAZAKI} with 25-27 25-35")["by_roll"][6]["by_militia"]["6"]  # ruling R58
    assert (six["column"], six["result"], six["casualty_points"]) == ("+2, +3", "Ex 10/10", 20)
    shown = _preview(state, f"attack {MIYAZAKI} with 25-27 25-35")["text"].splitlines()
    assert shown[-1] == ("  die 6: Ex 10/10, 20 Casualty Points; you eliminate attackers worth at "
                         "least 7 strength points (Olympic 8.9)")


def test_ruling_r54_an_exchange_costs_30_in_place_of_10_for_each_unsupplied_unit_the_player_may_lose():
    """Note 6: an unsupplied American unit eliminated costs 30 in place of the indicated number: with the supplied
    25-27 and the unsupplied 25-35 owing 4, the player loses either, for 20 or 40 points."""
    state = given(units={US_A: "3235", US_B: "3336"})
    context = {"attackers": [US_A, US_B], "required": 4, "left": 10, "supplied": {US_A: True, US_B: False}}
    assert combat.exchange_points(state, context) == (20, 40)
    assert list(combat.loss_sets({US_A: 4, US_B: 4}, 4)) == [(US_A,), (US_B,)]


def test_ruling_r54_a_japanese_attack_has_a_preview_whose_6_is_a_special_attack_oo_8():
    """OO-8 in the preview: a Japanese 2 against an American 4 reads -2 on dice 1-5 (Ae, Ae, Ar, Ar, Dr 2/2: the
    right-hand numbers 3, 3, 2, 2, 2) and on the 6 its strength doubled, 4 against 4 at 0: Ex 10/10, the attacker
    eliminated. Before, `preview` answered that a Japanese attack has no preview."""
    state = japanese_combat(**{JP2: "3135", US_A: "3235"})
    order = f"jattack {JP2} on {US_A}"
    shown = _preview(state, order, "japanese")
    assert [(r["column"], r["result"], r["casualty_points"], r["special"]) for r in shown["by_roll"].values()] == [
        ("-2", "Ae 10/3", 3, False), ("-2", "Ae 10/3", 3, False), ("-2", "Ar 5/2", 2, False),
        ("-2", "Ar 5/2", 2, False), ("-2", "Dr 2/2", 2, False), ("0", "Ex 10/10", 10, True)]
    assert shown["text"].splitlines()[-1] == (f"die 6: special attack (8.54): strength doubled to 4, column 0, "
                                              f"Ex 10/10, 10 Casualty Points; {JP2} eliminated")
    answered = legal.preview(GAME, state, GAME.parse(order, "japanese", state))  # in turn: through the decider
    assert answered["previewed"] and answered["legal"] and answered["by_roll"] == shown["by_roll"]
    planning = legal.preview(GAME, state, GAME.parse(order, "american", state))  # the solitaire player's look
    assert planning["previewed"] and planning["planning"]


def test_ruling_r54_a_japanese_attack_out_of_position_has_no_preview_and_says_which_rule():
    far = japanese_combat(**{JP2: "3135", US_A: "3138"})
    with pytest.raises(IllegalOrder) as err:
        _preview(far, f"jattack {JP2} on {US_A}", "japanese")
    assert err.value.case == "Olympic 8.52" and "is in no position to attack it" in str(err.value)
    weak = japanese_combat(**{"jp-146-5": "3135", US_A: "3235"})  # a 1 against a 4: -3
    with pytest.raises(IllegalOrder) as err:
        _preview(weak, f"jattack jp-146-5 on {US_A}", "japanese")
    assert err.value.case == "Olympic 8.8 note 1" and "1 against 4 is below -2" in str(err.value)


def test_ruling_r55_an_end_the_tokko_or_doctrine_step_does_not_take_is_refused_by_its_phase():
    """The Tokko step's one order is `tokko` (14.4) and the Doctrine step's `doctrine` (B.1): an `end` in either was
    refused by "the sequence of play" at large."""
    tokko = given("tokko", 1, {US_A: "3437"})
    assert "the Tokko strike is rolled now ('tokko')" in refused(tokko, "japanese", "end", "Olympic 14.4")
    for turn in (1, 2):
        doctrine = given("doctrine", turn, {US_A: "3235", JP4A: "3135"})
        assert "rolls its tracks ('doctrine')" in refused(doctrine, "japanese", "end", "Olympic sequence B.1")


def test_ruling_r55_a_placement_in_game_turn_1s_assaults_is_refused_by_14_4_as_in_the_tokko_step():
    """R52: on Game-Turn 1 a placement once the invasion force is placed names 14.4; the Amphibious Assault step,
    whose own `place` is the later invasion's, named R17."""
    state = given("assault", 1, {US_A: "3437"})
    assert "placed in the invasion zone hexes before the Tokko strike" in refused(
        state, "american", f"place {US_B} at 3436", "Olympic 14.4")
    assert "the one later invasion" in refused(given("assault", 3, {US_A: "3437"}, invasion_turn=2), "american",
                                               f"place {US_B} at 3436", "Olympic ruling R17")


def test_ruling_r56_american_attackers_retreat_a_stack_at_a_time_keeping_its_top_for_8_52():
    """Two American 4s stacked in 3235 (25-35 on top) attack the two 4-4s in 3135 at 0, named top first; die 1: Ar
    (8.9), two hexes from Clear (note 2). The stack retreats bottom first and arrives as it stood, 25-35 on top, so
    the Japanese 4-4 that then stands next to it attacks 25-35 (8.52: equal strengths, the top unit first). Rules
    version 10 retreated them in the order named, turning the stack over; a game created under it still does."""
    state = given(units={JP4A: "3135", JP4B: "3135", US_A: "3235", US_B: "3235"}, beachheads=("3333",))
    assert [u.id for u in state.stack("3235")] == [US_B, US_A]
    events = when(state, "american", f"attack 3135 with {US_B} {US_A}", rolls=[1])
    assert of(events, CombatResolved)[0].result == "Ar 5/2"
    retreats = of(events, UnitRetreated)
    assert [r.unit for r in retreats] == [US_A, US_B] and retreats[0].path == retreats[1].path
    there = retreats[0].path[-1]
    assert [u.id for u in after(state, events).stack(there)] == [US_B, US_A]
    old = when(played_under(state, "10"), "american", f"attack 3135 with {US_B} {US_A}", rolls=[1])
    assert [r.unit for r in of(old, UnitRetreated)] == [US_B, US_A]
    assert [u.id for u in after(played_under(state, "10"), old).stack(there)] == [US_A, US_B]
    final = after(state, events)  # the Japanese Forces Combat Phase, a 4-4 moved next to the stack in 3334
    attack = replace(final, step="japanese-combat", units={**final.units, JP4A: replace(final.unit(JP4A), hex="3234")})
    assert there == "3334" and programmed(attack) == f"jattack {JP4A} on {US_B}"


def test_ruling_r57_an_exchange_judges_the_attackers_supply_once_the_defenders_are_gone():
    """The 25-27 in 3235 traces its supply only to the beachhead 3234, in the zone of control of the 2-4 it attacks in
    3135: unsupplied while the 2-4 stands (ruling R16). 4 against 2 reads +2; die 6: Ex 10/10. The defenders are
    eliminated first (8.9), so when the 25-27 is eliminated to pay for them its way to 3234 is open: it is supplied,
    costs 10 (note 4) and returns on Game-Turn 5 (note 6). Rules version 10 judged its supply before the combat: 30
    points, never to return; a game created under it still does."""
    state = given(units={JP2: "3135", US_A: "3235"}, beachheads=("3234",))
    assert not state.supplied(state.unit(US_A))
    events = when(state, "american", f"attack 3135 with {US_A}", rolls=[6])
    assert of(events, CombatResolved)[0].result == "Ex 10/10"
    assert [(e.unit, e.returns_on) for e in of(events, UnitEliminated)] == [(JP2, None), (US_A, 5)]
    assert [e.points for e in of(events, CasualtyPoints)] == [10]
    old = when(played_under(state, "10"), "american", f"attack 3135 with {US_A}", rolls=[6])
    assert [(e.unit, e.returns_on) for e in of(old, UnitEliminated)] == [(JP2, None), (US_A, None)]
    assert [e.points for e in of(old, CasualtyPoints)] == [30]


def test_8_52_of_two_japanese_units_in_the_lowest_numbered_hex_the_top_one_attacks_first():
    """8.52 names the attacker by its hex; two Japanese 4-4s stacked in 3135 are both in position against the
    American 4 in 3235: the top one attacks (ruling R1), whichever it is."""
    for bottom, top in ((JP4A, JP4B), (JP4B, JP4A)):
        state = given("japanese-combat", 2, {bottom: "3135", top: "3135", US_A: "3235"}, beachheads=("3235",))
        assert programmed(state) == f"jattack {top} on {US_A}"


@pytest.mark.parametrize("rolls, points, hexes", [
    ([4, 1, 3], 100, [ARIAKE_A]),                                # track 5: table #1; 100; Ariake
    ([1, 1, 3], 300, [ARIAKE_A, ARIAKE_B, ARIAKE_C]),            # track 5: table #3; 300; Ariake
])
def test_14_4_a_100_or_300_point_strike_removes_three_or_nine_units_each_three_a_stack_from_one_hex_oo_2(
        rolls, points, hexes):
    """OO-2's 100 and 300 in play (its 200 is test_olympic_sequence's): three units for every 100 points, each three
    one stack from a single invasion zone hex, the zone's highest-numbered hex first (3045, 2945, 2846), one zone
    die for the strike while the zone rolled holds a full stack (ruling R8); Miyazaki's stack stays."""
    stacks = {ARIAKE_A: division("25"), ARIAKE_B: division("33"), ARIAKE_C: division("41"),
              MIYAZAKI_A: division("43")}
    state = tokko_position(**stacks)
    events = when(state, "japanese", "tokko", rolls=rolls)
    assert [e.points for e in of(events, CasualtyPoints)] == [points]
    assert [(e.zone, e.hex, len(e.units)) for e in of(events, TokkoLosses)] == [("ariake", h, 3) for h in hexes]
    assert len(of(events, DieRolled)) == 3
    final = after(state, events)
    assert sum(final.unit(u).status == "removed" for us in stacks.values() for u in us) == 3 * points // 100
    assert {final.unit(u).status for u in division("43")} == {"map"} and final.casualty_points == points
