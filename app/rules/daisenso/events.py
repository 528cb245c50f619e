"""Dai Senso events, each with its effect on the state (`apply`) and its line in the history (`describe`). The
decisions the sequence waits for and the game's end are the engine's shared events."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_type
from app.rules.daisenso.state import Combat, Marker, State, Unit, box_add
from app.rules.daisenso.terrain import AIRDROPS
from app.rules.engine.state import replace


def _combat(state: State, **changes) -> State:
    return replace(state, combat=replace(state.combat, **changes))


def _to_box(state: State, faction: str, box: str | None, kind: str | None) -> State:
    """4.2.6.2: an eliminated counter to the Delay Box ("delay") or the Force Pool ("pool"); "" leaves the game."""
    if not box:
        return state
    table = "delay_box" if box == "delay" else "force_pool"
    return replace(state, **{table: box_add(getattr(state, table), faction, kind)})


@event_type("daisenso.StepBegan")
@dataclass(frozen=True)
class StepBegan:
    """4.1-4.3: the Combat Phase moves to ``step``; a new Combat Segment lets every unit attack again (4.2.1) and
    every HQ support again (4.2.1.2)."""

    step: str

    def apply(self, state: State) -> State:
        if self.step not in ("blitz-combat", "regular-combat"):
            return replace(state, step=self.step)
        fresh = {uid: replace(u, attacked=False, fought=False) for uid, u in state.units.items()}
        return replace(state, step=self.step, units=fresh, attacked_hexes=())

    def describe(self) -> str:
        return f"step: {self.step}"


@event_type("daisenso.PhaseBegan")
@dataclass(frozen=True)
class PhaseBegan:
    """D16: the next faction's Combat Phase."""

    combat_phase: int
    phasing: str

    def apply(self, state: State) -> State:
        return replace(state, combat_phase=self.combat_phase, phasing=self.phasing, attacked_hexes=())

    def describe(self) -> str:
        return f"Combat Phase {self.combat_phase}: {self.phasing}"


@event_type("daisenso.AirdropPlaced")
@dataclass(frozen=True)
class AirdropPlaced:
    """4.1.1: the airborne unit flips to its Airdrop marker, placed within two hexes."""

    unit: str
    hex: str

    def apply(self, state: State) -> State:
        u = state.units[self.unit]
        k = state.data.kinds[u.kind]
        marker = Marker(k.airdrop, self.hex, u.faction, None, u.supplied, u.kind)
        return replace(state.with_units(**{self.unit: None}), markers=(*state.markers, marker))

    def describe(self) -> str:
        return f"{self.unit} airdrops into {self.hex}"


@event_type("daisenso.AttackDeclared")
@dataclass(frozen=True)
class AttackDeclared:
    """4.2.2 step 1: the attackers and the attacker's HQ; every unit in the hex defends (4.2.1)."""

    target: str
    attackers: list[str]
    hq: str | None
    defenders: list[str]
    blitz: bool
    armor: bool
    automatic: bool = False

    def apply(self, state: State) -> State:
        units = {**state.units}
        for uid in self.attackers:
            units[uid] = replace(units[uid], attacked=True)
        if self.hq:
            units[self.hq] = replace(units[self.hq], fought=True)
        for uid in self.defenders:
            units[uid] = replace(units[uid], fought=True)
        combat = Combat(self.target, tuple(self.attackers), self.hq, tuple(self.defenders), None, self.blitz,
                        automatic=self.automatic, armor=self.armor,
                        fronts=tuple((uid, state.units[uid].hex) for uid in self.attackers))
        return replace(state, units=units, combat=combat, attacked_hexes=(*state.attacked_hexes, self.target))

    def describe(self) -> str:
        hq = f", {self.hq} giving Ranged Support" if self.hq else ""
        return f"attack on {self.target} by {', '.join(self.attackers)}{hq}"


@event_type("daisenso.SupportDeclared")
@dataclass(frozen=True)
class SupportDeclared:
    """4.2.2 step 2: the defender's HQ giving Ranged Support (or none)."""

    hq: str | None

    def apply(self, state: State) -> State:
        if self.hq is None:
            return state
        state = state.with_units(**{self.hq: replace(state.units[self.hq], fought=True)})
        return _combat(state, defender_hq=self.hq)

    def describe(self) -> str:
        return f"{self.hq} gives the defence Ranged Support" if self.hq else "no Ranged Support for the defence"


@event_type("daisenso.CombatResolved")
@dataclass(frozen=True)
class CombatResolved:
    """4.2.2 steps 3-5: strengths, odds, every shift with its case, the column, the die, the result as printed and
    as the weather leaves it (4.2.4.1)."""

    target: str
    attack: int
    defence: int
    odds: str
    shifts: list[str]
    column: str
    die: int
    printed: str
    result: str

    def apply(self, state: State) -> State:
        r = state.data.crt.notation.parse(self.result)
        return _combat(state, result=self.result, attacker_losses=r.attacker.losses,
                       defender_losses=r.defender.losses)

    def describe(self) -> str:
        shifts = f" [{'; '.join(self.shifts)}]" if self.shifts else ""
        weather = f" (printed {self.printed})" if self.printed != self.result else ""
        return (f"{self.target}: {self.attack} to {self.defence}, {self.odds}{shifts} -> {self.column}, "
                f"die {self.die}: {self.result or 'no effect'}{weather}")


@event_type("daisenso.CombatStage")
@dataclass(frozen=True)
class CombatStage:
    """Where the combat's results stand: the next result to satisfy (4.2.2 steps 6-8)."""

    stage: str
    retreat: int = 0
    stacks: list[str] = field(default_factory=list)

    def apply(self, state: State) -> State:
        return _combat(state, stage=self.stage, retreat_left=self.retreat, stacks_to_retreat=tuple(self.stacks))

    def describe(self) -> str:
        return f"combat: {self.stage}" + (f" ({self.retreat} hex(es))" if self.retreat else "")


@event_type("daisenso.StackRetreated")
@dataclass(frozen=True)
class StackRetreated:
    """4.2.5: a stack retreats one hex; ground units already there join the retreating force (the defender's)."""

    units: list[str]
    frm: str
    to: str
    joined: list[str]
    defender: bool

    def apply(self, state: State) -> State:
        units = {**state.units}
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.to)
        for uid in self.joined:  # now involved in the combat: no Ranged Support, no attack after it (ruling D32)
            units[uid] = replace(units[uid], fought=True, attacked=units[uid].attacked or not self.defender)
        state = replace(state, units=units)
        c = state.combat
        if self.defender:
            return _combat(state, defenders=(*c.defenders, *self.joined), path=(*c.path, self.to),
                           retreat_left=c.retreat_left - 1)
        return _combat(state, attackers=(*c.attackers, *self.joined),
                       stacks_to_retreat=tuple(h for h in c.stacks_to_retreat if h != self.frm))

    def describe(self) -> str:
        joined = f" ({', '.join(self.joined)} join the retreat)" if self.joined else ""
        return f"{', '.join(self.units)} retreat from {self.frm} to {self.to}{joined}"


@event_type("daisenso.StepLost")
@dataclass(frozen=True)
class StepLost:
    """4.2.6.2: a unit loses a step: it shows ``becomes`` (its other side), or ``replacement`` (a one-step
    ``replacement_kind`` from the Force Pool, or from its Holding Box) takes its place, or it is gone to ``box``
    ("delay", "pool", or "" for out of the game) as ``box_kind``; the Holding Box's unit, where the Force Pool's
    component took the counter's place, is eliminated to ``held_box`` (ruling D84, rules version 20). ``pays`` names
    the result it satisfies."""

    unit: str
    pays: str
    becomes: str | None = None
    replacement: str | None = None
    replacement_kind: str | None = None
    from_holding: bool = False
    box: str | None = None
    box_kind: str | None = None
    held_box: str | None = None
    held_kind: str | None = None

    def apply(self, state: State) -> State:
        u = state.units[self.unit]
        if self.becomes:
            state = state.with_units(**{self.unit: replace(u, kind=self.becomes, lost=u.lost + 1)})
        else:
            left = state.data.kinds[self.replacement_kind].steps if self.replacement else 0
            state = _removed(state.with_units(**{self.unit: None}), u, left)
            if self.replacement:
                new = Unit(self.replacement, self.replacement_kind, u.faction, u.hex, u.supplied, u.blitz,
                           attacked=u.attacked, fought=u.fought)
                state = replace(state.with_units(**{self.replacement: new}), serial=state.serial + 1)
                if not self.from_holding:
                    state = replace(state, force_pool=box_add(state.force_pool, u.faction, self.replacement_kind, -1))
            state = _to_box(state, u.faction, self.box, self.box_kind)
            state = _to_box(state, u.faction, self.held_box, self.held_kind)
        return _pay(state, self.pays, self.unit, self.unit if self.becomes else self.replacement)

    def describe(self) -> str:
        if self.becomes:
            return f"{self.unit} loses a step: now {self.becomes}"
        where = {"delay": "to the Delay Box", "pool": "to the Force Pool"}.get(self.box or "", "out of the game")
        if self.replacement:
            gone = f"{self.box_kind} {where}"
            if self.held_kind:
                held = {"delay": "to the Delay Box", "pool": "to the Force Pool"}[self.held_box]
                gone += f", {self.held_kind} from its Holding Box {held}"
            return f"{self.unit} loses a step: {self.replacement} ({self.replacement_kind}) takes its place, {gone}"
        return f"{self.unit} is eliminated ({where})"


def _removed(state: State, u: Unit, steps_left: int) -> State:
    """A counter gone from the map through step losses, for the losses the analysis counts."""
    return replace(state, removed={**state.removed, u.id: (u.faction, u.kind, steps_left)})


def _pay(state: State, pays: str, unit: str, replacement: str | None) -> State:
    c = state.combat
    if c is None:
        return state
    def swap(ids):
        return tuple(replacement if x == unit else x for x in ids if x != unit or replacement)

    # A unit taking a broken-down unit's place stays in its stack's force; an HQ's replacement far from the
    # fight is not part of it (4.2.5.3 example: the Kiangsu Res in w4623).
    c = replace(c, attackers=swap(c.attackers), defenders=swap(c.defenders),
                attacker_hq=None if c.attacker_hq == unit else c.attacker_hq,
                defender_hq=None if c.defender_hq == unit else c.defender_hq)
    if pays == "attacker":
        c = replace(c, attacker_losses=c.attacker_losses - 1, attacker_lost=c.attacker_lost + 1)
    elif pays in ("ad", "attacker-any"):
        c = replace(c, attacker_lost=c.attacker_lost + 1)
    elif pays == "defender":
        c = replace(c, defender_losses=c.defender_losses - 1)
    elif pays == "retreat":
        c = replace(c, retreat_left=c.retreat_left - 1, converted=c.converted + 1)
    return replace(state, combat=c)


@event_type("daisenso.ResultUnsatisfied")
@dataclass(frozen=True)
class ResultUnsatisfied:
    """4.2.6, 4.2.8: results the defending force could not satisfy (nothing left to lose)."""

    count: int
    what: str  # "retreat" or "losses"

    def apply(self, state: State) -> State:
        owed = {"retreat_left": 0} if self.what == "retreat" else {"defender_losses": 0}
        return _combat(state, unsatisfied=state.combat.unsatisfied + self.count, **owed)

    def describe(self) -> str:
        return f"{self.count} {self.what} result(s) left unsatisfied"


@event_type("daisenso.ExploitationOpened")
@dataclass(frozen=True)
class ExploitationOpened:
    """4.2.8: the Exploitation Distance of this combat, before each unit's MA."""

    distance: int

    def apply(self, state: State) -> State:
        return _combat(state, exploit_distance=self.distance, stage="advance")

    def describe(self) -> str:
        return f"Exploitation Distance {self.distance}"


@event_type("daisenso.UnitAdvanced")
@dataclass(frozen=True)
class UnitAdvanced:
    """4.2.7 (one hex, the defending hex) or 4.2.8 (a path from it)."""

    unit: str
    path: list[str]

    def apply(self, state: State) -> State:
        u = state.units[self.unit]
        c = state.combat
        return replace(state.with_units(**{self.unit: replace(u, hex=self.path[-1])}),
                       combat=replace(c, attackers=tuple(x for x in c.attackers if x != self.unit)))

    def describe(self) -> str:
        verb = "advances into" if len(self.path) == 1 else "exploits through"
        return f"{self.unit} {verb} {' - '.join(self.path)}"


@event_type("daisenso.CombatEnded")
@dataclass(frozen=True)
class CombatEnded:
    target: str

    def apply(self, state: State) -> State:
        return replace(state, combat=None)

    def describe(self) -> str:
        return f"combat at {self.target} over"


@event_type("daisenso.MarkersToDelayBox")
@dataclass(frozen=True)
class MarkersToDelayBox:
    """4.1.3.1, 4.1.4, 4.2.2: markers in ``hex`` of ``kinds`` go to their owner's Delay Box."""

    hex: str
    kinds: list[str]
    faction: str

    def apply(self, state: State) -> State:
        keep, gone = [], []
        for m in state.markers:
            (gone if m.hex == self.hex and m.kind in self.kinds and m.faction == self.faction else keep).append(m)
        delay = state.delay_box
        for m in gone:
            delay = box_add(delay, m.faction, m.origin or m.kind)
        return replace(state, markers=tuple(keep), delay_box=delay)

    def describe(self) -> str:
        return f"{', '.join(self.kinds)} in {self.hex} to the {self.faction} Delay Box"


@event_type("daisenso.AirdropToDelayBox")
@dataclass(frozen=True)
class AirdropToDelayBox:
    """4.1.4: one Airdrop marker of ``faction`` in ``hex`` (a supplied one, or an unsupplied one) goes to its Delay
    Box as the airborne unit on its other side, another marker in the hex staying (ruling D51)."""

    hex: str
    faction: str
    supplied: bool = True

    def apply(self, state: State) -> State:
        marker = next(m for m in state.markers if m.hex == self.hex and m.faction == self.faction
                      and m.kind in AIRDROPS and m.supplied == self.supplied)
        return replace(state, markers=tuple(m for m in state.markers if m is not marker),
                       delay_box=box_add(state.delay_box, self.faction, marker.origin or marker.kind))

    def describe(self) -> str:
        what = "an Airdrop marker" if self.supplied else "an unsupplied Airdrop marker"
        return f"{what} in {self.hex} to the {self.faction} Delay Box"


@event_type("daisenso.UnitLanded")
@dataclass(frozen=True)
class UnitLanded:
    """4.1.3: from the Beachhead to the Land hex across its Beachhead Hexside."""

    unit: str
    hex: str

    def apply(self, state: State) -> State:
        return state.with_units(**{self.unit: replace(state.units[self.unit], hex=self.hex)})

    def describe(self) -> str:
        return f"{self.unit} lands in {self.hex}"


@event_type("daisenso.MarkerPlaced")
@dataclass(frozen=True)
class MarkerPlaced:
    """4.1.3.1: a Japanese Detachment marker from the Axis Force Pool lands."""

    kind: str
    hex: str
    faction: str

    def apply(self, state: State) -> State:
        beach = next((m for m in state.markers if m.kind == "snlf-beachhead-0" and m.toward == self.hex
                      and not m.landed), None)  # one Special SNLF Landing a marker
        markers = tuple(replace(m, landed=True) if m is beach else m for m in state.markers)
        return replace(state, markers=(*markers, Marker(self.kind, self.hex, self.faction)),
                       force_pool=box_add(state.force_pool, self.faction, self.kind, -1))

    def describe(self) -> str:
        return f"{self.kind} lands in {self.hex}"


@event_type("daisenso.AirdropLanded")
@dataclass(frozen=True)
class AirdropLanded:
    """4.1.4: a one-step infantry unit from the Force Pool takes the Airdrop marker's place."""

    hex: str
    kind: str
    unit: str
    faction: str

    def apply(self, state: State) -> State:
        marker = next(m for m in state.markers if m.hex == self.hex and m.faction == self.faction
                      and m.kind in AIRDROPS)
        rest = tuple(m for m in state.markers if m is not marker)
        new = Unit(self.unit, self.kind, self.faction, self.hex)
        return replace(state.with_units(**{self.unit: new}), markers=rest, serial=state.serial + 1,
                       force_pool=box_add(state.force_pool, self.faction, self.kind, -1),
                       delay_box=box_add(state.delay_box, self.faction, marker.origin or marker.kind))

    def describe(self) -> str:
        return f"Airdrop in {self.hex} lands as {self.unit} ({self.kind})"


@event_type("daisenso.CvStrikesReturned")
@dataclass(frozen=True)
class CvStrikesReturned:
    """4.1.5: every CV Strike in a hex to its Naval Zone's Used Box."""

    units: list[str]

    def apply(self, state: State) -> State:
        used = {k: tuple(v) for k, v in state.used_box.items()}
        for uid in self.units:
            u = state.units[uid]
            used[u.zone] = (*used.get(u.zone, ()), u.kind)
        return replace(state.with_units(**dict.fromkeys(self.units)), used_box=used)

    def describe(self) -> str:
        return f"CV Strikes {', '.join(self.units)} return to their Used Boxes"


@event_type("daisenso.ConvoyReturned")
@dataclass(frozen=True)
class ConvoyReturned:
    """4.3 step 1: a Troop Convoy from the Used Box to the Convoys Box."""

    faction: str
    zone: str

    def apply(self, state: State) -> State:
        key = f"{self.faction}/{self.zone}"
        box = state.convoys[key]
        return replace(state, convoys={**state.convoys, key: {"convoys": box["convoys"] + 1, "used": box["used"] - 1}})

    def describe(self) -> str:
        return f"{self.faction} Troop Convoy back to the {self.zone} Convoys Box"


@event_type("daisenso.MarkersCleared")
@dataclass(frozen=True)
class MarkersCleared:
    """4.3 steps 2-3: the phasing faction's Blitz, Totsugeki, Failure and Mobilizing markers (and the Axis's SNLF
    Beachhead-0) are set aside; its units stop being Blitz-enabled (D21)."""

    faction: str
    kinds: list[str]

    def apply(self, state: State) -> State:
        markers = tuple(m for m in state.markers if not (m.faction == self.faction and m.kind in self.kinds))
        units = {uid: replace(u, blitz=False) if u.faction == self.faction else u for uid, u in state.units.items()}
        mobilizing = tuple(m for m in state.mobilizing if m[1] != self.faction)
        return replace(state, markers=markers, units=units, mobilizing=mobilizing)

    def describe(self) -> str:
        return f"{self.faction} markers set aside: {', '.join(self.kinds)}"


@event_type("daisenso.UnitEliminated")
@dataclass(frozen=True)
class UnitEliminated:
    """4.3 step 3 (Axis units at sea) and D15 (overstacked at the end of a Combat Segment); ``kind`` is the counter's
    where a flip made it show another (ruling D86, rules version 20)."""

    unit: str
    box: str
    case: str
    kind: str | None = None

    def apply(self, state: State) -> State:
        u = state.units[self.unit]
        return _to_box(_removed(state.with_units(**{self.unit: None}), u, 0), u.faction, self.box, self.kind or u.kind)

    def describe(self) -> str:
        return f"{self.unit} eliminated ({self.case})"


__all__ = ["AirdropLanded", "AirdropPlaced", "AirdropToDelayBox", "AttackDeclared", "CombatEnded", "CombatResolved",
           "CombatStage", "ConvoyReturned", "CvStrikesReturned", "ExploitationOpened", "MarkerPlaced", "MarkersCleared",
           "MarkersToDelayBox", "PhaseBegan", "ResultUnsatisfied", "StackRetreated", "StepBegan", "StepLost",
           "SupportDeclared", "UnitAdvanced", "UnitEliminated", "UnitLanded"]
