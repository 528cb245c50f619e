"""Replay fixtures: finished and unfinished skirmish games, and a fog-of-war variant of skirmish for tests."""
from __future__ import annotations

import random

import pytest

from app.events import core
from app.events.store import EventStore
from app.rules import catalog
from app.rules.kernel.hexgrid import Hex
from app.rules.skirmish.data import GRID, UNITS
from app.rules.skirmish.events import UnitMoved
from app.rules.skirmish.rules import SkirmishRules
from app.service import games
from tests.conftest import play_random


class FoggySkirmish(SkirmishRules):
    """Skirmish where a side sees an enemy unit only next to one of its own (test-only fog of war),
    and never sees the enemy's orders or moves."""

    def view(self, state, side):
        full = super().view(state, side)
        if side is None:
            return full
        own = [Hex.parse(u["hex"]) for u in full["units"] if u["side"] == side and u["hex"]]

        def seen(u):
            return u["side"] == side or (u["hex"] and any(GRID.adjacent(Hex.parse(u["hex"]), h) for h in own))

        return {**full, "units": [u for u in full["units"] if seen(u)]}

    def visible(self, event, side):
        if isinstance(event, core.OrderGiven):
            return event.side == side
        if isinstance(event, UnitMoved):
            return UNITS[event.unit][0] == side
        return True


@pytest.fixture
def foggy(monkeypatch):
    rules = FoggySkirmish()
    monkeypatch.setattr(catalog, "available", lambda: {"skirmish": rules})
    return rules


@pytest.fixture(scope="session")
def finished_template(tmp_path_factory):
    """A whole random skirmish game with at least one combat and one step lost, played once per session."""
    store = EventStore(str(tmp_path_factory.mktemp("replay") / "template.sqlite3"))
    for seed in range(50):
        game_id = _new_game(store)
        play_random(store, game_id, random.Random(seed))
        types = [e.type for e in store.events(game_id)]
        if "skirmish.AttackResolved" in types and "skirmish.StepLost" in types:
            events = list(store.events(game_id))
            store.close()
            return game_id, events
    raise AssertionError("no random game with a combat and a loss in 50 seeds")


@pytest.fixture
def finished(store, finished_template):
    """The session's finished game, copied into this test's store (as an imported stream)."""
    game_id, events = finished_template
    store.import_stream(game_id, "skirmish", "standard", events)
    return game_id


def _new_game(store) -> str:
    game_id = games.create_game(store, "skirmish")
    games.join(store, game_id, "red", "red@example.org")
    games.join(store, game_id, "blue", "blue@example.org")
    return game_id
