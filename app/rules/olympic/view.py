"""What a side sees of an Operation Olympic game, and the outputs the replay, analysis and preview read
(app/rules/base.py). A solitaire game hides nothing: both sides see the whole position."""
from __future__ import annotations

from fractions import Fraction

from app.events.core import DieRolled
from app.rules.base import Command, Previews
from app.rules.engine.decision import Decision, FixedDice
from app.rules.errors import IllegalOrder
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap
from app.rules.olympic import combat, victory
from app.rules.olympic.events import CasualtyPoints, CombatResolved, DecisionRequired
from app.rules.olympic.state import State

# How good each result is for the attacker, for the replay's luck analysis.
VALUE = {"Ae": 0, "Ar": 1, "Ex": 2, "Dr": 3, "De": 4}


def view(state: State, side: str | None) -> dict:
    data = state.data
    return {
        "turn": state.turn, "step": state.step, "side_to_act": state.side if state.step != "over" else None,
        "casualty_points": state.casualty_points, "casualty_points_by_turn": dict(state.points_by_turn),
        "score": {"name": "American Casualty Points", "value": state.casualty_points},
        "winner": state.winner, "end_reason": state.reason or None,
        "victory_hexes": sorted(str(h) for h in data.map.hexes_of_terrain("city")),
        "control": _control(state),
        "beachheads": list(state.beachheads), "militia_destroyed": list(state.militia_destroyed),
        "retreat_toward": state.retreat_toward, "second_invasion": state.invasion_turn,
        "assessment": victory.assessment(state),
        "units": [{"id": u.id, "side": u.side, "hex": u.hex, "strength": u.strength,
                   "steps": 1 if u.status in ("map", "pool") else 0, "status": u.status,
                   "at_sea": state.at_sea(u), "released": u.released if u.side == "japanese" else None,
                   "returns_on": u.returns_on, **_counter(data.unit(u.id), u.strength)}
                  for _, u in sorted(state.units.items())],
    }


def _control(state: State) -> dict[str, str]:
    """Who controls what (ruling R19), as the other games' views give it: every hex the Americans control, and
    the Japanese holding each city (the victory hexes, R20) the Americans do not."""
    cities = {str(h): "japanese" for h in state.data.map.hexes_of_terrain("city")}
    return {**cities, **{h: "american" for h in state.american_control}}


def _counter(spec, strength: int) -> dict:
    """What the counter prints (data/units.toml): its nation, arm and size (every American unit is a regiment),
    and its combat strength - movement allowance."""
    return {"name": spec.name, "nation": "us" if spec.side == "american" else "japanese", "type": spec.arm,
            "size": spec.size or ("regiment" if spec.side == "american" else ""),
            "factors": f"{strength}-{spec.movement}"}


def game_map(state: State) -> GameMap:
    return state.data.map


def combat_summary(event, state: State | None) -> dict | None:
    """Olympic 8.8 as the replay's combat panel and the luck analysis read it."""
    if not isinstance(event, CombatResolved):
        return None
    data = state.data
    attacker = "japanese" if event.kind == "japanese" else "american"
    defender = "american" if attacker == "japanese" else "japanese"
    side = "cp_japan_attacking" if attacker == "japanese" else "cp_us_attacking"
    distribution = []
    for face in data.crt.dice:
        index, label = _column_of(event, data, face)
        r = data.crt.lookup(index, face)
        distribution.append({"roll": face, "result": r.code, "value": VALUE[r.code.split()[0]],
                             "p": 1 / len(data.crt.dice), "casualty_points": r.value(side), "column": label,
                             "special": event.kind == "japanese" and face == data.crt_raw["special_attack"]["die"]})
    code = event.result.split()[0]
    return {"attacker": attacker, "defender": defender, "hex": event.hex, "attackers": list(event.attackers),
            "attack": event.attack, "defence": event.defence, "odds": f"{event.differential:+d}",
            "column": event.column, "shifts": [], "roll": event.die, "result": event.result,
            "losses": {attacker: _attacker_losses(event, state, code), defender: "all" if code in ("De", "Ex") else 0},
            "distribution": distribution, "case": "Olympic 8.8", "reason": event.reason,
            "columns": [c.label for c in data.crt.columns()]}


def _column_of(event: CombatResolved, data, face: int) -> tuple[int, str]:
    """The column each face of the die is read on. In a Japanese attack a 6 is a special attack (8.54, note 5): the
    Japanese strength doubled, the column found again; every other face reads the strength as it is. So the panel
    of an ordinary Japanese attack reads its 6 on the doubled column, and that of a special attack its 1-5 on the
    column before the doubling (ruling R53). An American attack reads every face on its one column."""
    if event.kind != "japanese":
        return next((i, c.label) for i, c in enumerate(data.crt.columns()) if c.label == event.column)
    special = data.crt_raw["special_attack"]
    strength = Fraction(event.attack) / (special["strength_multiplier"] if event.special else 1)
    if face == special["die"]:
        strength *= special["strength_multiplier"]
    return combat.column(data, combat.differential(strength, Fraction(event.defence)))


def _attacker_losses(event: CombatResolved, state: State, code: str) -> str | int:
    """What the attackers lose: all on Ae, and the Japanese special attacker whatever the result (8.54); on Ex in
    an American attack, units worth at least the defenders' printed strength plus the militia (8.9)."""
    if code == "Ae" or event.special or (code == "Ex" and event.kind == "japanese"):
        return "all"
    if code == "Ex":
        owed = sum(state.unit(uid).strength for uid in event.defenders) + event.militia
        return f"at least {owed} strength points"
    return 0


# the orders `preview` draws (the rest have none: app/rules/legal.py)
PREVIEWS = Previews(("attack", "assault", "jattack"), "Olympic 8.8", column=False)  # no one column: ruling R58


def preview(state: State, command: Command) -> dict:
    """An American attack or assault: differential, column and result for each die, on each column the militia die
    can give (ruling R58), by the same function the order runs; a Japanese attack the same way, its 6 a special
    attack (8.54)."""
    PREVIEWS.check(command)
    if command.action == "jattack":
        key = ("preview", command.action, command.args["unit"], command.args["target"])
        return dict(state.memo(key, lambda: _preview_japanese(state, command)))
    key = ("preview", command.action, command.side, tuple(command.args["hexes"]), tuple(command.args["units"]))
    return dict(state.memo(key, lambda: _preview(state, command)))  # an advance named changes no die's result


def _preview(state: State, command: Command) -> dict:
    """Ruling R58: each face of the combat die on each column the militia die (14.3 track 4, rolled first) can give,
    resolved once a column (the militia faces of one column share its results), and what each militia face makes of
    the hex's militia."""
    case = "Olympic ruling R17" if command.action == "assault" else "Olympic 8.8"
    target = combat.one_hex(Decision(state, command.side, FixedDice(1), lambda s, e: e.apply(s)),
                            command.args["hexes"], case)
    militia = state.militia_intact(target)
    terrain = state.data.map.terrain_of(Hex.parse(target))
    lines = [f"{command.action} on {target} ({terrain}{f', militia {militia}' if militia else ''}), Olympic 8.8"]
    if not militia:
        rolls = {value: _resolved(state, command, target, (value,)) for value in range(1, 7)}
        lines += [f"die {die}: {_line(r)}" for die, r in rolls.items()]
        return {"hex": target, "case": "Olympic 8.8", "by_roll": rolls, "militia": 0, "terrain": terrain,
                "text": "\n".join(lines)}
    faces = _militia_faces(state, command, target, militia)
    groups: dict[str, list[int]] = {}
    for face, shown in faces.items():
        groups.setdefault(shown["column"] or "called off", []).append(face)
    by_column = {label: {value: _resolved(state, command, target, (group[0], value)) for value in range(1, 7)}
                 for label, group in groups.items() if label != "called off"}
    if not by_column:  # every militia face calls it off: the order itself is refused (8.8 note 1), say why
        _resolved(state, command, target, (1, 1))
    lines.append("the militia die (14.3 track 4) is rolled first, then the combat die")
    rolls = {}
    for value in range(1, 7):
        each = {_span(group): (by_column[label][value] if label in by_column else {"result": "called off",
                "column": None, "casualty_points": 0, "events": []}) for label, group in groups.items()}
        rolls[value] = {"result": "; ".join(f"militia {k}: {r['result']}" for k, r in each.items()), "column": None,
                        "by_militia": each}
    for label, group in groups.items():
        strength = ", ".join(dict.fromkeys(f"{faces[f]['militia']} (x{faces[f]['factor']})" for f in group))
        diffs = ", ".join(dict.fromkeys(f"{faces[f]['differential']:+d}" for f in group))
        then = f"column {label}" if label in by_column else "called off (8.8 note 1)"
        lines.append(f"militia die {_span(group)}: militia {strength}, differential {diffs}: {then}")
        lines += [f"  die {die}: {r['result']}, {_points(r)}{r.get('owed', '')}"
                  for die, r in by_column.get(label, {}).items()]
    return {"hex": target, "case": "Olympic 8.8", "by_roll": rolls, "militia": militia, "militia_dice": faces,
            "terrain": terrain, "text": "\n".join(lines)}


def _resolved(state: State, command: Command, target: str, faces: tuple[int, ...]) -> dict:
    """The order resolved with its dice showing `faces` (the militia die first where the hex has militia, then the
    combat die for every later roll), by the function the order runs."""
    from app.rules.olympic.sequence import resolve

    d = Decision(state, command.side, _Faces(faces), lambda s, e: e.apply(s))
    units = resolve(d, command.args["units"])
    combat.american_attack(d, target, units, [], "assault" if command.action == "assault" else "american")
    resolved = next((e for e in d.events if isinstance(e, CombatResolved)), None)
    points = sum(e.points for e in d.events if isinstance(e, CasualtyPoints))
    shown = {"result": resolved.result if resolved else "called off",
             "column": resolved.column if resolved else None, "casualty_points": points,
             "events": [e.describe() for e in d.events if not isinstance(e, DieRolled)]}
    waiting = next((e.data for e in d.events if isinstance(e, DecisionRequired)), None)
    if waiting is not None:
        shown.update(_exchange_owed(d.state, waiting))
    return shown


def _militia_faces(state: State, command: Command, target: str, militia: int) -> dict[int, dict]:
    """Each face of the militia die (14.3 track 4): its factor, the militia it makes, the differential and the 8.8
    column (None: the attack is called off, 8.8 note 1, ruling R28), by the arithmetic the attack runs."""
    from app.rules.olympic.sequence import resolve

    data = state.data
    d = Decision(state, command.side, FixedDice(1), lambda s, e: e.apply(s))
    attack = sum(state.unit(uid).strength for uid in dict.fromkeys(resolve(d, command.args["units"])))
    base = sum(u.strength for u in state.stack(target) if u.side == "japanese")
    faces = {}
    for face in range(1, 7):
        factor = data.militia_factor(face)
        diff = combat.differential(attack, base + militia * factor)
        label = None if diff < data.crt_raw["table"]["minimum"] else combat.column(data, diff)[1]
        faces[face] = {"factor": combat._num(factor), "militia": combat._num(militia * factor), "differential": diff,
                       "column": label}
    return faces


def _span(faces: list[int]) -> str:
    """Militia faces as the text names them: "3-5", "6"."""
    return str(faces[0]) if len(faces) == 1 else f"{faces[0]}-{faces[-1]}"


class _Faces(FixedDice):
    """Dice showing `faces` in turn, the last for every roll after (the preview's militia die, then the combat's)."""

    def __init__(self, faces: tuple[int, ...]):
        super().__init__(faces[-1])
        self.faces = faces

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        self.value = self.faces[min(self.next_index, len(self.faces) - 1)]
        return super().roll(purpose, sides)


def _line(r: dict) -> str:
    """One die's outcome as the preview's text writes it."""
    if r["column"] is None:
        return r["result"]
    return f"column {r['column']}, {r['result']}, {_points(r)}{r.get('owed', '')}"


def _exchange_owed(state: State, context: dict) -> dict:
    """Ruling R54: an exchange that waits for the player's losses (8.9, R25) still costs note 4's left number for
    each attacker (30 in place of it for each unsupplied unit lost, note 6), whichever units the player chooses."""
    fewest, most = combat.exchange_points(state, context)
    owed = f"; you eliminate attackers worth at least {context['required']} strength points (Olympic 8.9)"
    return {"casualty_points": fewest, "casualty_points_most": most, "owed": owed}


def _points(r: dict) -> str:
    most = r.get("casualty_points_most", r["casualty_points"])
    span = f"{r['casualty_points']}" if most == r["casualty_points"] else f"{r['casualty_points']} to {most}"
    return f"{span} Casualty Points"


def _preview_japanese(state: State, command: Command) -> dict:
    """Ruling R54: a Japanese attack (8.51-8.54), one unit on one American unit next to it across a land hexside at
    -2 or better, by the function the programmed attack runs: each face of the die, the 6 a special attack (8.54,
    note 5: the strength doubled, the column found again, the attacker eliminated whatever the result), the
    Casualty Points note 4's right-hand number (note 6 in place of it)."""
    data = state.data
    attacker, target = state.unit(command.args["unit"]), state.unit(command.args["target"])
    if attacker is None or attacker.side != "japanese" or attacker.status != "map":
        raise IllegalOrder("Olympic 8.52", f"{command.args['unit']} is no Japanese unit in play")
    if target is None or target.side != "american" or target.status != "map":
        raise IllegalOrder("Olympic 8.52", f"{command.args['target']} is no American unit in play")
    if target.hex not in data.land_links.get(attacker.hex, ()):
        raise IllegalOrder("Olympic 8.52", f"{attacker.id} in {attacker.hex} is not next to {target.id} in "
                                           f"{target.hex} across a land hexside: it is in no position to attack it")
    if attacker.strength - target.strength < data.crt_raw["table"]["minimum"]:
        raise IllegalOrder("Olympic 8.8 note 1", f"{attacker.strength} against {target.strength} is below "
                                                 f"{data.crt_raw['table']['minimum']:+d}")
    rolls = {}
    for value in range(1, 7):
        d = Decision(state, "japanese", FixedDice(value), lambda s, e: e.apply(s))
        combat.japanese_attack(d, attacker.id, target.id, {})
        [resolved] = [e for e in d.events if isinstance(e, CombatResolved)]
        rolls[value] = {"result": resolved.result, "column": resolved.column, "special": resolved.special,
                        "attack": resolved.attack,
                        "casualty_points": sum(e.points for e in d.events if isinstance(e, CasualtyPoints)),
                        "events": [e.describe() for e in d.events if not isinstance(e, DieRolled)]}
    terrain = data.map.terrain_of(Hex.parse(target.hex))
    lines = [f"Japanese attack by {attacker.id} ({attacker.strength}) on {target.id} ({target.strength}) in "
             f"{target.hex} ({terrain}), Olympic 8.52"]
    lines += [f"die {die}: " + (f"special attack (8.54): strength doubled to {r['attack']}, " if r["special"] else "")
              + f"column {r['column']}, {r['result']}, {r['casualty_points']} Casualty Points"
              + (f"; {attacker.id} eliminated" if r["special"] else "") for die, r in rolls.items()]
    return {"hex": target.hex, "case": "Olympic 8.52", "by_roll": rolls, "militia": 0, "terrain": terrain,
            "text": "\n".join(lines)}
