"""Rows of docs/cases/formosa.md whose own tests passed with a mutant of the row's code (issue 30's per-case
mutation report, `bench/mutation.py --report --cases --lines --packages formosa`): movement and combat refused
through orders, each refusal read whole as the player reads it (10.3, 13.1, 14.2, 15.1, 15.6, 15.8, 15.8.1, 16.5,
19.5), and retreats (15.7, 25.9)."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import documented_position, given, of, play, refused, when
from formosa_map import D, M, pair, ring

from app.events.core import DieRolled
from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import CombatResolved
from app.rules.formosa.state import Strike

X, AROUND = ring("open")
# a mountain hex no road or railroad runs through, and an open hex beside it across a plain hexside
MOUNTAIN, BESIDE = next((str(h), str(n)) for h in sorted(M.hexes())
                        if D.is_land(h) and M.terrain_of(h) == "mountain" and not M.is_road_hex(h)
                        and not M.is_rail_hex(h)
                        for n in M.neighbours(h)
                        if D.is_land(n) and M.terrain_of(n) == "open" and not M.hexside_features(h, n))


def test_10_3_a_regiment_that_dropped_this_turn_is_refused_a_move_saying_why():
    state = given(step="allied-movement", units={"us-11ab-511": X})
    state = state.with_units(replace(state.units["us-11ab-511"], pinned=True))
    assert refused(state, "allied", f"move us-11ab-511 {AROUND[0]}", "Formosa 10.2.1, 10.3, 21.0") == (
        "Formosa 10.2.1, 10.3, 21.0: us-11ab-511: a unit that landed, dropped or was transferred this turn does not "
        "move")


def test_16_5_a_japanese_unit_in_the_hex_the_b29_suppressed_is_refused_a_move_saying_why():
    state = given(step="japanese-movement", units={"jp-9-7": X, "us-7-17": AROUND[4]},
                  strike=Strike(b29_used=True, suppressed=(X,), b29_hex=X))
    assert refused(state, "japanese", f"move jp-9-7 {AROUND[0]}", "Formosa 16.5") == (
        "Formosa 16.5: jp-9-7: units in a hex the B-29 suppressed do not move this GT")


def test_15_1_an_attack_leaving_out_a_hex_whose_zoc_the_attacker_is_in_names_that_hex():
    a, b, common = pair()
    state = given(units={"us-7-17": common[0], "jp-50-301": a, "jp-50-302": b})
    assert refused(state, "allied", f"attack {a} with us-7-17", "Formosa 15.1") == (
        f"Formosa 15.1: us-7-17 is in the ZOC of {b} too and must attack every such hex in one combat")


def test_19_5_motorized_movement_out_of_supply_is_refused_naming_the_hex():
    port = next(str(h) for h in sorted(D.ports()) if M.is_road_hex(h))
    state = given(step="allied-movement", units={"us-7-17": port}, lp={"allied": 3, "japanese": 0})
    assert refused(state, "allied", f"motorized {port}", "Formosa 19.5") == (
        f"Formosa 19.5: no unit in {port} can trace a line of supply: none may move motorized")


def advancing():
    """After a DE on the mountain hex: the armor and the infantry that attacked it from beside it may advance."""
    return GAME.initial_state("1", {"position": {
        "turn": 3, "phase": "allied-combat", "units": {"us-armor-1": BESIDE, "us-7-17": BESIDE, "jp-9-7": "1805"},
        "revealed": ["jp-9-7"], "attacked": ["us-armor-1", "us-7-17"], "attacked_hexes": [MOUNTAIN],
        "advance": {"attackers": ["us-armor-1", "us-7-17"], "hexes": [MOUNTAIN], "result": "DE"}}})


def test_15_8_only_the_attackers_advance_and_the_refusal_names_them():
    assert refused(advancing(), "allied", f"advance us-7-32 to {MOUNTAIN}", "Formosa 15.8") == (
        "Formosa 15.8: units that may advance: us-armor-1, us-7-17")


def test_15_8_1_a_mechanized_unit_does_not_advance_into_a_mountain_hex_without_a_road():
    state = advancing()
    assert refused(state, "allied", f"advance us-armor-1 to {MOUNTAIN}", "Formosa 15.8.1") == (
        f"Formosa 15.8.1: us-armor-1 could not enter {MOUNTAIN} from {BESIDE}")
    assert play(state, "allied", f"advance us-7-17 to {MOUNTAIN}").units["us-7-17"].where == MOUNTAIN  # infantry may


def test_15_6_a_ca_rolled_by_a_counterattack_has_no_effect_and_the_counterattack_names_its_hexes():
    """docs/custom-positions.md's mid-combat position: the Japanese in 1013 owe the counterattack on 1012."""
    state = GAME.initial_state("1", {"position": documented_position(1)})
    assert refused(state, "japanese", "counterattack 1013", "Formosa 15.6") == (
        "Formosa 15.6: counterattack one of 1012, 1113")
    events = when(state, "japanese", "counterattack 1012", [5])
    assert [e.code for e in of(events, CombatResolved)] == ["CA"]
    assert [e.describe() for e in events if not isinstance(e, DieRolled)][-1] == "the combat is over"
    after_it = play(state, "japanese", "counterattack 1012", [5])  # 15.6 item 3: no effect, no second CA
    assert after_it.combat is None and not after_it.pending
    assert {u: after_it.units[u].where for u in ("jp-9-7", "us-7-32")} == {
        u: state.units[u].where for u in ("jp-9-7", "us-7-32")}


def test_25_9_15_7_the_takasago_unit_retreats_into_the_first_ezoc_where_another_unit_is_eliminated_f60():
    """Allied units in two hexes across from each other put every free hex around the defender in their ZOC:
    a DR eliminates a division that cannot retreat (15.7 item 5); the Takasago unit infiltrates as it moves."""
    def fight(defender: str, optional: list[str]):
        return GAME.initial_state("1", {"optional": optional, "position": {
            "turn": 3, "phase": "allied-combat", "units": {"us-7-17": AROUND[0], "us-7-32": AROUND[3], defender: X},
            "revealed": [defender]}})

    division = when(fight("jp-9-7", []), "allied", f"attack {X} with us-7-17 us-7-32", [5])
    assert [e.code for e in of(division, CombatResolved)] == ["DR"]
    assert f"jp-9-7 eliminated in {X}, to the japanese eliminated display (Formosa 15.7 item 5)" in [
        e.describe() for e in division if not isinstance(e, DieRolled)]
    state = play(fight("jp-takasago", ["25.9"]), "allied", f"attack {X} with us-7-17 us-7-32", [3])  # DR
    assert state.units["jp-takasago"].where == X and GAME.prompt(state).side == "japanese"
    retreats = sorted(o["order"] for o in GAME.legal_orders(state, "japanese"))
    assert retreats == sorted(f"retreat jp-takasago {h}" for h in (AROUND[1], AROUND[2], AROUND[4], AROUND[5]))


def test_15_7_a_mobile_unit_stacked_with_a_static_unit_ignores_a_retreat_result():
    """15.7 Important: the division in the coastal defence unit's hex stays on a DR; surrounded, it would otherwise
    be eliminated for want of a retreat (item 5)."""
    around = dict(zip(("us-7-17", "us-7-32", "us-7-184", "us-27-105", "us-27-106", "us-27-165"), AROUND, strict=True))
    state = given(units={**around, "jp-9-7": X, "jp-cd-1": X})
    events = when(state, "allied", f"attack {X} with {' '.join(around)}", [6])
    assert [e.code for e in of(events, CombatResolved)] == ["DR"]
    after_it = play(state, "allied", f"attack {X} with {' '.join(around)}", [6])
    assert (after_it.units["jp-9-7"].where, after_it.units["jp-cd-1"].where) == (X, X)
    assert after_it.combat is None and not after_it.pending


def test_13_1_the_us_air_supply_unit_is_refused_over_commonwealth_ground_units_saying_why_f117():
    defence = play(given(step="japanese-combat", units={"cw-7-18": X, "jp-guard-1": AROUND[0]}, air={"air-supply": 1}),
                   "japanese", f"attack {X} with jp-guard-1")
    assert refused(defence, "allied", "defend supply air", "Formosa 13.1") == (
        f"Formosa 13.1: the US air supply unit would be placed on {X}, which holds units of the other Allied nation "
        "(US and Commonwealth units never stack, ruling F117)")


def test_14_2_23_0_a_guerrilla_beside_an_allied_unit_is_never_bound_to_attack_a_division_is():
    """Since rules version 4 no EZOC binds a guerrilla (F105); a game of rules 1-3 reads the guerrilla's own
    exemption from the duty (14.2), and ends its phase the same."""
    guerrilla = given(step="japanese-combat", units={"us-7-17": X, "jp-guerrilla-1": AROUND[0]})
    for state in (guerrilla, played_under(guerrilla, "3")):
        assert play(state, "japanese", "end", [4]).turn == 3  # the phase, and the Game-Turn, end (Logistics die 4)
    division = given(step="japanese-combat", units={"us-7-17": X, "jp-9-7": AROUND[0]})
    assert refused(division, "japanese", "end", "Formosa 15.0") == (
        f"Formosa 15.0: units in an enemy ZOC must attack: jp-9-7 in {AROUND[0]}")
