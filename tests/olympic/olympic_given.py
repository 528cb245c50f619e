"""Given a position, when an order, then events or a refusal: helpers for the Olympic engine tests."""
from __future__ import annotations

from dataclasses import replace

import pytest

from app.events.core import DieRolled
from app.events.dice import RecordedDice
from app.rules.errors import IllegalOrder
from app.rules.olympic import GAME

START = GAME.initial_state("solitaire", {})


def given(step: str = "combat", turn: int = 2, units: dict[str, str] | None = None, keep_setup: bool = False,
          released: bool = True, **fields):
    """A position: only `units` (id -> hex) on the map, stacked in the order given (the last is on top), unless
    `keep_setup` keeps the printed set-up too. Japanese units are released unless `released` is False."""
    placed = {}
    for uid, u in START.units.items():
        u = u if keep_setup else replace(u, status="pool", hex=None)
        placed[uid] = replace(u, released=released) if u.side == "japanese" else u
    for i, (uid, hex_) in enumerate((units or {}).items()):
        placed[uid] = replace(placed[uid], status="map", hex=hex_, order=1000 + i)
    return replace(START, step=step, turn=turn, units=placed, clock=2000, **fields)


def when(state, side: str, order: str, rolls=()) -> list:
    command = GAME.parse(order, side, state)
    return GAME.decide(state, command, RecordedDice(next_index=0, recorded=list(rolls)))


def after(state, events: list):
    for e in events:
        if not isinstance(e, DieRolled):
            state = GAME.evolve(state, e)
    return state


def refused(state, side: str, order: str, case: str) -> str:
    with pytest.raises(IllegalOrder) as err:
        when(state, side, order)
    assert err.value.case == case, str(err.value)
    return str(err.value)


def of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def programmed(state) -> str:
    """The order the programmed Japanese gives now (the one its step accepts)."""
    orders = GAME.legal_orders(state, "japanese")
    assert len(orders) == 1, orders
    return orders[0]["order"]
