"""Order errors, in the python-chess manner; each quotes the order and, where the rules forbid it, the case."""
from __future__ import annotations


class OrderError(Exception):
    """Base: an order that is not carried out. Nothing is written."""

    case: str | None = None

    def to_dict(self) -> dict:
        return {"error": type(self).__name__, "message": str(self), "case": self.case}


class InvalidOrder(OrderError):
    """The order cannot be parsed in the game's order language."""

    def __init__(self, order: str, message: str):
        super().__init__(f"cannot read order {order!r}: {message}")
        self.order = order
        self.reason = message


class AmbiguousOrder(OrderError):
    """The order parses but could mean more than one thing."""

    def __init__(self, order: str, message: str):
        super().__init__(f"ambiguous order {order!r}: {message}")
        self.order = order


class IllegalOrder(OrderError):
    """The order parses, but the rules forbid it; `case` names the rule, e.g. "SNC 9.4"."""

    def __init__(self, case: str, message: str):
        super().__init__(f"{case}: {message}")
        self.case = case
        self.message = message
