"""practice.view_seed's text of a view is the canonical JSON it always was (sorted keys, every list taken as a set),
made in one pass (`_canonical_text`): a seed, and so every automated decision, stays what stored games were decided
by (tests/rules/test_pinned_decisions.py pins some of them)."""
from __future__ import annotations

import enum
import json
import random

import pytest

from app.events.dice import SeededDice
from app.rules import practice
from app.rules.catalog import installed

CATALOG = installed()  # the rule sets installed here


def as_before(x) -> str:
    return json.dumps(practice._canonical(x), sort_keys=True, default=str)


class Colour(enum.IntEnum):
    RED = 1


class Label:
    def __str__(self):
        return "a label"


def test_the_text_is_the_canonical_json_for_every_kind_of_value():
    values = [
        {}, [], (), set(), "", "naïve \"quoted\"\n\u6771", 0, -7, 2**70, 1.5, float("nan"), True, False, None,
        Colour.RED, Label(),
        {2: "int key", "1": [3, 1, 2], "b": {"z": (None, True), "a": frozenset({"y", "x"})}},
        {"units": [{"id": "b", "hex": "0102"}, {"id": "a", "hex": None}, {"id": "a", "hex": "0101"}]},
        [[2, 1], [1, 2], [[]], [{}], "1", 1, 1.0, True],
        {1: "one", "1": "the string one"},
        # a dict of JSON leaves under text keys (a unit of a view: json's encoder writes it whole) and its neighbours
        # that are not one: a key that is not text, a value that is a list, a set or no JSON kind
        {"id": "a", "steps": 2, "static": False, "hex": None, "mp": 1.5, "odds": float("inf"), "v": float("nan")},
        {"naïve \"quoted\"": "\u6771\n", "b": -0.0, "a": 2**70, "c": True},
        {True: 1, "x": 2}, {None: "none"}, {2: "two"}, {"a": (2, 1)}, {"a": {"z", "y"}}, {"a": Label()},
        {"a": Colour.RED}, {"a": [3, 1, 2], "b": 1}, [{"b": 1, "a": 2}, {"a": 1}, {}],
    ]
    for value in values:
        assert practice._canonical_text(value) == as_before(value), value


@pytest.mark.parametrize("game", ["skirmish", "snc", "ichigo", "formosa", "daisenso", "olympic"])
def test_the_text_of_each_games_views_is_the_canonical_json(game):
    rules = CATALOG.rules(game)
    state = rules.initial_state(next(s for s in rules.scenarios if s != "custom"), {})
    dice = SeededDice(next_index=0, seed="views", game_id="g")
    rng = random.Random(3)
    for given in range(12):
        if rules.outcome(state) is not None:
            break
        for side in (None, *rules.sides):
            view = rules.view(state, side)
            assert practice._canonical_text(view) == as_before(view), (game, given, side)
        side = rules.prompt(state).side
        text = rng.choice([o["order"] for o in rules.legal_orders(state, side)])
        for event in rules.decide(state, rules.parse(text, side, state), dice):
            state = rules.evolve(state, event)
