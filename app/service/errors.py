"""The service's error types, and the store's and the rules' that callers see through it: web, mail and the CLI
catch these (from here), nothing deeper."""
from __future__ import annotations

from app.events.receipts import ReceiptError
from app.events.store import BackendError, Conflict, StoreError, StoreUnavailable, UnknownGame, unavailable
from app.projections.state import NoSuchPosition
from app.rules.base import UnknownRules
from app.rules.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError, cut
from app.service.games import EngineFault, GameError, Unreadable
from app.text import TextError

__all__ = ["AccessDenied", "AmbiguousOrder", "BackendError", "Conflict", "EngineFault", "GameError", "IllegalOrder",
           "InvalidOrder", "NoSuchPosition", "NotAuthenticated", "OrderError", "PbemError", "ReceiptError",
           "StoreError", "StoreUnavailable", "TextError", "UnknownGame", "UnknownRules", "Unreadable", "cut",
           "unavailable"]


class AccessDenied(Exception):
    """No valid token for this game, or the seat may not do this. Nothing is written."""

    status = 403


class NotAuthenticated(AccessDenied):
    status = 401


class PbemError(GameError):
    """A play-by-email request that cannot be carried out (a dispute out of its window, ...)."""
