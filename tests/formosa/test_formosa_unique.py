"""Formosa's unique units and movement (22.0, 25.9; rulings F60): rangers and the Takasago unit ignore the first
enemy ZOC they enter; Allied motorized movement doubles the movement factor along roads and railroads for 1 LP
(22.0, 19.5 item 1), through orders."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import D, M, gauntlet, road_port

from app.rules.formosa.events import LpSpent, UnitMoved, UnitsMotorized
from app.rules.formosa.movement import mover
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, reach

START, FIRST, SECOND, BEYOND, ENEMY = gauntlet()


def test_22_0_a_ranger_passes_the_first_enemy_zoc_and_stops_in_the_second_f60():
    state = given(step="allied-movement", units={"us-rgr-2": START, "us-7-17": "allied-staging",
                                                 "jp-9-7": ENEMY}, concealed=("jp-9-7",))
    refused(state, "allied", f"move us-rgr-2 {FIRST} {SECOND} {BEYOND}", "Formosa 14.1")  # the second stops it
    [moved] = of(when(state, "allied", f"move us-rgr-2 {FIRST} {SECOND}"), UnitMoved)
    assert moved.path == [START, FIRST, SECOND]
    infantry = state.move("us-7-17", START)
    refused(infantry, "allied", f"move us-7-17 {FIRST} {SECOND}", "Formosa 14.1")  # no infiltration


def test_25_9_the_takasago_unit_infiltrates_as_rangers_do():
    state = given(step="japanese-movement", units={"jp-takasago": START, "jp-guard-1": START,
                                                   "us-7-17": ENEMY})
    play(state, "japanese", f"move jp-takasago {FIRST} {SECOND}")
    refused(state, "japanese", f"move jp-guard-1 {FIRST} {SECOND}", "Formosa 14.1")


def _with_base(state, uid):
    return state.with_units(replace(state.units[uid], base=True))


def test_22_0_motorized_movement_doubles_the_allowance_along_roads_only_for_1_lp():
    port = road_port()
    state = _with_base(given(step="allied-movement", units={"us-eng-1": port, "us-7-17": port},
                             lp={"allied": 3, "japanese": 0}), "us-eng-1")
    events = when(state, "allied", f"motorized {port}")
    assert of(events, UnitsMotorized)[0].units == ["us-7-17"]  # the base is static: it never moves
    assert of(events, LpSpent)[0].amount == 1
    fast = play(state, "allied", f"motorized {port}")
    r = reach(D.map, D.movement, mover(fast, fast.units["us-7-17"]))
    far = max(r.hexes(), key=lambda h: (r.cost[h], str(h)))
    path = [str(h) for h in r.path_to(far)[1:]]
    assert 5 < r.cost[far] <= 10  # beyond the printed 5, within 10
    refused(state, "allied", f"move us-7-17 {' '.join(path)}", "Formosa 12.0")  # not motorized: too far
    play(fast, "allied", f"move us-7-17 {' '.join(path)}")
    off = next(str(n) for n in M.neighbours(Hex.parse(port))
               if D.is_land(n) and not M.has_road(Hex.parse(port), n) and not M.has_rail(Hex.parse(port), n))
    refused(fast, "allied", f"move us-7-17 {off}", "Formosa 22.0")  # every step along a road or railroad


def test_22_0_19_5_no_motorized_movement_off_the_road_or_out_of_supply():
    port = road_port()
    state = given(step="allied-movement", units={"us-7-17": port}, lp={"allied": 3, "japanese": 0})
    refused(state, "allied", f"motorized {port}", "Formosa 19.5")  # no functional port, no HQ: no line
    off = next(str(h) for h in sorted(D.land()) if not M.is_road_hex(h) and not M.is_rail_hex(h))
    refused(state.move("us-7-17", off), "allied", f"motorized {off}", "Formosa 22.0")


def test_19_1_19_2_a_line_runs_the_factor_in_hexes_to_a_functional_port_or_through_an_hq_along_the_road():
    port = road_port()
    roads = reach(D.map, D.movement, Mover.single(Hex.parse(port), 20, "non-mechanized", route_only=True))
    far = next(h for h in sorted(roads.hexes(), key=str) if M.distance(h, Hex.parse(port)) == 7)
    near = next(h for h in roads.path_to(far) if M.distance(h, Hex.parse(port)) == 4)
    state = _with_base(given(step="allied-movement", units={"us-eng-1": port, "us-7-17": str(far)},
                             lp={"allied": 3, "japanese": 0}), "us-eng-1")
    refused(state, "allied", f"motorized {far}", "Formosa 19.5")  # 7 hexes from the port, its factor 5 (19.1)
    play(state.move("us-7-17", str(near)), "allied", f"motorized {near}")  # 4 hexes: a line straight to the port
    with_hq = state.move("us-hq-3ac", str(far))  # an HQ traces along the road any length (19.2)
    assert of(when(with_hq, "allied", f"motorized {far}"), UnitsMotorized)[0].units == ["us-7-17", "us-hq-3ac"]


def test_23_0_guerrillas_move_through_enemy_zoc_and_exert_none():
    state = given(step="japanese-movement", units={"jp-guerrilla-1": START, "us-7-17": ENEMY})
    play(state, "japanese", f"move jp-guerrilla-1 {FIRST} {SECOND} {BEYOND}")  # 14.1 Exception
    infantry = given(step="allied-movement", units={"us-7-17": START, "jp-guerrilla-1": ENEMY})
    play(infantry, "allied", f"move us-7-17 {FIRST} {SECOND} {BEYOND}")  # 14.0: guerrillas exert no ZOC


def test_23_0_a_guerrilla_next_to_two_allied_hexes_may_attack_only_one():
    from formosa_map import ring

    from app.rules.formosa import played_under
    from app.rules.formosa.events import CombatResolved

    x, around = ring("open")
    state = given(step="japanese-combat", turn=3, units={"us-7-17": around[0], "us-7-32": around[1],
                                                         "jp-guerrilla-1": x}, naval={}, air={})
    [fought] = of(when(state, "japanese", f"attack {around[0]} with jp-guerrilla-1", [3]), CombatResolved)
    assert fought.hexes == [around[0]]  # 23.0: no EZOC binds it, so 15.1's combined attack does not either
    infantry = given(step="japanese-combat", turn=3, units={"us-7-17": around[0], "us-7-32": around[1],
                                                            "jp-guard-1": x})
    refused(infantry, "japanese", f"attack {around[0]} with jp-guard-1", "Formosa 15.1")
    old = played_under(state, "3")  # a game created before the fix is decided as it was played (ruling F105)
    refused(old, "japanese", f"attack {around[0]} with jp-guerrilla-1", "Formosa 15.1")


def test_22_0_f111_the_line_for_motorized_movement_is_traced_when_it_is_ordered_an_hq_moved_first_counts():
    port = road_port()
    roads = reach(D.map, D.movement, Mover.single(Hex.parse(port), 20, "non-mechanized", route_only=True))
    far = next(h for h in sorted(roads.hexes(), key=str) if M.distance(h, Hex.parse(port)) == 7)
    near = next(h for h in roads.path_to(far) if M.distance(h, Hex.parse(port)) == 4)
    state = _with_base(given(step="allied-movement", units={"us-eng-1": port, "us-hq-3ac": port, "us-7-17": str(far)},
                             lp={"allied": 3, "japanese": 0}), "us-eng-1")
    refused(state, "allied", f"motorized {far}", "Formosa 19.5")  # at the start of the phase: no line (19.1)
    path = [str(h) for h in roads.path_to(near)[1:]]
    moved = play(state, "allied", f"move us-hq-3ac {' '.join(path)}")
    # ruling F111: 19.0 checks the line when the action is attempted; the HQ now within reach gives it
    assert of(when(moved, "allied", f"motorized {far}"), UnitsMotorized)[0].units == ["us-7-17"]
