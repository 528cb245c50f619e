"""The moves the strong practice opponent searches beside the legal list (app/rules/search.py, the policies' edition
7): toward what the final count (ruling R20) still needs taken.

The legal list offers each American unit a few of the hexes it may reach, spread along the map's hex order, not
toward anything; R20's count asks for southern Kyushu cleared or Kagoshima taken. So in the American Movement Phase
each unit that may still move is offered the hex it can reach that stands nearest a target, the hexes of the
Japanese units still south of the Objective Line and Kagoshima while it is not American (a Japanese unit's own
hex is never entered, R10, so "nearest" counts to it), and the `AIMS` that close the most distance are searched.

From edition 8 "nearest" is read along the Americans' own way (`way_to`): the movement points to a hex next to a
target, where a hex of Japanese units or intact militia on the way counts a Game-Turn more (it is cleared by an
attack before anyone enters it, R10, R11) and a Japanese zone of control half of one (a move stops there, R15).
Edition 7 counted hexes as the crow flies: south of the Objective Line the straight line runs through towns and
cities whose militia no American unit may enter, and the search walked its units up to them and no further (one
game ended with eight Japanese units south, the Americans massed six to twenty hexes north-west of them)."""
from __future__ import annotations

import heapq
from functools import lru_cache

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, step_cost
from app.rules.olympic.sequence import _room, _situation
from app.rules.olympic.state import State
from app.rules.olympic.victory import assessment

AIMS = 3  # moves toward the targets searched a decision, beside the legal list's
CLEAR = 12  # MP (an American unit's allowance: a Game-Turn) a hex of Japanese units or intact militia on the way
# counts beyond its own, for the attack that must clear it first (edition 8)
STOP = 6  # MP a Japanese zone of control on the way counts beyond its own hex: the move stops there (edition 8)


def targets(state: State) -> list[Hex]:
    """The hexes R20's count still needs: the Japanese units' south of the Objective Line, Kagoshima if not
    American."""
    a = assessment(state)
    hexes = {state.units[uid].hex for uid in a["japanese_south"]}
    if not a["key_city"]:
        hexes.add(str(state.data.hex_named(state.data.scenario["victory"]["key_city"])))
    return [Hex.parse(h) for h in sorted(hexes)]


def aims(state: State, side: str, edition: int = 7) -> list[str]:
    """Up to `AIMS` American moves, each a unit's reachable hex nearest a target (`targets`), those that close the
    most distance first; none outside the American Movement Phase. Nearest as the crow flies (edition 7), along
    the Americans' way from edition 8 (`way_to`)."""
    if side != "american" or state.step != "movement" or state.side != "american":
        return []
    goals = targets(state)
    if not goals:
        return []
    data = state.data
    sit = _situation(state)
    along = edition >= 8
    gap = _gap(data, tuple(str(g) for g in goals), sit, along)
    done = 0.0 if along else 1.0
    forbidden = frozenset(sit.forbidden.items())
    found = []
    for u in state.on_map("american"):
        if u.moved or state.at_sea(u):
            continue
        here = Hex.parse(u.hex)
        now = gap(here)
        if now <= done:
            continue  # next to a target already: what is left is the attack
        best = _nearest(data, here, data.unit(u.id).movement, sit.enemy_occupied, sit.ezoc, forbidden,
                        tuple(str(g) for g in goals), along)
        if best is not None and gap(best) < now and _room(state, str(best), "american", 1):
            found.append((now - gap(best), -u.strength, u.id, str(best)))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    return [f"move {uid} to {h}" for _, _, uid, h in found[:AIMS]]


def _gap(data, goals: tuple[str, ...], sit: Situation, along: bool):
    """How far a hex stands from the nearest of `goals`: along the Americans' way (`way_to`, from edition 8), else
    as the crow flies."""
    if along:
        blocked = frozenset(str(h) for h in sit.enemy_occupied | set(sit.forbidden))
        way = way_to(data, goals, blocked, frozenset(str(h) for h in sit.ezoc))

        def gap(h: Hex) -> float:
            return way.get(str(h), float("inf"))
        return gap
    targets = [Hex.parse(g) for g in goals]

    def crow(h: Hex) -> float:
        return min(data.map.distance(h, g) for g in targets)
    return crow


@lru_cache(maxsize=4096)
def _nearest(data, here: Hex, allowance: float, occupied: frozenset[Hex], ezoc: frozenset[Hex],
             forbidden: frozenset[tuple[Hex, str]], goals: tuple[str, ...], along: bool) -> Hex | None:
    """The hex a unit in `here` with `allowance` MP can reach (R10, R11, R15 against the Japanese units `occupied`,
    their zones of control `ezoc` and the intact militia `forbidden`) nearest `goals` (`_gap`), the cheaper to
    reach and then the lower label among equals; None where it can reach none. Kept by everything it reads, for
    no American move changes any of it: an American Movement Phase's decisions and the search's playouts through
    it ask it again for each unit not yet moved."""
    sit = Situation(enemy_occupied=occupied, ezoc=ezoc, forbidden=dict(forbidden))
    gap = _gap(data, goals, sit, along)
    reached = reach(data.map, data.movement, Mover.single(here, allowance, "american"), sit)
    return min(reached.hexes(), key=lambda h: (gap(h), reached.cost[h], str(h)), default=None)


@lru_cache(maxsize=256)
def way_to(data, goals: tuple[str, ...], blocked: frozenset[str], zoc: frozenset[str]) -> dict[str, float]:
    """Each land hex's cost, in American movement points, to a hex next to one of `goals` (0 there): the cheapest
    way over land (R10's terrain and hexside costs), each hex of `blocked` (Japanese units, intact militia: R10,
    R11) entered counting `CLEAR` more and each of `zoc` (Japanese zones of control, R15) `STOP` more, but the
    hex next to a goal where the way ends. Kept for a position's Japanese units and militia, which no American
    move changes: the search's decisions in one Movement Phase share it."""
    links = _steps(data)
    ends = {n for g in goals for n in data.land_links.get(g, ()) if n not in goals}
    cost = dict.fromkeys(ends, 0.0)
    heap = [(0.0, h) for h in sorted(ends)]
    heapq.heapify(heap)
    done: set[str] = set()
    while heap:
        spent, y = heapq.heappop(heap)
        if y in done:
            continue
        done.add(y)
        extra = (CLEAR if y in blocked else 0.0) + (STOP if y in zoc and y not in ends else 0.0)
        for x, step in links.get(y, ()):
            if x in done or x in goals:
                continue
            total = spent + step + extra
            if total < cost.get(x, float("inf")):
                cost[x] = total
                heapq.heappush(heap, (total, x))
    return cost


@lru_cache(maxsize=4)
def _steps(data) -> dict[str, tuple[tuple[str, float], ...]]:
    """Each land hex y's land neighbours x with the American movement points of the step from x into y (R10's
    terrain and hexsides; none where a step is barred): `way_to`'s graph, read once a map, for the search values
    its positions by it many times a decision (edition 9)."""
    mover = Mover.single(Hex.parse(next(iter(data.land_links))), 0, "american")
    out = {}
    for y, near in data.land_links.items():
        steps = []
        for x in near:
            try:
                steps.append((x, step_cost(data.map, data.movement, mover, Hex.parse(x), Hex.parse(y))))
            except RuleViolation:
                continue
        out[y] = tuple(steps)
    return out
