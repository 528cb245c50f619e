"""The SNC order language (docs/orders/snc.md): plain text a player can type in an email, parsed into a Command.

Units are named by id (`jp-d3-r6`), by id without the side prefix (`d3-r6`), or by a hex (`3512`: every
own mobile unit there). Parse errors are InvalidOrder quoting the order; the rules' refusals come later.
"""
from __future__ import annotations

import re

from app.rules.base import Command
from app.rules.errors import AmbiguousOrder, InvalidOrder
from app.rules.snc.state import State

HEX_RE = re.compile(r"^[0-9]{4}$")
MODES = ("move", "fight")
SUPPORT_KINDS = ("air", "artillery", "naval", "amphibious")

SYNTAX = {
    "declare": "declare move|fight move|fight",
    "move": "move UNITS to HEX [via HEX ...]",
    "overrun": "overrun HEX with UNITS [support KIND ...]",
    "attack": "attack HEX with UNITS [support KIND ...]",
    "lose": "lose UNIT [UNIT ...]",
    "advance": "advance UNITS to HEX [HEX]",
    "stay": "stay",
    "support": "support naval",
    "intercept": "intercept",
    "pass": "pass",
    "air": "air",
    "proceed": "proceed",
    "remove": "remove UNIT [UNIT ...]",
    "place": "place UNITS at HEX",
    "rail": "rail UNITS to HEX",
    "land": "land UNITS at HEX [support KIND ...]",
    "replace": "replace UNIT [UNIT]",
    "eliminate": "eliminate UNIT [UNIT ...]",
    "retreat": "retreat to HEX",
    "end": "end",
}


def _hex(order: str, word: str) -> str:
    if not HEX_RE.match(word):
        raise InvalidOrder(order, f"{word!r} is not a hex number (XXYY)")
    return word


def resolve_units(order: str, words: list[str], side: str, state: State, hex_ok: bool = True,
                  dedup: bool = True) -> list[str]:
    out: list[str] = []
    for w in words:
        low = w.lower()
        if hex_ok and HEX_RE.match(low):
            found = sorted(u.id for u in state.at(low) if u.side == side and not u.static)
            if not found:
                raise InvalidOrder(order, f"there is no {side} mobile unit in {low}")
            out += found
            continue
        if low in state.units:
            out.append(low)
            continue
        matches = [uid for uid in state.units if uid.split("-", 1)[1] == low]
        if not matches:
            matches = [uid for uid in state.units if uid.endswith("-" + low)]
        if not matches:
            raise InvalidOrder(order, f"no unit is called {w!r}")
        if len(matches) > 1:
            raise AmbiguousOrder(order, f"{w!r} could be {', '.join(sorted(matches))}")
        out.append(matches[0])
    return list(dict.fromkeys(out)) if dedup else out


def _split(words: list[str], key: str) -> tuple[list[str], list[str]]:
    if key in words:
        i = words.index(key)
        return words[:i], words[i + 1:]
    return words, []


def _support(order: str, words: list[str]) -> list[str]:
    kinds = [w.lower() for w in words]
    for k in kinds:
        if k not in SUPPORT_KINDS:
            raise InvalidOrder(order, f"{k!r} is not a fire support kind ({', '.join(SUPPORT_KINDS)})")
    return kinds


def parse(text: str, side: str, state: State) -> Command:
    order = text
    words = text.replace(",", " ").replace("/", " ").split()
    if not words:
        raise InvalidOrder(order, "empty order")
    verb, rest = words[0].lower(), [w.lower() for w in words[1:]]
    if verb in ("end", "stay", "pass", "intercept", "air", "proceed") and not rest:
        return Command(side, verb)
    if verb == "declare" or (verb in MODES and len(rest) == 1):
        modes = rest if verb == "declare" else [verb, *rest]
        if len(modes) != 2 or any(m not in MODES for m in modes):
            raise InvalidOrder(order, f"expected '{SYNTAX['declare']}'")
        return Command(side, "declare", {"first": modes[0], "second": modes[1]})
    if verb == "support" and rest == ["naval"]:
        return Command(side, "support", {"kind": "naval"})
    if verb == "move":
        head, tail = _split(rest, "to")
        if not head or not tail:
            raise InvalidOrder(order, f"expected '{SYNTAX['move']}'")
        dest, via = _split(tail, "via")
        if len(dest) != 1:
            raise InvalidOrder(order, "name one destination hex after 'to'")
        return Command(side, "move", {"units": resolve_units(order, head, side, state), "to": _hex(order, dest[0]),
                                      "via": [_hex(order, w) for w in via]})
    if verb in ("attack", "overrun", "land", "place", "rail"):
        joiner = {"attack": "with", "overrun": "with", "land": "at", "place": "at", "rail": "to"}[verb]
        if verb in ("attack", "overrun"):
            if len(rest) < 3 or rest[1] != "with":
                raise InvalidOrder(order, f"expected '{SYNTAX[verb]}'")
            target = _hex(order, rest[0])
            units_words, support = _split(rest[2:], "support")
        else:
            units_words, tail = _split(rest, joiner)
            if not units_words or not tail:
                raise InvalidOrder(order, f"expected '{SYNTAX[verb]}'")
            target = _hex(order, tail[0])
            extra, support = _split(tail[1:], "support")
            if extra:
                raise InvalidOrder(order, f"unexpected {' '.join(extra)!r}")
        units = resolve_units(order, units_words, side, state, hex_ok=verb in ("attack", "overrun"))
        args = {"hex": target, "units": units}
        if verb in ("attack", "overrun", "land"):
            args["support"] = _support(order, support)
        elif support:
            raise InvalidOrder(order, f"{verb} takes no fire support")
        return Command(side, verb, args)
    if verb == "advance":
        head, tail = _split(rest, "to")
        if not head or not tail or len(tail) > 2:
            raise InvalidOrder(order, f"expected '{SYNTAX['advance']}'")
        return Command(side, "advance", {"units": resolve_units(order, head, side, state),
                                         "path": [_hex(order, w) for w in tail]})
    if verb == "retreat" and len(rest) == 2 and rest[0] == "to":
        return Command(side, "retreat", {"hex": _hex(order, rest[1])})
    if verb in ("lose", "remove", "replace", "eliminate") and rest:
        return Command(side, verb, {"units": resolve_units(order, rest, side, state, hex_ok=False,
                                                              dedup=verb != "lose")})
    known = ", ".join(sorted(SYNTAX))
    raise InvalidOrder(order, f"unknown order; orders are: {known} (docs/orders/snc.md)")
