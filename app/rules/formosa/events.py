"""Operation Causeway: Formosa 1944 event types. Each is a frozen fact that applies itself to the state and
describes itself for the history; the stored names read "formosa.<Name>". Dice are core DieRolled events; the
shared DecisionRequired, DecisionMade and GameEnded come from app/rules/engine/events.py.

Descriptions never name a concealed Japanese unit: the history passes through the view (view.py), which
replaces the description of an event about a unit the Allied player may not examine (11.0)."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_type
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded
from app.rules.engine.state import replace
from app.rules.formosa.state import OUT, Combat, State, is_hex

__all__ = [
    "AdvanceOffered", "AirSupplyFlown", "AmoyRolled", "BaseBuilt", "BaseDemobilised", "CombatEnded",
    "CombatResolved", "DecisionMade", "DecisionRequired", "GameEnded", "LandingFailed", "LogisticsReceived",
    "LpLost", "LpSpent", "MarkersReturned", "PointsBought", "ReconRolled", "SetupEnded", "SetupRolled",
    "StepBegan", "TurnEnded", "UnitDeployed", "UnitEliminated", "UnitMoved", "UnitPlaced", "UnitRecruited",
    "UnitRetreated", "UnitRevealed", "UnitTransferred", "UnitsAdvanced", "UnitsChosen", "UnitsLanded",
    "UnitsMotorized", "UnitsReturned", "VictoryCounted",
    # the optional rules (25.0; optional.py)
    "Airlifted", "BattlefieldLp", "GuerrillaRallied", "RaiderHits", "SpecialHeld", "SpecialLanding", "VpAwarded",
]

# Per-phase flags each step clears when it begins (12.2 once a phase, 15.0 once a Combat Phase).
_CLEARS = {"allied-movement": "moved", "japanese-movement": "moved", "allied-combat": "attacked",
           "japanese-combat": "attacked", "invasion": "attacked"}


def _units(state: State, ids, **changes) -> State:
    return state.with_units(*(replace(state.units[i], **changes) for i in ids))


@event_type("formosa.SetupRolled")
@dataclass(frozen=True)
class SetupRolled:
    """24.1/24.2: the Japanese set-up LP, tactical air points and kamikaze points, each from its die."""

    lp: int
    tac: int
    kamikaze: int

    def apply(self, state: State) -> State:
        return replace(state, setup_rolled=True, lp={**state.lp, "japanese": self.lp},
                       air={**state.air, "japanese-tac": self.tac, "kamikaze": self.kamikaze})

    def describe(self) -> str:
        return (f"Japanese set-up: {self.lp} LP, {self.tac} tactical air points, {self.kamikaze} kamikaze points "
                "(Formosa 24.1)")


@event_type("formosa.UnitsChosen")
@dataclass(frozen=True)
class UnitsChosen:
    """3.0 (player's choice): the units a set-up group's pick takes; the Japanese must then place them, the
    Allied go to the Staging Area (8.1)."""

    side: str
    group: str
    units: list[str]

    def apply(self, state: State) -> State:
        chosen = {**state.chosen, self.group: (*state.chosen.get(self.group, ()), *self.units)}
        state = replace(state, chosen=chosen)
        if self.side == "japanese":
            return replace(state, to_place=(*state.to_place, *self.units))
        return _units(state, self.units, where="allied-staging")

    def describe(self) -> str:
        return f"{self.side} chooses {', '.join(self.units)} (Formosa 3.0)"


@event_type("formosa.LpSpent")
@dataclass(frozen=True)
class LpSpent:
    side: str
    amount: int
    why: str

    def apply(self, state: State) -> State:
        return replace(state, lp={**state.lp, self.side: state.lp[self.side] - self.amount})

    def describe(self) -> str:
        return f"{self.side} spends {self.amount} LP: {self.why}"


@event_type("formosa.LpLost")
@dataclass(frozen=True)
class LpLost:
    """7.2, 24.1: LP above the cap are lost."""

    side: str
    amount: int
    case: str

    def apply(self, state: State) -> State:
        return replace(state, lp={**state.lp, self.side: state.lp[self.side] - self.amount})

    def describe(self) -> str:
        return f"{self.side} loses {self.amount} LP over the cap ({self.case})"


@event_type("formosa.UnitRecruited")
@dataclass(frozen=True)
class UnitRecruited:
    """8.0: a unit recruited goes where it deploys: a Japanese unit at set-up joins the units to place on
    Formosa (`to` "formosa"); an Allied unit goes to the Staging Area (8.1)."""

    unit: str
    to: str
    replaced: bool = False

    def apply(self, state: State) -> State:
        if self.replaced:  # 25.4: a replaced Marine may deploy with a US HQ
            state = replace(state, replaced_now=(*state.replaced_now, self.unit))
        if self.to == "formosa":  # concealed side up unless replaced (8.1, 11.2)
            state = state.with_units(replace(state.units[self.unit], concealed=not self.replaced))
            return replace(state, to_place=(*state.to_place, self.unit))
        return replace(state.move(self.unit, self.to), to_place=(*state.to_place, self.unit))

    def describe(self) -> str:
        how = "replaced" if self.replaced else "recruited"
        return f"{self.unit} {how} ({'to deploy on Formosa' if self.to == 'formosa' else self.to})"


@event_type("formosa.PointsBought")
@dataclass(frozen=True)
class PointsBought:
    """7.3: air points (2.5), naval gunfire, invasion markers (10.0) or the mobile fleet bought with LP."""

    side: str
    kind: str
    count: int

    def apply(self, state: State) -> State:
        if self.kind in ("amphibious", "drop-zone"):
            return replace(state, markers={**state.markers, self.kind: state.markers.get(self.kind, 0) + self.count})
        if self.kind == "gunfire":
            return replace(state, naval={**state.naval, "gunfire": state.naval.get("gunfire", 0) + self.count})
        key = f"{self.side}-tac" if self.kind == "tac" else self.kind
        return replace(state, air={**state.air, key: state.air.get(key, 0) + self.count})

    def describe(self) -> str:
        return f"{self.side} buys {self.count} {self.kind}"


@event_type("formosa.UnitPlaced")
@dataclass(frozen=True)
class UnitPlaced:
    """3.0, 24.1: a Japanese unit set up on Formosa, concealed or revealed."""

    unit: str
    hex: str
    concealed: bool

    def apply(self, state: State) -> State:
        state = state.move(self.unit, self.hex, concealed=self.concealed)
        return replace(state, to_place=tuple(u for u in state.to_place if u != self.unit))

    def describe(self) -> str:
        return f"{self.unit} set up in {self.hex}{' concealed' if self.concealed else ''} (Formosa 3.0)"


@event_type("formosa.UnitDeployed")
@dataclass(frozen=True)
class UnitDeployed:
    """8.1: a reinforcement or replacement deployed where its side deploys (a hex, Amoy or the Staging Area)."""

    unit: str
    where: str
    concealed: bool = False

    def apply(self, state: State) -> State:
        state = state.move(self.unit, self.where, concealed=self.concealed)
        return replace(state, to_place=tuple(u for u in state.to_place if u != self.unit))

    def describe(self) -> str:
        return f"{self.unit} deployed in {self.where} (Formosa 8.1)"


@event_type("formosa.SetupEnded")
@dataclass(frozen=True)
class SetupEnded:
    """3.0, 8.2, 24.1: a side's set-up is done; the types recruitable only at set-up and not recruited are set
    aside for the game."""

    side: str
    set_aside: list[str]
    next_step: str

    def apply(self, state: State) -> State:
        state = _units(state, self.set_aside, where=OUT)
        return replace(state, step=self.next_step,
                       to_place=tuple(u for u in state.to_place if state.units[u].side != self.side))

    def describe(self) -> str:
        aside = f"; set aside: {len(self.set_aside)} units (Formosa 8.2)" if self.set_aside else ""
        return f"{self.side} set-up complete{aside}"


@event_type("formosa.ReconRolled")
@dataclass(frozen=True)
class ReconRolled:
    """24.1 Pre-Invasion Reconnaissance: the Allied player may reveal that many Japanese stacks."""

    stacks: int

    def apply(self, state: State) -> State:
        return replace(state, recon=self.stacks)

    def describe(self) -> str:
        return f"Pre-invasion reconnaissance: the Allied player may reveal {self.stacks} stacks (Formosa 24.1)"


@event_type("formosa.UnitRevealed")
@dataclass(frozen=True)
class UnitRevealed:
    """11.2: a concealed Japanese unit turned face up, for the rest of the game; a deception unit revealed is
    removed for good (11.1). `recon`: one of the reconnaissance stacks (24.1)."""

    unit: str
    hex: str
    case: str
    deception: bool = False
    recon: bool = False

    def apply(self, state: State) -> State:
        state = state.with_units(replace(state.units[self.unit], concealed=False,
                                         **({"where": OUT} if self.deception else {})))
        return replace(state, recon=state.recon - 1) if self.recon else state

    def describe(self) -> str:
        if self.deception:
            return f"the unit in {self.hex} is revealed: a deception unit, removed ({self.case})"
        return f"{self.unit} in {self.hex} revealed ({self.case})"


@event_type("formosa.StepBegan")
@dataclass(frozen=True)
class StepBegan:
    """6.1: the sequence moves on to `step` of Game-Turn `turn`."""

    step: str
    turn: int

    def apply(self, state: State) -> State:
        if self.step.startswith("recruit"):
            state = replace(state, to_place=(), replaced_now=())
        flag = _CLEARS.get(self.step)
        if flag:
            state = _units(state, [u.id for u in state.units.values() if getattr(u, flag)], **{flag: False})
        if self.step == "base-building":
            state = _units(state, [u.id for u in state.units.values() if u.pinned or u.landed], pinned=False,
                           landed=False)
        state = _units(state, [u.id for u in state.units.values() if u.motorized], motorized=False)
        return replace(state, step=self.step, turn=self.turn, used_hexes=(), attacked_hexes=(), defended=(),
                       combat=None, amphibious=())

    def describe(self) -> str:
        if self.step.startswith(("setup", "recon")):
            return f"set-up: {self.step.replace('-', ' ')}"
        return f"Game-Turn {self.turn}: {self.step.replace('-', ' ')} phase"


@event_type("formosa.UnitsLanded")
@dataclass(frozen=True)
class UnitsLanded:
    """10.1-10.3: units land on an amphibious or drop zone marker placed in `hex`; they may not move in the
    ensuing Allied Movement Phase."""

    marker: str
    hex: str
    units: list[str]

    def apply(self, state: State) -> State:
        state = _units(state, self.units, where=self.hex, pinned=True, landed=self.marker == "amphibious")
        amphibious = (*state.amphibious, self.hex) if self.marker == "amphibious" else state.amphibious
        return replace(state, markers={**state.markers, self.marker: state.markers[self.marker] - 1},
                       used_hexes=(*state.used_hexes, self.hex), amphibious=amphibious)

    def describe(self) -> str:
        how = "land" if self.marker == "amphibious" else "drop"
        return f"{', '.join(self.units)} {how} in {self.hex} ({self.marker} marker; Formosa 10.1)"


@event_type("formosa.LandingFailed")
@dataclass(frozen=True)
class LandingFailed:
    """10.2.2: assaulting units that did not clear the coastal hex `hex`, or found no room in it, go back to the
    Allied Staging Area (they cannot remain at sea)."""

    hex: str
    units: list[str]
    why: str

    def apply(self, state: State) -> State:
        return _units(state, self.units, where="allied-staging", pinned=False, attacked=False, landed=False)

    def describe(self) -> str:
        return f"{', '.join(self.units)} return from the sea off {self.hex} to the Staging Area: {self.why}"


@event_type("formosa.MarkersReturned")
@dataclass(frozen=True)
class MarkersReturned:
    """10.1, ruling F8: at the end of the Invasion Phase every invasion marker not placed goes back to the
    Allied Reinforcements Display with those placed: they are bought again to be used again (but for amphibious
    markers a Decisive Battle barred, 18.0 b), ruling F108: `markers` names those that go back)."""

    markers: dict

    def apply(self, state: State) -> State:
        return replace(state, markers={k: v - self.markers.get(k, 0) for k, v in state.markers.items()})

    def describe(self) -> str:
        parts = ", ".join(f"{n} {kind}" for kind, n in sorted(self.markers.items()))
        return f"invasion markers not placed return to the Reinforcements Display: {parts} (Formosa 10.1)"


@event_type("formosa.UnitsMotorized")
@dataclass(frozen=True)
class UnitsMotorized:
    """22.0: the Allied units in a road or railroad hex move by motorized movement this phase (1 LP for the
    hex): their movement factor doubled, every step along a road or railroad."""

    hex: str
    units: list[str]

    def apply(self, state: State) -> State:
        return _units(state, self.units, motorized=True)

    def describe(self) -> str:
        return f"{', '.join(self.units)} in {self.hex} move by motorized movement (Formosa 22.0)"


@event_type("formosa.AirSupplyFlown")
@dataclass(frozen=True)
class AirSupplyFlown:
    """19.4: the air supply unit supports one Allied combat this Game-Turn."""

    turn: int
    hexes: list[str]

    def apply(self, state: State) -> State:
        return replace(state, air_supply_turn=self.turn)

    def describe(self) -> str:
        return f"air supply supports the combat on {', '.join(self.hexes)} (Formosa 19.4)"


@event_type("formosa.UnitTransferred")
@dataclass(frozen=True)
class UnitTransferred:
    """21.0: naval transfer between the Staging Area, ports and coastal hexes."""

    unit: str
    frm: str
    to: str

    def apply(self, state: State) -> State:
        state = state.move(self.unit, self.to, moved=True, pinned=is_hex(self.to) or state.units[self.unit].pinned)
        ends = [f"from-{self.frm}"] * is_hex(self.frm) + [f"to-{self.to}"] * is_hex(self.to)
        return replace(state, used_hexes=(*state.used_hexes, *ends))  # 21.0's counts per hex and phase

    def describe(self) -> str:
        return f"{self.unit} transferred by sea from {self.frm} to {self.to} (Formosa 21.0)"


@event_type("formosa.UnitMoved")
@dataclass(frozen=True)
class UnitMoved:
    """12.0: a unit moved along `path` (its start first), spending `mp`."""

    unit: str
    path: list[str]
    mp: float

    def apply(self, state: State) -> State:
        return state.move(self.unit, self.path[-1], moved=True)

    def describe(self) -> str:
        return f"{self.unit} moves {' '.join(self.path)} ({self.mp:g} MP)"


@event_type("formosa.CombatResolved")
@dataclass(frozen=True)
class CombatResolved:
    """15.2: one combat, with the totals, the percentage, every shift with its case, the column, the die and
    the result code (15.3-15.5)."""

    attacker: str
    hexes: list[str]
    attackers: list[str]
    defenders: list[str]
    attack: int
    defence: int
    percent: int
    shifts: list[dict]
    column: str
    die: int
    code: str
    counterattack: bool = False
    assault: str = ""  # the coastal hex of an opposed landing (10.2.2), kept through its counterattack
    exploitation: bool = False          # 25.1: made by one stack of the force whose attack gave a DE

    def apply(self, state: State) -> State:
        state = _units(state, [u for u in self.attackers if u in state.units and not self.counterattack],
                       attacked=True)
        advance = state.data.crt_raw["codes"][self.code].get("advance", 0)
        combat = Combat(self.attacker, tuple(self.hexes), tuple(self.attackers), tuple(self.defenders), self.code,
                        counterattack=self.counterattack, assault=self.assault, advance=advance,
                        bases=tuple(u for u in self.defenders if u in state.units and state.units[u].base))
        if self.counterattack:
            return replace(state, combat=combat)
        flown = (*state.strike.flown, *((self.attacker, h) for h in self.hexes))  # 16.3: support returns (F86)
        return replace(state, combat=combat, attacked_hexes=(*state.attacked_hexes, *self.hexes),
                       defended=(*state.defended, *self.defenders), strike=replace(state.strike, flown=flown))

    @property
    def odds(self) -> str:
        """The percentage as read (15.2 step 4); against a defence of 0, above every column (15.3 item 2, ruling
        F168: a game under rules 1-21 recorded 1 for it)."""
        return "above every column" if not self.defence and self.attack else f"{self.percent}%"

    def describe(self) -> str:
        shifts = "; ".join(f"{s['amount']:+d} {s['reason']} ({s['case']})" for s in self.shifts) or "no shifts"
        what = "counterattack on" if self.counterattack else ("assault on" if self.assault else (
            "exploitation attack on (Formosa 25.1)" if self.exploitation else "attack on"))
        return (f"{self.attacker} {what} {', '.join(self.hexes)}: {self.attack} against {self.defence} = "
                f"{self.odds}, {shifts}: column {self.column}, die {self.die}: {self.code} (Formosa 15.2)")


@event_type("formosa.UnitEliminated")
@dataclass(frozen=True)
class UnitEliminated:
    """15.5, 13.3, 8.3: a ground unit removed from the map to a display (replacements or eliminated)."""

    unit: str
    frm: str
    to: str
    case: str

    def apply(self, state: State) -> State:
        state = state.move(self.unit, self.to, concealed=False, moved=False, attacked=False, pinned=False,
                           landed=False, base=False)
        if state.spec(self.unit).type == "pw-camp":  # 25.10: an advance into this hex may earn VP
            state = replace(state, pw_camp_lost=self.frm)
        c = state.combat
        if c is not None and self.frm in c.hexes and not state.at(self.frm):
            state = replace(state, combat=replace(c, cleared=(*c.cleared, self.frm)))
        return state

    def describe(self) -> str:
        return f"{self.unit} eliminated in {self.frm}, to the {self.to.replace('-', ' ')} display ({self.case})"


@event_type("formosa.UnitRetreated")
@dataclass(frozen=True)
class UnitRetreated:
    """15.7: a unit retreated one hex (more if it over-stacked)."""

    unit: str
    path: list[str]

    def apply(self, state: State) -> State:
        state = state.move(self.unit, self.path[-1])
        c = state.combat
        if c is not None and self.path[0] in c.hexes and not state.at(self.path[0]):
            state = replace(state, combat=replace(c, cleared=(*c.cleared, self.path[0])))
        return state

    def describe(self) -> str:
        return f"{self.unit} retreats {' '.join(self.path)} (Formosa 15.7)"


@event_type("formosa.UnitsAdvanced")
@dataclass(frozen=True)
class UnitsAdvanced:
    """15.8: units advanced after combat along `path`."""

    units: list[str]
    path: list[str]

    def apply(self, state: State) -> State:
        state = _units(state, self.units, where=self.path[-1])
        c = state.combat
        return replace(state, combat=replace(c, advanced=(*c.advanced, *self.units))) if c else state

    def describe(self) -> str:
        return f"{', '.join(self.units)} advance {' '.join(self.path)} (Formosa 15.8)"


@event_type("formosa.AdvanceOffered")
@dataclass(frozen=True)
class AdvanceOffered:
    """15.8: the cleared hexes are offered to the attacker's survivors (once a combat)."""

    def apply(self, state: State) -> State:
        return replace(state, combat=replace(state.combat, offered=True))

    def describe(self) -> str:
        return "the attacker may advance after combat (Formosa 15.8)"


@event_type("formosa.CombatEnded")
@dataclass(frozen=True)
class CombatEnded:
    def apply(self, state: State) -> State:
        return replace(state, combat=None)

    def describe(self) -> str:
        return "the combat is over"


@event_type("formosa.BaseBuilt")
@dataclass(frozen=True)
class BaseBuilt:
    """20.1: an engineer flipped to its base side in a port or airfield hex."""

    unit: str
    hex: str

    def apply(self, state: State) -> State:
        return _units(state, [self.unit], base=True)

    def describe(self) -> str:
        return f"{self.unit} builds a base in {self.hex} (Formosa 20.1)"


@event_type("formosa.BaseDemobilised")
@dataclass(frozen=True)
class BaseDemobilised:
    """20.2: a base flipped back to its engineer side."""

    unit: str
    hex: str

    def apply(self, state: State) -> State:
        return _units(state, [self.unit], base=False)

    def describe(self) -> str:
        return f"{self.unit} demobilises its base in {self.hex} (Formosa 20.2)"


@event_type("formosa.LogisticsReceived")
@dataclass(frozen=True)
class LogisticsReceived:
    """7.2: the LP a side adds in the Logistics Phase, item by item (what, LP, case), those it received after the
    last Logistics Phase among them (`State.lp_due`)."""

    side: str
    items: list

    def apply(self, state: State) -> State:
        due = {k: v for k, v in state.lp_due.items() if k != self.side}  # now among the items (7.2)
        return replace(state, lp={**state.lp, self.side: state.lp[self.side] + sum(i[1] for i in self.items)},
                       lp_due=due)

    def describe(self) -> str:
        parts = ", ".join(f"{what} {lp}" for what, lp, _ in self.items)
        return f"{self.side} receives {sum(i[1] for i in self.items)} LP ({parts}; Formosa 7.2)"


@event_type("formosa.AmoyRolled")
@dataclass(frozen=True)
class AmoyRolled:
    """9.1: the Amoy roll, and whether Amoy falls."""

    turn: int
    die: int
    captured: bool

    def apply(self, state: State) -> State:
        return replace(state, amoy_turn=self.turn) if self.captured else state

    def describe(self) -> str:
        return f"Amoy: die {self.die} on GT {self.turn}: {'captured' if self.captured else 'holds'} (Formosa 9.1)"


@event_type("formosa.UnitsReturned")
@dataclass(frozen=True)
class UnitsReturned:
    """8.1 Important: units recruited that did not enter play this GT go back to their Reinforcements Display;
    those of them replaced (`replaced`, since rules version 5, ruling F108) go back to the Replacements Display,
    to be replaced again and deployed revealed (11.2), never recruited as a concealed reinforcement."""

    side: str
    units: list[str]
    replaced: list[str] = field(default_factory=list)

    def apply(self, state: State) -> State:
        fresh = [u for u in self.units if u not in self.replaced]
        state = _units(state, fresh, where=f"{self.side}-reinforcements")
        state = _units(state, self.replaced, where=f"{self.side}-replacements")
        return replace(state, to_place=tuple(u for u in state.to_place if u not in self.units))

    def describe(self) -> str:
        return f"{len(self.units)} {self.side} units recruited but not deployed return (Formosa 8.1)"


@event_type("formosa.TurnEnded")
@dataclass(frozen=True)
class TurnEnded:
    """6.1 End of Turn Phase: the turn marker moves on."""

    turn: int

    def apply(self, state: State) -> State:
        return replace(state, turn=self.turn + 1)

    def describe(self) -> str:
        return f"end of Game-Turn {self.turn}"


@event_type("formosa.VictoryCounted")
@dataclass(frozen=True)
class VictoryCounted:
    """4.2: the VP of each side at the end, with what earned them, and the level."""

    allied: int
    japanese: int
    level: str
    detail: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return state

    def describe(self) -> str:
        return (f"victory points: Allied {self.allied}, Japanese {self.japanese}, net {self.allied - self.japanese}: "
                f"{self.level} (Formosa 4.2)")


# -- the optional rules (25.0; app/rules/formosa/optional.py) ------------------------------------------------------
@event_type("formosa.SpecialHeld")
@dataclass(frozen=True)
class SpecialHeld:
    """25.7, 25.8 (ruling F8): the Marine Brigade or the Airborne Raiders, recruited at set-up, wait in the
    Japanese Reinforcements Display for a landing from GT 2."""

    unit: str

    def apply(self, state: State) -> State:
        return replace(state, special_ready=(*state.special_ready, self.unit))

    def describe(self) -> str:
        return f"{self.unit} recruited: it waits in the Japanese Reinforcements Display (Formosa 25.7, 25.8)"


@event_type("formosa.SpecialLanding")
@dataclass(frozen=True)
class SpecialLanding:
    """25.7, 25.8: the die of a special landing (ruling F94: made face up): `result` "eliminated", "turned back"
    (it may try again a later GT), "lands" (it moves no further this phase) or, for raiders on an Allied-occupied
    airfield, "lands and is eliminated"."""

    unit: str
    hex: str
    rule: str
    die: int
    result: str

    def apply(self, state: State) -> State:
        if self.result == "turned back":  # once a GT (25.7, 25.8): the phase's list remembers the attempt
            return replace(state, used_hexes=(*state.used_hexes, f"tried-{self.unit}"))
        ready = tuple(u for u in state.special_ready if u != self.unit)
        if self.result == "lands":
            return replace(state.move(self.unit, self.hex, concealed=False, moved=True), special_ready=ready)
        return replace(state.move(self.unit, "japanese-eliminated", concealed=False), special_ready=ready)

    def describe(self) -> str:
        return f"{self.unit} lands in {self.hex}: die {self.die}, {self.result} (Formosa {self.rule})"


@event_type("formosa.RaiderHits")
@dataclass(frozen=True)
class RaiderHits:
    """25.8: raiders landing on an Allied-occupied airfield destroy Allied tactical air points (ruling F95:
    US points first)."""

    die: int
    lost: dict
    flying: dict = field(default_factory=dict)  # {mission: points}: lost points that were interdicting (F99)

    def apply(self, state: State) -> State:
        state = replace(state, air={**state.air, **{k: state.air.get(k, 0) - v for k, v in self.lost.items()}})
        if not self.flying:
            return state
        missions = dict(state.strike.missions.get("allied", {}))
        rows = list(state.strike.interdicted)
        for mission, points in self.flying.items():
            missions[mission] = missions.get(mission, 0) - points
            nat = "cw" if mission.startswith("cw-") else "us"
            for i in reversed(range(len(rows))):  # the points come off the map, the last placed first
                h, row_nat, placed = rows[i]
                if row_nat == nat and points:
                    take = min(points, placed)
                    rows[i] = (h, row_nat, placed - take)
                    points -= take
        strike = replace(state.strike, missions={**state.strike.missions, "allied": missions},
                         interdicted=tuple(r for r in rows if r[2]))
        return replace(state, strike=strike)

    def describe(self) -> str:
        total = sum(self.lost.values())
        flying = sum(self.flying.values())
        also = f", {flying} of them interdicting" if flying else ""
        return (f"the raiders' attack on the airfield: die {self.die}, {total} Allied TAC point(s) lost{also} "
                "(Formosa 25.8)")


@event_type("formosa.Airlifted")
@dataclass(frozen=True)
class Airlifted:
    """25.3: the air supply marker flies a unit from the Staging Area to a functional airbase; it has spent one
    MP of this Movement Phase."""

    unit: str
    hex: str
    turn: int

    def apply(self, state: State) -> State:
        airlifted = state.airlifted if state.airlift_turn == self.turn else ()
        return replace(state.move(self.unit, self.hex), airlifted=(*airlifted, self.unit), airlift_turn=self.turn)

    def describe(self) -> str:
        return f"{self.unit} flown from the Staging Area to the airbase in {self.hex} (Formosa 25.3)"


@event_type("formosa.BattlefieldLp")
@dataclass(frozen=True)
class BattlefieldLp:
    """25.2, ruling F28: the attacker's one LP for a battlefield victory."""

    side: str
    lp: int
    eliminated_cf: int
    advanced: bool

    def apply(self, state: State) -> State:
        if state.since(4):  # 7.2: received after the Logistics Phase, spent from the next GT on (ruling F105)
            return replace(state, lp_due={**state.lp_due, self.side: state.lp_due.get(self.side, 0) + self.lp})
        return replace(state, lp={**state.lp, self.side: state.lp[self.side] + self.lp})

    def describe(self) -> str:
        why = f"{self.eliminated_cf} enemy combat factors eliminated" + (" and an advance" if self.advanced else "")
        return f"{self.side} gains {self.lp} LP for a battlefield victory: {why} (Formosa 25.2)"


@event_type("formosa.GuerrillaRallied")
@dataclass(frozen=True)
class GuerrillaRallied:
    """25.6: die-hards: a guerrilla takes the place of a Japanese unit eliminated in shifting terrain; the hex
    is no longer clear for an advance (designer's note)."""

    unit: str
    hex: str
    die: int

    def apply(self, state: State) -> State:
        state = state.move(self.unit, self.hex, concealed=False)
        c = state.combat
        if c is not None and self.hex in c.cleared:
            state = replace(state, combat=replace(c, cleared=tuple(h for h in c.cleared if h != self.hex)))
        return state

    def describe(self) -> str:
        return f"die-hards in {self.hex}: die {self.die}, a guerrilla takes the eliminated unit's place (Formosa 25.6)"


@event_type("formosa.VpAwarded")
@dataclass(frozen=True)
class VpAwarded:
    """Victory points an optional rule gives during play (25.10); those of the end are counted by victory.py."""

    side: str
    vp: int
    why: str
    case: str

    def apply(self, state: State) -> State:
        return replace(state, vp_adjust={**state.vp_adjust, self.side: state.vp_adjust.get(self.side, 0) + self.vp})

    def describe(self) -> str:
        return f"{self.side} {'gains' if self.vp >= 0 else 'loses'} {abs(self.vp)} VP: {self.why} ({self.case})"
