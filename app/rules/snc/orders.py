"""How the SNC order language reads its slots against the position (docs/orders/snc.md); the orders themselves,
each with its syntax line, case and handler, are the states table's (sequence.py).

Units are named by id (`jp-d3-r6`), by id without the side prefix (`d3-r6`) or its last part, or, where the order
moves or fights, by a hex (`3512`: every own mobile unit there). An unknown or ambiguous name is an InvalidOrder
or AmbiguousOrder quoting the order; the rules' refusals come later. Words are split on blanks, commas and '/',
and `move fight` (two phases' purposes) is short for `declare move fight` (the shorthand below).
"""
from __future__ import annotations

import re

from app.rules.engine.syntax import ParseContext, SlotType
from app.rules.errors import AmbiguousOrder, InvalidOrder

HEX_RE = re.compile(r"^[0-9]{4}$")
MODES = ("move", "fight")
SUPPORT_KINDS = ("air", "artillery", "naval", "amphibious")


def _unit(word: str, context: ParseContext, hex_ok: bool) -> list[str]:
    state, side, order = context.state, context.side, context.text
    low = word.lower()
    if hex_ok and HEX_RE.match(low):
        found = sorted(u.id for u in state.at(low) if u.side == side and not u.static)
        if not found:
            # the grammar's to say: the word may be the next slot's hex ("move d36 3411" lacks its "to")
            raise ValueError(f"is a hex with no {side} mobile unit in it")
        return found
    if low in state.units:
        return [low]
    matches = [uid for uid in state.units if uid.split("-", 1)[1] == low]
    if not matches:
        matches = [uid for uid in state.units if uid.endswith("-" + low)]
    if not matches:
        raise InvalidOrder(order, f"no unit is called {word!r}")
    if len(matches) > 1:
        raise AmbiguousOrder(order, f"{word!r} could be {', '.join(sorted(matches))}")
    return matches


def _once(values: list, context: ParseContext | None) -> list:
    """A unit named twice (or by its hex and its id) counts once."""
    return list(dict.fromkeys(values))


def _hex(word: str) -> str:
    if not HEX_RE.match(word):
        raise ValueError("is not a hex number (XXYY)")
    return word


def shorthand(text: str) -> str:
    """'/' separates words as a blank does; `move fight` alone is `declare move fight` (5.3)."""
    words = text.replace("/", " ").split()
    if len(words) == 2 and all(w.lower() in MODES for w in words):
        return "declare " + " ".join(words)
    return text.replace("/", " ")


HEX = SlotType(_hex, "a hex number (XXYY)")
# units that move or fight: a hex names every own mobile unit there
UNITS = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=True), "units (ids or a hex)", plural=True,
                            finish=_once)
# units named one by one (placed, railed, landed)
UNITS_BY_NAME = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "units (ids)", plural=True,
                                    finish=_once)
# one unit a word; `lose` names a unit once per step it loses
UNIT = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit id")
UNIT_ONCE = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit id", finish=_once)
KIND = SlotType.choice(*SUPPORT_KINDS)
SLOTS = {"HEX": HEX, "UNITS": UNITS, "UNIT": UNIT, "KIND": KIND}
