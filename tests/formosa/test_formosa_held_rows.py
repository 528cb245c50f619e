"""Rows of docs/cases/formosa.md whose mapped tests passed with the row's enforcing line broken by hand (issue 30,
session part 10), and the reading of 25.2 for a Commonwealth attack (ruling F136): 25.2's thresholds (nine and six
factors), a BB loss of exactly the other side's factors (15.5), die-hards only where the terrain shifts (25.6), a
motorized move with no LP left (22.0), the raiders before GT 2 (25.8), one "A" and one "D" shift however many units
carry them, the best in-hex terrain and the common hexside of a two-hex attack (15.4.1, F44), ground support of the
nationality attacking (16.3), a counterattack's one shift (15.6), an assault with air supply (10.2.2), a guerrilla's
retreat through EZOC (15.7, 23.0), industrial and peak VP without a base (4.2), a deception unit revealed as the
Combat Phase begins and removed (11.1, 11.2); and, under
rules version 17, a unit named twice in a 13.3 removal (ruling F137). Each test fails with its line broken and holds
the rule where a player would notice it."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, ring, road_port, two_over

from app.events.core import DieRolled
from app.rules.formosa import GAME
from app.rules.formosa.events import BattlefieldLp, CombatResolved, GuerrillaRallied, UnitEliminated

X, AROUND = ring("open")
FAR = "1805"  # an Allied unit far away keeps the Allies on Formosa (4.1)


def opt(state, *rules: str):
    return replace(state, data=GAME.data({"optional": list(rules)}))


def _allied_de(units: dict[str, str], attackers: list[str], scenario: str = "1") -> list:
    """An Allied attack from two opposite hexes of the ring (20 factors, one armor: the 400-499% column) whose die
    6 is a DE; the attackers then hold: the events of the combat's end."""
    japanese = [u for u in units if u.startswith("jp-")]
    pos = {"turn": 3, "phase": "allied-combat", "units": units, "revealed": japanese,
           "lp": {"allied": 0, "japanese": 0}}
    state = GAME.initial_state(scenario, {"position": pos, "optional": ["25.2"]})
    state = play(state, "allied", f"attack {X} with {' '.join(attackers)}", [6])
    assert state.pending[0]["kind"] == "advance" and all(state.units[u].where != X for u in japanese)
    return when(state, "allied", "hold")


US = {"us-armor-1": AROUND[0], "us-1mar-1": AROUND[0], "us-1mar-5": AROUND[3], "us-7-17": AROUND[3]}
CW = {"cw-armor-1": AROUND[0], "cw-7-18": AROUND[0], "cw-7-21": AROUND[3], "cw-7-25": AROUND[3], "cw-cdo-3": AROUND[3]}


@pytest.mark.parametrize(("defenders", "earned"), [(["jp-9-7", "jp-9-19", "jp-constr-1"], True),
                                                   (["jp-9-7", "jp-9-19"], False)])
def test_25_2_a_us_attack_eliminating_nine_japanese_factors_gains_one_lp_eight_do_not(defenders, earned):
    events = _allied_de({**US, **{u: X for u in defenders}}, list(US))
    assert [(e.side, e.lp, e.eliminated_cf, e.advanced) for e in of(events, BattlefieldLp)] == (
        [("allied", 1, 9, False)] if earned else [])


@pytest.mark.parametrize(("defenders", "earned"), [(["jp-9-7", "jp-9-19", "jp-constr-1"], True),
                                                   (["jp-9-7", "jp-9-19"], False)])
def test_25_2_f136_a_commonwealth_only_attack_gains_the_lp_at_the_allied_nine_factors(defenders, earned):
    """Scenario 2 (24.2: the Allies recruit Commonwealth units): 25.2 a) names the US; a Commonwealth attack is the
    Allied player's, read at the same nine factors (ruling F136)."""
    events = _allied_de({**CW, **{u: X for u in defenders}}, list(CW), scenario="2")
    assert [(e.side, e.lp, e.eliminated_cf) for e in of(events, BattlefieldLp)] == (
        [("allied", 1, 9)] if earned else [])


@pytest.mark.parametrize(("other", "die", "earned"), [("us-eng-1", 5, True), ("us-hq-3ac", 4, False)])
def test_25_2_a_japanese_attack_eliminating_six_allied_factors_gains_one_lp_five_do_not(other, die, earned):
    """A DR the surrounded defenders cannot make (15.7 item 5): the units that cannot retreat count (25.2)."""
    units = {"jp-armor-1": AROUND[0], "jp-9-7": AROUND[0], "jp-9-19": AROUND[3], "jp-9-35": AROUND[3],
             "us-7-17": X, other: X, "us-27-105": FAR}
    state = opt(given(step="japanese-combat", units=units, naval={}, air={}), "25.2")
    state = play(state, "japanese", f"attack {X} with jp-armor-1 jp-9-7 jp-9-19 jp-9-35", [die])
    assert {state.units[u].where for u in ("us-7-17", other)} == {"allied-eliminated"}
    assert [(e.side, e.eliminated_cf) for e in of(when(state, "japanese", "hold"), BattlefieldLp)] == (
        [("japanese", 6)] if earned else [])


def test_15_5_bb_the_attacker_may_eliminate_units_of_exactly_the_defenders_printed_factors():
    """BB: the Japanese 4 go; the Allies eliminate at least 4 printed factors: the 4-factor regiment alone does."""
    state = given(units={"us-7-17": AROUND[0], "us-1mar-1": AROUND[1], "jp-9-7": X})
    state = play(state, "allied", f"attack {X} with us-7-17 us-1mar-1", [4])
    assert state.pending[0]["kind"] == "losses" and state.pending[0]["min_cf"] == 4
    after = play(state, "allied", "lose us-7-17")
    assert after.units["us-7-17"].where == "allied-eliminated" and after.units["us-1mar-1"].where == AROUND[1]


def test_25_6_a_japanese_unit_eliminated_in_open_terrain_rolls_no_die_hards_die():
    """25.6: only terrain that gives the Japanese defender a shift; in open terrain no die is rolled."""
    state = opt(given(units={"us-7-17": AROUND[0], "us-1mar-1": AROUND[3], "jp-9-7": X,
                             "jp-guerrilla-1": "japanese-reinforcements"}), "25.6")
    events = when(state, "allied", f"attack {X} with us-7-17 us-1mar-1", [6])  # die 6: D1, the regiment is lost
    assert of(events, CombatResolved)[0].code == "D1" and of(events, UnitEliminated)[0].unit == "jp-9-7"
    assert len(of(events, DieRolled)) == 1 and not of(events, GuerrillaRallied)


def test_22_0_motorized_movement_without_an_lp_left_is_refused():
    port = road_port()
    state = given(step="allied-movement", units={"us-eng-1": port, "us-7-17": port}, lp={"allied": 0, "japanese": 0})
    state = state.with_units(replace(state.units["us-eng-1"], base=True))
    assert refused(state, "allied", f"motorized {port}", "Formosa 22.0") == (
        "Formosa 22.0: motorized movement costs 1 LP; the Allies have none")


def test_25_8_the_raiders_land_from_gt_2_only():
    """25.8: the raiders are deployed in a Japanese Movement Phase starting with GT 2; the refusal says so of the
    raiders (plural), as 25.7's says it of the Marine Brigade, and names the GT it is."""
    state = opt(given(step="japanese-movement", turn=1, units={"jp-raiders": "japanese-reinforcements",
                                                               "us-27-105": FAR},
                      special_ready=("jp-raiders",)), "25.8")
    field = next(str(h) for h in sorted(D.airfields()) if D.is_land(h))
    assert refused(state, "japanese", f"raid {field}", "Formosa 25.8") == (
        "Formosa 25.8: the Japanese Airborne Raiders are deployed onto the map in a Japanese Movement Phase from GT 2 "
        "on, not on GT 1")
    assert refused(replace(state, special_ready=()), "japanese", f"raid {field}", "Formosa 25.8") == (
        "Formosa 25.8: the Japanese Airborne Raiders are not waiting to land: they are recruited at set-up only, and "
        "land once")


def test_25_7_the_marine_brigade_lands_from_gt_2_only():
    state = opt(given(step="japanese-movement", turn=1, units={"jp-marine": "japanese-reinforcements",
                                                               "us-27-105": FAR},
                      special_ready=("jp-marine",)), "25.7")
    beach = next(str(h) for h in sorted(D.map.hexes_with("beach")) if D.is_land(h))
    assert refused(state, "japanese", f"land {beach} with jp-marine", "Formosa 25.7") == (
        "Formosa 25.7: the Japanese Marine Brigade is deployed onto the map in a Japanese Movement Phase from GT 2 "
        "on, not on GT 1")


def _shifts(state, side: str, order: str) -> list[tuple[int, str]]:
    shown = GAME.preview(state, GAME.parse(order, side, state))
    return [(s["amount"], s["reason"]) for s in shown["shifts"]]


def test_15_4_1_two_attack_bonus_units_give_one_shift():
    state = given(units={"us-armor-1": AROUND[0], "us-arty-1": AROUND[1], "jp-9-7": X})
    assert _shifts(state, "allied", f"attack {X} with us-armor-1 us-arty-1") == [(1, "attack bonus unit")]


def test_15_4_1_f44_two_defending_hexes_each_with_a_defense_bonus_unit_and_rough_ground_shift_once_each():
    """An attack on two rough hexes, each holding a heavy weapons unit ("D"): one defense bonus shift and the best
    in-hex terrain shift, not one of each per hex (15.4.1: only one shift applies; the most beneficial terrain)."""
    state = given(units={"us-1mar-1": "1115", "us-1mar-5": "1115", "jp-hw-1": "1214", "jp-hw-2": "1215"})
    assert sorted(_shifts(state, "allied", "attack 1214 1215 with us-1mar-1 us-1mar-5")) == [
        (-1, "defense bonus unit"), (-1, "terrain in the defender's hex")]


def test_15_4_1_f44_a_hexside_shift_counts_only_when_every_attacker_crosses_it_into_every_hex():
    """From 0917, 1017 lies across a river and 1016 across no hexside feature: attacking both, no hexside shift."""
    alone = given(units={"us-7-17": "0917", "jp-9-7": "1017"})
    across = [r for _, r in _shifts(alone, "allied", "attack 1017 with us-7-17")]
    assert "hexside terrain every attacker crosses" in across
    both = given(units={"us-7-17": "0917", "jp-9-7": "1017", "jp-9-19": "1016"})
    assert _shifts(both, "allied", "attack 1016 1017 with us-7-17") == []


def test_15_6_a_counterattack_by_an_attack_bonus_unit_gets_its_one_right_shift_only():
    """15.6 items 1-2: the counterattacking force gains one right shift and no other: the armor's "A" is not."""
    state = given(units={"us-7-17": AROUND[0], "jp-armor-1": X})
    events = when(state, "allied", f"attack {X} with us-7-17", [5, 6])  # 4 against 5 reads 50-99%: die 5, CA
    first, counter = of(events, CombatResolved)
    assert first.code == "CA" and counter.counterattack and counter.attackers == ["jp-armor-1"]
    assert counter.shifts == [{"amount": 1, "case": "Formosa 15.6", "reason": "counterattack"}]


@pytest.mark.parametrize(("attackers", "shift"), [(["cw-7-18"], []), (["us-7-17"], [(2, "ground support")]),
                                                  (["cw-7-18", "us-7-17"], [(2, "ground support")])])
def test_16_3_us_ground_support_shifts_an_attack_only_with_a_us_ground_unit_in_it(attackers, shift):
    """16.0 Important, 5.1 item 3: two US points over the hex support a Commonwealth attack only when a US unit
    attacks too."""
    from app.rules.formosa.state import Strike

    units = {u: AROUND[i] for i, u in enumerate(attackers)}
    state = given(units={**units, "jp-9-7": X}, strike=Strike(support=(("allied", X, "us", 2),), revealed=True))
    assert _shifts(state, "allied", f"attack {X} with {' '.join(attackers)}") == shift


def test_10_2_2_an_assault_with_air_supply_is_refused_by_10_2_2():
    """10.2.2: amphibious assaults cannot be supported by air supply; the order says so by its case, not by the
    grammar's "expected 'from'"."""
    from formosa_map import shore

    beach, (sea,) = shore(1)
    four = ["us-7-17", "us-7-32", "us-7-184", "us-27-105"]
    state = GAME.initial_state("1", {"position": {
        "turn": 3, "phase": "invasion", "revealed": ["jp-guard-1"], "units": {"jp-guard-1": beach},
        "at_sea": {sea: four}, "markers": {"amphibious": 1}, "air": {"air-supply": 1}}})
    assert refused(state, "allied", f"assault {beach} supply air", "Formosa 10.2.2") == (
        "Formosa 10.2.2: an amphibious assault cannot be supported by air supply (19.4)")


def test_13_3_a_unit_named_twice_in_a_removal_is_refused_and_nothing_is_removed_f137():
    state = two_over()
    assert refused(state, "japanese", "remove jp-9-7 jp-9-7", "Formosa 13.3") == (
        "Formosa 13.3: jp-9-7 named twice: a unit is removed once; name each unit the hex loses once")
    after_it = play(state, "japanese", "remove jp-9-7 jp-12-24")  # each once: both go, the hex complies
    assert {after_it.units[u].where for u in ("jp-9-7", "jp-12-24")} == {"japanese-replacements"}


def test_f137_a_game_created_under_rules_16_reads_a_unit_named_twice_once_as_played():
    state = replace(two_over(), rules_version=16)
    after_it = play(state, "japanese", "remove jp-9-7 jp-9-7")
    assert after_it.units["jp-9-7"].where == "japanese-replacements" and after_it.pending[0]["kind"] == "overstack"


def test_15_7_23_0_a_guerrilla_retreats_through_an_enemy_zoc_where_another_unit_could_not():
    """23.0: guerrillas are not affected by EZOC; between attackers in opposite hexes every hex around is in their
    ZOC, yet a guerrilla's DR is a retreat the Japanese player makes, not an elimination (15.7 item 5)."""
    state = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[3], "jp-guerrilla-1": X})
    state = play(state, "allied", f"attack {X} with us-7-17 us-7-32", [1])  # 800%: die 1, DR
    assert state.pending[0]["kind"] == "retreat" and state.pending[0]["units"] == ["jp-guerrilla-1"]
    assert state.units["jp-guerrilla-1"].where == X


def test_4_2_an_allied_held_industrial_objective_and_peak_score_without_an_engineer_base():
    """4.2: one VP each for an Allied-controlled Industrial Objective and Peak hex, regardless of engineers; the
    airfield in the industrial hex scores nothing without a base."""
    from app.rules.formosa.victory import allied_vp

    industry = next(str(h) for h in sorted(D.land()) if "industry" in D.objectives(h))
    peak = next(str(h) for h in sorted(D.land()) if "peak" in D.objectives(h))
    vp, detail = allied_vp(given(units={"us-7-17": industry, "us-7-32": peak}))
    assert (vp, detail) == (2, {f"{industry} industry": 1, f"{peak} peak": 1})


def test_11_1_11_2_a_deception_unit_in_an_allied_zoc_when_the_combat_phase_begins_is_revealed_and_removed():
    """11.2 item 1: concealed units in an enemy ZOC are revealed as the Combat Phase begins; a deception unit is
    removed the instant it is revealed (11.1), so nothing is left in the hex to attack."""
    from app.rules.formosa.state import OUT

    state = given(step="allied-movement", units={"us-7-17": AROUND[0], "jp-deception-1": X, "jp-9-7": FAR},
                  concealed=("jp-deception-1", "jp-9-7"))
    state = play(state, "allied", "end")
    assert state.step == "allied-combat" and state.units["jp-deception-1"].where == OUT
    assert state.units["jp-9-7"].concealed  # far from any Allied unit: still concealed
