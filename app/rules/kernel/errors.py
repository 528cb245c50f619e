"""Errors shared by the rules kernel."""

from __future__ import annotations

__all__ = ["RuleViolation"]


class RuleViolation(Exception):
    """An order the rules forbid; ``case`` is the rules case to cite, from game data (e.g. "SNC 9.4")."""

    def __init__(self, case: str, message: str) -> None:
        super().__init__(case, message)
        self.case = case
        self.message = message

    def __str__(self) -> str:
        return f"{self.case}: {self.message}" if self.case else self.message

    def __repr__(self) -> str:
        return f"RuleViolation({self.case!r}, {self.message!r})"
