"""The decide context an order's handler writes through (docs/architecture.md practices 1 and 11).

`Decision` collects the events an order produces and folds each into the state as it goes, so later steps of
the same order see its effects while decide stays pure. Die rolls are recorded as core.DieRolled events and
change no game state. The dice stand-ins below let the engine ask "would this order be accepted?" (ProbeDice)
and "what would each face do?" (FixedDice) without spending a die.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from app.events.core import DieRolled
from app.rules.errors import IllegalOrder


class Decision:
    """`state`: the position as this order's events so far leave it; `side`: who gives the order."""

    def __init__(self, state: Any, side: str, dice, evolve: Callable[[Any, Any], Any]):
        self.state = state
        self.side = side
        self.dice = dice
        self.events: list = []
        self._evolve = evolve

    @property
    def data(self) -> Any:
        """The game's data (map, units, tables) as this game was set up."""
        return self.state.data

    def emit(self, *events) -> None:
        for event in events:
            self.events.append(event)
            if not isinstance(event, DieRolled):
                self.state = self._evolve(self.state, event)

    def roll(self, purpose: str, sides: int = 6) -> int:
        """Spend the next die for `purpose`; every check that needs no die must come before this (practice 11)."""
        rolled = self.dice.roll(purpose, sides)
        self.events.append(rolled)
        return rolled.value

    def refuse(self, case: str, message: str) -> NoReturn:
        raise IllegalOrder(case, message)


class ReachedRoll(Exception):
    """Raised by ProbeDice at the first roll: every check before it passed, so the order is legal."""


class ProbeDice:
    """Dice that stop the decider at its first roll (the order is legal: no refusal may follow a roll); a game's
    `after_order` (sudden death, which never refuses) is not run with them."""

    next_index = 0
    taken: list = []

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        raise ReachedRoll(purpose)


class FixedDice:
    """Dice whose every roll shows `value` (a preview of each face; never stored)."""

    def __init__(self, value: int):
        self.value = value
        self.next_index = 0
        self.taken: list[DieRolled] = []

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        rolled = DieRolled(index=self.next_index, sides=sides, value=min(self.value, sides), purpose=purpose)
        self.next_index += 1
        self.taken.append(rolled)
        return rolled
