"""The Ichi-Go order language (docs/orders/ichigo.md): plain text parsed into a Command.

Units are named by id (`jp-cea-26div`), by id without its side prefix (`cea-26div`), by the public counter
handle of a Chinese regular (`C07`), or by a hex (`1906`: every own unit there that may act). Parse errors are
InvalidOrder quoting the order; the rules' refusals (IllegalOrder, with the case) come later.
"""
from __future__ import annotations

import re

from app.rules.base import Command
from app.rules.engine.syntax import ascii_number
from app.rules.errors import AmbiguousOrder, InvalidOrder
from app.rules.ichigo.state import State

HEX_RE = re.compile(r"^[0-9]{4}$")
NATIONS = ("japanese", "chinese", "us")
ORDERS = ("move-fight", "fight-move")

SYNTAX = {
    "deploy": "deploy",
    "declare": "declare japanese|chinese|us move-fight|fight-move",
    "move": "move UNITS to HEX [via HEX ...] [strategic]",
    "attack": "attack HEX with UNITS [tanks N] [sf]",
    "advance": "advance UNITS",
    "stay": "stay",
    "roll": "roll",
    "air": "air HEX [HEX ...]",
    "b29": "b29 HEX",
    "enter": "enter UNITS at HEX",
    "withdraw": "withdraw UNIT UNIT [UNIT UNIT]",
    "release": "release UNIT UNIT",
    "absorb": "absorb BRIGADE into DIVISION",
    "ship": "ship",
    "commit": "commit N",
    "lose": "lose UNIT [UNIT ...]",
    "supply": "supply HEX",
    "airlift": "airlift UNIT to HEX",
    "drop": "drop HEX",
    "transfer": "transfer UNITS",
    "reinforce": "reinforce",
    "place": "place COUNTER at HEX",
    "land": "land UNITS [at HEX] [displace HEX]",
    "end": "end",
}


def _unit_names(words: list[str], side: str, state: State, order: str, hex_ok: bool = True) -> list[str]:
    out: list[str] = []
    for w in words:
        if w in state.units:
            out.append(w)
            continue
        up = w.upper()
        if up in state.units:
            out.append(up)
            continue
        if hex_ok and HEX_RE.match(w):
            here = sorted(u.id for u in state.at(w) if u.side == side and not u.static and not u.militia)
            if not here:
                raise InvalidOrder(order, f"no unit of yours that can act in {w}")
            out.extend(here)
            continue
        matches = [k for k in state.units if k.split("-", 1)[-1] == w]
        if len(matches) > 1:
            raise AmbiguousOrder(order, f"{w!r} could be {', '.join(sorted(matches))}")
        if not matches:
            raise InvalidOrder(order, f"no unit {w!r}")
        out.append(matches[0])
    if len(set(out)) != len(out):
        raise InvalidOrder(order, "a unit is named twice")
    return out


def _hex(word: str, order: str) -> str:
    if not HEX_RE.match(word):
        raise InvalidOrder(order, f"{word!r} is not a hex number (XXYY)")
    return word


def parse(text: str, side: str, state: State) -> Command:
    order = text.strip()
    words = order.lower().split()
    if not words:
        raise InvalidOrder(text, "empty order")
    verb, rest = words[0], words[1:]
    if verb in ("deploy", "stay", "roll", "reinforce", "ship", "end"):
        if rest:
            raise InvalidOrder(order, f"'{verb}' takes no arguments")
        return Command(side, verb, {})
    if verb == "declare":
        if len(rest) != 2 or rest[0] not in NATIONS or rest[1] not in ORDERS:
            raise InvalidOrder(order, f"expected: {SYNTAX['declare']}")
        return Command(side, verb, {"nation": rest[0], "order": rest[1]})
    if verb == "move":
        strategic = bool(rest) and rest[-1] == "strategic"
        if strategic:
            rest = rest[:-1]
        if "to" not in rest:
            raise InvalidOrder(order, f"expected: {SYNTAX['move']}")
        i = rest.index("to")
        units = _unit_names(rest[:i], side, state, order)
        tail = rest[i + 1:]
        if not units or not tail:
            raise InvalidOrder(order, f"expected: {SYNTAX['move']}")
        dest = _hex(tail[0], order)
        via: list[str] = []
        if len(tail) > 1:
            if tail[1] != "via" or len(tail) < 3:
                raise InvalidOrder(order, f"expected: {SYNTAX['move']}")
            via = [_hex(w, order) for w in tail[2:]]
        return Command(side, verb, {"units": units, "to": dest, "via": via, "strategic": strategic})
    if verb == "attack":
        if len(rest) < 3 or rest[1] != "with":
            raise InvalidOrder(order, f"expected: {SYNTAX['attack']}")
        target = _hex(rest[0], order)
        tail = rest[2:]
        sf = "sf" in tail
        tail = [w for w in tail if w != "sf"]
        tanks = 0
        if "tanks" in tail:
            i = tail.index("tanks")
            try:
                tanks = ascii_number(tail[i + 1])
            except (IndexError, ValueError):
                raise InvalidOrder(order, "'tanks' takes a number") from None
            tail = tail[:i] + tail[i + 2:]
        units = _unit_names(tail, side, state, order)
        if not units:
            raise InvalidOrder(order, "name the attacking units")
        return Command(side, verb, {"hex": target, "units": units, "tanks": tanks, "sf": sf})
    if verb == "land":  # 5.3 item 12 (ruling E10): `displace HEX` names where the units in the port go
        i = next((k for k, w in enumerate(rest) if w in ("at", "displace")), len(rest))
        units = _unit_names(rest[:i], side, state, order, hex_ok=False)
        tail = rest[i:]
        named = dict(zip(tail[::2], tail[1::2], strict=False))
        if not units or len(tail) % 2 or len(named) * 2 != len(tail) or not set(named) <= {"at", "displace"}:
            raise InvalidOrder(order, f"expected: {SYNTAX['land']}")
        at, away = (_hex(named[k], order) if k in named else None for k in ("at", "displace"))
        return Command(side, verb, {"units": units, "hex": at, "displace": away})
    if verb in ("advance", "withdraw", "release"):
        units = _unit_names(rest, side, state, order, hex_ok=verb == "advance")
        if not units:
            raise InvalidOrder(order, f"expected: {SYNTAX[verb]}")
        return Command(side, verb, {"units": units})
    if verb in ("enter", "place"):
        if "at" not in rest or rest.index("at") != len(rest) - 2:
            raise InvalidOrder(order, f"expected: {SYNTAX[verb]}")
        units = _unit_names(rest[:-2], side, state, order, hex_ok=False)
        if not units:
            raise InvalidOrder(order, f"expected: {SYNTAX[verb]}")
        return Command(side, verb, {"units": units, "hex": _hex(rest[-1], order)})
    if verb in ("supply", "drop"):
        if len(rest) != 1:
            raise InvalidOrder(order, f"expected: {SYNTAX[verb]}")
        return Command(side, verb, {"hex": _hex(rest[0], order)})
    if verb == "airlift":
        if len(rest) != 3 or rest[1] != "to":
            raise InvalidOrder(order, f"expected: {SYNTAX['airlift']}")
        (uid,) = _unit_names([rest[0]], side, state, order, hex_ok=False)
        return Command(side, verb, {"unit": uid, "hex": _hex(rest[2], order)})
    if verb == "transfer":
        units = _unit_names(rest, side, state, order)
        if not units:
            raise InvalidOrder(order, f"expected: {SYNTAX['transfer']}")
        return Command(side, verb, {"units": units})
    if verb == "lose":
        out = []
        for w in rest:
            out += _unit_names([w], side, state, order, hex_ok=False)
        if not out:
            raise InvalidOrder(order, f"expected: {SYNTAX['lose']}")
        return Command(side, verb, {"units": out})
    if verb == "commit":
        try:
            (count,) = [ascii_number(w) for w in rest]
        except ValueError:
            raise InvalidOrder(order, f"expected: {SYNTAX['commit']} (N in digits 0-9)") from None
        return Command(side, verb, {"count": count})
    if verb == "air":
        if not rest:
            raise InvalidOrder(order, f"expected: {SYNTAX['air']}")
        return Command(side, verb, {"hexes": [_hex(w, order) for w in rest]})
    if verb == "b29":
        if len(rest) != 1:
            raise InvalidOrder(order, f"expected: {SYNTAX['b29']}")
        return Command(side, verb, {"hex": _hex(rest[0], order)})
    if verb == "absorb":
        if len(rest) != 3 or rest[1] != "into":
            raise InvalidOrder(order, f"expected: {SYNTAX['absorb']}")
        b, dv = _unit_names([rest[0], rest[2]], side, state, order, hex_ok=False)
        return Command(side, verb, {"brigade": b, "division": dv})
    raise InvalidOrder(order, f"unknown order {verb!r}; orders: {', '.join(sorted(SYNTAX))}")
