"""SNC cases walked again against the text in issue 30's part 8 (rules version 6, ruling E17 of
docs/rulings/snc-engine.md): each order given as a player gives it, through the service, on a game made from a
position file; a game created under version 5 decides as it was played (docs/core.md "Rules versions")."""
from snc_given import RULES, position

from tests.fuzzing import refusal
from tests.served import Served

RING = {"cn-d57": "3612"}     # a Chinese unit next to Shanghai (4.2)


def snc(store, position: dict) -> Served:
    return Served(store, "snc", position, ("chinese", "japanese"))


def at(store, turn: int, side: str, phase: str, units: dict, plan=("fight", "fight")) -> Served:
    return snc(store, {"turn": turn, "side": side, "phase": phase, "units": {**RING, **units},
                       **({"plan": list(plan)} if phase != "declare" else {})})


# -- refusals the sequence of play gave, now by the case that forbids the order (E17) -------------------------
def test_5_3_an_attack_in_a_phase_declared_for_movement_is_refused_by_5_3(store):
    game = at(store, 7, "japanese", "ops1", {"jp-d3-r6": "3409", "cn-d87": "3408"}, ("move", "fight"))
    assert game.refused("japanese", "attack 3408 with d3-r6") == \
        "SNC 5.3: this Operations Phase was declared for movement: attacks come in one declared for combat"


def test_5_3_a_move_or_an_overrun_in_a_phase_declared_for_combat_is_refused_by_5_3(store):
    game = at(store, 7, "japanese", "ops1", {"jp-d3-r6": "3409", "cn-d87": "3408"})
    why = ("SNC 5.3: this Operations Phase was declared for combat: units move (and overrun, 9.6) in one declared "
           "for movement")
    assert game.refused("japanese", "move d3-r6 to 3309") == why
    assert game.refused("japanese", "overrun 3408 with d3-r6") == why


def test_9_6_the_chinese_never_overrun(store):
    game = at(store, 7, "chinese", "ops1", {"jp-d3-r6": "3409", "cn-d87": "3408"}, ("move", "move"))
    assert game.refused("chinese", "overrun 3409 with d87") == "SNC 9.6: only the Japanese overrun"


def test_5_3_one_declaration_per_player_turn(store):
    game = at(store, 7, "japanese", "ops2", {"jp-d3-r6": "3409"})
    assert game.refused("japanese", "declare move move") == \
        "SNC 5.3: one phase order declaration per player turn, made before its First Operations Phase"


def test_5_4_8_3_reinforcements_and_replacements_wait_for_the_reinforcement_phase(store):
    game = at(store, 7, "japanese", "ops1", {"jp-d3-r6": "3409"})
    assert game.refused("japanese", "land d9-r7 at 3308") == \
        "SNC 5.4: reinforcements are placed in their side's Reinforcement Phase"
    assert game.refused("japanese", "replace d3-r6") == \
        "SNC 8.3: replacement steps are used first thing in the Japanese Reinforcement Phase"


def test_8_3_replacement_steps_begin_on_gt_3(store):
    game = at(store, 2, "japanese", "reinf", {"jp-d3-r6": "3409"})
    assert game.refused("japanese", "replace d3-r6") == "SNC 8.3: replacement steps begin on GT 3"


def test_8_2_railroad_placement_begins_on_gt_3(store):
    game = at(store, 2, "chinese", "reinf", {"jp-snlf-1": "3512"})
    assert game.refused("chinese", "rail d11 to 1605") == "SNC 8.2: railroad placement starts on GT 3"


def test_8_4_1_only_the_10th_army_goes_on_a_second_hex(store):
    game = at(store, 7, "japanese", "reinf", {"jp-snlf-1": "3512"})
    assert game.refused("japanese", "advance snlf-1 to 3511").startswith(
        "SNC 8.4.1: only 10th Army units still in the hex they landed at this phase go on one hex more")


def test_5_3_a_game_created_under_version_5_names_5_1_as_it_did():
    s = RULES.played_under(position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7, plan=("move", "fight")), "5")
    assert refusal(RULES, s, "japanese", "attack 3408 with d3-r6").startswith("SNC 5.1: 'attack' is not allowed now")


# -- 4.1, 4.2, 4.3 at their boundaries ---------------------------------------------------------------------------
def outcome(game: Served):
    s = game.game
    return (s.winner, s.reason) if s.phase == "over" else None


def test_4_2_the_last_chinese_unit_leaving_the_shanghai_ring_on_gt_5_loses_at_once_and_on_gt_6_does_not(store):
    for turn, lost in ((5, True), (6, False)):
        game = at(store, turn, "chinese", "ops1", {"jp-d3-r6": "3409"}, ("move", "move"))
        game.do("chinese", "move d57 to 3613")
        assert outcome(game) == (("japanese", "SNC 4.2: no Chinese unit in or adjacent to Shanghai (3512) on GT 5")
                                 if lost else None)


def test_4_1_a_chinese_unit_next_to_shanghai_wins_from_gt_8_not_on_gt_7(store):
    for turn, won in ((7, False), (8, True)):
        game = at(store, turn, "chinese", "ops1", {"jp-snlf-1": "3512"}, ("move", "move"))
        game.do("chinese", "move d57 to 3613")                   # out of the ring: GT 6 on, no 4.2
        assert outcome(game) is None
        game.do("chinese", "move d57 to 3612")                   # back into it
        assert outcome(game) == (("chinese", "SNC 4.1: Chinese units in or adjacent to Shanghai (3512) on GT 8")
                                 if won else None)


def test_4_1_a_chinese_unit_in_the_ring_as_gt_7_ends_wins_as_gt_8_begins(store):
    game = at(store, 7, "japanese", "ops2", {"jp-snlf-1": "3512"})
    game.do("japanese", "end")                                   # the GT 7 Victory Check, then GT 8
    assert outcome(game) == ("chinese", "SNC 4.1: Chinese units in or adjacent to Shanghai (3512) on GT 8")


CITIES = ["0202", "1102", "1824", "2410", "3512", "3611"]       # 4.3: the seven but 3513


def victory_check(store, turn: int, japanese: list[str]) -> Served:
    game = snc(store, {"turn": turn, "side": "japanese", "phase": "ops2", "plan": ["fight", "fight"],
                       "units": {"cn-d87": "0916", "jp-snlf-1": "3512"}, "control": {"japanese": japanese}})
    game.do("japanese", "end")
    return game


def test_4_3_every_city_but_3513_japanese_at_a_victory_check_wins_3513_counted(store):
    assert outcome(victory_check(store, 9, CITIES)) == ("japanese", "SNC 4.3: the Japanese control all 7 city hexes")


def test_4_3_six_cities_of_seven_go_on_before_gt_12_and_lose_at_gt_12(store):
    short = CITIES[1:]                                           # Nanking 0202 still Chinese
    assert outcome(victory_check(store, 11, short)) is None
    assert outcome(victory_check(store, 12, short)) == \
        ("chinese", "SNC 4.3: the Japanese hold 5 of 7 city hexes at the end of GT 12")
    assert outcome(victory_check(store, 12, CITIES)) == ("japanese", "SNC 4.3: the Japanese control all 7 city hexes")
