"""Skirmish state: the units, the sequence position (SK 3) and who last entered the village (SK 6.2)."""
from __future__ import annotations

from dataclasses import dataclass

from app.rules.engine.state import SequencedState
from app.rules.kernel.hexgrid import Hex

SIDES = ("red", "blue")


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    strength: int
    hex: str | None
    steps: int
    steps_max: int
    moved: bool = False
    attacked: bool = False

    @property
    def current_strength(self) -> int:
        """SK 1.2: a reduced unit's strength is halved, rounded down, minimum 1."""
        return self.strength if self.steps == self.steps_max else max(1, self.strength // 2)


@dataclass(frozen=True, kw_only=True)
class State(SequencedState):
    turn: int
    side: str
    step: str                        # movement | combat | over
    units: dict[str, Unit]
    attacked_hexes: tuple[str, ...] = ()
    village_holder: str | None = None

    def unit(self, unit_id: str) -> Unit | None:
        return self.units.get(unit_id)

    def at(self, hex_label: str) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == hex_label]

    @property
    def last_step(self) -> bool:
        """SK 3.1: Blue's combat step of the last turn, whose end ends the game (SK 6.2); no turn comes after it."""
        return self.turn == self.data.last_turn and self.side == SIDES[-1] and self.step == "combat"

    def enemy_zoc(self, side: str) -> set[str]:
        """SK 4.3: the six hexes around every enemy unit."""
        grid = self.data.map.grid
        return {str(n) for u in self.units.values() if u.side != side and u.hex
                for n in grid.neighbours(Hex.parse(u.hex))}


def start(data, scenario: str, options, version: str | None = None) -> State:
    """SK 2.1: both sides set up as the tables list them; Red moves first (every rules version starts alike:
    `version` changes nothing here)."""
    units = {uid: Unit(uid, spec.side, spec.strength, spec.hex, data.steps, data.steps)
             for uid, spec in data.units.items()}
    return State(turn=1, side=data.first_side, step="movement", units=units, data=data)
