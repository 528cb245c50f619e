"""Ichi-Go event types (design.md practice 3). Each is a fact; `evolve` (state.py) folds them. The decisions,
phase ends and game end are the shared events of app/rules/engine/events.py (stored before as "ichigo.<Name>",
names they still read by).

Chinese regulars on the map are named by a public counter handle ("C07"): which unit a handle is stays hidden
from both players (6.6, 11.27) until a `Revealed` event; only `UnitDrawn` (never shown to a player, see
rules.visible) links a handle to the unit drawn."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.events.registry import event_alias, event_type
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded, PhaseEnded  # noqa: F401 (shared)

for _shared in (DecisionRequired, DecisionMade, PhaseEnded, GameEnded):
    event_alias(f"ichigo.{_shared.__name__}", _shared)  # the names Ichi-Go stored them under before the engine


@event_type("ichigo.UnitDrawn")
@dataclass(frozen=True)
class UnitDrawn:
    """Ichi-Go 3.3, 9.7: a Chinese regular drawn blind from the pool, placed untried as counter `handle`."""

    handle: str
    unit: str
    hex: str


@event_type("ichigo.Revealed")
@dataclass(frozen=True)
class Revealed:
    """Ichi-Go 11.27: an untried counter flipped in combat."""

    handle: str
    unit: str
    name: str
    strength: int


@event_type("ichigo.ReturnedToPool")
@dataclass(frozen=True)
class ReturnedToPool:
    """Ichi-Go 2.14, 9.7, 11.27: a Chinese regular eliminated (or revealed at zero) goes back to the pool."""

    handle: str
    reason: str


@event_type("ichigo.OrderDeclared")
@dataclass(frozen=True)
class OrderDeclared:
    """Ichi-Go 5.5: `nation` moves then fights ("move-fight") or fights then moves, declared by `side`."""

    side: str
    nation: str
    order: str


@event_type("ichigo.MovementRolled")
@dataclass(frozen=True)
class MovementRolled:
    """Ichi-Go 10.14-10.17, 7.3: the movement allowance of a stack for this phase."""

    units: list[str]
    mp: int
    how: str


@event_type("ichigo.UnitsMoved")
@dataclass(frozen=True)
class UnitsMoved:
    units: list[str]
    path: list[str]
    mp: float


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


@event_type("ichigo.StepsLost")
@dataclass(frozen=True)
class StepsLost:
    """One step off each unit listed (a unit listed twice loses two); eliminated units leave the map."""

    units: list[str]
    reason: str


@event_type("ichigo.SupportExpended")
@dataclass(frozen=True)
class SupportExpended:
    """Ichi-Go 11.17, 11.28: committed tank regiments / the 1st SF Group are eliminated after the battle."""

    units: list[str]


@event_type("ichigo.UnitsAdvanced")
@dataclass(frozen=True)
class UnitsAdvanced:
    """Ichi-Go 11.24."""

    units: list[str]
    hex: str


@event_type("ichigo.AirpowerRolled")
@dataclass(frozen=True)
class AirpowerRolled:
    """Ichi-Go 8.1, 8.7: modified rolls and the markers won (0 on a reroll or none)."""

    japanese: int
    allied: int
    winner: str | None
    markers: int


@event_type("ichigo.AirpowerPlaced")
@dataclass(frozen=True)
class AirpowerPlaced:
    side: str
    hexes: list[str]


@event_type("ichigo.ReinforcementsEntered")
@dataclass(frozen=True)
class ReinforcementsEntered:
    """Ichi-Go 9.1, 9.3: Japanese units entering at a hex."""

    units: list[str]
    hex: str


@event_type("ichigo.ChineseReinforcementRolled")
@dataclass(frozen=True)
class ChineseReinforcementRolled:
    """Ichi-Go 9.7: the die, whether halved (all airbases Japanese) and the units to draw."""

    roll: int
    halved: bool
    count: int


@event_type("ichigo.UnitsWithdrawn")
@dataclass(frozen=True)
class UnitsWithdrawn:
    """Ichi-Go 9.2: units leave the map; `to` is "removed" or "14aa-pool"."""

    units: list[str]
    to: list[str]


@event_type("ichigo.FormosaReleased")
@dataclass(frozen=True)
class FormosaReleased:
    """Ichi-Go 9.3: two Formosa Garrison divisions become mainland reinforcements this turn; 5.3 items 5-6
    (ruling E3): after the Formosa landing the Formosa Garrison deploys on Formosa (`status` "formosa-deploy"),
    the Kwantung Army enters by the 9.1 hexes."""

    units: list[str]
    status: str = "pool"


@event_type("ichigo.BrigadeAbsorbed")
@dataclass(frozen=True)
class BrigadeAbsorbed:
    """Ichi-Go 9.5."""

    brigade: str
    division: str


@event_type("ichigo.CausewayChecked")
@dataclass(frozen=True)
class CausewayChecked:
    """Ichi-Go 5.2: the one roll on the Causeway or Philippines Table."""

    roll: int
    modifiers: list[str]
    total: int
    launched: bool


@event_type("ichigo.CollapseChecked")
@dataclass(frozen=True)
class CollapseChecked:
    """Ichi-Go 4.1: the one roll on the China Collapse Table."""

    roll: int
    modifiers: list[str]
    total: int
    collapsed: bool


@event_type("ichigo.B29Placed")
@dataclass(frozen=True)
class B29Placed:
    """Ichi-Go 8.9."""

    hex: str


@event_type("ichigo.GarrisonDestroyed")
@dataclass(frozen=True)
class GarrisonDestroyed:
    """Ichi-Go 11.29: the intrinsic garrison of an initial Japanese city is eliminated."""

    hex: str


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


@event_type("ichigo.B29Rolled")
@dataclass(frozen=True)
class B29Rolled:
    """Ichi-Go 8.9: after Causeway, the Allied roll at the start of each turn for a B-29 raid."""

    roll: int
    allowed: bool


@event_type("ichigo.ShipmentRolled")
@dataclass(frozen=True)
class ShipmentRolled:
    """Ichi-Go 5.3 items 7-9, 9.4: 14AA units picked blind (die - 1; 0 ends 14AA arrivals) and the survival
    roll of each (`fates`: unit -> "full" | "reduced" | "eliminated" | "sf")."""

    roll: int
    count: int
    fates: dict = field(default_factory=dict)


@event_type("ichigo.AerialSupplyPlaced")
@dataclass(frozen=True)
class AerialSupplyPlaced:
    """Ichi-Go 7.8: the US Aerial Supply Marker on an otherwise out-of-supply US stack."""

    hex: str


@event_type("ichigo.Airlifted")
@dataclass(frozen=True)
class Airlifted:
    """Ichi-Go 8.10, 8.11: one unit flown from a friendly city to another (or the 11th Airborne's airdrop)."""

    unit: str
    origin: str
    hex: str
    drop: bool = False


@event_type("ichigo.NavalTransfer")
@dataclass(frozen=True)
class NavalTransfer:
    """Ichi-Go 10.11: US units moved by sea from one beachhead to the other."""

    units: list[str]
    origin: str
    hex: str
