"""Reactions: what a write causes (turn emails, invitations, fork, dispute and deadline notices) is derived from
the stored events by subscribers, never decided in the write path (docs/reactions.md; docs/architecture.md
practice 15).

Each subscriber keeps its own position in each game's stream, `(subscriber, game) -> last seq reacted to`
(`Store.reaction_position`). A run reads the events after that position and, in one transaction, writes what the
subscriber makes of them (outbox rows, the subscriber's own records) and its new position: killed before the
commit, nothing of it is written and the next run does it again; after, it is done and never done again. The mail
then goes as the outbox sends it: at least once, never twice beyond that.

Who runs them: right after a write's commit, for the games it wrote (`Dispatch`: inline in the CLI, ingest-email
and tests; with a notifier, `serve`'s sender process, kicked), the sender's every round and `tick`, which catch up
every game behind (`Reactor.catch_up()`). A subscriber that fails is logged and stays at its position: it is tried
again on the next run, and the others go on.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Protocol

from app.events.envelope import StoredEvent
from app.events.interface import Store
from app.service.mailroom import Mailroom
from app.service.ports import Notifier

LOG = logging.getLogger("hexledger.reactions")


class Subscriber(Protocol):
    """Reacts to a game's new events, in order, writing its outputs in the caller's transaction."""

    name: str  # its key in reaction_positions: never renamed (a new name starts over)

    def react(self, game_id: str, events: list[StoredEvent]) -> None: ...


class Reactor:
    """Runs the subscribers over the games' streams, on one store."""

    def __init__(self, store: Store, subscribers: list[Subscriber]):
        self.store = store
        self.subscribers = subscribers

    def catch_up(self, games: Iterable[str] | None = None) -> None:
        """Every subscriber up to the head of each of `games` (default: every game some subscriber is behind)."""
        names = [s.name for s in self.subscribers]
        wanted = None if games is None else sorted(set(games))
        if wanted == []:
            return
        for game_id in self.store.reactions_behind(names, wanted):
            self._game(game_id)

    def _game(self, game_id: str) -> None:
        """All the subscribers of one game in one transaction (one commit); if one fails, each again alone, so a
        subscriber that fails holds back no other."""
        try:
            with self.store.transaction():
                self._react_all(game_id)
            return
        except Exception:  # noqa: BLE001 - retried one by one below, where the failing one is logged
            pass
        for subscriber in self.subscribers:
            try:
                with self.store.transaction():
                    self._react(subscriber, game_id)
            except Exception:  # noqa: BLE001 - it stays at its position and is tried again on the next run
                LOG.exception("reaction %s to game %s failed; it is tried again on the next run", subscriber.name,
                              game_id)

    def _react_all(self, game_id: str) -> None:
        """Every subscriber, in order, on the events after its position: the positions read together, and the
        events once, from the furthest behind (no subscriber appends events)."""
        positions = self.store.reaction_positions([s.name for s in self.subscribers], game_id)  # held until the end
        events = list(self.store.events(game_id, min(positions.values()) + 1))
        for subscriber in self.subscribers:
            position = positions[subscriber.name]
            new = [e for e in events if e.seq > position]
            if new:
                subscriber.react(game_id, new)
                self.store.set_reaction_position(subscriber.name, game_id, new[-1].seq)

    def _react(self, subscriber: Subscriber, game_id: str) -> None:
        position = self.store.reaction_position(subscriber.name, game_id)  # held until this transaction ends
        events = list(self.store.events(game_id, position + 1))
        if events:
            subscriber.react(game_id, events)
            self.store.set_reaction_position(subscriber.name, game_id, events[-1].seq)


class Dispatch:
    """What follows a write's commit (`Writes.after`): with a notifier, a kick (the sender process runs the
    reactions and sends); without, the reactions of the games written and the delivery of the mail queued, here."""

    def __init__(self, reactor: Reactor, mailroom: Mailroom, notifier: Notifier | None = None):
        self.reactor = reactor
        self.mailroom = mailroom
        self.notifier = notifier

    def __call__(self, games: set[str]) -> None:
        if self.notifier is not None:
            if self.mailroom.take_queued() or games:
                self.notifier.kick()
            return
        if games:
            self.reactor.catch_up(games)
        queued = self.mailroom.take_queued()
        if queued:
            try:
                self.mailroom.deliver(queued)
            except Exception:  # noqa: BLE001 - the write is committed: its mail waits in the outbox, logged
                LOG.exception("outbox: delivery after a write failed; the mail stays queued")
