"""SNC rules version 14 (session part 17; docs/rulings/snc-engine.md E26-E31). E26: what lies on the table beside the
map is in each side's view, as it was in the prompts and refusals alone: the fire support markers each side holds
(2.2.2, 8.5, 11.1), the Japanese replacement steps left (8.3), the interdiction's die while the Chinese choose (11.2),
and the victory conditions with where each stands (4.1-4.3). The view seeds the automated seats, so a game created
under version 13 or before is shown as it was (tests/rules/test_pinned_decisions.py keeps its decisions as `snc@13`).
E27: a reinforcement's move goes round the hexes 8.2 a) bars. E28: a destination no unit may enter names its case.
E29: ending the Chinese Reinforcement Phase before the interdiction is refused by 11.2. E30: a unit not due yet is
refused by 8.0, 8.1 or 9.1. E31: a preview names the other side's answers (11.3, 11.4). R39 (docs/rulings/snc.md): an
eliminated Japanese garrison is placed again (9.1)."""
from dataclasses import replace

from snc_given import RULES, ev, fold, of, position, then, when

from app.rules import legal
from app.rules.snc.view import view
from tests.fuzzing import refusal

RING = {"cn-d57": "3612", "jp-snlf-1": "3512"}


def markers(v: dict, side: str) -> dict:
    return {m["kind"]: (m["received"], m["used"], m["in_hand"]) for m in v["fire_support"] if m["side"] == side}


def test_8_3_e26_the_japanese_view_shows_the_replacement_steps_left_and_the_chinese_view_does_not():
    s = replace(position({**RING, "jp-d3-r6": "3510", "jp-d3-r18": "3510"}, turn=3, phase="reinf",
                         plan=("fight", "fight"), steps={"jp-d3-r6": 1, "jp-d3-r18": 1}, pool=("jp-d101-r101",)),
                replacements=2)
    assert view(s, "japanese")["replacement_steps_left"] == view(s, None)["replacement_steps_left"] == 2
    s = then(s, "japanese", "replace d3-r6")
    assert view(s, "japanese")["replacement_steps_left"] == 1
    assert "replacement_steps_left" not in view(s, "chinese")
    s = then(s, "japanese", "land d101-r101 at 3509")  # a landing ends the replacements (8.3: the first step)
    assert view(s, "japanese")["replacement_steps_left"] == 0
    assert "replacement_steps_left" not in view(RULES.played_under(s, "13"), "japanese")


def test_8_5_11_1_e26_both_views_show_each_sides_markers_received_used_this_phase_and_in_hand():
    # GT 1, the Chinese player turn: the Japanese hold the two at-start naval markers, not GT 1's (8.5, ruling R15)
    s = position({"jp-snlf-1": "3512", "jp-snlf-3": "3611", "cn-d87": "3511", "cn-d98": "3511"}, turn=1,
                 side="chinese")
    assert markers(view(s, "chinese"), "japanese") == {"air": (0, 0, 0), "artillery": (0, 0, 0), "naval": (2, 0, 2),
                                                       "amphibious": (0, 0, 0)}
    s = then(s, "chinese", "attack 3512 with d87 support artillery")
    s = then(s, "japanese", "support naval", rolls=[6])
    for side in ("chinese", "japanese", None):
        v = view(s, side)
        assert markers(v, "chinese") == {"artillery": (3, 1, 2)} and markers(v, "japanese")["naval"] == (2, 1, 1)
    s = then(s, "chinese", "end")  # 11.1: set aside until the next Operations Phase, through the Reinforcement Phase
    assert s.phase == "reinf" and markers(view(s, "chinese"), "chinese") == {"artillery": (3, 1, 2)}
    s = then(s, "chinese", "end")
    assert s.phase == "ops2" and markers(view(s, "chinese"), "chinese") == {"artillery": (3, 0, 3)}
    assert "fire_support" not in view(RULES.played_under(s, "13"), "chinese")


def test_8_5_e26_a_marker_used_in_the_first_operations_phase_shows_as_used_in_the_reinforcement_phase():
    s = position({**RING, "jp-d3-r6": "3409", "cn-gar-c": "3408"}, turn=3, plan=("fight", "fight"))
    s = then(s, "japanese", "attack 3408 with d3-r6 support artillery", rolls=[6])
    s = then(s, "japanese", "stay") if s.pending else s
    s = then(s, "japanese", "end")
    assert s.phase == "reinf"
    assert markers(view(s, "japanese"), "japanese")["artillery"] == (2, 1, 1)  # GT 2's and GT 3's, one used


def test_11_2_e26_both_views_show_the_interdiction_die_while_the_chinese_choose():
    s = position(RING, turn=4, side="chinese", phase="reinf", plan=("move", "move"),
                 pool=("cn-d9", "cn-d8", "cn-d18"))
    s = then(s, "chinese", "proceed", rolls=[3])
    assert s.pending[0]["kind"] == "interdiction"
    for side in ("chinese", "japanese"):
        assert view(s, side)["pending"] == [{"kind": "interdiction", "side": "chinese", "roll": 3}]
    assert view(RULES.played_under(s, "13"), "japanese")["pending"] == [{"kind": "interdiction", "side": "chinese"}]


def test_4_1_4_2_4_3_e26_the_view_reads_each_victory_condition_and_where_it_stands():
    cities = ("0202", "1102", "1824", "2410", "3512", "3611")
    s = position(RING, turn=9, control=cities)
    rows = {(r["case"], r["when"]): r["now"] for r in view(s, "chinese")["victory"]}
    assert rows[("SNC 4.3", "each Victory Check")] == ("the Japanese hold 7 of 7 (3513 counts once all the others "
                                                       "are theirs)")
    assert rows[("SNC 4.2", "GT 1-5")] == rows[("SNC 4.1", "from GT 8")] == "a Chinese unit is in or next to 3512"
    assert rows[("SNC 4.1", "any time")] == "3512 is japanese"
    assert rows[("SNC 4.3", "GT 12 Victory Check")] == "GT 9 of 12"
    s = position({"jp-snlf-1": "3512", "cn-d57": "3313"}, turn=9, control=cities[:5])
    rows = {(r["case"], r["when"]): r["now"] for r in view(s, "japanese")["victory"]}
    assert rows[("SNC 4.3", "each Victory Check")].startswith("the Japanese hold 5 of 7")
    assert rows[("SNC 4.1", "from GT 8")] == "no Chinese unit is in or next to 3512"


def reinforcement_at_suzhou(version: str | None = None):
    """GT 4, the Chinese Reinforcement Phase: the 9th Division placed at Suzhou 2410, a Japanese regiment at 2608
    (2709 is next to it across the all-lake hexside, so in no zone of control, 7.1; 2809 is not next to it)."""
    s = replace(position({**RING, "jp-d3-r6": "2608"}, turn=4, side="chinese", phase="reinf", plan=("move", "move"),
                         pool=("cn-d9",)), interdicted=4)
    s = RULES.played_under(s, version) if version else s
    return then(s, "chinese", "place d9 at 2410")


def test_8_2_e27_a_reinforcements_move_goes_round_a_hex_next_to_a_japanese_unit_on_a_path_as_cheap():
    s = reinforcement_at_suzhou()
    moved = of(when(s, "chinese", "move d9 to 2808"), ev.UnitsMoved)[0]
    assert moved.path == ["2410", "2510", "2610", "2710", "2809", "2808"] and moved.mp == 5
    assert "move cn-d9 to 2808" in [o["order"] for o in legal.naming(RULES, s, "chinese", "cn-d9")]
    assert refusal(RULES, s, "chinese", "move d9 to 2808 via 2510 2610 2710 2709") == (
        "SNC 8.2: reinforcements placed in their listed hex may not move adjacent to a Japanese unit (2709)")
    assert refusal(RULES, s, "chinese", "move d9 to 2609") == (
        "SNC 8.2: reinforcements placed in their listed hex may not move adjacent to a Japanese unit (2609)")
    old = reinforcement_at_suzhou("13")  # the cheapest path passed 2709, and the move was refused
    assert refusal(RULES, old, "chinese", "move d9 to 2808") == (
        "SNC 8.2: reinforcements placed in their listed hex may not move adjacent to a Japanese unit (2709)")
    assert "move cn-d9 to 2808" not in [o["order"] for o in legal.naming(RULES, old, "chinese", "cn-d9")]


def test_9_0_1_3_e28_a_destination_no_unit_may_enter_is_refused_by_the_case_that_bars_it_not_as_too_far():
    s = position({**RING, "jp-d3-r6": "3409", "cn-d7": "2510"}, turn=4, plan=("move", "move"))
    assert refusal(RULES, s, "japanese", "move d3-r6 to 3513") == "SNC 1.3: 3513 is neutral and may not be entered"
    assert refusal(RULES, s, "japanese", "move d3-r6 to 2510") == "SNC 9.0: 2510 is occupied by enemy units"
    assert refusal(RULES, s, "japanese", "move d3-r6 to 3206") == "SNC 9.4: yangtze hexes are prohibited (3206)"
    assert refusal(RULES, s, "japanese", "move d3-r6 to 3409") == (
        "SNC 9.0: the stack is already in 3409: units move from hex to adjacent hex")
    assert refusal(RULES, s, "japanese", "move d3-r6 to 0101") == (
        "SNC 9.0: no legal path from 3409 to 0101 with 8 MP; name the path with 'via' to see which step is refused")
    assert refusal(RULES, RULES.played_under(s, "13"), "japanese", "move d3-r6 to 3513") == (
        "SNC 9.0: no legal path from 3409 to 3513 with 8 MP; name the path with 'via' to see which step is refused")


def test_11_2_e29_ending_the_chinese_reinforcement_phase_before_the_interdiction_is_refused_by_11_2():
    s = position(RING, turn=4, side="chinese", phase="reinf", plan=("move", "move"), pool=("cn-d9",))
    assert refusal(RULES, s, "chinese", "end") == (
        "SNC 11.2: the Japanese air interdiction of this GT's reinforcements is rolled in this phase, before it ends: "
        "`proceed` (or `air`, the Chinese air force first, 11.3)")
    assert refusal(RULES, replace(s, chinese_air=False), "chinese", "end") == (
        "SNC 11.2: the Japanese air interdiction of this GT's reinforcements is rolled in this phase, before it ends: "
        "`proceed`")
    assert refusal(RULES, RULES.played_under(s, "13"), "chinese", "end") == (
        "SNC 5.1: 'end' is not allowed now (GT 4, chinese Reinforcement Phase: Japanese air interdiction); allowed: "
        "air, proceed")


def test_9_6_example_the_3rd_along_the_road_to_2706_and_one_replacement_step_make_23_into_24_a_4_to_1_on_chang_sho():
    """SNC 9.6's example carried on through the engine (the overrun itself: test_snc_combat.py): the 3rd Division (one
    regiment reduced, ruling R20) moves along the road to 2706; 23 against the three divisions' 6 in Chang Sho would
    be 3:1; one replacement step for the 11th makes it 24, 4:1, and with air and artillery against the town in marsh's
    2L (ruling R1) the final column is 4:1, where half the rolls clear the hex (ruling R18)."""
    d11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]
    d3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
    s = position({**dict.fromkeys(d11, "2806"), **dict.fromkeys(d3, "3009"), "cn-d7": "2707", "cn-d58": "2606",
                  "cn-d61": "2606", "cn-d62": "2606"}, turn=7, plan=("move", "fight"),
                 steps={"jp-d11-r43": 1, "jp-d11-r44": 1, "jp-d3-r6": 1})
    s = fold(s, ev.UnitsMoved(d11, ["2806"], 5.0))  # it rumbled into 2806 with 3 MP left
    s = then(s, "japanese", "overrun 2707 with 2806 support artillery", rolls=[3])
    s = then(s, "japanese", "lose d11-r12")
    moved = of(when(s, "japanese", "move 3009 to 2706"), ev.UnitsMoved)[0]
    assert moved.path == ["3009", "2909", "2908", "2807", "2806", "2706"] and moved.mp == 2.5  # 9.5.1: the road
    s = then(then(s, "japanese", "move 3009 to 2706"), "japanese", "end")
    strength = sum(s.units[u].cf for u in d11 + d3)
    assert (s.phase, strength, sum(s.units[u].cf for u in ("cn-d58", "cn-d61", "cn-d62"))) == ("reinf", 23, 6)
    s = then(s, "japanese", "replace d11-r12")
    s = then(s, "japanese", "end")
    s = then(s, "japanese", "attack 2606 with 2707 2706 support air artillery")
    r = of(when(s, "chinese", "pass", rolls=[3]), ev.CombatResolved)[0]
    assert (r.attack, r.defence, r.odds, r.column) == (24, 6, "4:1", "4:1")
    crt = s.data.crt
    assert sum(crt.cell("4:1", die).defender.losses >= 3 for die in range(1, 7)) == 3


def garrison_a_lost(version: str | None = None):
    """GT 6: the Japanese garrisons B-E hold the four cities taken, Shanghai's its own, and Garrison A was eliminated
    at 3611, which is still Japanese-controlled (3.2) and empty; a regiment next to it at 3610."""
    garrisons = {"jp-gar-shanghai": "3512", "jp-gar-b": "0202", "jp-gar-c": "1102", "jp-gar-d": "1824",
                 "jp-gar-e": "2410"}
    s = position({**RING, **garrisons, "jp-d3-r6": "3610", "cn-d7": "3411"}, turn=6, plan=("move", "move"),
                 control=("3512", "3611", "0202", "1102", "1824", "2410"))
    s = replace(s, units={**s.units, "jp-gar-a": replace(s.units["jp-gar-a"], status="dead", hex=None, steps=0)})
    return RULES.played_under(s, version) if version else s


def test_9_1_r39_a_city_reoccupied_when_every_garrison_never_used_is_on_the_map_takes_back_an_eliminated_one():
    s = then(garrison_a_lost(), "japanese", "move d3-r6 to 3611")
    assert [(u.id, u.steps) for u in s.at("3611") if u.static] == [("jp-gar-a", 1)]
    old = then(garrison_a_lost("13"), "japanese", "move d3-r6 to 3611")
    assert [u.id for u in old.at("3611")] == ["jp-d3-r6"]  # before: no garrison left to place


def test_8_0_8_1_9_1_e30_a_unit_not_due_yet_is_refused_by_the_case_that_says_when_it_comes():
    s = position(RING, turn=1, side="chinese", phase="reinf", pool=("cn-d7",))
    assert refusal(RULES, s, "chinese", "place d7 at 2410") == (
        "SNC 8.0: cn-d7 arrives on GT 2 (13.0): no reinforcement arrives earlier than its GT")
    assert refusal(RULES, RULES.played_under(s, "13"), "chinese", "place d7 at 2410") == (
        "SNC 8.2: cn-d7 is not a reinforcement available this GT")
    elite = replace(s, units={**s.units, "cn-d87": replace(s.units["cn-d87"], status="returning", return_turn=4)})
    assert refusal(RULES, elite, "chinese", "place d87 at 0202") == (
        "SNC 8.1: cn-d87 returns on GT 4, the box of the Turn Record Track its die put it in")
    j = replace(position(RING, turn=3, phase="reinf", pool=("jp-d9-r7", "jp-gar-b")), replacements=0)
    assert refusal(RULES, j, "japanese", "land d9-r7 at 3408") == (
        "SNC 8.0: jp-d9-r7 arrives on GT 4 (13.0): no reinforcement arrives earlier than its GT")
    assert refusal(RULES, j, "japanese", "land jp-gar-b at 3408") == (
        "SNC 9.1: jp-gar-b is a Japanese garrison: it is placed in a city hex the Japanese occupy, never landed")


def test_11_1_11_3_11_4_a_preview_says_what_the_other_side_may_answer_and_the_column_it_leaves():
    s = position({"jp-snlf-1": "3512", "jp-snlf-3": "3611", "cn-d87": "3511"}, turn=1, side="chinese")
    p = RULES.preview(s, RULES.parse("attack 3512 with d87 support artillery", "chinese", s))
    assert p["column_label"] == "1:1"  # 5 on 2, city 2L, artillery 1R
    assert p["answers"] == [{"case": "SNC 11.4", "what": "the Japanese may add a naval gunfire marker to the defence "
                                                         "(1L)", "column": "1:2"}]
    assert p["text"].endswith("SNC 11.4: the Japanese may add a naval gunfire marker to the defence (1L): column 1:2")
    s = position({**RING, "jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    p = RULES.preview(s, RULES.parse("attack 3408 with d3-r6 support air", "japanese", s))
    assert (p["column_label"], p["answers"]) == ("1:1", [
        {"case": "SNC 11.3", "what": "the Chinese air force may intercept the air marker: a 6 aborts it",
         "column": "1:2"}])
    assert RULES.preview(replace(s, chinese_air=False),
                         RULES.parse("attack 3408 with d3-r6 support air", "japanese", s))["answers"] == []
