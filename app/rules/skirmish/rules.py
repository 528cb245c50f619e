"""Skirmish rules as a decider: the worked example for whoever adds a game (docs/rules/skirmish.md)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from app.events.dice import Dice
from app.rules.base import Action, Command, Outcome, Prompt
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap
from app.rules.kernel.movement import Mover, Situation, validate_path
from app.rules.skirmish import data
from app.rules.skirmish.events import AttackResolved, GameEnded, StepEnded, StepLost, UnitMoved

SIDES = ("red", "blue")


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    strength: int
    hex: str | None
    steps: int = data.STEPS
    moved: bool = False
    attacked: bool = False

    @property
    def current_strength(self) -> int:
        return self.strength if self.steps == data.STEPS else max(1, self.strength // 2)


@dataclass(frozen=True)
class State:
    turn: int
    side: str
    step: str
    units: dict
    attacked_hexes: tuple = ()
    village_holder: str | None = None
    winner: str | None = None
    end_reason: str | None = None

    def unit(self, unit_id: str) -> Unit | None:
        return self.units.get(unit_id)

    def at(self, hex_label: str) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == hex_label]

    def enemy_zoc(self, side: str) -> set[str]:
        return {str(n) for u in self.units.values() if u.side != side and u.hex
                for n in data.GRID.neighbours(Hex.parse(u.hex))}


class SkirmishRules:
    name = "skirmish"
    title = "Skirmish (Hexledger's worked-example rule set)"
    version = "1"
    sides = SIDES
    scenarios = {"standard": "Three units a side, six turns, a village to take (SK 2.1)"}
    sequence_case = "SK 3.3"

    # -- the fold ---------------------------------------------------------------------------------------
    def initial_state(self, scenario: str, options: dict) -> State:
        if options:
            raise ValueError("skirmish takes no options")
        units = {uid: Unit(uid, side, strength, hex_) for uid, (side, strength, hex_) in data.UNITS.items()}
        return State(turn=1, side="red", step="movement", units=units)

    def evolve(self, state: State, event) -> State:
        units = dict(state.units)
        if isinstance(event, UnitMoved):
            unit = units[event.unit]
            units[event.unit] = replace(unit, hex=event.path[-1], moved=True)
            holder = unit.side if event.path[-1] == data.VILLAGE else state.village_holder
            return replace(state, units=units, village_holder=holder)
        if isinstance(event, AttackResolved):
            for uid in event.attackers:
                units[uid] = replace(units[uid], attacked=True)
            return replace(state, units=units, attacked_hexes=state.attacked_hexes + (event.hex,))
        if isinstance(event, StepLost):
            unit = units[event.unit]
            units[event.unit] = replace(unit, steps=0, hex=None) if event.eliminated else replace(
                unit, steps=unit.steps - 1)
            return replace(state, units=units)
        if isinstance(event, StepEnded):
            if event.step == "movement":
                return replace(state, step="combat")
            if event.side == "red":
                return replace(state, side="blue", step="movement")
            fresh = {uid: replace(u, moved=False, attacked=False) for uid, u in units.items()}
            return replace(state, turn=state.turn + 1, side="red", step="movement", units=fresh,
                           attacked_hexes=())
        if isinstance(event, GameEnded):
            return replace(state, step="over", winner=event.winner, end_reason=event.reason)
        return state

    # -- the states table -------------------------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        if state.step == "over":
            return Prompt(None, "game over")
        label = f"turn {state.turn}, {state.side} {state.step} step"
        end = Action("end", "end", "SK 3.2", f"close the {state.step} step")
        if state.step == "movement":
            return Prompt(state.side, label, (Action("move", "move UNIT HEX [HEX ...]", "SK 4.1",
                                                     "move a unit along a path of adjacent hexes"), end))
        return Prompt(state.side, label, (Action("attack", "attack HEX with UNIT [UNIT ...]", "SK 5.1",
                                                 "attack an enemy-held hex with adjacent units"), end))

    def parse(self, text: str, side: str, state: State) -> Command:
        words = text.replace(",", " ").split()
        if not words:
            raise InvalidOrder(text, "empty order")
        verb = words[0].lower()
        if verb == "end" and len(words) == 1:
            return Command(side, "end")
        if verb == "move" and len(words) >= 3:
            return Command(side, "move", {"unit": words[1].upper(), "path": [_hex(text, w) for w in words[2:]]})
        if verb == "attack" and len(words) >= 4 and words[2].lower() == "with":
            return Command(side, "attack", {"hex": _hex(text, words[1]), "units": [w.upper() for w in words[3:]]})
        raise InvalidOrder(text, "expected 'move UNIT HEX [HEX ...]', 'attack HEX with UNIT [UNIT ...]' or 'end'")

    # -- the decider ------------------------------------------------------------------------------------
    def decide(self, state: State, command: Command, dice: Dice) -> list:
        if command.action == "move":
            return self._move(state, command)
        if command.action == "attack":
            return self._attack(state, command, dice)
        if command.action == "end":
            return self._end(state, command)
        raise IllegalOrder(self.sequence_case, f"unknown action {command.action!r}")

    def _move(self, state: State, command: Command) -> list:
        unit = _own_unit(state, command.side, command.args["unit"])
        if unit.moved:
            raise IllegalOrder("SK 4.1", f"{unit.id} has already moved this turn")
        path = [Hex.parse(unit.hex)] + [Hex.parse(h) for h in command.args["path"]]
        off_map = [str(h) for h in path if not data.MAP.on_map(h)]
        if off_map:
            raise IllegalOrder("SK 1.1", f"{off_map[0]} is off the map")
        enemies = frozenset(Hex.parse(u.hex) for u in state.units.values() if u.side != unit.side and u.hex)
        situation = Situation(enemy_occupied=enemies, ezoc=frozenset(Hex.parse(h) for h in state.enemy_zoc(unit.side)))
        validate_path(data.MAP, data.MOVEMENT, Mover.single(path[0], data.MOVEMENT_ALLOWANCE, "unit"), path, situation)
        here = command.args["path"][-1]
        if len([u for u in state.at(here) if u.id != unit.id]) + 1 > data.STACK_LIMIT:
            raise IllegalOrder("SK 4.4", f"{here} already holds {data.STACK_LIMIT} units")
        return [UnitMoved(unit.id, list(command.args["path"]))]

    def _attack(self, state: State, command: Command, dice: Dice) -> list:
        target = command.args["hex"]
        defenders = [u for u in state.at(target) if u.side != command.side]
        if not defenders:
            raise IllegalOrder("SK 5.1", f"{target} holds no enemy unit")
        if target in state.attacked_hexes:
            raise IllegalOrder("SK 5.1", f"{target} has already been attacked this turn")
        attackers = []
        for uid in dict.fromkeys(command.args["units"]):
            unit = _own_unit(state, command.side, uid)
            if unit.attacked:
                raise IllegalOrder("SK 5.1", f"{uid} has already attacked this turn")
            if not data.GRID.adjacent(Hex.parse(unit.hex), Hex.parse(target)):
                raise IllegalOrder("SK 5.1", f"{uid} at {unit.hex} is not adjacent to {target}")
            attackers.append(unit)
        attack = sum(u.current_strength for u in attackers)
        defence = sum(u.current_strength for u in defenders) * (2 if data.terrain(target) == "woods" else 1)
        column = odds_column(attack, defence)
        if column is None:
            raise IllegalOrder("SK 5.2", f"{attack}:{defence} is below 1:2")
        roll = dice.roll(f"attack on {target} at {column}")
        result = data.CRT[roll.value][data.COLUMNS.index(column)]
        events: list = [roll, AttackResolved(target, [u.id for u in attackers], attack, defence, column,
                                             roll.value, result)]
        events += _losses(attackers, defenders, result)
        lost = [e.unit for e in events if isinstance(e, StepLost) and e.eliminated]
        for side in SIDES:
            if all(u.hex is None or u.id in lost for u in state.units.values() if u.side == side):
                winner = SIDES[1 - SIDES.index(side)]
                events.append(GameEnded(winner, f"{side} has no units left (SK 6.1)"))
                break
        return events

    def _end(self, state: State, command: Command) -> list:
        events: list = [StepEnded(command.side, state.step)]
        if state.turn == data.LAST_TURN and state.side == "blue" and state.step == "combat":
            holder = state.village_holder
            reason = f"{holder} holds the village {data.VILLAGE} (SK 6.2)" if holder else "nobody took the village"
            events.append(GameEnded(holder, reason))
        return events

    def preview(self, state: State, command: Command) -> dict:
        """An attack's odds and its result for each die roll (SK 5.2, 5.3), without rolling."""
        if command.action != "attack":
            raise IllegalOrder("SK 5.1", "only an attack can be previewed")
        rolls = {}
        for value in range(1, 7):
            events = self._attack(state, command, _FixedDie(value))
            resolved = next(e for e in events if isinstance(e, AttackResolved))
            rolls[value] = {"result": resolved.result,
                            "losses": [self.describe(e) for e in events if isinstance(e, StepLost)],
                            "ends_game": next((self.describe(e) for e in events if isinstance(e, GameEnded)), None)}
            column, attack, defence = resolved.column, resolved.attack, resolved.defence
        return {"hex": command.args["hex"], "attack": attack, "defence": defence, "column": column,
                "case": "SK 5.3", "by_roll": rolls}

    # -- outputs ----------------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        return Outcome(state.winner, state.end_reason or "") if state.step == "over" else None

    def view(self, state: State, side: str | None) -> dict:
        """Skirmish hides nothing: both sides see every unit (a game with fog of war filters here)."""
        return {"turn": state.turn, "side_to_act": state.side if state.step != "over" else None,
                "step": state.step, "village_holder": state.village_holder, "winner": state.winner,
                "end_reason": state.end_reason,
                "victory_hexes": [data.VILLAGE],
                "control": {data.VILLAGE: state.village_holder} if state.village_holder else {},
                "units": [{"id": u.id, "side": u.side, "hex": u.hex, "strength": u.current_strength,
                           "steps": u.steps} for u in state.units.values()]}

    def game_map(self, state: State) -> GameMap:
        return data.MAP

    def combat_summary(self, event, state: State | None = None) -> dict | None:
        """SK 5.2-5.4 as the replay's combat panel and the luck analysis read them (app/rules/base.py). The event
        says everything skirmish shows, so `state` (the position before the event) is not used."""
        if not isinstance(event, AttackResolved):
            return None
        attacker = data.UNITS[event.attackers[0]][0]
        defender = SIDES[1 - SIDES.index(attacker)]
        column = data.COLUMNS.index(event.column)
        nominal = {"AE": (len(event.attackers), 0), "A1": (1, 0), "NE": (0, 0), "D1": (0, 1), "D2": (0, 2),
                   "DE": (0, None)}
        lost_a, lost_d = nominal[event.result]
        return {"attacker": attacker, "defender": defender, "hex": event.hex, "attackers": list(event.attackers),
                "attack": event.attack, "defence": event.defence, "odds": event.column, "shifts": [],
                "roll": event.roll, "result": event.result, "case": "SK 5.3",
                "losses": {attacker: lost_a, defender: "all" if lost_d is None else lost_d},
                "distribution": [{"roll": face, "result": row[column], "value": RESULT_VALUE[row[column]],
                                  "p": 1 / len(data.CRT)} for face, row in sorted(data.CRT.items())]}

    def describe(self, event) -> str:
        if isinstance(event, UnitMoved):
            return f"{event.unit} moves {' - '.join(event.path)}"
        if isinstance(event, AttackResolved):
            return (f"attack on {event.hex} by {', '.join(event.attackers)}: {event.attack}:{event.defence} "
                    f"-> {event.column}, die {event.roll}: {event.result}")
        if isinstance(event, StepLost):
            return f"{event.unit} {'is eliminated' if event.eliminated else 'loses a step'}"
        if isinstance(event, StepEnded):
            return f"{event.side} ends the {event.step} step"
        if isinstance(event, GameEnded):
            return f"game over: {event.winner or 'draw'} - {event.reason}"
        return type(event).__name__

    def encode_state(self, state: State) -> dict:
        return asdict(state)

    def decode_state(self, raw: dict) -> State:
        units = {uid: Unit(**u) for uid, u in raw["units"].items()}
        return State(**{**raw, "units": units, "attacked_hexes": tuple(raw["attacked_hexes"])})


class _FixedDie:
    """A stand-in for the dice in a preview: every roll shows `value`."""

    def __init__(self, value: int):
        self.value = value

    def roll(self, purpose: str, sides: int = 6):
        from app.events.core import DieRolled

        return DieRolled(index=-1, sides=sides, value=self.value, purpose=purpose)


# How good each result is for the attacker, in steps (defender's lost minus attacker's lost), for luck analysis.
RESULT_VALUE = {"AE": -2, "A1": -1, "NE": 0, "D1": 1, "D2": 2, "DE": 3}


def odds_column(attack: int, defence: int) -> str | None:
    """SK 5.2: rounded down in the defender's favour, clamped at 4:1, nothing below 1:2."""
    if attack >= defence:
        return f"{min(attack // defence, 4)}:1"
    return "1:2" if 2 * attack >= defence else None


def _losses(attackers: list[Unit], defenders: list[Unit], result: str) -> list[StepLost]:
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


def _own_unit(state: State, side: str, unit_id: str) -> Unit:
    unit = state.unit(unit_id)
    if unit is None or unit.hex is None:
        raise IllegalOrder("SK 1.2", f"there is no unit {unit_id} on the map")
    if unit.side != side:
        raise IllegalOrder(SkirmishRules.sequence_case, f"{unit_id} is a {unit.side} unit; {side} cannot order it")
    return unit


def _hex(order: str, word: str) -> str:
    try:
        return str(Hex.parse(word))
    except ValueError:
        raise InvalidOrder(order, f"{word!r} is not a hex (XXYY)") from None
