"""Ichi-Go movement (10.x) through the kernel: terrain and hexside costs from terrain.toml, movement factors
rolled per stack (10.14, 10.15; rulings R19, R20), supply halving (7.3, 7.9), strategic movement (10.17),
enemy airpower costs (8.4, ruling R15), stacking at the end of each move (6.0-6.4), static units (2.12)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.rules.engine.decision import Decision
from app.rules.engine.state import replace
from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import air_range, enemy_hexes, frozen, supply_state
from app.rules.ichigo.data_load import H
from app.rules.ichigo.state import State, Unit, other
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.memo import Kept
from app.rules.kernel.movement import Mover, Situation, reach, step_cost, validate_path
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import overstacked


def piece(u: Unit, allowance: float = 0.0) -> Piece:
    tags = {"static"} if u.static else set()
    if u.militia:
        tags.add("militia")
    return Piece(u.id, u.side, kind=u.size, nationality=u.nation, move_class=u.nation, allowance=allowance,
                 tags=frozenset(tags))


def stack_violation(state: State, h: str, arriving: list[Unit], cited: bool = False) -> str | None:
    """Ichi-Go 6.2-6.4: the stack in h after `arriving` join it, or the violation's text (`cited`: with the case
    of the limit it breaks)."""
    bad = _violations(state, h, arriving)
    if not bad:
        return None
    return f"{bad[0].message} ({bad[0].case})" if cited else str(bad[0].message)


def check_stacking(state: State, h: str, arriving: list[Unit], before: str) -> None:
    """Ichi-Go 6.0-6.4 (rules version 10, ruling E42): refuse an arrival that overstacks h, naming the limit it
    breaks (6.2 Japanese, 6.3 Chinese, 6.4 US); US and Chinese units ending together are refused by the case of
    the units arriving, 6.4 for US units and 6.3 for Chinese ones (rules version 11, ruling E45; under version 10
    always 6.3); a game created under version 9 or before names `before`, the case it named then."""
    bad = _violations(state, h, arriving)
    if not bad:
        return
    case = bad[0].case if state.since(10) else before
    # arriving US units break no Chinese limit: their 6.3 is the mixed stack, which 6.4 forbids them too (E45)
    if state.since(11) and case == "Ichi-Go 6.3" and arriving[0].nation == "us":
        case = "Ichi-Go 6.4"
    raise IllegalOrder(case, str(bad[0].message))


def _violations(state: State, h: str, arriving: list[Unit]) -> list:
    ids = {u.id for u in arriving}
    here = [u for u in state.at(h) if u.id not in ids and u.side == arriving[0].side] + list(arriving)
    return overstacked([piece(u) for u in here], state.data.stacking, H(h))


def situation(state: State, side: str, strategic: bool = False) -> Situation:
    """What the kernel's movement needs of the position for `side` (once per position)."""
    return state.memo(("situation", side, strategic), lambda: _situation(state, side, strategic))


def _situation(state: State, side: str, strategic: bool) -> Situation:
    d = state.data
    enemy_air = air_range(state, other(side))
    forbidden: dict = {}
    if strategic:  # 10.17: never adjacent to enemy units, never into enemy-controlled cities
        case = "Ichi-Go 10.17"
        for h in state.occupied(other(side)):
            for n in d.neighbours(h):
                forbidden[H(n)] = case
        for h in d.feature("city"):
            if state.controller(h) != side:
                forbidden[H(h)] = case
    surcharge = {H(h): 1.0 for h in enemy_air}

    def river_in_air(a, b) -> float:
        return 1.0 if str(b) in enemy_air and "river" in d.map.hexside_features(a, b) else 0.0

    return Situation(enemy_occupied=frozenset(H(h) for h in enemy_hexes(state, side)),
                     friendly_occupied=frozenset(H(h) for h in state.occupied(side)),
                     forbidden=forbidden, surcharge=surcharge, extra_cost=river_in_air if enemy_air else None)


_REACHES = Kept(512)
"""Reaches by everything `reach` reads of the position (the mover, the enemy's hexes, the hexes a strategic move may
not enter, the enemy's air range that sets the surcharges; 8.4, 10.17): from one position to the next of a
movement phase, the other stacks' reaches are those already found (the list of legal orders tries every stack's
moves at each position)."""


def _reach(state: State, side: str, strategic: bool, mover: Mover, sit: Situation):
    """`reach` for `situation(state, side, strategic)`, found once for all positions that read the same."""
    d = state.data
    friendly = sit.friendly_occupied if d.movement.friendly_negates_ezoc else None  # reach reads it only then
    key = (mover, strategic, sit.enemy_occupied, sit.ezoc, friendly,
           frozenset(sit.forbidden.items()) if strategic else None, air_range(state, other(side)))
    return _REACHES.answer(d, key, lambda: reach(d.map, d.movement, mover, sit))


def movers(state: State, side: str, ids: list[str]) -> list[Unit]:
    units = [state.units[i] for i in ids]
    nation = state.nation_now()
    for u in units:
        if u.side != side or not u.on_map:
            raise IllegalOrder("Ichi-Go 10.0", f"{u.id} is not a {side} unit on the map")
        if u.nation != nation:
            raise IllegalOrder("Ichi-Go 10.0", f"{u.id} moves only in its own nation's movement phase (5.1)")
        if u.static or u.militia:
            raise IllegalOrder("Ichi-Go 10.1", f"{u.id} is static and never moves (2.12)")
        if u.done:
            joins = "; only units that have not moved join a stack under way (10.3)" \
                if state.since(13) and any(i in state.mover for i in ids) else ""
            raise IllegalOrder("Ichi-Go 10.4", f"{u.id} has completed its move this phase{joins}")
        if frozen(state, u.hex):
            raise IllegalOrder("Ichi-Go 5.4", f"the 38th Army force in {u.hex} never moves on Turn {state.turn}")
    if len({u.hex for u in units}) > 1:
        raise IllegalOrder("Ichi-Go 10.3", "units moving together must start in one hex")
    moving = [u for u in units if u.mp >= 0]
    if moving and set(ids) != set(state.mover) and not splits_off(state, ids, moving) and \
            not combines(state, moving):
        raise IllegalOrder("Ichi-Go 10.1", "a stack that has begun to move goes on only as that stack (or part of "
                                           "it, 10.3), before any other unit moves")
    return units


def splits_off(state: State, ids: list[str], moving: list[Unit]) -> bool:
    """Ichi-Go 10.3 (ruling E20): part of the stack under way goes on, the rest have ended their move where they
    are. Rules version 4; before it the whole stack had to go on together."""
    return state.since(4) and len(moving) == len(ids) and set(ids) < set(state.mover)


EACH_OWN = " (10.3: a stack that picked units up goes on as far as the unit with the least MP left can pay)"


def combines(state: State, moving: list[Unit]) -> bool:
    """Ichi-Go 10.3 (ruling E50): the stack under way (or part of it) picks up units that have not moved, in the hex
    where it stands; each unit spends its own MP. Rules version 13; before it no unit joined a stack under way."""
    return state.since(13) and {u.id for u in moving} <= set(state.mover)


def joining_allowance(state: State, under_way: list[Unit], joining: list[Unit], strategic: bool) -> Allowance:
    """Ichi-Go 10.3, 10.14-10.17 (ruling E50): units met by the stack under way join it on their own movement factor
    for the phase: set (Japanese on Turns 1-6, US, out of supply) or rolled for them, or the roll already made in
    their hex while they stood there unmoved (E16); never the roll of the stack they join, which was made for the
    units in its hex as it began to move (10.14). Returns the joining units' own allowance."""
    if strategic and not under_way[0].strategic:
        raise IllegalOrder("Ichi-Go 10.17", "strategic movement is chosen when a stack starts to move: the stack under "
                                            "way moves normally, and units joining it move as it does (10.3)")
    if not under_way[0].strategic:
        return allowance(state, joining, False)
    try:
        return allowance(state, joining, True)
    except IllegalOrder as err:
        raise IllegalOrder(err.case, f"{err.message}; units joining a strategic move must qualify for it "
                                     f"themselves (10.3)") from None


def join(em: Decision, joining: list[Unit], own: Allowance) -> float:
    """Roll the joining units' die, if one is due, and record their factor for the phase (ruling E50)."""
    mp = own.most if own.purpose is None else own.table[em.roll(own.purpose)]
    em.emit(ev.StackJoined([u.id for u in joining], int(mp), own.how, own.purpose is not None))
    return float(mp)


def adjacent_to_enemy(state: State, side: str, h: str) -> bool:
    enemy = state.occupied(other(side))
    return any(n in enemy for n in state.data.neighbours(h))


@dataclass(frozen=True)
class Allowance:
    """A stack's movement factor for the phase as known before any die: `most` MP at best; `purpose` names the
    die still to roll (None: `most` is the factor), `table` maps its face to MP, `how` says why."""

    most: float
    how: str
    purpose: str | None = None
    table: Mapping[int, int] | None = None

    def spend(self, em: Decision, units: list[Unit]) -> float:
        """Roll the die, if one is due, and record the stack's factor for the phase (ruling E13)."""
        if self.purpose is None and units[0].mp >= 0:
            return self.most
        mp = self.most if self.purpose is None else self.table[em.roll(self.purpose)]
        em.emit(ev.MovementRolled([u.id for u in units], int(mp), self.how))
        return float(mp)


def allowance(state: State, units: list[Unit], strategic: bool) -> Allowance:
    """The stack's movement factor, or the most its roll can give, with every check that needs no die (10.14-10.18,
    7.3, 7.4, 7.9; docs/architecture.md practice 11): a stack rolls once, as it starts to move (ruling E6)."""
    u0 = units[0]
    if u0.mp >= 0:
        if strategic != u0.strategic:
            raise IllegalOrder("Ichi-Go 10.17", "strategic movement is chosen when a stack starts to move")
        return Allowance(min(u.mp - u.mp_used for u in units), "")
    sc = state.data.scenario
    if u0.nation == "chinese":
        if strategic:
            raise IllegalOrder("Ichi-Go 10.18", "Chinese units never use strategic movement")
        after = state.causeway and state.turn >= int(sc["turn_start"]["causeway_roll_turn"])
        table = {face: face if after else face - 1 for face in range(1, 7)}
        return rolled_for_stack(state, u0, Allowance(max(table.values()), "normal", "Chinese movement factor (10.15)",
                                                     table))
    supplies = {supply_state(state, u) for u in units}
    if "oos" in supplies:
        key = "japanese" if u0.nation == "japanese" else "us"
        plan = Allowance(int(sc["supply"][key]["oos_mp"]), "out of supply")
    elif u0.nation == "japanese" and "attenuated" in supplies:
        table = {int(face): int(mp) for face, mp in sc["supply"]["japanese"]["attenuated_mp_table"].items()}
        plan = Allowance(max(table.values()), "attenuated",
                         "Japanese movement factor, attenuated supply (7.4, 10.14)", table)
    else:
        plan = Allowance(int(sc["movement"]["japanese_mp" if u0.nation == "japanese" else "us_mp"]), "normal")
    if not strategic:
        return rolled_for_stack(state, u0, plan)
    if plan.how != "normal" or adjacent_to_enemy(state, u0.side, u0.hex):
        raise IllegalOrder("Ichi-Go 10.17", "strategic movement needs full supply and no adjacent enemy unit at the "
                                            "start of the move")
    if not began_supplied(state, units):
        raise IllegalOrder("Ichi-Go 10.17", "strategic movement needs full supply from the start of the movement "
                                            "phase (ruling E37)")
    return Allowance(plan.most * int(sc["movement"]["strategic_multiplier"]), "strategic")


def began_supplied(state: State, units: list[Unit]) -> bool:
    """Ichi-Go 10.17 (ruling E37): the units began their movement phase in full supply. Enemy units never move in a
    friendly movement phase and friendly units never cut a friendly path, so only a city taken during the phase (3.5)
    or the Aerial Supply Marker placed during it (7.8) can have given supply since: the supply is read with the
    control and the marker as the phase began. Rules version 9; before it, supply as the stack began to move."""
    if not state.since(9) or state.phase_control is None or (
            state.phase_control == state.jp_control and state.phase_aerial == state.aerial_hex):
        return True
    then = state.memo(("phase start",), lambda: replace(state, jp_control=state.phase_control,
                                                         aerial_hex=state.phase_aerial))
    return all(supply_state(then, u) == "full" for u in units)  # one trace a position: `then` keeps its memo


def rolled_for_stack(state: State, u0: Unit, plan: Allowance) -> Allowance:
    """Ichi-Go 10.14, 10.15 (ruling E16): a stack makes one movement roll a phase even if its units move off in
    different directions: a unit that was in the hex, not yet moved, when a die was rolled there this phase moves
    on that roll (one airlifted in afterwards rolls its own, 8.10). Rules version 4; older games rolled per order."""
    if plan.purpose is None or not state.since(4):
        return plan
    for start, how, mp, stack in state.stack_rolls:
        if start == u0.hex and how == plan.how and u0.id in stack:
            return Allowance(float(mp), how)
    return plan


def as_far_as(state: State, units: list[Unit], mover: Mover, path: list, sit: Situation, mp: float):
    """Ruling E13: the part of `path` that `mp` pays for, cut back to the last hex the stack may end in (6.x)."""
    d = state.data
    spent, reached = 0.0, [0.0]
    for a, b in zip(path, path[1:], strict=False):
        spent += step_cost(d.map, d.movement, mover, a, b, sit)
        if spent > mp:
            break
        reached.append(spent)
    end = len(reached) - 1
    while end > 0 and stack_violation(state, str(path[end]), units):
        end -= 1
    return path[:end + 1], reached[end]


def move(em: Decision, side: str, ids: list[str], dest: str, via: list[str], strategic: bool) -> None:
    """Every check runs against the most the stack's roll can give, before the roll; once rolled the stack moves
    (docs/architecture.md practice 11), as far as its movement factor pays for (ruling E13)."""
    state = em.state  # a phase declared for combat takes no move (sequence.Operations.closed: 5.5)
    units = movers(state, side, ids)
    d = em.state.data
    under_way = [u for u in units if u.mp >= 0]
    joining = [u for u in units if u.mp < 0] if under_way else []
    if joining:  # 10.3 (ruling E50): each unit within its own MP: the stack goes as far as the least left pays for
        own = joining_allowance(state, under_way, joining, strategic)
        rest = min(u.mp - u.mp_used for u in under_way)
        plan = replace(own, most=min(rest, own.most))
        units = under_way + joining
    strategic_now = strategic or (units[0].strategic and units[0].mp >= 0)
    sit = situation(state, side, strategic_now)
    if not joining:
        plan = allowance(state, units, strategic)
    bound = "" if plan.purpose is None else "at most "
    start = units[0].hex
    mover = Mover(H(start), plan.most, (units[0].nation,))
    if strategic_now and H(dest) in sit.forbidden:
        raise IllegalOrder("Ichi-Go 10.17", f"a strategic move never ends next to an enemy unit or in a city the "
                                            f"enemy controls ({dest})")
    if via:
        path = [H(start), *(H(h) for h in via), H(dest)]
    else:
        r = state.memo(("reach", side, strategic_now, start, plan.most, mover.classes),
                       lambda: _reach(state, side, strategic_now, mover, sit))
        if H(dest) in r:
            path = r.path_to(H(dest))
        elif d.map.adjacent(H(start), H(dest)):
            path = [H(start), H(dest)]
        else:
            raise IllegalOrder("Ichi-Go 10.2", f"no legal path from {start} to {dest} with {bound}{plan.most:g} MP"
                                               f"{EACH_OWN if joining else ''}")
    try:
        cost = validate_path(d.map, d.movement, mover, path, sit)
    except RuleViolation as err:
        raise IllegalOrder(err.case, f"{err.message}{EACH_OWN if joining else ''}") from None
    if side == "allied" and units[0].nation == "chinese":
        if any(str(h) in d.tagged("formosa") for h in path[1:]):
            raise IllegalOrder("Ichi-Go 9.9", "Chinese units never enter Formosa")
    check_stacking(state, dest, units, "Ichi-Go 6.0")
    if joining:  # every check is done: from here on the order is carried out
        mp = min(rest, join(em, joining, own))
    else:
        mp = plan.spend(em, units)
    if cost > mp:
        path, cost = as_far_as(state, units, Mover(H(start), mp, mover.classes), path, sit, mp)
    if len(path) > 1:
        em.emit(ev.UnitsMoved(list(ids), [str(h) for h in path], cost))
