"""Path tracing for supply lines and lines of communication, with the game's blockers as data.

`trace(gmap, start, sources, rules, sit)` returns the shortest path (in counted hexes) from ``start`` to any
source hex, or None. `linked(gmap, sources, rules, sit)` answers "would `trace` find one?" for every start at once,
for a caller that asks it of many hexes in one position (SNC's railroad placement orders, tried by the list of
legal orders). Blockers: hexside features (all-sea, all-lake), terrain, tags (neutral), enemy units,
enemy-controlled hexes with given features (Ichi-Go 7.1: cities), EZOC unless friendly-occupied (as the game
says), a maximum length in hexes (Formosa 19.1), terrain passable only along roads (Formosa 19.0 item 4),
tracing only along rail or road (SNC 8.2), and an unlimited along-road leg after the counted part
(Formosa 19.2). ``sit.blocked`` / ``sit.allowed`` callbacks cover anything else.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap
from app.rules.kernel.memo import Kept

__all__ = ["TraceRules", "TraceSituation", "linked", "trace"]

ALONG_OPTIONS = (None, "road", "rail", "road-or-rail")


@dataclass(frozen=True)
class TraceRules:
    case: str = ""
    max_length: int | None = None  # hexes counted from start (excluded) to source (included)
    blocked_hexsides: frozenset[str] = frozenset()
    blocked_terrain: frozenset[str] = frozenset()
    blocked_tags: frozenset[str] = frozenset()
    road_only_terrain: frozenset[str] = frozenset()  # entered only along a road or railroad
    enemy_units_block: bool = True
    enemy_controlled_block: frozenset[str] = (
        frozenset()
    )  # features (e.g. "city") blocking if enemy-controlled
    ezoc_blocks: bool = False
    friendly_negates_ezoc: bool = False
    along: str | None = None  # trace only along "road", "rail" or "road-or-rail" hexsides
    road_unlimited: bool = False  # after the counted leg, any length along road/rail (Formosa 19.2)

    def __post_init__(self) -> None:
        if self.along not in ALONG_OPTIONS:
            raise ValueError(f"along must be one of {ALONG_OPTIONS}, got {self.along!r}")


@dataclass(frozen=True)
class TraceSituation:
    enemy_occupied: frozenset[Hex] = frozenset()
    ezoc: frozenset[Hex] = frozenset()
    friendly_occupied: frozenset[Hex] = frozenset()
    enemy_controlled: frozenset[Hex] = frozenset()
    blocked: Callable[[Hex], bool] | None = None  # extra: hex may not be entered
    allowed: Callable[[Hex, Hex], bool] | None = None  # extra: this step may be taken


def _route(gmap: GameMap, a: Hex, b: Hex, kind: str) -> bool:
    if kind == "road":
        return gmap.has_road(a, b)
    if kind == "rail":
        return gmap.has_rail(a, b)
    return gmap.has_road(a, b) or gmap.has_rail(a, b)


def _enterable(gmap: GameMap, rules: TraceRules, sit: TraceSituation, b: Hex) -> bool:
    if gmap.terrain_of(b) in rules.blocked_terrain:
        return False
    if rules.blocked_tags and gmap.tags_of(b) & rules.blocked_tags:
        return False
    if rules.enemy_units_block and b in sit.enemy_occupied:
        return False
    if rules.enemy_controlled_block and b in sit.enemy_controlled:
        if gmap.features_of(b) & rules.enemy_controlled_block:
            return False
    if (
        rules.ezoc_blocks
        and b in sit.ezoc
        and not (rules.friendly_negates_ezoc and b in sit.friendly_occupied)
    ):
        return False
    return not (sit.blocked is not None and sit.blocked(b))


def trace(
    gmap: GameMap,
    start: Hex,
    sources: Iterable[Hex],
    rules: TraceRules,
    sit: TraceSituation | None = None,
) -> list[Hex] | None:
    """Shortest legal path from ``start`` to any of ``sources`` (start first), or None.

    The start hex itself is never blocked (a unit in an EZOC may trace out of it, Formosa 14.3); a source
    hex must be enterable like any other hex, so a source in an EZOC supplies only its own hex. An answer is kept
    (`_TRACES`) unless the situation has a check of its own (`blocked`, `allowed`: functions, whose answers no
    key can name); each caller gets its own list.
    """
    sit = sit or TraceSituation()
    targets = frozenset(sources)
    key = (start, targets, rules, sit)
    try:
        hash(key)
    except TypeError:  # a situation of plain sets: no key names it
        key = None
    if key is None or sit.blocked is not None or sit.allowed is not None:
        return _search(gmap, start, targets, rules, sit)
    found = _TRACES.answer(gmap, key, lambda: _kept(_search(gmap, start, targets, rules, sit)))
    return None if found is None else list(found)


TRACES_KEPT = 2048
_TRACES = Kept(TRACES_KEPT, owners=4)
"""Per map: `trace`'s answers by everything it reads (the start, the sources, the rules and the situation, all
values), the most recently used `TRACES_KEPT`: units of a position trace the same lines again (Formosa: each
unit's line through each HQ to a port, 19.2, for every motorized movement order the list tries), and from one
position to the next most lines are the same."""


def _kept(path: list[Hex] | None) -> tuple[Hex, ...] | None:
    return None if path is None else tuple(path)


def _search(gmap: GameMap, start: Hex, targets: frozenset[Hex], rules: TraceRules,
            sit: TraceSituation) -> list[Hex] | None:
    """`trace`, found afresh."""
    if start in targets:
        return [start]
    if not targets:
        return None
    # state: (hex, phase); phase 1 = on the unlimited along-road leg
    best: dict[tuple[Hex, int], int] = {(start, 0): 0}
    parent: dict[tuple[Hex, int], tuple[Hex, int]] = {}
    heap: list[tuple[int, int, Hex]] = [(0, 0, start)]
    enterable: dict[Hex, bool] = {}
    while heap:
        length, phase, a = heapq.heappop(heap)
        if best.get((a, phase), 1 << 30) < length:
            continue
        if a in targets:
            path = [a]
            state = (a, phase)
            while state in parent:
                state = parent[state]
                path.append(state[0])
            return path[::-1]
        for b in gmap.neighbours(a):
            ok = enterable.get(b)
            if ok is None:
                ok = enterable[b] = _enterable(gmap, rules, sit, b)
            if not ok:
                continue
            if rules.blocked_hexsides and gmap.hexside_features(a, b) & rules.blocked_hexsides:
                continue
            if rules.along is not None and not _route(gmap, a, b, rules.along):
                continue
            on_route = _route(gmap, a, b, "road-or-rail")
            if gmap.terrain_of(b) in rules.road_only_terrain and not on_route:
                continue
            if sit.allowed is not None and not sit.allowed(a, b):
                continue
            moves: list[tuple[int, int]] = []
            if phase == 0:
                moves.append((length + 1, 0))
            if rules.road_unlimited and on_route:
                moves.append((length, 1))
            for new_len, new_phase in moves:
                if rules.max_length is not None and new_len > rules.max_length:
                    continue
                key = (b, new_phase)
                if new_len < best.get(key, 1 << 30):
                    best[key] = new_len
                    parent[key] = (a, phase)
                    heapq.heappush(heap, (new_len, new_phase, b))
    return None


def linked(
    gmap: GameMap, sources: Iterable[Hex], rules: TraceRules, sit: TraceSituation | None = None
) -> frozenset[Hex]:
    """Every hex from which `trace` to ``sources`` finds a path, by one search back from the sources: the hexes
    a path may enter (enterable, and a step into each allowed) that lead to a source, and every hex one allowed step
    from them or a source itself (a start is never blocked). Only for rules without a length limit or an unlimited
    road leg (where a path's length matters, ask `trace`)."""
    if rules.max_length is not None or rules.road_unlimited:
        raise ValueError("linked answers only for a trace without max_length or road_unlimited; use trace")
    sit = sit or TraceSituation()
    targets = frozenset(sources)
    enterable: dict[Hex, bool] = {}

    def ok(b: Hex) -> bool:
        found = enterable.get(b)
        if found is None:
            found = enterable[b] = _enterable(gmap, rules, sit, b)
        return found

    inner = {t for t in targets if ok(t)}  # the hexes a path may enter and go on from to a source
    todo = list(inner)
    out = set(targets)
    while todo:
        b = todo.pop()
        for a in gmap.neighbours(b):
            if a in inner or not _step_allowed(gmap, rules, sit, a, b):
                continue
            out.add(a)
            if ok(a):
                inner.add(a)
                todo.append(a)
    return frozenset(out)


def _step_allowed(gmap: GameMap, rules: TraceRules, sit: TraceSituation, a: Hex, b: Hex) -> bool:
    """The step from ``a`` into an enterable ``b``, as `trace` takes it (its checks after `_enterable`)."""
    if rules.blocked_hexsides and gmap.hexside_features(a, b) & rules.blocked_hexsides:
        return False
    if rules.along is not None and not _route(gmap, a, b, rules.along):
        return False
    if gmap.terrain_of(b) in rules.road_only_terrain and not _route(gmap, a, b, "road-or-rail"):
        return False
    return sit.allowed is None or sit.allowed(a, b)
