"""SNC orders written in a form a rule forbids are refused by that rule, naming its case, not by the parser's
"expected ..." (issue 30: every refusal a rule causes names the rule)."""
from snc_given import RULES, position, then

from tests.fuzzing import refusal

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
D6 = ["jp-d6-r13", "jp-d6-r23", "jp-d6-r45", "jp-d6-r47"]


def test_8_4_chinese_survivors_of_a_landing_retreat_one_hex():
    s = position({"cn-gar-wusong": "3510", "cn-d7": "3510", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2,
                 phase="reinf", pool=tuple(D3))
    s = then(s, "japanese", "land " + " ".join(D3) + " at 3510", rolls=[3])
    assert refusal(RULES, s, "chinese", "retreat to 3511 3411") == \
        "SNC 8.4: the Chinese survivors of a landing retreat one hex: name that hex"
    assert refusal(RULES, s, "chinese", "retreat to 3511") is None


def test_8_4_1_10_5_3_the_10th_army_goes_one_hex_beyond_its_landing_hex_and_no_farther():
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(D6))
    s = then(s, "japanese", "land " + " ".join(D6) + " at 3417", rolls=[6])
    assert s.pending[0]["kind"] == "advance"                          # the advance after the landing combat
    assert refusal(RULES, s, "japanese", "advance " + " ".join(D6) + " to 3417 3317 3217") == \
        "SNC 10.5.3: an advance after combat enters the emptied hex (a 10th Army landing goes one hex beyond, " \
        "8.4.1), no farther"
    s = then(s, "japanese", "advance " + " ".join(D6[:2]) + " to 3317")
    assert refusal(RULES, s, "japanese", "advance " + " ".join(D6[2:]) + " to 3416 3316") == \
        "SNC 8.4.1: the 10th Army goes on one hex beyond the landing hex, no farther"
    assert refusal(RULES, s, "japanese", "advance " + " ".join(D6[2:]) + " to 3416") is None
