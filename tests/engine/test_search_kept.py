"""The search's answers kept in a process (app/rules/search.py `Search.kept`, CI time: `verify` re-decides every
automated order, and in the process that played the game the search need not run its playouts again): a question
asked again is answered as the first time, each kept answer is the one a fresh search gives whatever part of the
question differs (the position, the rules version it is played under, the side, the orders it has given, the
edition, the playouts, the rule set, the game's data), a timed decision is kept as the exact one of the playouts it
ran, and a stored game whose automated order or reason was changed after the fact still fails `verify` with every
answer kept: nothing stored fills what is kept."""
from __future__ import annotations

import copy
import random

import pytest

from app.events.envelope import StoredEvent
from app.projections import state as projection
from app.rules import practice, search
from app.rules.catalog import installed
from app.rules.engine.state import replace
from app.service import audit
from tests.core.test_automated_seats import tampered
from tests.core.test_search_seat import skirmish_against

CATALOG = installed()  # the rule sets installed here
SNC = CATALOG.rules("snc")
SKIRMISH = CATALOG.rules("skirmish")
PLAYOUTS = 16


def _opened() -> object:
    """SNC's campaign six random orders in (the Chinese moving on GT 1): dice and hidden units in every playout,
    and an evaluation that reads the edition. Under SNC rules version 11: version 12's fuller list (E24) has this
    search answer alike whatever orders it has given, so the test would not see that part of the question."""
    state = SNC.played_under(SNC.initial_state("campaign", {}), "11")
    for k in range(6):
        side = SNC.prompt(state).side
        text, _ = practice.choose(SNC, "random", state, side, None, k)
        state = search.apply_command(SNC, state, SNC.parse(text, side, state), search.PlayoutDice(random.Random(k)))
    return state


STATE = _opened()
SIDE = SNC.prompt(STATE).side


def _ask(how: str, rules, state, side, playouts=PLAYOUTS, given=0, edition=practice.EDITION):
    """The answer to one question through `kept` (what is kept) or `decide` (a search of its own, keeping
    nothing)."""
    try:
        return getattr(search.Search(rules, state, side, playouts, given, None, edition), how)()
    except practice.NoOrder as exc:
        return "no order", str(exc)


def test_a_kept_answer_is_the_fresh_one_whatever_part_of_the_question_differs():
    """One base question, then each variant differing from it in one part the search reads: every answer, asked
    twice (the second time from what is kept), is a fresh search's, and each differs from the base's, so a key
    that left that part out would answer the base's and fail here."""
    moved = _opened()
    side = SNC.prompt(moved).side
    text, _ = practice.choose(SNC, "random", moved, side, None, 9)
    moved = search.apply_command(SNC, moved, SNC.parse(text, side, moved), search.PlayoutDice(random.Random(9)))
    base = (SNC, STATE, SIDE)
    variants = {
        "base": (base, {}),
        "position": ((SNC, moved, SNC.prompt(moved).side), {}),
        "side": ((SNC, STATE, next(s for s in SNC.sides if s != SIDE)), {}),  # not its turn: no order
        "orders given": (base, {"given": 1}),
        "edition": (base, {"edition": 8}),
        "playouts": (base, {"playouts": PLAYOUTS + 1}),
    }
    search._KEPT.clear()
    answers = {}
    for name in [*variants, *reversed(variants)]:  # each asked twice: the second time from what is kept
        args, kwargs = variants[name]
        answers.setdefault(name, _ask("decide", *args, **kwargs))
        assert _ask("kept", *args, **kwargs) == answers[name], name
    for name in variants:
        assert name == "base" or answers[name] != answers["base"], f"{name} should answer otherwise than the base"


def test_the_rule_set_its_version_and_the_game_s_data_are_each_part_of_the_question():
    """What the search reads but this position answers alike: the rules version the game is played under (a field
    of the position), the rule set and the game's data (each by identity): each another question, answered
    afresh."""
    asked = search.Search(SNC, STATE, SIDE, PLAYOUTS, 0, None, practice.EDITION).question(PLAYOUTS)
    older = replace(STATE, rules_version=STATE.rules_version - 1)
    other_data = replace(STATE, data=copy.copy(STATE.data))
    retyped = object.__new__(type("Retyped", (type(STATE),), {}))  # the same fields, another kind of position
    retyped.__dict__.update(STATE.__dict__)

    class Searched(search.Search):  # another search (app/projections/chances.py's reads ahead)
        pass

    others = [search.Search(SNC, older, SIDE, PLAYOUTS, 0, None, practice.EDITION),
              search.Search(SNC, other_data, SIDE, PLAYOUTS, 0, None, practice.EDITION),
              search.Search(copy.copy(SNC), STATE, SIDE, PLAYOUTS, 0, None, practice.EDITION),
              search.Search(SNC, retyped, SIDE, PLAYOUTS, 0, None, practice.EDITION),
              Searched(SNC, STATE, SIDE, PLAYOUTS, 0, None, practice.EDITION)]
    for other in others:
        assert other.question(PLAYOUTS) != asked
    assert search.Search(SNC, _opened(), SIDE, PLAYOUTS, 0, None, practice.EDITION).question(PLAYOUTS) == asked


def test_a_timed_decision_is_kept_as_the_exact_one_of_the_playouts_it_ran(monkeypatch):
    state = SKIRMISH.initial_state("standard", {})
    side = SKIRMISH.prompt(state).side
    search._KEPT.clear()
    timed = search.Search(SKIRMISH, state, side, search.MAX_PLAYOUTS, 0, 0.05, practice.EDITION)
    text, why = timed.kept()
    ran = why["playouts"]
    assert ran == timed.done >= search.MIN_PLAYOUTS
    fresh = search.Search(SKIRMISH, state, side, ran, 0, None, practice.EDITION).decide()
    assert (text, why) == fresh
    monkeypatch.setattr(search.Search, "decide", lambda self: pytest.fail("asked again"))
    assert search.Search(SKIRMISH, state, side, ran, 0, None, practice.EDITION).kept() == fresh


@pytest.fixture
def played(store):
    """A skirmish whose blue is a `search:8` seat, red giving random legal orders for a Game-Turn, played here:
    every one of blue's answers is kept in this process."""
    return store, skirmish_against(store, "search:8", turns=1, seed=3, orders=60)


def _searched(events: list[StoredEvent]) -> list[StoredEvent]:
    return [e for e in events if e.type == "core.OrderGiven" and e.actor == "auto:blue"
            and e.payload["auto"]["reason"]["playouts"]]


def test_a_changed_automated_order_or_reason_fails_verify_with_every_answer_kept(played, monkeypatch):
    """Every one of blue's orders is re-decided from what its play kept (no playout runs again), and a stored
    order changed to another legal order, or its reason's value or summary changed, is found all the same."""
    store, game_id = played
    events = list(store.events(game_id))
    order = _searched(events)[0]
    before = projection.load(store, CATALOG, game_id, at=order.seq - 1).game
    other = next(o["order"] for o in SKIRMISH.legal_orders(before, "blue") if o["order"] != order.payload["text"])
    monkeypatch.setattr(search.Search, "decide", lambda self: pytest.fail("a kept answer decided again"))
    assert audit.verify(CATALOG, events).ok
    auto, reason = order.payload["auto"], order.payload["auto"]["reason"]
    changes = {
        "order": {**order.payload, "text": other, "command": SKIRMISH.parse(other, "blue", before).to_dict()},
        "value": {**order.payload, "auto": {**auto, "reason": {**reason, "value": reason["value"] + 0.5}}},
        "summary": {**order.payload, "auto": {**auto, "reason": {**reason, "summary": "search: trust me"}}},
    }
    for name, payload in changes.items():
        found = audit.verify(CATALOG, tampered(events, order.seq, payload))
        assert found.first_bad_seq == order.seq and "policy search gives" in found.problems[0].message, name
