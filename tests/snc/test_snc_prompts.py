"""Issue 14 in SNC: prompts that say what is owed, texts that say what happened and what to do instead."""
from __future__ import annotations

import pytest

from app.rules.errors import IllegalOrder
from tests.snc.snc_given import RULES, fold, position, then, when

D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r29", "jp-d3-r34", "jp-d3-arty"]


def at(h: str, ids) -> dict:
    return {u: h for u in ids}


def test_a_pass_against_air_support_is_not_logged_as_an_interception():
    s = position({**at("3510", D3), "cn-d87": "3511"}, turn=3)
    s = fold(s, *when(s, "japanese", "attack 3511 with 3510 support air"))
    lines = [RULES.describe(e) for e in when(s, "chinese", "pass", rolls=[4])]
    assert "chinese answered the intercept decision" in lines
    assert not any("decided: intercept" in line for line in lines)


def test_an_advance_to_the_wrong_hex_names_the_hex_to_advance_into():
    s = position({"jp-d3-r6": "2409", "jp-d3-r18": "2409", "cn-d7": "2410"}, turn=7)
    s = then(s, "japanese", "attack 2410 with 2409", rolls=[6])
    with pytest.raises(IllegalOrder) as refused:
        when(s, "japanese", "advance d3-r6 to 2411")
    text = str(refused.value)
    assert "2410" in text and "`advance jp-d3-r6 to 2410`" in text and "stay" in text
    assert "starts in" not in text
