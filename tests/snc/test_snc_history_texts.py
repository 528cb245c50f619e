"""What each side reads in the history of SNC orders and battles (6.3, 11.3, engine ruling E9), in the fast tier:
the whole-game fog tests are slow, and the mutation run found these texts unchecked without them (issue 19)."""
import pytest
from snc_given import RULES, ev, fold, of, position, then, when

from app.events import core
from app.rules.snc import fog


def test_6_3_the_other_side_reads_an_end_as_given_and_a_move_by_its_verb_only():
    assert RULES.visible(core.OrderGiven("japanese", "end", {}), "chinese") is True
    assert RULES.visible(core.OrderGiven("japanese", "move d3-r6 to 2706", {}), "chinese") == \
        "japanese orders: move (details hidden, SNC 6.3)"


def test_e9_a_battle_without_shifts_says_none_and_the_defender_reads_no_attacking_unit():
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    events = when(s, "japanese", "attack 3408 with d3-r6", rolls=[5])
    [opened] = of(events, ev.BattleOpened)
    assert opened.describe() == "japanese attack on 3408 with jp-d3-r6"
    assert fog.visible(opened, "chinese") == "japanese attack on 3408"
    assert [e.describe() for e in of(events, ev.CombatResolved)] == \
        ["attack on 3408: 4:5 = 1:2, shifts none -> 1:2, die 5: 1/1"]


@pytest.mark.parametrize(("die", "effect"), [(6, "aborted"), (1, "Chinese air lost for the game"),
                                             (3, "no effect")])
def test_11_3_the_interception_roll_tells_both_sides_its_effect(die, effect):
    s = position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7)
    s = then(s, "japanese", "attack 2606 with d11-r12 support air")
    [roll] = of(when(s, "chinese", "intercept", rolls=[die, 3]), ev.AirInterception)
    assert roll.describe() == f"Chinese air against air support: die {die}, {effect} (SNC 11.3)"
    assert fog.visible(roll, "japanese") is True


def test_the_combat_panel_shows_both_strengths_and_scores_each_die_defender_losses_minus_attacker_losses():
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    [resolved] = of(when(s, "japanese", "attack 3408 with d3-r6", rolls=[5]), ev.CombatResolved)
    panel = RULES.combat_summary(resolved, None)
    assert (panel["attack"], panel["defence"], panel["column"], panel["result"]) == (4, 5, "1:2", "1/1")
    assert [(d["roll"], d["result"], d["value"]) for d in panel["distribution"]] == [
        (1, "3/0", -3), (2, "2/0", -2), (3, "2/0", -2), (4, "2/1", -1), (5, "1/1", 0), (6, "1/1", 0)]


def test_5_1_the_prompt_names_the_turn_the_side_and_the_phase_with_its_declared_use():
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    assert RULES.prompt(s).step == "GT 7, japanese First Operations Phase (fight)"


def test_a_snapshot_reads_back_as_the_same_position():
    """docs/architecture.md practice 5: a snapshot is a cache, so loading from it gives the position it saved."""
    s = then(position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7), "japanese", "attack 3408 with d3-r6",
             rolls=[5])
    assert RULES.decode_state(RULES.encode_state(s)) == s


def test_5_1_the_japanese_reinforcement_phase_is_named_in_the_prompt():
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf")
    prompt = RULES.prompt(s)
    assert (prompt.step, [a.name for a in prompt.actions]) == ("GT 7, japanese Reinforcement Phase", ["land", "end"])


def test_6_3_the_attacker_reads_the_defenders_loss_by_unit_the_defender_reads_the_attackers_without_one():
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    chinese, japanese = of(when(s, "japanese", "attack 3408 with d3-r6", rolls=[5]), ev.StepsLost)
    assert (chinese.side, japanese.side) == ("chinese", "japanese")
    assert fog.visible(chinese, "japanese") is True and chinese.describe() == "chinese lose steps: cn-d87"
    assert fog.visible(japanese, "chinese") == "japanese lose 1 step"


def test_10_5_3_staying_reads_as_the_answer_to_the_advance_decision_and_records_the_battle_hex():
    s = then(position({"jp-d3-r6": "3409", "cn-gar-c": "3408"}, turn=7), "japanese", "attack 3408 with d3-r6",
             rolls=[6])
    assert s.pending[0]["kind"] == "advance"
    answered, stayed, closed = when(s, "japanese", "stay")
    assert [e.describe() for e in (answered, stayed, closed)] == [
        "japanese answered the advance decision", "no advance", "battle for 3408 over"]
    assert stayed.path == ["3408"]  # the replay shows the battle's hex on this step (docs/replay.md)


def test_10_5_the_combat_panel_gives_each_sides_losses_and_each_die_face_a_sixth():
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    events = when(s, "japanese", "attack 3408 with d3-r6", rolls=[5])
    at = next(i for i, e in enumerate(events) if isinstance(e, ev.CombatResolved))
    panel = RULES.combat_summary(events[at], fold(s, *events[:at]))
    assert (panel["attacker"], panel["defender"], panel["result"]) == ("japanese", "chinese", "1/1")
    assert panel["losses"] == {"japanese": 1, "chinese": 1}
    assert [d["p"] for d in panel["distribution"]] == [1 / 6] * 6
