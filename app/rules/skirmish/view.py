"""What a side sees of a skirmish game, and the outputs the replay viewer and analysis read
(app/rules/base.py): the map, each attack's summary, and the preview of an attack. Skirmish hides nothing."""
from __future__ import annotations

from app.events.core import DieRolled
from app.rules.base import Command, Previews
from app.rules.engine.decision import Decision, FixedDice
from app.rules.engine.events import GameEnded
from app.rules.kernel.mapfile import GameMap
from app.rules.skirmish import combat
from app.rules.skirmish.events import AttackResolved, StepLost
from app.rules.skirmish.state import State, other


def view(state: State, side: str | None) -> dict:
    """Both sides see every unit (a game with fog of war filters here)."""
    data = state.data
    return {"turn": state.turn, "side_to_act": state.side if state.step != "over" else None,
            "step": state.step, "village_holder": state.village_holder, "winner": state.winner,
            "end_reason": state.reason or None,
            "victory_hexes": [data.village],
            "control": {data.village: state.village_holder} if state.village_holder else {},
            "units": [{"id": u.id, "side": u.side, "hex": u.hex, "strength": u.current_strength,
                       "steps": u.steps} for u in state.units.values()]}


def game_map(state: State) -> GameMap:
    return state.data.map


def combat_summary(event, state: State | None) -> dict | None:
    """SK 5.2-5.4 as the replay's combat panel and the luck analysis read them (app/rules/base.py)."""
    if not isinstance(event, AttackResolved):
        return None
    data = state.data
    attacker = data.units[event.attackers[0]].side
    defender = other(attacker)
    column = data.columns.index(event.column)
    nominal = {"AE": (len(event.attackers), 0), "A1": (1, 0), "NE": (0, 0), "D1": (0, 1), "D2": (0, 2),
               "DE": (0, None)}
    lost_a, lost_d = nominal[event.result]
    return {"attacker": attacker, "defender": defender, "hex": event.hex, "attackers": list(event.attackers),
            "attack": event.attack, "defence": event.defence, "odds": event.column, "shifts": [],
            "roll": event.roll, "result": event.result, "case": "SK 5.3",
            "losses": {attacker: lost_a, defender: "all" if lost_d is None else lost_d},
            "distribution": [{"roll": face, "result": row[column], "value": data.value[row[column]],
                              "p": 1 / len(data.results)} for face, row in sorted(data.results.items())],
            "columns": list(data.columns)}


# the orders `preview` draws (the rest have none: app/rules/legal.py)
PREVIEWS = Previews(("attack",), "SK 5.1")


def preview(state: State, command: Command) -> dict:
    """An attack's odds and its result for each die roll (SK 5.2, 5.3), by the same function the order runs."""
    PREVIEWS.check(command)
    rolls = {}
    for value in range(1, 7):
        d = Decision(state, command.side, FixedDice(value), lambda s, e: e.apply(s))
        combat.attack(d, command.args["hex"], command.args["units"])
        resolved = next(e for e in d.events if isinstance(e, AttackResolved))
        rolls[value] = {"result": resolved.result,
                        "losses": [e.describe() for e in d.events if isinstance(e, StepLost)],
                        "ends_game": next((e.describe() for e in d.events if isinstance(e, GameEnded)), None)}
    text = "\n".join([f"attack on {command.args['hex']}: {resolved.attack}:{resolved.defence} -> {resolved.column} "
                      "(SK 5.3)"] + [f"  die {v}: {r['result']}" for v, r in rolls.items()])
    return {"hex": command.args["hex"], "attack": resolved.attack, "defence": resolved.defence,
            "column": resolved.column, "case": "SK 5.3", "by_roll": rolls, "text": text,
            "rolls_needed": sum(isinstance(e, DieRolled) for e in d.events)}
