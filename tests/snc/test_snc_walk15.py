"""SNC rules version 15 (session part 17; docs/rulings/snc-engine.md E32-E34). E32: the Chinese survivors of one
landing who retreat into another landing hex are not assaulted again by a second landing in the same Reinforcement
Phase (10.0: defending units are attacked once a phase; 8.4). E33: the view's control of the neutral International
Settlement 3513 reads as 4.3 counts it: Japanese once every other city is, else neutral (1.3), never Chinese. The view
seeds the automated seats, so a game created under version 14 or before is shown as it was (tests/rules/
test_pinned_decisions.py keeps its decisions as `snc@14`). E34: the Japanese Reinforcement Phase's prompt says the
replacement steps left (8.3); prompt words only, for every version."""
from snc_given import RULES, ev, fold, of, position, then, when

from app.rules import legal
from app.rules.snc.view import view
from tests.fuzzing import refusal

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
D11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]
RING = {"cn-d57": "3612", "jp-snlf-1": "3512"}
LAND_D3 = "land d3-r6 d3-r18 d3-r34 d3-r68 at 3509"


def survivors_retreated_into_3509(version: str | None = None):
    """GT 2, the Japanese Reinforcement Phase: the 11th Division has landed at 3408 against the 87th Division (a 2/0
    at 1:1), which the Chinese retreat into 3509, the 3rd Division's landing hex; the 11th has taken its steps."""
    s = position({**RING, "cn-d87": "3408"}, turn=2, phase="reinf", pool=tuple(D3 + D11))
    s = RULES.played_under(s, version) if version else s
    s = then(s, "japanese", "land d11-r12 d11-r22 d11-r43 d11-r44 at 3408", rolls=[1])
    s = then(s, "chinese", "retreat to 3509")
    s = then(s, "japanese", "lose d11-r12 d11-r22 d11-r43")
    assert s.units["cn-d87"].hex == "3509" and s.units["cn-d87"].steps == 2 and not s.pending
    return s


def landings(s) -> list[str]:
    return [o["order"] for o in legal.naming(RULES, s, "japanese", "jp-d3-r6")]


def test_10_0_8_4_e32_chinese_units_a_landing_attacked_are_not_assaulted_by_a_second_landing_that_phase():
    s = survivors_retreated_into_3509()
    assert refusal(RULES, s, "japanese", LAND_D3) == (
        "SNC 10.0: cn-d87 in 3509 defended against a landing this phase: defending units are not attacked "
        "more than once per phase (land elsewhere, or delay the landing, 8.0)")
    assert [o for o in landings(s) if "at 3509" in o] == []
    s = then(s, "japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510")  # the other landing hex, unopposed
    assert {s.units[u].hex for u in D3} == {"3510"}
    s = then(s, "japanese", "end")  # a new phase: the 87th may be attacked again
    assert s.phase == "ops2" and "cn-d87" not in s.defended


def test_10_0_e32_a_game_of_version_14_assaults_them_again_as_played():
    s = survivors_retreated_into_3509("14")
    assert "land jp-d3-r18 jp-d3-r34 jp-d3-r6 jp-d3-r68 at 3509" in landings(s)
    events = when(s, "japanese", LAND_D3, rolls=[6])
    assert of(events, ev.CombatResolved)[0].defence == 5


def test_1_3_4_3_e33_the_view_shows_3513_neutral_until_4_3_counts_it_japanese():
    cities = ("0202", "1102", "1824", "2410", "3512", "3611")
    s = position(RING, turn=9, control=cities[:5])
    assert {side: view(s, side)["control"]["3513"] for side in ("chinese", "japanese", None)} == dict.fromkeys(
        ("chinese", "japanese", None), "neutral")
    assert view(s, "chinese")["control"]["3611"] == "chinese"
    s = position(RING, turn=9, control=cities)  # every other city Japanese: 4.3 counts 3513 theirs
    assert view(s, "chinese")["control"]["3513"] == view(s, "japanese")["control"]["3513"] == "japanese"
    assert [r["now"] for r in view(s, "chinese")["victory"] if r["case"] == "SNC 4.3"][0].startswith(
        "the Japanese hold 7 of 7")
    assert view(RULES.played_under(s, "14"), "japanese")["control"]["3513"] == "chinese"  # as version 14 showed it


def test_8_3_e34_e36_the_steps_left_are_in_the_japanese_view_not_in_the_step_both_sides_read():
    """E34 put the steps left in the prompt's step, which both sides read (and a Chinese refusal quoted); from ruling
    E36 the step is the phase alone and the steps left are the Japanese's view's (E26)."""
    s = position({**RING, "jp-d3-r6": "3510", "jp-d3-r18": "3510"}, turn=3, phase="ops1", plan=("fight", "fight"),
                 steps={"jp-d3-r6": 1, "jp-d3-r18": 1}, pool=("jp-d101-r101",))
    s = then(s, "japanese", "end")
    assert RULES.prompt(s).step == "GT 3, japanese Reinforcement Phase"
    assert (view(s, "japanese")["replacement_steps_left"], "replacement_steps_left" in view(s, "chinese")) == (2, False)
    s = then(s, "japanese", "replace d3-r6")
    assert RULES.prompt(s).step == "GT 3, japanese Reinforcement Phase"
    assert view(s, "japanese")["replacement_steps_left"] == 1
    s = then(s, "japanese", "land d101-r101 at 3509")
    assert view(s, "japanese")["replacement_steps_left"] == 0
    assert RULES.prompt(fold(s, ev.PhaseEnded(side="japanese", phase="reinf", turn=3))).step == (
        "GT 3, japanese Second Operations Phase (fight)")
