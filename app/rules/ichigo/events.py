"""Ichi-Go event types (docs/architecture.md practice 3). Each is a fact that applies itself to a state (`apply`) and
says what happened in the history (`describe`). The decisions, phase ends and game end are the shared events of
app/rules/engine/events.py (stored before as "ichigo.<Name>", names they still read by), which change the state
through its `require`, `decided`, `after_phase` and `ended`.

Chinese regulars on the map are named by a public counter handle ("C07"): which unit a handle is stays hidden
from both players (6.6, 11.27) until a `Revealed` event; only `UnitDrawn` (never shown to a player, see
rules.visible) links a handle to the unit drawn."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_alias, event_type
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded, PhaseEnded
from app.rules.engine.state import replace
from app.rules.ichigo.state import State, _enter, _unit, phase_name, raw_unit

for _shared in (DecisionRequired, DecisionMade, PhaseEnded, GameEnded):
    event_alias(f"ichigo.{_shared.__name__}", _shared)  # the names Ichi-Go stored them under before the engine


def describe_phase_end(e: PhaseEnded) -> str:
    """Ichi-Go's line for the shared PhaseEnded: the phase by its name in the sequence of play (5.1)."""
    return f"end of {phase_name(e.phase)}, Turn {e.turn}"


def _modifiers(mods: list[str]) -> str:
    """The die roll modifiers of a table roll as the log shows them: ", +1 all GEARR Japanese, ..." """
    return "".join(f", {m}" for m in mods)


@event_type("ichigo.UnitDrawn")
@dataclass(frozen=True)
class UnitDrawn:
    """Ichi-Go 3.3, 9.7: a Chinese regular drawn blind from the pool, placed untried as counter `handle`."""

    handle: str
    unit: str
    hex: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        raw = raw_unit(state.data, self.unit)
        status = "map" if state.phase == "setup" else "drawn"
        units[self.handle] = _unit(raw, self.handle, hex=self.hex or None, status=status, tried=False)
        pool = list(state.draw_pool)
        pool.remove(self.unit)
        return replace(state, units=units, draw_pool=tuple(pool), next_handle=state.next_handle + 1)

    def describe(self) -> str:
        return f"Chinese counter {self.handle} drawn blind" + (f" at {self.hex}" if self.hex else "")


@event_type("ichigo.Revealed")
@dataclass(frozen=True)
class Revealed:
    """Ichi-Go 11.27: an untried counter flipped in combat."""

    handle: str
    unit: str
    name: str
    strength: int

    def apply(self, state: State) -> State:
        units = dict(state.units)
        units[self.handle] = replace(units[self.handle], tried=True)
        return replace(state, units=units)

    def describe(self) -> str:
        return f"{self.handle} revealed: {self.name}, {self.strength} (11.27)"


@event_type("ichigo.ReturnedToPool")
@dataclass(frozen=True)
class ReturnedToPool:
    """Ichi-Go 2.14, 9.7, 11.27: a Chinese regular eliminated (or revealed at zero) goes back to the pool."""

    handle: str
    reason: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        u = units.pop(self.handle)
        return replace(state, units=units, draw_pool=tuple(sorted(state.draw_pool + (u.ref,))))

    def describe(self) -> str:
        return f"{self.handle} back to the Chinese pool: {self.reason}"


@event_type("ichigo.OrderDeclared")
@dataclass(frozen=True)
class OrderDeclared:
    """Ichi-Go 5.5: `nation` moves then fights ("move-fight") or fights then moves, declared by `side`."""

    side: str
    nation: str
    order: str

    def apply(self, state: State) -> State:
        return replace(state, plans={**state.plans, self.nation: self.order})

    def describe(self) -> str:
        return f"{self.side} declare {self.nation}: {self.order} (5.5)"


@event_type("ichigo.MovementRolled")
@dataclass(frozen=True)
class MovementRolled:
    """Ichi-Go 10.14-10.17, 7.3: the movement allowance of a stack for this phase."""

    units: list[str]
    mp: int
    how: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in state.mover:
            if uid not in self.units:
                units[uid] = replace(units[uid], done=True)
        start = state.units[self.units[0]].hex
        # 10.14: the stack this roll is for: the units in the hex that have not yet moved this phase
        stack = tuple(sorted(u.id for u in state.at(start) if u.mp < 0 and not u.done))
        for uid in self.units:
            units[uid] = replace(units[uid], mp=float(self.mp), strategic=self.how == "strategic")
        return replace(state, units=units, mover=tuple(self.units),
                       stack_rolls=state.stack_rolls + ((start, self.how, self.mp, stack),))

    def describe(self) -> str:
        return f"{', '.join(self.units)}: {self.mp} MP ({self.how})"


@event_type("ichigo.StackJoined")
@dataclass(frozen=True)
class StackJoined:
    """Ichi-Go 10.3 (ruling E50, rules version 13): units that have not moved join the stack under way in its hex, on
    their own movement factor for the phase (10.14-10.17: rolled, or the roll already made in their hex, E16)."""

    units: list[str]
    mp: int
    how: str
    rolled: bool

    def apply(self, state: State) -> State:
        units = dict(state.units)
        start = state.units[self.units[0]].hex
        stack = tuple(sorted(u.id for u in state.at(start) if u.mp < 0 and not u.done))
        for uid in self.units:
            units[uid] = replace(units[uid], mp=float(self.mp), strategic=self.how == "strategic")
        rolls = state.stack_rolls + ((start, self.how, self.mp, stack),) if self.rolled else state.stack_rolls
        return replace(state, units=units, mover=state.mover + tuple(self.units), stack_rolls=rolls)

    def describe(self) -> str:
        return f"{', '.join(self.units)} join the stack under way: {self.mp} MP ({self.how}, 10.3)"


@event_type("ichigo.UnitsMoved")
@dataclass(frozen=True)
class UnitsMoved:
    units: list[str]
    path: list[str]
    mp: float

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in state.mover:  # 10.3: units of the stack under way that stay behind have ended their move
            if uid not in self.units:
                units[uid] = replace(units[uid], done=True)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.path[-1], mp_used=units[uid].mp_used + self.mp)
        side = units[self.units[0]].side
        mover = state.mover if set(state.mover) == set(self.units) else tuple(self.units)
        st = _enter(replace(state, units=units, mover=mover), side, self.path[1:], moving=True)
        if side == "japanese" and state.b29_hex:  # 8.9: moving within range of the B-29 marker
            rng = int(state.data.scenario["causeway"]["b29_range"])
            if any(state.data.distance(state.b29_hex, h) <= rng for h in self.path):
                st = replace(st, b29_units=st.b29_units | frozenset(self.units))
        return st

    def describe(self) -> str:
        return f"{', '.join(self.units)} move {' - '.join(self.path)} ({self.mp:g} MP)"


@event_type("ichigo.BattleResolved")
@dataclass(frozen=True)
class BattleResolved:
    """Ichi-Go 11.6-11.23: one attack, its arithmetic and result (losses after 11.23 doubling)."""

    hex: str
    side: str
    attackers: list[str]
    defenders: list[str]
    attack: int
    defence: int
    odds: str
    shifts: list[str]
    column: str
    roll: int
    result: str
    attacker_losses: int
    defender_losses: int
    eliminated: bool
    tanks: list[str] = field(default_factory=list)
    special_forces: bool = False

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.attackers:
            if uid in units:
                units[uid] = replace(units[uid], attacked=True, done=True)
        return replace(state, units=units, attacked_hexes=state.attacked_hexes + (self.hex,),
                       mover=() if set(state.mover) & set(self.attackers) else state.mover)

    def describe(self) -> str:
        losses = f"(attacker {self.attacker_losses}, defender {'all' if self.eliminated else self.defender_losses})"
        if self.column == "-":  # 11.27: every defender (or attacker) zero, settled without the table or a die
            outcome = "no effect" if self.result == "-" else self.result
            return f"attack on {self.hex}: {'; '.join(self.shifts)}, no die rolled: {outcome} {losses}"
        return (f"attack on {self.hex}: {self.attack}:{self.defence} = {self.odds}, shifts "
                f"{'; '.join(self.shifts) or 'none'} -> {self.column}, die {self.roll}: {self.result} {losses}")


@event_type("ichigo.StepsLost")
@dataclass(frozen=True)
class StepsLost:
    """One step off each unit listed (a unit listed twice loses two); eliminated units leave the map."""

    units: list[str]
    reason: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            u = units[uid]
            steps = u.steps - 1
            units[uid] = replace(u, steps=steps, status="dead", hex=None) if steps <= 0 else replace(u, steps=steps)
        return replace(state, units=units)

    def describe(self) -> str:
        return f"steps lost: {', '.join(self.units)}"


@event_type("ichigo.SupportExpended")
@dataclass(frozen=True)
class SupportExpended:
    """Ichi-Go 11.17, 11.28: committed tank regiments / the 1st SF Group are eliminated after the battle."""

    units: list[str]

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], status="dead", steps=0)
        return replace(state, units=units)

    def describe(self) -> str:
        return f"{', '.join(self.units)} eliminated after the battle (11.17, 11.28)"


@event_type("ichigo.UnitsAdvanced")
@dataclass(frozen=True)
class UnitsAdvanced:
    """Ichi-Go 11.24."""

    units: list[str]
    hex: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.hex)
        if not self.units:
            return state
        return _enter(replace(state, units=units), units[self.units[0]].side, [self.hex])

    def describe(self) -> str:
        return f"{', '.join(self.units)} advance into {self.hex}"


@event_type("ichigo.AirpowerRolled")
@dataclass(frozen=True)
class AirpowerRolled:
    """Ichi-Go 8.1, 8.7: modified rolls and the markers won (0 on a reroll or none); from rules version 17 (ruling
    E60) each die as rolled and its modifiers named (`allied_die` None: the Allies hold no airbase and do not roll;
    an event of an older game has no `japanese_die` and reads as it did)."""

    japanese: int
    allied: int
    winner: str | None
    markers: int
    japanese_die: int | None = None
    allied_die: int | None = None
    japanese_mods: list[str] = field(default_factory=list)
    allied_mods: list[str] = field(default_factory=list)

    def apply(self, state: State) -> State:
        return replace(state, air_side=self.winner, air_markers=self.markers, air_rolled=True)

    def describe(self) -> str:
        outcome = f"{self.winner} get {self.markers}" if self.winner else "no markers"
        if self.japanese_die is None:
            return f"airpower: Japanese {self.japanese}, Allied {self.allied} -> {outcome}"
        allied = "no die" if self.allied_die is None else f"die {self.allied_die}"
        return (f"airpower: Japanese die {self.japanese_die}{_modifiers(self.japanese_mods)} = {self.japanese}, "
                f"Allied {allied}{_modifiers(self.allied_mods)} = {self.allied} -> {outcome}")


@event_type("ichigo.AirpowerPlaced")
@dataclass(frozen=True)
class AirpowerPlaced:
    side: str
    hexes: list[str]

    def apply(self, state: State) -> State:
        return replace(state, air_hexes=state.air_hexes + tuple(self.hexes),
                       air_markers=state.air_markers - len(self.hexes))

    def describe(self) -> str:
        return f"{self.side} airpower over {', '.join(self.hexes)}"


@event_type("ichigo.ReinforcementsEntered")
@dataclass(frozen=True)
class ReinforcementsEntered:
    """Ichi-Go 9.1, 9.3: Japanese units entering at a hex."""

    units: list[str]
    hex: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.hex, status="map", done=True)
        return _enter(replace(state, units=units), units[self.units[0]].side, [self.hex])

    def describe(self) -> str:
        return f"{', '.join(self.units)} enter at {self.hex}"


@event_type("ichigo.ChineseReinforcementRolled")
@dataclass(frozen=True)
class ChineseReinforcementRolled:
    """Ichi-Go 9.7: the die, whether halved (all airbases Japanese) and the units to draw."""

    roll: int
    halved: bool
    count: int

    def apply(self, state: State) -> State:
        return replace(state, reinforced=True)

    def describe(self) -> str:
        why = ", halved and rounded up as every USAAF airbase is Japanese" if self.halved else ""  # ruling E62
        return f"Chinese reinforcements (9.7): die {self.roll}{why} -> {self.count}"


@event_type("ichigo.UnitsWithdrawn")
@dataclass(frozen=True)
class UnitsWithdrawn:
    """Ichi-Go 9.2: units leave the map; `to` is "removed" or "14aa-pool"."""

    units: list[str]
    to: list[str]

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid, to in zip(self.units, self.to, strict=True):
            units[uid] = replace(units[uid], hex=None, status=to)
        return replace(state, units=units, reinforced=True)

    def describe(self) -> str:
        gone = [f"{u} {'leaves the game' if to == 'removed' else 'goes to the 14AA pool'}"
                for u, to in zip(self.units, self.to, strict=True)]
        return f"withdrawn (9.2): {'; '.join(gone)}"


@event_type("ichigo.FormosaReleased")
@dataclass(frozen=True)
class FormosaReleased:
    """Ichi-Go 9.3: two Formosa Garrison divisions become mainland reinforcements this turn; 5.3 items 5-6
    (ruling E3): after the Formosa landing the Formosa Garrison deploys on Formosa (`status` "formosa-deploy"),
    the Kwantung Army enters by the 9.1 hexes."""

    units: list[str]
    status: str = "pool"

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.units:
            units[uid] = replace(units[uid], status=self.status, entry_turn=state.turn)
        return replace(state, units=units)

    def describe(self) -> str:
        what = {"formosa-deploy": "deploy on Formosa (5.3 item 5)", "pool": "are Japanese reinforcements"}
        return f"{', '.join(self.units)} {what.get(self.status, self.status)}"


@event_type("ichigo.BrigadeAbsorbed")
@dataclass(frozen=True)
class BrigadeAbsorbed:
    """Ichi-Go 9.5."""

    brigade: str
    division: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        units[self.brigade] = replace(units[self.brigade], status="removed", hex=None)
        units[self.division] = replace(units[self.division], steps=units[self.division].steps_max)
        return replace(state, units=units)

    def describe(self) -> str:
        return f"{self.division} absorbs {self.brigade} and returns to full strength (9.5)"


@event_type("ichigo.CausewayChecked")
@dataclass(frozen=True)
class CausewayChecked:
    """Ichi-Go 5.2: the one roll on the Causeway or Philippines Table."""

    roll: int
    modifiers: list[str]
    total: int
    launched: bool

    def apply(self, state: State) -> State:
        return replace(state, causeway=self.launched)

    def describe(self) -> str:
        return (f"Causeway or Philippines (5.2): die {self.roll}{_modifiers(self.modifiers)} = {self.total} -> "
                f"{'Causeway launched' if self.launched else 'Philippines'}")


@event_type("ichigo.CollapseChecked")
@dataclass(frozen=True)
class CollapseChecked:
    """Ichi-Go 4.1: the one roll on the China Collapse Table."""

    roll: int
    modifiers: list[str]
    total: int
    collapsed: bool

    def apply(self, state: State) -> State:
        return replace(state, collapse_checked=True)

    def describe(self) -> str:
        return (f"China Collapse (4.1): die {self.roll}{_modifiers(self.modifiers)} = {self.total} -> "
                f"{'China collapses' if self.collapsed else 'China fights on'}")


@event_type("ichigo.B29Placed")
@dataclass(frozen=True)
class B29Placed:
    """Ichi-Go 8.9."""

    hex: str

    def apply(self, state: State) -> State:
        rng = int(state.data.scenario["causeway"]["b29_range"])
        hit = frozenset(u.id for u in state.on_map("japanese") if state.data.distance(self.hex, u.hex) <= rng)
        return replace(state, b29_used=True, b29_hex=self.hex, b29_ok=False, b29_units=state.b29_units | hit)

    def describe(self) -> str:
        return f"B-29 raid on {self.hex}: Japanese units within range are out of supply this turn (8.9)"


@event_type("ichigo.GarrisonDestroyed")
@dataclass(frozen=True)
class GarrisonDestroyed:
    """Ichi-Go 11.29: the intrinsic garrison of an initial Japanese city is eliminated."""

    hex: str

    def apply(self, state: State) -> State:
        return replace(state, garrison_lost=state.garrison_lost | {self.hex})

    def describe(self) -> str:
        return f"the intrinsic garrison of {self.hex} is destroyed (11.29)"


@event_type("ichigo.USLanded")
@dataclass(frozen=True)
class USLanded:
    """Ichi-Go 5.3 items 4 and 12, 10.11: US divisions come ashore with a beachhead marker (`where`); the
    Japanese or Chinese units that held the port are moved to the hex `to` the Allied player chose (ruling E10)."""

    units: list[str]
    hex: str
    where: str
    displaced: list[str] = field(default_factory=list)
    to: str = ""

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid in self.displaced:
            units[uid] = replace(units[uid], hex=self.to)
        # 9.0 (rules version 13, ruling E48): a reinforcement landing at a beachhead in the US Movement Phase (9.8,
        # 8.11) operates normally at once, so it may still move in that phase; the Phase I landings and transfers
        # (5.3 items 4, 12; 10.11) move in the phases after (before version 13 every landed unit's move was done)
        moves_now = self.where == "reinforcement" and state.since(13)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.hex, status="map", done=not moves_now)
        landed = self.where in ("formosa", "mainland")
        heads = {**state.beachheads, self.where: self.hex} if landed else state.beachheads
        st = replace(state, units=units, beachheads=heads)
        if self.displaced:  # 3.5: the displaced units take control of the hex they are moved to
            st = _enter(st, units[self.displaced[0]].side, [self.to])
        return _enter(st, "allied", [self.hex])

    def describe(self) -> str:
        pushed = f"; {', '.join(self.displaced)} pushed out to {self.to} (5.3 item 12)" if self.displaced else ""
        where = {"formosa": "the Formosa beachhead", "mainland": "the mainland beachhead"}.get(self.where,
                                                                                           "a beachhead")
        return f"US {', '.join(self.units)} land at {self.hex}, {where}{pushed}"


@event_type("ichigo.B29Rolled")
@dataclass(frozen=True)
class B29Rolled:
    """Ichi-Go 8.9: after Causeway, the Allied roll at the start of each turn for a B-29 raid."""

    roll: int
    allowed: bool

    def apply(self, state: State) -> State:
        return replace(state, b29_rolled=state.turn, b29_ok=self.allowed)

    def describe(self) -> str:
        return f"B-29 roll {self.roll}: {'a raid this turn' if self.allowed else 'no raid this turn'} (8.9)"


@event_type("ichigo.ShipmentRolled")
@dataclass(frozen=True)
class ShipmentRolled:
    """Ichi-Go 5.3 items 7-9, 9.4: 14AA units picked blind (die - 1; 0 ends 14AA arrivals) and the survival
    roll of each (`fates`: unit -> "full" | "reduced" | "eliminated" | "sf")."""

    roll: int
    count: int
    fates: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        units = dict(state.units)
        for uid, fate in self.fates.items():
            u = units[uid]
            if fate == "eliminated":
                units[uid] = replace(u, status="dead", steps=0)
            elif fate == "sf":
                units[uid] = replace(u, status="sf-ready")
            else:
                units[uid] = replace(u, status="landing", steps=1 if fate == "reduced" else u.steps_max)
        return replace(state, units=units, aa14_closed=state.aa14_closed or self.count == 0, aa14_turn=state.turn)

    def describe(self) -> str:
        # ruling E63: the die less one (9.4), and the 1st SF Group set aside unrolled (11.28)
        fates = ", ".join(f"{u} {'set aside, no survival roll (11.28)' if f == 'sf' else f}"
                          for u, f in sorted(self.fates.items())) or "none"
        tail = "; no more 14AA units (5.3 item 8)" if self.count == 0 else ""
        return f"14AA shipment (9.4): die {self.roll} - 1 -> {self.count} unit(s): {fates}{tail}"


@event_type("ichigo.AerialSupplyPlaced")
@dataclass(frozen=True)
class AerialSupplyPlaced:
    """Ichi-Go 7.8: the US Aerial Supply Marker on an otherwise out-of-supply US stack."""

    hex: str

    def apply(self, state: State) -> State:
        return replace(state, aerial_hex=self.hex, aerial_turn=state.turn)

    def describe(self) -> str:
        return f"US Aerial Supply Marker placed on {self.hex} (7.8)"


@event_type("ichigo.Airlifted")
@dataclass(frozen=True)
class Airlifted:
    """Ichi-Go 8.10, 8.11: one unit flown from a friendly city to another (or the 11th Airborne's airdrop)."""

    unit: str
    origin: str
    hex: str
    drop: bool = False

    def apply(self, state: State) -> State:
        units = dict(state.units)
        # 8.10: after the transfer the unit may still roll for movement; 8.11: a dropped unit then moves normally
        units[self.unit] = replace(units[self.unit], hex=self.hex, status="map", done=False, mp=-1.0)
        st = replace(state, units=units, airlift_turn=state.turn)
        if self.drop:  # 8.11: the drop uses the turn's Aerial Supply Marker; it lands with it (version 4, E25)
            st = replace(st, airdropped=True, aerial_turn=state.turn,
                         aerial_hex=self.hex if state.since(4) else state.aerial_hex)
        return _enter(st, "allied", [self.hex])

    def describe(self) -> str:
        how = "airdropped on" if self.drop else f"airlifted from {self.origin} to"
        return f"{self.unit} {how} {self.hex} ({'8.11' if self.drop else '8.10'})"


@event_type("ichigo.NavalTransfer")
@dataclass(frozen=True)
class NavalTransfer:
    """Ichi-Go 10.11: US units moved by sea from one beachhead to the other."""

    units: list[str]
    origin: str
    hex: str

    def apply(self, state: State) -> State:
        units = dict(state.units)
        sailed = state.since(14)  # ruling E51: a unit sails once a Phase I (its `done` mark, cleared as it ends)
        for uid in self.units:
            units[uid] = replace(units[uid], hex=self.hex, done=sailed)
        return replace(state, units=units)

    def describe(self) -> str:
        return f"US {', '.join(self.units)} sail from {self.origin} to {self.hex} (10.11)"
