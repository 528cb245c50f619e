"""Fog of war in event texts, for any game whose unit ids tell their side (SNC 6.3, Ichi-Go 6.6).

A game's `visible(event, side)` hook sees one event and no state, so it is strict: it finds every unit id the
event names (`unit_ids`, with the game's `side_of(id)`), and an event naming a unit of another side is shown
redacted unless the rules make that unit public at that moment. These helpers are the parts every such hook
shares: finding the ids, naming their owner, and scrubbing them out of a text. The kernel is pure geometry and
text and imports no event: what the other side's orders and undos show is the engine's (app/rules/engine/fog.py).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields, is_dataclass

SideOf = Callable[[str], "str | None"]


def unit_ids(value, side_of: SideOf) -> set[str]:
    """Every string in an event's fields (keys included, nested) that `side_of` recognises as a unit id."""
    if is_dataclass(value):
        return set().union(*(unit_ids(getattr(value, f.name), side_of) for f in fields(value)))
    if isinstance(value, dict):
        return set().union(set(), *(unit_ids(v, side_of) for v in value.values()),
                           *(unit_ids(k, side_of) for k in value))
    if isinstance(value, list | tuple):
        return set().union(set(), *(unit_ids(v, side_of) for v in value))
    return {value} if isinstance(value, str) and side_of(value) else set()


def enemy_ids(event, side: str, side_of: SideOf) -> set[str]:
    return {u for u in unit_ids(event, side_of) if side_of(u) != side}


def owner(units, side_of: SideOf, names: dict[str, str]) -> str:
    """'Japanese', 'Chinese'...: the one side of these units as a text, or 'enemy' if they are mixed or unknown."""
    sides = {side_of(u) for u in units} - {None}
    return names.get(sides.pop(), "enemy") if len(sides) == 1 else "enemy"


def scrub(text: str, hidden: Callable[[str], bool], id_pattern: str, label: Callable[[str], str]) -> str:
    """`text` with every unit id for which `hidden(id)` holds taken out: a run of ids ("a, b c") keeps its shown
    ids and says how many units of each `label` (a nation, a side) are left unnamed ("jp-x, 2 Japanese units")."""
    run = re.compile(rf"(?<![\w-])(?:{id_pattern})(?:(?:, | )(?:{id_pattern}))*(?![\w-])")
    one = re.compile(rf"(?<![\w-])(?:{id_pattern})(?![\w-])")

    def replace(found: re.Match) -> str:
        ids = one.findall(found.group(0))
        if not any(hidden(u) for u in ids):
            return found.group(0)
        counts: dict[str, int] = {}
        for u in ids:
            if hidden(u):
                who = label(u)
                counts[who] = counts.get(who, 0) + 1
        shown = [u for u in ids if not hidden(u)]
        return ", ".join(shown + [f"{_count(n, who)} unit{'s' if n != 1 else ''}"
                                  for who, n in counts.items()])

    return run.sub(replace, text)


def _count(n: int, who: str) -> str:
    return f"{n} {who}" if n != 1 else f"{'an' if who[:1] in 'AEIOU' else 'a'} {who}"
