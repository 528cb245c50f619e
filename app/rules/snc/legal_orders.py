"""The SNC orders to try for the list of legal orders (issue 14, docs/architecture.md practice 14): every destination
the stack under way (else each unit not yet moved) can reach, every adjacent enemy hex with all the units next to it
and each marker allowed there, and every answer to the decision waited for. app/rules/legal.py keeps those the decider
accepts. Bounded: at most `MAX_PER_UNIT` destinations per unit, the nearest."""
from __future__ import annotations

import random
from collections.abc import Iterator

from app.rules.errors import OrderError
from app.rules.kernel.hexgrid import Hex
from app.rules.snc import combat, movement, practice, sequence
from app.rules.snc.state import State

MAX_PER_UNIT = 40
# the actions whose candidates the practice player draws well enough to list (each a handful of texts)
_FROM_PRACTICE = ("lose", "advance", "stay", "intercept", "pass", "air", "proceed", "support", "remove", "eliminate",
                  "place", "rail", "land", "retreat", "replace", "declare", "end")


def orders_to_try(state: State) -> Iterator[str]:
    p = sequence.TABLE.prompt(state)
    side, names = p.side, {a.name for a in p.actions}
    if "move" in names:
        yield from _moves(state, side)
    for verb in ("attack", "overrun"):
        if verb in names:
            yield from _attacks(state, side, verb)
    for seed in range(3):  # deterministic draws: the same position lists the same orders
        for text in practice.candidates(state, random.Random(seed)):
            if text.split()[0] in _FROM_PRACTICE:
                yield text


def _moves(state: State, side: str) -> Iterator[str]:
    """The stack under way, else every unit that has not moved; each unit's nearest destinations first (by MP,
    then label), so a bounded list keeps the hexes next to it. (9.0 would also let another unit move while a
    stack is under way, ending its move; the list leaves that out: offered to the random player, it broke up
    every stack's move and its games ended in a GT or two by 4.2.)"""
    groups = [list(state.mover)] if state.mover else [[u.id] for u in state.on_map(side)
                                                       if not (u.static or u.done)]
    for group in groups:
        try:
            units = movement.may_move(state, side, group)
        except OrderError:  # the stack may not move on now: no destination of it would be accepted
            continue
        cost = {str(h): mp for h, mp in movement.reach_of(state, side, units).cost.items()}
        nearest = sorted(movement.destinations(state, side, units), key=lambda h: (cost[h], h))
        for dest in nearest[:MAX_PER_UNIT]:
            yield f"move {' '.join(group)} to {dest}"


def _attacks(state: State, side: str, verb: str) -> Iterator[str]:
    d = state.data
    own = [u for u in state.on_map(side) if not u.static and (verb == "overrun" or not u.attacked)]
    targets = sorted({str(n) for u in own for n in d.map.neighbours(Hex.parse(u.hex))
                      if any(x.side != side for x in state.at(str(n)))})
    for t in targets:
        near = [u for u in own if t in {str(h) for h in d.map.neighbours(Hex.parse(u.hex))}]
        groups = [near] if verb == "attack" else [[u for u in near if u.hex == h]
                                                  for h in sorted({u.hex for u in near})]
        for group in groups:
            ids = [u.id for u in group]
            origins = {u.hex for u in group}
            kinds = [k for k in ("air", "artillery", "naval")
                     if combat.support_allowed(state, side, k, t, verb, origins) is None]
            base = f"{verb} {t} with {' '.join(ids)}"
            yield base
            for k in kinds:
                yield f"{base} support {k}"
            if len(kinds) > 1:
                yield f"{base} support {' '.join(kinds)}"
