"""Operation Olympic state: every counter's place, the sequence position, the Casualty Points, beachheads,
destroyed militia and control; and the queries the rules ask of a position (who is where, zones of control,
stack order, supply). Hexes are kept as XXYY strings.

A unit is `pool` (not yet in play: American units before their arrival turn, the Japanese reinforcement pool),
`map` (on a land hex, or at sea in an invasion zone hex), `eliminated` (an American unit may come back, note 6)
or `removed` (out of the game: Tokko losses, eliminated Japanese units and American units that never return).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.rules.engine.state import SequencedState
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.paths import TraceSituation, trace

SIDES = ("american", "japanese")
AMERICAN_STEPS = ("placement", "assault", "movement", "combat", "reinforcement")
JAPANESE_STEPS = ("tokko", "doctrine", "japanese-movement", "japanese-combat")
RULES_VERSION = 12  # the version new games are played under; 2: issue 30 (R29); 3: returns (R33); 4: Game-Turn 4's
# release after its Doctrine Phase (R34); 5: control changes in every hex a unit enters (R35); 6: a unit alone in a
# secondary destination holds it (R36), a retreat goes by a hex it can be completed from (R39); 7: an exchange
# takes no unit more than needed (R40), the Fukuoka/Imari Tokko note takes units by hex identity (R41), a
# stack moved or retreating together keeps its order (R42); 8: a unit is released when an American unit moves
# next to it, by any hex of its path, a retreat in the Japanese Forces Combat Phase too (R43); 9: the Tokko's
# Fukuoka/Imari note, once it applies to a strike, takes every group by hex identity (R44); 10: the list of legal
# orders holds every landing, attack, advance, loss, move, placement and retreat hex (R49); 11: attacking units retreat
# a hex's stack at a time, bottom first, keeping its top (R56), an exchange judges the attackers' supply once the
# defenders are gone (R57); 12: a unit that cannot retreat (Ar) has its supply judged when it is eliminated, after the
# stacks before it retreated (R59); docs/rulings/olympic.md


def created_under(version: str | None) -> int:
    """The rules version of a game whose creation recorded `version` (core.GameCreated.rules_version): "" for a game
    created before versions were recorded (1), None for a new game (RULES_VERSION)."""
    return RULES_VERSION if version is None else int(version) if version else 1


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    strength: int
    status: str                      # pool | map | eliminated | removed
    hex: str | None = None
    order: int = 0                   # when it entered its hex: the highest is the top of the stack (ruling R1)
    released: bool = False           # Japanese coastal and line units (14.3)
    moved: bool = False              # this movement phase
    attacked: bool = False           # attacked (or assaulted) this combat phase
    defended: bool = False           # attacked by a Japanese unit this Japanese Forces Combat Phase (8.52)
    returns_on: int | None = None    # an eliminated supplied American unit's return turn (note 6)


@dataclass(frozen=True, kw_only=True)
class State(SequencedState):
    turn: int
    step: str
    units: dict[str, Unit]
    clock: int = 0
    casualty_points: int = 0
    points_by_turn: dict[str, int] = field(default_factory=dict)
    beachheads: tuple[str, ...] = ()
    militia_destroyed: tuple[str, ...] = ()
    american_control: tuple[str, ...] = ()
    attacked_hexes: tuple[str, ...] = ()
    due: tuple[str, ...] = ()        # Japanese reinforcements entering this movement phase (track 3)
    invasion_turn: int | None = None  # the Game-Turn of the one later invasion (ruling R17)
    retreat_toward: str | None = None  # the American standing retreat order (ruling R24)
    rules_version: int = RULES_VERSION  # the rules version the game is played under (ruling R29)

    @property
    def side(self) -> str | None:
        if self.step in AMERICAN_STEPS:
            return "american"
        if self.step in JAPANESE_STEPS:
            return "japanese"
        return None

    def since(self, version: int) -> bool:
        """Is the game played under rules `version` or later? (Ruling R29: an older game is decided as played.)"""
        return self.rules_version >= version

    # -- where things are -------------------------------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit | None:
        return self.units.get(unit_id)

    def on_map(self, side: str | None = None) -> list[Unit]:
        """Units in play, by id: never by the units table's order, which a snapshot does not keep."""
        return list(self.memo(("on-map", side), lambda: tuple(sorted(
            (u for u in self.units.values() if u.status == "map" and (side is None or u.side == side)),
            key=lambda u: u.id))))

    def stack(self, hex_label: str) -> list[Unit]:
        """The units in a hex, top of the stack first (ruling R1)."""
        return list(self.memo(("stack", hex_label), lambda: tuple(sorted(
            (u for u in self.units.values() if u.status == "map" and u.hex == hex_label), key=lambda u: -u.order))))

    def hexes_of(self, side: str, land: bool = True) -> set[str]:
        links = self.data.land_links
        return set(self.memo(("hexes", side, land), lambda: frozenset(
            u.hex for u in self.on_map(side) if (u.hex in links) == land)))

    def at_sea(self, unit: Unit) -> bool:
        return unit.status == "map" and unit.hex not in self.data.land_links

    def militia_intact(self, hex_label: str) -> int:
        """The intrinsic militia strength still in a hex (ruling R11)."""
        if hex_label in self.militia_destroyed:
            return 0
        return self.data.militia(Hex.parse(hex_label))

    def available(self) -> list[Unit]:
        """American units that may be placed now: arrived and never placed, or back (note 6, ruling R18). A unit is
        back from the American Reinforcement Phase of its return turn on, not earlier in that turn (ruling R33;
        rules version 2 had it back from the turn's start)."""
        data = self.data
        back_by = self.turn if self.step == "reinforcement" or not self.since(3) else self.turn - 1
        return [u for _, u in sorted(self.units.items()) if u.side == "american" and (
            (u.status == "pool" and data.unit(u.id).arrival <= self.turn)
            or (u.status == "eliminated" and u.returns_on is not None and u.returns_on <= back_by))]

    # -- zones of control and supply (rulings R15, R16) -------------------------------------------------------
    def zoc_of(self, side: str) -> frozenset[str]:
        """Land hexes in the zone of control of `side`'s units on land (not across all-sea hexsides)."""
        links = self.data.land_links
        return self.memo(("zoc", side), lambda: frozenset(n for h in self.hexes_of(side) for n in links[h]))

    def supplied(self, unit: Unit) -> bool:
        """Ruling R16: a path of land hexes to a beachhead, free of Japanese units, intact militia and Japanese
        zones of control not held by an American unit. Units at sea are supplied."""
        if unit.side != "american" or unit.status != "map" or self.at_sea(unit):
            return True
        return self.memo(("supplied", unit.hex), lambda: self._traced(unit.hex))

    def _traced(self, hex_: str) -> bool:
        """Ruling R16's path from `hex_`, traced once a position for every unit there (a list of legal orders
        previews an attacker's supply once an attack it may join)."""
        data = self.data
        blocked = self.hexes_of("japanese") | self.intact_militia()
        situation = TraceSituation(
            enemy_occupied=frozenset(Hex.parse(h) for h in blocked),
            ezoc=frozenset(Hex.parse(h) for h in self.zoc_of("japanese")),
            friendly_occupied=frozenset(Hex.parse(h) for h in self.hexes_of("american")))
        sources = [Hex.parse(h) for h in self.beachheads if h not in self.hexes_of("japanese")]
        return trace(data.map, Hex.parse(hex_), sources, data.supply, situation) is not None

    def intact_militia(self) -> set[str]:
        """The hexes whose militia is not destroyed (ruling R11)."""
        return {h for h in self.data.militia_hexes if h not in self.militia_destroyed}


def start(data, scenario: str, options) -> State:
    """The set-up (units.toml): Japanese coastal and line units on their hexes, unreleased (14.3); the Japanese
    reinforcements in the pool; American units in the pool until their arrival turn. Game-Turn 1 opens with the
    American placement in the invasion zones (no movement phase on Game-Turn 1: sequence A.1)."""
    units = {}
    for i, u in enumerate(data.units):
        if u.setup is not None:
            units[u.id] = Unit(u.id, u.side, u.strength, "map", str(u.setup), order=i)
        else:
            units[u.id] = Unit(u.id, u.side, u.strength, "pool")
    return State(turn=1, step="placement", units=units, clock=len(units), data=data)
