"""Ichi-Go rules fidelity, session part 18 (issue 30): docs/rulings/ichigo-engine.md E66 and on."""
from __future__ import annotations

from ichigo_given import RULES, chinese, position, then

from app.rules import legal
from tests.fuzzing import refusal

NO_TANKS = ("Ichi-Go 11.25: tank regiments and the 1st SF never join momentum attacks: give the attack without "
            "'tanks', not even 'tanks 0'")


def _momentum(version: str | None = None):
    """GT 2: the 110th Division has taken 2011 and advanced; the Chinese hold 2012 next to it (11.25)."""
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"}, turn=2, phase="VI",
                 plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True),
                        chinese("C02", "cn-reg-02", "2012", tried=True)))
    if version is not None:
        s = RULES.played_under(s, version)
    s = then(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[2])
    return then(s, "japanese", "advance jp-cea-110div")


def test_11_25_e66_a_momentum_attack_naming_tanks_0_is_refused_by_11_25():
    s = _momentum()
    assert RULES.prompt(s).owed is not None and s.pending[0]["kind"] == "momentum"
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div tanks 0") == NO_TANKS
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div tanks 0 sf") == NO_TANKS
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div tanks 1") == NO_TANKS
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div sf") == (
        "Ichi-Go 11.25: tank regiments and the 1st SF never join momentum attacks")
    # without `tanks` the momentum attack is taken, and the list offers it so
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div") is None
    assert "attack 2012 with jp-cea-110div" in [o["order"] for k in legal.by_kind(RULES, s, "japanese")
                                                for o in k["orders"]]


def test_11_25_e66_a_game_of_version_17_takes_tanks_0_in_a_momentum_attack_as_played():
    s = _momentum("17")
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div tanks 0") is None
    assert RULES.parse("attack 2012 with jp-cea-110div tanks 0", "japanese", s).args["tanks"] == 0
    assert refusal(RULES, s, "japanese", "attack 2012 with jp-cea-110div tanks 1") == (
        "Ichi-Go 11.25: tank regiments and the 1st SF never join momentum attacks")


def test_11_17_e66_an_attack_that_is_not_a_momentum_attack_still_reads_tanks_0():
    s = position({"jp-cea-110div": "2010"}, turn=2, phase="VI", plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True),))
    assert refusal(RULES, s, "japanese", "attack 2011 with jp-cea-110div tanks 0") is None


ALLIED_TANKS = ("Ichi-Go 11.17: tank regiments are Japanese and support Japanese attacks only: an Allied attack names "
                "no 'tanks', not even 'tanks 0'")


def _chinese_attack():
    return position({"jp-cea-3bde": "2010"}, phase="VIII", plans={"chinese": "fight-move"},
                    extra=(chinese("C01", "cn-reg-49", "2011", tried=True),))


def test_11_17_e67_an_allied_attack_naming_tanks_0_is_refused_by_11_17():
    s = _chinese_attack()
    assert refusal(RULES, s, "allied", "attack 2010 with C01 tanks 0") == ALLIED_TANKS
    assert refusal(RULES, s, "allied", "attack 2010 with C01 tanks 1") == ALLIED_TANKS
    assert refusal(RULES, s, "allied", "attack 2010 with C01") is None
    # a Japanese attack still names its tank regiments, or none
    j = position({"jp-cea-110div": "2010"}, turn=2, phase="VI", plans={"japanese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-49", "2011", tried=True),))
    assert refusal(RULES, j, "japanese", "attack 2011 with jp-cea-110div tanks 1") is None


def test_11_17_e67_a_game_of_version_17_takes_tanks_0_in_an_allied_attack_as_played():
    s = RULES.played_under(_chinese_attack(), "17")
    assert refusal(RULES, s, "allied", "attack 2010 with C01 tanks 0") is None
    assert refusal(RULES, s, "allied", "attack 2010 with C01 tanks 1") == (
        "Ichi-Go 11.17: tank regiments support Japanese attacks only, never momentum")


def test_11_17_e67_a_japanese_attack_on_formosa_naming_tanks_0_is_refused_by_11_17():
    s = position({"jp-cea-110div": "3222", "us-1c": "3221"}, turn=8, causeway=True)  # 3221 is on Formosa
    formosa = ("Ichi-Go 11.17: tank regiments fight on the mainland only: an attack on 3221, on Formosa, names no "
               "'tanks', not even 'tanks 0'")
    assert refusal(RULES, s, "japanese", "attack 3221 with jp-cea-110div tanks 0") == formosa
    assert refusal(RULES, s, "japanese", "attack 3221 with jp-cea-110div") is None
    assert refusal(RULES, RULES.played_under(s, "17"), "japanese", "attack 3221 with jp-cea-110div tanks 0") is None
