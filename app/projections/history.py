"""A game's history as readable lines, for the CLI log, emails and the replay viewer."""
from __future__ import annotations

from app.events import core
from app.events.envelope import StoredEvent
from app.events.registry import decode
from app.rules.base import Rules


def describe(rules: Rules, event: StoredEvent) -> str:
    body = decode(event.type, event.version, event.payload)
    if isinstance(body, core.GameCreated):
        return (f"game created: {body.rules}, scenario {body.scenario}; "
                f"dice seed committed ({body.seed_commitment[:12]}...)")
    if isinstance(body, core.PlayerJoined):
        return f"{body.name} joins as {body.side}"
    if isinstance(body, core.OrderGiven):
        return f"{body.side} orders: {body.text}"
    if isinstance(body, core.DieRolled):
        return f"die roll #{body.index}: {body.value} ({body.purpose})"
    if isinstance(body, core.SeedRevealed):
        return f"dice seed revealed ({body.reason}): {body.seed}"
    if isinstance(body, core.GameForked):
        return f"forked from {body.parent_id} after event {body.parent_seq}; new dice seed committed"
    return rules.describe(body)


def lines(rules: Rules, events: list[StoredEvent]) -> list[dict]:
    return [{"seq": e.seq, "at": e.at, "actor": e.actor, "type": e.type, "text": describe(rules, e)} for e in events]
