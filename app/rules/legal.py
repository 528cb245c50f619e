"""What a side may order now, asked of any rule set in one way (docs/architecture.md practices 2, 10 and 14).

- `legal_orders(rules, state, side)`: concrete orders `side` may give now, bounded, each accepted by the decider
  (an attack with its odds column): `show`, the API, the turn email and the fuzzers all read this one list. The
  rule set names the orders worth trying (`orders_to_try(state, side)`: each unit's reachable hexes, each
  attack with the markers allowed, each answer to a decision); only those the decider accepts are listed.
- `refusal(rules, state, command)`: the decider's own answer to "would `do` accept this?", run up to its first
  die (no refusal may follow a roll, practice 11), so nothing is rolled and nothing written.
- `preview(rules, state, command)`: the rule set's preview, refused exactly when `do` would refuse the order
  now; out of turn (planning) the order's own checks still apply, only the sequence of play is not asked.
"""
from __future__ import annotations

from typing import Any

from app.rules.base import Command, Rules, has_preview
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


LIMIT = 300
ODDS_ACTIONS = ("attack", "overrun", "land", "assault")


def orders_to_try(rules: Rules, state: Any, side: str) -> list[str]:
    """The rule set's orders worth trying for `side` now (unchecked, without repeats; none out of turn)."""
    hook = getattr(rules, "orders_to_try", None)
    if hook is None or rules.outcome(state) is not None or rules.prompt(state).side != side:
        return []
    return list(dict.fromkeys(hook(state, side)))


def legal_orders(rules: Rules, state: Any, side: str, limit: int = LIMIT) -> list[dict]:
    """Concrete orders `side` may give now, each accepted by the decider: {"order", "action", "case"}, and
    "odds" (the final column) for a combat order of a rule set with a preview. At most `limit`."""
    cases = {a.name: a.case for a in rules.prompt(state).actions}
    found: list[dict] = []
    for text in orders_to_try(rules, state, side):
        try:
            command = rules.parse(text, side, state)
        except OrderError:
            continue
        if refusal(rules, state, command) is not None:
            continue
        item = {"order": text, "action": command.action, "case": cases.get(command.action, "")}
        odds = _odds(rules, state, command)
        if odds:
            item["odds"] = odds
        found.append(item)
        if len(found) >= limit:
            break
    return found


def _odds(rules: Rules, state: Any, command: Command) -> str | None:
    if command.action not in ODDS_ACTIONS or not has_preview(rules):
        return None
    try:
        p = rules.preview(state, command)
    except (OrderError, KeyError, ValueError):  # a landing on an empty beach is no combat
        return None
    column = p.get("column_label") or p.get("column")
    return None if column is None else str(column)
