"""The skirmish states table (SK 3): each step with its prompt and its orders, side by side."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.engine.events import GameEnded
from app.rules.engine.syntax import SlotType
from app.rules.engine.table import StatesTable, Step, order
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, validate_path
from app.rules.skirmish import combat
from app.rules.skirmish.events import StepEnded, UnitMoved
from app.rules.skirmish.state import State


def _move_candidates(state: State, side: str):
    """Each unit not yet moved, to each hex it can reach (SK 4.1-4.3), by its cheapest path."""
    data = state.data
    for unit in state.units.values():
        if unit.side != side or unit.hex is None or unit.moved:
            continue
        found = reach(data.map, data.movement, Mover.single(Hex.parse(unit.hex), data.allowance, "unit"),
                      _situation(state, side))
        for h in sorted(found.hexes() - {Hex.parse(unit.hex)}):
            yield {"unit": unit.id, "path": [str(x) for x in found.path_to(h)[1:]]}


def _attack_candidates(state: State, side: str):
    """Each enemy hex with every own unit adjacent to it that has not attacked (SK 5.1)."""
    grid = state.data.map.grid
    for target in sorted({u.hex for u in state.units.values() if u.side != side and u.hex}):
        near = [u.id for u in state.units.values() if u.side == side and u.hex and not u.attacked
                and grid.adjacent(Hex.parse(u.hex), Hex.parse(target))]
        if near:
            yield {"hex": target, "units": near}


def _situation(state: State, side: str) -> Situation:
    """The enemy's hexes and zones of control for `side`'s moves (SK 4.3), once per position (engine Memo)."""
    def derive() -> Situation:
        enemies = frozenset(Hex.parse(u.hex) for u in state.units.values() if u.side != side and u.hex)
        return Situation(enemy_occupied=enemies, ezoc=frozenset(Hex.parse(h) for h in state.enemy_zoc(side)))

    return state.memo(("situation", side), derive)


class PlayerStep(Step):
    """SK 3.2: a step of the phasing player's turn; `end` closes it."""

    def label(self, s: State) -> str:
        return f"turn {s.turn}, {s.side} {s.step} step"

    @order("end", "SK 3.2", "close this step")
    def end(self, d: Decision) -> None:
        s = d.state
        d.emit(StepEnded(d.side, s.step))
        if s.last_step:
            holder = s.village_holder
            reason = f"{holder} holds the village {d.data.village} (SK 6.2)" if holder else "nobody took the village"
            d.emit(GameEnded(holder, reason))


class Movement(PlayerStep):
    """SK 4: the phasing player moves units, one move each."""

    name = "movement"

    @order("move UNIT HEX:path [HEX ...]", "SK 4.1", "move a unit along a path of adjacent hexes", _move_candidates)
    def move(self, d: Decision, unit: str, path: list[str]) -> None:
        u = combat.own_unit(d, unit)
        if u.moved:
            d.refuse("SK 4.1", f"{u.id} has already moved this turn")
        hexes = [Hex.parse(u.hex)] + [Hex.parse(h) for h in path]
        off_map = [str(h) for h in hexes if not d.data.map.on_map(h)]
        if off_map:
            d.refuse("SK 1.1", f"{off_map[0]} is off the map")
        validate_path(d.data.map, d.data.movement, Mover.single(hexes[0], d.data.allowance, "unit"), hexes,
                      _situation(d.state, d.side))
        here = path[-1]
        if len([x for x in d.state.at(here) if x.id != u.id]) + 1 > d.data.stack_limit:
            d.refuse("SK 4.4", f"{here} already holds {d.data.stack_limit} units")
        d.emit(UnitMoved(u.id, list(path)))


class Combat(PlayerStep):
    """SK 5: the phasing player attacks enemy-held hexes."""

    name = "combat"

    @order("attack HEX with UNIT [UNIT ...]", "SK 5.1", "attack an enemy-held hex with adjacent units",
           _attack_candidates)
    def attack(self, d: Decision, hex: str, units: list[str]) -> None:
        combat.attack(d, hex, units)


TABLE = StatesTable([Movement(), Combat()], sequence_case="SK 3.3",
                    slots={"UNIT": SlotType(lambda w: _unit_id(w), "a unit id (R1-R3, B1-B3)")})


def _unit_id(word: str) -> str:
    if not (1 <= len(word) <= 8 and word.isascii() and word.isalnum()):
        raise ValueError("is not a unit id")
    return word.upper()
