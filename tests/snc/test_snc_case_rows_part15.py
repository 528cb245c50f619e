"""SNC case rows whose mapped tests let a broken rule pass (the per-case mutation report of session part 14:
docs/mutation-survivors.md, "SNC's per-case rows"): each test here reads what its case says as a player meets it,
from a position (docs/custom-positions.md), and fails when the rule is broken."""
from dataclasses import replace

from snc_given import RULES, ev, of, position, then, when

from app.rules.snc.combat import assess
from tests.fuzzing import refusal


def test_5_1_gt_3_runs_the_chinese_player_turn_then_the_japanese_whose_reinforcement_phase_opens_with_replacements():
    """5.1: I. the Chinese player turn (First Operations, Reinforcement, Second Operations), then II. the Japanese
    (First Operations, Reinforcement, Second Operations, Victory Check), then the next GT (5.2). From GT 3 the
    Japanese Reinforcement Phase gives two replacement steps (8.3), used first in it."""
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d3-r6": "3409", "jp-d3-r18": "3409"},
                 turn=3, side="chinese", phase="declare", plan=(), steps={"jp-d3-r6": 1, "jp-d3-r18": 1})
    steps = []
    s = then(s, "chinese", "declare move move")
    for _ in range(3):
        steps.append(RULES.prompt(s).step)
        s = then(s, "chinese", "end")
    s = then(s, "japanese", "declare fight move")
    steps.append(RULES.prompt(s).step)
    s = then(s, "japanese", "end")
    steps.append(RULES.prompt(s).step)
    assert [a.name for a in RULES.prompt(s).actions][:1] == ["replace"] and s.replacements == 2
    s = then(s, "japanese", "replace d3-r6 d3-r18")
    assert (s.units["jp-d3-r6"].steps, s.units["jp-d3-r18"].steps, s.replacements) == (2, 2, 0)
    s = then(s, "japanese", "end")
    steps.append(RULES.prompt(s).step)
    s = then(s, "japanese", "end")
    assert steps == ["GT 3, chinese First Operations Phase (move)", "GT 3, chinese Reinforcement Phase",
                     "GT 3, chinese Second Operations Phase (move)", "GT 3, japanese First Operations Phase (fight)",
                     "GT 3, japanese Reinforcement Phase",
                     "GT 3, japanese Second Operations Phase (move)"]
    assert (s.turn, s.side, s.phase, s.winner) == (4, "chinese", "declare", None)


def test_5_3_a_move_or_an_attack_in_the_japanese_reinforcement_phase_is_refused_saying_they_attack_by_landing():
    """5.3: the Reinforcement Phase lets arriving Japanese reinforcements arrive and attack (by their landing, 8.4);
    the rest of the army moves and fights only in the Operations Phase declared for it."""
    s = position({"jp-d3-r6": "3409", "cn-gar-c": "3408", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=4,
                 phase="reinf", plan=("move", "move"))
    why = ("SNC 5.3: in the Reinforcement Phase Japanese reinforcements arrive and attack by their landing (8.4); "
           "the army moves and fights in the Operations Phases")
    assert refusal(RULES, s, "japanese", "attack 3408 with d3-r6") == why
    assert refusal(RULES, s, "japanese", "move d3-r6 to 3309") == why
    assert refusal(RULES, s, "japanese", "overrun 3408 with d3-r6") == why


def test_6_0_the_owner_eliminates_only_enough_units_to_bring_the_hex_within_the_limit():
    """6.0: an over-stacked hex loses "enough excess units" to comply, of its owner's choice: the four Chinese units
    in 2707 make 3.5 DE (6.2), so one brigade or one division goes, not two units."""
    s = position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2707", "cn-b20": "2707", "cn-d57": "3612"},
                 turn=7, side="chinese", plan=("move", "move"))
    s = then(s, "chinese", "end")
    assert s.pending[0]["kind"] == "overstack"
    assert refusal(RULES, s, "chinese", "eliminate b20 b45") == \
        "SNC 6.0: 2707 is within the limit without eliminating cn-b20"
    assert refusal(RULES, s, "chinese", "eliminate d7 b20") == \
        "SNC 6.0: 2707 is within the limit without eliminating cn-d7"
    after = then(s, "chinese", "eliminate d7")
    assert after.units["cn-d7"].status == "dead" and not after.pending and after.phase == "reinf"


def _rail_phase(units: dict):
    """GT 5's Chinese Reinforcement Phase, the 1st Division due (13.0) and the interdiction already rolled."""
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512", **units}, turn=5, side="chinese", phase="reinf",
                 pool=("cn-d1",))
    return replace(s, interdicted=5)


def test_7_0_a_rail_placement_in_a_japanese_zone_of_control_is_next_to_a_japanese_unit_and_refused():
    """7.0: a unit's zone of control is the six hexes around it, so a railroad hex in a Japanese ZOC is next to a
    Japanese unit, where no Chinese reinforcement is placed (8.2); the hex the unit stands in is Japanese-held."""
    s = _rail_phase({"jp-d9-r7": "1404"})
    assert refusal(RULES, s, "chinese", "rail d1 to 1505") == \
        "SNC 8.2: Chinese reinforcements may not be placed adjacent to a Japanese unit (1505)"
    assert refusal(RULES, s, "chinese", "rail d1 to 1404") == "SNC 8.2: 1404 is occupied by Japanese units"
    assert then(s, "chinese", "rail d1 to 1706").units["cn-d1"].hex == "1706"  # two hexes away: free of its ZOC


def test_8_2_a_rail_placement_off_the_railroad_is_refused_naming_8_2():
    """8.2 b): a reinforcement placed by the second method goes on a railroad hex."""
    s = _rail_phase({})
    assert refusal(RULES, s, "chinese", "rail d1 to 1506") == "SNC 8.2: 1506 is not a railroad hex"
    assert then(s, "chinese", "rail d1 to 1505").units["cn-d1"].placed_by == "rail"


def test_10_4_1_a_terrain_chart_that_leaves_out_the_town_flag_reads_ruling_r1_town_and_marsh_2l():
    """10.4.1 and ruling R1: a Chinese-held town in marsh (Chang Sho 2606) gives 2L, the town's 1L added to the
    marsh's; a terrain chart (terrain.toml, docs/snc-data.md) without `adds_to_terrain_shift` reads it so."""
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"})
    town = {k: v for k, v in s.data.tec["features"]["town"].items() if k != "adds_to_terrain_shift"}
    tec = {**s.data.tec, "features": {**s.data.tec["features"], "town": town}}
    unflagged = replace(s, data=replace(s.data, tec=tec))
    battle = {"hex": "2606", "side": "japanese", "kind": "attack", "attackers": ["jp-d11-r12"], "defenders": ["cn-d58"]}
    assert [(sh.amount, sh.reason) for sh in assess(unflagged, battle).shifts.shifts] == \
        [(-1, "marsh"), (-1, "town (chinese defender)")]
    assert of(when(s, "japanese", "attack 2606 with d11-r12", rolls=[6]), ev.CombatResolved)
