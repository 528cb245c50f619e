"""Part 17's hostile input against the session's changes: an order out of its step read by every form of its verb
(app/rules/engine/table.py `_parse`; Formosa deploy/reveal/lose, SNC advance, Dai Senso retreat). Bad input gets
one clear answer: where two forms fail for the same reason, the reason is said once."""
from __future__ import annotations

import pytest

from app.rules.catalog import installed
from app.rules.errors import InvalidOrder

CATALOG = installed()
LONG = " ".join(["w"] * 70)


@pytest.mark.parametrize(("game", "order", "reason"), [
    ("snc", "advance x", "no unit is called 'x'"),
    ("snc", f"advance {LONG}", "an order has at most 64 words"),
    ("formosa", f"deploy {LONG}", "an order has at most 64 words"),
    ("formosa", f"reveal {LONG}", "an order has at most 64 words"),
    ("daisenso", f"retreat {LONG}", "an order has at most 64 words"),
])
def test_an_order_every_form_of_its_verb_refuses_alike_names_the_reason_once(game, order, reason):
    """Each form of the verb fails the same way: the answer was that reason twice ('...; or ...' the same words)."""
    rules = CATALOG.rules(game)
    state = rules.initial_state(next(iter(rules.scenarios)), {}, rules.version)
    for side in rules.sides:
        with pytest.raises(InvalidOrder) as refused:
            rules.parse(order, side, state)
        assert refused.value.reason == reason, refused.value.reason
        assert str(refused.value).count(reason) == 1


def test_forms_failing_differently_still_give_each_form_s_syntax():
    """The forms' different reasons are all kept: the player reads both syntaxes (Formosa's two deploys)."""
    rules = CATALOG.rules("formosa")
    state = rules.initial_state(next(iter(rules.scenarios)), {}, rules.version)
    with pytest.raises(InvalidOrder) as refused:
        rules.parse("deploy", "japanese", state)
    assert "'deploy default'" in refused.value.reason and "'deploy UNIT PLACE'" in refused.value.reason
