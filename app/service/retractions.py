"""Retractions, shared by undo (app/service/orders.py) and the settling of disputes (app/service/disputes.py): a
core.Retracted of whole orders, checked, and the snapshots it makes stale dropped after the commit."""
from __future__ import annotations

import logging

from app.events import core
from app.events.envelope import StoredEvent
from app.events.interface import Store
from app.events.store import BackendError, NewEvent, StoreUnavailable
from app.projections import state as projection
from app.service import games
from app.service.errors import PbemError

LOG = logging.getLogger("hexledger.service")


def stream(store: Store, game_id: str) -> tuple[list[StoredEvent], frozenset[int]]:
    """The game's events and the seqs retracted among them."""
    events = list(store.events(game_id))
    return events, projection.retracted_seqs(events)


def retraction(events: list[StoredEvent], retracted: frozenset[int], from_seq: int, reason: str, by: str) -> NewEvent:
    """A core.Retracted of `from_seq` up to the game's last event, checked; the caller appends it."""
    head = events[-1].seq
    start = next((e for e in events if e.seq == from_seq), None)
    if start is None or start.type != "core.OrderGiven" or from_seq in retracted:
        raise PbemError(f"event {from_seq} is not an order that stands")
    if any(e.type == "core.SeedRevealed" for e in events if e.seq >= from_seq):
        raise PbemError("the dice seed was revealed after that order: the game cannot go on with these dice; "
                        "fork it before the order instead")
    return games.new_event(core.Retracted(from_seq=from_seq, to_seq=head, reason=reason, by=by), by)


def drop_snapshots(store: Store, game_id: str) -> None:
    """After a retraction's commit: its game's snapshots are stale (a cache: later loads fold past the retraction
    anyway, `projection.load` skips a stale snapshot). A locked database or a full disk here is logged and the step
    skipped, never reported as a failure of the write, which a caller would repeat."""
    try:
        store.drop_snapshots(game_id)
    except (BackendError, StoreUnavailable) as exc:
        LOG.warning("game %s: dropping snapshots deferred, the database refused it: %s", game_id, exc)
