"""Ichi-Go cases walked again against the text in issue 30's part 8 (rules version 10, ruling E38 of
docs/rulings/ichigo-engine.md): each order given as a player gives it, through the service, on a game made from a
position file; a game created under version 9 decides as it was played (docs/core.md "Rules versions")."""
import pytest
from ichigo_given import RULES, position
from test_ichigo_engine import us_ids

from app.service.games import GameError
from tests.fuzzing import refusal
from tests.served import Served

BEACHHEADS = {"formosa": "3221", "mainland": "1922"}
ALLIED = {"allied": ["1922"]}   # the mainland beachhead, Canton, no longer Japanese (4.4, ruling E53)


def ichigo(store, position: dict) -> Served:
    return Served(store, "ichigo", position, ("japanese", "allied"))


def us_turn_7(store, plan: str = "move-fight", phase: str = "II") -> Served:
    us = us_ids(1)[0]
    return ichigo(store, {"turn": 7, "phase": phase, "causeway": True, "beachheads": {"formosa": "3221"},
                          "plans": {"us": plan}, "units": {us: "3221", "jp-cea-110div": "2010"}})


def test_8_11_the_11th_airborne_does_not_drop_on_turn_7_and_the_refusal_names_8_11(store):
    game = us_turn_7(store)
    assert game.refused("allied", "drop 2011") == \
        "Ichi-Go 8.11: the 11th Airborne becomes available on Turn 8 (5.3 item 13)"
    assert game.refused("allied", "land us-11ab at 3221") == \
        "Ichi-Go 9.8: US divisions enter on Turn 7 only in the Phase I landing (5.3 item 4); later ones land at a " \
        "beachhead from Turn 8 (5.3 item 12, 8.11)"


def test_9_8_a_us_division_left_out_of_the_formosa_landing_does_not_land_in_the_turn_7_movement_phase(store):
    late = us_ids(10)[9]
    for plan, phase in (("move-fight", "II"), ("fight-move", "III")):
        game = us_turn_7(store, plan, phase)
        assert game.refused("allied", f"land {late} at 3221").startswith("Ichi-Go 9.8: US divisions enter on Turn 7 "
                                                                         "only in the Phase I landing")


def test_5_5_a_drop_an_airlift_or_a_move_in_the_us_combat_phase_is_refused_by_5_5(store):
    game = us_turn_7(store, "fight-move", "II")
    us = us_ids(1)[0]
    for order in ("drop 2011", f"move {us} to 3220", "airlift us-11ab to 2011"):
        assert game.refused("allied", order) == \
            "Ichi-Go 5.5: this us phase was declared for combat: units move in its movement phase"


def test_5_5_an_attack_in_a_phase_declared_for_movement_is_refused_by_5_5(store):
    game = ichigo(store, {"turn": 2, "phase": "VI", "plans": {"japanese": "move-fight"},
                          "units": {"jp-cea-110div": "2011", "cn-reg-09": "2012"}})
    assert game.refused("japanese", "attack 2012 with jp-cea-110div") == \
        "Ichi-Go 5.5: this japanese phase was declared for movement: attacks come in its combat phase"
    assert game.refused("allied", "attack 2011 with C01").startswith("Ichi-Go 5.1: it is japanese's turn")


def test_10_11_no_naval_transfer_before_turn_9(store):
    us = us_ids(2)
    game = ichigo(store, {"turn": 8, "phase": "I", "causeway": True, "beachheads": BEACHHEADS, "control": ALLIED,
                          "units": {us[0]: "3221", us[1]: "1922", "jp-cea-110div": "2010"}})
    assert game.refused("allied", f"transfer {us[0]}") == \
        "Ichi-Go 10.11: naval transfer from Turn 9, between the two beachheads"


def test_9_7_the_chinese_reinforcements_are_rolled_and_drawn_first_and_once(store):
    game = ichigo(store, {"turn": 2, "phase": "X", "units": {"jp-cea-110div": "2010"}})
    assert game.refused("allied", "end") == \
        "Ichi-Go 9.7: roll and draw this phase's Chinese reinforcements first (reinforce)"
    game.do("allied", "reinforce")
    assert game.refused("allied", "reinforce") == \
        "Ichi-Go 9.7: the Chinese reinforcements are rolled and drawn once a phase"


def test_8_11_the_same_drop_on_turn_8_is_taken(store):
    us = us_ids(1)[0]
    game = ichigo(store, {"turn": 8, "phase": "II", "causeway": True, "beachheads": BEACHHEADS, "control": ALLIED,
                          "plans": {"us": "move-fight"}, "units": {us: "3221", "jp-cea-110div": "2010"}})
    game.do("allied", "drop 2012")
    assert game.game.units["us-11ab"].hex == "2012"


def test_8_11_a_game_created_under_version_9_refuses_the_turn_7_drop_as_it_did():
    s = RULES.played_under(position({us_ids(1)[0]: "3221"}, turn=7, phase="II", plans={"us": "move-fight"},
                                    causeway=True, beachheads={"formosa": "3221"}), "9")
    assert refusal(RULES, s, "allied", "drop 2011").startswith("Ichi-Go 5.1: 'drop' is not allowed now")


def test_10_17_a_us_strategic_move_passes_and_ends_next_to_an_empty_garrisoned_japanese_city(store):
    # Ruling E39: 10.17 bars hexes next to Japanese units; an intrinsic garrison (11.29) is not one (11.29 sets it
    # apart from the Japanese units in its city). 3219 and 3218 touch Tainan-side cities 3319 and 3119, Japanese,
    # empty and garrisoned; entering such a city stays barred (a Japanese-controlled city, 10.17; E5).
    us = us_ids(1)[0]
    game = ichigo(store, {"turn": 8, "phase": "II", "causeway": True, "beachheads": BEACHHEADS, "control": ALLIED,
                          "plans": {"us": "move-fight"}, "units": {us: "3221", "jp-cea-110div": "2010"}})
    assert game.refused("allied", f"move {us} to 3319 strategic").startswith("Ichi-Go 10.17: ")
    game.do("allied", f"move {us} to 3218 via 3220 3219 strategic")
    assert game.game.units[us].hex == "3218"


def test_10_17_a_us_stack_next_to_an_empty_garrisoned_japanese_city_may_start_a_strategic_move(store):
    us, held = us_ids(2)                                                  # `held` keeps the beachhead Allied
    game = ichigo(store, {"turn": 8, "phase": "II", "causeway": True, "beachheads": BEACHHEADS, "control": ALLIED,
                          "plans": {"us": "move-fight"}, "units": {us: "3219", held: "3221", "jp-cea-110div": "2010"}})
    game.do("allied", f"move {us} to 3120 strategic")
    assert game.game.units[us].hex == "3120"


def test_5_5_before_causeway_the_allied_player_declaring_the_chinese_order_is_refused_by_5_5(store):
    game = ichigo(store, {"turn": 2, "phase": "VIII", "plans": {"japanese": "move-fight"},
                          "units": {"jp-cea-110div": "2010", "cn-reg-02": "2012"}})
    assert game.refused("allied", "declare chinese move-fight") == \
        "Ichi-Go 5.5: the japanese player declares the chinese order"
    assert game.refused("allied", "declare us move-fight") == "Ichi-Go 5.5: the us order is not declared now"
    assert game.refused("allied", "move C01 to 2013").startswith("Ichi-Go 5.1: it is japanese's turn")
    game.do("japanese", "declare chinese fight-move")
    assert game.game.plans["chinese"] == "fight-move"


def test_5_5_after_causeway_the_japanese_player_declaring_the_chinese_order_is_refused_by_5_5(store):
    game = ichigo(store, {"turn": 8, "phase": "VIII", "causeway": True, "beachheads": BEACHHEADS, "control": ALLIED,
                          "plans": {"japanese": "move-fight", "us": "move-fight"},
                          "units": {"jp-cea-110div": "2010", "cn-reg-02": "2012", us_ids(1)[0]: "3221"}})
    assert game.refused("japanese", "declare chinese move-fight") == \
        "Ichi-Go 5.5: the allied player declares the chinese order"


def test_5_5_a_game_created_under_version_9_refuses_the_wrong_declarer_by_5_1_as_it_did():
    s = RULES.played_under(position({"jp-cea-110div": "2010"}, phase="VIII", plans={"japanese": "move-fight"}), "9")
    assert refusal(RULES, s, "allied", "declare chinese move-fight").startswith("Ichi-Go 5.1: it is japanese's turn")


# -- 11.8, 11.9: shifts past the table's ends (ruling R26: the raw odds are read on the table first) -----------
def battle(events) -> dict:
    [b] = [e.payload for e in events if e.type == "ichigo.BattleResolved"]
    return b


def japanese_attack(store, attackers: dict, defenders: dict, order: str) -> dict:
    game = ichigo(store, {"turn": 2, "phase": "VI", "plans": {"japanese": "fight-move"},
                          "units": {**attackers, **defenders}})
    return battle(game.do("japanese", order))


def test_11_8_raw_odds_above_10_to_1_are_read_on_the_end_column_before_a_rough_hexs_shift(store):
    b = japanese_attack(store, {"jp-cea-110div": "1813", "jp-cea-116div": "1813", "jp-cea-13div": "1813"},
                        {"cn-reg-09": "1814"}, "attack 1814 with jp-cea-110div jp-cea-116div jp-cea-13div")
    assert (b["attack"], b["defence"], b["odds"]) == (12, 1, "12:1")
    assert b["shifts"] == ["1L (Ichi-Go 11.11: defender in rough)"] and b["column"] == "9:1"


def test_11_8_raw_odds_below_1_to_5_are_read_on_the_end_column_before_a_tank_regiments_shift(store):
    b = japanese_attack(store, {"jp-cea-2bde": "2011"},
                        {"cn-reg-02": "2012", "cn-reg-07": "2012", "cn-reg-24": "2012", "cn-reg-33": "2012"},
                        "attack 2012 with jp-cea-2bde tanks 1")
    assert (b["attack"], b["defence"], b["odds"]) == (2, 17, "1:9")
    assert b["column"] == "1:4"


def test_11_8_a_shift_past_the_right_end_stays_on_the_end_column(store):
    b = japanese_attack(store, {"jp-cea-110div": "2011", "jp-cea-116div": "2011", "jp-cea-13div": "2011"},
                        {"cn-reg-09": "2012"}, "attack 2012 with jp-cea-110div jp-cea-116div jp-cea-13div tanks 3")
    assert b["odds"] == "12:1" and b["column"] == "≥10:1"


def test_11_8_a_shift_past_the_left_end_stays_on_the_end_column(store):
    b = japanese_attack(store, {"jp-cea-2bde": "1913"},
                        {"cn-reg-02": "1914", "cn-reg-07": "1914", "cn-reg-24": "1914", "cn-reg-33": "1914"},
                        "attack 1914 with jp-cea-2bde")
    assert b["odds"] == "1:9" and b["shifts"] == ["2L (Ichi-Go 11.12: defender in mountain)"]
    assert b["column"] == "≤1:5"


# -- 11.24: advance after combat. Three divisions (12) on a one-step regular (1): 12:1, read on the >=10:1 column
# (9:1 in a city), where every die takes the defender's only step and none of the attacker's -------------------
def emptied(store, attackers: dict, defender_hex: str, order: str) -> Served:
    game = ichigo(store, {"turn": 2, "phase": "VI", "plans": {"japanese": "fight-move"},
                          "units": {**attackers, "cn-reg-09": defender_hex}})
    b = battle(game.do("japanese", order))
    assert b["attacker_losses"] == 0 and not game.game.at(defender_hex)
    return game


THREE = ("jp-cea-110div", "jp-cea-116div", "jp-cea-13div")


def test_11_24_only_the_surviving_attackers_advance_and_never_beyond_the_stacking_limit(store):
    six = {"jp-cea-110div": "2011", "jp-cea-116div": "2011", "jp-cea-13div": "2011", "jp-cea-3div": "2013",
           "jp-cea-58div": "2013", "jp-cea-26div": "2013", "jp-cea-37div": "2011"}   # 24 on 1
    game = emptied(store, six, "2012", "attack 2012 with jp-cea-110div jp-cea-116div jp-cea-13div jp-cea-3div "
                                        "jp-cea-58div jp-cea-26div")
    assert game.refused("japanese", "advance jp-cea-37div").startswith(
        "Ichi-Go 11.24: only surviving attackers advance: ")
    assert game.refused("japanese", "advance jp-cea-110div jp-cea-116div jp-cea-13div jp-cea-3div jp-cea-58div "
                                    "jp-cea-26div") == "Ichi-Go 11.24: Japanese units: 6 stacked in 2012, limit 5"
    game.do("japanese", "advance jp-cea-110div jp-cea-3div")
    units = game.game.units
    assert (units["jp-cea-110div"].hex, units["jp-cea-3div"].hex, units["jp-cea-116div"].hex) == \
        ("2012", "2012", "2011")


def test_11_24_an_advance_is_optional_and_must_come_before_any_other_attack(store):
    game = emptied(store, {**dict.fromkeys(THREE, "2011"), "jp-cea-3div": "2011", "jp-cea-58div": "2013"}, "2012",
                   f"attack 2012 with {' '.join(THREE)}")
    assert game.refused("japanese", "attack 2014 with jp-cea-58div").startswith(  # 5.1 before version 16 (E56)
        "Ichi-Go 11.4: the resolution of one attack is completed before anything else; 'attack' is not allowed now")
    game.do("japanese", "stay")
    assert game.game.units["jp-cea-110div"].hex == "2011" and not game.game.pending


def test_11_24_3_5_an_advance_into_an_emptied_chinese_city_takes_it(store):
    game = emptied(store, {"jp-cea-26div": "1901", "jp-cea-37div": "1901", "jp-cea-62div": "1901"}, "1801",
                   "attack 1801 with jp-cea-26div jp-cea-37div jp-cea-62div")
    assert "1801" not in game.game.jp_control
    game.do("japanese", "advance jp-cea-26div")
    assert game.game.units["jp-cea-26div"].hex == "1801" and "1801" in game.game.jp_control


def test_2_14_a_position_naming_a_zero_strength_regular_on_the_map_is_refused(store):
    # Ruling E41: it would stand face up and defend with 0 (the attack read on the <=1:5 column); in play it leaves
    # the map the moment it is revealed (11.27), so no game reaches that state.
    with pytest.raises(GameError) as refused:
        ichigo(store, {"turn": 2, "phase": "VI", "units": {"jp-cea-110div": "2011", "cn-reg-04": "2012"}})
    assert str(refused.value) == "cannot start ichigo: position: cn-reg-04: a zero-strength regular is removed the " \
                                 "moment it is revealed (2.14, 11.27): it never stands on the map face up"


def test_2_14_a_game_created_under_version_9_reads_the_zero_as_given():
    from app.rules.ichigo import GAME
    s = GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "VI",
                                                     "units": {"jp-cea-110div": "2011", "cn-reg-04": "2012"}}}, "9")
    assert [u.ref for u in s.at("2012")] == ["cn-reg-04"]


# -- 9.1: Japanese reinforcements: the turn on the counter, the north-edge sources, the rail cities -------------
def phase_v(store, turn: int = 2, units: dict | None = None, japanese: tuple = ()) -> Served:
    return ichigo(store, {"turn": turn, "phase": "V", "units": units or {"jp-cea-110div": "1701"},
                          "control": {"japanese": list(japanese)}})


def test_9_1_a_reinforcement_enters_at_a_north_edge_source_on_its_turn_and_not_before(store):
    game = phase_v(store)
    assert game.refused("japanese", "enter jp-cea-22div at 1401") == \
        "Ichi-Go 9.1: jp-cea-22div is not a reinforcement available this turn"      # its counter says Turn 3
    for south in ("0925", "1024"):
        assert game.refused("japanese", f"enter jp-cea-27div at {south}") == \
            f"Ichi-Go 9.1: jp-cea-27div may not enter at {south}"
    game.do("japanese", "enter jp-cea-27div at 1401")
    assert game.game.units["jp-cea-27div"].hex == "1401"


def test_9_1_a_reinforcement_may_be_delayed_to_a_later_turn(store):
    game = phase_v(store, turn=3)                                # 27th Division due on Turn 2, still waiting
    game.do("japanese", "enter jp-cea-27div jp-cea-22div at 1501")
    assert game.game.units["jp-cea-27div"].hex == game.game.units["jp-cea-22div"].hex == "1501"


def test_9_1_rail_entry_needs_japanese_railroad_hexes_all_the_way_back_to_1801(store):
    held = ("1801", "1802", "1803", "1804", "1805")                 # 3.5: at start 1801-1805 are Chinese
    game = phase_v(store, japanese=held, units={"jp-cea-110div": "1701", "cn-reg-02": "1911"})
    game.do("japanese", "enter jp-cea-27div at 1811")             # a rail city next to a Chinese unit: allowed
    assert game.game.units["jp-cea-27div"].hex == "1811"
    cut = phase_v(store, japanese=held[:2] + held[3:])            # 1803 Chinese: no path back to 1801
    assert cut.refused("japanese", "enter jp-cea-27div at 1811") == "Ichi-Go 9.1: jp-cea-27div may not enter at 1811"
    assert phase_v(store).refused("japanese", "enter jp-cea-27div at 1811") == \
        "Ichi-Go 9.1: jp-cea-27div may not enter at 1811"          # ruling R21: 1801 is Chinese at the start


def test_6_2_a_reinforcement_entry_that_overstacks_its_hex_is_refused_naming_the_japanese_limit(store):
    five = {u: "1401" for u in ("jp-cea-110div", "jp-cea-116div", "jp-cea-13div", "jp-cea-3div", "jp-cea-58div")}
    game = phase_v(store, units=five)
    assert game.refused("japanese", "enter jp-cea-27div at 1401") == \
        "Ichi-Go 6.2: Japanese units: 6 stacked in 1401, limit 5"


def test_11_29_11_24_chinese_attackers_who_destroy_an_intrinsic_garrison_may_advance_and_capture_the_city(store):
    # 17 Chinese factors on the garrison's 1 (11.29), 1L for the city: 9:1, where every die takes its only step;
    # the Chinese pay their one step at least (11.23), then the survivors may take the city (11.24, 3.5).
    game = ichigo(store, {"turn": 2, "phase": "VIII", "plans": {"japanese": "move-fight", "chinese": "fight-move"},
                          "units": {"jp-cea-110div": "1701", "cn-reg-02": "1810", "cn-reg-07": "1810",
                                    "cn-reg-24": "1911", "cn-reg-33": "1911"}})
    assert "1811" in game.game.jp_control
    handles = sorted(u.id for u in game.game.on_map("allied"))
    b = battle(game.do("allied", f"attack 1811 with {' '.join(handles)}"))
    assert (b["attack"], b["defence"], b["column"]) == (17, 1, "9:1") and b["attacker_losses"] >= 1
    while game.game.pending and game.game.pending[0]["kind"] == "losses":
        game.do("allied", f"lose {game.game.pending[0]['data']['units'][0]}")
    pending = game.game.pending[0]
    assert pending["kind"] == "advance" and pending["data"]["hex"] == "1811"
    mover = pending["data"]["units"][0]
    game.do("allied", f"advance {mover}")
    assert game.game.units[mover].hex == "1811" and "1811" not in game.game.jp_control


def test_9_1_an_allied_unit_in_a_north_edge_hex_closes_it_to_entry(store):
    game = phase_v(store, units={"jp-cea-110div": "1701", "cn-reg-02": "1401"})
    assert game.refused("japanese", "enter jp-cea-27div at 1401") == "Ichi-Go 9.1: jp-cea-27div may not enter at 1401"
    game.do("japanese", "enter jp-cea-27div at 1501")
    assert game.game.units["jp-cea-27div"].hex == "1501"


def test_9_7_a_drawn_counter_goes_to_a_held_initially_chinese_city_even_one_ringed_by_japanese_units(store):
    ring = {u: h for u, h in zip(("jp-cea-110div", "jp-cea-116div", "jp-cea-13div", "jp-cea-3div", "jp-cea-58div",
                                  "jp-cea-26div"), ("1614", "1615", "1714", "1716", "1814", "1815"), strict=True)}
    game = ichigo(store, {"turn": 2, "phase": "X", "units": ring, "control": {"japanese": ["1801"]}})
    game.do("allied", "reinforce")
    drawn = sorted(u.id for u in game.game.units.values() if u.status == "drawn")
    assert game.refused("allied", f"place {drawn[0]} at 1801") == \
        "Ichi-Go 9.7: 1801 is not an initially Chinese city still under Chinese control"
    assert game.refused("allied", f"place {drawn[0]} at 1906").startswith("Ichi-Go 9.7: ")   # a Japanese city
    game.do("allied", f"place {drawn[0]} at 1715")                # Hengyang, every hex around it Japanese
    assert game.game.units[drawn[0]].hex == "1715"
