"""Formosa walked again against the text, chapter by chapter (issue 30, rules version 16): each case the text states
played as a player plays it, through the service, on a game made from a position file; every refusal names its case
and writes nothing (tests/served.py)."""
from __future__ import annotations

import pytest
from formosa_given import when
from formosa_map import D, M, pair, ring, river_crossing, shore

from app.rules.base import played_under
from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME
from app.rules.kernel.hexgrid import Hex
from app.service import games
from tests.served import CATALOG, Served

X, AROUND = ring("open")
PEAK, PEAK_AROUND = ring("peak")
PORT = str(sorted(D.map.hexes_with("major-port"))[0])
BEACH, (SEA,) = shore(1)
NO_LP = {"allied": 0, "japanese": 0}
FAR = str(max((h for h in M.hexes() if D.is_land(h) and not M.features_of(h)),
              key=lambda h: M.distance(h, Hex.parse(X))))
KEEP = {"us-96-381": FAR}  # an Allied unit far away: the game goes on (4.1)


def formosa(store, position: dict, scenario: str = "1", optional=()) -> Served:
    position = {"turn": 4, "lp": NO_LP, **position}
    if scenario == "1" and not optional:
        return Served(store, "formosa", position, ("allied", "japanese"))
    game = Served.__new__(Served)
    game.store = store
    options = {"position": position, **({"optional": list(optional)} if optional else {})}
    game.id = games.create_game(store, CATALOG, "formosa", scenario=scenario, options=options)
    for side in ("allied", "japanese"):
        games.join(store, CATALOG, game.id, side, f"{side}@example.org", side)
    return game


def payloads(events, kind: str) -> list[dict]:
    return [e.payload for e in events if e.type == f"formosa.{kind}"]


def revealed(units: dict) -> list[str]:
    return [u for u in units if u.startswith("jp-") and "deception" not in u]


# -- 5.0 operational considerations ---------------------------------------------------------------------------
def test_5_1_item_1_us_and_commonwealth_units_never_end_a_phase_together_and_5_1_item_2_they_attack_together(store):
    """13.0: units may pass and enter any hex during the phase; a US unit ending its move with a Commonwealth unit
    is over-stacked (13.1), and the phase's end removes the fewest units (13.3, ruling F101)."""
    units = {"us-7-17": AROUND[0], "cw-7-18": AROUND[1], "jp-50-301": X}
    apart = {"us-7-17": AROUND[0], "cw-7-18": AROUND[1]}
    game = formosa(store, {"phase": "allied-movement", "units": apart}, "2")
    game.do("allied", f"move us-7-17 {AROUND[1]}")
    owed = [e.payload for e in game.do("allied", "end") if e.type == "game.DecisionRequired"]
    assert owed == [{"kind": "overstack", "side": "allied", "data": {"hexes": [AROUND[1]], "then": "allied-movement",
                                                                     "sides": ["allied"]}}]
    assert "Formosa 13.3" in game.refused("allied", "remove us-7-17 cw-7-18")  # one is the fewest
    game.do("allied", "remove us-7-17")
    fight = formosa(store, {"phase": "allied-combat", "revealed": revealed(units), "units": units}, "2")
    resolved = payloads(fight.do("allied", f"attack {X} with us-7-17 cw-7-18"), "CombatResolved")[0]
    assert sorted(resolved["attackers"]) == ["cw-7-18", "us-7-17"] and resolved["attack"] == 8


# -- 7.0 logistics points ------------------------------------------------------------------------------------
def test_7_2_lp_never_go_below_zero_and_15_4_1_the_japanese_spend_one_lp_a_combat(store):
    units = {"us-7-17": AROUND[0], "jp-50-301": X}
    game = formosa(store, {"phase": "japanese-combat", "revealed": revealed(units), "units": units,
                           "lp": {"allied": 0, "japanese": 1}})
    assert game.refused("japanese", f"attack {AROUND[0]} with jp-50-301 lp 2").startswith("Formosa 15.4.1")
    allied = formosa(store, {"phase": "allied-combat", "revealed": revealed(units), "units": units,
                             "lp": {"allied": 1, "japanese": 0}})
    assert allied.refused("allied", f"attack {X} with us-7-17 lp 2").startswith("Formosa 7.2")


# -- 8.0 reinforcements and replacements ---------------------------------------------------------------------
def test_8_2_after_set_up_the_japanese_recruit_no_type_of_the_chart_s_top_two_boxes(store):
    game = formosa(store, {"phase": "recruit-japanese", "revealed": ["jp-50-301"], "units": {"jp-50-301": X},
                           "lp": {"allied": 0, "japanese": 10}})
    assert game.refused("japanese", "recruit jp-armor-1").startswith("Formosa 8.2")


# -- 11.0 fog of war -----------------------------------------------------------------------------------------
def test_11_1_the_d_o_deception_units_and_concealed_static_units_never_move(store):
    units = {"jp-deception-1": X, "jp-cd-1": PORT, **KEEP}
    game = formosa(store, {"phase": "japanese-movement", "units": units})
    assert game.refused("japanese", f"move jp-deception-1 {AROUND[0]}").startswith("Formosa 11.1")
    near = str(next(n for n in M.neighbours(Hex.parse(PORT)) if D.is_land(n)))
    assert "Formosa 2.4, 11.1" in game.refused("japanese", f"move jp-cd-1 {near}")


# -- 12.0 land movement --------------------------------------------------------------------------------------
def test_12_1_the_example_an_unbridged_river_into_open_costs_1_plus_1(store):
    path = river_crossing(3)
    units = {"jp-guard-1": path[1], **KEEP}
    game = formosa(store, {"phase": "japanese-movement", "revealed": ["jp-guard-1"], "units": units})
    [moved] = payloads(game.do("japanese", f"move jp-guard-1 {' '.join(path[2:])}"), "UnitMoved")
    assert moved["mp"] == 4  # 1 (open) + 1 (open) + 1 (river)
    assert game.refused("japanese", f"move jp-guard-1 {path[1]}").startswith("Formosa 12.2")  # once a phase


# -- 13.0 stacking -------------------------------------------------------------------------------------------
def test_13_2_a_fourth_japanese_mobile_unit_is_removed_at_the_end_of_the_movement_phase_13_3(store):
    units = {"jp-9-7": X, "jp-9-19": X, "jp-50-301": X, "jp-guard-1": AROUND[0], **KEEP}
    game = formosa(store, {"phase": "japanese-movement", "revealed": revealed(units), "units": units})
    game.do("japanese", f"move jp-guard-1 {X}")
    events = game.do("japanese", "end")
    assert [e.type for e in events][-1] == "game.DecisionRequired"
    assert "Formosa 13.3" in game.refused("japanese", "remove jp-9-7 jp-9-19")  # the fewest needed: one
    [gone] = payloads(game.do("japanese", "remove jp-guard-1"), "UnitEliminated")
    assert gone["to"] == "japanese-replacements"


# -- 14.0 zones of control -----------------------------------------------------------------------------------
def test_14_2_a_unit_in_an_ezoc_must_attack_but_not_a_mobile_unit_stacked_with_a_static_unit_15_0(store):
    town = str(sorted(D.map.hexes_with("town"))[0])
    near = [str(n) for n in M.neighbours(Hex.parse(town)) if D.is_land(n)]
    units = {"jp-hw-1": town, "jp-50-301": town, "us-7-17": near[0]}
    game = formosa(store, {"phase": "japanese-combat", "revealed": revealed(units), "units": units})
    game.do("japanese", "end")  # 15.0 items 1-2: neither the static unit nor the mobile unit with it must attack
    alone = {"jp-50-301": X, "us-7-17": AROUND[0]}
    bound = formosa(store, {"phase": "japanese-combat", "revealed": ["jp-50-301"], "units": alone})
    assert bound.refused("japanese", "end").startswith("Formosa 15.0")


# -- 15.0 ground combat --------------------------------------------------------------------------------------
def test_15_3_the_examples_one_against_five_and_eight_against_one_read_the_end_columns(store):
    weak = {"us-hq-3ac": AROUND[0], "jp-imb-75": X, "jp-eng-1": X}
    game = formosa(store, {"phase": "allied-combat", "revealed": revealed(weak), "units": weak})
    resolved = payloads(game.do("allied", f"attack {X} with us-hq-3ac"), "CombatResolved")[0]  # a CA may follow
    assert (resolved["attack"], resolved["defence"], resolved["column"]) == (1, 5, "<=49%")
    strong = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guerrilla-1": X}
    game = formosa(store, {"phase": "allied-combat", "revealed": revealed(strong), "units": strong})
    resolved = payloads(game.do("allied", f"attack {X} with us-7-17 us-7-32"), "CombatResolved")[0]
    assert (resolved["attack"], resolved["defence"], resolved["column"]) == (8, 1, ">=700%")


def test_15_4_the_example_20_against_1_with_one_left_reads_600_699(store):
    rough, around = ring("rough")
    units = {f"us-7-{n}": around[0] for n in (17, 32, 184)} | {"us-27-105": around[1], "us-27-106": around[1],
                                                               "jp-guerrilla-1": rough}
    game = formosa(store, {"phase": "allied-combat", "revealed": revealed(units), "units": units})
    resolved = payloads(game.do("allied", f"attack {rough} with us-7-17 us-7-32 us-7-184 us-27-105 us-27-106"),
                        "CombatResolved")[0]
    assert (resolved["attack"], resolved["defence"], resolved["column"]) == (20, 1, "600-699%")


def test_15_8_example_2_two_hexes_one_cleared_by_a_d1_is_the_only_hex_advanced_into(store):
    """A combat position (ruling F130) at the D1's loss, the Japanese to name it, played on through the service."""
    a, b, common = pair()
    units = {"us-7-17": common[0], "us-7-32": common[0], "us-7-184": common[0], "us-27-105": common[0],
             "us-27-106": common[1], "jp-50-301": a, "jp-guerrilla-1": b}
    attackers = ["us-7-17", "us-7-32", "us-7-184", "us-27-105", "us-27-106"]
    game = formosa(store, {"phase": "allied-combat", "revealed": revealed(units), "units": units,
                           "combat": {"stage": "losses", "attackers": attackers, "hexes": [a, b], "result": "D1"}})
    game.do("japanese", "lose jp-guerrilla-1")
    assert game.refused("allied", f"advance us-27-106 to {a}").startswith("Formosa 15.8")
    [advanced] = payloads(game.do("allied", f"advance us-27-106 to {b}"), "UnitsAdvanced")
    assert advanced["path"] == [b]


# -- 16.0 airpower -------------------------------------------------------------------------------------------
def test_16_3_the_japanese_place_one_ground_support_point_a_hex_and_16_4_the_allies_two_interdiction(store):
    units = {"us-7-17": AROUND[0], "jp-50-301": X}
    game = formosa(store, {"phase": "japanese-combat", "revealed": revealed(units), "units": units,
                           "air": {"japanese-tac": 2}, "missions": {"japanese": {"tactical": 2}}})
    assert game.refused("japanese", f"support {AROUND[0]} 2").startswith("Formosa 16.3")
    game.do("japanese", f"support {AROUND[0]} 1")
    interdiction = formosa(store, {"phase": "interdiction", "revealed": ["jp-50-301"], "units": units,
                                   "air": {"allied-tac": 4}, "missions": {"allied": {"interdiction": 3}}})
    assert interdiction.refused("allied", f"interdict {AROUND[2]} 3").startswith("Formosa 16.4")
    [placed] = payloads(interdiction.do("allied", f"interdict {AROUND[2]} 2"), "AirPlaced")
    assert (placed["hex"], placed["points"], placed["mission"]) == (AROUND[2], 2, "interdiction")  # any hex, 16.1


# -- 17.0 naval gunfire --------------------------------------------------------------------------------------
def test_17_0_gunfire_supports_an_attack_only_from_a_coastal_hex_two_units_at_most(store):
    deep = next((str(h) for h in sorted(M.hexes()) if D.is_land(h) and not D.is_coastal(h)
                 and all(D.is_land(n) and not D.is_coastal(n) for n in M.neighbours(h))
                 and not M.features_of(h)), None)
    assert deep is not None
    near = [str(n) for n in M.neighbours(Hex.parse(deep))]
    units = {"us-7-17": near[0], "jp-guerrilla-1": deep}
    game = formosa(store, {"phase": "allied-combat", "revealed": revealed(units), "units": units})
    assert game.refused("allied", f"attack {deep} with us-7-17 gunfire 1").startswith("Formosa 17.0")
    assert game.refused("allied", f"attack {deep} with us-7-17 gunfire 3").startswith("Formosa 17.0")


# -- 20.0 engineers and bases --------------------------------------------------------------------------------
def test_20_1_one_engineer_base_a_hex_and_an_engineer_in_a_hex_without_port_or_airfield_builds_none(store):
    units = {"us-eng-1": PORT, "us-eng-2": PORT, "us-eng-3": X}
    game = formosa(store, {"phase": "base-building", "units": units, "bases": ["us-eng-1"],
                           "lp": {"allied": 9, "japanese": 0}})
    assert game.refused("allied", f"build {PORT}").startswith("Formosa 20.1")
    assert game.refused("allied", f"build {X}").startswith("Formosa 20.1")


# -- 21.0 naval transfer -------------------------------------------------------------------------------------
def test_21_0_a_unit_inland_does_not_embark_and_none_debarks_where_the_enemy_is(store):
    units = {"us-7-17": X, "us-7-32": BEACH, "jp-50-301": PORT}
    game = formosa(store, {"phase": "naval-transfer", "revealed": ["jp-50-301"], "units": units})
    assert game.refused("allied", "transfer us-7-17 to staging").startswith("Formosa 21.0")
    assert game.refused("allied", f"transfer us-27-105 to {PORT}").startswith("Formosa 21.0")
    [moved] = payloads(game.do("allied", "transfer us-7-32 to staging"), "UnitTransferred")
    assert moved["unit"] == "us-7-32"


# -- 4.0 victory ---------------------------------------------------------------------------------------------
def test_4_1_no_allied_ground_unit_on_the_map_is_a_japanese_sudden_death_from_gt_2_only(store):
    units = {"jp-50-301": X}
    game = formosa(store, {"turn": 2, "phase": "japanese-movement", "revealed": ["jp-50-301"], "units": units})
    game.do("japanese", "end")
    assert "the game is over" in game.refused("japanese", "end") and "Formosa 4.1" in game.refused("japanese", "end")
    first = formosa(store, {"turn": 1, "phase": "japanese-movement", "revealed": ["jp-50-301"], "units": units})
    first.do("japanese", "end")
    assert first.state().game.step != "over"  # 4.1: after the start of GT 2


# -- 10.0 invasions ------------------------------------------------------------------------------------------
def test_10_1_10_2_10_3_markers_on_free_hexes_four_units_a_marker_two_airborne_a_drop_zone(store):
    field = str(sorted(h for h in D.airfields() if M.terrain_of(h) == "open")[0])
    staged = {u: "allied-staging" for u in ("us-11ab-187", "us-11ab-188", "us-11ab-511", "us-7-17", "us-7-32",
                                            "us-7-184", "us-27-105", "us-27-106")}
    position = {"turn": 3, "phase": "invasion", "revealed": ["jp-50-301"], "units": {"jp-50-301": BEACH},
                "where": staged, "markers": {"amphibious": 1, "drop-zone": 1}}
    game = formosa(store, position)
    assert game.refused("allied", f"land {BEACH} with us-7-17").startswith("Formosa 10.2.2")  # enemy-held: assault
    free = str(next(h for h in sorted(D.open_coastal()) if h != Hex.parse(BEACH)
                    and M.distance(h, Hex.parse(BEACH)) > 2))
    assert game.refused("allied", f"land {free} with us-7-17 us-7-32 us-7-184 us-27-105 us-27-106").startswith(
        "Formosa 10.2")
    assert game.refused("allied", f"drop {field} with us-11ab-187 us-11ab-188 us-11ab-511").startswith(
        "Formosa 10.3")
    [dropped] = payloads(game.do("allied", f"drop {field} with us-11ab-187 us-11ab-188"), "UnitsLanded")
    assert dropped["marker"] == "drop-zone"


def test_22_0_rangers_land_on_a_rough_coastal_hex_where_other_units_may_not(store):
    rough = str(next(h for h in sorted(D.map.hexes()) if D.is_land(h) and D.is_coastal(h)
                     and M.terrain_of(h) == "rough" and not M.features_of(h)))
    position = {"turn": 3, "phase": "invasion", "units": KEEP, "markers": {"amphibious": 2},
                "where": {"us-rgr-2": "allied-staging", "us-7-17": "allied-staging"}}
    game = formosa(store, position)
    assert game.refused("allied", f"land {rough} with us-7-17").startswith("Formosa 10.1")
    [landed] = payloads(game.do("allied", f"land {rough} with us-rgr-2"), "UnitsLanded")
    assert landed["units"] == ["us-rgr-2"]


# -- 18.0 mobile fleet ---------------------------------------------------------------------------------------
def test_18_0_a_sortie_on_gt_1_or_without_its_marker_is_refused_by_18_0_even_before_the_kamikaze_roll_f132(store):
    """Ruling F132 (rules version 16): the order reaches the rule that forbids it; a sortie 18.0 allows waits for
    the kamikaze roll (16.6, 6.1), and after the roll on GT 1 the phase has ended (no sortie to declare)."""
    position = {"phase": "japanese-special-attack", "units": {"jp-50-301": X, **KEEP}, "revealed": ["jp-50-301"]}
    first = formosa(store, {**position, "turn": 1, "air": {"mobile-fleet": 1}})
    assert first.refused("japanese", "sortie") == "Formosa 18.0: the mobile fleet may not sortie on GT 1"
    none = formosa(store, {**position, "turn": 3, "air": {"mobile-fleet": 0}})
    assert none.refused("japanese", "sortie") == "Formosa 18.0: the mobile fleet sortie marker has not been recruited"
    ready = formosa(store, {**position, "turn": 3, "air": {"mobile-fleet": 1}})
    assert ready.refused("japanese", "sortie").startswith("Formosa 16.6: the kamikaze attack is rolled first")


def test_f132_a_game_created_under_rules_15_refuses_the_early_sortie_by_the_sequence_as_played():
    state = GAME.initial_state("1", {"position": {"turn": 1, "phase": "japanese-special-attack", "units": KEEP,
                                                  "air": {"mobile-fleet": 1}}})
    old = played_under(GAME, state, "15")
    with pytest.raises(IllegalOrder) as refused:
        when(old, "japanese", "sortie")
    assert refused.value.case == "Formosa 6.1"


# -- 19.0 supply ---------------------------------------------------------------------------------------------
def test_19_4_air_supply_only_for_units_without_a_line_of_supply(store):
    near = str(next(n for n in M.neighbours(Hex.parse(PORT)) if D.is_land(n) and not M.features_of(n)))
    enemy = str(next(n for n in M.neighbours(Hex.parse(near)) if D.is_land(n) and n != Hex.parse(PORT)
                     and M.distance(n, Hex.parse(PORT)) == 2))
    units = {"us-eng-1": PORT, "us-7-17": near, "jp-guerrilla-1": enemy}
    game = formosa(store, {"phase": "allied-combat", "units": units, "bases": ["us-eng-1"], "revealed":
                           ["jp-guerrilla-1"], "air": {"air-supply": 1}})
    assert game.refused("allied", f"attack {enemy} with us-7-17 supply air").startswith("Formosa 19.4")


# -- orders the rules give one side only (ruling F133) ------------------------------------------------------
def test_f133_an_order_reserved_to_the_other_side_is_refused_by_the_case_that_reserves_it(store):
    """10.0, 16.4, 16.5, 21.0, 7.0, 22.0: the Allies' alone; 18.0: the Japanese fleet's; 16.3: ground support
    supports an attack only, so never the defender's. An order of one's own at the wrong moment kept 6.1 (until rules
    version 21: ruling F167 names the case that gives it its phase)."""
    units = {"jp-50-301": X, "us-7-17": AROUND[0]}
    game = formosa(store, {"phase": "japanese-combat", "revealed": ["jp-50-301"], "units": units,
                           "air": {"allied-tac": 4}, "missions": {"allied": {"tactical": 2}}})
    for side, order, says in (
            ("japanese", f"interdict {X} 1", "Formosa 16.4: only the Allied player conducts interdiction missions"),
            ("japanese", f"strike {AROUND[0]}", "Formosa 16.5: B-29 strikes are the Allied player's"),
            ("japanese", f"drop {X} with jp-50-301", "Formosa 10.0: only the Allied player conducts amphibious and "
                                                     "airborne invasions"),
            ("japanese", f"transfer jp-50-301 to {AROUND[2]}", "Formosa 21.0: naval transfer is the Allied player's"),
            ("japanese", f"build {X}", "Formosa 7.0: only the Allied player may build infrastructure (20.0: Allied "
                                       "engineers only)"),
            ("japanese", f"motorized {X}", "Formosa 22.0: motorized movement is the Allied player's"),
            ("allied", f"support {X} 1", "Formosa 16.3: ground support missions support an attack only; they are "
                                         "never used in the defence"),
            ("allied", "sortie", "Formosa 18.0: the mobile fleet sortie is the Japanese player's")):
        assert game.refused(side, order) == says, order
    # its own, not now: named by the case that gives it its phase since rules version 21 (ruling F167), else 6.1
    assert game.refused("japanese", f"move jp-50-301 {AROUND[2]}").startswith("Formosa 12.0")


def test_f133_a_game_created_under_rules_15_refuses_them_by_the_sequence_as_played():
    state = GAME.initial_state("1", {"position": {"turn": 4, "phase": "japanese-combat", "revealed": ["jp-50-301"],
                                                  "units": {"jp-50-301": X, "us-7-17": AROUND[0]}}})
    old = played_under(GAME, state, "15")
    with pytest.raises(IllegalOrder) as refused:
        when(old, "japanese", f"interdict {X} 1")
    assert refused.value.case == "Formosa 6.1"


# -- 23.0 guerrillas and the optional rules (25.5, 25.10) ----------------------------------------------------
def test_23_0_a_guerrilla_neither_must_attack_nor_binds_an_allied_unit_to_attack_it(store):
    units = {"jp-guerrilla-1": X, "us-7-17": AROUND[0], **KEEP}
    japanese = formosa(store, {"phase": "japanese-combat", "revealed": ["jp-guerrilla-1"], "units": units})
    japanese.do("japanese", "end")  # 15.0 item 1: guerrillas are not required to attack
    allied = formosa(store, {"phase": "allied-combat", "revealed": ["jp-guerrilla-1"], "units": units})
    allied.do("allied", "end")  # 14.0: guerrillas exert no ZOC, so nothing binds us-7-17 (14.2)


def test_25_5_the_97th_division_s_three_regiments_are_recruited_together(store):
    game = formosa(store, {"phase": "recruit-allied", "units": {"jp-50-301": X, **KEEP}, "revealed": ["jp-50-301"],
                           "lp": {"allied": 9, "japanese": 0}}, optional=["25.5"])
    assert game.refused("allied", "recruit us-97-303").startswith("Formosa 25.5")
    recruited = payloads(game.do("allied", "recruit us-97-303 us-97-386 us-97-387"), "UnitRecruited")
    assert len(recruited) == 3


def test_25_10_the_pw_camp_never_attacks_refused_by_25_10_and_need_not_attack_in_an_ezoc_f134(store):
    """Ruling F134 (rules version 16): the PW Camp's attack is refused by 25.10, the rule that forbids it, not by
    15.0's "has attacked or never attacks"; in an enemy ZOC it is static and need not attack (15.0 item 1)."""
    units = {"jp-pw-camp": "0916", "us-7-17": "0915", **KEEP}
    game = formosa(store, {"phase": "japanese-combat", "revealed": ["jp-pw-camp"], "units": units},
                   optional=["25.10"])
    assert game.refused("japanese", "attack 0915 with jp-pw-camp") == \
        "Formosa 25.10: jp-pw-camp: the PW Camp may never attack, even in an enemy ZOC"
    game.do("japanese", "end")


def test_f134_a_game_created_under_rules_15_refuses_the_camp_s_attack_by_15_0_as_played():
    state = GAME.initial_state("1", {"optional": ["25.10"], "position": {
        "turn": 4, "phase": "japanese-combat", "revealed": ["jp-pw-camp"],
        "units": {"jp-pw-camp": "0916", "us-7-17": "0915"}}})
    with pytest.raises(IllegalOrder) as refused:
        when(played_under(GAME, state, "15"), "japanese", "attack 0915 with jp-pw-camp")
    assert refused.value.case == "Formosa 15.0"
