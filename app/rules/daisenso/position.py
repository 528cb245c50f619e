"""Dai Senso positions: everything chapter 4 takes as given, read from a position file (TOML) and checked against
the game data, every problem named at once (`SetupError`). The format is described in docs/daisenso-data.md
("Positions"); the common keys `turn` and `phase` are read by app/rules/custom_setup.py as for every game.

A position is a whole scenario: Dai Senso has no printed set-up here, so the file places every unit and marker,
says which units are supplied and Blitz-enabled, the weather per hex, the force pools, the Delay Box, troop
convoys, neutral and policy-affected countries, truces and the end of the game.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.rules.custom_setup import SetupError, parse_position
from app.rules.daisenso.data_load import GameData, load, what_if
from app.rules.daisenso.state import RULES_VERSION
from app.rules.daisenso.terrain import AIRDROPS, LONE_MARKERS, country_status
from app.rules.kernel.hexgrid import Hex

PHASES = ("blitz", "regular", "marker")  # 4.1, 4.2, 4.3
# the steps of each segment a player gives orders in (the `step` key, rules version 11): 4.1.5 and 4.3 steps 2-3
# take none and follow by themselves; "overstack" is a Combat Segment's end with a stack over the limit (ruling D15)
STEPS = {"blitz": ("airdrop", "blitz-combat", "landing", "airdrop-landing", "overstack"),
         "regular": ("regular-combat", "overstack"), "marker": ("convoys",)}
# how far an attack under way stands (the `[combat]` key's `stage`, rules version 11): 4.2.2 step 2 (the defender
# may declare Ranged Support), step 5 (the die to roll), then the results of steps 6-8 in order (4.2.4-4.2.8)
STAGES = ("support", "roll", "attacker-result", "attacker-retreat", "exchange", "retreat", "attacker-losses",
          "defender-losses", "advance")
WEATHER = ("mud", "storms", "snow")  # 4.1.2, 4.2.3.1, 4.2.3.7, 4.2.4.1, 4.2.8
COUNTRY_STATUSES = ("neutral", "policy", "free_passage", "no_occupation")
EXTRA_KEYS = ("name", "description", "phasing", "factions", "combat_phases", "pre_war", "victory", "unit",
              "marker", "weather", "force_pool", "delay_box", "convoy", "mobilizing", "truce", "attacked_hexes",
              "used_box", "step", "combat",
              *COUNTRY_STATUSES)
_UNIT_KEYS = {"id", "kind", "hex", "supplied", "blitz", "holding", "zone", "note", "values", "attacked", "fought"}
_MARKER_KEYS = {"kind", "hex", "faction", "toward", "supplied", "airborne", "landed", "note"}
_COMBAT_KEYS = {"hex", "attackers", "joined", "hq", "from", "defender_hq", "stage", "result", "attacker_result",
                "retreated", "converted", "unsatisfied", "owed", "armor", "note"}


@dataclass(frozen=True)
class PlacedUnit:
    id: str
    kind: str
    hex: Hex
    faction: str
    supplied: bool = True
    blitz: bool = False
    holding: tuple[str, ...] = ()  # 4.2.6.2: what waits in the unit's Holding Box
    zone: str | None = None  # 4.1.5: a CV Strike's Naval Zone
    attacked: bool = False  # 4.2.1: it has attacked in this Combat Segment (ruling D36)
    fought: bool = False  # 4.2.1.2: an HQ that has taken part in a combat this Combat Segment (ruling D36)


@dataclass(frozen=True)
class PlacedMarker:
    kind: str
    hex: Hex
    faction: str
    toward: Hex | None = None  # a Beachhead's arrow: the Land hex across its Beachhead Hexside (4.1.3)
    supplied: bool = True  # Airdrop markers (4.1.4), SNLF Beachhead-0 (4.1.3.1)
    airborne: str | None = None  # an Airdrop marker: the airborne unit kind on its other side (4.1.1, 4.1.4)
    landed: bool = False  # an SNLF Beachhead-0 that made its Special SNLF Landing (4.1.3.1, ruling D34)


@dataclass(frozen=True)
class PlacedCombat:
    """The attack under way (4.2.2, ruling D60): its hex, its units and how far its steps stand. What the rules
    derive (the defending force, the results still owed, the Exploitation Distance) is derived from these when the
    game starts (app/rules/daisenso/under_way.py), which checks them by the rules."""

    hex: Hex
    attackers: tuple[str, ...]
    hq: str | None = None
    fronts: Mapping[str, Hex] = field(default_factory=dict)  # an attacker that retreated: the hex it attacked from
    defender_hq: str | None = None
    stage: str = "support"
    result: str = ""
    attacker_result: str | None = None  # Ad/Ex: "retreat" or "step" (4.2.4.1)
    retreated: tuple[Hex, ...] = ()  # the hexes the defending force entered (4.2.5)
    converted: int = 0  # Retreat results converted into steps (4.2.5.3)
    unsatisfied: int = 0  # results the defending force left unsatisfied, being gone (4.2.8)
    owed: int | None = None  # an Attrition stage: the steps still owed (default: the result's)
    armor: bool | None = None  # 4.2.8: the force included an armor-type unit (default: one of `attackers` is)
    joined: tuple[str, ...] = ()  # ground units a retreating attacking stack entered, now of the force (ruling D32)


@dataclass(frozen=True)
class Convoy:
    """Troop Convoy markers of a faction in one Naval Zone's boxes (4.3 step 1)."""

    faction: str
    zone: str
    convoys: int
    used: int


@dataclass(frozen=True)
class Victory:
    """The scenario's end: after `combat_phases`, ``faction`` wins if its ground units hold every hex of ``hold``;
    otherwise ``otherwise`` wins (rulings D16)."""

    faction: str
    hold: tuple[Hex, ...]
    otherwise: str


@dataclass(frozen=True)
class Position:
    name: str
    description: str
    turn: int
    phase: str
    phasing: str
    factions: tuple[str, str]
    combat_phases: int
    pre_war: bool
    victory: Victory
    units: tuple[PlacedUnit, ...]
    markers: tuple[PlacedMarker, ...]
    weather: Mapping[Hex, str]
    force_pool: Mapping[str, Mapping[str, int]]
    delay_box: Mapping[str, Mapping[str, int]]
    convoys: tuple[Convoy, ...]
    neutral: frozenset[str]
    policy: frozenset[str]
    free_passage: frozenset[str]
    no_occupation: frozenset[str]
    mobilizing: tuple[tuple[str, str], ...]  # (country, faction owning the marker): 4.2.1.1, 4.3 step 2
    truces: tuple[frozenset[str], ...]
    attacked_hexes: tuple[Hex, ...] = ()  # 4.2.1: hexes attacked in this Combat Segment (ruling D36)
    used_box: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # Naval Zone -> CV Strike kinds (4.1.5)
    step: str | None = None  # the step of the segment play starts in (rules version 11; None: the segment's first)
    combat: PlacedCombat | None = None  # the attack under way (4.2.2; rules version 11)


def read_position(path: str | Path, data: GameData | None = None, version: int = RULES_VERSION) -> Position:
    """A position file, checked under rules `version`; SetupError naming the file and every problem."""
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SetupError(str(p), [f"cannot read: {exc.strerror}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(str(p), [f"not valid TOML: {exc}"]) from None
    try:
        return position_from_dict(raw, data, version)
    except SetupError as exc:
        raise SetupError(str(p), exc.problems) from None


def position_from_dict(raw: Any, data: GameData | None = None, version: int = RULES_VERSION) -> Position:
    """A position from its TOML (or JSON) table, checked under rules `version` (the game's: a check added in a
    later version does not refuse a game created before it); SetupError listing every problem."""
    return _Reader(raw, data or load(), version).read()


class _Reader:
    def __init__(self, raw: Any, data: GameData, version: int = RULES_VERSION) -> None:
        self.raw = raw if isinstance(raw, dict) else {}
        self.d = data
        self.version = version
        self.problems: list[str] = [] if isinstance(raw, dict) else ["a position is a table of keys"]

    def err(self, msg: str) -> None:
        self.problems.append(msg)

    def since(self, version: int) -> bool:
        """Is the position read under rules `version` or later (State.since)?"""
        return self.version >= version

    # -- small readers --------------------------------------------------------------------------------------
    def hex(self, label: Any, where: str) -> Hex | None:
        if not isinstance(label, str):
            self.err(f"{where}: a hex is a label such as 'w4520', not {label!r}")
            return None
        try:
            return self.d.atlas.parse(label)
        except ValueError as exc:
            self.err(f"{where}: {exc}")
            return None

    def flag(self, table: Mapping, key: str, default: bool, where: str) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.err(f"{where}: {key} is true or false")
            return default
        return value

    def faction(self, value: Any, where: str) -> str | None:
        if value not in self.factions:
            self.err(f"{where}: faction is one of the scenario's factions ({', '.join(self.factions)}), not {value!r}")
            return None
        return value

    def tables(self, key: str) -> list[Mapping]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.err(f"[[{key}]] is an array of tables")
            return []
        return value

    def unknown(self, table: Mapping, allowed: set[str], where: str) -> None:
        for k in sorted(set(table) - allowed):
            self.err(f"{where}: unknown key {k!r} (keys: {', '.join(sorted(allowed))})")

    # -- the whole position ---------------------------------------------------------------------------------
    def read(self) -> Position:
        common = self._common()
        self.factions = self._factions()
        phasing = self.raw.get("phasing")
        if phasing not in self.factions:
            self.err(f"'phasing' is the faction whose Combat Phase it is: one of {', '.join(self.factions)}")
        combat_phases = self.raw.get("combat_phases")
        if not isinstance(combat_phases, int) or isinstance(combat_phases, bool) or combat_phases < 1:
            self.err("'combat_phases' is how many Combat Phases the scenario plays (1 or more), the factions in turn")
        countries = {k: self._countries(k) for k in COUNTRY_STATUSES}
        units = self._units(countries["neutral"])
        markers = self._markers()
        attacked = self._attacked(common[1], phasing, units)
        pre_war = self.flag(self.raw, "pre_war", False, "position")
        truces = self._truces()
        under_way = self._combat(units)
        if under_way is not None and under_way.hex not in attacked:
            attacked = (*attacked, under_way.hex)  # the hex of the attack under way is attacked (4.2.1)
        made = bool(attacked) or any(u.attacked or u.fought for u in units)
        step = self._step(common[1], phasing, markers, made, under_way)
        self._stacking(units, mid_segment=made and self.since(10))  # ruling D56
        if self.since(10) and common[1] in PHASES and phasing in self.factions:
            self._possible(common[1], phasing, units, markers, made, pre_war, truces)
            self._landed(common[1], step, phasing, markers)
        position = Position(
            name=str(self.raw.get("name", "")),
            description=str(self.raw.get("description", "")),
            turn=common[0],
            phase=common[1],
            phasing=phasing,
            factions=self.factions,
            combat_phases=combat_phases,
            pre_war=pre_war,
            victory=self._victory(),
            units=units,
            markers=markers,
            weather=self._weather(),
            force_pool=self._boxes("force_pool"),
            delay_box=self._boxes("delay_box"),
            convoys=self._convoys(),
            mobilizing=self._mobilizing(),
            truces=truces,
            used_box=self._used_box(),
            attacked_hexes=attacked,
            step=step,
            combat=under_way,
            **countries,
        )
        if self.problems:
            raise SetupError("position", self.problems)
        return position

    def _attacked(self, phase: str, phasing: str, units: tuple[PlacedUnit, ...]) -> tuple[Hex, ...]:
        """Ruling D36: a position in the middle of a Combat Segment says which hexes were attacked and which units
        attacked or took part (4.2.1, 4.2.1.2)."""
        raw = self.raw.get("attacked_hexes", [])
        if not isinstance(raw, list) or len(raw) > 1000:
            self.err("'attacked_hexes' is a list of hexes attacked in this Combat Segment (4.2.1)")
            raw = []
        hexes = tuple(h for h in (self.hex(x, "attacked_hexes") for x in raw) if h is not None)
        busy = [u for u in units if u.attacked or u.fought]
        if (hexes or busy) and phase == "marker":
            self.err("attacked_hexes, attacked and fought belong to a Combat Segment: a position in the Marker "
                     "Segment has none (4.3)")
        for u in units:
            kind = self.d.kinds[u.kind]
            if u.attacked and (u.faction != phasing or not kind.is_ground):
                self.err(f"[[unit]] {u.id}: only the phasing faction's ground units attack (4.2.1)")
            if u.fought and kind.type != "hq":
                self.err(f"[[unit]] {u.id}: 'fought' marks an HQ that took part in a combat (4.2.1.2)")
        if any(u.attacked for u in units) and not hexes:
            self.err("[[unit]] attacked: the hex it attacked is in attacked_hexes (4.2.1)")
        elif any(u.fought for u in units) and not hexes and self.since(10):  # ruling D56
            self.err("[[unit]] fought: the hex of the combat it took part in is in attacked_hexes (4.2.1.2)")
        return hexes

    def _step(self, phase: str, phasing: str, markers: tuple[PlacedMarker, ...], made: bool,
              under_way: PlacedCombat | None) -> str | None:
        """Ruling D60 (rules version 11): the step of the segment play starts in, where a player gives orders; the
        Blitz Combat Segment's steps only with the phasing faction's Blitz marker on the map (4.1 clarification),
        and the Airdrop step only before any attack of the segment (4.1 clarification, ruling D54)."""
        step = self.raw.get("step")
        if step is None:
            if under_way is not None and phase == "marker":
                self.err("[combat]: an attack is made in Blitz Combat (4.1.2) or the Regular Combat Segment (4.2), "
                         "not in the Marker Segment (4.3)")
            return None
        if not self.since(11):
            self.err("'step' came with rules version 11")
            return None
        if phase not in STEPS:
            return None
        if step not in STEPS[phase]:
            self.err(f"'step' is a step of the {phase} segment a player gives orders in: {', '.join(STEPS[phase])} "
                     "(4.1-4.3; 4.1.5 and 4.3 steps 2-3 take no order and follow by themselves)")
            return None
        snlf = step == "landing" and self.since(15) and any(m.kind == "snlf-beachhead-0" for m in markers)
        if phase == "blitz" and not snlf and not any(m.kind == "blitz" and m.faction == phasing for m in markers):
            self.err(f"'step' {step}: without its Blitz marker on the map the phasing faction's Blitz Combat Segment "
                     "is only its CV Strike Returns step (4.1 clarification), and its Beachhead Landing step for an "
                     "SNLF Beachhead-0 (4.1.3.1, ruling D70): start in the regular segment")
        if step == "airdrop" and made:
            self.err("'step' airdrop: attacks made in the segment (attacked_hexes, attacked, fought) come in step 2, "
                     "after every Airdrop (4.1 clarification, ruling D54)")
        if step == "overstack" and not made:
            self.err("'step' overstack: a stack over the limit at a Combat Segment's end is one a retreat or an "
                     "advance of the segment left (4.2.5.3 design note, 4.2.7; ruling D15): the segment's attacks "
                     "are made (attacked_hexes)")
        if under_way is not None and step not in ("blitz-combat", "regular-combat"):
            self.err(f"[combat]: an attack is made in Blitz Combat (4.1.2) or the Regular Combat Segment (4.2), not "
                     f"in the {step} step")
        return step

    def _landed(self, phase: str, step: str | None, phasing: str, markers: tuple[PlacedMarker, ...]) -> None:
        """4.1.3.1, 4.3 step 3 (ruling D34): an SNLF Beachhead-0 lands its Detachment in step 3 of the Axis's Blitz
        Combat Segment and is removed in that Combat Phase's Marker Segment."""
        for m in markers:
            if not m.landed:
                continue
            before = phase == "blitz" and step in (None, "airdrop", "blitz-combat")
            if phasing != "axis" or before:
                self.err(f"[[marker]] snlf-beachhead-0 in {m.hex}: 'landed' only from step 3 of the Axis's Blitz "
                         "Combat Segment (4.1.3.1) to its Marker Segment, which removes the marker (4.3 step 3)")

    def _combat(self, units: tuple[PlacedUnit, ...]) -> PlacedCombat | None:
        """[combat]: the attack under way (4.2.2; ruling D60, rules version 11), read for its shape; its rules are
        checked on the game's state when it starts (app/rules/daisenso/under_way.py)."""
        raw = self.raw.get("combat")
        if raw is None:
            return None
        if not self.since(11):
            self.err("[combat] came with rules version 11")
            return None
        if not isinstance(raw, dict):
            self.err("[combat] is a table: hex, attackers, stage, ... (docs/daisenso-data.md)")
            return None
        where = "[combat]"
        self.unknown(raw, _COMBAT_KEYS, where)
        ids = {u.id for u in units}
        target = self.hex(raw.get("hex"), f"{where} hex")

        def unit_id(value, key: str) -> str | None:
            if value is None:
                return None
            if not isinstance(value, str) or value not in ids:
                self.err(f"{where} {key}: {value!r} is not a [[unit]] of this position")
                return None
            return value

        attackers = raw.get("attackers", [])
        if not isinstance(attackers, list):
            self.err(f"{where} attackers is a list of the attacking units' ids (4.2.2 step 1)")
            attackers = []
        attackers = tuple(a for a in (unit_id(x, "attackers") for x in attackers) if a)
        if len(set(attackers)) != len(attackers):
            self.err(f"{where} attackers: a unit attacks once (4.2.1)")
        joined = raw.get("joined", [])
        if not isinstance(joined, list):
            self.err(f"{where} joined lists the units a retreating attacking stack took along (4.2.5)")
            joined = []
        joined = tuple(j for j in (unit_id(x, "joined") for x in joined) if j)
        if set(joined) & set(attackers):
            self.err(f"{where} joined: {', '.join(sorted(set(joined) & set(attackers)))} attacked; the units a "
                     "retreat took along did not")
        fronts_raw = raw.get("from", {})
        fronts: dict[str, Hex] = {}
        if not isinstance(fronts_raw, dict):
            self.err(f"{where} from maps an attacking unit to the hex it attacked from")
            fronts_raw = {}
        for uid, label in fronts_raw.items():
            if uid not in attackers:
                self.err(f"{where} from: {uid} is not one of the attackers")
            h = self.hex(label, f"{where} from {uid}")
            if h is not None:
                fronts[uid] = h
        stage = raw.get("stage", "support")
        if stage not in STAGES:
            self.err(f"{where} stage is one of {', '.join(STAGES)} (4.2.2 steps 2-8)")
            stage = "support"
        result = raw.get("result", "")
        if not isinstance(result, str):
            self.err(f"{where} result is a Combat Results Table result, such as \"Dr2 0/1\" (4.2.4)")
            result = ""
        attacker_result = raw.get("attacker_result")
        if attacker_result not in (None, "retreat", "step"):
            self.err(f"{where} attacker_result is how the attacker met its Ad or Ex: \"retreat\" or \"step\" "
                     "(4.2.4.1)")
            attacker_result = None
        retreated = raw.get("retreated", [])
        if not isinstance(retreated, list):
            self.err(f"{where} retreated lists the hexes the defending force entered, in order (4.2.5)")
            retreated = []
        path = tuple(h for h in (self.hex(x, f"{where} retreated") for x in retreated) if h is not None)
        counts = {}
        for key in ("converted", "unsatisfied", "owed"):
            n = raw.get(key)
            if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < (1 if key == "owed" else 0)):
                self.err(f"{where} {key} is a count ({'1' if key == 'owed' else '0'} or more)")
                n = None
            counts[key] = n
        armor = raw.get("armor")
        if armor is not None and not isinstance(armor, bool):
            self.err(f"{where} armor is true or false")
            armor = None
        if target is None:
            return None
        return PlacedCombat(target, attackers, unit_id(raw.get("hq"), "hq"), fronts,
                            unit_id(raw.get("defender_hq"), "defender_hq"), stage, result.strip(), attacker_result,
                            path, counts["converted"] or 0, counts["unsatisfied"] or 0, counts["owed"], armor, joined)

    def _common(self) -> tuple[int, str]:
        try:
            common = parse_position(self.raw, tuple(self.d.factions), EXTRA_KEYS)
        except SetupError as exc:
            self.problems += exc.problems
            return 0, ""
        for key in ("units", "steps", "removed", "control"):
            if self.raw.get(key):
                self.err(f"'{key}' is not a Dai Senso key: place units with [[unit]] (id, kind, hex); a unit's "
                         "steps are its kind's")
        if common.phase not in PHASES:
            self.err(f"'phase' is the segment play starts in: {', '.join(PHASES)} (4.1, 4.2, 4.3)")
        return common.turn, common.phase

    def _factions(self) -> tuple[str, ...]:
        value = self.raw.get("factions")
        known = self.d.factions
        if (not isinstance(value, list) or len(value) != 2 or len(set(value)) != 2
                or any(f not in known for f in value)):
            self.err(f"'factions' names the two factions that play, from {', '.join(known)}")
            return tuple(f for f in (value if isinstance(value, list) else []) if f in known)
        if "axis" not in value and not self.since(21):  # ruling D87: a Western-Soviet war since rules version 21
            self.err("'factions': the Axis plays in every game, against the Western or the Soviet faction (ruling D25)")
        return tuple(value)

    def _units(self, neutral: frozenset[str]) -> tuple[PlacedUnit, ...]:
        out = []
        ids = Counter(u.get("id") for u in self.tables("unit"))
        for i, u in enumerate(self.tables("unit"), 1):
            uid = u.get("id")
            where = f"[[unit]] {uid}" if isinstance(uid, str) and uid else f"[[unit]] #{i}"
            self.unknown(u, _UNIT_KEYS, where)
            if not isinstance(uid, str) or not uid:
                self.err(f"{where}: every unit has an id")
                continue
            if ids[uid] > 1:
                self.err(f"{where}: the id {uid} is used by {ids[uid]} units")
            kind = self.d.kinds.get(u.get("kind"))
            if kind is None:
                self.err(f"{where}: no unit kind {u.get('kind')!r} (units.toml)")
                continue
            h = self.hex(u.get("hex"), where)
            faction = self.d.faction_of_nations(kind.nations)
            if faction not in self.factions:
                self.err(f"{where}: a {kind.name} fights for the {faction} faction, which is not in this scenario")
            if h is not None:
                self._unit_hex(where, kind, h, neutral)
            holding = u.get("holding", [])
            if kind.components:
                if not isinstance(holding, list) or len(holding) != 1 or holding[0] not in kind.components:
                    self.err(f"{where}: its Holding Box holds one of {', '.join(kind.components)} (4.2.6.2): "
                             "holding = [\"...\"]")
                    holding = []
            elif holding:
                self.err(f"{where}: a {kind.name} has no Holding Box")
                holding = []
            zone = u.get("zone")
            if (kind.type == "cv-strike") != isinstance(zone, str):
                self.err(f"{where}: a CV Strike names its Naval Zone (zone = \"...\", 4.1.5); no other unit does")
                zone = None
            played = what_if(kind.id, uid) if "values" in u else kind.id  # ruling D35
            if h is not None and faction in self.factions:
                out.append(PlacedUnit(uid, played, h, faction, self.flag(u, "supplied", True, where),
                                      self.flag(u, "blitz", False, where), tuple(holding), zone,
                                      self.flag(u, "attacked", False, where), self.flag(u, "fought", False, where)))
        self._air_spacing(out)
        return tuple(out)

    def _unit_hex(self, where: str, kind, h: Hex, neutral: frozenset[str]) -> None:
        country = self.d.country_of(h)
        if country is not None and country.id in neutral:  # a Dependent only under rules version 13 or before
            what = country_status(self.d, country, "a Neutral Minor Country")
            self.err(f"{where}: {h} is in {country.name}, {what} (13.4): no unit is there")
        if kind.is_ground and not self.d.is_land(h) and not self._beachhead_in(h, kind):
            self.err(f"{where}: {h} is not a Land hex; a ground unit stands at sea only on its faction's Beachhead "
                     "marker (4.2.5, 4.3 step 3)")

    def _beachhead_in(self, h: Hex, kind) -> bool:
        faction = self.d.faction_of_nations(kind.nations)
        return any(m.get("hex") == str(h) and m.get("kind") in ("beachhead", "snlf-beachhead-0")
                   and m.get("faction") == faction for m in self.tables("marker"))

    def _air_spacing(self, units: list[PlacedUnit]) -> None:
        """4.2.3.1 design note: a faction's Air units are never in one hex nor in adjacent hexes."""
        air = [u for u in units if self.d.kinds[u.kind].is_air]
        for i, a in enumerate(air):
            for b in air[i + 1:]:
                if a.faction == b.faction and (a.hex == b.hex or self.d.atlas.adjacent(a.hex, b.hex)):
                    self.err(f"[[unit]] {b.id}: Air units {a.id} and {b.id} are in the same or adjacent hexes "
                             "(4.2.3.1 design note)")

    def _stacking(self, units: tuple[PlacedUnit, ...], mid_segment: bool = False) -> None:
        """No hex holds two factions' ground units; none holds more than the stacking limit, except in the middle of
        a Combat Segment (attacks made: ruling D36), where retreats and advances may leave a stack over it until the
        segment's end (4.2.5.3 design note, 4.2.7; rulings D15, D56: rules version 10)."""
        by_hex: dict[Hex, list[PlacedUnit]] = {}
        for u in units:
            if self.d.kinds[u.kind].is_ground:
                by_hex.setdefault(u.hex, []).append(u)
        for h, here in sorted(by_hex.items()):
            sides = {u.faction for u in here}
            if len(sides) > 1:
                self.err(f"{h} holds ground units of {' and '.join(sorted(sides))}")
            if len(here) > self.d.stacking_limit and not mid_segment:
                self.err(f"{h} holds {len(here)} ground units; a hex holds {self.d.stacking_limit} (ruling D15)")

    def _possible(self, phase: str, phasing: str, units: tuple[PlacedUnit, ...], markers: tuple[PlacedMarker, ...],
                  made: bool, pre_war: bool, truces: tuple[frozenset[str], ...]) -> None:
        """Ruling D56 (rules version 10): states no play of the Combat Phase leaves, each refused naming its case."""
        ground: dict[Hex, set[str]] = {}
        for u in units:
            if self.d.kinds[u.kind].is_ground:
                ground.setdefault(u.hex, set()).add(u.faction)
            if self.d.kinds[u.kind].type == "cv-strike" and phase != "blitz":
                self.err(f"[[unit]] {u.id}: a CV Strike is in a hex only until 4.1.5 returns it to its Naval Zone's "
                         f"Used Box at the end of the Blitz Combat Segment (ruling D38); in the {phase} segment it "
                         "is in the Used Box: [used_box]")
        lone: dict[Hex, set[str]] = {}
        for m in markers:
            if m.kind in LONE_MARKERS:
                lone.setdefault(m.hex, set()).add(m.faction)
        for h, owners in sorted(lone.items()):
            sides = ground.get(h, set()) | owners
            if len(sides) > 1:
                with_ = " and ".join(f"{f} {'ground units' if f in ground.get(h, set()) else 'markers'}"
                                     for f in sorted(sides))
                self.err(f"{h} holds Detachment or Logistics markers beside another faction's pieces ({with_}): a unit "
                         "or marker placed in a hex holding enemy Detachment or Logistics markers sends them to the "
                         "Delay Box (4.1.3.1, 4.2.2; rulings D42, D44, D46, D56)")
        blitz = any(m.kind == "blitz" and m.faction == phasing for m in markers)
        for m in markers:
            if m.kind not in AIRDROPS:
                continue
            if m.faction != phasing or phase != "blitz" or not blitz:
                self.err(f"[[marker]] {m.kind} in {m.hex}: an Airdrop marker is on the map only in its own faction's "
                         "Blitz Combat Segment, with its Blitz marker on the map (4.1, 4.1.1), until 4.1.4 sends it "
                         "to the Delay Box (ruling D56)")
        if made and pre_war:
            self.err("attacks made (attacked_hexes, attacked, fought) while Pre-War is in effect: no unit attacks "
                     "(4.2.1.1, ruling D23)")
        if made and frozenset(self.factions) in truces:
            self.err("attacks made (attacked_hexes, attacked, fought) between factions at truce: they do not attack "
                     "each other (4.2.1.1, ruling D18)")

    def _markers(self) -> tuple[PlacedMarker, ...]:
        out = []
        for i, m in enumerate(self.tables("marker"), 1):
            where = f"[[marker]] #{i} ({m.get('kind')})"
            self.unknown(m, _MARKER_KEYS, where)
            kind = self.d.markers.get(m.get("kind"))
            if kind is None:
                self.err(f"{where}: no marker kind {m.get('kind')!r} (units.toml)")
                continue
            h = self.hex(m.get("hex"), where)
            if kind.owner == "nations":
                faction = self.d.faction_of_nations(kind.nations)
                if m.get("faction", faction) != faction:
                    self.err(f"{where}: a {kind.name} marker is the {faction} faction's")
                if faction not in self.factions:
                    self.err(f"{where}: the {faction} faction is not in this scenario")
                    faction = None
            else:
                faction = self.faction(m.get("faction"), where)
                if faction and kind.factions and faction not in kind.factions:
                    self.err(f"{where}: only {', '.join(kind.factions)} have {kind.name} markers")
            toward = self._toward(m, kind, h, where)
            airborne = self._airborne(m, kind.id, where)
            landed = self.flag(m, "landed", False, where)
            if "landed" in m and not self.since(11):
                self.err(f"{where}: 'landed' came with rules version 11")
            elif landed and kind.id != "snlf-beachhead-0":
                self.err(f"{where}: only an SNLF Beachhead-0 makes a Special SNLF Landing (4.1.3.1): 'landed' is "
                         "for it")
            if h is not None and faction is not None:
                out.append(PlacedMarker(kind.id, h, faction, toward, self.flag(m, "supplied", True, where), airborne,
                                        landed and kind.id == "snlf-beachhead-0"))
        return tuple(out)

    def _airborne(self, m: Mapping, kind: str, where: str) -> str | None:
        """4.1.1: an Airdrop marker is an airborne unit's other side; `airborne` names its kind, needed only when
        several airborne kinds carry that marker. It lands (4.1.4) or goes to the Delay Box as that unit."""
        sides = sorted(k.id for k in self.d.kinds.values() if k.airdrop == kind)
        named = m.get("airborne")
        if not sides:
            if named is not None:
                self.err(f"{where}: only an Airdrop marker has an airborne unit on its other side")
            return None
        if named is None and len(sides) == 1:
            return sides[0]
        if named not in sides:
            self.err(f"{where}: airborne names the unit on the marker's other side: one of {', '.join(sides)}")
            return None
        return named

    def _toward(self, m: Mapping, kind, h: Hex | None, where: str) -> Hex | None:
        if not kind.points:
            if "toward" in m:
                self.err(f"{where}: only a Beachhead marker points toward a hex")
            if h is not None and not self.d.is_land(h):
                self.err(f"{where}: {h} is not a Land hex (4.1.1)")
            return None
        toward = self.hex(m.get("toward"), f"{where} toward")
        if h is not None and self.d.is_land(h):
            self.err(f"{where}: a Beachhead marker lies in an All-Sea hex (4.1.3, 4.2.5), not in {h}")
        if h is not None and toward is not None:
            if not self.d.atlas.adjacent(h, toward) or not self.d.is_land(toward):
                self.err(f"{where}: its arrow points across one hexside to a Land hex next to {h}, not {toward}")
        return toward

    def _weather(self) -> dict[Hex, str]:
        table = self.raw.get("weather", {})
        if not isinstance(table, dict):
            self.err("[weather] maps mud, storms or snow to a list of hexes")
            return {}
        self.unknown(table, set(WEATHER), "[weather]")
        out: dict[Hex, str] = {}
        for kind in WEATHER:
            hexes = table.get(kind, [])
            if not isinstance(hexes, list):
                self.err(f"[weather] {kind} is a list of hexes")
                continue
            for label in hexes:
                h = self.hex(label, f"[weather] {kind}")
                if h is not None and h in out:
                    self.err(f"[weather] {h} has both {out[h]} and {kind}")
                elif h is not None:
                    out[h] = kind
        return out

    def _boxes(self, key: str) -> dict[str, dict[str, int]]:
        """[force_pool.<faction>] / [delay_box.<faction>]: unit or marker kind = how many (4.2.6.2, 4.1.4)."""
        table = self.raw.get(key, {})
        if not isinstance(table, dict):
            self.err(f"[{key}] maps a faction to a table of kind = count")
            return {}
        out: dict[str, dict[str, int]] = {}
        for faction, counts in table.items():
            where = f"[{key}.{faction}]"
            if self.faction(faction, where) is None:
                continue
            if not isinstance(counts, dict):
                self.err(f"{where} is a table of kind = count")
                continue
            out[faction] = {}
            for kid, n in counts.items():
                kind = self.d.kinds.get(kid) or self.d.markers.get(kid)
                if kind is None:
                    self.err(f"{where}: no unit or marker kind {kid!r}")
                    continue
                nations = kind.nations or ()
                owner = self.d.faction_of_nations(nations) if nations else faction
                if owner != faction:
                    self.err(f"{where}: {kid} belongs to the {owner} faction")
                elif self.since(10) and faction not in (getattr(kind, "factions", None) or (faction,)):
                    self.err(f"{where}: only {', '.join(kind.factions)} have {kind.name} markers (ruling D56)")
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    self.err(f"{where}: {kid} is a count (0 or more)")
                    continue
                out[faction][kid] = n
        return out

    def _convoys(self) -> tuple[Convoy, ...]:
        out = []
        for i, c in enumerate(self.tables("convoy"), 1):
            where = f"[[convoy]] #{i}"
            self.unknown(c, {"faction", "zone", "convoys", "used"}, where)
            faction = self.faction(c.get("faction"), where)
            zone = c.get("zone")
            if not isinstance(zone, str) or not zone:
                self.err(f"{where}: zone names the Naval Zone")
            counts = [c.get("convoys", 0), c.get("used", 0)]
            if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
                self.err(f"{where}: convoys and used count the markers in the zone's Convoys and Used Boxes")
                continue
            if faction and isinstance(zone, str) and zone:
                out.append(Convoy(faction, zone, *counts))
        return tuple(out)

    def _used_box(self) -> dict[str, tuple[str, ...]]:
        """[used_box]: Naval Zone = [CV Strike kinds] in its Used Box (4.1.5, ruling D22)."""
        table = self.raw.get("used_box", {})
        if not isinstance(table, dict):
            self.err("[used_box] maps a Naval Zone to a list of CV Strike kinds")
            return {}
        out: dict[str, tuple[str, ...]] = {}
        for zone, kinds in table.items():
            where = f"[used_box] {zone}"
            if not isinstance(kinds, list):
                self.err(f"{where} is a list of CV Strike kinds")
                continue
            for kid in kinds:
                kind = self.d.kinds.get(kid)
                if kind is None or kind.type != "cv-strike":
                    self.err(f"{where}: {kid!r} is not a CV Strike kind (units.toml); only CV Strikes go to a Used "
                             "Box (4.1.5)")
                elif self.d.faction_of_nations(kind.nations) not in self.factions:
                    self.err(f"{where}: {kid} fights for a faction not in this scenario")
            out[zone] = tuple(k for k in kinds if isinstance(k, str))
        return out

    def _countries(self, key: str) -> frozenset[str]:
        value = self.raw.get(key, [])
        if not isinstance(value, list):
            self.err(f"'{key}' is a list of country ids")
            return frozenset()
        dependents = set()
        for cid in value:
            if cid not in self.d.countries:
                self.err(f"'{key}': no country {cid!r} (units.toml)")
            elif (c := self.d.countries[cid]).kind == "dependent" and self.since(14):
                # ruling D67: a Dependent has the status of the country it belongs to (4.2.1.2; D65)
                owner = self.d.countries[c.dependent_of].name
                self.err(f"'{key}': {c.name} is a Dependent of {owner}, not a country of its own: its hexes have "
                         f"{owner}'s status (ruling D65)")
                dependents.add(cid)
            elif key in ("neutral", "free_passage", "no_occupation") and c.kind == "major":
                self.err(f"'{key}': {c.name} is not a Minor Country")
        return frozenset(c for c in value if c in self.d.countries and c not in dependents)

    def _mobilizing(self) -> tuple[tuple[str, str], ...]:
        out = []
        for i, m in enumerate(self.tables("mobilizing"), 1):
            where = f"[[mobilizing]] #{i}"
            self.unknown(m, {"country", "faction"}, where)
            faction = self.faction(m.get("faction"), where)
            country = self.d.countries.get(m.get("country"))
            if country is None or country.kind != "minor":
                self.err(f"{where}: country names a Minor Country, not {m.get('country')!r}")
            elif faction:
                out.append((country.id, faction))
        return tuple(out)

    def _truces(self) -> tuple[frozenset[str], ...]:
        out = []
        for i, t in enumerate(self.tables("truce"), 1):
            pair = t.get("factions")
            if (not isinstance(pair, list) or len(set(pair)) != 2
                    or any(f not in self.d.factions for f in pair)):
                self.err(f"[[truce]] #{i}: factions names the two factions at truce (13.6.2)")
                continue
            out.append(frozenset(pair))
        return tuple(out)

    def _victory(self) -> Victory | None:
        v = self.raw.get("victory")
        if not isinstance(v, dict):
            self.err("[victory] says who wins at the end: faction, hold = [hexes]")
            return None
        self.unknown(v, {"faction", "hold", "note"}, "[victory]")
        faction = self.faction(v.get("faction"), "[victory]")
        hold = v.get("hold")
        if not isinstance(hold, list) or not hold:
            self.err("[victory] hold lists the hexes the faction's ground units must hold at the end")
            hold = []
        hexes = tuple(h for h in (self.hex(x, "[victory] hold") for x in hold) if h is not None)
        if faction is None or len(self.factions) != 2:
            return None
        other = next(f for f in self.factions if f != faction)
        return Victory(faction, hexes, other)


__all__ = ["PHASES", "STAGES", "STEPS", "WEATHER", "Convoy", "PlacedCombat", "PlacedMarker", "PlacedUnit", "Position",
           "Victory",
           "position_from_dict", "read_position"]
