"""Ichi-Go 6.6 and 11.27 fog of war on fixed positions (the fuzzed game of test_ichigo_fog.py finds a case by
chance; these hold it every run): what a battle's decision and result name, read by each side through the one
visibility rule, against that side's views (tests/fogcheck.py `unseen_in_lines`)."""
from dataclasses import replace

from ichigo_given import RULES, chinese, ev, fold, of, position, when

from app.rules.engine.events import DecisionRequired
from app.rules.ichigo.state import RULES_VERSION
from tests.fogcheck import namer, unseen_in_lines

named = namer(["jp-cea-110div", "C01", "C02", "C03", "cn-reg-02", "cn-reg-04", "cn-reg-07"])


def chinese_attack_with_a_zero():
    """Phase IX, a Chinese attack on the Japanese 110th Division (a defensive tank regiment may be committed,
    11.17) by C01, untried and a zero (11.27), and C02 and C03, tried and stacked in 2012, where the Japanese see
    only the top one (6.6)."""
    return position({"jp-cea-110div": "2011"}, phase="IX", plans={"chinese": "move-fight"},
                    extra=(chinese("C01", "cn-reg-04", "2010"), chinese("C02", "cn-reg-02", "2012", tried=True),
                           chinese("C03", "cn-reg-07", "2012", tried=True)))


def test_e15_after_a_zero_flips_the_tanks_decision_and_the_battle_name_only_the_attackers_still_in_it():
    s = chinese_attack_with_a_zero()
    attack = when(s, "allied", "attack 2011 with C01 C02 C03")
    assert [type(e).__name__ for e in attack] == ["Revealed", "ReturnedToPool", "DecisionRequired"]
    [tanks] = of(attack, DecisionRequired)
    assert tanks.kind == "tanks" and tanks.data["attackers"] == ["C02", "C03"]   # C01 went back to the pool
    commit = when(fold(s, *attack), "japanese", "commit 0", rolls=[4])
    [battle] = of(commit, ev.BattleResolved)
    assert battle.attackers == ["C02", "C03"]
    # every line each side reads names only units its views show (the allied C01 has left play; the Japanese
    # see one unit of 2012)
    assert unseen_in_lines(RULES, s, [("allied", "attack 2011 with C01 C02 C03", attack),
                                      ("japanese", "commit 0", commit)], named) == []


def test_e15_the_japanese_deciding_on_tanks_read_no_attacker_in_their_prompt_or_list():
    s = fold(chinese_attack_with_a_zero(), *when(chinese_attack_with_a_zero(), "allied",
                                                 "attack 2011 with C01 C02 C03"))
    prompt = RULES.prompt(s)
    assert prompt.side == "japanese" and prompt.owed is not None
    assert not named(prompt.owed.text()) and not named(" ".join(o["order"] for o in
                                                                RULES.legal_orders(s, "japanese")))


def test_e15_a_game_created_under_version_2_still_names_the_attackers_as_ordered():
    s = RULES.played_under(chinese_attack_with_a_zero(), "2")
    [tanks] = of(when(s, "allied", "attack 2011 with C01 C02 C03"), DecisionRequired)
    assert tanks.data["attackers"] == ["C01", "C02", "C03"]   # its stored events still verify
    assert replace(s, rules_version=RULES_VERSION) == chinese_attack_with_a_zero()
