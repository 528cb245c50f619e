"""The strong practice opponent as a seat (issue 29): chosen at creation (`search`, `search:N`, `search:3s`), its
orders stored with their reasons (the playouts done), and `verify` re-deciding each exactly: a timed decision is
run again with the playouts its reason records, whatever the clock says, and a reason that claims other playouts
or another order is found."""
from __future__ import annotations

import random

import pytest

from app.projections import state as projection
from app.rules import practice, search
from app.rules.catalog import installed
from app.service import audit, autoplay, games
from tests.core.test_automated_seats import tampered

CATALOG = installed()  # the rule sets installed here

SKIRMISH = CATALOG.rules("skirmish")


def test_the_search_is_chosen_at_creation_with_its_budget(store):
    assert practice.seats(SKIRMISH, ["blue:search"]) == {"blue": "search"}
    assert practice.seats(SKIRMISH, ["blue:search:400"]) == {"blue": "search:400"}
    assert practice.seats(SKIRMISH, {"blue": "search:0.5s"}) == {"blue": "search:0.5s"}
    for bad in ("search:0", "search:lots", "search:100000", "search:999s"):
        with pytest.raises(ValueError, match="search takes"):
            practice.seats(SKIRMISH, {"blue": bad})
    game_id = games.create_game(store, CATALOG, "skirmish", auto={"blue": "search:0.5s"})
    meta = projection.load(store, CATALOG, game_id).meta
    assert meta.automated == {"blue": "search"}
    assert meta.seat_settings == {"blue": {"edition": practice.EDITION, "seconds": 0.5}}
    assert meta.players["blue"] == "automated (search)"


def skirmish_against(store, seat: str, turns: int, seed: int, orders: int) -> str:
    """A skirmish whose blue is the automated `seat`, red giving seeded random legal orders (at most `orders`)
    through `turns` Game-Turns, the server's blue answering each of its turns: the game's id."""
    game_id = games.create_game(store, CATALOG, "skirmish", auto={"blue": seat})
    games.join(store, CATALOG, game_id, "red", "r@example.org", "practice")
    rng = random.Random(seed)
    for _ in range(orders):
        state = projection.load(store, CATALOG, game_id)
        if state.game.turn > turns or SKIRMISH.outcome(state.game) is not None:
            break
        listed = [o["order"] for o in SKIRMISH.legal_orders(state.game, "red")]
        games.submit(store, CATALOG, game_id, "red", rng.choice(listed))
        autoplay.play(store, CATALOG, game_id)
    return game_id


@pytest.fixture
def against_search(store):
    """A skirmish against a timed search (a tenth of a second a decision): red plays random legal orders for two
    turns, the server's blue answers each of its turns."""
    return skirmish_against(store, "search:0.1s", turns=2, seed=7, orders=200)


@pytest.mark.slow  # two turns of a search thinking a tenth of a second a decision, then three audits
def test_verify_re_runs_the_playouts_a_timed_decision_records(store, against_search, monkeypatch):
    events = list(store.events(against_search))
    searched = [e for e in events if e.type == "core.OrderGiven" and e.actor == "auto:blue"]
    timed = [e for e in searched if e.payload["auto"]["reason"]["playouts"]]
    assert timed and all(e.payload["auto"]["policy"] == "search" for e in searched)
    assert all(e.payload["auto"]["reason"]["playouts"] >= 16 for e in timed)  # MIN_PLAYOUTS, however slow
    assert audit.verify(CATALOG, events).ok
    order = timed[0]
    reason = order.payload["auto"]["reason"]
    fewer = dict(order.payload["auto"], reason={**reason, "playouts": 1})
    found = audit.verify(CATALOG, tampered(events, order.seq, {**order.payload, "auto": fewer}))
    assert found.first_bad_seq == order.seq and "policy search gives" in found.problems[0].message
    endless = dict(order.payload["auto"], reason={**reason, "playouts": 10 ** 9})  # bounded, not run for ever
    forged = tampered(events, order.seq, {**order.payload, "auto": endless})
    monkeypatch.setattr(search, "MAX_PLAYOUTS", 400)  # the bound is what is held, not its size (20,000: ~16 s here)
    assert audit.verify(CATALOG, forged).first_bad_seq == order.seq
