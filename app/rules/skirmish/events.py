"""Skirmish event types, each with its effect on the state (`apply`) and its line in the history (`describe`).
The game's end is the shared game.GameEnded."""
from __future__ import annotations

from dataclasses import dataclass

from app.events.registry import event_type
from app.rules.engine.events import GameEnded
from app.rules.engine.state import replace
from app.rules.skirmish.state import SIDES, State, other

__all__ = ["AttackResolved", "GameEnded", "StepEnded", "StepLost", "UnitMoved"]


@event_type("skirmish.UnitMoved")
@dataclass(frozen=True)
class UnitMoved:
    """SK 4.1; a unit ending its move in the village takes it for its side (SK 6.2)."""

    unit: str
    path: list[str]

    def apply(self, state: State) -> State:
        unit = state.units[self.unit]
        holder = unit.side if self.path[-1] == state.data.village else state.village_holder
        return replace(state, units={**state.units, self.unit: replace(unit, hex=self.path[-1], moved=True)},
                       village_holder=holder)

    def describe(self) -> str:
        return f"{self.unit} moves {' - '.join(self.path)}"


@event_type("skirmish.StepEnded")
@dataclass(frozen=True)
class StepEnded:
    """SK 3.1-3.2: movement, then combat; Red's player turn, then Blue's; then the next turn, but none after the
    last (the game ends there, SK 6.2: its view at game over shows the last turn played)."""

    side: str
    step: str

    def apply(self, state: State) -> State:
        if self.step == "movement":
            return replace(state, step="combat")
        if self.side == SIDES[0]:
            return replace(state, side=other(self.side), step="movement")
        if state.last_step:
            return state
        fresh = {uid: replace(u, moved=False, attacked=False) for uid, u in state.units.items()}
        return replace(state, turn=state.turn + 1, side=SIDES[0], step="movement", units=fresh, attacked_hexes=())

    def describe(self) -> str:
        return f"{self.side} ends the {self.step} step"


@event_type("skirmish.AttackResolved")
@dataclass(frozen=True)
class AttackResolved:
    """SK 5.1-5.3: who attacked which hex, the strengths, the column, the die and the result."""

    hex: str
    attackers: list[str]
    attack: int
    defence: int
    column: str
    roll: int
    result: str

    def apply(self, state: State) -> State:
        units = {**state.units, **{uid: replace(state.units[uid], attacked=True) for uid in self.attackers}}
        return replace(state, units=units, attacked_hexes=(*state.attacked_hexes, self.hex))

    def describe(self) -> str:
        return (f"attack on {self.hex} by {', '.join(self.attackers)}: {self.attack}:{self.defence} "
                f"-> {self.column}, die {self.roll}: {self.result}")


@event_type("skirmish.StepLost")
@dataclass(frozen=True)
class StepLost:
    """SK 5.4: a unit loses a step; with none left it is eliminated."""

    unit: str
    eliminated: bool

    def apply(self, state: State) -> State:
        unit = state.units[self.unit]
        lost = replace(unit, steps=0, hex=None) if self.eliminated else replace(unit, steps=unit.steps - 1)
        return replace(state, units={**state.units, self.unit: lost})

    def describe(self) -> str:
        return f"{self.unit} {'is eliminated' if self.eliminated else 'loses a step'}"
