"""Ichi-Go movement (10.x) through the kernel: terrain and hexside costs from terrain.toml, movement factors
rolled per stack (10.14, 10.15; rulings R19, R20), supply halving (7.3, 7.9), strategic movement (10.17),
enemy airpower costs (8.4, ruling R15), stacking at the end of each move (6.0-6.4), static units (2.12)."""
from __future__ import annotations

from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import Emitter, air_range, enemy_hexes, supply_state
from app.rules.ichigo.data_load import H, load
from app.rules.ichigo.state import State, Unit, other
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.movement import Mover, Situation, reach, validate_path
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import overstacked


def piece(u: Unit, allowance: float = 0.0) -> Piece:
    tags = {"static"} if u.static else set()
    if u.militia:
        tags.add("militia")
    return Piece(u.id, u.side, kind=u.size, nationality=u.nation, move_class=u.nation, allowance=allowance,
                 tags=frozenset(tags))


def stack_violation(state: State, h: str, arriving: list[Unit]) -> str | None:
    """Ichi-Go 6.2-6.4: the stack in h after `arriving` join it, or the violation's text."""
    ids = {u.id for u in arriving}
    here = [u for u in state.at(h) if u.id not in ids and u.side == arriving[0].side] + list(arriving)
    bad = overstacked([piece(u) for u in here], load().stacking, H(h))
    return str(bad[0].message) if bad else None


def situation(state: State, side: str, strategic: bool = False) -> Situation:
    d = load()
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
            raise IllegalOrder("Ichi-Go 10.4", f"{u.id} has completed its move this phase")
        if state.turn == 1 and u.hex in load().tagged("no-attack-turn-1"):
            raise IllegalOrder("Ichi-Go 5.4", f"the 38th Army force in {u.hex} never moves on Turn 1")
    if len({u.hex for u in units}) > 1:
        raise IllegalOrder("Ichi-Go 10.3", "units moving together must start in one hex")
    moving = [u for u in units if u.mp >= 0]
    if moving and set(ids) != set(state.mover):
        raise IllegalOrder("Ichi-Go 10.1", "a stack that has begun to move goes on only as that stack, before "
                                           "any other unit moves")
    return units


def adjacent_to_enemy(state: State, side: str, h: str) -> bool:
    enemy = state.occupied(other(side))
    return any(n in enemy for n in load().neighbours(h))


def allowance(em: Emitter, units: list[Unit], strategic: bool, dice) -> float:
    """Roll or set the stack's movement factor once, as it starts to move (10.14-10.17, 7.3, 7.9)."""
    state = em.state
    u0 = units[0]
    if u0.mp >= 0:
        if strategic != u0.strategic:
            raise IllegalOrder("Ichi-Go 10.17", "strategic movement is chosen when a stack starts to move")
        return min(u.mp - u.mp_used for u in units)
    sc = load().scenario
    side = u0.side
    how = "normal"
    if u0.nation == "chinese":
        if strategic:
            raise IllegalOrder("Ichi-Go 10.18", "Chinese units never use strategic movement")
        roll = em.roll(dice, "Chinese movement factor (10.15)")
        after = state.causeway and state.turn >= int(sc["turn_start"]["causeway_roll_turn"])
        mp = roll if after else roll - 1
    else:
        supplies = {supply_state(state, u) for u in units}
        if "oos" in supplies:
            key = "japanese" if u0.nation == "japanese" else "us"
            mp, how = int(sc["supply"][key]["oos_mp"]), "out of supply"
        elif u0.nation == "japanese" and "attenuated" in supplies:
            roll = em.roll(dice, "Japanese movement factor, attenuated supply (7.4, 10.14)")
            mp, how = int(sc["supply"]["japanese"]["attenuated_mp_table"][str(roll)]), "attenuated"
        else:
            mp = int(sc["movement"]["japanese_mp" if u0.nation == "japanese" else "us_mp"])
        if strategic:
            if how != "normal" or adjacent_to_enemy(state, side, u0.hex):
                raise IllegalOrder("Ichi-Go 10.17", "strategic movement needs full supply and no adjacent enemy "
                                                    "unit at the start of the move")
            mp *= int(sc["movement"]["strategic_multiplier"])
            how = "strategic"
    em.emit(ev.MovementRolled([u.id for u in units], int(mp), how))
    return float(mp)


def move(em: Emitter, side: str, ids: list[str], dest: str, via: list[str], strategic: bool, dice) -> None:
    state = em.state
    if state.mode() != "move":
        raise IllegalOrder("Ichi-Go 5.5", "units move only in a phase declared for movement")
    units = movers(state, side, ids)
    d = load()
    sit = situation(state, side, strategic or (units[0].strategic and units[0].mp >= 0))
    em_units = [em.state.units[u.id] for u in units]
    mp = allowance(em, em_units, strategic, dice)
    start = units[0].hex
    mover = Mover(H(start), mp, (units[0].nation,))
    if via:
        path = [H(start), *(H(h) for h in via), H(dest)]
    else:
        r = reach(d.map, d.movement, mover, sit)
        if H(dest) in r:
            path = r.path_to(H(dest))
        elif d.map.adjacent(H(start), H(dest)):
            path = [H(start), H(dest)]
        else:
            raise IllegalOrder("Ichi-Go 10.2", f"no legal path from {start} to {dest} with {mp:g} MP")
    try:
        cost = validate_path(d.map, d.movement, mover, path, sit)
    except RuleViolation as err:
        raise IllegalOrder(err.case, err.message) from None
    labels = [str(h) for h in path]
    if side == "allied":
        for h in labels[1:]:
            if h in d.tagged("formosa") and units[0].nation == "chinese":
                raise IllegalOrder("Ichi-Go 9.9", "Chinese units never enter Formosa")
    bad = stack_violation(em.state, dest, [em.state.units[u.id] for u in units])
    if bad:
        raise IllegalOrder("Ichi-Go 6.0", bad)
    em.emit(ev.UnitsMoved(list(ids), labels, cost))
