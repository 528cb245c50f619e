"""Ichi-Go read again, case by case (session part 17; docs/rulings/ichigo-engine.md E57-E59): an order whose moment is
now but whose one chance is spent is refused by the case that limits it, saying so (E56's table answered with the
moment, "placed at the start of a game turn", at the start of a game turn; E57); an order naming nothing where its
rule asks for units or hexes is refused by that rule, not the parser (E58); the Japanese deciding on tank regiments
read the odds they would shift (E59); the rulebook's own example of 11.2 on its own hexes; a defence of 0 never
reaches the combat results table (11.27, E12). Refusals and prompts only: no rules version."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, position, then

from app.rules.ichigo import combat
from app.rules.ichigo.data_load import load
from app.rules.ichigo.state import _unit, raw_unit
from tests.fuzzing import refusal

UNIT = "jp-cea-3div"


def test_5_2_8_9_e57_a_second_causeway_check_or_b29_roll_in_the_turn_names_the_one_it_was():
    turn7 = position({UNIT: "1902"}, turn=7, phase="start")
    philippines = then(turn7, "allied", "roll", rolls=[1])
    assert philippines.causeway is False
    assert refusal(RULES, philippines, "allied", "roll") == (
        "Ichi-Go 5.2: only one check of the Causeway or Philippines Table a game, and it is made: the US invades the "
        "Philippines")
    launched = then(turn7, "allied", "roll", rolls=[6])
    assert refusal(RULES, launched, "allied", "b29 2008") == (
        "Ichi-Go 8.9: roll for this turn's B-29 raid first: on a 1-3 the Allied player may place the marker")
    raid = then(launched, "allied", "roll", rolls=[2])
    assert refusal(RULES, raid, "allied", "roll") == (
        "Ichi-Go 8.9: the B-29 roll is made once at the start of each turn after Causeway, and this turn's is made "
        "(a raid)")
    placed = then(raid, "allied", "b29 2008")
    assert refusal(RULES, placed, "allied", "b29 3106") == \
        "Ichi-Go 8.9: the B-29 marker is on 2008 this turn: one marker"
    denied = then(launched, "allied", "roll", rolls=[4])
    assert refusal(RULES, denied, "allied", "b29 2008") == "Ichi-Go 8.9: this turn's B-29 roll gave no raid (a 4-6)"


def test_8_9_e57_without_causeway_the_one_b29_raid_of_the_game_once_made_is_refused_saying_so():
    used = position({UNIT: "1902"}, turn=4, phase="start", b29_used=True)
    assert refusal(RULES, used, "allied", "b29 2008") == (
        "Ichi-Go 8.9: without Causeway the Allied player makes one B-29 raid a game, and it has been made")
    assert refusal(RULES, replace(used, b29_used=False), "allied", "b29 2008") is None


def test_8_1_e57_the_airpower_roll_is_made_once_by_the_japanese_roll_for_both_players():
    before = position({}, turn=3, phase="IV")
    assert refusal(RULES, before, "allied", "roll") == (
        "Ichi-Go 8.1: both players roll, and the Japanese player's `roll` makes both rolls (ruling E7)")
    rolled = position({}, turn=3, phase="IV", air_rolled=True, air_side="japanese")
    assert refusal(RULES, rolled, "japanese", "roll") == (
        "Ichi-Go 8.1: both players roll once at the start of the Airpower Phase (a tie is rerolled in that roll), and "
        "this turn's roll is made")


def test_9_2_e57_the_turn_5_withdrawal_comes_before_any_other_phase_v_order_and_once():
    s = position({UNIT: "2010", "jp-cea-13div": "2011"}, turn=5, phase="V")
    for text in ("end", "enter jp-cea-3bde at 1901"):
        assert refusal(RULES, s, "japanese", text).startswith(
            "Ichi-Go 9.2: the Japanese player withdraws two divisions at the start of Turn 5's Phase V, before "
            f"anything else; '{text.split()[0]}' is not allowed now (Turn 5, Phase V (Japanese reinforcement): "
            "withdrawal (9.2)); allowed: withdraw")
    done = then(position({UNIT: "2010", "jp-cea-13div": "2011", "jp-cea-110div": "2012"}, turn=5, phase="V"),
                "japanese", f"withdraw {UNIT} jp-cea-13div")
    assert refusal(RULES, done, "japanese", "withdraw jp-cea-110div") == \
        "Ichi-Go 9.2: two divisions are withdrawn once, at the start of Turn 5's Phase V, and they are"
    assert refusal(RULES, position({}, turn=5, phase="V"), "japanese", "withdraw jp-cea-110div") == (
        "Ichi-Go 9.2: no full-strength 4-factor division under 101, reduced division or brigade is in supply to "
        "withdraw (ruling E8)")


def test_9_3_9_4_5_3_e57_the_formosa_garrison_comes_over_once_and_the_14aa_roll_once_a_phase_v():
    turn9 = then(position({UNIT: "1902"}, turn=9, phase="V", causeway=False), "japanese",
                 "release jp-fg-50div jp-fg-66div")
    assert refusal(RULES, turn9, "japanese", "release jp-fg-9div jp-fg-12div") == (
        "Ichi-Go 9.3: two of the four Formosa Garrison divisions come over, once: jp-fg-50div, jp-fg-66div came")
    after = dict(turn=8, phase="V", causeway=True, beachheads={"formosa": "3221"})
    assert refusal(RULES, position({UNIT: "1902"}, aa14_turn=8, **after), "japanese", "ship") == (
        "Ichi-Go 9.4: the 14AA roll is made once a Phase V, and this one's is made")
    assert refusal(RULES, position({UNIT: "1902"}, aa14_closed=True, **after), "japanese", "ship") == (
        "Ichi-Go 5.3: item 8: a 0 on the 14AA roll ended 14AA arrivals for the rest of the game")


@pytest.mark.parametrize(("spent", "why"), [
    ({"airdropped": True}, "the 11th Airborne makes one airdrop a game, and it has made it"),
    ({"airlift_turn": 9}, "the drop uses up the turn's one-unit airlift (8.10), spent this turn"),
    ({"aerial_turn": 9}, "the drop uses up the turn's US Aerial Supply Marker (7.8), placed this turn"),
])
def test_8_11_e57_the_11th_airborne_drops_once_a_game_and_not_once_the_turns_airlift_or_marker_is_spent(spent, why):
    s = position({"us-1c": "2010", UNIT: "2110"}, turn=9, phase="II", plans={"us": "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"}, **spent)
    assert refusal(RULES, s, "allied", "drop 2012") == f"Ichi-Go 8.11: {why}"
    fresh = position({"us-1c": "2010", UNIT: "2110"}, turn=9, phase="II", plans={"us": "move-fight"}, causeway=True,
                     beachheads={"formosa": "3221", "mainland": "1922"})
    assert refusal(RULES, fresh, "allied", "drop 2012") is None


def test_5_3_9_8_e57_a_landing_in_phase_i_after_turn_8_is_refused_saying_where_later_divisions_land():
    later = position({"us-1c": "3221"}, turn=10, phase="I", causeway=True,
                     beachheads={"formosa": "3221", "mainland": "1922"})
    assert refusal(RULES, later, "allied", "land us-24th at 1922") == (
        "Ichi-Go 5.3: the US landings are made in Phase I of Turns 7 (Formosa) and 8 (the mainland); later US "
        "divisions land at a beachhead in a US Movement Phase (9.8, 8.11)")

def test_11_2_the_rules_example_a_unit_in_2611_attacks_2610_or_2711_never_both_in_one_attack():
    s = position({UNIT: "2611"}, phase="VI", plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "2610", tried=True), chinese("C02", "cn-reg-07", "2711",
                                                                                  tried=True)))
    assert refusal(RULES, s, "japanese", f"attack 2610 2711 with {UNIT}") == \
        "Ichi-Go 11.2: only one hex may be the object of an attack: attack each hex by its own order"
    assert refusal(RULES, s, "japanese", f"attack 2610 with {UNIT}") is None
    assert refusal(RULES, s, "japanese", f"attack 2711 with {UNIT}") is None


def test_11_27_e12_no_unit_that_stands_tried_on_the_map_defends_with_0_so_no_defence_of_0_reaches_the_crt():
    d = load()
    for raw in d.units:
        if "strength" not in raw:
            continue  # 2.13, 11.28: the tank regiments and the 1st SF Group are never on the map: a shift, no factor
        if raw.get("placement") == "draw-pool" and int(raw["strength"][0]) == 0:
            continue  # 2.14, 11.27: revealed, it leaves the map at once (a position may not name it, E41)
        for steps in range(1, int(raw["steps"]) + 1):
            u = replace(_unit(raw), steps=steps)
            assert u.factor("defence") >= 1, (raw["id"], steps)
    # the one defender that is no unit, the intrinsic garrison of 11.29, defends with 1
    s = position({}, phase="IX", plans={"chinese": "move-fight"}, extra=(chinese("C01", "cn-reg-02", "2007"),))
    assert combat.assess(s, "allied", "2008", [replace(s.units["C01"], tried=True)], [], 0, False)["defence"] == 1
    assert raw_unit(d, "cn-reg-02")["strength"][0] > 0


def test_8_2_9_2_9_3_11_20_11_24_5_3_e58_an_order_naming_nothing_where_its_rule_asks_for_it_is_refused_by_the_rule():
    """Issue 30: the parser said "cannot read order 'air': HEX missing ...; expected 'air HEX [HEX ...]'" where a rule
    forbids the order: placing none of the markers won (8.2: all are placed), withdrawing none (9.2: two must go),
    losing none of the steps a result calls for (11.20), releasing none of the Formosa Garrison (9.3: two), landing
    no division (5.3); advancing none is `stay` (11.24). Each is refused by its case, and nothing happens."""
    air = then(position({}, phase="IV", turn=3), "japanese", "roll", rolls=[6, 2])
    assert refusal(RULES, air, "japanese", "air") == \
        "Ichi-Go 8.2: all the airpower markers won are placed, one per hex: name a hex for each"
    turn5 = position({UNIT: "2010", "jp-cea-13div": "2011"}, turn=5, phase="V")
    assert refusal(RULES, turn5, "japanese", "withdraw") == \
        "Ichi-Go 9.2: the Japanese player must withdraw two divisions (or their fallbacks): name them"
    battle = then(position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"},
                           extra=(chinese("C01", "cn-reg-02", "2011", tried=True),)),
                  "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[6])      # 2:1, a 6: 2/4
    assert battle.pending[0]["kind"] == "losses"
    assert refusal(RULES, battle, "japanese", "lose") == \
        "Ichi-Go 11.20: the steps the result calls for are lost: name a unit for each step (twice for two)"
    assert refusal(RULES, battle, "japanese", "lose 110div").startswith("cannot read order 'lose 110div': no unit")
    advance = then(battle, "japanese", "lose jp-cea-110div jp-cea-26div")
    assert advance.pending[0]["kind"] == "advance"
    assert refusal(RULES, advance, "japanese", "advance") == \
        "Ichi-Go 11.24: name the units that advance; `stay` advances none (an advance is an option)"
    turn9 = position({}, turn=9, phase="V", causeway=False)
    assert refusal(RULES, turn9, "japanese", "release") == \
        "Ichi-Go 9.3: two of the four Formosa Garrison divisions come over: name two"
    landing = position({}, turn=7, phase="I", causeway=True)
    for text in ("land", "land at 3221"):
        assert refusal(RULES, landing, "allied", text) == (
            "Ichi-Go 5.3: a landing brings US divisions ashore, up to eight (items 4 and 12, mandatory on their "
            "turns): name the divisions that land")


def test_11_17_6_6_e59_the_japanese_deciding_on_tank_regiments_read_the_odds_they_would_shift():
    """Announced before the Allied die (11.17), after the attack's odds were computed and its stacks examined (6.6):
    the decision says the attack's strength, odds and column, and what each regiment does, naming no attacker."""
    s = position({"jp-cea-110div": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-02", "2010", tried=True), chinese("C02", "cn-reg-07", "2012",
                                                                                  tried=True)))
    s = then(s, "allied", "attack 2011 with C01 C02")
    owed = RULES.prompt(s).owed
    assert owed.amount == ("0 to 1 regiment(s); the attack stands at 8:4 = 2:1 -> 2:1 on the chinese line (no "
                           "shifts); each regiment committed shifts it one column left")
    assert "C01" not in owed.text() and "C02" not in owed.text()
