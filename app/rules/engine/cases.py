"""The cases that say whose an order is and at which moment it is given (SNC ruling E25, Ichi-Go ruling E56, Formosa
rulings F133 and F167): an order refused out of its moment names the case that reserves it to the other side or that
times it, followed by the sequence of play's own words for the step where the game gives them, instead of the
sequence of play's case alone. A game declares the two tables; its steps' `closed` ask them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Case = tuple[str, str]  # (the case, why it refuses)


@dataclass(frozen=True)
class OrderCases:
    whose: Mapping[tuple[str, str], Case]  # (side, action) that side never gives -> the case that says whose it is
    # action -> the case of the moment that takes it; a (side, action) key, looked up first, where one side's order
    # of that name has a moment of its own (Formosa's Japanese `land` is 25.7's Marine Brigade, not 10.1's invasion)
    when: Mapping[str | tuple[str, str], Case]

    def not_theirs(self, command: Any) -> Case | None:
        """The case that gives `command`'s action to the other side only, or None."""
        return self.whose.get((command.side, command.action))

    def not_now(self, command: Any, sequence_words: str = "") -> Case | None:
        """The case of the moment that takes `command`'s action, with the sequence of play's words when given, or
        None."""
        found = self.when.get((command.side, command.action)) or self.when.get(command.action)
        if found is None or not sequence_words:
            return found
        return found[0], f"{found[1]}; {sequence_words}"


def sequence_words(table: Any, state: Any, command: Any) -> str:
    """The sequence of play's own words for `command` now (the states table's refusal): the step and its orders."""
    return table.prompt(state).refusal(command) or ""
