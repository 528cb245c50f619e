"""The Ichi-Go orders to try for the list of legal orders (issue 14, docs/architecture.md practice 14): each movable
unit (or the stack under way) to every land hex within two hexes, each adjacent enemy hex with all the units next to it
(with the tank regiments and the 1st SF where they may help), and every answer to the decision waited for, as
the practice player draws them. app/rules/legal.py keeps those the decider accepts."""
from __future__ import annotations

import random
from collections.abc import Iterator

from app.rules.ichigo import combat, practice, sequence
from app.rules.ichigo.state import State

_DRAWN = ("move", "attack")  # listed here in full; the practice draws of these are left out


def orders_to_try(state: State, side: str) -> Iterator[str]:
    names = {a.name for a in sequence.TABLE.prompt(state).actions}
    if "move" in names:
        yield from _moves(state, side)
    if "attack" in names and not state.pending:
        yield from _attacks(state, side)
    for seed in range(3):  # deterministic draws: the same position lists the same orders
        for text in practice.candidates(state, random.Random(seed)):
            if text.split()[0] not in _DRAWN or state.pending:
                yield text


def _own(state: State, side: str):
    nation = state.nation_now()
    return [u for u in state.on_map(side) if u.nation == nation and not u.static and not u.militia]


def _moves(state: State, side: str) -> Iterator[str]:
    d = state.data
    own = _own(state, side)
    groups = [list(state.mover)] if state.mover else [[u.id] for u in own if not u.done]
    for group in groups:
        start = state.units[group[0]].hex
        near = {n for n in d.neighbours(start) if d.land(n)}
        near |= {m for n in near for m in d.neighbours(n) if d.land(m)}
        for dest in sorted(near - {start}):
            yield f"move {' '.join(group)} to {dest}"


def _attacks(state: State, side: str) -> Iterator[str]:
    d = state.data
    own = [u for u in _own(state, side) if not u.attacked]
    targets = sorted({n for u in own for n in d.neighbours(u.hex) if any(x.side != side for x in state.at(n))})
    for t in targets:
        base = f"attack {t} with {' '.join(u.id for u in own if t in d.neighbours(u.hex))}"
        yield base
        if side == "japanese":
            for n in range(1, len(combat.tank_pool(state)) + 1):
                yield f"{base} tanks {n}"
            if combat.sf_ready(state) is not None:
                yield f"{base} sf"
