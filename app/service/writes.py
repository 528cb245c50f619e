"""A write's transaction and what follows its commit (docs/reactions.md): every use case writes through one
`Writes` it is given, which opens the store's transaction (joined by any write inside it) and, once the outermost
write or group is over, hands the games written to `after`: the reactions to their new events and the delivery of
the mail those queue (inline), or a kick of the sender that runs them (`serve`). Nothing after the commit can fail
the write: `after` logs what goes wrong, and the reactions catch up on the next run."""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from app.events.interface import Store

LOG = logging.getLogger("hexledger.service")


class Writes:
    """One unit of work at a time on one store connection (a service per thread, as the store is)."""

    def __init__(self, store: Store, after: Callable[[set[str]], None] | None = None):
        self.store = store
        self.after = after
        self._depth = 0
        self._games: set[str] = set()

    @contextmanager
    def __call__(self, game_id: str | None = None) -> Iterator[None]:
        """One transaction (a write inside it joins it); `game_id`: the game it writes to, whose reactions run
        after the commit."""
        with self.group():
            with self.store.transaction():
                yield
            if game_id is not None:
                self._games.add(game_id)

    @contextmanager
    def group(self) -> Iterator[None]:
        """Several writes whose reactions wait until all of them are done (an order and the automated seats'
        answer to it: the turn email is decided once, on the whole)."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self._run_after()

    @contextmanager
    def answering(self) -> Iterator[None]:
        """A `group` of writes and the answer made from them, made while the disk takes the writes: each commit
        inside returns without waiting for its fsync, which begins at once beside this thread (the store's
        `disk_later`); leaving waits until every one of them is on disk, then runs what follows the writes. So the
        answer is ready when the disk is, and nothing leaves before the writes it tells of are on disk: the caller
        hands the answer on only once this has ended, and the reactions (turn emails) run after it."""
        with self.group():
            with self.store.disk_later():
                yield

    def wrote(self, game_id: str) -> None:
        """A write to `game_id` that committed outside `__call__` (the automated seats, each order its own
        transaction): its reactions run at the end of the group, or now."""
        self._games.add(game_id)
        if not self._depth:
            self._run_after()

    def _run_after(self) -> None:
        games, self._games = self._games, set()
        if self.after is None or self.store.in_transaction:
            return
        try:
            self.after(games)
        except Exception:  # noqa: BLE001 - the write is committed; what it causes is caught up on the next run
            LOG.exception("after a write: its reactions failed; they run again at the next sender round or tick")
