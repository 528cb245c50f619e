"""Ichi-Go read again for what the players read (session part 17; docs/rulings/ichigo-engine.md E60-E65): the view
shows what the rules put in front of both players, the running Japanese VP tally (4.2, 4.3), the US Aerial Supply
Marker (7.8), whether the one B-29 raid, the one China Collapse roll, the turn's airlift, the one airdrop and the 14AA
arrivals are spent (8.9, 4.1, 8.10, 8.11, 5.3 item 8), and the airpower roll's history line names its modifiers (8.1,
8.7): rules version 17 (E60); a second attack by a unit is refused saying when a unit attacks again (11.25, E61); the
Chinese reinforcement roll says why it is halved (9.7, E62); the `roll` offered says what it rolls for (E64), and the
momentum attack what 11.25 allows (E65)."""
from dataclasses import replace

from ichigo_given import RULES, chinese, ev, of, position, then, when

from app.rules.ichigo.view import view
from tests.fuzzing import refusal

UNIT = "jp-cea-3div"
TABLE = ("victory", "aerial_supply", "b29_raid", "china_collapse_rolled", "airlift_used_this_turn", "airborne_dropped",
         "aa14_closed")


def test_4_2_4_3_7_8_8_9_4_1_e60_the_view_shows_both_players_the_vp_tally_aerial_supply_and_chances_spent():
    stack = (chinese("C01", "cn-reg-49", "1903"), chinese("C02", "cn-reg-02", "1903"))
    s = position({UNIT: "0815"}, turn=4, extra=stack, b29_used=True, collapse_checked=True)
    shown = view(s, "allied")
    assert {k: shown[k] for k in TABLE} == {
        "victory": {"case": "Ichi-Go 4.2", "vp": 1, "counted": ["Japanese within 5 hexes of Chungking"],
                    "outcome_now": "allied", "last_turn": 9},
        "aerial_supply": {"hex": None, "placed_this_turn": False},
        "b29_raid": {"once_a_game": True, "made": True}, "china_collapse_rolled": True,
        "airlift_used_this_turn": False, "airborne_dropped": False, "aa14_closed": False}
    # 6.6: the table beside the map is the same for both players and a spectator; the stacks stay hidden
    assert all({k: view(s, side)[k] for k in TABLE} == {k: shown[k] for k in TABLE} for side in ("japanese", None))
    assert [st["hidden"] for st in view(s, "japanese")["stacks"] if st["hex"] == "1903"] == [1]
    launched = replace(s, turn=8, causeway=True, beachheads={"formosa": "3221"}, b29_rolled=8, b29_ok=True,
                       aerial_hex="3220", aerial_turn=8, airlift_turn=8, airdropped=True, aa14_closed=True)
    shown = view(launched, "japanese")
    assert [shown[k] for k in TABLE[-3:]] == [True, True, True]  # 8.10, 8.11, 5.3 item 8
    assert shown["victory"] == {"case": "Ichi-Go 4.3", "vp": -2,
                                "counted": ["-1 no Japanese on Formosa", "-1 Allies control 1801"],
                                "outcome_now": "allied", "last_turn": 12}
    assert (shown["aerial_supply"], shown["b29_raid"]) == ({"hex": "3220", "placed_this_turn": True},
                                                           {"once_a_game": False, "this_turn": "raid"})
    assert view(replace(launched, b29_ok=False), "allied")["b29_raid"] == {"once_a_game": False, "this_turn": "no raid"}
    assert not set(TABLE) & set(view(replace(s, rules_version=16), "allied"))  # a version 16 game is shown as it was


def test_8_1_8_7_e60_the_airpower_roll_names_each_die_and_its_modifiers():
    turn1 = when(position({}, turn=1, phase="IV", control=frozenset({"1123", "1220", "1418"})), "japanese", "roll",
                 rolls=[3, 2])
    assert [e.describe() for e in of(turn1, ev.AirpowerRolled)] == [
        "airpower: Japanese die 3, +1 Turn 1 (8.1) = 4, Allied die 2, -1 5 of 8 USAAF airbases (8.7) = 1 -> "
        "japanese get 3"]
    turn7 = when(position({}, turn=7, phase="IV", causeway=False), "japanese", "roll", rolls=[1, 4])
    assert [e.describe() for e in of(turn7, ev.AirpowerRolled)] == [
        "airpower: Japanese die 1, -2 Turn 7 (8.1), not below 0 (8.1) = 0, Allied die 4 = 4 -> allied get 4"]
    old = when(position({}, turn=1, phase="IV", rules_version=16), "japanese", "roll", rolls=[3, 2])
    assert [e.describe() for e in of(old, ev.AirpowerRolled)] == ["airpower: Japanese 4, Allied 2 -> japanese get 2"]


def _after_a_japanese_attack(turn: int):
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"}, turn=turn, phase="VI",
                 plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True),
                        chinese("C02", "cn-reg-02", "2110", tried=True)))
    return then(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[2])


def test_11_3_11_25_e61_a_second_attack_is_refused_saying_when_a_unit_attacks_again():
    early = then(_after_a_japanese_attack(2), "japanese", "stay")
    assert refusal(RULES, early, "japanese", "attack 2110 with jp-cea-110div") == (
        "Ichi-Go 11.3: jp-cea-110div has already attacked this phase; a Japanese unit attacks again only in a "
        "momentum attack, right after it advances after combat in supply, on Turns 1-6 (11.25)")
    late = then(_after_a_japanese_attack(7), "japanese", "stay")
    assert refusal(RULES, late, "japanese", "attack 2110 with jp-cea-110div") == (
        "Ichi-Go 11.3: jp-cea-110div has already attacked this phase; Japanese momentum attacks end with Turn 6 "
        "(11.25), so a unit attacks once a phase")
    chinese_unit = replace(chinese("C01", "cn-reg-49", "2011", tried=True), attacked=True)
    s = position({"jp-cea-3bde": "2010"}, phase="VIII", plans={"chinese": "fight-move"}, extra=(chinese_unit,))
    assert refusal(RULES, s, "allied", "attack 2010 with C01") == (
        "Ichi-Go 11.3: C01 has already attacked this phase; Chinese units attack once a combat phase and never make "
        "momentum attacks (11.0, 11.25)")
    s = position({"jp-cea-3bde": "2010", "us-7th": "2011"}, turn=8, phase="II", causeway=True,
                 plans={"us": "fight-move"})
    s = replace(s, units={**s.units, "us-7th": replace(s.units["us-7th"], attacked=True)})
    assert refusal(RULES, s, "allied", "attack 2010 with us-7th") == (
        "Ichi-Go 11.3: us-7th has already attacked this phase; a US unit attacks again only in a momentum attack, "
        "right after it advances after combat while tracing supply to a beachhead (11.25)")


def test_9_7_e62_the_chinese_reinforcement_roll_says_why_it_is_halved():
    s = position({}, phase="X")
    halved = when(replace(s, jp_control=s.jp_control | s.data.feature("airbase")), "allied", "reinforce",
                  rolls=[5, 1, 1, 1])
    assert [e.describe() for e in of(halved, ev.ChineseReinforcementRolled)] == [
        "Chinese reinforcements (9.7): die 5, halved and rounded up as every USAAF airbase is Japanese -> 3"]
    whole = when(s, "allied", "reinforce", rolls=[2, 1, 1])
    assert [e.describe() for e in of(whole, ev.ChineseReinforcementRolled)] == [
        "Chinese reinforcements (9.7): die 2 -> 2"]


def test_5_2_8_9_8_1_e64_the_roll_offered_says_what_it_rolls_for_at_each_moment():
    def roll(s):
        return next((a.case, a.help) for a in RULES.prompt(s).actions if a.name == "roll")

    after = position({UNIT: "1902"}, turn=8, phase="start", causeway=True, beachheads={"formosa": "3221"})
    assert roll(after) == roll(position({UNIT: "1902"}, turn=7, phase="start")) == (
        "Ichi-Go 5.2", "roll: at the start of Turn 7 the Causeway or Philippines check (5.2); once Causeway is "
                       "launched, this turn's B-29 roll, a raid on 1-3 (8.9)")
    assert roll(position({UNIT: "1902"}, turn=3, phase="IV")) == (
        "Ichi-Go 8.1", "roll for airpower: the Japanese player's roll makes both players' dice (ruling E7), the "
                       "difference in markers to the higher (8.1, 8.7)")


def test_11_25_11_28_e65_the_momentum_attack_offered_says_what_11_25_allows():
    momentum = then(_after_a_japanese_attack(2), "japanese", "advance jp-cea-110div")
    assert [(a.case, a.help) for a in RULES.prompt(momentum).actions if a.name == "attack"] == [
        ("Ichi-Go 11.25", "a momentum attack, now or never: units that advanced, from the hex just taken against one "
                          "adjacent enemy hex; no tank regiments or 1st SF (11.25, 11.28)")]
    assert refusal(RULES, momentum, "japanese", "attack 2110 with jp-cea-110div tanks 1") == (  # version 18: E66
        "Ichi-Go 11.25: tank regiments and the 1st SF never join momentum attacks: give the attack without 'tanks', "
        "not even 'tanks 0'")
    assert refusal(RULES, momentum, "japanese", "attack 2110 with jp-cea-110div sf") == \
        "Ichi-Go 11.25: tank regiments and the 1st SF never join momentum attacks"
