"""Errors shared by the rules kernel."""

from __future__ import annotations

from app.rules.errors import IllegalOrder

__all__ = ["RuleViolation"]


class RuleViolation(IllegalOrder):
    """An order the rules forbid; ``case`` is the rules case to cite (from the game's data, e.g. "SNC 9.4").

    It is an IllegalOrder, so the service refuses it like any other order error and writes nothing.
    """

    def __str__(self) -> str:
        return f"{self.case}: {self.message}" if self.case else self.message

    def __repr__(self) -> str:
        return f"RuleViolation({self.case!r}, {self.message!r})"
