"""Operation Olympic event types: each applies itself to the state and describes itself for the history. The
programmed Japanese's events carry the reason of the decision (`reason`, a JSON object naming the priority case,
the candidates and the tie-breaks), so the replay can show it and an audit can re-decide it."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_type
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded
from app.rules.engine.state import replace
from app.rules.kernel.hexgrid import Hex
from app.rules.olympic.state import State

__all__ = [
    "AttackCalledOff", "CasualtyPoints", "CombatResolved", "DecisionMade", "DecisionRequired", "DoctrineResult",
    "GameEnded", "InvasionLaunched", "MilitiaDestroyed", "ReinforcementEntered", "ReinforcementsDue",
    "RetreatPreferenceSet", "StepEnded", "TokkoLosses", "TokkoStruck", "TurnEnded", "UnitEliminated", "UnitHeld",
    "UnitMoved", "UnitRetreated", "UnitsAdvanced", "UnitsLanded", "UnitsPlaced", "UnitsReleased",
]

GT1_STEPS = ("placement", "tokko", "assault", "combat", "reinforcement", "doctrine", "japanese-movement",
             "japanese-combat")
STEPS = ("movement", "assault", "combat", "reinforcement", "doctrine", "japanese-movement", "japanese-combat")


def _enter(state: State, unit_ids: list[str], hex_label: str, through: list[str] = (), **changes) -> State:
    """Units enter a hex (on top of its stack, in the order given), after the hexes `through` they moved through;
    each land hex entered changes control (ruling R19) and a Japanese unit entering a beachhead ends it (ruling
    R17)."""
    units = dict(state.units)
    clock = state.clock
    for uid in unit_ids:
        clock += 1
        units[uid] = replace(units[uid], status="map", hex=hex_label, order=clock, **changes)
    state = replace(state, units=units, clock=clock)
    entered = [h for h in (*through, hex_label) if state.data.is_land(Hex.parse(h))]
    if not unit_ids or not entered:
        return state
    control = set(state.american_control)
    if units[unit_ids[0]].side == "american":
        control.update(entered)
        beachheads = state.beachheads
    else:
        control.difference_update(entered)
        beachheads = tuple(h for h in state.beachheads if h not in entered)
    return replace(state, american_control=tuple(sorted(control)), beachheads=beachheads)


def _passed(state: State, path: list[str]) -> list[str]:
    """The hexes of a path a unit entered before its last (ruling R35, rules version 5: each changes control as
    the last does; before it only the last hex did)."""
    return path[:-1] if state.since(5) else []


def _update(state: State, unit_ids, **changes) -> State:
    units = dict(state.units)
    for uid in unit_ids:
        units[uid] = replace(units[uid], **changes)
    return replace(state, units=units)


@event_type("olympic.UnitsPlaced")
@dataclass(frozen=True)
class UnitsPlaced:
    """American units placed: at sea in an invasion zone hex (14.4, ruling R17) or on a beachhead (R18)."""

    units: list[str]
    hex: str

    def apply(self, state: State) -> State:
        return _enter(state, self.units, self.hex, returns_on=None)

    def describe(self) -> str:
        return f"{', '.join(self.units)} placed in {self.hex}"


@event_type("olympic.TokkoStruck")
@dataclass(frozen=True)
class TokkoStruck:
    """Olympic 14.4: the table doctrine track 5 chose, and the American Casualty Points it inflicts."""

    table: int
    points: int

    def apply(self, state: State) -> State:
        return state

    def describe(self) -> str:
        return (f"Tokko table #{self.table}: " + (f"{self.points} American Casualty Points" if self.points
                                                  else "no effect") + " (Olympic 14.4)")


@event_type("olympic.TokkoLosses")
@dataclass(frozen=True)
class TokkoLosses:
    """Olympic 14.4: one group of three American units removed from one invasion zone hex, for good."""

    zone: str
    hex: str
    units: list[str]
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return _update(state, self.units, status="removed", hex=None)

    def describe(self) -> str:
        rolled = "".join(f"; {r['zone']} rolled, {r['why']}" for r in self.reason.get("rerolled", []))
        return f"Tokko sink {', '.join(self.units)} in {self.hex} ({self.zone}{rolled}; Olympic 14.4)"


@event_type("olympic.CasualtyPoints")
@dataclass(frozen=True)
class CasualtyPoints:
    """American Casualty Points (8.8 notes 4 and 6, 14.4), with the arithmetic that gave them."""

    points: int
    cause: str

    def apply(self, state: State) -> State:
        key = str(state.turn)
        by_turn = {**state.points_by_turn, key: state.points_by_turn.get(key, 0) + self.points}
        return replace(state, casualty_points=state.casualty_points + self.points, points_by_turn=by_turn)

    def describe(self) -> str:
        return f"{self.points} American Casualty Points: {self.cause}"


@event_type("olympic.UnitsLanded")
@dataclass(frozen=True)
class UnitsLanded:
    """Ruling R17: American units come ashore from an invasion zone hex; the hex becomes a beachhead."""

    units: list[str]
    hex: str

    def apply(self, state: State) -> State:
        state = _enter(state, self.units, self.hex)
        if self.hex in state.beachheads:
            return state
        return replace(state, beachheads=(*state.beachheads, self.hex))

    def describe(self) -> str:
        return f"{', '.join(self.units)} land in {self.hex} (beachhead)"


@event_type("olympic.CombatResolved")
@dataclass(frozen=True)
class CombatResolved:
    """One combat (8.8): who attacked whom, the strengths, the militia and its track 4 factor, the differential,
    the column, the die, whether it was a Japanese special attack (8.54), and the result."""

    kind: str                 # "american" | "assault" | "japanese"
    hex: str
    attackers: list[str]
    defenders: list[str]
    attack: int
    defence: str              # may hold half a point (a halved militia)
    militia: int
    militia_factor: str
    differential: int
    column: str
    die: int
    special: bool
    result: str
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        state = _update(state, self.attackers, attacked=True)
        if self.kind == "japanese":
            return _update(state, self.defenders, defended=True)
        return replace(state, attacked_hexes=(*state.attacked_hexes, self.hex))

    def describe(self) -> str:
        who = {"american": "attack", "assault": "amphibious assault", "japanese": "Japanese attack"}[self.kind]
        militia = f" + militia {self.militia} x{self.militia_factor}" if self.militia else ""
        special = " (special attack, strength doubled: 8.54)" if self.special else ""
        target = ", ".join(self.defenders) or "militia"
        why = f" [{self.reason['summary']}]" if self.reason.get("summary") else ""
        return (f"{who} on {self.hex} ({target}) by {', '.join(self.attackers)}: {self.attack} vs "
                f"{self.defence}{militia}, differential {self.differential:+d}{special} -> column {self.column}, "
                f"die {self.die}: {self.result}{why}")


@event_type("olympic.AttackCalledOff")
@dataclass(frozen=True)
class AttackCalledOff:
    """Ruling R28: the militia die made the differential fall below -2 (8.8 note 1): no combat."""

    hex: str
    attackers: list[str]
    differential: int

    def apply(self, state: State) -> State:
        state = _update(state, self.attackers, attacked=True)
        return replace(state, attacked_hexes=(*state.attacked_hexes, self.hex))

    def describe(self) -> str:
        return f"attack on {self.hex} called off: differential {self.differential:+d} (Olympic 8.8 note 1)"


@event_type("olympic.UnitEliminated")
@dataclass(frozen=True)
class UnitEliminated:
    """A unit eliminated; a supplied American unit returns on `returns_on` (8.8 note 6)."""

    unit: str
    cause: str
    returns_on: int | None = None

    def apply(self, state: State) -> State:
        status = "eliminated" if self.returns_on is not None else "removed"
        return _update(state, [self.unit], status=status, hex=None, returns_on=self.returns_on)

    def describe(self) -> str:
        back = f"; returns on Game-Turn {self.returns_on}" if self.returns_on is not None else ""
        return f"{self.unit} eliminated ({self.cause}){back}"


@event_type("olympic.MilitiaDestroyed")
@dataclass(frozen=True)
class MilitiaDestroyed:
    """Olympic 8.8 note 3: the hex's intrinsic militia strength is destroyed, for good (ruling R11)."""

    hex: str

    def apply(self, state: State) -> State:
        return replace(state, militia_destroyed=(*state.militia_destroyed, self.hex))

    def describe(self) -> str:
        return f"the militia of {self.hex} is destroyed (Olympic 8.8 note 3)"


@event_type("olympic.UnitRetreated")
@dataclass(frozen=True)
class UnitRetreated:
    """Olympic 8.9, note 2: a unit retreats along `path` (its terrain's length), chosen as `reason` says."""

    unit: str
    path: list[str]
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return _enter(state, [self.unit], self.path[-1], _passed(state, self.path))

    def describe(self) -> str:
        return f"{self.unit} retreats {' - '.join(self.path)}"


@event_type("olympic.UnitsAdvanced")
@dataclass(frozen=True)
class UnitsAdvanced:
    """Olympic 8.9, 8.53: units advance into the hex their attack emptied."""

    units: list[str]
    hex: str

    def apply(self, state: State) -> State:
        return _enter(state, self.units, self.hex)

    def describe(self) -> str:
        return f"{', '.join(self.units)} advance into {self.hex}"


@event_type("olympic.UnitMoved")
@dataclass(frozen=True)
class UnitMoved:
    """A unit moves along `path` (its start excluded), entering each of its hexes (ruling R19). A programmed
    Japanese move carries its `reason` (14.51-14.58)."""

    unit: str
    path: list[str]
    mp: int
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return _enter(state, [self.unit], self.path[-1], _passed(state, self.path), moved=True)

    def describe(self) -> str:
        why = f" ({self.reason['summary']})" if self.reason.get("summary") else ""
        return f"{self.unit} moves {' - '.join(self.path)}, {self.mp} MP{why}"


@event_type("olympic.UnitHeld")
@dataclass(frozen=True)
class UnitHeld:
    """A programmed Japanese unit that does not move this phase, and why (ruling R23)."""

    unit: str
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return _update(state, [self.unit], moved=True)

    def describe(self) -> str:
        return f"{self.unit} holds ({self.reason.get('summary', '')})"


@event_type("olympic.UnitsReleased")
@dataclass(frozen=True)
class UnitsReleased:
    """Olympic 14.3 tracks 1-2 and their notes: Japanese units released to move."""

    units: list[str]
    cause: str
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return _update(state, self.units, released=True)

    def describe(self) -> str:
        why = f" [{self.reason['summary']}]" if self.reason.get("summary") else ""
        return f"released ({self.cause}): {', '.join(self.units)}{why}"


@event_type("olympic.DoctrineResult")
@dataclass(frozen=True)
class DoctrineResult:
    """Olympic 14.3: a doctrine track's result for the die just rolled."""

    track: int
    die: int
    result: str

    def apply(self, state: State) -> State:
        return state

    def describe(self) -> str:
        return f"doctrine track {self.track}, die {self.die}: {self.result} (Olympic 14.3)"


@event_type("olympic.ReinforcementsDue")
@dataclass(frozen=True)
class ReinforcementsDue:
    """Olympic 14.3 track 3: the units of the pool that enter in this Japanese Forces Movement Phase."""

    units: list[str]

    def apply(self, state: State) -> State:
        return replace(state, due=tuple(self.units))

    def describe(self) -> str:
        return f"Japanese reinforcements due: {', '.join(self.units) or 'none'}"


@event_type("olympic.ReinforcementEntered")
@dataclass(frozen=True)
class ReinforcementEntered:
    """Ruling R12: a Japanese reinforcement enters at an entry hex, released."""

    unit: str
    hex: str
    reason: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        state = _enter(state, [self.unit], self.hex, released=True)
        return replace(state, due=tuple(u for u in state.due if u != self.unit))

    def describe(self) -> str:
        return f"{self.unit} enters at {self.hex} ({self.reason.get('summary', 'ruling R12')})"


@event_type("olympic.RetreatPreferenceSet")
@dataclass(frozen=True)
class RetreatPreferenceSet:
    """Ruling R24: where American units retreat when the Japanese attack them."""

    hex: str

    def apply(self, state: State) -> State:
        return replace(state, retreat_toward=self.hex)

    def describe(self) -> str:
        return f"American retreats will go toward {self.hex}"


@event_type("olympic.InvasionLaunched")
@dataclass(frozen=True)
class InvasionLaunched:
    """Ruling R17: the one later invasion of the game is made this Game-Turn."""

    turn: int

    def apply(self, state: State) -> State:
        return replace(state, invasion_turn=self.turn)

    def describe(self) -> str:
        return f"the second invasion is launched on Game-Turn {self.turn} (ruling R17)"


@event_type("olympic.StepEnded")
@dataclass(frozen=True)
class StepEnded:
    """The sequence of play moves on to its next phase (sequence A-B)."""

    step: str
    turn: int

    def apply(self, state: State) -> State:
        steps = GT1_STEPS if state.turn == 1 else STEPS
        nxt = steps[steps.index(self.step) + 1]
        units = state.units
        if nxt in ("movement", "japanese-movement"):
            units = {k: replace(u, moved=False) for k, u in units.items()}
        if nxt in ("assault", "combat", "japanese-combat"):
            units = {k: replace(u, attacked=False, defended=False) for k, u in units.items()}
        return replace(state, step=nxt, units=units, attacked_hexes=())

    def describe(self) -> str:
        return f"end of the {self.step} phase of Game-Turn {self.turn}"


@event_type("olympic.TurnEnded")
@dataclass(frozen=True)
class TurnEnded:
    """Sequence D: the Game-Turn Indication Phase; the next Game-Turn starts with the American movement."""

    turn: int

    def apply(self, state: State) -> State:
        units = {k: replace(u, moved=False, attacked=False, defended=False) for k, u in state.units.items()}
        return replace(state, turn=self.turn + 1, step="movement", units=units, attacked_hexes=(), due=())

    def describe(self) -> str:
        return f"end of Game-Turn {self.turn}"
