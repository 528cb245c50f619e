"""A game made from a position file and played through the service, as a player gives orders (the rules walks of
issue 30 part 8): both seats taken, every order submitted, every refusal checked to have written nothing."""
from __future__ import annotations

import pytest

from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder
from app.service import games

CATALOG = installed()


class Served:
    def __init__(self, store, rules: str, position: dict, sides: tuple[str, str]):
        self.store = store
        self.id = games.create_game(store, CATALOG, rules, options={"position": position})
        for side in sides:
            games.join(store, CATALOG, self.id, side, f"{side}@example.org", side)

    def do(self, side: str, text: str):
        """Submit an order; the events it stored."""
        return games.submit(self.store, CATALOG, self.id, side, text).events

    def refused(self, side: str, text: str) -> str:
        """The refusal of an order (which must be refused), having checked that it stored nothing."""
        before = self.state().meta
        with pytest.raises(IllegalOrder) as refused:
            self.do(side, text)
        after = self.state().meta
        assert (after.seq, after.rolls) == (before.seq, before.rolls)
        return str(refused.value)

    def state(self):
        return projection.load(self.store, CATALOG, self.id)

    @property
    def game(self):
        return self.state().game
