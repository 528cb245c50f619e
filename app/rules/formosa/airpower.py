"""Airpower and naval gunfire in play (16.0-16.6, 17.0, 18.0): the events of the strike stage and the air and LP
choices in combat, and what a position's air missions do to movement and combat: ground support and B-29
suppression shifts (16.3, 16.5), the interdiction surcharge (16.4), suppressed hexes no Japanese unit enters or
leaves (16.5 DS). The numbers come from the pure functions of strategic.py; the steps are in strike.py.

A mission is named as in 16.1 ("air-superiority", "tactical", "interdiction", "kamikaze", "b29"); Commonwealth
TAC points fly their own missions, named with "cw-" ("cw-tactical"), since they support only Commonwealth units
(16.0 Important). Air points are counted, not tracked (2.5): a side's pool in `State.air` holds every point it
owns, `State.strike.missions` how many of them fly each mission this GT."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.events.registry import event_type
from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.formosa import lines, strategic
from app.rules.formosa.state import State, Strike, other
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.shifts import Shift

H = Hex.parse
NAMES = {"allied": "Allied", "japanese": "Japanese"}


def pool(side: str, mission: str) -> str:
    """The `State.air` key the points of `mission` come from."""
    if mission == "kamikaze" or mission == "b29":
        return mission
    if mission.startswith("cw-"):
        return "cw-tac"
    return f"{side}-tac"


def nationality(side: str, mission: str) -> str:
    return "cw" if mission.startswith("cw-") else ("us" if side == "allied" else "japanese")


def assigned(state: State, side: str, mission: str) -> int:
    return state.strike.missions.get(side, {}).get(mission, 0)


def placed(state: State, side: str, nat: str, what: str = "support") -> int:
    rows = state.strike.support if what == "support" else [("allied", *r) for r in state.strike.interdicted]
    return sum(r[3] for r in rows if r[0] == side and r[2] == nat)


def interdicted(state: State) -> dict[str, int]:
    """Air points interdicting each hex (16.4)."""
    out: dict[str, int] = {}
    for h, _nat, points in state.strike.interdicted:
        out[h] = out.get(h, 0) + points
    return out


def surcharge(state: State) -> dict[Hex, float]:
    """16.4: the extra MP a Japanese unit pays to enter each interdicted hex (strategic.interdiction_surcharge)."""
    return strategic.interdiction_surcharge(state.data, {H(h): p for h, p in interdicted(state).items()})


def allied_tac_on(state: State, hex: str) -> dict[str, int]:
    """The Allied tactical air points on `hex` now, by nationality: ground support that has not flown its combat
    (16.3) and interdiction (16.4), both on the map until they return; 13.1 allows two, of one nationality."""
    out: dict[str, int] = {}
    rows = [(h, nat, p) for s, h, nat, p in state.strike.support if s == "allied" and (s, h) not in
            state.strike.flown] + list(state.strike.interdicted)
    for h, nat, p in rows:
        if h == hex:
            out[nat] = out.get(nat, 0) + p
    return out


def other_nations_air(state: State, uid: str, hex: str) -> int:
    """Ruling F121 (rules version 11): the Allied air points on `hex` of the other nation than Allied ground unit
    `uid`'s, with which it may not stack (13.1 Important, 5.1 item 1, F116); 0 for a Japanese unit."""
    if not state.since(11) or state.units[uid].side != "allied":
        return 0
    nat = state.spec(uid).nationality
    return sum(p for n, p in allied_tac_on(state, hex).items() if n != nat)


def b29_hexes(state: State) -> frozenset[str]:
    """Where the B-29 stands on the map this GT: the hex it struck, whatever the result, until the Air Return
    Phase (16.5); a hex it suppressed is one (a position may name only that, ruling F104)."""
    return frozenset(state.strike.suppressed) | ({state.strike.b29_hex} if state.strike.b29_hex else frozenset())


def forbidden(state: State) -> dict[Hex, str]:
    """16.5 DS item 4: no Japanese unit enters a hex the B-29 suppressed."""
    return {H(h): "Formosa 16.5" for h in state.strike.suppressed}


def air_shifts(state: State, side: str, hexes: list[str], attackers) -> list[Shift]:
    """The shifts airpower gives a ground attack (15.4.1): ground support placed on the defending hexes, one right
    a point, counted when a ground unit of the points' nationality attacks (16.3, 16.0 Important, 5.1 item 3),
    once: it returns after its combat (16.3, F86); a B-29
    suppression of a defending hex, one right for the Allies in the ensuing Allied Combat Phase (not in an assault
    of the Invasion Phase before it); a Japanese attack out of a suppressed hex, one left (16.5 DS)."""
    out = []
    nats = {state.spec(u.id).nationality for u in attackers}
    support = sum(p for s, h, nat, p in state.strike.support
                  if s == side and h in hexes and nat in nats and (s, h) not in state.strike.flown)
    if support:
        out.append(Shift(support, "Formosa 16.3", "ground support"))
    ensuing = state.step != "invasion" or not state.since(4)  # 16.5: not an assault before it (F105)
    if side == "allied" and ensuing and any(h in state.strike.suppressed for h in hexes):
        out.append(Shift(1, "Formosa 16.5", "B-29 suppression of the defender"))
    if side == "japanese" and any(u.where in state.strike.suppressed for u in attackers):
        out.append(Shift(-1, "Formosa 16.5", "attacking out of a B-29 suppressed hex"))
    return out


def gunfire_refusal(state: State, side: str, n: int, units, landing: bool = False,
                    cw: int = 0) -> tuple[str, str] | None:
    """17.0, 18.0: Allied gunfire (`n` US, `cw` Commonwealth units), at most two a combat, from the Staging Area,
    each nationality's only with a participating ground unit of its own (16.0 Important, 5.1 item 3), in an
    opposed landing (item 1) or with a participating Allied unit in a coastal hex (item 2), not after the mobile
    fleet withdrew it this GT; (case, message) or None."""
    limit = state.data.charts["stacking"]["gunfire_per_combat"]
    if side != "allied":
        return ("Formosa 17.0, ruling F18" if state.since(20) else "Formosa ruling F18",  # ruling F160
                "the Japanese have no naval gunfire")
    if state.strike.gunfire_withdrawn:
        return "Formosa 18.0", "the mobile fleet's sortie has withdrawn the naval gunfire this GT"
    if n + cw > limit:
        return "Formosa 17.0", f"at most {limit} naval gunfire units support a combat"
    nats = {state.spec(u.id).nationality for u in units}
    for count, key, nat, name in ((n, "gunfire", "us", "US"), (cw, "cw-gunfire", "cw", "Commonwealth")):
        if count > state.naval.get(key, 0):
            return "Formosa 17.0", f"only {state.naval.get(key, 0)} {name} naval gunfire units are in the Staging Area"
        if count and nat not in nats:
            return "Formosa 16.0, 5.1 item 3", f"{name} naval gunfire supports only a combat with a {name} unit in it"
    if not landing and not any(state.data.is_coastal(H(u.where)) for u in units):
        return "Formosa 17.0", "naval gunfire supports only a combat with an Allied unit in a coastal hex"
    return None


def lp_refusal(d: Decision, side: str, attacking: bool, lp: int, units) -> tuple[str, str] | None:
    """15.4.1, 19.5 item 2, ruling F22: LP for column shifts, with a participating unit tracing a line of supply,
    traced through `lines.line` so a concealed static that first supplies a Japanese unit is revealed (19.3,
    F82)."""
    state: State = d.state
    try:
        strategic.lp_shift(side, attacking, lp)
        strategic.spend(state.lp[side], lp, f"{lp} LP in combat")
    except IllegalOrder as exc:
        return exc.case, exc.message
    if not any(lines.line(d, u) for u in units):
        return "Formosa 15.4.1, 19.5", f"no {'attacking' if attacking else 'defending'} unit traces a line of supply"
    return None


def defender_may_answer(state: State, attacker: str, hexes: list[str]) -> bool:
    """Whether the defender is asked (F22, F18, F87): he has LP, or (Allied) gunfire of a defender's nationality
    and a unit in a coastal hex, or the air supply unit unused this GT. The question does not depend on the
    defenders' supply, so asking tells the attacker nothing hidden."""
    defender = other(attacker)
    if state.lp[defender] >= 1:
        return True
    if defender != "allied":
        return False
    units = [u for h in hexes for u in state.at(h, defender)]
    return (gunfire_refusal(state, "allied", 1, units) is None or gunfire_refusal(state, "allied", 0, units, cw=1)
            is None or (bool(state.air.get("air-supply", 0)) and state.air_supply_turn != state.turn))


def _missions(state: State, side: str, **changes) -> dict[str, dict[str, int]]:
    return {**state.strike.missions, side: {**state.strike.missions.get(side, {}), **changes}}


def _strike(state: State, **changes) -> State:
    return replace(state, strike=replace(state.strike, **changes))


# -- events ----------------------------------------------------------------------------------------------------
@event_type("formosa.StrikeAssigned")
@dataclass(frozen=True)
class StrikeAssigned:
    """16.1: `side` puts `points` on `mission` in the Strike Planning Phase (secret until the reveal: the fog
    shows the other side only that a plan was made)."""

    side: str
    mission: str
    points: int

    def apply(self, state: State) -> State:
        return _strike(state, missions=_missions(state, self.side, **{self.mission: self.points}))

    def describe(self) -> str:
        return f"{self.side} assigns {self.points} points to {self.mission} (Formosa 16.1)"

    def secret(self) -> str:
        return f"the {NAMES[self.side]} player plans his air missions (secret until the reveal, Formosa 16.1)"


@event_type("formosa.StrikesRevealed")
@dataclass(frozen=True)
class StrikesRevealed:
    """16.1 Strike Reveal Phase: both plans are shown."""

    missions: dict

    def apply(self, state: State) -> State:
        return _strike(state, revealed=True)

    def describe(self) -> str:
        def plan(side):
            m = {k: v for k, v in self.missions.get(side, {}).items() if v}
            return ", ".join(f"{v} {k}" for k, v in sorted(m.items())) or "nothing"
        return f"strikes revealed: Allied {plan('allied')}; Japanese {plan('japanese')} (Formosa 16.1)"


@event_type("formosa.AirBattleFought")
@dataclass(frozen=True)
class AirBattleFought:
    """16.2: both sides' fire on the Air Combat Table (the 0 column without air points) and the points each
    side must now eliminate."""

    allied_points: int
    japanese_points: int
    allied_die: int
    japanese_die: int
    japanese_loses: int
    allied_loses: int
    due: dict = field(default_factory=dict)

    def apply(self, state: State) -> State:
        return _strike(state, losses_due=dict(self.due))

    def describe(self) -> str:
        return (f"air superiority: Allied {self.allied_points} points, die {self.allied_die}: the Japanese lose "
                f"{self.japanese_loses}; Japanese {self.japanese_points} points, die {self.japanese_die}: the Allies "
                f"lose {self.allied_loses} (Formosa 16.2)")


@event_type("formosa.AirPointsLost")
@dataclass(frozen=True)
class AirPointsLost:
    """16.2 steps 3-4: air points eliminated from a mission, back to the Reinforcements Display (to be bought
    again)."""

    side: str
    mission: str
    points: int

    def apply(self, state: State) -> State:
        key = pool(self.side, self.mission)
        state = replace(state, air={**state.air, key: state.air.get(key, 0) - self.points})
        due = {**state.strike.losses_due, self.side: max(state.strike.losses_due.get(self.side, 0) - self.points, 0)}
        return _strike(state, losses_due=due, missions=_missions(
            state, self.side, **{self.mission: assigned(state, self.side, self.mission) - self.points}))

    def describe(self) -> str:
        return f"{self.side} loses {self.points} air points from {self.mission} (Formosa 16.2)"


@event_type("formosa.AirSuperiorityReturned")
@dataclass(frozen=True)
class AirSuperiorityReturned:
    """16.2 step 5: the surviving air superiority points return to the Available Air & Naval Display."""

    def apply(self, state: State) -> State:
        missions = {side: {m: (0 if m.endswith("air-superiority") else p) for m, p in ms.items()}
                    for side, ms in state.strike.missions.items()}
        return _strike(state, missions=missions, losses_due={})

    def describe(self) -> str:
        return "the air superiority missions return (Formosa 16.2 step 5)"


@event_type("formosa.KamikazeResolved")
@dataclass(frozen=True)
class KamikazeResolved:
    """16.6, ruling F5: the kamikaze attack on the points' column (0 if none), the hits; the points that attacked
    are eliminated for good."""

    points: int
    die: int
    hits: int

    def apply(self, state: State) -> State:
        state = replace(state, air={**state.air, "kamikaze": state.air.get("kamikaze", 0) - self.points},
                        kamikaze_spent=state.kamikaze_spent + self.points)
        return _strike(state, kamikaze_done=True, missions=_missions(state, "japanese", kamikaze=0))

    def describe(self) -> str:
        return (f"kamikaze attack: {self.points} points, die {self.die}: {self.hits} hits (Formosa 16.6, "
                "ruling F5)")


@event_type("formosa.KamikazeHitsTaken")
@dataclass(frozen=True)
class KamikazeHitsTaken:
    """16.6 step 3, ruling F64: amphibious markers and naval gunfire units back to the Reinforcements Display."""

    markers: int
    gunfire: int
    cw_gunfire: int = 0

    def apply(self, state: State) -> State:
        naval = {**state.naval, "gunfire": state.naval.get("gunfire", 0) - self.gunfire,
                 "cw-gunfire": state.naval.get("cw-gunfire", 0) - self.cw_gunfire}
        return replace(state, naval=naval, markers={**state.markers, "amphibious": state.markers.get(
            "amphibious", 0) - self.markers})

    def describe(self) -> str:
        cw = f", {self.cw_gunfire} Commonwealth gunfire" if self.cw_gunfire else ""
        return (f"kamikaze hits: the Allies return {self.markers} amphibious markers and {self.gunfire} naval "
                f"gunfire units{cw} (Formosa 16.6)")


@event_type("formosa.FleetSortied")
@dataclass(frozen=True)
class FleetSortied:
    """18.0: the mobile fleet's sortie, its result and, in a Decisive Battle, the Allied LP lost; the marker
    leaves the game (ruling F15)."""

    die: int
    result: str
    lp_die: int = 0
    lp_lost: int = 0

    def apply(self, state: State) -> State:
        state = replace(state, air={**state.air, "mobile-fleet": 0},
                        lp={**state.lp, "allied": state.lp["allied"] - self.lp_lost})
        return _strike(state, fleet_used=True, gunfire_withdrawn=self.result != "Fiasco",
                       amphibious_barred=self.result == "Decisive Battle")

    def describe(self) -> str:
        lp = f"; the Allies roll {self.lp_die} and lose {self.lp_lost} LP" if self.lp_die else ""
        return f"mobile fleet sortie: die {self.die}: {self.result}{lp} (Formosa 18.0)"


@event_type("formosa.B29Struck")
@dataclass(frozen=True)
class B29Struck:
    """16.5: the B-29 strike on a hex: the column (terrain, or Fortified), the die and the result; a DS or D1
    suppresses the hex for the rest of the GT."""

    hex: str
    column: str
    die: int
    code: str

    def apply(self, state: State) -> State:
        hit = self.code in ("DS", "D1")
        return _strike(state, b29_used=True, missions=_missions(state, "allied", b29=0), b29_hex=self.hex,
                       suppressed=(*state.strike.suppressed, self.hex) if hit else state.strike.suppressed)

    def describe(self) -> str:
        return f"B-29 strike on {self.hex}: column {self.column}, die {self.die}: {self.code} (Formosa 16.5)"


@event_type("formosa.B29NoSurvivors")
@dataclass(frozen=True)
class B29NoSurvivors:
    """16.5 D1 item 2 (since rules version 18, ruling F138): the D1 left no Japanese unit in the hex, so no DS falls
    on it: the hex is not suppressed (Japanese units may enter it); the B-29 stays there to the Air Return Phase."""

    hex: str

    def apply(self, state: State) -> State:
        return _strike(state, suppressed=tuple(h for h in state.strike.suppressed if h != self.hex))

    def describe(self) -> str:
        return (f"the B-29's D1 left no Japanese unit in {self.hex}: no suppression there (Formosa 16.5, ruling "
                "F138)")


@event_type("formosa.AirPlaced")
@dataclass(frozen=True)
class AirPlaced:
    """16.3 ground support (`mission` "support") or 16.4 interdiction points placed on a hex."""

    side: str
    mission: str
    hex: str
    nationality: str
    points: int

    def apply(self, state: State) -> State:
        if self.mission == "interdiction":
            return _strike(state, interdicted=(*state.strike.interdicted, (self.hex, self.nationality, self.points)))
        return _strike(state, support=(*state.strike.support, (self.side, self.hex, self.nationality, self.points)))

    def describe(self) -> str:
        what = "interdict" if self.mission == "interdiction" else "support an attack on"
        cw = " Commonwealth" if self.nationality == "cw" else ""
        case = "16.4" if self.mission == "interdiction" else "16.3"
        return f"{self.side} places {self.points}{cw} air points to {what} {self.hex} (Formosa {case})"


@event_type("formosa.SupportReturned")
@dataclass(frozen=True)
class SupportReturned:
    """16.3, ruling F86: ground support placed for an assault that was not fought returns at the end of the
    Invasion Phase; it flies no other combat this GT."""

    side: str
    hexes: list[str]

    def apply(self, state: State) -> State:
        return _strike(state, flown=(*state.strike.flown, *((self.side, h) for h in self.hexes)))

    def describe(self) -> str:
        return f"the ground support on {', '.join(self.hexes)} returns unused (Formosa 16.3)"


def unflown(state: State, side: str) -> list[str]:
    """The hexes where `side`'s ground support waits for its combat (16.3)."""
    return sorted({h for s, h, _nat, _p in state.strike.support if s == side and (s, h) not in state.strike.flown})


@event_type("formosa.AttackDeclared")
@dataclass(frozen=True)
class AttackDeclared:
    """15.2, 15.4.1, ruling F22: an attack (or an assault, 10.2.2) checked, its support committed, waiting for the
    defender's LP, naval gunfire and air supply."""

    side: str
    hexes: list[str]
    units: list[str]
    gunfire: int = 0
    lp: int = 0
    air_supply: bool = False
    assault: str = ""  # the coastal hex of an opposed landing (10.2.2)
    exploitation: bool = False  # an exploitation attack (25.1)

    def apply(self, state: State) -> State:
        return _strike(state, declared={"side": self.side, "hexes": list(self.hexes), "units": list(self.units),
                                        "gunfire": self.gunfire, "lp": self.lp, "air_supply": self.air_supply,
                                        "assault": self.assault, "exploitation": self.exploitation})

    def describe(self) -> str:
        return (f"{self.side} attack declared on {', '.join(self.hexes)}: the {other(self.side)} player may spend "
                "LP or naval gunfire in defence (Formosa 15.4.1, 17.0)")


@event_type("formosa.DefenceChosen")
@dataclass(frozen=True)
class DefenceChosen:
    """15.4.1, 17.0, 19.4, rulings F18, F22, F87: what the defender commits (LP, Allied naval gunfire, Allied air
    supply)."""

    side: str
    lp: int
    gunfire: int
    air_supply: bool = False

    def apply(self, state: State) -> State:
        return _strike(state, declared=None)

    def describe(self) -> str:
        air = " and the air supply unit" if self.air_supply else ""
        return (f"{self.side} defends with {self.lp} LP and {self.gunfire} naval gunfire{air} (Formosa 15.4.1, "
                "17.0, 19.4)")


@event_type("formosa.AirReturned")
@dataclass(frozen=True)
class AirReturned:
    """6.1 Air Return Phase: every air point on the map returns to its Available display, the B-29 that struck to
    the Allied Reinforcements Display (16.5), withdrawn gunfire to the Staging Area (18.0); the GT's missions
    end."""

    def apply(self, state: State) -> State:
        if state.strike.b29_used:
            state = replace(state, air={**state.air, "b29": state.air.get("b29", 0) - 1})
        return replace(state, strike=Strike(fleet_used=state.strike.fleet_used))

    def describe(self) -> str:
        return "air return: every air mission ends (Formosa 6.1)"
