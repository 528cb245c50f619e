"""The cases that say whose an order is and at which moment it is given (SNC ruling E25, Ichi-Go ruling E56): an
order refused out of its moment names the case that reserves it to the other side or that times it, followed by
the sequence of play's own words for the step, instead of the sequence of play's case alone. A game declares the
two tables; its steps' `closed` ask them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Case = tuple[str, str]  # (the case, why it refuses)


@dataclass(frozen=True)
class OrderCases:
    whose: Mapping[tuple[str, str], Case]  # (side, action) that side never gives -> the case that says whose it is
    when: Mapping[str, Case]  # action -> the case of the moment that takes it

    def not_theirs(self, command: Any) -> Case | None:
        """The case that gives `command`'s action to the other side only, or None."""
        return self.whose.get((command.side, command.action))

    def not_now(self, command: Any, sequence_words: str) -> Case | None:
        """The case of the moment that takes `command`'s action, with the sequence of play's words, or None."""
        found = self.when.get(command.action)
        return None if found is None else (found[0], f"{found[1]}; {sequence_words}")


def sequence_words(table: Any, state: Any, command: Any) -> str:
    """The sequence of play's own words for `command` now (the states table's refusal): the step and its orders."""
    return table.prompt(state).refusal(command) or ""
