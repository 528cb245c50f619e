"""What a side may order now, asked of any rule set in one way (design.md practices 2, 10 and 14).

- `refusal(rules, state, command)`: the decider's own answer to "would `do` accept this?", run up to its first
  die (no refusal may follow a roll, practice 11), so nothing is rolled and nothing written.
- `preview(rules, state, command)`: the rule set's preview, refused exactly when `do` would refuse the order
  now; out of turn (planning) the order's own checks still apply, only the sequence of play is not asked.
"""
from __future__ import annotations

from typing import Any

from app.rules.base import Command, Rules
from app.rules.engine.decision import ProbeDice, ReachedRoll
from app.rules.errors import OrderError


def refusal(rules: Rules, state: Any, command: Command) -> OrderError | None:
    """Why `do` would refuse `command` now, or None if it would accept it."""
    try:
        rules.decide(state, command, ProbeDice())
    except ReachedRoll:
        return None
    except OrderError as exc:
        return exc
    return None


def in_turn(rules: Rules, state: Any, command: Command) -> bool:
    """The states table prompts this side for this kind of order now."""
    return rules.prompt(state).refusal(command) is None


def preview(rules: Rules, state: Any, command: Command) -> dict:
    """The preview of `command`, through the decider's checks when the order could be given now."""
    now = in_turn(rules, state, command)
    if now:
        refused = refusal(rules, state, command)
        if refused is not None:
            raise refused
    result = rules.preview(state, command)
    if not now:
        note = (f"Planning: {command.side} may not give this order now ({rules.prompt(state).step}); the odds are "
                "those of the position as it stands")
        result = {**result, "text": f"{result['text']}\n{note}"}
    return {**result, "planning": not now}
