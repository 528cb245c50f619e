"""SNC rules version 14 (session part 17; docs/rulings/snc-engine.md E26): what lies on the table beside the map is
in each side's view, as it was in the prompts and refusals alone: the fire support markers each side holds (2.2.2,
8.5, 11.1), the Japanese replacement steps left (8.3), the interdiction's die while the Chinese choose (11.2), and
the victory conditions with where each stands (4.1-4.3). The view seeds the automated seats, so a game created under
version 13 or before is shown as it was (tests/rules/test_pinned_decisions.py keeps its decisions as `snc@13`)."""
from dataclasses import replace

from snc_given import RULES, position, then

from app.rules.snc.view import view

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
