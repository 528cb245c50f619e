"""Operation Olympic data: the TOML files of app/rules/olympic/data/ read, checked against each other and turned
into kernel rule objects (the 8.8 CRT and its differential odds, movement, zones of control, stacking, the
supply trace), with the identity numbers the Japanese doctrine breaks ties by (14.4 note, 8.52, 14.56-14.57).

No game number lives in code: every value comes from the files, which a player who owns the printed game may
replace one at a time (docs/olympic-data.md). A file that contradicts the others is refused with every problem
listed (`DataError`), never half-loaded. A custom map comes in the game's options (`{"map": TOML text}`,
docs/custom-positions.md); the data object keeps the options it was built from.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, lru_cache

from app.rules import datafiles
from app.rules.custom_setup import HEX_LABEL, MAX_ENTRIES, SetupError, counter_values
from app.rules.datafiles import read_toml
from app.rules.kernel.crt import CRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, load_map, loads_map
from app.rules.kernel.movement import CostTable, MovementRules
from app.rules.kernel.paths import TraceRules
from app.rules.kernel.retreat import retreat_length
from app.rules.kernel.stacking import StackingRules, StackLimit
from app.rules.kernel.zoc import ZocRules
from app.rules.olympic import data

SIDES = ("american", "japanese")
LAND = ("rough", "city", "town", "clear")  # Olympic 14.54 A-D, 8.8 note 2
DICE = range(1, 7)
JAPANESE_CLASSES = ("coastal", "line", "reinforcement")  # Olympic 14.3 tracks 1-3
RELEASE_WORDS = {1: ("all", "half", "none"), 2: ("all", "inland", "coastal", "southern", "northern")}
ZONE_TAG = "zone-"
RULING = "Olympic ruling"  # reconstructed rules are cited by their ruling in docs/rulings/olympic.md


class DataError(datafiles.DataError):
    """Olympic data files that do not fit together; ``problems`` lists every one found."""

    title = "Olympic"


def hex_identity(h: Hex) -> int:
    """A hex's identity number: its four-digit label read as a number, so 2326 is above 2325 (14.4 note,
    ruling R1). Units are ordered by the identity of the hex they occupy, then top of the stack first."""
    return int(str(h))


@dataclass(frozen=True)
class Unit:
    """One counter of units.toml. ``klass`` is the Japanese coastal/line/reinforcement class (14.3)."""

    id: str
    side: str
    name: str
    strength: int
    movement: int
    klass: str = ""
    size: str = ""
    arm: str = ""
    setup: Hex | None = None
    arrival: int | None = None
    division: str = ""
    corps: str = ""

    @property
    def category(self) -> str:
        """The printed type, combat strength - movement allowance: the 14.51 category ("2-4")."""
        return f"{self.strength}-{self.movement}"


@dataclass(frozen=True)
class Track:
    """One track of the Japanese Doctrine Chart (14.3): its result for each die roll and when it is rolled."""

    number: int
    case: str
    name: str
    roll: str
    results: dict

    def result(self, die: int):
        return self.results[die]


@dataclass(frozen=True)
class Tokko:
    """The Tokko Results Tables (14.4): casualty points by table and die, the zone by die, the loss rule."""

    tables: dict[int, tuple[int, ...]]
    zones: tuple[str, ...]
    by_identity: tuple[str, ...]
    points_per_group: int
    units_per_group: int
    from_hex: str
    reroll_when: tuple[str, ...]
    permanent: bool
    extra_casualty_points: int

    def points(self, table: int, die: int) -> int:
        return self.tables[table][die - 1]

    def zone(self, die: int) -> str:
        return self.zones[die - 1]

    def units_removed(self, points: int) -> int:
        """Three American units per 100 points (14.4)."""
        return points // self.points_per_group * self.units_per_group


@dataclass(frozen=True, eq=False)
class GameData:
    options: Mapping
    map: GameMap
    crt: CRT
    crt_raw: dict
    terrain: dict
    doctrine: dict[int, Track]
    release: dict
    tokko: Tokko
    priorities: dict
    units: tuple[Unit, ...]
    scenario: dict
    movement: MovementRules
    zoc: ZocRules
    stacking: StackingRules
    supply: TraceRules
    militia_values: Mapping[str, int] = field(default_factory=dict)  # a position's [militia] what-if (ruling R47)

    # -- units ----------------------------------------------------------------------------------------------
    @cached_property
    def by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def unit(self, unit_id: str) -> Unit:
        return self.by_id[unit_id]

    def japanese(self, klass: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == "japanese" and u.klass == klass)

    def american(self, arrival: int | None = None) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == "american" and arrival in (None, u.arrival))

    # -- map --------------------------------------------------------------------------------------------------
    def hex_named(self, name: str) -> Hex:
        return self.map.hex_named(name)

    @cached_property
    def zones(self) -> tuple[str, ...]:
        """The invasion zones on the map: table #4's six in die order, then those taken by identity (14.4)."""
        return self.tokko.zones + self.tokko.by_identity

    def zone_hexes(self, zone: str) -> frozenset[Hex]:
        return self.map.hexes_tagged(ZONE_TAG + zone)

    def zone_of(self, h: Hex) -> str | None:
        for tag in self.map.tags_of(h):
            if tag.startswith(ZONE_TAG):
                return tag[len(ZONE_TAG):]
        return None

    def beaches(self, zone: str) -> frozenset[Hex]:
        """The land hexes next to a zone's sea hexes: where its American units come ashore."""
        return frozenset(n for h in self.zone_hexes(zone) for n in self.map.neighbours(h) if self.is_land(n))

    def is_land(self, h: Hex) -> bool:
        return not self.terrain[self.map.terrain_of(h)].get("sea", False)

    def is_coastal(self, h: Hex) -> bool:
        """A land hex next to a sea hex or with an all-sea hexside (14.3 track 2 "Coastal"; ruling R9)."""
        if not self.is_land(h):
            return False
        return any(not self.is_land(n) or self.map.hexside_features(h, n) & self.blocking_hexsides
                   for n in self.map.neighbours(h))

    def is_southern(self, h: Hex) -> bool:
        """South of the American Objective Line (14.3 track 2 "Southern"; ruling R9)."""
        return self.map.has_tag(h, self.scenario["victory"]["objective_tag"])

    @cached_property
    def blocking_hexsides(self) -> frozenset[str]:
        return frozenset(k for k, v in self.terrain.get("hexsides", {}).items() if v.get("mp") == "prohibited")

    @cached_property
    def militia_hexes(self) -> frozenset[str]:
        """The hexes with an intrinsic militia strength (ruling R11)."""
        return frozenset(str(h) for h in self.map.hexes() if self.militia(h))

    @cached_property
    def land_links(self) -> dict[str, tuple[str, ...]]:
        """Each land hex's land neighbours not across an all-sea hexside: the graph units move, attack, exert
        zones of control and trace supply on (14.58, rulings R15-R17)."""
        out = {}
        for h in self.map.hexes():
            if self.is_land(h):
                out[str(h)] = tuple(str(n) for n in self.map.neighbours(h) if self.is_land(n)
                                    and not self.map.hexside_features(h, n) & self.blocking_hexsides)
        return out

    @cached_property
    def land_mp(self) -> dict[str, int]:
        """Movement points to enter each land hex (ruling R10)."""
        return {label: int(self.terrain[self.map.terrain_of(Hex.parse(label))]["mp"]) for label in self.land_links}

    def militia(self, h: Hex) -> int:
        """The hex's intrinsic militia strength, before doctrine track 4 (ruling R11): its terrain's, or the one a
        position gives it (`[militia]`, ruling R47)."""
        given = self.militia_values.get(str(h))
        return int(self.terrain[self.map.terrain_of(h)].get("militia", 0)) if given is None else given

    def retreat_hexes(self, h: Hex) -> int:
        """Hexes an Ar or Dr result retreats a unit standing in ``h`` (8.8 note 2)."""
        table = {t: v["retreat_hexes"] for t, v in self.terrain.items() if t != "hexsides" and "retreat_hexes" in v}
        return retreat_length(table, self.map.terrain_of(h), "Olympic 8.8 note 2")

    def terrain_rank(self, h: Hex) -> int:
        """Position of the hex's terrain in the 14.54 preference (0 = Rough, the most preferred)."""
        return self.priorities["destinations"]["terrain_preference"].index(self.map.terrain_of(h))

    # -- doctrine and Tokko -----------------------------------------------------------------------------------
    def militia_factor(self, die: int) -> Fraction:
        """Doctrine track 4: the factor on an intrinsic militia strength for this die roll (14.3)."""
        return self.doctrine[4].result(die)

    def tokko_table(self, die: int) -> int:
        """Doctrine track 5: which Tokko results table to roll on (14.3, 14.4)."""
        return self.doctrine[5].result(die)



def crt_table(raw: dict) -> dict:
    """crt.toml in the shape `CRT.from_dict` reads (Olympic 8.8, 8.9, note 1): casualty points as the named pair
    of note 4, the 8.9 codes as tokens; a retreat's length is the terrain's (note 2), so Ar and Dr mark who
    retreats rather than how far."""
    table = raw["table"]
    tokens = {}
    for code, spec in raw["codes"].items():
        token: dict = {}
        for side in ("attacker", "defender"):
            effect = spec.get(side)
            if effect == "eliminated":
                token[side] = {"eliminated": True}
            elif effect == "retreats":
                token["markers"] = [f"{side}-retreats"]
        if spec.get("exchange"):
            token["exchange"] = True
        tokens[code] = token
    return {
        "name": "Olympic CRT",
        "case": table["case"],
        "odds": {"method": table["method"], "minimum": str(table["minimum"]), "case": table["case"],
                 "minimum_case": "Olympic 8.8 note 1"},
        "dice": (1, 6),
        "columns": list(table["columns"]),
        "notation": {"pair": ["cp_us_attacking", "cp_japan_attacking"], "tokens": tokens},
        "results": {k: list(v) for k, v in raw["results"].items()},
        "loss_unit": "unit",
    }


def _cost_table(terrain: dict) -> CostTable:
    def mp(value):
        return None if value == "prohibited" else float(value)

    return CostTable(terrain={t: mp(v["mp"]) for t, v in terrain.items() if t != "hexsides"},
                     hexside={k: mp(v["mp"]) for k, v in terrain.get("hexsides", {}).items()})


@lru_cache(maxsize=1)
def _printed_map(path: str) -> GameMap:
    """The printed map, read once a process: a map is immutable, and every position (whose [values] and [militia]
    give each its own GameData) plays on the same one, so a game started from a position no longer reads and
    indexes the whole map again (most of the time a position took to start)."""
    return load_map(path)


@lru_cache(maxsize=8)
def _custom_map(text: str) -> GameMap:
    """A custom map's TOML text, read once for the positions that come with it (a refused map is read again)."""
    return loads_map(text, "custom map")


def load(options: Mapping | None = None) -> GameData:
    """The game's data; `options["map"]` is a custom map's TOML text (the printed reconstruction without it).
    The engine builds it once per set of options (app/rules/engine/game.py)."""
    options = dict(options or {})
    unknown = sorted(set(options) - {"map", "position"})
    if unknown:
        raise DataError([f"unknown option {k!r}: Operation Olympic takes a custom map ('map') and a position "
                         "('position', read by position.start)" for k in unknown])
    custom_map = options.get("map") or ""
    gmap = _custom_map(custom_map) if custom_map else _printed_map(str(data.MAP))
    crt_raw = read_toml(data.CRT)
    tec = read_toml(data.TERRAIN)
    terrain = dict(tec["terrain"], hexsides=tec.get("hexsides", {}))
    doctrine_raw = read_toml(data.DOCTRINE)
    doctrine = _doctrine(doctrine_raw)
    tk = read_toml(data.TOKKO)
    tokko = Tokko(tables={int(k): tuple(v) for k, v in tk["tables"].items() if k != "case"},
                  zones=tuple(tk["zones"]["table"]), by_identity=tuple(tk["zones"]["by_identity"]),
                  points_per_group=int(tk["losses"]["points_per_group"]),
                  units_per_group=int(tk["losses"]["units_per_group"]), from_hex=tk["losses"]["from_hex"],
                  reroll_when=tuple(tk["losses"]["reroll_when"]), permanent=bool(tk["losses"]["permanent"]),
                  extra_casualty_points=int(tk["losses"]["extra_casualty_points"]))
    priorities = read_toml(data.PRIORITIES)
    units = tuple(_unit(u) for u in read_toml(data.UNITS)["unit"])
    changes, problems = counter_values(options.get("position"), VALUES, {u.id for u in units})
    if problems:
        raise SetupError("position", problems)
    units = tuple(replace(u, **changes[u.id]) if u.id in changes else u for u in units)
    scenario = read_toml(data.SCENARIO)
    costs = _cost_table(terrain)
    blocking = frozenset(k for k, v in terrain["hexsides"].items() if v.get("blocks_zoc"))
    sea = frozenset(t for t, v in terrain.items() if t != "hexsides" and v.get("sea"))
    movement = MovementRules(
        costs={"american": costs, "japanese": costs},
        move_case=f"{RULING} R10", prohibited_case="Olympic 14.58", enemy_case=f"{RULING} R10",
        ezoc_stop_case=f"{RULING} R15", ezoc_exit_case=f"{RULING} R15",
        ezoc_exit=scenario["zoc"]["exit"], ezoc_stop=True, friendly_negates_ezoc=False,
    )
    zoc = ZocRules(case=f"{RULING} R15", blocked_terrain=sea, blocked_hexsides=blocking)
    cap = float(scenario["stacking"]["max_units"])
    stacking = StackingRules(limits=tuple(
        StackLimit(f"{RULING} R14", side=side, max_total=cap, label=f"{side.capitalize()} units") for side in SIDES))
    supply = TraceRules(case=f"{RULING} R16", blocked_hexsides=frozenset(
        k for k, v in terrain["hexsides"].items() if v.get("blocks_supply")), blocked_terrain=sea,
        enemy_units_block=True, ezoc_blocks=True, friendly_negates_ezoc=True,
        max_length=scenario["supply"]["max_length"] or None)
    militia, problems = _militia_values(options.get("position"), gmap, terrain)
    if problems:
        raise SetupError("position", problems)
    game = GameData(options, gmap, CRT.from_dict(crt_table(crt_raw)), crt_raw, terrain, doctrine,
                    doctrine_raw["release"], tokko, priorities, units, scenario, movement, zoc, stacking, supply,
                    militia)
    problems = _problems(game)
    if problems:
        raise DataError(problems)
    return game


def _militia_values(position, gmap: GameMap, terrain: dict) -> tuple[dict[str, int], list[str]]:
    """A position's `[militia]`: `"XXYY" = n`, a land hex's intrinsic militia strength other than its terrain's (a
    what-if, ruling R47; 0: none). Returns the strengths by hex and the problems found."""
    raw = position.get("militia", {}) if isinstance(position, dict) else {}
    if not isinstance(raw, dict) or len(raw) > MAX_ENTRIES:
        return {}, [f"[militia] maps land hexes to intrinsic militia strengths (at most {MAX_ENTRIES}; ruling R47)"]
    out, problems = {}, []
    for label, value in sorted(raw.items()):
        try:
            h = Hex.parse(label) if isinstance(label, str) and HEX_LABEL.fullmatch(label) else None
        except ValueError:
            h = None
        if h is None or not gmap.on_map(h) or terrain[gmap.terrain_of(h)].get("sea"):
            problems.append(f"[militia] {label!r} is not a land hex of the map (ruling R47)")
        elif not isinstance(value, int) or isinstance(value, bool) or value not in MILITIA:
            problems.append(f"[militia] {label}: an intrinsic militia strength is a whole number from {MILITIA.start} "
                            f"to {MILITIA.stop - 1}, not {value!r} (ruling R47)")
        else:
            out[label] = value
    return out, problems


def _doctrine(raw: dict) -> dict[int, Track]:
    tracks = {}
    for t in raw["track"]:
        results = {int(k): v for k, v in t["results"].items()}
        if t["number"] == 3:
            results = {k: tuple(v) for k, v in results.items()}
        elif t["number"] == 4:
            results = {k: Fraction(v) for k, v in results.items()}
        tracks[int(t["number"])] = Track(int(t["number"]), t["case"], t["name"], t["roll"], results)
    return tracks


# what a position's [values] may change on a counter (a what-if; docs/custom-positions.md, ruling R31)
VALUES = {"strength": range(0, 100), "movement": range(0, 100)}
MILITIA = range(0, 100)  # a position's [militia] strengths (ruling R47)

def _unit(raw: dict) -> Unit:
    return Unit(id=raw["id"], side=raw["side"], name=raw["name"], strength=int(raw["strength"]),
                movement=int(raw["movement"]), klass=raw.get("class", ""), size=raw.get("size", ""),
                arm=raw.get("arm", ""), setup=Hex.parse(raw["setup"]) if "setup" in raw else None,
                arrival=raw.get("arrival"), division=raw.get("division", ""), corps=raw.get("corps", ""))


def _problems(game: GameData) -> list[str]:
    """Every way the files contradict each other or the fragments' structure."""
    out: list[str] = []
    gmap = game.map
    terrains = {gmap.terrain_of(h) for h in gmap.hexes()}
    out += [f"terrain.toml has no entry for map terrain {t!r}" for t in sorted(terrains - set(game.terrain))]
    land = [t for t in game.terrain if t != "hexsides" and not game.terrain[t].get("sea")]
    if sorted(land) != sorted(LAND):
        out.append(f"the land terrain types are {', '.join(LAND)} (14.54), not {', '.join(land)}")
    if sorted(game.priorities["destinations"]["terrain_preference"]) != sorted(LAND):
        out.append("priorities.toml terrain_preference must order rough, city, town, clear (14.54)")
    # a custom map is taken as it states itself (ruling R46): a zone or tag its [vocabulary] does not declare is
    # one it does not have; one it declares is given hexes
    declared = gmap.vocabulary.tags if game.options.get("map") else None
    for zone in game.zones:
        hexes = game.zone_hexes(zone)
        if not hexes and (declared is None or ZONE_TAG + zone in declared):  # else none is placed there (14.4, R8)
            out.append(f"invasion zone {zone!r} has no hex tagged {ZONE_TAG + zone!r} on the map (14.4)")
        out += [f"invasion zone hex {h} ({zone}) is not a sea hex next to land" for h in sorted(hexes)
                if game.is_land(h) or not any(game.is_land(n) for n in gmap.neighbours(h))]
    categories = game.priorities["movement"]["order"]
    seen: set[str] = set()
    per_hex: dict[Hex, int] = {}
    for u in game.units:
        if u.id in seen:
            out.append(f"unit id {u.id!r} is used twice")
        seen.add(u.id)
        if u.side not in SIDES:
            out.append(f"{u.id}: side {u.side!r} is not one of {', '.join(SIDES)}")
            continue
        if u.side == "american":
            if not isinstance(u.arrival, int) or not 1 <= u.arrival <= game.scenario["game"]["game_turns"]:
                out.append(f"{u.id}: an American unit needs an arrival Game-Turn")
            continue
        if u.klass not in JAPANESE_CLASSES:
            out.append(f"{u.id}: class {u.klass!r} is not one of {', '.join(JAPANESE_CLASSES)} (14.3)")
        if u.category not in categories:
            out.append(f"{u.id}: type {u.category} is not a 14.51 category ({', '.join(categories)})")
        if u.klass == "reinforcement":
            if u.setup is not None:
                out.append(f"{u.id}: reinforcements enter by doctrine track 3 and have no set-up hex")
            continue
        if u.setup is not None and "position" in game.options:
            continue  # a position places the units: the set-up hexes are not read (docs/custom-positions.md)
        if u.setup is None or not gmap.on_map(u.setup) or not game.is_land(u.setup):
            out.append(f"{u.id}: set-up hex {u.setup} is not a land hex of the map")
            continue
        if u.klass == "coastal" and not game.is_coastal(u.setup):
            out.append(f"{u.id}: a coastal unit sets up in a coastal hex, not {u.setup}")
        per_hex[u.setup] = per_hex.get(u.setup, 0) + 1
    cap = game.scenario["stacking"]["max_units"]
    out += [f"{n} Japanese units set up in {h}, over the stacking limit of {cap}"
            for h, n in sorted(per_hex.items()) if n > cap]
    pool = {u.category for u in game.japanese("reinforcement")}
    for number, track in sorted(game.doctrine.items()):
        if set(track.results) != set(DICE):
            out.append(f"doctrine track {number} needs a result for each die roll 1-6")
        for die, value in track.results.items():
            if number in RELEASE_WORDS and value not in RELEASE_WORDS[number]:
                out.append(f"doctrine track {number}, die {die}: {value!r} is not one of {RELEASE_WORDS[number]}")
            if number == 3 and not set(value) <= pool:
                out.append(f"doctrine track 3, die {die}: {', '.join(value)} not in the reinforcement pool")
            if number == 5 and value not in game.tokko.tables:
                out.append(f"doctrine track 5, die {die}: there is no Tokko table #{value}")
    if sorted(game.doctrine) != [1, 2, 3, 4, 5]:
        out.append("doctrine.toml needs tracks 1-5 (14.3)")
    out += [f"Tokko table #{n} needs six results" for n, row in game.tokko.tables.items() if len(row) != 6]
    if len(game.tokko.zones) != 6:
        out.append("Tokko table #4 names six zones (14.4)")
    victory = game.scenario["victory"]
    try:
        key = game.hex_named(victory["key_city"])
        if gmap.terrain_of(key) != "city":
            out.append(f"the key city {victory['key_city']} ({key}) is not a City hex")
    except (KeyError, ValueError) as exc:
        out.append(f"scenario.toml key_city: {exc}")
    for tag in (victory["objective_tag"], game.scenario["japanese_reinforcements"]["entry"]):
        if not gmap.hexes_tagged(tag) and (declared is None or tag in declared):  # else none south, none enter (R12)
            out.append(f"no map hex is tagged {tag!r}")
    return out
