"""Rows of docs/cases/ichigo.md that part 8's per-case mutation report (`bench/mutation.py --cases`) still flagged:
the mutants drawn for 9.9, 11.13 and 11.29 passed the row's own tests. Each test here holds the row's rule where a
player would notice it: the refusal read whole with its case, or what the battle leaves on the map."""
from pathlib import Path

from ichigo_given import RULES, chinese, fold, of, position, when

from app.rules.ichigo import events as ev
from tests.fuzzing import refusal

PRINTED = Path("app/rules/ichigo/data/map.toml").read_text(encoding="utf-8")
# A custom map that counts the mainland coast hex 2917 as part of Formosa: on the printed map every Formosa hex
# neighbours only Formosa and sea hexes, so a Chinese move is refused by 10.10/10.2 before Formosa is reached.
JOINED = PRINTED.replace('formosa = [\n    "3118"', 'formosa = [\n    "2917", "3118"')


def test_9_9_a_chinese_move_into_a_formosa_hex_of_a_custom_map_is_refused_naming_9_9():
    assert JOINED != PRINTED
    state = RULES.initial_state("campaign", {"map": JOINED, "position": {
        "turn": 2, "phase": "VIII", "plans": {"chinese": "move-fight"}, "units": {"cn-reg-02": "2916"}}})
    assert refusal(RULES, state, "allied", "move C01 to 2917") == \
        "Ichi-Go 9.9: Chinese units never enter Formosa"


def test_11_13_an_attack_across_a_lake_hexside_is_refused_naming_the_unit_the_hexes_and_the_lake():
    s = position({"jp-cea-40div": "2703"}, extra=(chinese("C01", "cn-reg-02", "2803", tried=True),))
    assert refusal(RULES, s, "japanese", "attack 2803 with jp-cea-40div") == \
        "Ichi-Go 11.13: jp-cea-40div in 2703 cannot attack 2803 across lake"


def test_11_29_the_intrinsic_garrison_that_survives_a_battle_keeps_the_city_and_no_advance_is_offered():
    """Three 1-factor Chinese armies against the garrison of 1811 alone: 3:1, city 1L -> 2:1, die 1: 1/0, the
    Chinese lose two steps (11.23); the garrison lost none, so it still holds 1811 and the survivor stays put."""
    s = position({}, phase="VIII", plans={"chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-09", "1810", tried=True), chinese("C02", "cn-reg-11", "1810",
                                                                                  tried=True),
                        chinese("C03", "cn-reg-14", "1810", tried=True)))
    evs = when(s, "allied", "attack 1811 with C01 C02 C03", rolls=[1])
    assert of(evs, ev.BattleResolved)[0].result == "1/0" and not of(evs, ev.GarrisonDestroyed)
    s = fold(s, *evs, *when(fold(s, *evs), "allied", "lose C01 C02"))
    assert "advance" not in [a.name for a in RULES.prompt(s).actions]
    assert s.units["C03"].hex == "1810" and "1811" in s.jp_control and "1811" not in s.garrison_lost
