"""Formosa land movement, stacking and the sequence of a Game-Turn through orders (12.0-14.1, 6.1; CF-1)."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import ring, river_crossing

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
    units = {f"jp-9-{n}": X for n in (7, 19, 35)} | {"jp-12-24": AROUND[0], "jp-12-46": AROUND[1]}
    state = given(step="japanese-movement", turn=1, units=units)
    for uid in ("jp-12-24", "jp-12-46"):
        state = play(state, "japanese", f"move {uid} {X}")
    state = play(state, "japanese", "end")
    assert state.pending[0]["kind"] == "overstack"
    refused(state, "japanese", "remove jp-9-7 jp-9-19 jp-9-35", "Formosa 13.3")  # three: one more than needed
    state = play(state, "japanese", "remove jp-9-7 jp-12-24")
    assert {state.units[u].where for u in ("jp-9-7", "jp-12-24")} == {"japanese-replacements"}
    assert not state.pending and state.step == "japanese-combat"


def test_f102_a_game_of_an_earlier_rules_version_is_decided_as_it_was_played():
    from app.rules.formosa import played_under

    units = {f"jp-9-{n}": X for n in (7, 19, 35)} | {"jp-hw-1": X, "jp-12-24": AROUND[0]}
    state = given(step="japanese-movement", turn=1, units=units)
    state = play(play(state, "japanese", f"move jp-12-24 {X}"), "japanese", "end")
    assert played_under(state, "3") == state
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
