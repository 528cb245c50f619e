"""SNC movement (9.x) through the kernel: terrain and hexside costs from terrain.toml, roads (9.5.1), EZOC
(7.2), the neutral International Settlement (1.3), static garrisons (9.1), the Japanese overrun (9.6) and the
Chinese reinforcement move (8.2 a)."""
from __future__ import annotations

import threading
from dataclasses import replace

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.memo import IdentityMemo
from app.rules.kernel.movement import Mover, Reach, Situation, reach, step_cost, validate_path
from app.rules.snc import events as ev
from app.rules.snc.combat import check_attack, open_battle
from app.rules.snc.common import H, adjacent_to_enemy, ezoc, neighbours, newly_taken, place_garrisons
from app.rules.snc.state import State, Unit, other


def situation(state: State, side: str, ignore: str | None = None) -> Situation:
    """What `side`'s moves see of the position (7.2, 9.0): once per position unless an enemy hex is ignored."""
    if ignore is None:
        return state.memo(("situation", side), lambda: _situation(state, side, None))
    return _situation(state, side, ignore)


def _situation(state: State, side: str, ignore: str | None) -> Situation:
    enemy = {H(h) for h in state.occupied(other(side)) if h != ignore}
    return Situation(enemy_occupied=frozenset(enemy), ezoc=frozenset(H(h) for h in ezoc(state, side)),
                     friendly_occupied=frozenset(H(h) for h in state.occupied(side)))


def _mover(state: State, units: list[Unit]) -> Mover:
    mf = state.data.params["game"]["mobile_mf"]
    return Mover.stack(H(units[0].hex), [u.piece(mf) for u in units])


def can_step(state: State, side: str, a: str, b: str, ignore_enemy: bool = False) -> bool:
    d = state.data
    try:
        step_cost(d.map, d.movement, Mover.single(H(a), 99, side), H(a), H(b),
                  situation(state, side, ignore=b if ignore_enemy else None))
        return True
    except RuleViolation:
        return False


def movers(state: State, side: str, unit_ids: list[str], case: str = "SNC 9.0") -> list[Unit]:
    units = [state.units[u] for u in unit_ids]
    if not units:
        raise IllegalOrder(case, "name the units to move")
    for u in units:
        if u.side != side or not u.on_map:
            raise IllegalOrder(case, f"{u.id} is not a {side} unit on the map")
        if u.static:
            raise IllegalOrder("SNC 9.1", f"{u.id} is a static garrison and never moves")
        if u.done:
            raise IllegalOrder("SNC 9.0", f"{u.id} has completed its move this phase")
    if len({u.hex for u in units}) > 1:
        raise IllegalOrder(case, "units moving together must start in one hex")
    if any(u.mp_used > 0 for u in units) and not state.goes_on(unit_ids):
        raise IllegalOrder("SNC 9.0", "a unit that has moved goes on only with the stack it moved with, "
                                      "before any other unit moves")
    return units


def reach_of(state: State, side: str, units: list[Unit]) -> Reach:
    """SNC 9.0: every hex the stack `units` can reach now, with the cheapest path to each (once per position)."""
    return _reached(state, side, units)[0]


def destinations(state: State, side: str, units: list[Unit]) -> tuple[str, ...]:
    """The hexes the stack `units` can reach now (its own excluded), by label in order."""
    return _reached(state, side, units)[1]


def nearest_destinations(state: State, side: str, units: list[Unit]) -> tuple[str, ...]:
    """`destinations`, the nearest first (by MP, then label): what the list of legal orders offers first."""
    return _reached(state, side, units)[2]


def _reached(state: State, side: str, units: list[Unit], barred: bool = True
             ) -> tuple[Reach, tuple[str, ...], tuple[str, ...]]:
    """The stack's reach, its destinations by label and the nearest first; `barred`: with the hexes 8.2 a) bars from
    a reinforcement's move (`reinforcement_bar`) left out, so that its path goes round them (rules version 14)."""
    bar = reinforcement_bar(state, side) if barred else {}
    sit = replace(situation(state, side), forbidden=bar) if bar else situation(state, side)
    return state.memo(("reach", side, tuple(u.id for u in units), bool(bar)),
                      lambda: _reach(state.data, _mover(state, units), sit))


def reinforcement_bar(state: State, side: str) -> dict:
    """SNC 8.2 a) (rules version 14, ruling E27): in the Chinese Reinforcement Phase, the hexes next to a Japanese unit,
    which a reinforcement placed in its listed hex may not move into: its path is found around them. Before, the path
    was the cheapest one whatever it passed, and a move was refused for a hex next to a Japanese unit on it even where
    a path as cheap went round (a hex next to one across an all-lake hexside is in no zone of control, 7.1)."""
    if not (state.since(14) and state.phase == "reinf" and side == state.side == "chinese"):
        return {}
    return state.memo(("reinforcement bar",), lambda: {H(n): "SNC 8.2" for h in state.occupied("japanese")
                                                       for n in neighbours(state.data, h)})


REACHES_KEPT = 512
_REACHES = IdentityMemo(4)
"""Per game data: reaches (and their destinations) by everything `reach` reads from the position (the mover's
hex, allowance and class, the enemy's hexes and zones of control; 7.2, 9.0), the most recently used
`REACHES_KEPT`. A move changes neither the enemy's hexes nor its zones of control, so from one position to the
next of a movement phase every other stack's reach is the one already found (the list of legal orders asks for
every stack's at each position)."""
_REACHES_LOCK = threading.Lock()  # the server's threads share the reaches


def _reach(d, mover: Mover, sit: Situation) -> tuple[Reach, tuple[str, ...], tuple[str, ...]]:
    """`reach` for a situation made by `situation` (no forbidden hexes, surcharges or extra costs)."""
    friendly = sit.friendly_occupied if d.movement.friendly_negates_ezoc else None  # reach reads it only then
    key = (mover, sit.enemy_occupied, sit.ezoc, friendly, frozenset(sit.forbidden))
    known = _REACHES.of(d)
    with _REACHES_LOCK:
        found = known.pop(key, None)
    if found is None:
        r = reach(d.map, d.movement, mover, sit)
        labels = {str(h): mp for h, mp in r.cost.items() if h in r}
        found = (r, tuple(sorted(labels)), tuple(sorted(labels, key=lambda h: (labels[h], h))))
    with _REACHES_LOCK:
        known.pop(key, None)
        known[key] = found  # the most recently used last
        while len(known) > REACHES_KEPT:
            del known[next(iter(known))]
    return found


def may_move(state: State, side: str, unit_ids: list[str]) -> list[Unit]:
    """The move order's checks before any destination (9.0, 9.1, 8.2 a, 7.2): the stack `unit_ids` may move on now,
    or the refusal. The list of legal orders asks here before listing a stack's destinations. When units move at
    all (5.3: an Operations Phase chosen for movement, the Chinese Reinforcement Phase) is the states table's to
    say: it takes `move` nowhere else, so no check of it here (sequence.py)."""
    units = movers(state, side, unit_ids)
    if state.phase == "reinf":
        for u in units:
            if u.placed_by != "listed":
                raise IllegalOrder("SNC 8.2", f"{u.id}: only reinforcements placed in their listed hex this phase "
                                              "may move in the Reinforcement Phase")
    start = units[0].hex
    halted = [u.id for u in units if u.id in state.halted]
    if halted:  # rules version 10 (ruling E21); no unit is halted before it
        raise IllegalOrder("SNC 9.6", f"{', '.join(halted)} attempted an overrun that left Chinese units in the "
                                      f"hex: another overrun, or a stop in {start}, not a move")
    if start in ezoc(state, side) and any(u.mp_used > 0 for u in units):
        raise IllegalOrder("SNC 7.2", f"the stack entered an enemy zone of control at {start} and must stop")
    return units


def move(em: Decision, side: str, unit_ids: list[str], dest: str, via: list[str]) -> None:
    state = em.state
    units = may_move(state, side, unit_ids)
    d = em.state.data
    mover = _mover(state, units)
    sit = situation(state, side)
    start = units[0].hex
    if via:
        path = [H(start), *(H(h) for h in via), H(dest)]
    else:
        r = reach_of(state, side, units)
        if H(dest) not in r and reinforcement_bar(state, side):  # a hex 8.2 a) bars: the path to it names it
            r = _reached(state, side, units, barred=False)[0]
        if H(dest) not in r:
            if not d.map.adjacent(H(start), H(dest)):
                if state.since(14):
                    _no_entry(state, side, units, start, dest)
                raise IllegalOrder("SNC 9.0", f"no legal path from {start} to {dest} with {mover.allowance:g} MP; "
                                              "name the path with 'via' to see which step is refused")
            path = [H(start), H(dest)]  # one step: validation names the reason
        else:
            path = r.path_to(H(dest))
    mp = validate_path(d.map, d.movement, mover, path, sit)
    labels = [str(h) for h in path]
    if state.phase == "reinf":
        for h in labels[1:]:
            if adjacent_to_enemy(state, side, h):
                raise IllegalOrder("SNC 8.2", f"reinforcements placed in their listed hex may not move adjacent "
                                              f"to a Japanese unit ({h})")
    taken = newly_taken(state, side, labels[1:])
    em.emit(ev.UnitsMoved(list(unit_ids), labels, mp))
    place_garrisons(em, taken)


def _no_entry(state: State, side: str, units: list[Unit], start: str, dest: str) -> None:
    """SNC 9.0, 1.3, 9.4 (rules version 14, ruling E28): a destination no unit may ever enter is refused by the case
    that bars the hex itself (its own hex, an enemy-held hex, the International Settlement, water), not as a path
    too long for the MP left."""
    if dest == start:
        raise IllegalOrder("SNC 9.0", f"the stack is already in {dest}: units move from hex to adjacent hex")
    d = state.data
    mover, sit = _mover(state, units), situation(state, side)
    found = []
    for n in sorted(d.map.neighbours(H(dest)), key=str):
        try:
            step_cost(d.map, d.movement, mover, n, H(dest), sit)
            return  # some step enters it: the path is what fails
        except RuleViolation as exc:
            found.append(exc)
    if found:
        raise IllegalOrder(found[0].case, found[0].message)


def overrun(em: Decision, side: str, target: str, unit_ids: list[str], support: list[str]) -> None:
    """SNC 9.6: 1 MP more than entering the hex; not into a city or town; repeatable while MP remain."""
    state = em.state
    if state.mode() != "move":
        raise IllegalOrder("SNC 9.6", "an overrun is part of movement, in a phase chosen for movement (5.3)")
    enter = check_overrun(state, side, target, unit_ids)
    start = state.units[unit_ids[0]].hex
    extra = float(state.data.tec["overrun"]["extra_mp"])
    em.emit(ev.UnitsMoved(list(unit_ids), [start], extra))
    open_battle(em, side, target, list(unit_ids), support, "overrun", {"enter": enter})


def check_overrun(state: State, side: str, target: str, unit_ids: list[str]) -> float:
    """SNC 9.6: who may overrun which hex, and the MP it takes; returns the cost of entering the hex. The
    order and its preview both ask here."""
    if side != "japanese":
        raise IllegalOrder("SNC 9.6", "only the Japanese overrun")
    units = movers(state, side, unit_ids, "SNC 9.6")
    d = state.data
    feats = d.map.features_of(H(target))
    not_into = set(d.tec["overrun"]["not_into"])
    if feats & not_into:
        raise IllegalOrder("SNC 9.6", f"no overrun into a {'/'.join(sorted(feats & not_into))} hex ({target})")
    check_attack(state, side, target, list(unit_ids), "overrun")
    start = units[0].hex
    mover = _mover(state, units)
    enter = step_cost(d.map, d.movement, mover, H(start), H(target), situation(state, side, ignore=target))
    extra = float(d.tec["overrun"]["extra_mp"])
    left = mover.allowance
    if enter + extra > left:
        raise IllegalOrder("SNC 9.6", f"the overrun needs {enter + extra:g} MP (entering {target} plus "
                                      f"{extra:g}); {left:g} remain")
    return enter


def overrun_success(em: Decision, unit_ids: list[str], target: str) -> None:
    """SNC 9.6: the defenders are gone: the overrunning units enter the hex, paying its cost, and may go on
    moving if not in a Chinese ZOC."""
    enter = float(em.state.battle.get("enter", 0))
    start = em.state.units[unit_ids[0]].hex
    taken = newly_taken(em.state, "japanese", [target])
    em.emit(ev.UnitsMoved(list(unit_ids), [start, target], enter))
    place_garrisons(em, taken)
