"""Skirmish event types."""
from __future__ import annotations

from dataclasses import dataclass

from app.events.registry import event_type


@event_type("skirmish.UnitMoved")
@dataclass(frozen=True)
class UnitMoved:
    unit: str
    path: list[str]


@event_type("skirmish.StepEnded")
@dataclass(frozen=True)
class StepEnded:
    side: str
    step: str


@event_type("skirmish.AttackResolved")
@dataclass(frozen=True)
class AttackResolved:
    hex: str
    attackers: list[str]
    attack: int
    defence: int
    column: str
    roll: int
    result: str


@event_type("skirmish.StepLost")
@dataclass(frozen=True)
class StepLost:
    unit: str
    eliminated: bool


@event_type("skirmish.GameEnded")
@dataclass(frozen=True)
class GameEnded:
    winner: str | None
    reason: str
