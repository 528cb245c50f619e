"""What a side's history shows of the other side's orders and undos (SNC 6.3, Ichi-Go 6.6, Formosa 11.0): the
core events every game's `visible(event, side)` hook meets first. The kernel's fog helpers (app/rules/kernel/fog.py)
find and scrub unit ids; this part reads core events, which the kernel may not import."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from app.events import core

# How the strong practice opponent's reason names the order it weighed next (app/rules/search.py `reason`): an
# order of its side it did not give, which may name what the other side may not read.
WEIGHED_NEXT = "; next "
# How the random player's and greedy's draws count their side's orders (app/rules/practice.py, practice_v1.py:
# "(candidate 1 of 4, drawn ...)"): how many orders a side has tells what it holds (a concealed deception unit has
# one, 11.1).
COUNTED = re.compile(r"\((?:candidate|order) \d+(?: of \d+)?, ")


def order_or_undo(event, side: str, hidden: Callable[[object], bool], case: str) -> bool | str | None:
    """The other side's order (or a failed order's spent dice, which carry its text) and its undo: shown as given
    when `hidden(event)` is false, else with the verb only. An automated seat's order is judged, and shown, without
    what its reason says of its side's own options (`as_told`). None for any other event (the caller's rule
    decides)."""
    if isinstance(event, core.OrderGiven | core.RollsSpent):
        if event.side == side:
            return True
        told = as_told(event)
        if not hidden(told):
            return True if told is event else automated_line(told)
        verb = (event.text.split() or ["?"])[0].lower()
        return f"{event.side} orders: {verb} (details hidden, {case})"
    if isinstance(event, core.Retracted):
        if event.reason.startswith("undo of") and not event.by.startswith(f"player:{side}"):
            return f"events {event.from_seq}-{event.to_seq} retracted by {event.by}"
        return True
    return None


def as_told(event):
    """The order as the other side is told it: an automated seat's reason without what it says of its side's own
    options, read from its own view: the orders it weighed and did not give ("next 'reveal jp-9-19'") and how many
    it drew from ("candidate 1 of 4"); `event` itself where its reason says neither."""
    auto = getattr(event, "auto", None)
    reason = auto.get("reason") if isinstance(auto, dict) else None
    summary = reason.get("summary") if isinstance(reason, dict) else None
    if not isinstance(summary, str) or (WEIGHED_NEXT not in summary and not COUNTED.search(summary)):
        return event
    kept = {k: v for k, v in reason.items() if k == "summary" or not isinstance(v, str | list | dict)}
    told = COUNTED.sub("(", summary.split(WEIGHED_NEXT)[0])
    return dataclasses.replace(event, auto={**auto, "reason": {**kept, "summary": told}})


def automated_line(order: core.OrderGiven) -> str:
    """An automated seat's order as its history line reads (app/projections/history.py `describe`), from `as_told`."""
    why = (order.auto.get("reason") or {}).get("summary", "")
    return f"{order.side} (automated, {order.auto.get('policy')}) orders: {order.text}" + (f"  [{why}]" if why else "")
