"""Skirmish combat (SK 5): odds, the table, losses, and the attack as one function that both the order and its
preview run, so a preview can never promise what the order would refuse."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.engine.events import GameEnded
from app.rules.kernel.hexgrid import Hex
from app.rules.skirmish.events import AttackResolved, StepLost
from app.rules.skirmish.state import SIDES, State, Unit, other


def odds_column(attack: int, defence: int, columns: tuple[str, ...]) -> str | None:
    """SK 5.2: rounded down in the defender's favour, clamped at the last column, nothing below the first."""
    best = int(columns[-1].split(":")[0])
    lowest = int(columns[0].split(":")[1])
    if attack >= defence:
        return f"{min(attack // defence, best)}:1"
    return f"1:{lowest}" if lowest * attack >= defence else None


def attack(d: Decision, target: str, unit_ids: list[str]) -> None:
    """SK 5.1-5.4 and 6.1: check the attack, roll, apply the result, and end the game if a side is gone."""
    state: State = d.state
    data = d.data
    defenders = [u for u in state.at(target) if u.side != d.side]
    if not defenders:
        d.refuse("SK 5.1", f"{target} holds no enemy unit")
    if target in state.attacked_hexes:
        d.refuse("SK 5.1", f"{target} has already been attacked this turn")
    attackers = []
    for uid in dict.fromkeys(unit_ids):
        unit = own_unit(d, uid)
        if unit.attacked:
            d.refuse("SK 5.1", f"{uid} has already attacked this turn")
        if not data.map.grid.adjacent(Hex.parse(unit.hex), Hex.parse(target)):
            d.refuse("SK 5.1", f"{uid} at {unit.hex} is not adjacent to {target}")
        attackers.append(unit)
    strength = sum(u.current_strength for u in attackers)
    defence = sum(u.current_strength for u in defenders) * data.defence_multiplier.get(data.terrain(target), 1)
    column = odds_column(strength, defence, data.columns)
    if column is None:
        d.refuse("SK 5.2", f"{strength}:{defence} is below {data.columns[0]}")
    roll = d.roll(f"attack on {target} at {column}")
    result = data.result(roll, column)
    d.emit(AttackResolved(target, [u.id for u in attackers], strength, defence, column, roll, result))
    d.emit(*losses(attackers, defenders, result))
    for side in SIDES:
        if not any(u.hex for u in d.state.units.values() if u.side == side):
            d.emit(GameEnded(other(side), f"{side} has no units left (SK 6.1)"))
            break


def losses(attackers: list[Unit], defenders: list[Unit], result: str) -> list[StepLost]:
    """SK 5.4: the strongest unit loses first; a unit with one step left is eliminated."""
    if result == "NE":
        return []
    if result == "DE":
        return [StepLost(u.id, True) for u in defenders]
    if result == "AE":
        return [StepLost(u.id, u.steps == 1) for u in attackers]
    losers, count = (attackers, 1) if result == "A1" else (defenders, int(result[1]))
    steps = {u.id: u.steps for u in losers}
    strength = {u.id: u.current_strength for u in losers}
    events = []
    for _ in range(count):
        alive = [uid for uid in steps if steps[uid] > 0]
        if not alive:
            break
        uid = max(alive, key=lambda i: (strength[i], i))
        steps[uid] -= 1
        strength[uid] = max(1, strength[uid] // 2)
        events.append(StepLost(uid, steps[uid] == 0))
    return events


def own_unit(d: Decision, unit_id: str) -> Unit:
    unit = d.state.unit(unit_id)
    if unit is None or unit.hex is None:
        d.refuse("SK 1.2", f"there is no unit {unit_id} on the map")
    if unit.side != d.side:
        d.refuse("SK 3.3", f"{unit_id} is a {unit.side} unit; {d.side} cannot order it")
    return unit
