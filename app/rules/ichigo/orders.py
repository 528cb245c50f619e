"""How the Ichi-Go order language reads its slots against the position (docs/orders/ichigo.md); the orders
themselves, each with its syntax line, case and handler, are the states table's (sequence.py).

Units are named by id (`jp-cea-26div`), by id without its side prefix (`cea-26div`), by the public counter
handle of a Chinese regular (`C07`), or, where the order moves or fights, by a hex (`1906`: every own unit there
that may act). An unknown or ambiguous name is an InvalidOrder or AmbiguousOrder quoting the order; the rules'
refusals (IllegalOrder, with the case) come later.
"""
from __future__ import annotations

import re

from app.rules.engine.syntax import ParseContext, SlotType
from app.rules.errors import AmbiguousOrder, InvalidOrder

HEX_RE = re.compile(r"^[0-9]{4}$")


def _unit(word: str, context: ParseContext, hex_ok: bool) -> list[str]:
    state, side, order = context.state, context.side, context.text.strip()
    w = word.lower()
    if w in state.units:
        return [w]
    if w.upper() in state.units:
        return [w.upper()]
    if hex_ok and HEX_RE.match(w):
        here = sorted(u.id for u in state.at(w) if u.side == side and not u.static and not u.militia)
        if not here:
            # the grammar's to say: the word may be the next slot's hex ("move 110div 2012" lacks its "to")
            raise ValueError("is a hex with no unit of yours that can act")
        return here
    matches = [k for k in state.units if k.split("-", 1)[-1] == w]
    if len(matches) > 1:
        raise AmbiguousOrder(order, f"{w!r} could be {', '.join(sorted(matches))}")
    if not matches:
        raise InvalidOrder(order, f"no unit {w!r}")
    return matches


def _named_once(values: list, context: ParseContext | None) -> list:
    if len(set(values)) != len(values):
        raise InvalidOrder(context.text.strip() if context else "", "a unit is named twice")
    return values


def _hex(word: str) -> str:
    if not HEX_RE.match(word):
        raise ValueError("is not a hex number (XXYY)")
    return word


HEX = SlotType(_hex, "a hex number (XXYY)")
# units that move or fight: a hex names every own unit there that may act
UNITS = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=True), "units (ids, counter handles or a hex)",
                            plural=True, finish=_named_once)
# units off the map or named one by one (entering, landing, withdrawn, released, placed)
UNITS_BY_NAME = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "units (ids or counter handles)",
                                    plural=True, finish=_named_once)
UNIT = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit (id or counter handle)")
SLOTS = {"HEX": HEX, "UNITS": UNITS, "UNIT": UNIT, "BRIGADE": UNIT, "DIVISION": UNIT}
