"""Given-events / when-command / then-events helpers for the Ichi-Go engine tests."""
from __future__ import annotations

from dataclasses import replace

from app.events.core import DieRolled
from app.events.dice import RecordedDice
from app.rules.ichigo import events as ev
from app.rules.ichigo.data_load import load
from app.rules.ichigo.rules import RULES
from app.rules.ichigo.state import State, Unit, initial_state, raw_unit
from app.rules.ichigo.state import _unit as make_unit


def fold(state: State, *events) -> State:
    for e in events:
        state = RULES.evolve(state, e)
    return state


def chinese(handle: str, ref: str, hex_: str, tried: bool = False) -> Unit:
    return make_unit(raw_unit(load(), ref), handle, hex=hex_, status="map", tried=tried)


def position(units: dict[str, str], turn: int = 2, phase: str = "VII", plans: dict | None = None,
             extra: tuple = (), steps: dict | None = None, control: frozenset | None = None, **kw) -> State:
    """A map holding only `units` (id -> hex) and the `extra` Unit records; others wait off the map."""
    s = initial_state()
    out = {}
    for uid, u in s.units.items():
        if uid in units:
            u = replace(u, hex=units[uid], status="map")
        elif u.on_map:
            u = replace(u, hex=None, status="removed")
        if steps and uid in steps:
            u = replace(u, steps=steps[uid])
        out[uid] = u
    for u in extra:
        out[u.id] = u
    pool = tuple(r for r in s.draw_pool if r not in {u.ref for u in extra})
    plans = plans if plans is not None else {"japanese": "move-fight", "chinese": "move-fight"}
    st = replace(s, units=out, turn=turn, phase=phase, plans=plans, draw_pool=pool, **kw)
    return replace(st, jp_control=control) if control is not None else st


def when(state: State, side: str, text: str, rolls=()) -> list:
    command = RULES.parse(text, side, state)
    dice = RecordedDice(next_index=0, recorded=list(rolls))
    events = RULES.decide(state, command, dice)
    assert len([e for e in events if isinstance(e, DieRolled)]) == len(list(rolls)), "unused die rolls"
    return events


def then(state: State, side: str, text: str, rolls=()) -> State:
    return fold(state, *when(state, side, text, rolls))


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


__all__ = ["ev", "fold", "chinese", "of", "position", "then", "when", "RULES"]
