"""The game events every game shares, declared once (docs/architecture.md practice 3): a decision the sequence waits
for, that decision made, a phase ended, the game ended. Each event applies itself to a state through the
`SequencedState` methods (app/rules/engine/state.py) and describes itself for the history."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_type


@event_type("game.DecisionRequired")
@dataclass(frozen=True)
class DecisionRequired:
    """The sequence waits for `side` to decide `kind` (losses, advance, retreat...); `data` says what is owed."""

    kind: str
    side: str
    data: dict = field(default_factory=dict)

    def apply(self, state):
        return state.require(self.kind, self.side, self.data)

    def describe(self) -> str:
        return f"{self.side} to decide: {self.kind}"


@event_type("game.DecisionMade")
@dataclass(frozen=True)
class DecisionMade:
    """`side` has answered the decision `kind` the sequence waited for; the order line above it in the history
    says what the answer was (a `pass` answers an `intercept` decision by not intercepting)."""

    kind: str
    side: str

    def apply(self, state):
        return state.decided(self.kind, self.side)

    def describe(self) -> str:
        return f"{self.side} answered the {self.kind} decision"


@event_type("game.PhaseEnded")
@dataclass(frozen=True)
class PhaseEnded:
    """`side` (None: no one side) ends `phase` of turn `turn`; the game's sequence says what comes next: a game
    whose states table ends phases with this event gives its State an `after_phase(event)` (SNC's does)."""

    phase: str
    turn: int
    side: str | None = None

    def apply(self, state):
        return state.after_phase(self)

    def describe(self) -> str:
        who = f"{self.side} end" if self.side else "end of"
        return f"{who} the {self.phase} phase of turn {self.turn}"


@event_type("game.GameEnded", aliases=("skirmish.GameEnded",))
@dataclass(frozen=True)
class GameEnded:
    """`winner` None is a draw; `reason` names the victory condition and its case."""

    winner: str | None
    reason: str

    def apply(self, state):
        return state.ended(self.winner, self.reason)

    def describe(self) -> str:
        return f"game over: {self.winner + ' wins' if self.winner else 'a draw'} - {self.reason}"
