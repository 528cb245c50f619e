"""Replay fixtures: finished and unfinished skirmish games, a fog-of-war variant of skirmish for tests, and one
finished game of each of the five games (SNC's and Ichi-Go's are the session's `real_games`, tests/conftest.py)."""
from __future__ import annotations

import dataclasses
import random
from unittest import mock

import pytest

from app.events import core, dice
from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.kernel.hexgrid import Hex
from app.rules.skirmish import GAME as SKIRMISH
from app.rules.skirmish import view as skirmish_view
from app.rules.skirmish.events import UnitMoved
from app.service import autoplay, games
from tests.conftest import GAMES, play_random  # noqa: F401 (GAMES: the games of `real_games`, tests/conftest.py)

CATALOG = installed()  # the rule sets installed here


def _foggy_view(state, side):
    """A side sees an enemy unit only next to one of its own (test-only fog of war)."""
    full = skirmish_view.view(state, side)
    if side is None:
        return full
    grid = state.data.map.grid
    own = [Hex.parse(u["hex"]) for u in full["units"] if u["side"] == side and u["hex"]]

    def seen(u):
        return u["side"] == side or (u["hex"] and any(grid.adjacent(Hex.parse(u["hex"]), h) for h in own))

    return {**full, "units": [u for u in full["units"] if seen(u)]}


def _foggy_visible(event, side):
    """A side never sees the enemy's orders or moves."""
    if isinstance(event, core.OrderGiven):
        return event.side == side
    if isinstance(event, UnitMoved):
        return SKIRMISH.data().units[event.unit].side == side
    return True


FOGGY_SKIRMISH = dataclasses.replace(SKIRMISH, view=_foggy_view,
                                     extras={**SKIRMISH.extras, "visible": _foggy_visible})


@pytest.fixture
def catalog():
    """The rule sets a test's services run: those installed; a test marked `foggy` gets skirmish with fog."""
    return CATALOG


FOGGY = installed(FOGGY_SKIRMISH)  # skirmish with fog of war in place of skirmish
#: a test's services play skirmish with fog of war (the parametrized value stands in for the `catalog` fixture)
foggy = pytest.mark.parametrize("catalog", [FOGGY], ids=["foggy"])


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


SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="session")
def five_games(real_games, tmp_path_factory):
    """A finished game of each of the five games: SNC and Ichi-Go from `real_games`, and an Olympic game (random
    American orders, the automated Japanese seat), a Formosa invasion (the invader's random orders) and Dai Senso's
    Zhejiang-Kiangsi scenario, each played through the service once per session with fixed dice."""
    from tests.daisenso.test_daisenso_play import play as daisenso_play
    from tests.formosa.formosa_randomplay import invader
    from tests.fuzzing import play as fuzz
    from tests.olympic.test_olympic_fuzz import candidates as american

    store = EventStore(str(tmp_path_factory.mktemp("five") / "games.sqlite3"))
    out = dict(real_games)
    for name, scenario in (("olympic", None), ("formosa", "1"), ("daisenso", "zhejiang")):
        with mock.patch.object(dice, "new_seed", lambda: f"{5:064x}"):
            game_id = games.create_game(store, CATALOG, name, scenario, game_id=f"g-{name}-5")
        rules = CATALOG.rules(name)
        seats = ("american",) if name == "olympic" else rules.sides
        for side in seats:
            games.join(store, CATALOG, game_id, side, f"{side}@example.org", side)

        def submit(side, text, game_id=game_id):
            games.submit(store, CATALOG, game_id, side, text)
            autoplay.play(store, CATALOG, game_id)  # Olympic's Japanese seat is the server's
            return projection.load(store, CATALOG, game_id).game

        if name == "olympic":
            autoplay.play(store, CATALOG, game_id)
            fuzz(rules, american, random.Random(0), 5000, "unused", submit=submit,
                 state=projection.load(store, CATALOG, game_id).game)
        elif name == "formosa":
            fuzz(rules, invader, random.Random(1), 600, "unused", submit=submit,
                 state=projection.load(store, CATALOG, game_id).game)
        else:
            daisenso_play(store, game_id, random.Random(1))
        assert rules.outcome(projection.load(store, CATALOG, game_id).game) is not None, f"the {name} game did not end"
        out[name] = (game_id, list(store.events(game_id)))
    store.close()
    return out


def import_real(store, real_games, name: str, upto: int | None = None) -> str:
    game_id, events = real_games[name]
    events = events if upto is None else events[:upto]
    store.import_stream(game_id, name, events[0].payload.get("scenario") or "campaign", events)
    return game_id


def _new_game(store) -> str:
    game_id = games.create_game(store, CATALOG, "skirmish")
    games.join(store, CATALOG, game_id, "red", "red@example.org")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org")
    return game_id
