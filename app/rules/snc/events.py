"""SNC event types (design.md practice 3). Each is a fact; `evolve` (state.py) folds them."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_type


@event_type("snc.PhasesDeclared")
@dataclass(frozen=True)
class PhasesDeclared:
    """SNC 5.3: the phase order for both Operations Phases of this player turn."""

    side: str
    first: str
    second: str


@event_type("snc.PhaseEnded")
@dataclass(frozen=True)
class PhaseEnded:
    side: str
    phase: str
    turn: int


@event_type("snc.UnitsMoved")
@dataclass(frozen=True)
class UnitsMoved:
    units: list[str]
    path: list[str]
    mp: float


@event_type("snc.BattleOpened")
@dataclass(frozen=True)
class BattleOpened:
    """An attack, overrun or amphibious landing is declared; `battle` holds who, where, and the support."""

    battle: dict


@event_type("snc.SupportAdded")
@dataclass(frozen=True)
class SupportAdded:
    """SNC 11.1: a fire support marker added by `side` to the current battle (naval in defence: 11.4)."""

    side: str
    kind: str


@event_type("snc.AirInterception")
@dataclass(frozen=True)
class AirInterception:
    """SNC 11.3: the Chinese air roll against a Japanese air marker or interdiction."""

    roll: int
    against: str
    aborted: bool
    air_lost: bool


@event_type("snc.CombatResolved")
@dataclass(frozen=True)
class CombatResolved:
    hex: str
    kind: str
    attack: int
    defence: int
    odds: str
    shifts: list[str]
    column: str
    roll: int
    result: str
    attacker_losses: int
    defender_losses: int


@event_type("snc.StepsLost")
@dataclass(frozen=True)
class StepsLost:
    """SNC 10.5.2: one entry per step; a unit named as often as it has steps is eliminated."""

    side: str
    units: list[str]
    reason: str = "combat"
    # SNC 6.3: the defender's losses, seen by the attacker resolving the attack. Derived from the state when the
    # event is produced, for the fog-of-war filter only; not compared, so games stored before it still verify.
    revealed: bool = field(default=False, compare=False)


@event_type("snc.EliteScheduled")
@dataclass(frozen=True)
class EliteScheduled:
    """SNC 8.1: an eliminated Chinese elite returns, reduced, on `turn` (0: beyond GT 12, gone for good)."""

    unit: str
    roll: int
    turn: int


@event_type("snc.UnitsRetreated")
@dataclass(frozen=True)
class UnitsRetreated:
    units: list[str]
    to: str
    revealed: bool = field(default=False, compare=False)  # SNC 6.3: defenders seen by the attacker (as StepsLost)


@event_type("snc.UnitsAdvanced")
@dataclass(frozen=True)
class UnitsAdvanced:
    units: list[str]
    path: list[str]


@event_type("snc.BattleClosed")
@dataclass(frozen=True)
class BattleClosed:
    hex: str


@event_type("snc.DecisionRequired")
@dataclass(frozen=True)
class DecisionRequired:
    """The sequence pauses for one side's choice (losses, advance, defensive support, interdiction...)."""

    kind: str
    side: str
    data: dict = field(default_factory=dict)


@event_type("snc.DecisionMade")
@dataclass(frozen=True)
class DecisionMade:
    kind: str
    side: str


@event_type("snc.GarrisonPlaced")
@dataclass(frozen=True)
class GarrisonPlaced:
    """SNC 9.1: a Japanese garrison placed in a city hex the Japanese occupy."""

    unit: str
    hex: str


@event_type("snc.ReinforcementsPlaced")
@dataclass(frozen=True)
class ReinforcementsPlaced:
    """SNC 8.2 a/b, 8.1, 8.4: units enter the map; `method` is listed, rail, elite or landing."""

    units: list[str]
    hex: str
    method: str


@event_type("snc.UnitsRemoved")
@dataclass(frozen=True)
class UnitsRemoved:
    """SNC 11.2: reinforcements removed for the rest of the game by air interdiction."""

    units: list[str]
    roll: int


@event_type("snc.StepsReplaced")
@dataclass(frozen=True)
class StepsReplaced:
    """SNC 8.3: reduced Japanese units flipped back to full strength."""

    units: list[str]


@event_type("snc.Overstacked")
@dataclass(frozen=True)
class Overstacked:
    """SNC 6.0: units eliminated by their owner to bring a hex within the stacking limit."""

    side: str
    hex: str
    units: list[str]


@event_type("snc.GameEnded")
@dataclass(frozen=True)
class GameEnded:
    winner: str | None
    reason: str
