"""Formosa ground combat through orders (15.0-15.8): the worked examples CF-2 to CF-9 of the plan, the checks of
an attack and the decisions a result leaves to each player."""
from __future__ import annotations

from formosa_given import given, of, play, refused, when
from formosa_map import pair, ring

from app.rules.base import Command
from app.rules.engine.events import DecisionRequired
from app.rules.formosa import GAME
from app.rules.formosa.events import CombatEnded, CombatResolved, UnitEliminated, UnitsAdvanced

X, AROUND = ring("open")
PEAK, PEAK_AROUND = ring("peak")
MOUNTAIN, MOUNTAIN_AROUND = ring("mountain")


def preview(state, order: str) -> dict:
    return GAME.preview(state, Command("allied", "attack", GAME.parse(order, "allied", state).args))


def test_15_3_one_against_five_reads_49_cf_2():
    state = given(units={"us-hq-3ac": AROUND[0], "jp-imb-75": X, "jp-eng-1": X})
    p = preview(state, f"attack {X} with us-hq-3ac")
    assert (p["attack"], p["defence"], p["percent"], p["column"]) == (1, 5, 20, "<=49%")


def test_15_3_eight_against_one_reads_700_and_the_die_decides_cf_3():
    state = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guerrilla-1": X})
    order = f"attack {X} with us-7-17 us-7-32"
    p = preview(state, order)
    assert (p["percent"], p["column"], p["shifts"]) == (800, ">=700%", [])
    events = when(state, "allied", order, [3])
    [resolved] = of(events, CombatResolved)
    assert (resolved.column, resolved.die, resolved.code) == (">=700%", 3, "DE")
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-guerrilla-1"]
    assert of(events, DecisionRequired)[0].kind == "advance"


def test_15_4_400_percent_one_right_two_left_reads_300_cf_4():
    # us-arty-1 carries the "A" indicator (one right); a mountain hex gives a Japanese defender two left
    state = given(units={"us-arty-1": MOUNTAIN_AROUND[0], "us-7-17": MOUNTAIN_AROUND[0],
                         "us-7-32": MOUNTAIN_AROUND[1], "jp-50-301": MOUNTAIN})
    p = preview(state, f"attack {MOUNTAIN} with us-arty-1 us-7-17 us-7-32")
    assert p["percent"] == 400 and [s["amount"] for s in p["shifts"]] == [1, -2]
    assert p["column"] == "300-399%"  # the printed "300%" (ruling F2)


def test_15_4_twenty_against_one_one_left_reads_600_699_cf_5():
    rough, around = ring("rough")
    units = {f"us-7-{n}": around[0] for n in (17, 32, 184)} | {"us-27-105": around[1], "us-27-106": around[1],
                                                               "jp-guerrilla-1": rough}
    state = given(units=units)
    p = preview(state, f"attack {rough} with us-7-17 us-7-32 us-7-184 us-27-105 us-27-106")
    assert (p["attack"], p["defence"], p["column"]) == (20, 1, "600-699%")
    assert p["shifts"] == [{"amount": -1, "case": "Formosa 15.4.1", "reason": "terrain in the defender's hex"}]


def test_15_5_bloodbath_two_us_5_5_against_a_japanese_3_6_cf_6():
    state = given(units={"us-1mar-1": AROUND[0], "us-1mar-5": AROUND[1], "jp-50-301": X})
    events = when(state, "allied", f"attack {X} with us-1mar-1 us-1mar-5", [3])
    assert of(events, CombatResolved)[0].code == "BB"
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-50-301"]  # the side with fewer factors
    state = play(state, "allied", f"attack {X} with us-1mar-1 us-1mar-5", [3])
    assert state.pending[0]["kind"] == "losses" and state.pending[0]["min_cf"] == 3
    refused(state, "allied", "lose us-1mar-1 us-1mar-5", "Formosa 15.5 BB")  # none to spare
    state = play(state, "allied", "lose us-1mar-5")
    assert state.units["us-1mar-5"].where == "allied-eliminated"  # no line of supply: no port, no HQ (8.3)
    assert state.pending[0]["kind"] == "advance"
    [advanced] = of(when(state, "allied", f"advance us-1mar-1 to {X}"), UnitsAdvanced)
    assert advanced.path == [X]
    refused(state, "allied", f"advance us-1mar-1 to {X} {AROUND[3]}", "Formosa 15.8")  # BB: one hex only


def test_15_6_counterattack_reads_50_99_with_its_one_shift_and_a_ca_in_it_is_no_effect_cf_7():
    # 9 against 1 in a peak (three left for a Japanese defender) reads 400-499%: die 1 is a CA
    state = given(units={"us-1mar-1": PEAK_AROUND[0], "us-7-17": PEAK_AROUND[0], "jp-guerrilla-1": PEAK})
    events = when(state, "allied", f"attack {PEAK} with us-1mar-1 us-7-17", [1, 6])
    first, counter = of(events, CombatResolved)
    assert (first.column, first.code) == ("400-499%", "CA")
    assert counter.counterattack and counter.attacker == "japanese" and counter.hexes == [PEAK_AROUND[0]]
    assert (counter.attack, counter.defence, counter.column) == (1, 9, "50-99%")
    assert counter.shifts == [{"amount": 1, "case": "Formosa 15.6", "reason": "counterattack"}]
    assert counter.code == "CA" and of(events, CombatEnded)  # a CA in a counterattack: no effect
    assert not of(events, UnitEliminated)


def test_15_6_the_counterattack_is_against_one_hex_of_attackers_refused_by_its_rule_for_two():
    state = given(units={"us-1mar-1": PEAK_AROUND[0], "us-7-17": PEAK_AROUND[1], "jp-guerrilla-1": PEAK})
    state = play(state, "allied", f"attack {PEAK} with us-1mar-1 us-7-17", [1])  # CA: the Japanese choose a hex
    assert state.pending[0]["kind"] == "counterattack"
    message = refused(state, "japanese", f"counterattack {PEAK_AROUND[0]} {PEAK_AROUND[1]}", "Formosa 15.6")
    assert "one hex only" in message
    [counter] = of(when(state, "japanese", f"counterattack {PEAK_AROUND[1]}", [6]), CombatResolved)
    assert counter.hexes == [PEAK_AROUND[1]]


def test_15_5_ca_against_a_coastal_defense_or_heavy_weapons_ends_the_combat():
    # 9 against 4 (225%) with the heavy weapons' "D" and the peak's three: the <=49% column, where a 6 is a CA
    state = given(units={"us-1mar-1": PEAK_AROUND[0], "us-7-17": PEAK_AROUND[0], "jp-guerrilla-1": PEAK,
                         "jp-hw-6": PEAK})
    events = when(state, "allied", f"attack {PEAK} with us-1mar-1 us-7-17", [6])
    [resolved] = of(events, CombatResolved)
    assert (resolved.column, resolved.code) == ("<=49%", "CA")
    assert of(events, CombatEnded) and not of(events, DecisionRequired)


def test_15_8_example_1_two_defenders_in_one_hex_d1_no_advance_cf_8():
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[0], "us-7-184": AROUND[0], "us-27-105": AROUND[1],
             "us-27-106": AROUND[1], "jp-50-301": X, "jp-guerrilla-1": X}
    state = given(units=units)
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32 us-7-184 us-27-105 us-27-106", [4])
    assert state.combat.code == "D1" and state.pending[0]["side"] == "japanese"
    events = when(state, "japanese", "lose jp-50-301")
    assert of(events, CombatEnded) and not of(events, DecisionRequired)


def test_15_8_example_2_two_hexes_d1_advance_into_the_cleared_one_only_cf_9():
    a, b, common = pair()
    units = {"us-7-17": common[0], "us-7-32": common[0], "us-7-184": common[0], "us-27-105": common[0],
             "us-27-106": common[1], "jp-50-301": a, "jp-guerrilla-1": b}
    state = given(units=units)
    state = play(state, "allied", f"attack {a} {b} with us-7-17 us-7-32 us-7-184 us-27-105 us-27-106", [4])
    assert state.combat.code == "D1"
    state = play(state, "japanese", "lose jp-guerrilla-1")
    assert state.pending[0]["kind"] == "advance" and state.combat.cleared == (b,)
    refused(state, "allied", f"advance us-27-106 to {a}", "Formosa 15.8")
    advances = [o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "advance"]
    assert advances and all(o.endswith(f" to {b}") for o in advances)  # only the cleared hex is offered
    state = play(state, "allied", f"advance us-27-106 to {b}")
    assert state.units["us-27-106"].where == b


def test_15_2_the_combat_panel_reads_the_percentage_the_result_its_losses_and_every_face():
    from app.rules.formosa.view import combat_summary

    state = given(units={"us-1mar-1": AROUND[0], "us-1mar-5": AROUND[1], "jp-50-301": X})
    [resolved] = of(when(state, "allied", f"attack {X} with us-1mar-1 us-1mar-5", [3]), CombatResolved)
    panel = combat_summary(resolved, state)
    assert (panel["attacker"], panel["defender"], panel["hex"], panel["result"]) == ("allied", "japanese", X, "BB")
    assert panel["hexes"] == [X] and panel["attackers"] == ["us-1mar-1", "us-1mar-5"]
    assert panel["odds"] == f"{resolved.percent}%" and panel["column"] == resolved.column
    assert [d["roll"] for d in panel["distribution"]] == [1, 2, 3, 4, 5, 6]
    assert next(d for d in panel["distribution"] if d["roll"] == 3)["result"] == "BB"
    assert panel["case"] == "Formosa 15.2" and combat_summary(of([resolved], CombatResolved)[0], None) is None
    dr = CombatResolved("japanese", [AROUND[0]], ["jp-50-301"], ["us-1mar-1"], 3, 3, 100, [], "100-199%", 5, "DR")
    assert combat_summary(dr, state)["losses"] == {"japanese": 0, "allied": 0}  # a retreat loses no unit
    de = combat_summary(CombatResolved("allied", [X], ["us-1mar-1"], ["jp-50-301"], 9, 1, 900, [], ">=700%", 6, "DE"),
                        state)
    assert de["losses"] == {"allied": 0, "japanese": "all"} and de["defender"] == "japanese"


def test_15_0_attack_only_enemy_hexes_and_no_hex_twice_in_a_phase():
    state = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-50-301": X})
    refused(state, "allied", f"attack {AROUND[1]} with us-7-17", "Formosa 15.0")  # no enemy there
    refused(state, "allied", f"attack {X} with us-7-17 us-7-17", "Formosa 15.0")
    # 4 against 3 reads 100-199%: die 1 is an A1, the one attacker eliminated without a choice
    events = when(state, "allied", f"attack {X} with us-7-17", [1])
    assert [e.unit for e in of(events, UnitEliminated)] == ["us-7-17"] and of(events, CombatEnded)
    state = play(state, "allied", f"attack {X} with us-7-17", [1])
    refused(state, "allied", f"attack {X} with us-7-32", "Formosa 15.0")


def test_15_0_units_in_an_enemy_zoc_must_attack_before_the_phase_ends():
    state = given(units={"us-7-17": AROUND[0], "jp-50-301": X})
    refused(state, "allied", "end", "Formosa 15.0")
    state = given(units={"us-7-17": AROUND[0], "jp-guerrilla-1": X})  # guerrillas exert no ZOC (F1)
    assert when(state, "allied", "end")


def test_15_7_dr_the_defender_chooses_a_hex_free_of_enemy_units_and_zoc():
    # 10 against 3 in the open reads 300-399%; die 5 is a DR on the Allied table
    state = given(units={"us-1mar-1": AROUND[0], "us-1mar-5": AROUND[1], "jp-50-301": X})
    state = play(state, "allied", f"attack {X} with us-1mar-1 us-1mar-5", [5])
    assert state.combat.code == "DR" and state.pending[0]["kind"] == "retreat"
    refused(state, "japanese", f"retreat jp-50-301 {AROUND[0]}", "Formosa 15.7")  # enemy-occupied
    refused(state, "japanese", f"retreat jp-50-301 {AROUND[2]}", "Formosa 15.7")  # in the Allied ZOC
    state = play(state, "japanese", f"retreat jp-50-301 {AROUND[3]}")
    assert state.units["jp-50-301"].where == AROUND[3] and state.pending[0]["kind"] == "advance"


def test_15_7_a_surrounded_defender_that_must_retreat_is_eliminated_and_the_attack_is_concentric():
    units = {"jp-50-301": X} | {f"us-7-{n}": AROUND[i] for i, n in enumerate((17, 32, 184))} | {
        "us-27-105": AROUND[3], "us-27-106": AROUND[4], "us-27-165": AROUND[5]}
    state = given(units=units)
    # attackers on opposite sides: every hex around the defender is an attacker's or next to one (F19)
    events = when(state, "allied", f"attack {X} with us-7-17 us-27-105", [5])
    [resolved] = of(events, CombatResolved)
    assert resolved.shifts == [{"amount": 1, "case": "Formosa 15.4.1, ruling F19", "reason": "concentric attack"}]
    assert (resolved.column, resolved.code) == ("300-399%", "DR")
    assert [e.case for e in of(events, UnitEliminated)] == ["Formosa 15.7 item 5"]


def test_8_3_a_unit_eliminated_with_a_line_of_supply_goes_to_replacements_else_to_eliminated():
    from dataclasses import replace

    from formosa_map import D, M

    def bloody(port, a, b) -> int | None:
        state = given(step="japanese-combat", turn=1, units={"us-eng-1": str(port), "us-7-17": str(a),
                                                             "jp-9-7": str(b)})
        p = GAME.preview(state, Command("japanese", "attack", {"hexes": [str(a)], "units": ["jp-9-7"], "n": 0}))
        return next((d for d, code in p["by_roll"].items() if code == "BB"), None)

    port, a, b = next((p, a, b) for p in sorted(D.ports()) for a in sorted(M.neighbours(p)) if D.is_land(a)
                      for b in sorted(M.neighbours(a)) if D.is_land(b) and b != p and b not in M.neighbours(p)
                      and bloody(p, a, b))
    units = {"us-eng-1": str(port), "us-7-17": str(a), "jp-9-7": str(b)}
    for based, where in ((True, "allied-replacements"), (False, "allied-eliminated")):
        state = given(step="japanese-combat", turn=1, units=units)
        state = state.with_units(replace(state.units["us-eng-1"], base=based))
        events = when(state, "japanese", f"attack {a} with jp-9-7", [bloody(port, a, b)])  # BB: 4 against 4
        gone = {e.unit: e.to for e in of(events, UnitEliminated)}
        assert gone == {"jp-9-7": "japanese-eliminated", "us-7-17": where}, (based, gone)


def test_ruling_f41_the_units_of_a_hex_attack_together():
    state = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[0], "jp-50-301": X})
    refused(state, "allied", f"attack {X} with us-7-17", "Formosa 15.0, ruling F41")


def test_ruling_f42_a_unit_whose_enemy_hexes_were_all_attacked_may_end_the_phase():
    state = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-50-301": X})
    state = play(state, "allied", f"attack {X} with us-7-17", [1])  # 4 against 3, die 1: A1
    assert state.combat is None and state.units["jp-50-301"].where == X
    assert play(state, "allied", "end").step == "base-building"  # us-7-32 can no longer attack X


def test_15_1_a_unit_in_the_zoc_of_two_hexes_attacks_both_in_one_combat():
    from formosa_map import pair

    a, b, common = pair()
    state = given(units={"us-7-17": common[0], "jp-50-301": a, "jp-50-302": b})
    refused(state, "allied", f"attack {a} with us-7-17", "Formosa 15.1")
    assert of(when(state, "allied", f"attack {a} {b} with us-7-17", [3]), CombatResolved)


def test_ruling_f106_a_static_unit_holds_against_a_retreat_result_and_the_hex_is_not_cleared():
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "us-7-184": AROUND[2], "jp-hw-6": X}
    state = given(units=units, naval={}, air={})
    order = f"attack {X} with us-7-17 us-7-32 us-7-184"
    assert of(when(state, "allied", order, [5]), CombatResolved)[0].code == "DR"  # 12 against 3, 1L (D)
    state = play(state, "allied", order, [5])
    assert state.units["jp-hw-6"].where == X  # it cannot move, and is not eliminated for it (F106)
    assert state.combat is None and not state.pending  # nothing cleared: no advance


def test_ruling_f107_a_deception_unit_counts_against_the_japanese_stacking_limit():
    units = {f"jp-9-{n}": X for n in (7, 19, 35)} | {"jp-deception-3": AROUND[0], "us-7-17": AROUND[3]}
    state = given(step="japanese-movement", units=units, concealed=("jp-deception-3",))
    state = play(play(state, "japanese", f"move jp-deception-3 {X}"), "japanese", "end")
    assert state.pending[0]["kind"] == "overstack" and state.pending[0]["hexes"] == [X]


def test_15_0_a_defender_that_retreated_is_not_attacked_again_in_the_phase():
    from formosa_map import D, M

    from app.rules.formosa import played_under
    from app.rules.kernel.hexgrid import Hex

    H = Hex.parse
    # a guerrilla (1) attacked by two US units retreats (DR) next to a third US unit: 23.0 lets it into the EZOC
    far = next(n for n in M.neighbours(H(AROUND[3])) if D.is_land(n) and str(n) not in (X, *AROUND))
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "us-27-105": str(far), "jp-guerrilla-1": X}
    state = given(units=units, naval={}, air={})
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32", [1])  # 8 against 1: >=700%, die 1: DR
    assert state.pending[0]["kind"] == "retreat"
    state = play(play(state, "japanese", f"retreat jp-guerrilla-1 {AROUND[3]}"), "allied", "hold")
    assert state.units["jp-guerrilla-1"].where == AROUND[3]
    message = refused(state, "allied", f"attack {AROUND[3]} with us-27-105", "Formosa 15.0")
    assert "once" in message
    play(played_under(state, "3"), "allied", f"attack {AROUND[3]} with us-27-105", [6])  # ruling F105


def test_8_3_units_a_result_eliminates_together_are_judged_on_the_position_the_result_found():
    from app.rules.formosa import played_under

    attackers = ("us-7-17", "us-7-32", "us-7-184", "us-27-105", "us-27-106", "us-27-165")
    units = dict(zip(attackers, AROUND, strict=True)) | {"jp-imb-75": X, "jp-hw-6": X}
    state = given(units=units, naval={}, air={})
    order = f"attack {X} with {' '.join(attackers)}"
    events = when(state, "allied", order, [6])  # 24 against 6, 1L (D), 1R (concentric): 400%, die 6: DE
    assert of(events, CombatResolved)[0].code == "DE"
    # the brigade traced its line to the heavy weapons unit in its own hex when the result fell on both (19.3)
    assert {e.unit: e.to for e in of(events, UnitEliminated)} == {"jp-hw-6": "japanese-replacements",
                                                                  "jp-imb-75": "japanese-replacements"}
    old = {e.unit: e.to for e in of(when(played_under(state, "3"), "allied", order, [6]), UnitEliminated)}
    assert old["jp-imb-75"] == "japanese-eliminated"  # ruling F105: one at a time, the source gone first
