"""Issue 14: `legal_orders(state, side)` lists concrete orders, every one of them accepted by `do`, and no order
`do` refuses. A property over the positions of random games of every game with decisions and combat."""
from __future__ import annotations

import random
from dataclasses import replace
from unittest import mock

import pytest

from app.events.dice import SeededDice
from app.rules import legal
from app.rules.catalog import installed
from app.rules.engine.state import _MEMO, Memo
from app.rules.errors import OrderError
from app.rules.practice_v1 import candidate_source  # the rule sets' own guesses, as edition 1 drew them
from tests import fuzzing

CATALOG = installed()  # the rule sets installed here


@pytest.mark.slow  # random games, the list of legal orders checked at some of their positions
@pytest.mark.parametrize("game, orders, share", [("snc", 300, 0.1), ("ichigo", 200, 0.1), ("daisenso", 200, 1.0),
                                                 ("olympic", 60, 0.3)])
def test_every_listed_order_is_accepted_and_no_refused_order_is_listed(game, orders, share):
    rules = CATALOG.rules(game)
    practice = candidate_source(rules)
    play = fuzzing.legal_candidates(rules)
    checked = {"listed": 0, "refused": 0, "positions": 0}

    def check(state, rng):
        side = rules.prompt(state).side
        if rng.random() < share:
            listed = legal.legal_orders(rules, state, side)
            assert listed, f"{game}: nothing listed at {rules.prompt(state).step}"
            for item in rng.sample(listed, min(8, len(listed))):
                dice = SeededDice(next_index=0, seed="legal", game_id="legal")
                rules.decide(state, rules.parse(item["order"], side, state), dice)  # accepted: raises nothing
                checked["listed"] += 1
            shown = {o["order"] for o in listed}
            for text in practice(state, rng)[:8]:  # another player's guesses: a refused one is never listed
                try:
                    rules.decide(state, rules.parse(text, side, state), SeededDice(next_index=0, seed="x",
                                                                                     game_id="x"))
                except OrderError:
                    assert text not in shown, f"{game}: {text!r} is listed and refused"
                    checked["refused"] += 1
            checked["positions"] += 1
        return play(state, rng)

    for seed in range(14, 20):  # a random game may end at once (SNC 4.2 on GT 1): then the next seed's
        fuzzing.play(rules, check, random.Random(seed), orders, f"legal-{game}")
        if checked["positions"] >= 3 and checked["listed"] >= 6:
            break
    assert checked["positions"] >= 3 and checked["listed"] >= 6, checked


def test_legal_orders_are_listed_only_for_the_side_to_act_and_attacks_carry_their_odds_column():
    rules = CATALOG.rules("snc")
    from tests.snc.snc_given import position

    s = position({"jp-d3-r6": "3510", "jp-d3-r18": "3510", "cn-d87": "3511"}, turn=3)
    assert legal.legal_orders(rules, s, "chinese") == []
    attacks = [o for o in legal.legal_orders(rules, s, "japanese") if o["action"] == "attack"]
    assert {o["order"] for o in attacks} >= {"attack 3511 with jp-d3-r6 jp-d3-r18",
                                             "attack 3511 with jp-d3-r6 jp-d3-r18 support air"}
    plain = next(o for o in attacks if o["order"] == "attack 3511 with jp-d3-r6 jp-d3-r18")
    preview = rules.preview(s, rules.parse(plain["order"], "japanese", s))
    assert plain["odds"] == preview["column_label"] and plain["case"] == "SNC 10.0"


@pytest.mark.parametrize("game", ["snc", pytest.param("ichigo", marks=pytest.mark.slow)])  # Ichi-Go: 3 s
def test_the_per_position_memo_changes_no_listed_order_and_is_no_part_of_the_state(game):
    """What a position derives once (zones of control, reaches, supply: app/rules/engine/state.py `Memo`) gives
    the list of legal orders it gives when derived again for every probe; a copy made from the state's fields, its
    equality and its snapshot never carry it."""
    rules = CATALOG.rules(game)
    seen = []

    def keep(state, rng):
        seen.append(state)
        return fuzzing.legal_candidates(rules)(state, rng)

    fuzzing.play(rules, keep, random.Random(3), 40, f"memo-{game}")
    lists = ((s, legal.legal_orders(rules, s, rules.prompt(s).side)) for s in reversed(seen))
    state, listed = next((s, found) for s, found in lists if any(o["action"] == "move" for o in found))
    side = rules.prompt(state).side
    with mock.patch.object(Memo, "memo", lambda self, key, compute: compute()):
        again = legal.legal_orders(rules, replace(state), side)
    assert listed == again
    copy = replace(state)
    assert copy == state and rules.encode_state(copy) == rules.encode_state(state)
    assert not _MEMO.get(id(copy)) and _MEMO.get(id(state))
