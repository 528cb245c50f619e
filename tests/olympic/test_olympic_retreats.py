"""Ruling R24's retreat limits, one at a time (8.8 note 2, note 6): each test has a retreat that only that limit
stops or steers, so breaking the limit fails it.

The American attack of a 4-12 on a lone 4-4 is at 0; a die of 1 reads Ar 5/2 (8.8). Miyazaki plain: 3235 is
Clear (two hexes of retreat), 3236 Miyazaki (City, militia 3); 1323-1325 and 1225/1425 are Rough (one hex), with
an all-sea hexside between 1324 and 1325."""
from __future__ import annotations

from olympic_given import given, of, when

from app.rules.olympic.events import UnitEliminated, UnitRetreated

JP4A, JP4B, JP2, JP1 = "jp-154-1", "jp-86-1", "jp-212-2", "jp-146-5"
US_A, US_B, US_C, MARINE = "us-25-27", "us-25-35", "us-25-161", "us-2mar-2"


def american_retreat(units: dict[str, str], target: str, **fields):
    """US_A attacks `target` alone, die 1: Ar. The retreat made, or None if US_A was eliminated."""
    state = given(units=units, beachheads=("3333",), **fields)
    events = when(state, "american", f"attack {target} with 25-27", rolls=[1])
    moved = [r.path for r in of(events, UnitRetreated) if r.unit == US_A]
    gone = [e for e in of(events, UnitEliminated) if e.unit == US_A]
    assert bool(moved) != bool(gone)
    return (moved or [None])[0], state


def test_r24_no_retreat_across_an_all_sea_hexside():
    """1324's land links are 1223 (in the ZOC of 1323) and 1323 itself; 1325 lies across the strait."""
    path, _ = american_retreat({JP4A: "1323", US_A: "1324"}, "1323", retreat_toward="1325")
    assert path is None


def test_r24_no_retreat_into_a_hex_of_intact_militia_but_through_it_once_destroyed():
    intact, _ = american_retreat({JP4A: "3135", US_A: "3235"}, "3135", retreat_toward="3237")
    assert intact is not None and "3236" not in intact
    taken, _ = american_retreat({JP4A: "3135", US_A: "3235"}, "3135", retreat_toward="3237",
                                militia_destroyed=("3236",))
    assert taken[0] == "3236"  # the nearest hex to the order's hex, now open


def test_r24_no_retreat_into_an_enemy_zone_of_control():
    path, state = american_retreat({JP4A: "3135", US_A: "3235"}, "3135", retreat_toward="3134")
    assert path is not None and not set(path) & state.zoc_of("japanese")


def test_r24_no_retreat_into_an_enemy_occupied_hex():
    """From Rough 1325 (one hex): 1326 is in the defender's ZOC, and 1225 holds a lone Japanese unit whose hex no
    other Japanese unit's ZOC reaches."""
    path, _ = american_retreat({JP4A: "1425", JP2: "1225", US_A: "1325"}, "1425", retreat_toward="1225")
    assert path is None


def test_r24_each_hex_of_a_retreat_is_farther_from_the_start_than_the_one_before():
    """Toward 3337: 3336 is free, but the hexes beyond it (3337, and 3334 past 3335) are in the ZOC of the units in
    3338 and 3333: a step sideways from 3336 to 3335 is no retreat, so the unit is eliminated."""
    path, _ = american_retreat({JP4A: "3135", JP2: "3333", JP1: "3338", US_A: "3235"}, "3135", retreat_toward="3337")
    assert path is None
    free, _ = american_retreat({JP4A: "3135", JP2: "3333", US_A: "3235"}, "3135", retreat_toward="3337")
    assert free is not None and len(free) == 2  # with 3337 open the retreat goes on


def test_r24_a_retreat_never_ends_in_a_full_hex_but_may_pass_through_one():
    full = {US_B: "1225", US_C: "1225", MARINE: "1225"}
    path, _ = american_retreat({JP4A: "1425", US_A: "1325", **full}, "1425")  # Rough: one hex, the last
    assert path is None
    through, _ = american_retreat({JP4A: "3135", US_A: "3235", US_B: "3336", US_C: "3336", MARINE: "3336"}, "3135",
                                  retreat_toward="3337")
    assert through == ["3336", "3337"]


def test_r24_ties_toward_the_order_hex_go_to_the_higher_identity_number():
    """Toward its own hex every first step is one hex away: 3336 before 3335 (3236 holds its militia)."""
    path, _ = american_retreat({JP4A: "3135", US_A: "3235"}, "3135", retreat_toward="3235")
    assert path == ["3336", "3337"]


def japanese_retreat(units: dict[str, str], target: str, attackers: str):
    """An American attack on the lone 4-4 in `target` at 0, die 5: Dr 3/3."""
    events = when(given(units=units, beachheads=("3333",)), "american", f"attack {target} with {attackers}",
                  rolls=[5])
    return [r.path for r in of(events, UnitRetreated) if r.unit == JP4A], events


def test_r24_a_japanese_retreat_goes_farthest_from_the_attackers_then_rough_then_the_higher_identity():
    """From 3135, attacked from 3235 (3136 in its ZOC): 3034, 3035 (Rough) and 3134 (Clear) are all two hexes from
    the attacker: Rough first, then 3035, the higher identity. From 3035, 2935 and 2936 are three hexes from the
    attacker and 3036 two: 2936."""
    [path], _ = japanese_retreat({JP4A: "3135", US_A: "3235"}, "3135", "25-27")
    assert path == ["3035", "2936"]
    [away], _ = japanese_retreat({JP4A: "3134", US_A: "3233"}, "3134", "25-27")
    assert away == ["3034", "3035"]  # from 3134 attacked from 3233: 3033 and 3034 tie, then 3035 is three away


def test_r24_a_japanese_unit_that_cannot_retreat_is_eliminated():
    """1324's land links: 1323 (the attacker) and 1223 (in its ZOC); 1325 lies across the all-sea hexside."""
    paths, events = japanese_retreat({JP4A: "1324", US_A: "1323"}, "1324", "25-27")
    assert paths == [] and JP4A in {e.unit for e in of(events, UnitEliminated)}


def test_ruling_r39_a_retreat_step_that_leads_into_a_dead_end_is_not_taken_when_another_completes_it():
    """From 1213 (Clear, two hexes), attacked from 1313: 1214, 1114 and 1113 are all two hexes from the attacker
    and Clear, so 1214 (the highest identity) comes first by R24, but from 1214 the only hex farther on is 1314,
    in the attacker's zone of control: the retreat goes 1114 - 1014 instead. Rules version 5 took 1214 and
    eliminated the unit."""
    from app.rules.olympic import played_under

    [path], _ = japanese_retreat({JP4A: "1213", US_A: "1313"}, "1213", "25-27")
    assert path == ["1114", "1014"]
    old = played_under(given(units={JP4A: "1213", US_A: "1313"}, beachheads=("3333",)), "5")
    events = when(old, "american", "attack 1213 with 25-27", rolls=[5])
    assert not of(events, UnitRetreated) and JP4A in {e.unit for e in of(events, UnitEliminated)}


def test_ruling_r39_an_american_retreat_too_takes_the_first_hex_from_which_it_can_be_completed():
    """A Japanese 4-4 in 1846 attacks the American in 1847 (Clear) at 0, die 5: Dr 3/3. Toward the beachhead at
    3338 the first hex R24 prefers leads nowhere farther; 1748 - 1647 completes the retreat, so the unit lives
    and the note 6 price of a blocked retreat (10) is not paid."""
    from app.rules.olympic import played_under

    state = given(step="japanese-combat", units={JP4A: "1846", US_A: "1847"}, beachheads=("3338",))
    events = when(state, "japanese", f"jattack {JP4A} on {US_A}", rolls=[5])
    assert [r.path for r in of(events, UnitRetreated)] == [["1748", "1647"]]
    old = when(played_under(state, "5"), "japanese", f"jattack {JP4A} on {US_A}", rolls=[5])
    assert not of(old, UnitRetreated) and US_A in {e.unit for e in of(old, UnitEliminated)}
