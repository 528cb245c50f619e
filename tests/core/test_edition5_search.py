"""Search edition 5 (app/rules/search.py `within_limits`): the strong opponent does not search a move that puts
more of its units in a hex than the stacking limits allow, whose excess the end of the phase eliminates (SNC 6.0);
edition 4's seats still search it, as their games were played (tests/rules/test_pinned_decisions.py)."""
from __future__ import annotations

from app.events.dice import SeededDice
from app.rules import practice, search
from app.rules.catalog import installed

CATALOG = installed()  # the rule sets installed here


def _chinese_moving():
    """SNC GT 1, the Chinese First Operations Phase declared 'move'; the moves that overstack a hex there. Under SNC
    rules version 11, the last played with edition 5 (version 12's fuller list, E24, comes with edition 11 and has
    no move in its first forty that overstacks here)."""
    rules = CATALOG.rules("snc")
    state = rules.played_under(rules.initial_state("campaign", {}), "11")
    for event in rules.decide(state, rules.parse("declare move move", "chinese", state),
                              SeededDice(next_index=0, seed="t", game_id="t")):
        state = rules.evolve(state, event)
    listed = [item["order"] for item in rules.legal_orders(state, "chinese")]
    over = [t for t in listed if t.split()[0] == "move"
            and rules.overstacked(practice.after(rules, state, rules.parse(t, "chinese", state)), "chinese")]
    return rules, state, listed, over


def test_edition_5_passes_over_the_moves_that_overstack_even_when_rated_first():
    rules, state, listed, over = _chinese_moving()
    assert over and rules.overstacked(state, "chinese") == 0  # 6.2: 3 DE a hex; these moves go beyond it
    rated = [(text, 1.0) for text in over + [t for t in listed if t not in over]]
    chosen = [t for t, _ in search.Search(rules, state, "chinese", 10, edition=5).within_limits(state, "chinese",
                                                                                                  rated)]
    assert not set(chosen) & set(over)
    assert len(chosen) == search.WIDTH and chosen[0] == rated[len(over)][0]  # the next best take their places


def test_edition_5_does_not_end_the_phase_while_a_move_brings_the_stack_within_the_limits():
    """A stack made too big in the phase (SNC 6.0 thins it when the phase ends): the orders searched are first
    those that move units out of it, and `end` is not among them while one does."""
    rules, state, listed, over = _chinese_moving()
    state = practice.after(rules, state, rules.parse(over[0], "chinese", state))
    crowded = rules.overstacked(state, "chinese")
    assert crowded
    listed = [item["order"] for item in rules.legal_orders(state, "chinese")]
    assert "end" in listed
    chosen = [t for t, _ in search.Search(rules, state, "chinese", 10, edition=5).within_limits(
        state, "chinese", [(text, 1.0) for text in listed])]
    assert chosen and "end" not in chosen
    thinned = rules.overstacked(practice.after(rules, state, rules.parse(chosen[0], "chinese", state)), "chinese")
    assert thinned < crowded
