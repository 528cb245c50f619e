"""The moves the strong practice opponent searches beside the legal list (app/rules/search.py, the policies' edition
7): toward what the final count (ruling R20) still needs taken.

The legal list offers each American unit a few of the hexes it may reach, spread along the map's hex order, not
toward anything; R20's count asks for southern Kyushu cleared or Kagoshima taken. So in the American Movement Phase
each unit that may still move is offered the hex it can reach that stands nearest a target, the hexes of the
Japanese units still south of the Objective Line and Kagoshima while it is not American (a Japanese unit's own
hex is never entered, R10, so "nearest" counts to it), and the `AIMS` that close the most distance are searched."""
from __future__ import annotations

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, reach
from app.rules.olympic.sequence import _room, _situation
from app.rules.olympic.state import State
from app.rules.olympic.victory import assessment

AIMS = 3  # moves toward the targets searched a decision, beside the legal list's


def targets(state: State) -> list[Hex]:
    """The hexes R20's count still needs: the Japanese units' south of the Objective Line, Kagoshima if not
    American."""
    a = assessment(state)
    hexes = {state.units[uid].hex for uid in a["japanese_south"]}
    if not a["key_city"]:
        hexes.add(str(state.data.hex_named(state.data.scenario["victory"]["key_city"])))
    return [Hex.parse(h) for h in sorted(hexes)]


def aims(state: State, side: str) -> list[str]:
    """Up to `AIMS` American moves, each a unit's reachable hex nearest a target (`targets`), those that close the
    most distance first; none outside the American Movement Phase."""
    if side != "american" or state.step != "movement" or state.side != "american":
        return []
    goals = targets(state)
    if not goals:
        return []
    data = state.data
    sit = _situation(state)

    def gap(h: Hex) -> int:
        return min(data.map.distance(h, g) for g in goals)

    found = []
    for u in state.on_map("american"):
        if u.moved or state.at_sea(u):
            continue
        here = Hex.parse(u.hex)
        now = gap(here)
        if now <= 1:
            continue  # next to a target already: what is left is the attack
        reached = reach(data.map, data.movement, Mover.single(here, data.unit(u.id).movement, "american"), sit)
        best = min(reached.hexes(), key=lambda h: (gap(h), reached.cost[h], str(h)), default=None)
        if best is not None and gap(best) < now and _room(state, str(best), "american", 1):
            found.append((now - gap(best), -u.strength, u.id, str(best)))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    return [f"move {uid} to {h}" for _, _, uid, h in found[:AIMS]]
