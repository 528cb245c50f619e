"""Given-events / when-command / then-events helpers for the SNC tests."""
from __future__ import annotations

from dataclasses import replace

from app.events.core import DieRolled
from app.events.dice import RecordedDice
from app.rules.snc import GAME as RULES
from app.rules.snc import events as ev
from app.rules.snc.state import State, initial_state


def fold(state: State, *events) -> State:
    for e in events:
        state = RULES.evolve(state, e)
    return state


def given(*events) -> State:
    return fold(initial_state(), *events)


def position(units: dict[str, str], turn: int = 7, side: str = "japanese", phase: str = "ops1",
             plan: tuple = ("fight", "fight"), steps: dict[str, int] | None = None,
             control: tuple = ("3512", "3611"), pool: tuple = ()) -> State:
    """A map holding only `units` (id -> hex); everything else waits off-map. The sequence at `phase`."""
    s = initial_state()
    out = {}
    for uid, u in s.units.items():
        if uid in units:
            u = replace(u, hex=units[uid], status="map")
        elif uid in pool:
            u = replace(u, hex=None, status="pool")
        else:
            u = replace(u, hex=None, status="pool", arrival_turn=99 if u.arrival_turn or u.hex else 0)
        if steps and uid in steps:
            u = replace(u, steps=steps[uid])
        out[uid] = u
    return replace(s, units=out, turn=turn, side=side, phase=phase, plan=plan, jp_control=frozenset(control))


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


__all__ = ["ev", "fold", "given", "of", "position", "then", "when", "RULES"]
