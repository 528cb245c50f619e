"""Given a position / when an order (with the dice it rolls) / then the events or the refusal with its case: the
helpers Dai Senso's rules tests share. Positions are the shipped scenarios, changed where a test needs, or built
from a few units (`position`)."""
from __future__ import annotations

import copy
import tomllib

import pytest

from app.events.dice import RecordedDice
from app.rules.daisenso import GAME, data
from app.rules.errors import IllegalOrder


def scenario(name: str, change=None):
    with open(data.SCENARIOS / f"{name}.toml", "rb") as f:
        raw = tomllib.load(f)
    if change is None:
        return GAME.initial_state(name, {})
    raw = copy.deepcopy(raw)
    change(raw)
    return GAME.initial_state("custom", {"position": raw})


def position(phasing: str, other: str, units: list[tuple], *, phase: str = "regular", hold: str = "w4221", **more):
    """A custom position: ``units`` as (id, kind, hex[, {more keys}]); the rest of the keys as the format has them
    (docs/daisenso-data.md)."""
    raw = {"name": "test", "turn": 1, "phase": phase, "phasing": phasing, "factions": [phasing, other],
           "combat_phases": 2, "victory": {"faction": phasing, "hold": [hold]},
           "unit": [{"id": u[0], "kind": u[1], "hex": u[2], **(u[3] if len(u) > 3 else {})} for u in units],
           **more}
    return GAME.initial_state("custom", {"position": raw})


def unit(raw, uid, kind, hex_, **more):
    raw["unit"].append({"id": uid, "kind": kind, "hex": hex_, **more})


def drop(raw, *ids):
    raw["unit"] = [u for u in raw["unit"] if u["id"] not in ids]


def when(state, order, rolls=()):
    """The events of ``order`` given by the side to act, and the state after them."""
    side = GAME.prompt(state).side
    events = GAME.decide(state, GAME.parse(order, side, state), RecordedDice(next_index=0, recorded=list(rolls)))
    for e in events:
        if hasattr(e, "apply"):
            state = GAME.evolve(state, e)
    return [e for e in events if hasattr(e, "apply")], state


def refused(state, order, case) -> str:
    side = GAME.prompt(state).side
    with pytest.raises(IllegalOrder) as err:
        GAME.decide(state, GAME.parse(order, side, state), RecordedDice(next_index=0, recorded=[]))
    assert err.value.case == case, str(err.value)
    return str(err.value)


def step(state) -> str:
    return GAME.table.step_of(state)


def orders(state) -> set[str]:
    return {o["order"] for o in GAME.legal_orders(state, GAME.prompt(state).side)}


def preview(state, order: str) -> dict:
    side = GAME.prompt(state).side
    return GAME.preview(state, GAME.parse(order, side, state))


def ds12_after_the_roll(die: int = 6):
    """DS-12 (Dai Senso 4.2.5, 4.2.6, 4.2.8): zhejiang with the 40th Division, the 34th Army and an air unit added,
    the attack on w4624 with the China HQ and the defence's Ranged Support rolled ``die`` (the example's 6): the
    events and the state."""
    def stronger(raw):
        unit(raw, "jp-40-div", "jp-division", "w4524")
        unit(raw, "jp-34-army", "jp-army", "w4625")
        unit(raw, "jp-air", "jp-air", "w4523")

    z = scenario("zhejiang", stronger)
    _, z = when(z, "attack w4624 with jp-13-army jp-3-tank jp-34-army jp-22-div jp-40-div hq jp-china-hq")
    return when(z, "support cn-3-hq", [die])


def ds18_force(raw) -> None:
    """DS-18's Axis force next to w4624 (Zhejiang): the 22nd Division with a Siamese and a Hopeh Exp unit in w4524,
    a regular Hopeh unit in w4625."""
    drop(raw, "jp-22-div")
    unit(raw, "jp-22-div", "jp-division", "w4524")
    unit(raw, "th-1", "siam-infantry", "w4524")
    unit(raw, "hp-exp", "hopeh-exp", "w4524")
    unit(raw, "hp-1", "hopeh-infantry", "w4625")
