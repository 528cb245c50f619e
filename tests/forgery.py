"""What a forger with an export file can do: edit events and seal the chain again, so that only the audit's other
checks (replay, dice, the rules of the core events) can find the edit."""
from __future__ import annotations

import dataclasses

from app.events.envelope import GENESIS_HASH, StoredEvent


def reseal(events: list[StoredEvent]) -> list[StoredEvent]:
    """The events renumbered from 1 and chained again, every hash recomputed."""
    out: list[StoredEvent] = []
    for seq, e in enumerate(events, start=1):
        fields = dataclasses.replace(e, seq=seq, prev_hash=out[-1].hash if out else GENESIS_HASH).hashed_fields()
        out.append(StoredEvent.sealed(**fields))
    return out
