"""Reaches and traced lines kept from one position to the next (CI time, bench/whole_games.py): each kept answer is
the one a fresh search finds, whatever part of what the search reads differs from an answer already kept (the map,
the movement or trace rules, the mover, each part of the situation); a situation with a function of its own is
never answered from what is kept; each caller of `trace` gets its own list. And every hex a map holds, its
neighbours and `Hex.parse` are one object per hex, equal as before to a hex built anew."""
from __future__ import annotations

from dataclasses import replace

from app.rules.kernel import movement, paths
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import CostTable, MovementRules, Mover, Situation
from app.rules.kernel.paths import TraceRules, TraceSituation
from tests.kernel.mapkit import H, make_map

RULES = MovementRules(
    costs={"foot": CostTable(terrain={"clear": 1, "woods": 2}), "wheels": CostTable(terrain={"clear": 1, "woods": 3})},
    move_case="T 1", prohibited_case="T 2", enemy_case="T 3", ezoc_stop_case="T 4",
    ezoc_exit="free",
)
FRIENDS_NEGATE = replace(RULES, friendly_negates_ezoc=True)
SLOW_WOODS = replace(RULES, costs={"foot": CostTable(terrain={"clear": 1, "woods": 4})})
CLEAR = make_map()
WOODS = make_map(terrain={"woods": ["0504", "0604", "0605"]})
MOVER = Mover.single(H("0505"), 3, "foot")


def _same_reach(a, b) -> bool:
    return (a.start, a.allowance, dict(a.cost), dict(a.parent), a.stops, dict(a.routes)) == \
        (b.start, b.allowance, dict(b.cost), dict(b.parent), b.stops, dict(b.routes))


def _kept_and_fresh(gmap, rules, mover, sit):
    kept = movement.reach(gmap, rules, mover, sit)
    fresh = movement._search(gmap, rules, mover, sit)
    return kept, fresh


def test_a_kept_reach_is_the_fresh_one_whatever_part_of_the_position_differs():
    """One base position asked first, then each variant differing from it in one thing `reach` reads: every
    answer is a fresh search's, and each variant's differs from the base's (so a key that left that part out
    would answer the base's reach and fail here)."""
    base = Situation()
    variants = [
        (WOODS, RULES, MOVER, base),
        (CLEAR, RULES, MOVER, base),  # another map
        (WOODS, SLOW_WOODS, MOVER, base),  # other movement rules on the same map
        (WOODS, RULES, Mover.single(H("0506"), 3, "foot"), base),  # the mover's hex
        (WOODS, RULES, Mover.single(H("0505"), 2, "foot"), base),  # its allowance
        (WOODS, RULES, Mover.single(H("0505"), 3, "wheels"), base),  # its class
        (WOODS, RULES, replace(MOVER, ignore_first_ezoc=True), Situation(ezoc=frozenset({H("0506")}))),
        (WOODS, RULES, MOVER, Situation(enemy_occupied=frozenset({H("0506")}))),
        (WOODS, RULES, MOVER, Situation(ezoc=frozenset({H("0506")}))),
        (WOODS, RULES, MOVER, Situation(forbidden={H("0506"): "T 9"})),
        (WOODS, RULES, MOVER, Situation(surcharge={H("0506"): 2.0})),
        (WOODS, FRIENDS_NEGATE, MOVER, Situation(ezoc=frozenset({H("0506")}))),
        (WOODS, FRIENDS_NEGATE, MOVER,
         Situation(ezoc=frozenset({H("0506")}), friendly_occupied=frozenset({H("0506")}))),
    ]
    first, _ = _kept_and_fresh(*variants[0])
    answers = []
    for args in variants + variants[::-1]:  # each asked twice: the second time from what is kept
        kept, fresh = _kept_and_fresh(*args)
        assert _same_reach(kept, fresh), args
        answers.append(kept)
    for args, kept in zip(variants[1:-1], answers[1:len(variants) - 1], strict=True):
        assert not _same_reach(kept, first), f"this variant should reach otherwise than the base: {args}"
    # the infiltrating mover and the one that is not, in the same zone of control, reach otherwise
    assert not _same_reach(answers[6], movement.reach(WOODS, RULES, MOVER, variants[6][3]))
    # friendly units negate a zone of control only where the rules say so: elsewhere they change nothing
    plain = movement.reach(WOODS, RULES, MOVER, Situation(ezoc=frozenset({H("0506")})))
    friends = movement.reach(WOODS, RULES, MOVER, Situation(ezoc=frozenset({H("0506")}),
                                                          friendly_occupied=frozenset({H("0506")})))
    assert _same_reach(plain, friends)
    assert not _same_reach(answers[-2], answers[-1])


def test_a_situation_with_its_own_step_cost_is_searched_every_time():
    """`extra_cost` is a function: two asks with the same function, whose answer has changed meanwhile, reach
    as it now says."""
    toll = {"mp": 0.0}
    sit = Situation(extra_cost=lambda a, b: toll["mp"])
    free = movement.reach(CLEAR, RULES, MOVER, sit)
    toll["mp"] = 1.0
    dear = movement.reach(CLEAR, RULES, MOVER, sit)
    assert _same_reach(dear, movement._search(CLEAR, RULES, MOVER, sit))
    assert len(dear.cost) < len(free.cost)


LINE = TraceRules(case="T 19", max_length=4, ezoc_blocks=True)
FRIENDS = replace(LINE, friendly_negates_ezoc=True)
WALL = frozenset({H("0506"), H("0406"), H("0606")})


def test_a_kept_line_is_the_fresh_one_whatever_part_of_the_position_differs():
    start, sources = H("0505"), frozenset({H("0508")})
    base = TraceSituation()
    variants = [
        (WOODS, start, sources, LINE, base),
        (make_map(cols=(1, 10), rows=(1, 7)), start, sources, LINE, base),  # another map: the source is off it
        (WOODS, H("0506"), sources, LINE, base),
        (WOODS, start, frozenset({H("0509")}), LINE, base),
        (WOODS, start, sources, replace(LINE, max_length=2), base),
        (WOODS, start, sources, LINE, TraceSituation(enemy_occupied=frozenset({H("0506")}))),
        (WOODS, start, sources, LINE, TraceSituation(ezoc=frozenset({H("0506")}))),
        (WOODS, start, sources, FRIENDS, TraceSituation(ezoc=WALL)),
        (WOODS, start, sources, FRIENDS, TraceSituation(ezoc=WALL, friendly_occupied=frozenset({H("0506")}))),
    ]
    first = paths.trace(*variants[0])
    for args in variants + variants[::-1]:
        assert paths.trace(*args) == paths._search(*args), args
    for args in variants[1:-1]:
        assert paths.trace(*args) != first, f"this variant should trace otherwise than the base: {args}"
    assert paths.trace(*variants[-1]) != paths.trace(*variants[-2])  # the friendly unit opens the wall


def test_each_caller_gets_its_own_line_and_a_situation_with_a_check_of_its_own_is_traced_every_time():
    start, sources = H("0505"), [H("0508")]
    line = paths.trace(WOODS, start, sources, LINE)
    line.append(H("0101"))
    assert paths.trace(WOODS, start, sources, LINE) == [H("0505"), H("0506"), H("0507"), H("0508")]
    closed: set[Hex] = set()
    sit = TraceSituation(blocked=lambda h: h in closed)
    assert paths.trace(WOODS, start, sources, LINE, sit) is not None
    closed.update({H("0506"), H("0406"), H("0606")})
    assert paths.trace(WOODS, start, sources, LINE, sit) is None


def test_a_map_its_neighbours_and_parse_give_one_object_per_hex_equal_to_one_built_anew():
    gmap = make_map(cols=(1, 6), rows=(1, 6))
    held = {h: h for h in gmap.hexes()}
    for h in gmap.hexes():
        assert Hex.parse(str(h)) is h
        assert all(n is held[n] for n in gmap.neighbours(h))
        built = Hex(h.col, h.row, h.sheet)
        assert built == h and hash(built) == hash(h) and built in held and held[built] is h
    assert Hex(1, 1) != Hex(1, 1, "w") and Hex.parse("w0101") == Hex(1, 1, "w")


def test_a_situation_of_plain_sets_is_searched_as_before():
    """A caller that builds its situation from plain sets and lists (no key can hold them) is answered as the search
    answers it, never refused."""
    sit = Situation(enemy_occupied={H("0506")}, ezoc={H("0504")})
    assert _same_reach(movement.reach(WOODS, RULES, MOVER, sit), movement._search(WOODS, RULES, MOVER, sit))
    line = TraceSituation(enemy_occupied={H("0506")})
    assert paths.trace(WOODS, H("0505"), [H("0508")], LINE, line) == paths._search(
        WOODS, H("0505"), frozenset({H("0508")}), LINE, line)
