"""What a side's history shows of the other side's orders and undos (SNC 6.3, Ichi-Go 6.6, Formosa 11.0): the
core events every game's `visible(event, side)` hook meets first. The kernel's fog helpers (app/rules/kernel/fog.py)
find and scrub unit ids; this part reads core events, which the kernel may not import."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from app.events import core


def order_or_undo(event, side: str, hidden: Callable[[object], bool], case: str) -> bool | str | None:
    """The other side's order (or a failed order's spent dice, which carry its text) and its undo: shown as given
    when `hidden(event)` is false, else with the verb only. An automated seat's order is judged, and shown, without
    its reason (`as_told`). None for any other event (the caller's rule decides)."""
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
    """The order as the other side is told it: an automated seat's without its reason, which is read from that seat's
    own view and says what the fog keeps from the other side: the orders it weighed and did not give ("next 'reveal
    jp-9-19'"), how many it had ("candidate 1 of 1": a concealed deception unit, not a regiment, 11.1), that it had
    one ("the one order worth giving here"), what it made of them ("worth +0.26"). Its line says whose reasons they
    are; the arbiter, and everyone once the game is over, read them (sees all). `event` itself for any other order
    (a player's, or a standing order's, whose reason names its kind only)."""
    auto = getattr(event, "auto", None)
    if not isinstance(auto, dict) or "policy" not in auto or not auto.get("reason"):
        return event
    reason = auto["reason"] if isinstance(auto["reason"], dict) else {}
    own = f"{auto['policy']}: its reasons are the {event.side} seat's own until the game is over"
    return dataclasses.replace(event, auto={"policy": auto["policy"], "reason": {
        **({"case": reason["case"]} if isinstance(reason.get("case"), str) else {}), "summary": own}})


def automated_line(order: core.OrderGiven) -> str:
    """An automated seat's order as its history line reads (app/projections/history.py `describe`), from `as_told`."""
    why = (order.auto.get("reason") or {}).get("summary", "")
    return f"{order.side} (automated, {order.auto.get('policy')}) orders: {order.text}" + (f"  [{why}]" if why else "")
