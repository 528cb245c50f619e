"""The Olympic sequence of play in the engine: placement, the Tokko (14.4), amphibious assaults, movement,
reinforcements, the Game-Turn's end and victory (rulings R8, R10-R20)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from olympic_given import START, after, given, of, programmed, refused, when

from app.events.core import DieRolled
from app.rules.olympic import GAME
from app.rules.olympic.events import (
    CasualtyPoints,
    CombatResolved,
    GameEnded,
    InvasionLaunched,
    StepEnded,
    TokkoLosses,
    TokkoStruck,
    TurnEnded,
    UnitMoved,
    UnitRetreated,
    UnitsLanded,
    UnitsPlaced,
    UnitsReleased,
)

ARIAKE_A, ARIAKE_B, MIYAZAKI_A, FUKUOKA_A, TSUNO_A = "3045", "2945", "3437", "1603", "3531"
STRAIT_JP, STRAIT_US = "1324", "1325"  # Rough hexes either side of an all-sea hexside (the Amakusa strait)


def at_sea(**stacks: list[str]) -> dict[str, str]:
    return {uid: hex_ for hex_, ids in stacks.items() for uid in ids}


def division(key: str) -> list[str]:
    return [u.id for u in GAME.data().american() if u.id.startswith(f"us-{key}-")][:3]


# --- Game-Turn 1: placement and the Tokko -----------------------------------------------------------------------

def test_sequence_a_2_game_turn_1_opens_with_the_american_placement_at_sea():
    assert START.turn == 1 and GAME.prompt(START).side == "american"
    assert [a.name for a in GAME.prompt(START).actions] == ["place", "end"]
    refused(START, "american", "end", "Olympic ruling R17")
    refused(START, "american", "place 25-27 at 3333", "Olympic 14.4")  # a land hex is no zone hex (ruling R48)
    refused(START, "american", "place 25-27 25-35 25-161 33-123 at 3437", "Olympic ruling R14")
    refused(START, "american", "place 77-305 at 3437", "Olympic ruling R18")  # arrives on Game-Turn 2
    state = START
    while placed := [o["order"] for o in GAME.legal_orders(state, "american") if o["action"] == "place"]:
        state = after(state, when(state, "american", placed[0]))  # the first listed: a stack of three
    assert not [u for u in state.available() if GAME.data().unit(u.id).arrival == 1]
    assert of(when(state, "american", "end"), StepEnded) == [StepEnded("placement", 1)]


def tokko_position(**stacks):
    return given(step="tokko", turn=1, units=at_sea(**stacks))


def test_14_4_a_200_point_strike_removes_two_stacks_of_three_from_the_zones_rolled_oo_2():
    state = tokko_position(**{ARIAKE_A: division("25"), ARIAKE_B: division("33"), MIYAZAKI_A: division("41")})
    events = when(state, "japanese", "tokko", rolls=[1, 2, 3])  # track 5: table #3; 200; Ariake, for both groups
    assert of(events, TokkoStruck) == [TokkoStruck(3, 200)]
    assert [e.points for e in of(events, CasualtyPoints)] == [200]
    losses = of(events, TokkoLosses)
    assert [(e.zone, e.hex, e.units) for e in losses] == [("ariake", ARIAKE_A, division("25")[::-1]),
                                                          ("ariake", ARIAKE_B, division("33")[::-1])]
    final = after(state, events)
    assert {final.unit(u).status for u in division("25") + division("33")} == {"removed"}
    assert final.casualty_points == 200 and final.step == "assault"


def test_14_4_one_zone_die_for_the_strike_while_its_zone_holds_a_full_stack():
    state = tokko_position(**{ARIAKE_A: division("25"), ARIAKE_B: division("33"), MIYAZAKI_A: division("41")})
    events = when(state, "japanese", "tokko", rolls=[1, 2, 3, 2])  # table #3: 200; Ariake; a 2 would be Miyazaki
    assert [(e.zone, e.hex) for e in of(events, TokkoLosses)] == [("ariake", ARIAKE_A), ("ariake", ARIAKE_B)]
    assert [e.purpose for e in of(events, DieRolled)] == ["doctrine track 5: Tokko table", "Tokko table #3",
                                                          "Tokko table #4: invasion zone"]
    assert len(of(events, DieRolled)) == 3  # track 5, table #3, one zone die
    assert {after(state, events).unit(u).status for u in division("41")} == {"map"}


def test_14_4_the_zone_die_is_rolled_again_only_when_its_zone_runs_short():
    state = tokko_position(**{ARIAKE_A: division("25"), MIYAZAKI_A: division("41"), TSUNO_A: division("33")})
    events = when(state, "japanese", "tokko", rolls=[1, 2, 3, 2])  # table #3: 200; Ariake, then (short) Miyazaki
    losses = of(events, TokkoLosses)
    assert [(e.zone, e.hex) for e in losses] == [("ariake", ARIAKE_A), ("miyazaki", MIYAZAKI_A)]
    assert losses[0].reason["rerolled"] == []
    assert losses[1].reason["rerolled"] == [{"zone": "ariake", "why": "zone-short"}]
    assert len(of(events, DieRolled)) == 4
    assert {after(state, events).unit(u).status for u in division("33")} == {"map"}


def test_ruling_r8_a_zone_hex_of_fewer_than_three_is_passed_over_for_the_zones_next_stack_of_three():
    """14.4: each group is one stack of three from a single hex. Ariake's highest-numbered occupied hex (3045)
    holds two units, so the group is the stack of three in 2945, the zone's next hex; Ariake still holds a stack of
    three, so it has not run short and no second zone die is rolled (a 2 would have named Miyazaki)."""
    two = division("25")[:2]
    state = tokko_position(**{ARIAKE_A: two, ARIAKE_B: division("33"), MIYAZAKI_A: division("41")})
    events = when(state, "japanese", "tokko", rolls=[4, 1, 3, 2])  # table #1: 100; Ariake
    [loss] = of(events, TokkoLosses)
    assert (loss.zone, loss.hex, loss.units, loss.reason["rerolled"]) == ("ariake", ARIAKE_B, division("33")[::-1], [])
    assert len(of(events, DieRolled)) == 3
    assert {after(state, events).unit(u).status for u in two + division("41")} == {"map"}


def test_ruling_r8_with_no_stack_of_three_in_any_zone_the_group_comes_from_the_highest_numbered_hexes_no_zone_die():
    """14.4, ruling R8's last clause: no invasion zone hex holds the stack of three a group is, and no American unit
    is off Fukuoka or Imari, so no zone die could name a zone that gives one: the three units of the 100 points come
    from the highest-numbered occupied hexes, hex after hex, top of each stack first (Tsuno's 3531 gives its two,
    Miyazaki's 3437 its one), and no die is rolled for a zone (a die would have been rolled for ever)."""
    ariake, miyazaki, tsuno = division("25")[:2], division("41")[:1], division("33")[:2]
    state = tokko_position(**{ARIAKE_A: ariake, MIYAZAKI_A: miyazaki, TSUNO_A: tsuno})
    events = when(state, "japanese", "tokko", rolls=[4, 1])  # track 5: table #1; 100
    assert [(e.hex, e.units) for e in of(events, TokkoLosses)] == [(TSUNO_A, tsuno[::-1]), (MIYAZAKI_A, miyazaki)]
    assert len(of(events, DieRolled)) == 2
    final = after(state, events)
    assert {final.unit(u).status for u in tsuno + miyazaki} == {"removed"}
    assert {final.unit(u).status for u in ariake} == {"map"}


def test_r29_a_game_of_rules_version_1_is_decided_as_it_was_played():
    from app.rules.olympic import played_under

    state = tokko_position(**{ARIAKE_A: division("25"), ARIAKE_B: division("33"), MIYAZAKI_A: division("41")})
    old = played_under(state, "1")
    assert played_under(state, "12") == state and old.rules_version == 1
    assert played_under(state, "11") == replace(state, rules_version=11)  # version 11 kept R56 and R57 too
    assert played_under(state, "10") == replace(state, rules_version=10)  # version 10 kept R49 too
    assert played_under(state, "9") == replace(state, rules_version=9)  # version 9 kept R44 too
    assert played_under(state, "2") == replace(state, rules_version=2)  # version 2 kept R29's changes
    assert played_under(state, "3") == replace(state, rules_version=3)  # version 3 kept R33's too
    assert played_under(state, "4") == replace(state, rules_version=4)  # version 4 kept R34's too
    assert played_under(state, "5") == replace(state, rules_version=5)  # version 5 kept R35's too
    assert played_under(state, "6") == replace(state, rules_version=6)  # version 6 kept R36's and R39's too
    assert played_under(state, "7") == replace(state, rules_version=7)  # version 7 kept R40-R42 too
    assert played_under(state, "8") == replace(state, rules_version=8)  # version 8 kept R43 too
    events = when(old, "japanese", "tokko", rolls=[1, 2, 3, 2])  # version 1: a zone die for each group
    assert [(e.zone, e.hex) for e in of(events, TokkoLosses)] == [("ariake", ARIAKE_A), ("miyazaki", MIYAZAKI_A)]
    placed = GAME.initial_state("solitaire", {"position": {"turn": 2, "phase": "combat", "units": {
        "us-25-27": "3235", "us-25-35": "3235"}}})
    assert [u.id for u in placed.stack("3235")] == ["us-25-35", "us-25-27"]
    assert [u.id for u in played_under(placed, "").stack("3235")] == ["us-25-27", "us-25-35"]


def test_14_4_a_zone_with_no_american_units_or_too_few_is_rolled_again_oo_3():
    state = tokko_position(**{MIYAZAKI_A: division("41"), ARIAKE_A: division("25")[:2]})
    events = when(state, "japanese", "tokko", rolls=[4, 1, 1, 3, 2])  # table #1: 100; Tsuno, Ariake, Miyazaki
    [loss] = of(events, TokkoLosses)
    assert loss.hex == MIYAZAKI_A
    assert loss.reason["rerolled"] == [{"zone": "tsuno", "why": "zone-empty"}, {"zone": "ariake", "why": "zone-short"}]


def test_14_4_no_effect_on_the_dot():
    state = tokko_position(**{MIYAZAKI_A: division("41")})
    events = when(state, "japanese", "tokko", rolls=[6, 4])  # table #1, die 4: no effect
    assert of(events, TokkoStruck) == [TokkoStruck(1, 0)] and not of(events, TokkoLosses)


def test_14_4_note_with_americans_off_fukuoka_losses_go_by_hex_identity_without_a_zone_roll():
    state = tokko_position(**{FUKUOKA_A: division("25"), ARIAKE_A: division("33")})
    events = when(state, "japanese", "tokko", rolls=[4, 1])  # 100 points; no zone die is asked for
    [loss] = of(events, TokkoLosses)
    assert loss.hex == ARIAKE_A  # 3045 is the highest-numbered American-occupied invasion zone hex



def test_ruling_r41_with_americans_off_fukuoka_the_first_losses_come_from_the_highest_numbered_hex_whatever_it_holds():
    """14.4 note: the losses are taken unit by unit in priority of hex identity numbers, the first from the
    highest-numbered American-occupied invasion zone hex, until the number owed is removed: two units there and
    the third from the next hex down (the zone procedure's full stack of three does not apply)."""
    two = division("33")[:2]
    state = tokko_position(**{FUKUOKA_A: division("25"), ARIAKE_A: two, ARIAKE_B: division("41")})
    events = when(state, "japanese", "tokko", rolls=[4, 1])  # table #1: 100 points, no zone die
    assert [(e.hex, e.units) for e in of(events, TokkoLosses)] == [(ARIAKE_A, two[::-1]),
                                                                  (ARIAKE_B, division("41")[::-1][:1])]
    assert len(of(events, DieRolled)) == 2
    # rules version 6 took the first full stack by identity, as it was played (ruling R41)
    old = when(replace(state, rules_version=6), "japanese", "tokko", rolls=[4, 1])
    assert [e.hex for e in of(old, TokkoLosses)] == [ARIAKE_B]


def test_ruling_r44_the_fukuoka_note_goes_on_by_identity_once_the_units_off_fukuoka_are_gone():
    """14.4 note: with American units off Fukuoka when the Tokko strike, the losses are taken by hex identity and
    that procedure "is continued" until every unit owed is removed. Fukuoka's 1603 is the highest-numbered occupied
    hex, so the first three go from it; the next three come from Satsuma's 1343, the next highest, with no zone
    die, though no American unit is left off Fukuoka (a zone die of 6 would have named Sendai's 1137)."""
    satsuma, sendai = "1343", "1137"
    state = tokko_position(**{FUKUOKA_A: division("25"), satsuma: division("33"), sendai: division("41")})
    events = when(state, "japanese", "tokko", rolls=[1, 2, 6])  # track 5: table #3; 200 points
    assert [(e.hex, e.units) for e in of(events, TokkoLosses)] == [(FUKUOKA_A, division("25")[::-1]),
                                                                  (satsuma, division("33")[::-1])]
    assert len(of(events, DieRolled)) == 2  # no zone die
    assert {after(state, events).unit(u).status for u in division("41")} == {"map"}
    # rules version 8 rolled the zone die for the second group once Fukuoka was empty, as it was played (R44)
    old = when(replace(state, rules_version=8), "japanese", "tokko", rolls=[1, 2, 6])
    assert [e.hex for e in of(old, TokkoLosses)] == [FUKUOKA_A, sendai]

# --- the amphibious assault (ruling R17) -------------------------------------------------------------------------

def assault_position(units: dict[str, str], **fields):
    return given(step="assault", turn=1, units=units, released=False, **fields)


def test_ruling_r17_units_at_sea_land_next_to_their_zone_hex_and_make_a_beachhead():
    state = assault_position({**at_sea(**{"3437": division("25")}), "jp-154-3": "3337"})
    refused(state, "american", "end", "Olympic ruling R17")  # they can land, so they must
    refused(state, "american", "land 25-27 at 3337", "Olympic ruling R17")  # defended: assault it
    events = when(state, "american", "land 25-27 25-35 at 3338")
    assert of(events, UnitsLanded) == [UnitsLanded(division("25")[:2], "3338")]
    assert of(events, UnitsReleased)[0].units == ["jp-154-3"]  # an American unit next to it (14.3)
    landed = after(state, events)
    assert landed.beachheads == ("3338",) and landed.american_control == ("3338",)
    assaults = sorted(o["order"] for o in GAME.legal_orders(state, "american") if o["action"] == "assault")
    assert f"assault 3337 with {' '.join(sorted(division('25')))}" in assaults  # every unit at sea next to it
    assert all(o.startswith("assault 3337 ") for o in assaults)  # the one defended hex next to the zone hex


def test_ruling_r17_a_unit_at_sea_with_no_free_hex_to_land_in_may_wait_rather_than_assault():
    """The phase ends once no unit at sea can land: 3533's one land hex, 3432, is held, so its stack may wait at
    sea for the next Amphibious Assault Phase instead of assaulting."""
    state = assault_position({**at_sea(**{"3533": division("25")}), "jp-154-1": "3432"})
    assert any(o["action"] == "assault" for o in GAME.legal_orders(state, "american"))  # an assault is open
    assert of(when(state, "american", "end"), StepEnded) == [StepEnded("assault", 1)]


def test_ruling_r17_an_assault_repulsed_stays_at_sea_one_that_clears_the_hex_lands_three():
    units = {**at_sea(**{"3437": division("25")}), "jp-154-1": "3337"}
    ar = when(assault_position(units), "american", "assault 3337 with 25-27", rolls=[3])  # 4 v 4, die 3: Ar
    assert of(ar, CombatResolved)[0].result == "Ar 5/2"
    stays = after(assault_position(units), ar)
    assert stays.at_sea(stays.unit("us-25-27")) and stays.unit("us-25-27").attacked
    refused(stays, "american", "land 25-27 at 3338", "Olympic ruling R17")
    cleared = when(assault_position(units), "american", "assault 3337 with 25-27 25-35 25-161", rolls=[6])
    assert of(cleared, CombatResolved)[0].result == "Dr 3/5"  # 12 vs 4: +8, die 6
    assert of(cleared, UnitsLanded) == [UnitsLanded(division("25"), "3337")]


def test_ruling_r17_the_second_invasion_once_on_a_later_game_turn():
    state = given(step="assault", turn=2)
    events = when(state, "american", "place 77-305 77-306 at 3437")
    assert of(events, InvasionLaunched) == [InvasionLaunched(2)]
    launched = after(state, events)
    assert of(when(launched, "american", "place 77-307 at 3436"), UnitsPlaced)
    later = replace(launched, turn=3)
    refused(later, "american", "place 77-307 at 3436", "Olympic ruling R17")


# --- movement, reinforcements, returns -----------------------------------------------------------------------------

def test_ruling_r15_american_movement_stops_on_entering_a_japanese_zone_of_control():
    state = given(step="movement", units={"us-25-27": "3338", "jp-154-1": "3136"})
    assert of(when(state, "american", "move 25-27 to 3235"), UnitMoved)[0].path[-1] == "3235"
    assert "via 3235: it is in a Japanese zone of control, where us-25-27 stops" in refused(
        state, "american", "move 25-27 to 3134 via 3235", "Olympic ruling R15")
    assert "Japanese units hold 3136" in refused(state, "american", "move 25-27 to 3136", "Olympic ruling R10")
    far = given(step="movement", units={"us-25-27": "3338"})
    assert "2530 is 19 MP from 3338 by the cheapest way; us-25-27 has 12 MP" in refused(
        far, "american", "move 25-27 to 2530", "Olympic ruling R10")  # too far, no zone of control


def test_ruling_r10_a_move_that_goes_nowhere_or_cannot_get_there_is_refused_saying_why():
    """Each refusal of a move names the rule that bars it and says what is wrong in the player's terms: the same
    hex as destination and via hex, the unit's own hex, a sea hex, no way by land (the Amakusa strait), the
    movement points, and a first step into a zone of control out of one (R15)."""
    state = given(step="movement", units={"us-25-27": "3338"})
    assert refused(state, "american", "move 25-27 to 3337 via 3337", "Olympic ruling R10").endswith(
        "to 3337 via 3337: a move does not pass through its own destination on the way there; name it once")
    assert "via 3338: us-25-27 is in 3338 already" in refused(state, "american", "move 25-27 to 3337 via 3338",
                                                              "Olympic ruling R10")
    assert "us-25-27 is in 3338 already: a move goes to another hex" in refused(
        state, "american", "move 25-27 to 3338", "Olympic ruling R10")
    assert "0101 is a sea hex" in refused(state, "american", "move 25-27 to 3337 via 0101", "Olympic ruling R10")
    assert "2536 is 2 MP from 2537 by the cheapest way; us-25-27 has 1 MP left" in refused(
        state, "american", "move 25-27 to 2536 via 2537", "Olympic ruling R10")  # 11 MP to 2537 leave 1
    strait = given(step="movement", units={"us-25-27": STRAIT_US})
    assert f"no way by land leads from {STRAIT_US} to {STRAIT_JP}" in refused(
        strait, "american", f"move 25-27 to {STRAIT_JP}", "Olympic ruling R10")
    held = given(step="movement", units={"us-25-27": "3235", "jp-154-1": "3136", "jp-154-2": "3234"})
    assert "us-25-27 leaves a Japanese zone of control in 3235, so its first hex may not be in one" in refused(
        held, "american", "move 25-27 to 3135", "Olympic ruling R15")


def test_ruling_r11_an_intact_militia_bars_american_entry():
    state = given(step="movement", units={"us-25-27": "3338"})
    refused(state, "american", "move 25-27 to 3236", "Olympic ruling R11")
    open_city = replace(state, militia_destroyed=("3236",))
    assert of(when(open_city, "american", "move 25-27 to 3236"), UnitMoved)


def test_14_3_note_a_japanese_unit_is_released_when_an_american_unit_moves_next_to_it():
    state = given(step="movement", units={"us-25-27": "3338", "jp-154-1": "3136"}, released=False)
    events = when(state, "american", "move 25-27 to 3235")
    assert of(events, UnitsReleased)[0].units == ["jp-154-1"]


def test_ruling_r43_a_unit_is_released_by_an_american_unit_passing_next_to_it_across_an_all_sea_hexside():
    """14.3 note: an American unit that moves next to a Japanese unit releases it, whichever hex of its path that
    is; across an all-sea hexside it exerts no zone of control, so it may pass on (1426 - 1326 - 1325 - 1225,
    6 MP of Rough). Rules version 7 looked only where the unit stopped, 1225, which is not next to 1324."""
    state = given(step="movement", units={"us-25-27": "1426", "jp-154-1": STRAIT_JP}, released=False)
    events = when(state, "american", f"move 25-27 to 1225 via {STRAIT_US}")
    assert of(events, UnitMoved)[0].path == ["1326", STRAIT_US, "1225"]
    assert [e.units for e in of(events, UnitsReleased)] == [["jp-154-1"]]
    old = when(replace(state, rules_version=7), "american", f"move 25-27 to 1225 via {STRAIT_US}")
    assert not of(old, UnitsReleased)
    stopped = when(state, "american", f"move 25-27 to {STRAIT_US}")  # ending across the strait releases too
    assert [e.units for e in of(stopped, UnitsReleased)] == [["jp-154-1"]]


def test_ruling_r43_an_american_retreat_in_the_japanese_combat_phase_releases_the_units_it_comes_next_to():
    """A Japanese 2-4 in 1327 attacks the American 4-12 in 1326 (Rough) at -2, die 5: Dr 2/2; the retreat goes one
    hex, toward the standing order's 1325, across the strait from the unreleased 4-4 in 1324. A retreat moves the
    unit, so it moved next to it; rules version 7 released nobody in the Japanese Forces Combat Phase."""
    state = given(step="japanese-combat", units={"jp-154-1": STRAIT_JP, "jp-212-2": "1327", "us-25-27": "1326"},
                  released=False, beachheads=("3338",), retreat_toward=STRAIT_US)
    assert programmed(state) == "jattack jp-212-2 on us-25-27"
    events = when(state, "japanese", "jattack jp-212-2 on us-25-27", rolls=[5])
    assert [r.path for r in of(events, UnitRetreated)] == [[STRAIT_US]]
    assert [e.units for e in of(events, UnitsReleased)] == [["jp-154-1"]]
    old = when(replace(state, rules_version=7), "japanese", "jattack jp-212-2 on us-25-27", rolls=[5])
    assert of(old, UnitRetreated) and not of(old, UnitsReleased)


def test_ruling_r43_a_placement_on_a_beachhead_and_an_advance_after_combat_release_the_units_they_come_next_to():
    """An American unit placed on the beachhead 3338 comes next to the unreleased unit in 3237; one advancing into
    3135 after a Dr comes next to the unreleased unit in 3035 (8 against 2: +6, die 1: Dr 3/3). Without the advance
    only the Japanese defender moved (through 3035 to 2936): nobody is released."""
    placed = given(step="reinforcement", units={"jp-154-1": "3237"}, beachheads=("3338",), released=False)
    assert [e.units for e in of(when(placed, "american", "place 77-305 at 3338"), UnitsReleased)] == [["jp-154-1"]]
    attacked = given(units={"jp-212-2": "3135", "jp-154-1": "3035", "us-25-27": "3235", "us-25-35": "3234"},
                     released=False)
    events = when(attacked, "american", "attack 3135 with 25-27 25-35 advance 25-27", rolls=[1])
    assert of(events, CombatResolved)[0].result == "Dr 3/3"
    assert "jp-154-1" in [uid for e in of(events, UnitsReleased) for uid in e.units]
    stayed = when(attacked, "american", "attack 3135 with 25-27 25-35", rolls=[1])  # no advance
    assert of(stayed, UnitRetreated)[0].path == ["3035", "2936"] and not of(stayed, UnitsReleased)  # a Japanese move


def test_ruling_r43_an_american_unit_that_stays_put_releases_nobody():
    """14.3 note: the release comes when an American unit moves next to the Japanese unit. An American unit
    already across the strait from an unreleased unit (say it retreated there) does not release it when another
    American unit moves far away; rules version 7 released every unit next to any American unit after each move."""
    state = given(step="movement", units={"jp-154-1": STRAIT_JP, "us-25-27": STRAIT_US, "us-25-35": "3338"},
                  released=False)
    assert not of(when(state, "american", "move 25-35 to 3337"), UnitsReleased)
    old = when(replace(state, rules_version=7), "american", "move 25-35 to 3337")
    assert [e.units for e in of(old, UnitsReleased)] == [["jp-154-1"]]


def test_ruling_r18_reinforcements_and_returning_units_go_to_a_beachhead():
    state = given(step="reinforcement", turn=2, units={"us-25-27": "3338"}, beachheads=("3338",))
    assert of(when(state, "american", "place 77-305 77-306 at 3338"), UnitsPlaced)
    refused(state, "american", "place 77-305 77-306 77-307 at 3338", "Olympic ruling R14")
    refused(state, "american", "place 77-305 at 3337", "Olympic ruling R18")
    refused(state, "american", "place 40-108 at 3338", "Olympic ruling R18")  # arrives on Game-Turn 3
    eliminated = replace(state.unit("us-25-35"), status="eliminated", returns_on=5)
    state = replace(state, units={**state.units, "us-25-35": eliminated})
    refused(state, "american", "place 25-35 at 3338", "Olympic ruling R18")
    assert of(when(replace(state, turn=5), "american", "place 25-35 at 3338"), UnitsPlaced)


def test_8_8_note_6_a_unit_due_back_is_back_in_the_reinforcement_phase_not_in_time_for_the_invasion_before_it():
    from app.rules.olympic import played_under

    state = given(step="assault", turn=5)
    eliminated = replace(state.unit("us-25-35"), status="eliminated", returns_on=5)
    state = replace(state, units={**state.units, "us-25-35": eliminated})
    assert "not available" in refused(state, "american", "place 25-35 at 3437", "Olympic ruling R18")
    assert of(when(state, "american", "place 77-305 at 3437"), UnitsPlaced)  # the invasion itself may go
    assert of(when(replace(state, turn=6), "american", "place 25-35 at 3437"), UnitsPlaced)  # back since turn 5
    old = played_under(state, "2")  # a game of rules version 2 brings it back as it was played (ruling R33)
    assert old.rules_version == 2 and of(when(old, "american", "place 25-35 at 3437"), UnitsPlaced)


# --- the end of the Game-Turn and victory (ruling R20) -------------------------------------------------------------

def test_sequence_d_the_japanese_combat_phase_ends_the_game_turn():
    state = given(step="japanese-combat", turn=2)
    assert programmed(state) == "end"
    assert of(when(state, "japanese", "end"), TurnEnded) == [TurnEnded(2)]
    nxt = after(state, when(state, "japanese", "end"))
    assert (nxt.turn, nxt.step, GAME.prompt(nxt).side) == (3, "movement", "american")


def test_ruling_r20_after_the_last_game_turn_the_first_victory_level_that_holds():
    kagoshima = "1841"
    won = given(step="japanese-combat", turn=10, units={"us-25-27": kagoshima}, american_control=(kagoshima,),
                casualty_points=1050)
    [end] = of(when(won, "japanese", "end"), GameEnded)
    assert end.winner == "american" and end.reason.startswith("American decisive victory")  # 1050 - 100 < 1000
    lost = given(step="japanese-combat", turn=10, units={"jp-154-1": "3136"}, casualty_points=1500)
    [end] = of(when(lost, "japanese", "end"), GameEnded)
    assert end.winner == "japanese" and end.reason.startswith("Japanese marginal victory")


@pytest.mark.parametrize(("points", "cities", "cleared", "kagoshima", "level"), [
    (1199, 2, True, True, "American decisive victory"),       # 999 counted: under 1,000
    (1200, 2, True, True, "American substantive victory"),    # 1,000 is not under 1,000
    (1499, 0, True, False, "American substantive victory"),   # cleared, no Kagoshima: under 1,500
    (1500, 0, True, False, "Japanese marginal victory"),      # not under 1,500, and no Kagoshima
    (2099, 1, False, True, "American marginal victory"),      # Kagoshima held, 1,999 counted
    (2100, 1, False, True, "Japanese substantive victory"),   # 2,000 is not under 2,000
    (2499, 0, False, False, "Japanese substantive victory"),  # under 2,500
])
def test_ruling_r20_the_victory_levels_at_their_limits_with_100_points_off_for_each_city_held(
        points, cities, cleared, kagoshima, level):
    """R20: after Game-Turn 10 each City the Americans control takes 100 off the points counted, and the first
    level that holds decides: "under" a limit is strictly under it."""
    held = (("1841",) if kagoshima else ()) + ("3236", "2401")[:cities - kagoshima]
    units = {"us-25-27": "2401"} if cleared else {"us-25-27": "2401", "jp-154-1": "3135"}  # 3135 is south
    state = given(step="japanese-combat", turn=10, units=units, american_control=held, casualty_points=points)
    [end] = of(when(state, "japanese", "end"), GameEnded)
    assert end.reason.startswith(f"{level}: {points - 100 * cities} points counted")


def test_ruling_r20_sudden_death_at_exactly_2500_and_not_at_2499():
    state = given(step="japanese-combat", units={"jp-212-2": "3135", "us-25-27": "3235"}, casualty_points=2497,
                  beachheads=("3235",))
    events = when(state, "japanese", programmed(state), rolls=[5])  # 2 vs 4 at -2, die 5: Dr 2/2, 2 points
    assert not of(events, GameEnded) and after(state, events).casualty_points == 2499
    [end] = of(when(replace(state, casualty_points=2498), "japanese", programmed(state), rolls=[5]), GameEnded)
    assert end.winner == "japanese" and "2500 American Casualty Points reach 2500" in end.reason


def test_ruling_r20_sudden_death_when_the_casualty_points_reach_2500():
    state = given(step="japanese-combat", units={"jp-212-2": "3135", "us-25-27": "3235"}, casualty_points=2495,
                  beachheads=("3235",))
    events = when(state, "japanese", programmed(state), rolls=[6])  # special attack: Ex 10/10, 10 points
    [end] = of(events, GameEnded)
    assert end.winner == "japanese" and "2505" in end.reason
    assert GAME.outcome(after(state, events)).winner == "japanese"


def test_ruling_r17_an_assault_from_two_zone_hexes_that_clears_the_hex_lands_three_and_the_rest_stay_at_sea():
    units = {**at_sea(**{"3437": division("25"), "3436": division("41")}), "jp-154-1": "3337"}
    state = assault_position(units)
    events = when(state, "american", f"assault 3337 with {' '.join(division('25') + division('41'))}", rolls=[6])
    assert of(events, CombatResolved)[0].result.startswith("De")
    assert of(events, UnitsLanded) == [UnitsLanded(division("25"), "3337")]  # three at most (R17, R14)
    landed = after(state, events)
    assert all(landed.at_sea(landed.unit(u)) for u in division("41"))


def test_ruling_r17_no_landing_in_a_hex_whose_militia_is_intact_it_is_assaulted():
    state = assault_position(at_sea(**{"3532": division("25")}))  # Tsuno zone; 3432 a Town (militia 1), 3431 Clear
    assert "defended: assault it" in refused(state, "american", "land 25-27 at 3432", "Olympic ruling R17")
    assert of(when(state, "american", "land 25-27 at 3431"), UnitsLanded)


def test_ruling_r10_an_american_unit_moves_once_a_movement_phase():
    state = given(step="movement", units={"us-25-27": "3235"})
    moved = after(state, when(state, "american", "move 25-27 to 3134"))
    assert "already moved" in refused(moved, "american", "move 25-27 to 3235", "Olympic ruling R10")
    assert of(when(moved, "american", "end"), StepEnded) == [StepEnded("movement", 2)]  # A.1 ends: A.2 follows
    assert after(moved, when(moved, "american", "end")).step == "assault"


def test_ruling_r35_control_changes_in_every_hex_a_unit_enters_not_only_where_it_stops():
    """Ruling R19 (rules version 5, R35): an American unit moving through Miyazaki (a City whose militia is
    destroyed) controls it, so it counts for R20's city credit; a Japanese unit moving through takes it back. A game
    of version 4 changed control only where the unit stopped, as played."""
    from app.rules.olympic import played_under
    from app.rules.olympic.victory import assessment

    state = given(step="movement", units={"us-25-27": "3338"}, militia_destroyed=("3236",))
    events = when(state, "american", "move 25-27 to 3135 via 3236")
    assert of(events, UnitMoved)[0].path == ["3237", "3236", "3136", "3135"]
    moved = after(state, events)
    assert moved.american_control == ("3135", "3136", "3236", "3237")
    assert assessment(moved)["cities"] == ["3236"]
    old = after(played_under(state, "4"), events)
    assert old.american_control == ("3135",) and assessment(old)["cities"] == []
    back = after(moved, [UnitMoved("jp-154-1", ["3237", "3236", "3136"], 3)])  # a Japanese unit passes through
    assert back.american_control == ("3135",)
