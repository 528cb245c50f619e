"""Formosa land movement, stacking and the sequence of a Game-Turn through orders (12.0-14.1, 6.1; CF-1)."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import gauntlet, ring, river_crossing, two_over

from app.rules.formosa import GAME
from app.rules.formosa.events import StepBegan, TurnEnded, UnitMoved

X, AROUND = ring("open")


def test_12_1_an_unbridged_river_into_open_costs_2_mp_cf_1():
    path = river_crossing(3)  # three hexes at 1 MP, then the river: 3 + 2 = 5 MP
    state = given(step="japanese-movement", units={"jp-guard-1": path[0]})  # a revealed 2-4: 4 MP
    refused(state, "japanese", f"move jp-guard-1 {' '.join(path[1:])}", "Formosa 12.0")
    [moved] = of(when(state, "japanese", f"move jp-guard-1 {' '.join(path[1:-1])}"), UnitMoved)
    assert moved.mp == 3
    shorter = given(step="japanese-movement", units={"jp-guard-1": path[1]})
    [moved] = of(when(shorter, "japanese", f"move jp-guard-1 {' '.join(path[2:])}"), UnitMoved)
    assert moved.mp == 4  # 1 + 1 (open) + 1 (river)


def test_11_1_a_concealed_unit_moves_with_the_concealed_movement_factor():
    path = river_crossing(3)
    state = given(step="japanese-movement", units={"jp-guard-1": path[0]}, concealed=("jp-guard-1",))
    [moved] = of(when(state, "japanese", f"move jp-guard-1 {' '.join(path[1:])}"), UnitMoved)
    assert moved.mp == 5  # within the concealed factor of 7


def test_12_2_once_a_phase_never_into_enemy_units_and_static_units_never_move():
    state = given(step="allied-movement", units={"us-7-17": AROUND[0], "jp-hw-1": X})
    refused(state, "allied", f"move us-7-17 {X}", "Formosa 12.2")
    jp = given(step="japanese-movement", units={"jp-hw-1": X})
    refused(jp, "japanese", f"move jp-hw-1 {AROUND[0]}", "Formosa 2.4, 11.1")
    far = given(step="allied-movement", units={"us-7-17": X})
    moved = play(far, "allied", f"move us-7-17 {AROUND[0]}")
    refused(moved, "allied", f"move us-7-17 {X}", "Formosa 12.2")


def test_14_1_a_unit_stops_on_entering_an_enemy_zoc():
    state = given(step="allied-movement", units={"us-7-17": AROUND[3], "jp-50-301": AROUND[0]})
    # X is next to AROUND[0]: entering it stops the move
    refused(state, "allied", f"move us-7-17 {X} {AROUND[1]}", "Formosa 14.1")


def test_13_3_over_stacking_at_the_end_of_movement_is_removed_to_replacements():
    units = {f"jp-9-{n}": X for n in (7, 19, 35)} | {"jp-12-24": AROUND[0]}
    state = given(step="japanese-movement", turn=1, units=units)
    state = play(state, "japanese", f"move jp-12-24 {X}")
    state = play(state, "japanese", "end")
    assert state.pending[0]["kind"] == "overstack" and state.pending[0]["hexes"] == [X]
    refused(state, "japanese", "remove us-7-17", "Formosa 13.3")
    state = play(state, "japanese", "remove jp-12-24")
    assert state.units["jp-12-24"].where == "japanese-replacements"
    assert state.step == "japanese-combat" and not state.pending


def test_13_3_over_stacking_removes_the_fewest_units_never_the_static_one():
    # three mobile units and a heavy weapons unit (static) in X; a fourth mobile unit comes in: one unit over
    units = {f"jp-9-{n}": X for n in (7, 19, 35)} | {"jp-hw-1": X, "jp-12-24": AROUND[0]}
    state = given(step="japanese-movement", turn=1, units=units)
    state = play(play(state, "japanese", f"move jp-12-24 {X}"), "japanese", "end")
    assert state.pending[0]["kind"] == "overstack"
    offered = {o["order"] for o in GAME.legal_orders(state, "japanese")}
    assert offered == {f"remove {u}" for u in ("jp-9-7", "jp-9-19", "jp-9-35", "jp-12-24")}
    message = refused(state, "japanese", "remove jp-hw-1", "Formosa 13.3")
    assert "fewest" in message
    state = play(state, "japanese", "remove jp-9-7")
    assert state.units["jp-hw-1"].where == X and state.units["jp-9-7"].where == "japanese-replacements"
    assert not state.pending and state.step == "japanese-combat"  # asked once: one unit was the minimum


def test_13_3_two_static_units_in_a_hex_lose_a_static_one_and_only_one():
    units = {"jp-9-7": X, "jp-hw-1": X, "jp-hw-2": AROUND[0]}
    state = given(step="japanese-combat", turn=1, units=units)
    state = replace(state, units={**state.units, "jp-hw-2": replace(state.units["jp-hw-2"], where=X)})
    state = play(state, "japanese", "end", [1])
    assert state.pending[0]["kind"] == "overstack"
    refused(state, "japanese", "remove jp-9-7", "Formosa 13.3")
    state = play(state, "japanese", "remove jp-hw-2", [1])
    assert not state.pending and state.units["jp-9-7"].where == X


def test_13_3_a_hex_two_over_loses_two_in_one_order_but_not_more_than_the_fewest():
    state = two_over()
    refused(state, "japanese", "remove jp-9-7 jp-9-19 jp-9-35", "Formosa 13.3")  # three: one more than needed
    state = play(state, "japanese", "remove jp-9-7 jp-12-24")
    assert {state.units[u].where for u in ("jp-9-7", "jp-12-24")} == {"japanese-replacements"}
    assert not state.pending and state.step == "japanese-combat"


def test_f102_a_game_of_an_earlier_rules_version_is_decided_as_it_was_played():
    from app.rules.formosa import played_under

    units = {f"jp-9-{n}": X for n in (7, 19, 35)} | {"jp-hw-1": X, "jp-12-24": AROUND[0]}
    state = given(step="japanese-movement", turn=1, units=units)
    state = play(play(state, "japanese", f"move jp-12-24 {X}"), "japanese", "end")
    assert played_under(state, GAME.version) == state
    old = played_under(state, "2")
    assert {o["order"] for o in GAME.legal_orders(old, "japanese")} >= {"remove jp-hw-1"}
    old = play(old, "japanese", "remove jp-hw-1")  # version 2 took any unit of the hex, and asked again
    assert old.units["jp-hw-1"].where == "japanese-replacements" and old.pending[0]["kind"] == "overstack"


def test_6_1_the_turn_runs_through_every_phase_to_the_next_game_turn():
    state = given(step="strike-planning-japanese", turn=3, units={"us-7-17": AROUND[0], "jp-guerrilla-1": "1320"})
    steps = []
    orders = [("japanese", "plan", ()), ("allied", "plan", ()), ("allied", "roll", (1, 1)), ("japanese", "roll", (1,))]
    orders += [("allied", "end", ())] * 5 + [("japanese", "end", ()), ("japanese", "end", (4,))]
    for side, order, rolls in orders:
        events = when(state, side, order, rolls)
        steps += [e.step for e in of(events, StepBegan)]
        state = play(state, side, order, rolls)
    # the B-29 and Interdiction Phases are passed over with no mission assigned; the reveal, the air return and
    # the logistics are played at once (16.1, 6.1, 7.2)
    assert steps == ["strike-planning-allied", "strike-reveal", "air-superiority", "japanese-special-attack",
                     "invasion", "naval-transfer", "allied-movement", "allied-combat", "base-building",
                     "japanese-movement", "japanese-combat", "air-return", "logistics", "recruit-japanese"]
    assert state.turn == 4 and state.step == "recruit-japanese"
    assert of(when(given(step="japanese-combat", turn=3), "japanese", "end", [1]), TurnEnded)


def test_12_3_a_unit_always_moves_one_hex_but_not_into_prohibited_terrain_or_ezoc_to_ezoc():
    from formosa_map import D, M

    from app.rules.formosa.state import Strike
    from app.rules.kernel.hexgrid import Hex

    H = Hex.parse
    peak, start = next((str(p), str(n)) for p in sorted(M.hexes()) if M.terrain_of(p) == "peak"
                       and not M.is_road_hex(p) for n in M.neighbours(p)
                       if M.terrain_of(n) == "open" and not M.hexside_features(n, p))
    dear = Strike(interdicted=((peak, "us", 2),))  # 4 MP for the peak, 2 more for two interdiction points
    state = given(step="japanese-movement", turn=1, units={"jp-guard-1": start}, strike=dear)  # a 2-4: 4 MP
    [moved] = of(when(state, "japanese", f"move jp-guard-1 {peak}"), UnitMoved)
    assert moved.path == [start, peak]  # 6 MP asked of a 4 MP unit: one hex whatever the cost
    beyond = next(str(n) for n in M.neighbours(H(peak)) if D.is_land(n) and str(n) != start)
    refused(state, "japanese", f"move jp-guard-1 {peak} {beyond}", "Formosa 12.3")  # and no further
    armor = given(step="allied-movement", turn=1, units={"us-armor-1": start})
    refused(armor, "allied", f"move us-armor-1 {peak}", "Formosa 12.2")  # prohibited terrain stays prohibited
    _, first, second, _, enemy = gauntlet()
    pinned = given(step="japanese-movement", turn=1, units={"jp-guard-1": first, "us-7-17": enemy},
                   strike=Strike(interdicted=((second, "us", 2),)))
    refused(pinned, "japanese", f"move jp-guard-1 {second}", "Formosa 12.2")  # never EZOC to EZOC


def test_12_4_along_a_road_half_an_mp_a_hex_and_interdiction_still_charged():
    from formosa_map import D, M

    from app.rules.formosa.state import Strike
    from app.rules.kernel.movement import Mover, reach

    start = next(h for h in sorted(M.hexes()) if M.is_road_hex(h) and D.is_land(h))
    roads = reach(M, D.movement, Mover.single(start, 20, "non-mechanized", route_only=True))
    far = next(h for h in sorted(roads.hexes(), key=str) if roads.cost[h] == 4)  # eight road hexes away
    path = [str(h) for h in roads.path_to(far)[1:]]
    assert len(path) == 8
    state = given(step="japanese-movement", turn=1, units={"jp-guard-1": str(start)})  # a 2-4: 4 MP
    [moved] = of(when(state, "japanese", f"move jp-guard-1 {' '.join(path)}"), UnitMoved)
    assert moved.mp == 4  # 8 x 1/2, whatever the hexes entered (12.4)
    watched = replace(state, strike=Strike(interdicted=((path[1], "us", 1),)))
    refused(watched, "japanese", f"move jp-guard-1 {' '.join(path)}", "Formosa 12.0")  # 4 + 1: too far (16.4)
    [moved] = of(when(watched, "japanese", f"move jp-guard-1 {' '.join(path[:6])}"), UnitMoved)
    assert moved.mp == 4  # six road hexes, 3 MP, and 1 for the interdicted one


def test_14_1_a_unit_leaves_an_ezoc_through_a_free_hex_and_may_enter_another_where_it_stops():
    from formosa_map import D, M

    from app.rules.kernel.hexgrid import Hex

    H = Hex.parse
    out = next(str(o) for o in M.neighbours(H(AROUND[0])) if o in M.neighbours(H(AROUND[1])) and str(o) != X)
    assert D.is_land(H(out)) and H(out) not in M.neighbours(H(X))
    state = given(step="allied-movement", turn=1, units={"us-7-17": AROUND[0], "jp-9-7": X})
    refused(state, "allied", f"move us-7-17 {AROUND[1]}", "Formosa 12.2")  # EZOC to EZOC directly
    [moved] = of(when(state, "allied", f"move us-7-17 {out} {AROUND[1]}"), UnitMoved)
    assert moved.path == [AROUND[0], out, AROUND[1]]  # out through a free hex, back into an EZOC
    beyond = next(str(n) for n in M.neighbours(H(AROUND[1])) if D.is_land(n) and str(n) not in (X, out, AROUND[0]))
    refused(state, "allied", f"move us-7-17 {out} {AROUND[1]} {beyond}", "Formosa 14.1")  # where it stops
