"""The store's errors, the same on every backend (tests/core/test_contract_*.py): the service maps them to
its answers (app/service/errors.py), HTTP to 409 and 503."""
from __future__ import annotations


class StoreError(Exception):
    """Base of the store's errors."""


class Conflict(StoreError):
    """A stale writer: the stream moved on since the caller read it. Nothing was written."""

    def __init__(self, game_id: str, expected: int, actual: int):
        super().__init__(f"game {game_id}: expected last event {expected}, but the game is at {actual}; "
                         "reload and try again")
        self.game_id, self.expected, self.actual = game_id, expected, actual


class StoreUnavailable(StoreError):
    """The database could not take the write (locked by another process, or the disk is full). Nothing was
    written; the caller may try again later. `reason` is "locked", "full" or "refused" (any other refusal).

    The message is what a client may read: it names no part of the infrastructure. `detail` is the operator's: what
    the database said and where it is (a file, a host, a port, a user; never a password), for the log only."""

    def __init__(self, message: str, reason: str = "refused", detail: str | None = None):
        super().__init__(message)
        self.reason = reason
        self.detail = detail


class UnknownGame(StoreError):
    def __init__(self, game_id: str):
        super().__init__(f"unknown game {game_id!r}")
        self.game_id = game_id


class NoPbemSettings(StoreError):
    """A change to the play-by-email settings of a game that has none (a local game). Nothing was written."""

    def __init__(self, game_id: str):
        super().__init__(f"game {game_id!r} is not played by email here (it has no play-by-email settings); "
                         "nothing was written")
        self.game_id = game_id
