"""The programmed Japanese (14.3 doctrine, 14.51-14.58 movement; rulings R6, R9, R12, R23): every decision is
the only order its step accepts, and carries its reason.

Ground: the Miyazaki plain (3134-3138, 3233-3338 Clear; 3236 Miyazaki, a City) with Rough to its west (columns
29-30) and the sea to its east.
"""
from __future__ import annotations

from dataclasses import replace

from olympic_given import after, given, of, programmed, refused, when

from app.rules.olympic import GAME, policy
from app.rules.olympic.events import (
    DoctrineResult,
    ReinforcementEntered,
    ReinforcementsDue,
    UnitHeld,
    UnitMoved,
    UnitsReleased,
)

US = "us-25-27"
TWO_4, TWO_4B, THREE_10 = "jp-212-2", "jp-156-2", "jp-25-1"
THREE_10S = ["jp-25-1", "jp-25-2", "jp-25-3", "jp-77-1", "jp-77-2", "jp-77-3"]


def moving(**units):
    return given(step="japanese-movement", units=units)


def move_of(state) -> UnitMoved:
    [moved] = of(when(state, "japanese", programmed(state)), UnitMoved)
    return moved


# --- 14.51-14.57 ------------------------------------------------------------------------------------------------

def test_14_51_the_slowest_and_weakest_category_moves_first():
    state = moving(**{US: "3235", THREE_10: "3133", TWO_4: "3033"})
    assert programmed(state).startswith(f"jmove {TWO_4} ")


def test_14_55_within_a_category_the_unit_nearest_its_destination_moves_first():
    state = moving(**{US: "3235", TWO_4: "3033", TWO_4B: "2936"})
    moved = move_of(state)
    assert moved.unit == TWO_4 and moved.reason["case"] == "Olympic 14.55"
    assert moved.reason["next_nearest"][0]["unit"] == TWO_4B
    # the reason names the destination it measured "nearest" by, and the case that makes it one
    assert (moved.reason["distance"], moved.reason["destination"]) == (
        2, {"hex": "3234", "kind": "primary", "case": "Olympic 14.54", "terrain": "clear"})


def test_14_56_equidistant_units_the_one_in_the_highest_numbered_hex_moves_first():
    state = moving(**{US: "3235", TWO_4: "3033", TWO_4B: "3037"})  # both 2 MP from a primary hex
    moved = move_of(state)
    assert moved.unit == TWO_4B and moved.reason["distance"] == 2


def test_14_54_between_equidistant_primary_hexes_rough_before_clear():
    state = moving(**{US: "3033", TWO_4: "3035"})  # 3034 (Rough) and 3134 (Clear) both 2 MP away
    moved = move_of(state)
    assert moved.reason["destination"] == {"hex": "3034", "kind": "primary", "case": "Olympic 14.54",
                                           "terrain": "rough"}


def test_14_57_between_equal_destinations_the_higher_numbered_hex():
    state = moving(**{US: "3235", TWO_4: "3033"})  # 3135 and 3234, both Clear, both 2 MP away
    assert move_of(state).reason["destination"]["hex"] == "3234"


def test_14_57_between_equal_secondary_destinations_the_higher_numbered_hex_too():
    primaries = ["3135", "3136", "3234", "3236", "3335", "3336"]  # every primary hex held (14.53)
    state = moving(**{US: "3235", **dict(zip(THREE_10S, primaries, strict=True)), TWO_4: "3133"})
    moved = move_of(state)  # 3134 and 3233, both Clear secondaries, both 1 MP away
    assert moved.reason["destination"]["hex"] == "3233" and moved.reason["destination"]["kind"] == "secondary"
    assert moved.path == ["3233"]


def test_14_52_the_most_direct_route_as_far_as_the_allowance_goes():
    state = moving(**{US: "3235", TWO_4: "2838"})
    moved = move_of(state)
    route = moved.reason["route"]
    assert moved.reason["from"] == "2838"  # the route the reason shows starts where the unit stands
    assert moved.mp <= 4 and route["this_phase"] == moved.path
    assert route["to_destination"][:len(moved.path)] == moved.path
    assert moved.reason["distance"] > moved.mp


def test_14_52_a_unit_whose_every_hex_this_phase_is_full_holds_and_says_the_way_on_is_full():
    # 2-4 from 2838 toward Miyazaki goes 2938, 3037 this phase (2 MP each); both hold three units that moved
    units = {US: "3235", **dict(zip(THREE_10S, ["2938"] * 3 + ["3037"] * 3, strict=True)), TWO_4: "2838"}
    state = moving(**units)
    state = replace(state, units={k: replace(u, moved=True) if k in THREE_10S else u
                                  for k, u in state.units.items()})
    assert programmed(state) == f"hold {TWO_4}"
    [held] = of(when(state, "japanese", programmed(state)), UnitHeld)
    assert held.unit == TWO_4 and held.reason["case"] == "Olympic 14.55"
    assert held.reason["route"] == {"case": "Olympic 14.52", "to_destination": ["2938", "3037", "3137", "3236"],
                                    "this_phase": [], "mp": 0}
    assert held.reason["summary"].endswith("toward primary 3236; the way on is full (stacking)")


def test_14_53_once_every_primary_hex_is_held_units_go_to_the_nearest_secondary():
    primaries = ["3135", "3136", "3234", "3236", "3335", "3336"]
    state = moving(**{US: "3235", **dict(zip(THREE_10S, primaries, strict=True)), TWO_4: "3033"})
    assert policy.primaries(state) == []
    moved = move_of(state)
    assert moved.unit == TWO_4 and moved.reason["destination"]["kind"] == "secondary"
    assert moved.path == ["3134"]


def test_14_58_a_hex_ringed_by_american_zones_of_control_is_no_destination():
    state = moving(**{US: "3135", "us-25-35": "3335", "us-25-161": "3237", TWO_4: "2838"})
    assert "3235" in policy.primaries(state)
    assert set(policy._search(state, ["3235"], ranked=False)) == {"3235"}  # nothing can enter it
    island = moving(**{US: "1226", TWO_4: "3033"})  # Americans on Amakusa: out of reach
    held = of(when(island, "japanese", programmed(island)), UnitHeld)
    assert held[0].reason["case"] == "Olympic 14.58"


def test_ruling_r23_a_unit_next_to_an_american_holds_and_unreleased_units_never_move():
    state = moving(**{US: "3235", TWO_4: "3135"})
    [held] = of(when(state, "japanese", programmed(state)), UnitHeld)
    assert held.unit == TWO_4 and held.reason["case"] == "Olympic ruling R23"
    unreleased = given(step="japanese-movement", units={US: "3235", TWO_4: "3033"}, released=False)
    assert programmed(unreleased) == "end"


def test_the_programmed_order_is_the_only_one_accepted_so_an_audit_re_decides_it():
    state = moving(**{US: "3235", TWO_4: "3033"})
    assert programmed(state) == f"jmove {TWO_4} 3134 3234"
    assert f"Japanese movement phase, programmed order: 'jmove {TWO_4} 3134 3234'" in GAME.prompt(state).step
    assert refused(state, "japanese", f"jmove {TWO_4} 3134 3135", "Olympic 14.55") == (
        f"Olympic 14.55: the programmed Japanese order now is 'jmove {TWO_4} 3134 3234' (2-4, nearest its "
        "destination (2 MP): toward primary 3234)")
    refused(state, "japanese", "end", "Olympic 14.55")


def test_ruling_r12_a_reinforcement_enters_at_the_entry_hex_nearest_its_destination():
    state = given(step="japanese-movement", units={US: "3235"}, due=("jp-r-1tkd",))
    assert programmed(state) == "enter jp-r-1tkd at 3624"  # Nobeoka, the nearest to the Miyazaki plain
    [entered] = of(when(state, "japanese", programmed(state)), ReinforcementEntered)
    assert entered.reason["case"] == "Olympic ruling R12"
    occupied = replace(state, units={**state.units, "us-25-35": replace(state.unit("us-25-35"), status="map",
                                                                      hex="3624")})
    assert programmed(occupied) == "enter jp-r-1tkd at 2131"  # Nobeoka held by Americans: Hitoyoshi


# --- 14.3 the Doctrine Phase -------------------------------------------------------------------------------------

def doctrine_position(turn=2, **units):
    return given(step="doctrine", turn=turn, units=units, released=False)


COASTAL = {"jp-154-1": "3333", "jp-154-2": "3335", "jp-154-3": "3337", "jp-156-2": "3338"}


def test_14_3_track_1_half_releases_half_the_unreleased_coastal_units_nearest_the_americans_first():
    state = doctrine_position(**{US: "3135", **COASTAL})
    events = when(state, "japanese", "doctrine", rolls=[2, 3])  # track 1: half; track 3: 2-8, 1-8
    assert of(events, DoctrineResult)[0] == DoctrineResult(1, 2, "half")
    [released] = of(events, UnitsReleased)
    # 3335 is 1 MP from a hex next to 3135; 3337 and 3333 are 2 MP away: the higher-numbered first (14.56)
    assert released.units == ["jp-154-2", "jp-154-3"]
    assert [(o["unit"], o["distance"]) for o in released.reason["order"]] == [
        ("jp-154-2", 1), ("jp-154-3", 2), ("jp-154-1", 2), ("jp-156-2", 3)]
    assert released.reason["case"] == "Olympic ruling R6"
    assert of(events, ReinforcementsDue) == [ReinforcementsDue(["jp-r-2-8-1", "jp-r-1-8-1"])]


def test_14_3_track_1_half_of_an_odd_number_of_unreleased_units_is_rounded_up():
    three = {u: h for u, h in COASTAL.items() if u != "jp-156-2"}
    state = doctrine_position(**{US: "3135", **three})
    [released] = of(when(state, "japanese", "doctrine", rolls=[2, 3]), UnitsReleased)  # track 1: half of 3
    assert released.units == ["jp-154-2", "jp-154-3"]  # two, nearest the Americans first (ruling R6)


def test_14_3_track_2_releases_the_line_units_the_word_names():
    line = {"jp-25-1": "2535", "jp-216-1": "2020", "jp-156-3": "3135"}  # southern inland, northern, southern
    state = doctrine_position(**line)
    southern = of(when(state, "japanese", "doctrine", rolls=[5, 6]), UnitsReleased)
    assert southern[0].units == ["jp-156-3", "jp-25-1"]
    assert southern[0].reason == {"case": "Olympic ruling R9", "summary": "every unreleased line unit that is southern"}
    northern = of(when(state, "japanese", "doctrine", rolls=[6, 6]), UnitsReleased)
    assert northern[0].units == ["jp-216-1"]


def test_14_3_track_2_inland_and_coastal_name_the_line_units_away_from_and_next_to_the_sea():
    line = {"jp-25-1": "2535", "jp-216-1": "2020", "jp-156-3": "3338"}  # inland, inland, on the coast (ruling R9)
    inland = of(when(doctrine_position(**line), "japanese", "doctrine", rolls=[3, 6]), UnitsReleased)
    assert inland[0].units == ["jp-216-1", "jp-25-1"]
    coastal = of(when(doctrine_position(**line), "japanese", "doctrine", rolls=[4, 6]), UnitsReleased)
    assert coastal[0].units == ["jp-156-3"]


def test_14_3_track_3_the_types_rolled_enter_but_not_on_game_turn_1():
    events = when(doctrine_position(), "japanese", "doctrine", rolls=[1])
    assert of(events, ReinforcementsDue) == [ReinforcementsDue(["jp-r-1tkd", "jp-r-4tkb"])]
    assert not of(when(doctrine_position(turn=1), "japanese", "doctrine"), DoctrineResult)


def test_14_3_on_game_turn_4_the_doctrine_rolls_and_the_rest_are_released_as_the_movement_phase_starts():
    """14.3's automatic release comes at the start of the Japanese Forces Movement Phase of Game-Turn 4, after that
    turn's Doctrine Phase: tracks 1 and 2 are rolled as on any turn (here: none, then all northern, which holds
    none of these units), track 3 reads the third die, and every unit still unreleased goes free once the Doctrine
    Phase has ended. Rules version 3 released them in the Doctrine Phase without rolling tracks 1 and 2, so track 3
    read the first die (ruling R34)."""
    from app.rules.olympic import played_under
    from app.rules.olympic.events import StepEnded

    state = doctrine_position(turn=4, **COASTAL, **{"jp-25-1": "2535"})
    events = when(state, "japanese", "doctrine", rolls=[6, 6, 1])
    assert [(r.track, r.die) for r in of(events, DoctrineResult)] == [(1, 6), (2, 6), (3, 1)]
    assert of(events, ReinforcementsDue) == [ReinforcementsDue(["jp-r-1tkd", "jp-r-4tkb"])]
    [released] = of(events, UnitsReleased)
    assert set(released.units) == {*COASTAL, "jp-25-1"} and "Movement Phase" in released.cause
    assert events.index(released) > events.index(of(events, StepEnded)[0])
    moving = after(state, events)
    assert moving.step == "japanese-movement" and all(moving.unit(u).released for u in [*COASTAL, "jp-25-1"])
    old = when(played_under(state, "3"), "japanese", "doctrine", rolls=[6, 6, 1])
    assert [r.track for r in of(old, DoctrineResult)] == [3] and of(old, ReinforcementsDue) == []
    [freed] = of(old, UnitsReleased)
    assert set(freed.units) == {*COASTAL, "jp-25-1"}
    assert freed.describe().startswith("released (Game-Turn 4 (Olympic 14.3)): ")   # the history's line


def test_a_decision_does_not_depend_on_the_order_a_snapshot_keeps_the_units_in():
    from app.rules.olympic import GAME

    state = given(step="japanese-combat", units={"jp-154-1": "3135", "us-25-27": "3235", "us-2mar-2": "3235",
                                                  "us-25-35": "3234"}, beachheads=("3235",))
    shuffled = replace(state, units=dict(sorted(state.units.items(), reverse=True)))
    decoded = GAME.decode_state(GAME.encode_state(shuffled))
    assert decoded == state
    assert policy.next_attack(decoded) == policy.next_attack(shuffled) == policy.next_attack(state)


def test_ruling_r36_a_unit_already_alone_in_a_secondary_destination_holds_it_and_does_not_shuttle():
    primaries = ["3135", "3136", "3234", "3236", "3335", "3336"]  # every primary hex held (14.53, 14.54 2))
    state = moving(**{US: "3235", **dict(zip(THREE_10S, primaries, strict=True)), TWO_4: "3134"})
    [held] = of(when(state, "japanese", programmed(state)), UnitHeld)  # 3134 is a secondary: it is there
    assert held.unit == TWO_4 and held.reason["case"] == "Olympic ruling R36"
    assert held.reason["destination"] == {"hex": "3134", "kind": "secondary", "case": "Olympic 14.54 2)"}
    # not alone: the hex is no vacant secondary for either unit, so the one the order of 14.55-14.56 moves first
    # leaves for the nearest vacant one, and the one left alone there holds it
    stacked = moving(**{US: "3235", **dict(zip(THREE_10S, primaries, strict=True)), TWO_4: "3134",
                        TWO_4B: "3134"})
    first = move_of(stacked)
    assert first.reason["destination"]["kind"] == "secondary" and first.path[-1] != "3134"
    left = after(stacked, when(stacked, "japanese", programmed(stacked)))
    assert programmed(left) == f"hold {({TWO_4, TWO_4B} - {first.unit}).pop()}"
    # a reachable vacant primary comes first (14.54 1)): a unit in a secondary moves on toward it
    open_primary = moving(**{US: "3235", **dict(zip(THREE_10S[:5], primaries[:5], strict=True)), TWO_4: "3134"})
    assert move_of(open_primary).reason["destination"] == {"hex": "3336", "kind": "primary",
                                                           "case": "Olympic 14.54", "terrain": "clear"}


def test_ruling_r36_a_game_of_rules_version_5_moves_a_unit_off_its_secondary_as_it_was_played():
    from app.rules.olympic import played_under

    primaries = ["3135", "3136", "3234", "3236", "3335", "3336"]
    state = moving(**{US: "3235", **dict(zip(THREE_10S, primaries, strict=True)), TWO_4: "3134"})
    assert programmed(played_under(state, "5")) == f"jmove {TWO_4} 3233"


def test_ruling_r37_a_hex_touching_the_american_only_across_an_all_sea_hexside_is_no_destination():
    # Sakurajima (1941) faces Kagoshima (1841) and 1840 across the strait's all-sea hexsides (14.58)
    state = moving(**{US: "1941"})
    assert "1841" not in policy.primaries(state) and "1840" not in policy.primaries(state)
    assert set(policy.primaries(state)) <= {str(n) for n in state.data.land_links["1941"]}
