"""Land movement: data-driven cost tables, Dijkstra reach with cheapest paths, step-by-step path validation.

Per unit class a `CostTable` gives in-hex terrain costs and additive hexside costs (None = prohibited),
the road/rail rate, and terrain enterable only along a road. `MovementRules` holds the game's options and
the rules cases to cite. `Situation` is the dynamic position (enemy units, EZOC, extra forbidden hexes,
surcharges).
Reach and validation share one step function, so every path `reach` offers passes `validate_path`.

A stack moves at its members' lowest allowance and pays, for each step, the highest cost among its members'
classes; a step prohibited to any member is prohibited to the stack.

Per-mover flags: ``ignore_first_ezoc`` (infiltration, Formosa 22.0 rangers and 25.9 Takasago: the first EZOC
hex entered neither stops the mover nor counts for the EZOC-to-EZOC rule; the second is treated normally) and
``route_only`` (Formosa 22.0 motorized movement: every step along a road or railroad).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap
from app.rules.kernel.memo import IdentityMemo, Kept, Same
from app.rules.kernel.pieces import Piece

__all__ = [
    "CostTable",
    "Mover",
    "MovementRules",
    "Reach",
    "Situation",
    "reach",
    "step_cost",
    "validate_path",
]

EZOC_EXIT_OPTIONS = ("free", "non-ezoc", "never")


@dataclass(frozen=True)
class CostTable:
    """Movement costs for one unit class. Missing terrain is prohibited; missing hexside features cost 0."""

    terrain: Mapping[str, float | None]
    hexside: Mapping[str, float | None] = field(default_factory=dict)
    features: Mapping[str, float] = field(default_factory=dict)  # in-hex feature cost replacing terrain cost
    road: float | None = None  # MP per hex entered along a road (None: no road rate)
    rail: float | None = None  # MP per hex entered along a railroad
    road_only_terrain: frozenset[str] = frozenset()  # enterable only along road/rail (Formosa 12.2)

    def min_cost(self) -> float:
        """The cheapest MP any single step can cost this class."""
        options = [c for c in self.terrain.values() if c is not None]
        options += list(self.features.values())
        options += [c for c in (self.road, self.rail) if c is not None]
        return min(options) if options else 0.0


@dataclass(frozen=True)
class MovementRules:
    """A game's movement options and the cases to cite when an order breaks them."""

    costs: Mapping[str, CostTable]
    move_case: str  # adjacency and MP limits (e.g. "SNC 9.0")
    prohibited_case: str  # prohibited terrain/hexsides (e.g. "SNC 9.4")
    enemy_case: str  # never into enemy-occupied hexes
    ezoc_stop_case: str = ""
    ezoc_exit_case: str = ""
    minimum_move_case: str = ""
    road_only_case: str = ""
    route_only_case: str = ""  # a route-only mover stepping off the road (Formosa 22.0)
    cases: Mapping[str, str] = field(default_factory=dict)  # per terrain/feature/tag prohibition override
    road_needs_road_hexside: bool = True  # SNC 9.5.1: road rate only across a hexside the road crosses
    road_negates_hexside: bool = False  # Formosa 12.4 True; SNC 9.5.1 / Ichi-Go 10.12 False
    ezoc_stop: bool = True
    ezoc_exit: str = "non-ezoc"  # "free" | "non-ezoc" (first hex entered has no EZOC) | "never"
    friendly_negates_ezoc: bool = False  # SNC 7.2 / Formosa 14.3 say no
    minimum_move: bool = False  # Formosa 12.3 yes; Ichi-Go 10.2 / SNC 9.0 no
    prohibited_tags: frozenset[str] = frozenset()  # e.g. "neutral" (SNC 1.3)

    def __post_init__(self) -> None:
        if self.ezoc_exit not in EZOC_EXIT_OPTIONS:
            raise ValueError(f"ezoc_exit must be one of {EZOC_EXIT_OPTIONS}, got {self.ezoc_exit!r}")
        object.__setattr__(self, "costs", MappingProxyType(dict(self.costs)))

    def case_for(self, word: str, default: str) -> str:
        return self.cases.get(word, default)


@dataclass(frozen=True)
class Situation:
    """The position around the mover, as seen by its side."""

    enemy_occupied: frozenset[Hex] = frozenset()
    ezoc: frozenset[Hex] = frozenset()
    friendly_occupied: frozenset[Hex] = frozenset()
    forbidden: Mapping[Hex, str] = field(default_factory=dict)  # hex -> case (e.g. strategic-move limits)
    surcharge: Mapping[Hex, float] = field(default_factory=dict)  # extra MP to enter (Formosa 16.4)
    extra_cost: Callable[[Hex, Hex], float] | None = None  # per-step extra MP (Ichi-Go 8.4 river surcharge)


@dataclass(frozen=True)
class Mover:
    """What moves: its start hex, allowance and cost classes (a stack: lowest allowance, all its classes)."""

    start: Hex
    allowance: float
    classes: tuple[str, ...]
    ignore_first_ezoc: bool = False  # infiltration (Formosa 22.0, 25.9); a stack only if every member has it
    route_only: bool = False  # every step along a road or railroad (Formosa 22.0 motorized movement)

    @classmethod
    def stack(cls, start: Hex, pieces: Sequence[Piece], *, ignore_first_ezoc: bool = False,
              route_only: bool = False) -> Mover:
        if not pieces:
            raise ValueError("a moving stack needs at least one piece")
        return cls(start, min(p.allowance for p in pieces), tuple(sorted({p.move_class for p in pieces})),
                   ignore_first_ezoc, route_only)

    @classmethod
    def single(cls, start: Hex, allowance: float, move_class: str, *, ignore_first_ezoc: bool = False,
               route_only: bool = False) -> Mover:
        return cls(start, allowance, (move_class,), ignore_first_ezoc, route_only)


@dataclass(frozen=True)
class Reach:
    """Result of `reach`: cheapest cost and path to every hex the mover may enter this phase."""

    start: Hex
    allowance: float
    cost: Mapping[Hex, float]
    parent: Mapping[Hex, Hex]
    stops: frozenset[Hex]  # reachable hexes where movement must end (EZOC)
    routes: Mapping[Hex, tuple[Hex, ...]] = field(default_factory=dict)  # whole paths when infiltrating

    def hexes(self) -> frozenset[Hex]:
        """Reachable hexes, the start excluded."""
        return frozenset(h for h in self.cost if h != self.start)

    def __contains__(self, h: object) -> bool:
        return h in self.cost and h != self.start

    def path_to(self, h: Hex) -> list[Hex]:
        if h not in self.cost:
            raise KeyError(f"{h} is not reachable from {self.start}")
        if h in self.routes:
            return list(self.routes[h])
        path = [h]
        while path[-1] != self.start:
            path.append(self.parent[path[-1]])
        return path[::-1]


# ---------------------------------------------------------------------------------------------------------
# The step function shared by reach and validate_path
# ---------------------------------------------------------------------------------------------------------
_Fail = tuple[str, str]  # (case, message)


def _on_road_rail(gmap: GameMap, rules: MovementRules, a: Hex, b: Hex) -> tuple[bool, bool]:
    """Whether the step a->b follows a road, a railroad (across their hexside if the game asks)."""
    if rules.road_needs_road_hexside:
        return gmap.has_road(a, b), gmap.has_rail(a, b)
    return gmap.is_road_hex(a) and gmap.is_road_hex(b), gmap.is_rail_hex(a) and gmap.is_rail_hex(b)


def _on_route(gmap: GameMap, rules: MovementRules, a: Hex, b: Hex) -> bool:
    return any(_on_road_rail(gmap, rules, a, b))


def _class_cost(
    gmap: GameMap, rules: MovementRules, table: CostTable, cls: str, a: Hex, b: Hex
) -> float | _Fail:
    terrain = gmap.terrain_of(b)
    feats = gmap.features_of(b)
    side_feats = gmap.hexside_features(a, b)
    on_road, on_rail = _on_road_rail(gmap, rules, a, b)
    route_rates = [r for r, ok in ((table.road, on_road), (table.rail, on_rail)) if ok and r is not None]
    along_route = bool(route_rates) or on_road or on_rail

    # in-hex cost
    if terrain not in table.terrain:
        return (rules.case_for(terrain, rules.prohibited_case), f"{cls} units cannot enter {terrain} ({b})")
    hex_cost = table.terrain[terrain]
    if hex_cost is None:
        return (rules.case_for(terrain, rules.prohibited_case), f"{terrain} hexes are prohibited ({b})")
    if terrain in table.road_only_terrain and not along_route:
        case = rules.case_for(terrain, rules.road_only_case or rules.prohibited_case)
        return (case, f"{cls} units enter {terrain} only along a road or railroad ({b})")
    replacing = [table.features[f] for f in feats if f in table.features]
    if replacing:
        hex_cost = min(replacing)

    # hexside cost
    side_cost = 0.0
    for feat in sorted(side_feats):
        c = table.hexside.get(feat, 0.0)
        if c is None:
            if along_route and rules.road_negates_hexside:
                continue
            return (rules.case_for(feat, rules.prohibited_case), f"{feat} hexsides are prohibited ({a}/{b})")
        side_cost += c

    cost = hex_cost + side_cost
    for rate in route_rates:
        cost = min(cost, rate if rules.road_negates_hexside else rate + side_cost)
    return cost


_CLASS_COSTS = IdentityMemo(16)
"""Per MovementRules: (map, unit class, from, to) -> what `_class_cost` answers. It reads only the map and the
rules, which never change, so reach and the audit's re-run of every order pay for each step once."""


def _step(gmap: GameMap, rules: MovementRules, mover: Mover, sit: Situation, a: Hex, b: Hex,
          known: dict | None = None) -> float | _Fail:
    """MP to step from ``a`` into adjacent on-map ``b`` before any EZOC or allowance check, or a failure.
    `known`: the rules' remembered class costs (`_CLASS_COSTS.of(rules)`), found once by a caller that steps
    many times."""
    if b in sit.enemy_occupied:
        return (rules.enemy_case, f"{b} is occupied by enemy units")
    if b in sit.forbidden:
        return (sit.forbidden[b], f"{b} may not be entered by this move")
    if rules.prohibited_tags:
        bad = gmap.tags_of(b) & rules.prohibited_tags
        if bad:
            word = sorted(bad)[0]
            return (rules.case_for(word, rules.prohibited_case), f"{b} is {word} and may not be entered")
    if mover.route_only and not _on_route(gmap, rules, a, b):
        case = rules.route_only_case or rules.road_only_case or rules.move_case
        return (case, f"this move must follow a road or railroad, and {a} to {b} does not")
    worst = 0.0
    known = _CLASS_COSTS.of(rules) if known is None else known
    for cls in mover.classes:
        c = known.get((gmap, cls, a, b))
        if c is None:
            table = rules.costs.get(cls)
            if table is None:
                raise KeyError(f"no movement cost table for unit class {cls!r}")
            c = known[(gmap, cls, a, b)] = _class_cost(gmap, rules, table, cls, a, b)
        if isinstance(c, tuple):
            return c
        worst = max(worst, c)
    worst += sit.surcharge.get(b, 0.0)
    if sit.extra_cost is not None:
        worst += sit.extra_cost(a, b)
    return worst


def step_cost(
    gmap: GameMap, rules: MovementRules, mover: Mover, a: Hex, b: Hex, sit: Situation | None = None
) -> float:
    """MP to step from ``a`` into adjacent ``b`` (no EZOC or allowance check), else `RuleViolation`."""
    sit = sit or Situation()
    if not gmap.on_map(b) or not gmap.adjacent(a, b):
        raise RuleViolation(
            rules.move_case, f"units move from hex to adjacent hex; {a} to {b} is not such a step"
        )
    c = _step(gmap, rules, mover, sit, a, b)
    if isinstance(c, tuple):
        raise RuleViolation(*c)
    return c


def _in_ezoc(rules: MovementRules, sit: Situation, h: Hex) -> bool:
    if h not in sit.ezoc:
        return False
    return not (rules.friendly_negates_ezoc and h in sit.friendly_occupied)


# ---------------------------------------------------------------------------------------------------------
# Reach (Dijkstra)
# ---------------------------------------------------------------------------------------------------------
REACHES_KEPT = 1024
_REACHES = Kept(REACHES_KEPT, owners=4)
"""Per map: reaches by everything `_search` reads (the movement rules, by identity; the mover; the situation's
enemy hexes, zones of control, forbidden hexes and surcharges, and its friendly hexes where the rules let them
negate a zone of control), the most recently used `REACHES_KEPT`. A move changes none of the enemy's, so from one
position to the next of a movement phase every other unit's reach is the one already found: the list of legal
orders asks for each unit's at each position, and a search's playouts ask again in the positions they reach."""


def reach(gmap: GameMap, rules: MovementRules, mover: Mover, sit: Situation | None = None) -> Reach:
    """Every hex the mover may end in this phase, with the cheapest legal path to each.

    The search runs over states (hex, EZOC hexes the mover may still ignore, must stop there): one ignorable
    EZOC for an infiltrating mover (`Mover.ignore_first_ezoc`), whose paths are then kept whole in
    `Reach.routes`; none for every other mover, for which this is a plain Dijkstra over hexes. An answer is kept
    (`_REACHES`) unless the situation has a per-step cost of its own (`extra_cost`: a function, whose answers
    no key can name)."""
    sit = sit or Situation()
    if sit.extra_cost is not None:
        return _search(gmap, rules, mover, sit)
    try:
        key = (Same(rules), mover, sit.enemy_occupied, sit.ezoc,
               sit.friendly_occupied if rules.friendly_negates_ezoc else None,
               frozenset(sit.forbidden.items()), frozenset(sit.surcharge.items()))
        hash(key)
    except TypeError:  # a situation of plain sets or lists: no key names it, so it is searched afresh
        return _search(gmap, rules, mover, sit)
    return _REACHES.answer(gmap, key, lambda: _search(gmap, rules, mover, sit))


def _search(gmap: GameMap, rules: MovementRules, mover: Mover, sit: Situation) -> Reach:
    """`reach`, found afresh."""
    start, allowance = mover.start, mover.allowance
    free0 = 1 if mover.ignore_first_ezoc else 0
    origin: _State = (start, free0, False)
    cost: dict[_State, float] = {origin: 0.0}
    parent: dict[_State, _State] = {}
    if allowance <= 0:
        return Reach(start, allowance, MappingProxyType({start: 0.0}), MappingProxyType({}), frozenset())
    start_in_ezoc = _in_ezoc(rules, sit, start)
    known = _CLASS_COSTS.of(rules)
    heap: list[tuple[float, int, bool, Hex]] = [(0.0, -free0, False, start)]
    done: set[_State] = set()
    while heap:
        spent, neg_free, stop, a = heapq.heappop(heap)
        state = (a, -neg_free, stop)
        if state in done:
            continue
        done.add(state)
        if stop:
            continue
        first = a == start
        for b in gmap.neighbours(a):
            if b == start:
                continue
            c = _step(gmap, rules, mover, sit, a, b, known)
            if isinstance(c, tuple):
                continue
            free = state[1]
            b_ezoc = _in_ezoc(rules, sit, b)
            ignored = b_ezoc and free > 0
            if ignored:
                free -= 1
            if (
                first
                and start_in_ezoc
                and not ignored
                and (rules.ezoc_exit == "never" or (rules.ezoc_exit == "non-ezoc" and b_ezoc))
            ):
                continue
            total = spent + c
            if total > allowance:
                if first and rules.minimum_move:
                    total = allowance  # Formosa 12.3-style: one hex whatever the cost, then stop
                else:
                    continue
            nxt = (b, free, rules.ezoc_stop and b_ezoc and not ignored)
            if nxt in done or total >= cost.get(nxt, float("inf")):
                continue
            cost[nxt] = total
            parent[nxt] = state
            heapq.heappush(heap, (total, -free, nxt[2], b))
    return _reach_result(start, allowance, cost, parent, layered=free0 > 0)


_State = tuple[Hex, int, bool]  # hex, EZOC hexes still ignorable, movement ends there


def _reach_result(start: Hex, allowance: float, cost: dict, parent: dict, layered: bool) -> Reach:
    """Per hex the cheapest state reaching it (ties: one that may go on); a stop if every way in stops."""
    best: dict[Hex, _State] = {}
    for st, c in cost.items():
        old = best.get(st[0])
        if old is None or (c, st[2], -st[1]) < (cost[old], old[2], -old[1]):
            best[st[0]] = st
    goes_on = {st[0] for st in cost if not st[2]}
    stops = frozenset(h for h in best if h != start and h not in goes_on)
    routes: dict[Hex, tuple[Hex, ...]] = {}
    hex_parent: dict[Hex, Hex] = {}
    for h, st in best.items():
        if h == start:
            continue
        hex_parent[h] = parent[st][0]
        if layered:
            chain = [st]
            while chain[-1] in parent:
                chain.append(parent[chain[-1]])
            routes[h] = tuple(s[0] for s in reversed(chain))
    by_hex = {h: cost[st] for h, st in best.items()}
    return Reach(start, allowance, MappingProxyType(by_hex), MappingProxyType(hex_parent), stops,
                 MappingProxyType(routes))


# ---------------------------------------------------------------------------------------------------------
# Validation of a player's path
# ---------------------------------------------------------------------------------------------------------
def validate_path(
    gmap: GameMap, rules: MovementRules, mover: Mover, path: Sequence[Hex], sit: Situation | None = None
) -> float:
    """Check a path (start hex first) step by step; return the MP spent or raise `RuleViolation`."""
    sit = sit or Situation()
    if not path or path[0] != mover.start:
        first = path[0] if path else "nothing"
        raise RuleViolation(
            rules.move_case, f"the path must start in the unit's hex {mover.start}, not {first}"
        )
    if len(path) > 1 and mover.allowance <= 0:
        raise RuleViolation(rules.move_case, f"the unit in {mover.start} has no movement points")
    spent = 0.0
    start_in_ezoc = _in_ezoc(rules, sit, mover.start)
    free = 1 if mover.ignore_first_ezoc else 0
    ignored: Hex | None = None  # the EZOC hex an infiltrating mover entered without stopping
    for i, (a, b) in enumerate(zip(path, path[1:], strict=False)):
        if i > 0 and rules.ezoc_stop and _in_ezoc(rules, sit, a) and a != ignored:
            raise RuleViolation(
                rules.ezoc_stop_case or rules.move_case,
                f"movement must stop on entering an enemy zone of control at {a}",
            )
        c = step_cost(gmap, rules, mover, a, b, sit)
        if free and _in_ezoc(rules, sit, b):
            free, ignored = 0, b
        if i == 0 and start_in_ezoc and ignored != b:
            if rules.ezoc_exit == "never":
                raise RuleViolation(
                    rules.ezoc_exit_case or rules.move_case, f"a unit in an enemy ZOC ({a}) may not leave"
                )
            if rules.ezoc_exit == "non-ezoc" and _in_ezoc(rules, sit, b):
                raise RuleViolation(
                    rules.ezoc_exit_case or rules.move_case,
                    f"leaving an enemy zone of control ({a}), the first hex entered must be free of "
                    f"enemy ZOC, but {b} is not",
                )
        if spent + c > mover.allowance:
            if i == 0 and rules.minimum_move:
                if len(path) > 2:
                    raise RuleViolation(
                        rules.minimum_move_case or rules.move_case,
                        f"entering {b} costs {_fmt(c)} MP of {_fmt(mover.allowance)}: "
                        "the minimum move allows that one hex only",
                    )
                return mover.allowance
            raise RuleViolation(
                rules.move_case,
                f"entering {b} costs {_fmt(c)} MP but only {_fmt(mover.allowance - spent)} MP remain",
            )
        spent += c
    return spent


def _fmt(x: float) -> str:
    return f"{x:g}"
