"""Issue 14 in Ichi-Go: the preview refuses what the order refuses, and says why each strength is what it is."""
from __future__ import annotations

import pytest
from ichigo_given import chinese, position

from app.rules.errors import IllegalOrder
from app.rules.ichigo import GAME as RULES

ATTACK = "attack 2011 with jp-cea-110div jp-cea-26div"


def _position():
    return position({"jp-cea-110div": "2010", "jp-cea-26div": "2012"},
                    extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))


@pytest.mark.parametrize("order, case", [(f"{ATTACK} tanks 3", "Ichi-Go 11.17"),   # two divisions to support
                                         (f"{ATTACK} sf", "Ichi-Go 11.28")])       # the 1st SF not yet arrived
def test_preview_refuses_what_do_refuses(order, case):
    s = _position()
    command = RULES.parse(order, "japanese", s)
    with pytest.raises(IllegalOrder, match=case) as by_do:
        RULES.decide(s, command, None)
    with pytest.raises(IllegalOrder) as by_preview:
        RULES.preview(s, command)
    assert str(by_preview.value) == str(by_do.value)


def test_11_6_a_preview_of_anything_but_an_attack_is_refused_saying_what_it_takes():
    s = _position()
    with pytest.raises(IllegalOrder) as refused:
        RULES.preview(s, RULES.parse("move jp-cea-110div to 2009", "japanese", s))
    assert str(refused.value) == "Ichi-Go 11.6: only attack orders have a preview"


def test_preview_text_lists_each_attacker_with_its_strength():
    s = _position()
    text = RULES.preview(s, RULES.parse(ATTACK, "japanese", s))["text"]
    assert any(line.strip().startswith("attack: jp-cea-110div") for line in text.splitlines())
    assert any(line.strip().startswith("attack: jp-cea-26div") for line in text.splitlines())


def test_a_momentum_decision_offers_the_attack_then_stay():
    """Ichi-Go 11.25: the prompt's order of actions is the game's, whatever shape its states table has."""
    from ichigo_given import chinese, position, then

    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-04", "2011"),
                                                   chinese("C02", "cn-reg-02", "2012", tried=True)))
    s = then(then(s, "japanese", "attack 2011 with jp-cea-110div"), "japanese", "advance jp-cea-110div")
    assert [a.name for a in RULES.prompt(s).actions] == ["attack", "stay"]


def test_11_28_a_preview_with_the_1st_sf_shows_its_shift():
    from dataclasses import replace

    s = _position()
    s = replace(s, units={**s.units, "jp-14aa-1sf": replace(s.units["jp-14aa-1sf"], status="sf-ready")})
    plain = RULES.preview(s, RULES.parse(ATTACK, "japanese", s))
    helped = RULES.preview(s, RULES.parse(f"{ATTACK} sf", "japanese", s))
    assert "Ichi-Go 11.28" not in plain["text"]
    assert "1R (Ichi-Go 11.28: 1st SF Group)" in helped["shifts"]
