"""Dai Senso state: the units and markers on the two map sheets, the boxes off the map, the clock of the Combat
Phase (4.1 Blitz, 4.2 Regular, 4.3 Marker segments) and the combat under way (4.2.2).

Two players: the Axis and the Allied player, who commands the scenario's Western or Soviet faction (ruling D25); in
a war between those two (ruling D87), the `axis` seat commands the Soviet faction.
Units carry their faction; a side is the player who orders them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.rules.engine.state import SequencedState, replace

SIDES = ("axis", "allied")
AXIS = "axis"
RULES_VERSION = 21  # the version new games are played under; 3: a marine's first loss, an Air unit left (ruling D37);
# 4: every CV Strike returns, a landing from an SNLF Beachhead-0, any marine's first step, a Holding Box unit's
# kept component from the Force Pool (rulings D38-D41); 5: a landing sends enemy Detachment and Logistics markers to
# the Delay Box (D42), the weather's Blitz ban is on units, not on a hex of markers alone (D43); 6: so does a
# retreat, an Advance After Combat or an Exploitation into their hex (D44); 7: an Ex's defending step from the HQ
# giving Ranged Support too (D45), an Airdrop Landing sends enemy Detachment and Logistics markers to the Delay Box
# (D46), an Air unit's shift needs its own nationality in the combat, not a Chinese group's (D49); 8: an HQ that gave
# Ranged Support in Blitz Combat makes no Beachhead Landing (D50), Airdrop markers go to the Delay Box one at a time
# (D51), a position with attacks made in its Blitz Combat opens past the Airdrop step (D54); 9: the list of legal
# orders names every Exploitation path, one for each end and enemy markers swept (D55); 10: a position is refused
# a state no play leaves (D56), an HQ gives no Ranged Support to an attack on markers alone (D57), the IG HQ leaves
# the game when 4.3 step 3 eliminates it (D58); 11: a position may say the step it starts in and the attack under
# way, and the die of such an attack is the attacker's `roll` order (D60); 12: after an attack on markers alone, or
# one without an armor-type unit, the Advance step offers no Exploitation and says so (D62); 13: at truce no landing,
# Airdrop or Airdrop Landing into a hex of the other faction's Detachment or Logistics markers (D63), and an SNLF
# Beachhead-0 that cannot land opens no Beachhead Landing step (D64); 14: a position names no Dependent as neutral,
# Policy Affected, Free Passage or No Occupation (D67), and a combat after which no unit may advance writes no
# Exploitation Distance (D69); 15: an SNLF Beachhead-0 lands its Detachment without the Axis's Blitz marker, the
# Blitz Combat Segment then opening at its Beachhead Landing step (D70); 16: the one hexside shift is the lowest of
# every hexside the adjacent attackers cross, a plain one's 0 included (D9); 17: the list of legal orders names every
# hex that may be attacked, every unit that may attack it and every HQ that may support it (D71), and each unit's
# Exploitation into the defending hex alone (D72); 18: a two-step unit breaks down only to a one-step unit that could
# have combined it, a Minor Country's to its own country's (D79), and odds under 1-3 are written 1-3 (D80); 19: no
# ZOC from a Land hex into a hex at sea but across a Beachhead Hexside (D82), and an HQ giving Ranged Support from
# next to the defending hex does not count among the attackers for Voluntary Retreat Conversion (D83); 20: a
# Holding Box unit's counter goes to its Force Pool, and so does the Holding Box's unit when the Force Pool's one is
# kept (D84), a view of a combat shows its Exploitation Distance (D85), a flipped counter removed goes as its own
# kind, the US mech's Delay Stripe kept (D86); 21: a position may set the Western and Soviet factions, enemies to
# each other, against one another (D87)


def created_under(version: str | None) -> int:
    """The rules version of a game whose creation recorded `version` (core.GameCreated.rules_version): "" (or 1) for a
    game created before versions were recorded (2), None for a new game (RULES_VERSION)."""
    return RULES_VERSION if version is None else max(int(version), 2) if version else 2


@dataclass(frozen=True)
class Unit:
    """A counter on the map: ``kind`` is the side it shows (units.toml)."""

    id: str
    kind: str
    faction: str
    hex: str
    supplied: bool = True
    blitz: bool = False
    holding: tuple[str, ...] = ()
    zone: str | None = None
    attacked: bool = False  # 4.2.1: a unit attacks once a Combat Segment
    fought: bool = False  # 4.2.1.2: an HQ that took part in a combat gives no Ranged Support after it
    lost: int = 0  # steps lost that the counter still shows: flipped to its other side (4.2.6.2), for its drawing


@dataclass(frozen=True)
class Marker:
    kind: str
    hex: str
    faction: str
    toward: str | None = None
    supplied: bool = True
    origin: str | None = None  # an Airdrop marker: the airborne unit kind on its other side (4.1.1)
    landed: bool = False  # an SNLF Beachhead-0 that has made its Special SNLF Landing (4.1.3.1)


@dataclass(frozen=True)
class Combat:
    """The attack under way (4.2.2). ``stage`` is where its results stand: "hq" (the defender may declare an HQ),
    "attacker-result" (Ad/Ex: retreat or a step), "attacker-retreat", "exchange", "retreat" (the defender's
    Dr), "attacker-losses", "defender-losses", "advance"."""

    target: str
    attackers: tuple[str, ...]
    attacker_hq: str | None = None
    defenders: tuple[str, ...] = ()
    defender_hq: str | None = None
    blitz: bool = False
    stage: str = "hq"
    result: str = ""
    retreat_left: int = 0  # hexes of the current retreat result still owed
    path: tuple[str, ...] = ()  # hexes the defending force entered (4.2.5, 4.2.8)
    converted: int = 0
    unsatisfied: int = 0  # results the defender left unsatisfied (4.2.8)
    attacker_losses: int = 0
    defender_losses: int = 0
    attacker_lost: int = 0  # steps the attacking force lost so far (4.2.6.1 first loss)
    stacks_to_retreat: tuple[str, ...] = ()  # attacking hexes still to retreat after an Ad/Ex (4.2.5)
    automatic: bool = False  # 4.2.2: against markers alone
    armor: bool = False  # 4.2.8: the attacking force included an armor-type unit
    exploit_distance: int = 0
    fronts: tuple[tuple[str, str], ...] = ()  # (attacking unit, the hex it attacked from) at the declaration


@dataclass(frozen=True, kw_only=True)
class State(SequencedState):
    name: str
    combat_phase: int
    last_phase: int
    phasing: str  # the faction whose Combat Phase it is
    factions: dict[str, str]  # side -> faction
    step: str
    units: dict[str, Unit]
    markers: tuple[Marker, ...] = ()
    force_pool: dict[str, dict[str, int]] = field(default_factory=dict)
    delay_box: dict[str, dict[str, int]] = field(default_factory=dict)
    used_box: dict[str, tuple[str, ...]] = field(default_factory=dict)  # Naval Zone -> CV Strike kinds (4.1.5)
    convoys: dict[str, dict[str, int]] = field(default_factory=dict)  # "faction/zone" -> {"convoys", "used"}
    weather: dict[str, str] = field(default_factory=dict)
    neutral: frozenset[str] = frozenset()
    policy: frozenset[str] = frozenset()
    free_passage: frozenset[str] = frozenset()
    no_occupation: frozenset[str] = frozenset()
    mobilizing: tuple[tuple[str, str], ...] = ()
    truces: tuple[tuple[str, str], ...] = ()
    pre_war: bool = False
    attacked_hexes: tuple[str, ...] = ()
    combat: Combat | None = None
    victory_faction: str = ""
    victory_hold: tuple[str, ...] = ()
    serial: int = 0  # numbers the units a breakdown or a landing brings in
    removed: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # unit -> (faction, kind, steps left
    #                                             in its place: a breakdown's replacement's, 0 if eliminated)
    rules_version: int = RULES_VERSION  # the rules version the game is played under (ruling D37)

    # -- who ------------------------------------------------------------------------------------------------
    @property
    def side(self) -> str:
        return self.side_of(self.phasing)

    def side_of(self, faction: str) -> str:
        return next(s for s, f in self.factions.items() if f == faction)

    def other_faction(self, faction: str) -> str:
        return next(f for f in self.factions.values() if f != faction)

    def since(self, version: int) -> bool:
        """Is the game played under rules `version` or later? (Ruling D37: an older game is decided as played.)"""
        return self.rules_version >= version

    # -- where ---------------------------------------------------------------------------------------------
    def at(self, hex_label: str) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == hex_label]

    def ground_at(self, hex_label: str, faction: str | None = None) -> list[Unit]:
        return [u for u in self.at(hex_label) if self.data.kinds[u.kind].is_ground
                and (faction is None or u.faction == faction)]

    def markers_at(self, hex_label: str, kinds: tuple[str, ...] | None = None) -> list[Marker]:
        return [m for m in self.markers if m.hex == hex_label and (kinds is None or m.kind in kinds)]

    def has_marker(self, faction: str, kind: str) -> bool:
        return any(m.faction == faction and m.kind == kind for m in self.markers)

    def weather_at(self, hex_label: str) -> str | None:
        return self.weather.get(hex_label)

    def kind(self, unit: Unit):
        return self.data.kinds[unit.kind]

    def with_units(self, **changes: Unit | None) -> State:
        units = dict(self.units)
        for uid, unit in changes.items():
            if unit is None:
                units.pop(uid, None)
            else:
                units[uid] = unit
        return replace(self, units=units)


def start(data, scenario: str, options: dict, version: str | None = None) -> State:
    """The position of options["position"] if given (docs/daisenso-data.md), else the scenario's own, read under
    rules `version` (None: this one)."""
    from app.rules.custom_setup import SetupError
    from app.rules.daisenso.position import position_from_dict, read_position

    number = created_under(version)
    if "position" in options:
        position = position_from_dict(options["position"], data, number)
    elif scenario == "custom":
        raise SetupError("options", ["the 'custom' scenario starts from a position file (--position FILE)"])
    else:
        position = read_position(data.scenario_path(scenario), data, number)
    factions = seats(position.factions)
    units = {u.id: replace(Unit(u.id, u.kind, u.faction, str(u.hex), u.supplied, u.blitz, u.holding, u.zone),
                           attacked=u.attacked, fought=u.fought)
             for u in position.units}
    markers = tuple(Marker(m.kind, str(m.hex), m.faction, None if m.toward is None else str(m.toward), m.supplied,
                           m.airborne, m.landed) for m in position.markers)
    convoys = {f"{c.faction}/{c.zone}": {"convoys": c.convoys, "used": c.used} for c in position.convoys}
    state = State(
        name=position.name, combat_phase=position.turn, last_phase=position.turn + position.combat_phases - 1,
        phasing=position.phasing, factions=factions, step=position.phase, units=units,
        markers=markers, force_pool={f: dict(v) for f, v in position.force_pool.items()},
        delay_box={f: dict(v) for f, v in position.delay_box.items()}, convoys=convoys,
        weather={str(h): w for h, w in position.weather.items()}, neutral=position.neutral, policy=position.policy,
        free_passage=position.free_passage, no_occupation=position.no_occupation, mobilizing=position.mobilizing,
        truces=tuple(tuple(sorted(t)) for t in position.truces), pre_war=position.pre_war,
        victory_faction=position.victory.faction, victory_hold=tuple(str(h) for h in position.victory.hold),
        attacked_hexes=tuple(str(h) for h in position.attacked_hexes), data=data, rules_version=number,
        used_box={z: tuple(k) for z, k in position.used_box.items()},
    )
    from app.rules.daisenso.sequence import opening_step
    from app.rules.daisenso.under_way import open_at_step, open_combat

    # ruling D60 (rules version 11): the step play is under way in, and the attack under way
    state = opening_step(state) if position.step is None else open_at_step(state, position.step)
    return state if position.combat is None else open_combat(state, position.combat)


def seats(factions: tuple[str, ...]) -> dict[str, str]:
    """Side -> faction (ruling D25): the Axis player commands the Axis, the Allied player the scenario's Western or
    Soviet faction. In a war between the Western and Soviet factions, enemies to each other (chapter 4's
    clarification; ruling D87, rules version 21), the Allied player commands the Western faction and the other
    seat, `axis`, the Soviet faction."""
    if AXIS in factions:
        return {AXIS: AXIS, "allied": next(f for f in factions if f != AXIS)}
    return {AXIS: "soviet", "allied": "western"}


def box_add(boxes: dict[str, dict[str, int]], faction: str, kind: str, n: int = 1) -> dict[str, dict[str, int]]:
    """A copy of a Force Pool / Delay Box table with ``n`` more (or fewer) counters of ``kind``."""
    mine = dict(boxes.get(faction, {}))
    mine[kind] = mine.get(kind, 0) + n
    if mine[kind] <= 0:
        mine.pop(kind)
    return {**boxes, faction: mine}
