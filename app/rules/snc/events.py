"""SNC event types (docs/architecture.md practice 3). Each is a fact that applies itself to a state (`apply`) and says
what happened in the history (`describe`). The decision, phase-end and game-end events are the shared ones of
app/rules/engine/events.py; games stored under SNC's own names for them ("snc.PhaseEnded"...) read as those."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_alias, event_type
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded, PhaseEnded
from app.rules.engine.state import replace
from app.rules.snc.state import PHASE_NAMES, State, enter

for _shared in (DecisionRequired, DecisionMade, PhaseEnded, GameEnded):
    event_alias(f"snc.{_shared.__name__}", _shared)  # the names SNC stored them under before the engine


def describe_phase_end(e: PhaseEnded) -> str:
    """SNC's line for the shared PhaseEnded: the phase by its name in the sequence of play (5.1)."""
    return f"{e.side} end the {PHASE_NAMES.get(e.phase, e.phase)} of GT {e.turn}"


@event_type("snc.PhasesDeclared")
@dataclass(frozen=True)
class PhasesDeclared:
    """SNC 5.3: the phase order for both Operations Phases of this player turn."""

    side: str
    first: str
    second: str

    def apply(self, state: State) -> State:
        return replace(state, plan=(self.first, self.second), phase="ops1", used={})

    def describe(self) -> str:
        return f"{self.side} declare {self.first}/{self.second} (SNC 5.3)"


@event_type("snc.UnitsMoved")
@dataclass(frozen=True)
class UnitsMoved:
    units: list[str]
    path: list[str]
    mp: float

    def apply(self, state: State) -> State:
        units = dict(state.units)
        if not state.goes_on(self.units):  # SNC 9.0: the stack moved before has finished its move
            for uid in state.mover:
                units[uid] = replace(units[uid], done=True)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.path[-1], mp_used=units[uid].mp_used + self.mp)
        side = units[self.units[0]].side
        return replace(state, units=units, mover=tuple(self.units), jp_control=enter(state, side, self.path[1:]))

    def describe(self) -> str:
        return f"{', '.join(self.units)} move {' - '.join(self.path)} ({self.mp:g} MP)"


@event_type("snc.BattleOpened")
@dataclass(frozen=True)
class BattleOpened:
    """An attack, overrun or amphibious landing is declared; `battle` holds who and where (each support marker
    follows as its own SupportAdded, in old exports too)."""

    battle: dict

    def apply(self, state: State) -> State:
        units = dict(state.units)
        b = dict(self.battle)
        for uid in b["attackers"]:
            units[uid] = replace(units[uid], attacked=True)
            if b["kind"] == "landing":
                units[uid] = replace(units[uid], status="landing", hex=None, landed_at=b["hex"])
        hexes = state.attacked_hexes + ((b["hex"],) if b["kind"] == "attack" else ())
        defended = state.defended
        if b["kind"] == "landing":  # SNC 10.0: whoever moves on (8.4 2: a retreat) has been attacked (ruling E32)
            defended += tuple(u.id for u in state.at(b["hex"]) if u.side != b["side"])
        overruns = state.overruns
        if b["kind"] == "overrun":
            overruns = {**overruns, b["hex"]: sorted({*overruns.get(b["hex"], ()), *b["attackers"]})}
        b.setdefault("support", [])
        b.setdefault("defence_support", [])
        repl = 0 if b["kind"] == "landing" else state.replacements  # SNC 8.3: replacements come first
        return replace(state, units=units, battle=b, attacked_hexes=hexes, defended=defended, overruns=overruns,
                       replacements=repl)

    def describe(self) -> str:
        b = self.battle
        return f"{b['side']} {b['kind']} on {b['hex']} with {', '.join(b['attackers'])}"


@event_type("snc.SupportAdded")
@dataclass(frozen=True)
class SupportAdded:
    """SNC 11.1: a fire support marker added by `side` to the current battle (naval in defence: 11.4)."""

    side: str
    kind: str

    def apply(self, state: State) -> State:
        b = dict(state.battle or {})
        key = "support" if b.get("side") == self.side else "defence_support"
        b[key] = list(b.get(key, [])) + [self.kind]
        used = {s: dict(v) for s, v in state.used.items()}
        used.setdefault(self.side, {})[self.kind] = used.get(self.side, {}).get(self.kind, 0) + 1
        return replace(state, battle=b, used=used)

    def describe(self) -> str:
        return f"{self.side} add {self.kind} support"


@event_type("snc.AirInterception")
@dataclass(frozen=True)
class AirInterception:
    """SNC 11.3: the Chinese air roll against a Japanese air marker or interdiction."""

    roll: int
    against: str
    aborted: bool
    air_lost: bool

    def apply(self, state: State) -> State:
        b = dict(state.battle) if state.battle else None
        if b is not None and self.aborted:
            b["air_aborted"] = True
        return replace(state, battle=b, chinese_air=state.chinese_air and not self.air_lost)

    def describe(self) -> str:
        effect = "aborted" if self.aborted else ("Chinese air lost for the game" if self.air_lost else "no effect")
        return f"Chinese air against {self.against}: die {self.roll}, {effect} (SNC 11.3)"


@event_type("snc.CombatResolved")
@dataclass(frozen=True)
class CombatResolved:
    hex: str
    kind: str
    attack: int
    defence: int
    odds: str
    shifts: list[str]
    column: str
    roll: int
    result: str
    attacker_losses: int
    defender_losses: int

    def apply(self, state: State) -> State:
        b = dict(state.battle)
        b.update(resolved=True, att_due=self.attacker_losses, def_due=self.defender_losses, att_taken=0,
                 def_taken=0)
        return replace(state, battle=b)

    def describe(self) -> str:
        return (f"{self.kind} on {self.hex}: {self.attack}:{self.defence} = {self.odds}, shifts "
                f"{'; '.join(self.shifts) or 'none'} -> {self.column}, die {self.roll}: {self.result}")


@event_type("snc.StepsLost")
@dataclass(frozen=True)
class StepsLost:
    """SNC 10.5.2: one entry per step; a unit named as often as it has steps is eliminated."""

    side: str
    units: list[str]
    reason: str = "combat"
    # SNC 6.3: the defender's losses, seen by the attacker resolving the attack. Derived from the state when the
    # event is produced, for the fog-of-war filter only; not compared, so games stored before it still verify.
    revealed: bool = field(default=False, compare=False)

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            u = units[uid]
            steps = u.steps - 1
            units[uid] = replace(u, steps=steps, status="dead", hex=None) if steps <= 0 else replace(u, steps=steps)
        b = state.battle
        if b is not None and self.reason == "combat":
            b = dict(b)
            key = "att_taken" if self.side == b["side"] else "def_taken"
            b[key] = b.get(key, 0) + len(self.units)
        return replace(state, units=units, battle=b)

    def describe(self) -> str:
        return f"{self.side} lose steps: {', '.join(self.units)}"


@event_type("snc.EliteScheduled")
@dataclass(frozen=True)
class EliteScheduled:
    """SNC 8.1: an eliminated Chinese elite returns, reduced, on `turn` (0: beyond GT 12, gone for good)."""

    unit: str
    roll: int
    turn: int

    def apply(self, state: State) -> State:
        u = state.units[self.unit]
        elite = replace(u, status="returning" if self.turn else "dead", return_turn=self.turn, steps=1, hex=None)
        return replace(state, units={**state.units, self.unit: elite})

    def describe(self) -> str:
        return f"{self.unit} eliminated: die {self.roll}, " + (f"returns on GT {self.turn}" if self.turn
                                                                 else "gone for good")


@event_type("snc.UnitsRetreated")
@dataclass(frozen=True)
class UnitsRetreated:
    units: list[str]
    to: str
    revealed: bool = field(default=False, compare=False)  # SNC 6.3: defenders seen by the attacker (as StepsLost)

    def apply(self, state: State) -> State:
        units = dict(state.units)
        b = dict(state.battle) if state.battle else None
        if b is not None and (not self.units or units[self.units[0]].hex == b["hex"]):
            b["retreated"] = True  # from the battle hex (8.4 2); not the 8.4.1 push out of a hex next to it
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.to)
        if not self.units:
            return replace(state, battle=b)
        side = units[self.units[0]].side
        return replace(state, units=units, battle=b, jp_control=enter(state, side, [self.to]))

    def describe(self) -> str:
        return f"{', '.join(self.units) or 'nobody'} retreat to {self.to}"


@event_type("snc.UnitsAdvanced")
@dataclass(frozen=True)
class UnitsAdvanced:
    units: list[str]
    path: list[str]

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.path[-1], status="map")
        side = units[self.units[0]].side if self.units else state.side
        ctl = enter(state, side, self.path) if self.units else state.jp_control
        # an advance (or `stay`) answers a decision of the battle under way (10.5.3, 8.4 1), 8.4.1); the 10th
        # Army's later second-hex advances of the Reinforcement Phase come with no battle (rulings R34, R35)
        battle = {**state.battle, "advanced": True} if state.battle is not None else None
        return replace(state, units=units, battle=battle, jp_control=ctl)

    def describe(self) -> str:
        return f"{', '.join(self.units)} advance to {' - '.join(self.path)}" if self.units else "no advance"


@event_type("snc.BattleClosed")
@dataclass(frozen=True)
class BattleClosed:
    hex: str

    def apply(self, state: State) -> State:
        b = state.battle
        if b is None or b.get("kind") != "overrun" or not state.since(10):
            return replace(state, battle=None)
        # SNC 9.6 (ruling E21): units whose overrun left Chinese units in the hex overrun again or stop
        attackers = set(b["attackers"])
        halted = tuple(u for u in state.halted if u not in attackers)
        if any(u.side != b["side"] for u in state.at(b["hex"])):
            halted += tuple(sorted(u for u in attackers if state.units[u].status == "map"))
        return replace(state, battle=None, halted=halted)

    def describe(self) -> str:
        return f"battle for {self.hex} over"


@event_type("snc.GarrisonPlaced")
@dataclass(frozen=True)
class GarrisonPlaced:
    """SNC 9.1: a Japanese garrison placed in a city hex the Japanese occupy."""

    unit: str
    hex: str

    def apply(self, state: State) -> State:
        u = state.units[self.unit]
        placed = replace(u, hex=self.hex, status="map", steps=u.steps_max)  # ruling R39: a dead one at full strength
        return replace(state, units={**state.units, self.unit: placed})

    def describe(self) -> str:
        return f"{self.unit} garrisons {self.hex} (SNC 9.1)"


@event_type("snc.ReinforcementsPlaced")
@dataclass(frozen=True)
class ReinforcementsPlaced:
    """SNC 8.2 a/b, 8.1, 8.4: units enter the map; `method` is listed, rail, elite or landing."""

    units: list[str]
    hex: str
    method: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.hex, status="map", placed_by=self.method, mp_used=0.0,
                                 **({"landed_at": self.hex} if self.method == "landing" else {}))
        side = units[self.units[0]].side
        repl = 0 if self.method == "landing" else state.replacements  # SNC 8.3: replacements come first
        return replace(state, units=units, jp_control=enter(state, side, [self.hex]), replacements=repl)

    def describe(self) -> str:
        return f"{', '.join(self.units)} enter at {self.hex} ({self.method})"


@event_type("snc.UnitsRemoved")
@dataclass(frozen=True)
class UnitsRemoved:
    """SNC 11.2: reinforcements removed for the rest of the game by air interdiction."""

    units: list[str]
    roll: int

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], status="removed", hex=None)
        return replace(state, units=units, interdicted=state.turn)

    def describe(self) -> str:
        return f"interdiction (die {self.roll}) removes {', '.join(self.units) or 'nothing'}"


@event_type("snc.StepsReplaced")
@dataclass(frozen=True)
class StepsReplaced:
    """SNC 8.3: reduced Japanese units flipped back to full strength."""

    units: list[str]

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], steps=units[uid].steps + 1)
        return replace(state, units=units, replacements=state.replacements - len(self.units))

    def describe(self) -> str:
        return f"replacements: {', '.join(self.units)} back to full strength"


@event_type("snc.Overstacked")
@dataclass(frozen=True)
class Overstacked:
    """SNC 6.0: units eliminated by their owner to bring a hex within the stacking limit."""

    side: str
    hex: str
    units: list[str]

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], status="dead", hex=None, steps=0)
        return replace(state, units=units)

    def describe(self) -> str:
        return f"{', '.join(self.units)} eliminated: {self.hex} over the stacking limit"
