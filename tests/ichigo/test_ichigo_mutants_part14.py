"""Ichi-Go mutation survivors of session part 14 (docs/mutation-survivors.md, part 14), each killed by what a player
of the game reads."""
import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, when

from app.rules.custom_setup import SetupError
from app.rules.ichigo import GAME


def test_11_27_the_combat_panel_of_a_battle_against_only_zero_defenders_shows_no_strengths_and_no_die():
    """`combat.attack` 125: where every defender is a zero (11.27: in effect a DE) no odds are worked out, and the
    combat panel shows none: attack 0 against 0, no odds, no column, no die, the case 11.27 (the mutant showed an
    attack of 1)."""
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),))   # a zero, untried
    evs = when(s, "japanese", "attack 2011 with jp-cea-110div")
    before = fold(s, *evs[:evs.index(of(evs, ev.BattleResolved)[0])])
    panel = RULES.combat_summary(of(evs, ev.BattleResolved)[0], before)
    assert {k: panel[k] for k in ("attacker", "hex", "attackers", "attack", "defence", "odds", "column", "roll",
                                  "result", "case", "distribution")} == {
        "attacker": "japanese", "hex": "2011", "attackers": ["jp-cea-110div"], "attack": 0, "defence": 0,
        "odds": "-", "column": "-", "roll": 0, "result": "DE", "case": "Ichi-Go 11.27", "distribution": []}


def test_5_5_a_position_whose_plans_are_not_a_nations_order_of_phases_is_refused_saying_what_plans_holds():
    """`position._apply` 156: a position file's `plans` naming an order of phases there is none of (5.5) is refused
    with the problem spelt out (the mutant listed `None` as the problem)."""
    with pytest.raises(SetupError) as refused:
        GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "units": {"jp-cea-110div": "2010"},
                                                     "plans": {"chinese": "fight-fight"}}})
    assert refused.value.problems == [
        "'plans' maps a nation (japanese, chinese, us) to move-fight or fight-move (5.5)"]
