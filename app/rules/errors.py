"""Order errors, in the python-chess manner; each quotes the order and, where the rules forbid it, the case."""
from __future__ import annotations

import re

ECHO = 60  # characters of a player's text a refusal quotes back; an order may be 1,000 (app/text.py LIMITS)
_LONG_WORD = re.compile(rf"\S{{{ECHO + 21},}}")  # no unit id, hex or case is near this long (ids: 40 at most)


def echo(text: str) -> str:
    """A player's text quoted back in a refusal: whole up to ECHO characters, else its start and its length, so a
    refusal of a long order is as short as one of a short order (issue 30)."""
    if len(text) <= ECHO:
        return repr(text)
    return f"{text[:ECHO] + '…'!r} ({len(text):,} characters)"


def cut(line: str) -> str:
    """A player's line repeated unquoted (an email answer's "refused:" and "not attempted:" lines), cut as `echo`
    cuts it."""
    return line if len(line) <= ECHO else f"{line[:ECHO]}… ({len(line):,} characters)"


def _capped(message: str) -> str:
    """The shared refusal path's net: a word longer than any the rules name (a player's word quoted back by a game's
    own message) is cut as `echo` cuts it."""
    def shortened(word: str) -> str:
        q = word[0] if word[0] in "'\"" and word[-1] == word[0] else ""
        return f"{q}{cut(word[len(q):len(word) - len(q)])}{q}"

    return _LONG_WORD.sub(lambda m: shortened(m[0]), message)


class OrderError(Exception):
    """Base: an order that is not carried out. Nothing is written."""

    case: str | None = None

    def __init__(self, message: str = ""):
        super().__init__(_capped(message))

    def to_dict(self) -> dict:
        return {"error": type(self).__name__, "message": str(self), "case": self.case}


class InvalidOrder(OrderError):
    """The order cannot be parsed in the game's order language."""

    def __init__(self, order: str, message: str):
        super().__init__(f"cannot read order {echo(order)}: {message}")
        self.order = order
        self.reason = message


class AmbiguousOrder(OrderError):
    """The order parses but could mean more than one thing."""

    def __init__(self, order: str, message: str):
        super().__init__(f"ambiguous order {echo(order)}: {message}")
        self.order = order


class IllegalOrder(OrderError):
    """The order parses, but the rules forbid it; `case` names the rule, e.g. "SNC 9.4"."""

    def __init__(self, case: str, message: str):
        super().__init__(f"{case}: {message}")
        self.case = case
        self.message = _capped(message)
