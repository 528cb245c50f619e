"""What the SNC loss prompt tells the side that owes steps (10.5.2): how many, where and from which units, read
off the 12.0 GT 3 example (mutation survivors of issue 19: the prompt's text could go missing unnoticed)."""
from snc_given import ev, fold, of, position, when

from app.rules.snc import GAME as RULES

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
SNLF = ["jp-snlf-1", "jp-snlf-2", "jp-snlf-3", "jp-snlf-9"]


def test_10_5_2_the_defender_is_told_to_lose_three_steps_in_3511_from_its_units_there():
    s = position({**{u: "3510" for u in D3}, **{u: "3512" for u in SNLF}, "jp-gar-shanghai": "3512",
                  "cn-d87": "3511", "cn-d98": "3511", "cn-gar-a": "3511"}, turn=3)
    s = fold(s, *when(s, "japanese", "attack 3511 with 3510 3512 support air artillery naval"))
    events = when(s, "chinese", "pass", rolls=[4])
    assert of(events, ev.CombatResolved)[0].result == "0/3"
    prompt = RULES.prompt(fold(s, *events)).owed
    assert prompt.what == "lose 3 step(s) (SNC 10.5.2)"
    assert prompt.where == "3511"
    assert prompt.amount == "3 step(s) from these units"
    assert {uid for uid, _ in prompt.candidates} == {"cn-d87", "cn-d98", "cn-gar-a"}
    assert "lose 3 step(s)" in prompt.text()



def test_10_5_3_the_attacker_is_told_he_may_advance_into_the_emptied_hex_or_stay():
    s = position({"jp-d3-r6": "3409", "cn-gar-c": "3408"}, turn=7)
    prompt = RULES.prompt(fold(s, *when(s, "japanese", "attack 3408 with d3-r6", rolls=[6]))).owed
    assert prompt.what == "advance into 3408 or stay (SNC 10.5.3)"
    assert prompt.amount == "up to 1 hex(es), any of these units"
    assert [uid for uid, _ in prompt.candidates] == ["jp-d3-r6"]


def test_6_0_r13_two_detachments_ending_a_move_in_one_hex_are_told_to_eliminate_one_of_the_two():
    """Ruling R13: a detachment fills the one "garrison or regiment" slot of 6.2, so two in a hex are one too many."""
    s = position({"jp-det-shigeto": "3409", "jp-det-asama": "3410", "cn-d57": "3612", "jp-snlf-1": "3512"},
                 plan=("move", "fight"))
    s = fold(s, *when(s, "japanese", "move det-asama to 3409"))
    prompt = RULES.prompt(fold(s, *when(s, "japanese", "end"))).owed
    assert prompt.where == "3409" and prompt.amount == "at least 1 unit(s), none more than needed"
    assert [uid for uid, _ in prompt.candidates] == ["jp-det-asama", "jp-det-shigeto"]
