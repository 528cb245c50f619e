"""The Emitter a rule set's `decide` writes through (design.md practice 1): it collects the events a command
produces and folds each into the state as it goes, so later steps of the same command see its effects while
decide stays pure. Die rolls are kept but not folded (they change no game state)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.events.core import DieRolled


class Emitter:
    """`evolve` is the game's fold; `prepare(state, event)` may complete an event from the state it meets
    before it is kept (SNC 6.3 marks what the attacker has seen)."""

    def __init__(self, state: Any, evolve: Callable, prepare: Callable | None = None):
        self.state = state
        self.events: list = []
        self._evolve = evolve
        self._prepare = prepare

    def emit(self, *events) -> None:
        for e in events:
            if self._prepare is not None:
                e = self._prepare(self.state, e)
            self.events.append(e)
            if not isinstance(e, DieRolled):
                self.state = self._evolve(self.state, e)

    def roll(self, dice, purpose: str, sides: int = 6) -> int:
        """Roll a recorded die for `purpose`, keep its event, return the value."""
        r = dice.roll(purpose, sides)
        self.events.append(r)
        return r.value
