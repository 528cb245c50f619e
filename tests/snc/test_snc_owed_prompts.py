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


def test_the_fewest_units_to_eliminate_from_an_overstack_are_the_fewest_however_many_stand_there():
    """SNC 6.0, 6.2: the count the elimination prompt owes equals the one every set of each size finds, for random
    stacks of both sides, and a hex of twenty units is answered too (each set of each size was tried before)."""
    import random
    from itertools import combinations

    from app.rules.kernel.hexgrid import Hex
    from app.rules.kernel.stacking import overstacked
    from app.rules.snc import sequence
    from tests.snc.snc_given import initial_state, position

    def brute(state, side, h):
        mf = state.data.params["game"]["mobile_mf"]
        mine = [u for u in state.at(h) if u.side == side]
        for k in range(1, len(mine) + 1):
            for gone in combinations(mine, k):
                if not overstacked([u.piece(mf) for u in mine if u not in gone], state.data.stacking, Hex.parse(h)):
                    return k
        return len(mine)

    units = initial_state().units
    rng = random.Random(60)
    for side in ("japanese", "chinese"):
        pool = sorted(uid for uid, u in units.items() if u.side == side and not u.static)
        for _ in range(25):
            chosen = rng.sample(pool, rng.randint(2, 8))
            state = position(dict.fromkeys(chosen, "3010"), side=side)
            assert sequence.fewest_to_eliminate(state, side, "3010") == brute(state, side, "3010"), chosen
    big = sorted(uid for uid, u in units.items() if u.side == "chinese" and not u.static)[:20]
    state = position(dict.fromkeys(big, "3010"), side="chinese")
    fewest = sequence.fewest_to_eliminate(state, "chinese", "3010")
    mf = state.data.params["game"]["mobile_mf"]
    assert 1 <= fewest < 20 and not any(
        not overstacked([u.piece(mf) for u in state.at("3010")][:k], state.data.stacking, Hex.parse("3010"))
        for k in range(20 - fewest + 1, 21))  # keeping more than 20 - fewest units is always overstacked


def test_the_sets_to_eliminate_listed_for_a_big_overstack_each_bring_the_hex_within_the_limits():
    """SNC 6.0: the list of sets of the fewest units to eliminate starts from one set known to do it and tries a
    bounded number of others (a stack of twenty-odd units has millions of sets of that size, and the list once
    tried them all)."""
    from dataclasses import replace

    from app.rules.kernel.hexgrid import Hex
    from app.rules.kernel.stacking import overstacked
    from app.rules.snc import sequence
    from tests.snc.snc_given import initial_state, position

    units = initial_state().units
    for side in ("chinese", "japanese"):
        big = sorted(uid for uid, u in units.items() if u.side == side and not u.static)[:24]
        state = position(dict.fromkeys(big, "3010"), side=side)
        state = replace(state, pending=({"kind": "eliminate", "side": side, "data": {"hex": "3010"}},))
        fewest = sequence.fewest_to_eliminate(state, side, "3010")
        listed = [c["units"] for c in sequence._eliminate_candidates(state, side)]
        mf = state.data.params["game"]["mobile_mf"]
        assert 1 <= len(listed) <= sequence.MAX_CHOICES
        for gone in listed:
            kept = [u.piece(mf) for u in state.at("3010") if u.side == side and u.id not in gone]
            assert len(gone) == fewest and not overstacked(kept, state.data.stacking, Hex.parse("3010")), gone
