"""Property tests: reach and validate_path agree, costs are optimal and bounded, reach grows with MP."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex, Hexside
from app.rules.kernel.movement import MovementRules, Mover, Situation, reach, step_cost, validate_path
from tests.kernel.mapkit import make_map
from tests.kernel.test_movement import FORMOSA_RULES, SNC_RULES

pytestmark = pytest.mark.slow  # property tests over random maps

GRID = Grid("even-low", (1, 7), (1, 7))
HEXES = list(GRID.hexes())
SIDES = sorted({Hexside(h, n) for h in HEXES for n in GRID.neighbours(h)})


@st.composite
def worlds(draw, terrains=("clear", "woods", "marsh", "yangtze"), sides=("river", "creek", "yangtze")):
    terrain: dict[str, list[str]] = {}
    for h in HEXES:
        t = draw(st.sampled_from(terrains))
        if t != terrains[0]:
            terrain.setdefault(t, []).append(str(h))
    hexsides: dict[str, list[str]] = {}
    for s in draw(st.lists(st.sampled_from(SIDES), max_size=15, unique=True)):
        hexsides.setdefault(draw(st.sampled_from(sides)), []).append(str(s))
    road = [draw(st.sampled_from(HEXES))]
    for _ in range(draw(st.integers(0, 10))):
        nxt = draw(st.sampled_from(GRID.neighbours(road[-1])))
        if nxt not in road:
            road.append(nxt)
    gmap = make_map(
        cols=(1, 7),
        rows=(1, 7),
        default=terrains[0],
        terrain=terrain,
        hexsides=hexsides,
        roads=[[str(h) for h in road]] if len(road) > 1 else [],
    )
    start = draw(st.sampled_from(HEXES))
    others = [h for h in HEXES if h != start]
    enemy = frozenset(draw(st.lists(st.sampled_from(others), max_size=4)))
    ezoc = frozenset(n for e in enemy for n in GRID.neighbours(e)) | frozenset(
        draw(st.lists(st.sampled_from(HEXES), max_size=3))
    )
    friendly = frozenset(draw(st.lists(st.sampled_from(HEXES), max_size=3))) - enemy
    return gmap, start, Situation(enemy_occupied=enemy, ezoc=ezoc, friendly_occupied=friendly)


allowances = st.integers(0, 20).map(lambda x: x / 2)
move_classes = st.sampled_from([("japanese",), ("chinese",), ("chinese", "japanese")])
FORMOSA_WORLDS = worlds(terrains=("open", "rough", "mountain"), sides=("river", "all-sea"))
formosa_classes = st.sampled_from([("foot",), ("mech",), ("foot", "mech")])


@settings(max_examples=60, deadline=None)
@given(worlds(), allowances, move_classes)
def test_every_reachable_hex_has_a_path_validate_path_accepts_at_the_same_cost(world, allowance, classes):
    gmap, start, sit = world
    mover = Mover(start, allowance, classes)
    r = reach(gmap, SNC_RULES, mover, sit)
    for h in r.hexes():
        path = r.path_to(h)
        assert validate_path(gmap, SNC_RULES, mover, path, sit) == r.cost[h]
        assert r.cost[h] <= allowance


@settings(max_examples=60, deadline=None)
@given(FORMOSA_WORLDS, allowances, formosa_classes)
def test_minimum_move_paths_also_validate(world, allowance, classes):
    gmap, start, sit = world
    mover = Mover(start, allowance, classes)
    r = reach(gmap, FORMOSA_RULES, mover, sit)
    for h in r.hexes():
        assert validate_path(gmap, FORMOSA_RULES, mover, r.path_to(h), sit) == r.cost[h]


@settings(max_examples=60, deadline=None)
@given(FORMOSA_WORLDS, allowances, formosa_classes, st.booleans(), st.booleans())
def test_infiltrating_and_route_only_paths_also_validate(world, allowance, classes, infiltrate, route_only):
    """Formosa 22.0 / 25.9 infiltration and 22.0 motorized movement: reach and validate_path still agree, and an
    infiltrating mover reaches at least what the same mover without the flag reaches."""
    gmap, start, sit = world
    mover = Mover(start, allowance, classes, infiltrate, route_only)
    r = reach(gmap, FORMOSA_RULES, mover, sit)
    for h in r.hexes():
        assert validate_path(gmap, FORMOSA_RULES, mover, r.path_to(h), sit) == r.cost[h]
    plain = reach(gmap, FORMOSA_RULES, Mover(start, allowance, classes, False, route_only), sit)
    assert plain.hexes() <= r.hexes()


@settings(max_examples=60, deadline=None)
@given(worlds(), allowances, move_classes)
def test_path_never_costs_less_than_cheapest_step_times_length(world, allowance, classes):
    gmap, start, sit = world
    mover = Mover(start, allowance, classes)
    cheapest = min(SNC_RULES.costs[c].min_cost() for c in classes)
    r = reach(gmap, SNC_RULES, mover, sit)
    for h in r.hexes():
        assert r.cost[h] >= cheapest * (len(r.path_to(h)) - 1)


@settings(max_examples=60, deadline=None)
@given(worlds(), allowances, allowances, move_classes)
def test_reachable_set_is_monotone_in_the_allowance(world, a1, a2, classes):
    gmap, start, sit = world
    lo, hi = sorted((a1, a2))
    small = reach(gmap, SNC_RULES, Mover(start, lo, classes), sit)
    big = reach(gmap, SNC_RULES, Mover(start, hi, classes), sit)
    assert small.hexes() <= big.hexes()
    assert all(small.cost[h] == big.cost[h] for h in small.hexes())


@settings(max_examples=60, deadline=None)
@given(worlds(), allowances, move_classes)
def test_reach_costs_are_optimal(world, allowance, classes):
    """No legal single step from a reached, non-stopping hex leads anywhere more cheaply than reach says."""
    gmap, start, sit = world
    rules: MovementRules = SNC_RULES
    mover = Mover(start, allowance, classes)
    r = reach(gmap, rules, mover, sit)
    for a in [start, *r.hexes()]:
        if a in r.stops:
            continue
        for b in gmap.neighbours(a):
            if b == start:
                continue
            try:
                c = step_cost(gmap, rules, mover, a, b, sit)
            except RuleViolation:
                assert b not in r or r.parent[b] != a
                continue
            if a == start and start in sit.ezoc and b in sit.ezoc:
                continue  # SNC 7.2: leaving an EZOC straight into another is illegal
            if r.cost[a] + c <= allowance:
                assert b in r and r.cost[b] <= r.cost[a] + c


def test_validate_path_rejects_what_reach_excludes():
    gmap = make_map(cols=(1, 5), rows=(1, 5), terrain={"woods": ["0303"]})
    mover = Mover(Hex(2, 2), 1, ("japanese",))
    r = reach(gmap, SNC_RULES, mover)
    for h in gmap.neighbours(Hex(2, 2)):
        accepted = True
        try:
            validate_path(gmap, SNC_RULES, mover, [Hex(2, 2), h])
        except RuleViolation:
            accepted = False
        assert accepted == (h in r)
