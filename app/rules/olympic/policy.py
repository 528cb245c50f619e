"""The programmed Japanese (Olympic 14.51-14.58, 8.51-8.53; rulings R6, R12, R21, R23): deterministic given
the state, each decision with its reason. The Japanese steps of the states table accept only the order this
module gives, so `verify` re-decides every automated order and a tampered one is refused.

Distances (14.52) are movement points with unlimited allowance under the American zones of control (14.58): a
path never leaves an American zone of control it entered, so a zone hex can only be a path's last hex. They
are found backward from the destinations in one search (`_search`), which also gives each hex its best
destination: the nearest, then by the 14.54 terrain order (primary destinations), then the highest identity
number (14.57). The route is the chain of next hops from the unit toward that destination (equal costs: the
hex found first, hexes being taken in order of their key).
"""
from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass

from app.rules.kernel.hexgrid import Hex
from app.rules.olympic.data_load import hex_identity
from app.rules.olympic.state import State, Unit

H = Hex.parse


@dataclass(frozen=True)
class Route:
    """A unit's way to its destination: distance in movement points, the destination and its kind, the full path
    (start excluded), and the other destinations it tied with."""

    unit: str
    distance: int
    destination: str
    kind: str
    path: tuple[str, ...]


def american_land(state: State) -> set[str]:
    return state.hexes_of("american")


def primaries(state: State) -> list[str]:
    """14.53: vacant land hexes next to an American unit on land (not across an all-sea hexside)."""
    occupied = {u.hex for u in state.on_map()}
    return sorted(h for h in state.zoc_of("american") if h not in occupied)


def secondaries(state: State) -> list[str]:
    """14.53: vacant land hexes next to a primary destination hex. A primary hex stays one for this when a
    Japanese unit fills it (ruling R23: 14.54 2) sends units to secondaries exactly when every primary is
    filled), so the anchors are all the hexes next to American units; those hexes are never secondary."""
    links = state.data.land_links
    anchors = state.zoc_of("american")
    occupied = {u.hex for u in state.on_map()}
    return sorted({n for p in anchors for n in links[p]} - occupied - anchors - american_land(state))


def _search(state: State, targets: list[str], ranked: bool) -> dict[str, tuple]:
    """Backward Dijkstra from `targets`: for every hex a Japanese unit could start from, (key, next hop) where
    key = (movement points, terrain rank, -identity, destination) of its best destination (14.52-14.58). The
    search reads nothing but the map, the targets and the hexes closed to it, so one Japanese phase (whose moves
    seldom change either) and a replay folding the same game again find it once (the answer is only read)."""
    closed = frozenset(american_land(state) | state.zoc_of("american"))
    return _searched(state.data, tuple(targets), closed, ranked)


@functools.lru_cache(maxsize=256)
def _searched(data, targets: tuple[str, ...], closed: frozenset[str], ranked: bool) -> dict[str, tuple]:
    links, mp = data.land_links, data.land_mp
    best: dict[str, tuple] = {}
    heap: list = []
    for t in targets:
        key = (0, data.terrain_rank(H(t)) if ranked else 0, -int(t), t)
        best[t] = (key, None)
        heapq.heappush(heap, (key, -int(t), t))
    done: set[str] = set()
    while heap:
        key, _, x = heapq.heappop(heap)
        if x in done:
            continue
        done.add(x)
        new = (key[0] + mp[x], key[1], key[2], key[3])
        for p in links[x]:
            if p in done or p in closed:
                continue
            if p not in best or new < best[p][0]:
                best[p] = (new, x)
                heapq.heappush(heap, (new, -int(p), p))
    return best


def _route(unit: Unit, found: dict[str, tuple], kind: str) -> Route | None:
    entry = found.get(unit.hex)
    if entry is None or entry[1] is None:
        return None
    (distance, _, _, destination), hop = entry
    path = []
    while hop is not None:
        path.append(hop)
        hop = found[hop][1]
    return Route(unit.id, distance, destination, kind, tuple(path))


def routes(state: State, units: list[Unit]) -> tuple[dict[str, Route], dict]:
    """Each unit's destination and path (14.53-14.54, 14.57, 14.58): a reachable vacant primary if any is left
    for it, else the nearest secondary. Also the candidate lists, for the reasons."""
    prime = primaries(state)
    by_primary = _search(state, prime, ranked=True) if prime else {}
    out = {u.id: r for u in units if (r := _route(u, by_primary, "primary"))}
    rest = [u for u in units if u.id not in out]
    second = secondaries(state) if rest else []
    if rest and second:
        by_secondary = _search(state, second, ranked=False)
        out.update({u.id: r for u in rest if (r := _route(u, by_secondary, "secondary"))})
    return out, {"primary": prime, "secondary": second}


def in_contact(state: State, unit: Unit) -> bool:
    return unit.hex in state.zoc_of("american")


# -- the movement phase (14.51-14.58, R12, R23) -----------------------------------------------------------------
def next_movement(state: State) -> dict:
    """The programmed Japanese's next order in the Japanese Forces Movement Phase, as
    {"action", ...arguments, "reason"}: a reinforcement's entry, one unit's move or hold, or the end."""
    return state.memo("next_movement", lambda: _next_movement(state))


def _next_movement(state: State) -> dict:
    data = state.data
    if state.due:
        return _entry(state, state.due[0])
    for category in data.priorities["movement"]["order"]:
        units = [u for u in state.on_map("japanese") if u.released and not u.moved
                 and data.unit(u.id).category == category and data.is_land(H(u.hex))]
        if not units:
            continue
        holding = sorted((u for u in units if in_contact(state, u)), key=lambda u: (-hex_identity(H(u.hex)), -u.order))
        if holding:
            u = holding[0]
            return {"action": "hold", "unit": u.id, "reason": {
                "case": "Olympic ruling R23", "category": category,
                "summary": f"{category}: already next to an American unit, holds {u.hex}"}}
        found, candidates = routes(state, units)
        settled = sorted((u for u in units if _settled(state, u) and u.id not in _primary(found)),
                         key=lambda u: (-hex_identity(H(u.hex)), -u.order))
        if settled:
            u = settled[0]
            return {"action": "hold", "unit": u.id, "reason": {
                "case": "Olympic ruling R36", "category": category,
                "destination": {"hex": u.hex, "kind": "secondary", "case": "Olympic 14.54 2)"},
                "summary": f"{category}: no primary destination left for it, already in secondary {u.hex}"}}
        if not found:
            u = max(units, key=lambda u: (hex_identity(H(u.hex)), u.order))
            return {"action": "hold", "unit": u.id, "reason": {
                "case": "Olympic 14.58", "category": category,
                "summary": f"{category}: no destination it could reach", **candidates}}
        ranked = sorted(found.values(), key=lambda r: (r.distance, -hex_identity(H(state.unit(r.unit).hex)),
                                                        -state.unit(r.unit).order))
        chosen = ranked[0]
        return _move(state, chosen, category, ranked)
    return {"action": "end", "reason": {"case": "Olympic 14.51", "summary": "every released unit has moved"}}


def _primary(found: dict[str, Route]) -> set[str]:
    return {uid for uid, r in found.items() if r.kind == "primary"}


def _settled(state: State, unit: Unit) -> bool:
    """Ruling R36 (rules version 6): the unit stands alone in a hex that is a secondary destination but for the
    unit itself (14.53: next to a hex next to an American unit, not itself next to one), so it is there already."""
    links = state.data.land_links
    anchors = state.zoc_of("american")
    return (state.since(6) and unit.hex in links and unit.hex not in anchors
            and any(n in anchors for n in links[unit.hex]) and len(state.stack(unit.hex)) == 1)


def _move(state: State, route: Route, category: str, ranked: list[Route]) -> dict:
    """14.52: along the route as far as the unit's allowance goes; never ending over the stacking limit."""
    data = state.data
    unit = state.unit(route.unit)
    allowance = data.unit(unit.id).movement
    spent, path = 0, []
    for label in route.path:
        cost = data.land_mp[label]
        if spent + cost > allowance:
            break
        spent += cost
        path.append(label)
    cap = data.scenario["stacking"]["max_units"]
    while path and len(state.stack(path[-1])) >= cap:
        spent -= data.land_mp[path[-1]]
        path.pop()
    others = [{"unit": r.unit, "hex": state.unit(r.unit).hex, "distance": r.distance} for r in ranked[1:6]]
    reason = {
        "case": "Olympic 14.55", "category": category, "unit": unit.id, "from": unit.hex,
        "distance": route.distance, "next_nearest": others,
        "destination": {"hex": route.destination, "kind": route.kind,
                        "case": "Olympic 14.54" if route.kind == "primary" else "Olympic 14.54 2)",
                        "terrain": data.map.terrain_of(H(route.destination))},
        "route": {"case": "Olympic 14.52", "to_destination": list(route.path), "this_phase": path, "mp": spent},
        "summary": f"{category}, nearest its destination ({route.distance} MP): toward {route.kind} "
                   f"{route.destination}",
    }
    if not path:
        reason["summary"] += "; the way on is full (stacking)"
        return {"action": "hold", "unit": unit.id, "reason": reason}
    return {"action": "jmove", "unit": unit.id, "path": path, "mp": spent, "reason": reason}


def _entry(state: State, unit_id: str) -> dict:
    """Ruling R12: a reinforcement enters at the entry hex nearest its destination (ties: higher identity), not
    one an American unit holds, nor a full one."""
    data = state.data
    cap = data.scenario["stacking"]["max_units"]
    american = american_land(state)
    entries = sorted(str(h) for h in data.map.hexes_tagged(data.scenario["japanese_reinforcements"]["entry"]))
    free = [e for e in entries if e not in american and len(state.stack(e)) < cap]
    if not free:
        return {"action": "enter", "unit": unit_id, "hex": None, "reason": {
            "case": "Olympic ruling R12", "summary": "no entry hex is free: it stays in the pool"}}
    prime = primaries(state)
    found = _search(state, prime, ranked=True) if prime else {}
    if not any(e in found for e in free):
        second = secondaries(state)
        found = _search(state, second, ranked=False) if second else {}
    distance = {e: found[e][0][0] for e in free if e in found}
    hex_ = min(free, key=lambda e: (distance.get(e, 10 ** 6), -hex_identity(H(e))))
    return {"action": "enter", "unit": unit_id, "hex": hex_, "reason": {
        "case": "Olympic ruling R12", "entries": {e: distance.get(e) for e in free},
        "summary": f"entry hex nearest its destination: {hex_}"}}


# -- the combat phase (8.51-8.53, R21) --------------------------------------------------------------------------
def _pairs(state: State) -> dict[str, list[str]]:
    """R21: which Japanese unit is in position to attack which American unit (both on land: next to each other
    on land is a land link, `combat.adjacent_land` for two land hexes)."""
    data = state.data
    links = data.land_links
    minimum = data.crt_raw["table"]["minimum"]
    americans = [a for a in state.on_map("american") if a.hex in links and not a.defended]
    out: dict[str, list[str]] = {}
    for j in state.on_map("japanese"):
        if j.attacked or j.hex not in links:
            continue
        near = [a.id for a in americans if a.hex in links[j.hex] and j.strength - a.strength >= minimum]
        if near:
            out[j.id] = near
    return out


def _matching(edges: dict[str, list[str]]) -> int:
    """The size of a maximum matching (augmenting paths)."""
    match: dict[str, str] = {}

    def augment(j: str, seen: set[str]) -> bool:
        for a in edges[j]:
            if a in seen:
                continue
            seen.add(a)
            if a not in match or augment(match[a], seen):
                match[a] = j
                return True
        return False

    return sum(1 for j in sorted(edges) if augment(j, set()))


def next_attack(state: State) -> dict:
    """8.51 first (as many attacks as possible, R21), then 8.52: the attacker in the lowest-numbered hex; its
    target in the highest-numbered hex, the strongest, then the top of the stack."""
    return state.memo("next_attack", lambda: _next_attack(state))


def _next_attack(state: State) -> dict:
    edges = _pairs(state)
    best = _matching(edges)
    if not best:
        return {"action": "end", "reason": {"case": "Olympic 8.51", "summary": "no attack is possible"}}
    jorder = sorted(edges, key=lambda j: (hex_identity(H(state.unit(j).hex)), -state.unit(j).order))
    for j in jorder:
        keep = []
        for a in edges[j]:
            rest = {k: [x for x in v if x != a] for k, v in edges.items() if k != j}
            if _matching({k: v for k, v in rest.items() if v}) + 1 == best:
                keep.append(a)
        if not keep:
            continue
        units = {a: state.unit(a) for a in edges[j]}
        target = max(keep, key=lambda a: (hex_identity(H(units[a].hex)), units[a].strength, units[a].order))
        reason = {
            "case": "Olympic 8.52", "attacks_possible": best,
            "attacker": {"unit": j, "hex": state.unit(j).hex,
                         "others": [{"unit": k, "hex": state.unit(k).hex} for k in jorder if k != j][:6]},
            "target": {"unit": target, "hex": units[target].hex, "strength": units[target].strength},
            "candidates": [{"unit": a, "hex": units[a].hex, "strength": units[a].strength,
                            "keeps_maximum": a in keep} for a in edges[j]],
            "summary": f"{j} (lowest-numbered hex {state.unit(j).hex}) attacks {target} in {units[target].hex} "
                       f"(8.52; {best} attack(s) possible, 8.51)",
        }
        return {"action": "jattack", "unit": j, "target": target, "reason": reason}
    return {"action": "end", "reason": {"case": "Olympic 8.51", "summary": "no attack is possible"}}


# -- doctrine track 1 "half" (R6) -------------------------------------------------------------------------------
def release_order(state: State, units: list[Unit]) -> list[tuple[Unit, int | None]]:
    """Ruling R6: nearest a hex next to an American unit (movement points), ties by the highest identity, then
    top of the stack; units that cannot reach one come last."""
    prime = primaries(state)
    found = _search(state, prime, ranked=False) if prime else {}
    far = 10 ** 6

    def dist(u: Unit):
        entry = found.get(u.hex)
        return None if entry is None else entry[0][0]

    ranked = sorted(units, key=lambda u: (dist(u) if dist(u) is not None else far, -hex_identity(H(u.hex)), -u.order))
    return [(u, dist(u)) for u in ranked]
