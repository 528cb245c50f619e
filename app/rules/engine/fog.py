"""What a side's history shows of the other side's orders and undos (SNC 6.3, Ichi-Go 6.6, Formosa 11.0): the
core events every game's `visible(event, side)` hook meets first. The kernel's fog helpers (app/rules/kernel/fog.py)
find and scrub unit ids; this part reads core events, which the kernel may not import."""
from __future__ import annotations

from collections.abc import Callable

from app.events import core


def order_or_undo(event, side: str, hidden: Callable[[object], bool], case: str) -> bool | str | None:
    """The other side's order (or a failed order's spent dice, which carry its text) and its undo: shown as given
    when `hidden(event)` is false, else with the verb only. None for any other event (the caller's rule decides)."""
    if isinstance(event, core.OrderGiven | core.RollsSpent):
        if event.side == side or not hidden(event):
            return True
        verb = (event.text.split() or ["?"])[0].lower()
        return f"{event.side} orders: {verb} (details hidden, {case})"
    if isinstance(event, core.Retracted):
        if event.reason.startswith("undo of") and not event.by.startswith(f"player:{side}"):
            return f"events {event.from_seq}-{event.to_seq} retracted by {event.by}"
        return True
    return None
