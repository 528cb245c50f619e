"""A game's history as readable lines, for the CLI log, emails and the replay viewer."""
from __future__ import annotations

from app.events import core
from app.events.envelope import StoredEvent
from app.events.registry import decode
from app.rules.base import Rules, event_visibility


def describe(rules: Rules, event: StoredEvent) -> str:
    body = decode(event.type, event.version, event.payload)
    if isinstance(body, core.GameCreated):
        return (f"game created: {body.rules}, scenario {body.scenario}; "
                f"dice seed committed ({body.seed_commitment[:12]}...)")
    if isinstance(body, core.PlayerJoined):
        return f"{body.name} joins as {body.side}"
    if isinstance(body, core.OrderGiven):
        return f"{body.side} orders: {body.text}"
    if isinstance(body, core.RollsSpent):
        return f"{body.side}'s order could not be carried out (an engine fault after rolling): its dice are spent"
    if isinstance(body, core.DieRolled):
        return f"die roll #{body.index}: {body.value} ({body.purpose})"
    if isinstance(body, core.SeedRevealed):
        return f"dice seed revealed ({body.reason}): {body.seed}"
    if isinstance(body, core.GameForked):
        return f"forked from {body.parent_id} after event {body.parent_seq}; new dice seed committed"
    if isinstance(body, core.Retracted):
        return f"events {body.from_seq}-{body.to_seq} retracted by {body.by}: {body.reason}"
    if isinstance(body, core.DisputeRaised):
        return f"{body.side} disputes event {body.order_seq} (dispute {body.dispute}): {body.reason}"
    if isinstance(body, core.DisputeAnswered):
        return f"dispute {body.dispute} {body.status} by {body.by}" + (f": {body.note}" if body.note else "")
    return rules.describe(body)


DISPUTE_TYPES = ("core.DisputeRaised", "core.DisputeAnswered")


ALL_SIDES = object()


def lines(rules: Rules, events: list[StoredEvent], retracted: frozenset[int] = frozenset(),
          side: str | None | object = ALL_SIDES) -> list[dict]:
    """Readable lines; retracted events are kept and marked. With `side`, only what that side may see
    (the rule set's `visible` hook): hidden events are left out, redacted ones show the redacted text."""
    out = []
    for e in events:
        text = describe(rules, e)
        if side is not ALL_SIDES:
            seen = event_visibility(rules, decode(e.type, e.version, e.payload), side)
            if seen is False:
                continue
            if isinstance(seen, str):
                text = seen
        row = {"seq": e.seq, "at": e.at, "actor": e.actor, "type": e.type, "text": text,
               "retracted": e.seq in retracted and e.type not in DISPUTE_TYPES}  # a dispute is never undone
        if row["retracted"]:
            row["text"] = "[retracted] " + text
        out.append(row)
    return out
