"""The greedy practice opponent as seats play it now (edition 2, app/rules/practice.py `greedy`), in the fast tier
(edition 1's is in test_practice_policies.py, whole games in the slow tier): the attack at the best odds and none
below 3:2, the move that brings a unit nearest an objective, a victory hex it holds never left empty, a kind of
marker it lacks bought first, and its ratings best first, in the listed order among equals."""
from __future__ import annotations

from dataclasses import replace

from app.events.dice import RecordedDice
from app.rules import practice
from app.rules.formosa import GAME as FORMOSA
from app.rules.formosa.state import OUT
from app.rules.skirmish import GAME as SKIRMISH

CASE = practice.GREEDY_CASE


def skirmish(village_holder=None, **placements):
    state = SKIRMISH.initial_state("standard", {})
    units = {uid: replace(u, hex=placements.get(uid, u.hex)) for uid, u in state.units.items()}
    return replace(state, units=units, village_holder=village_holder)


def ended(state, side: str):
    for event in SKIRMISH.decide(state, SKIRMISH.parse("end", side, state), RecordedDice(next_index=0, recorded=[])):
        state = SKIRMISH.evolve(state, event)
    return state


def greedy(rules, state, side: str):
    return practice.choose(rules, "greedy", state, side)


def test_greedy_moves_a_unit_onto_the_village_it_does_not_hold_and_says_by_how_much():
    text, reason = greedy(SKIRMISH, skirmish(), "red")
    assert text.startswith("move R") and text.endswith(" 0403")  # three hexes from the red line: all the way
    assert reason == {"case": CASE, "rule": "move toward objectives", "gain": 3,
                      "summary": "greedy: nearer an objective by 3 hex(es)"}


def test_greedy_attacks_at_the_best_odds_and_never_below_3_2():
    state = ended(skirmish(R1="0602", R2="0603", B1="0702"), "red")
    assert "attack 0702 with R1" in [o["order"] for o in SKIRMISH.legal_orders(state, "red")]  # 1:1
    assert greedy(SKIRMISH, state, "red") == ("attack 0703 with R1 R2", {
        "case": CASE, "rule": "best odds attack", "column": "2:1",
        "summary": "greedy: the attack at the best odds (2:1)"})
    alone = ended(skirmish(R1="0602", B1="0702"), "red")  # only 1:1 attacks: not worth giving
    assert greedy(SKIRMISH, alone, "red") == ("end", {
        "case": CASE, "rule": "end", "summary": "greedy: nothing better to do in this step"})


def test_a_held_village_is_never_left_empty_and_the_enemy_units_become_the_objectives():
    state = skirmish(village_holder="red", R1="0403")
    seen = practice.Seen(SKIRMISH, state, "red")
    assert seen.held == {"0403"}
    assert seen.goals == sorted(u.hex for u in state.units.values() if u.side == "blue")
    assert seen.hexes == {"R1": "0403", "R2": "0103", "R3": "0104"}
    assert seen.left_behind(["R1"]) and not seen.left_behind(["R2"])
    assert not practice.Seen(SKIRMISH, skirmish(village_holder="red", R1="0403", R2="0403"), "red").left_behind(["R1"])
    listed = SKIRMISH.legal_orders(state, "red")
    rated = {text: score for score, text, _ in practice.ratings(SKIRMISH, state, "red", listed)}
    assert all(score is None for text, score in rated.items() if text.startswith("move R1 "))
    text, _ = greedy(SKIRMISH, state, "red")
    assert not text.startswith("move R1 ")


def test_ratings_put_the_best_first_the_unrated_last_and_keep_the_listed_order_among_equals():
    state = skirmish()
    listed = SKIRMISH.legal_orders(state, "red")
    for order in (listed, listed[::-1]):
        rated = practice.ratings(SKIRMISH, state, "red", order)
        scores = [score for score, _, _ in rated]
        known = [s for s in scores if s is not None]
        assert known == sorted(known, reverse=True) and scores == known + [None] * (len(scores) - len(known))
        tied = max(set(known), key=known.count)  # moves that gain as much as each other
        equals = [text for score, text, _ in rated if score == tied]
        assert len(equals) > 1 and equals == [o["order"] for o in order if o["order"] in equals]
    score = {text: score for score, text, _ in practice.ratings(SKIRMISH, state, "red", listed)}
    assert score["move R1 0101"] is None and score["move R2 0102"] is None  # away from the village, and sideways


def test_greedy_buys_first_a_kind_of_marker_the_side_lacks():
    start = FORMOSA.initial_state("1", {})
    state = replace(start, step="recruit-allied", turn=3, lp={"allied": 5, "japanese": 0}, markers={"amphibious": 2},
                    rules_version=19)  # Formosa rules 20 (ruling F159) lists each number of each kind too
    listed = FORMOSA.legal_orders(state, "allied")
    rated = {text: (score, reason) for score, text, reason in practice.ratings(FORMOSA, state, "allied", listed)}
    assert rated["buy 1 drop-zone"] == (11, {"case": CASE, "rule": "decision",
                                             "summary": "greedy: the step asks for 'buy', one of a kind it lacks"})
    assert rated["buy 1 amphibious"] == (10, {"case": CASE, "rule": "decision",
                                              "summary": "greedy: the step asks for 'buy'"})
    text, reason = greedy(FORMOSA, state, "allied")
    assert text.startswith("buy 1 ") and text != "buy 1 amphibious" and reason["rule"] == "decision"


def test_greedy_made_to_attack_below_3_2_falls_back_on_a_random_legal_order_and_says_so():
    # Formosa 15.0: a unit in an enemy ZOC must attack before the Combat Phase ends, so `end` is refused; the one
    # attack (one regiment against another in the open, 100-199%) is below 3:2, which greedy does not rate.
    # Greedy finds nothing to rate and gives what the random player draws (its seed: the view and the orders given)
    start = FORMOSA.initial_state("1", {})
    units = {uid: replace(u, where=OUT) for uid, u in start.units.items()}
    units["us-7-17"] = replace(start.units["us-7-17"], where="1012", concealed=False)
    units["jp-50-301"] = replace(start.units["jp-50-301"], where="1013", concealed=False)
    state = replace(start, step="allied-combat", turn=2, units=units, to_place=(), lp={"allied": 0, "japanese": 0},
                    rules_version=19)  # Formosa rules 20 (ruling F155) lists the attack with its gunfire too
    assert [(o["order"], o.get("odds")) for o in FORMOSA.legal_orders(state, "allied")] == [
        ("attack 1013 with us-7-17", "100-199%")]
    for given, drawn in ((0, 3), (1, 1)):  # a seat of edition 4 (greedy before its forced attack)
        assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 4}, given=given) == (
            "attack 1013 with us-7-17", {
                "case": practice.RANDOM_CASE,
                "summary": f"greedy found nothing to rate: a random legal order (candidate {drawn} of 3, drawn with "
                           "a seed from what allied sees)"})
    # from edition 5 greedy gives the attack the rules require, at the best odds listed, and says so
    assert practice.choose(FORMOSA, "greedy", state, "allied", given=0) == ("attack 1013 with us-7-17", {
        "case": CASE, "rule": "forced attack", "column": "100-199%",
        "summary": "greedy: an attack the rules require, at the best odds listed (100-199%)"})
