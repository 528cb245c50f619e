"""Operation Causeway: Formosa 1944 data: the TOML files of app/rules/formosa/data/ read, checked against each
other and turned into kernel rule objects (the two percentage CRTs, movement by class, zones of control,
stacking, the supply trace).

No game number lives in code: every value comes from the files, which a player who owns the printed game may
replace one at a time (docs/formosa-data.md). Files that contradict each other are refused with every problem
listed (`DataError`), never half-loaded. Options: `{"map": TOML text}` for a custom map and `{"position": {...}}`
for a custom position (docs/custom-positions.md; position.py reads it), and `{"optional": ["25.1", ...]}` for the
optional rules chosen at creation (25.0; optional.py); the data keeps them.
"""
from __future__ import annotations

import copy
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from app.rules import datafiles
from app.rules.custom_setup import SetupError, counter_values
from app.rules.datafiles import read_toml
from app.rules.formosa import data
from app.rules.kernel.crt import CRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, load_map, loads_map
from app.rules.kernel.movement import CostTable, MovementRules
from app.rules.kernel.paths import TraceRules
from app.rules.kernel.shifts import hexside_shift
from app.rules.kernel.stacking import Incompatible, StackingRules, StackLimit
from app.rules.kernel.zoc import ZocRules

SIDES = ("allied", "japanese")
NATIONALITIES = {"allied": ("us", "cw"), "japanese": ("japanese",)}
CLASSES = ("mechanized", "non-mechanized")
OPTIONAL_RULES = tuple(f"25.{n}" for n in range(1, 11))
DICE = range(1, 7)
COUNTERS = 176  # 2.0
FORMOSA_AREA = "formosa"
NOT_ON_CHART = "none"  # a unit no LP chart row lists: never recruited nor replaced (ruling F27)
RULING = "Formosa ruling"  # reconstructed rules cite their ruling in docs/rulings/formosa.md


def side_unit(side: str) -> str:
    """"an Allied unit" or "a Japanese unit": a side's unit as a refusal names it."""
    return {"allied": "an Allied unit", "japanese": "a Japanese unit"}.get(side, f"a {side} unit")


class DataError(datafiles.DataError):
    """Formosa data files that do not fit together; ``problems`` lists every one found."""

    title = "Formosa"


@dataclass(frozen=True)
class Unit:
    """One ground counter of units.toml (2.4); ``base_cf`` is an Allied engineer's base side (20.0)."""

    id: str
    side: str
    nationality: str
    name: str
    type: str
    lp_type: str
    cf: int
    mf: int
    mobility: str
    size: str
    concealed_mf: int | None = None
    indicator: str = ""
    division: str = ""
    base_cf: int | None = None
    optional: str = ""
    immobile: bool = False

    @property
    def static(self) -> bool:
        return self.mobility == "static"

    @property
    def label(self) -> str:
        """The printed factors, "5-5" (15.5 example)."""
        return f"{self.cf}-{self.mf}"


@dataclass(frozen=True)
class Counter_:
    """An air, naval or marker counter: ``front``/``back`` are air points for TAC and kamikaze (2.5)."""

    id: str
    side: str
    table: str
    kind: str
    nationality: str = ""
    front: int = 0
    back: int = 0


@dataclass(frozen=True, eq=False)
class GameData:
    options: Mapping
    map: GameMap
    terrain: dict
    crt_raw: dict
    crts: dict[str, CRT]
    air: dict
    charts: dict
    units: tuple[Unit, ...]
    counters: tuple[Counter_, ...]
    scenarios: dict
    deployment: dict[str, Hex]
    displays: dict
    tracks: dict
    movement: MovementRules
    zoc: ZocRules
    stacking: StackingRules
    supply: dict[str, TraceRules]

    # -- units ----------------------------------------------------------------------------------------------
    @cached_property
    def by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def unit(self, unit_id: str) -> Unit:
        return self.by_id[unit_id]

    def of_type(self, side: str, unit_type: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == side and u.type == unit_type)

    @property
    def optional(self) -> frozenset[str]:
        """The optional rules chosen for this game (25.0)."""
        return frozenset(self.options.get("optional", ()))

    def scenario(self, number: int) -> dict:
        return self.scenarios[str(number)]

    def setup_groups(self, number: int, side: str) -> tuple[dict, ...]:
        """The scenario's set-up lists for a side: {area, units, choose?} (24.1; 24.2 as 24.1)."""
        return tuple(self.scenario(number)[side])

    # -- the map --------------------------------------------------------------------------------------------
    # The map and the terrain file never change once loaded, so what they say of each hex is found once per
    # GameData (a custom map is its own GameData): the list of legal orders asks it thousands of times a position.
    @cached_property
    def _land_of(self) -> Mapping[Hex, bool]:
        """Every on-map hex: is it land?"""
        kinds = self.terrain["terrain"]
        return {h: bool(kinds[self.map.terrain_of(h)].get("land")) for h in self.map.hexes()}

    @cached_property
    def _land(self) -> frozenset[Hex]:
        return frozenset(h for h, land in self._land_of.items() if land)

    @cached_property
    def _coastal(self) -> frozenset[Hex]:
        land_of = self._land_of
        return frozenset(h for h in self._land if any(not land_of[n] for n in self.map.neighbours(h)))

    @cached_property
    def _open_coastal(self) -> frozenset[Hex]:
        return frozenset(h for h in self._coastal if self.map.terrain_of(h) == "open")

    @cached_property
    def _ports(self) -> frozenset[Hex]:
        return self.map.hexes_with("major-port") | self.map.hexes_with("minor-port")

    def is_land(self, h: Hex) -> bool:
        """KeyError for a hex off the map."""
        found = self._land_of.get(h)
        if found is None:
            return bool(self.terrain["terrain"][self.map.terrain_of(h)].get("land"))
        return found

    def land(self) -> frozenset[Hex]:
        return self._land

    @cached_property
    def land_sites(self) -> tuple[tuple[str, frozenset[str], str], ...]:
        """Every land hex in hex order as (label, features, terrain), read once (8.1 deployment walks them all)."""
        return tuple((str(h), self.map.features_of(h), self.map.terrain_of(h)) for h in sorted(self._land))

    def is_coastal(self, h: Hex) -> bool:
        """A land hex next to a sea hex (ruling F11); KeyError for a hex off the map."""
        return h in self._coastal or (h not in self._land_of and self.is_land(h)
                                      and any(not self.is_land(n) for n in self.map.neighbours(h)))

    def open_coastal(self) -> frozenset[Hex]:
        """Where an amphibious marker lands unopposed besides ports (10.1 item 1)."""
        return self._open_coastal

    def ports(self) -> frozenset[Hex]:
        return self._ports

    def airfields(self) -> frozenset[Hex]:
        return self.map.hexes_with("airfield")

    def peaks(self) -> frozenset[Hex]:
        return self.map.hexes_of_terrain("peak")

    def objectives(self, h: Hex) -> tuple[str, ...]:
        """The 4.2 objectives of a hex, one entry each (a hex may hold several: 4.2 Important)."""
        feats = self.map.features_of(h)
        out = [f for f in ("major-port", "minor-port", "airfield", "industry") if f in feats]
        if self.map.terrain_of(h) == "peak":
            out.append("peak")
        return tuple(out)

    def sudden_death_hexes(self) -> frozenset[Hex]:
        """Every port and airfield hex of the map: the Allied sudden death (4.1)."""
        return self.ports() | self.airfields()

    def move_class(self, u: Unit) -> str | None:
        """The movement class of terrain.toml (2.4); None for a static unit, which never moves."""
        return None if u.static else u.mobility

    # -- terrain in combat ----------------------------------------------------------------------------------
    def hex_shift(self, h: Hex, nationality: str) -> int:
        """Columns left for defenders of ``nationality`` ("japanese" or "allied") in ``h``: the most beneficial
        of its terrain and features (15.4.1)."""
        side = "japanese" if nationality == "japanese" else "allied"
        entries = [self.terrain["terrain"][self.map.terrain_of(h)]]
        entries += [self.terrain["features"][f] for f in self.map.features_of(h) if f in self.terrain["features"]]
        return max((e.get("shift", {}).get(side, 0) for e in entries), default=0)

    def hexside_shift(self, defender: Hex, attackers: list[Hex], nationality: str) -> int:
        """Columns left for the hexsides attacked across: only if every attacker crosses one (15.4.1)."""
        side = "japanese" if nationality == "japanese" else "allied"
        amounts = []
        for a in attackers:
            feats = self.map.hexside_features(a, defender)
            amounts.append(-max((self.terrain["hexsides"][f].get("shift", {}).get(side, 0) for f in feats
                                 if f in self.terrain["hexsides"]), default=0))
        return -hexside_shift(amounts, plain_counts=True)

    def b29_column(self, h: Hex, fortified: bool) -> str:
        """The B-29 Attack Table column for a strike on ``h`` (16.5): Fortified if a coastal defense or heavy
        weapons unit is there (16.5 Important), else the most protective of its terrain and features."""
        if fortified:
            return "fortified"
        columns = self.air["b29"]["columns"]
        entries = [self.terrain["terrain"][self.map.terrain_of(h)]]
        entries += [self.terrain["features"][f] for f in self.map.features_of(h) if f in self.terrain["features"]]
        return max((e["b29"] for e in entries if "b29" in e), key=columns.index)

    # -- tables ---------------------------------------------------------------------------------------------
    def crt(self, attacker_nationality: str) -> CRT:
        """"Allied Attacking" for US and CW attackers, "Japanese Attacking" for the Japanese (15.2 step 5)."""
        return self.crts["japanese" if attacker_nationality == "japanese" else "allied"]

    def air_combat(self, points: int, die: int) -> int:
        """Air points the other side loses (16.2, 16.6): the column holding ``points``, the row of ``die``."""
        table = self.air["air_combat"]
        lows = [int(c.split("-")[0].rstrip("+")) for c in table["columns"]]
        column = max(i for i, low in enumerate(lows) if points >= low)
        return int(table[str(die)][column])

    def b29(self, column: str, die: int) -> str:
        table = self.air["b29"]
        return table[str(die)][table["columns"].index(column)]

    def mobile_fleet(self, scenario: int, die: int) -> str:
        return self.charts["mobile_fleet"][f"scenario_{scenario}"][die - 1]

    def victory_level(self, net: int) -> str:
        """The level for Allied VP minus Japanese VP (4.2)."""
        return next(lv["level"] for lv in self.charts["victory"]["levels"] if net >= lv["min"])

    def lp_cost(self, side: str, unit_type: str, replace: bool = False):
        """Recruit (or replace) cost in LP of a type on the side's LP Expenditure Chart (7.3); "n/a" if it
        cannot be (the text's N/A, or a unit no row lists: ruling F27)."""
        if unit_type == NOT_ON_CHART:
            return "n/a"
        for row in self.charts[f"{side}_lp"]:
            if unit_type in row["types"]:
                return row["replace" if replace else "recruit"]
        raise KeyError(f"no {side} LP chart row lists {unit_type!r}")

    def setup_only(self, side: str, unit_type: str) -> bool:
        """Japanese types recruitable during initial set-up only (8.2, the chart's top two rows)."""
        return any(unit_type in row["types"] and row.get("setup_only") for row in self.charts[f"{side}_lp"])



def crt_table(raw: dict, side: str) -> dict:
    """One of crt.toml's tables in the shape `CRT.from_dict` reads (15.2-15.5)."""
    table = raw["table"]
    tokens = {}
    for code, spec in raw["codes"].items():
        token: dict = {}
        for who in ("attacker", "defender"):
            effect = spec.get(who)
            if effect == "one":
                token[who] = {"losses": 1}
            elif effect == "all":
                token[who] = {"eliminated": True}
            elif effect == "retreat":
                token[who] = {"retreat": 1}
        markers = [m for m in ("bloodbath", "counterattack") if spec.get(m)]
        if markers:
            token["markers"] = markers
        tokens[code] = token
    return {
        "name": f"Formosa {raw[side]['name']} CRT",
        "case": table["case"],
        "odds": {"method": table["method"], "percent_rounding": table["percent_rounding"],
                 "beyond_ends": table["beyond_ends"], "case": "Formosa 15.2, 15.3"},
        "dice": (1, 6),
        "columns": list(table["columns"]),
        "notation": {"pair": None, "tokens": tokens},
        "results": {k: list(v) for k, v in raw[side].items() if k != "name"},
        "loss_unit": "unit",
    }


def _costs(terrain: dict, cls: str) -> CostTable:
    def mp(entry):
        value = entry.get("mp", {}).get(cls, 0)
        return None if value == "prohibited" else value

    hex_costs, road_only = {}, set()
    for name, entry in terrain["terrain"].items():
        value = mp(entry)
        if value == "road-only":
            road_only.add(name)
            value = terrain["road"]["mp"]
        hex_costs[name] = value
    features = {f: e["mp"][cls] for f, e in terrain["features"].items() if "mp" in e}
    return CostTable(terrain=hex_costs, hexside={k: mp(v) for k, v in terrain["hexsides"].items()},
                     features=features, road=terrain["road"]["mp"], rail=terrain["road"]["mp"],
                     road_only_terrain=frozenset(road_only))


def _rules(terrain: dict, charts: dict) -> tuple[MovementRules, ZocRules, StackingRules, dict[str, TraceRules]]:
    movement = MovementRules(
        costs={cls: _costs(terrain, cls) for cls in CLASSES},
        move_case="Formosa 12.0", prohibited_case="Formosa 12.2", enemy_case="Formosa 12.2",
        ezoc_stop_case="Formosa 14.1", ezoc_exit_case="Formosa 12.2", minimum_move_case="Formosa 12.3",
        road_only_case="Formosa 12.2", route_only_case="Formosa 22.0",
        road_needs_road_hexside=terrain["road"]["contiguous"],
        road_negates_hexside=terrain["road"]["negates_river"], ezoc_stop=True, ezoc_exit="non-ezoc",
        friendly_negates_ezoc=False, minimum_move=True)
    sea = frozenset(t for t, e in terrain["terrain"].items() if not e.get("land"))
    zoc = ZocRules(case="Formosa 14.0", exempt=frozenset({"guerrilla"}), blocked_terrain=sea,
                   blocked_hexsides=frozenset(k for k, v in terrain["hexsides"].items() if v.get("blocks_attack")))
    st = charts["stacking"]
    limits = []
    for side in SIDES:
        caps = st[side]
        limits.append(StackLimit("Formosa 13.1" if side == "allied" else "Formosa 13.2", side=side,
                                 per_class={"mobile": caps["mobile"], "static": caps["static"]},
                                 label=f"{side.capitalize()} ground units"))
    allied, japanese = st["allied"], st["japanese"]
    limits.append(StackLimit("Formosa 13.1", side="allied", category="air", alone=frozenset({"b29"}),
                             per_class={"tac": allied["tac_points"], "air-supply": allied["air_supply"]},
                             valued=frozenset({"tac"}), label="Allied air units"))
    limits.append(StackLimit("Formosa 13.1", side="allied", category="naval", max_total=allied["gunfire"],
                             label="Allied naval gunfire units"))
    limits.append(StackLimit("Formosa 13.2", side="japanese", category="air",
                             per_class={"tac": japanese["tac_points"]}, valued=frozenset({"tac"}),
                             label="Japanese air units"))
    stacking = StackingRules(limits=tuple(limits), incompatible=(
        Incompatible("Formosa 5.1, 13.1", frozenset({"us"}), frozenset({"cw"})),))
    blocked = frozenset(k for k, v in terrain["hexsides"].items() if v.get("blocks_supply"))
    supply = {cls: TraceRules(case="Formosa 19.0", blocked_hexsides=blocked, blocked_terrain=sea,
                              road_only_terrain=_costs(terrain, cls).road_only_terrain, enemy_units_block=True,
                              ezoc_blocks=True, friendly_negates_ezoc=False) for cls in CLASSES}
    return movement, zoc, stacking, supply


# what a position's [values] may change on a counter (a what-if; docs/custom-positions.md, ruling F104)
VALUES = {"cf": range(0, 100), "mf": range(0, 100), "concealed_mf": range(0, 100), "base_cf": range(0, 100),
          "indicator": ("", "A", "D")}


def _unit(raw: dict) -> Unit:
    return Unit(id=raw["id"], side=raw["side"], nationality=raw["nationality"], name=raw["name"], type=raw["type"],
                lp_type=raw["lp_type"], cf=int(raw["cf"]), mf=int(raw["mf"]), mobility=raw["mobility"],
                size=raw["size"], concealed_mf=raw.get("concealed_mf"), indicator=raw.get("indicator", ""),
                division=raw.get("division", ""), base_cf=raw.get("base_cf"), optional=raw.get("optional", ""),
                immobile=bool(raw.get("immobile", False)))


def _scenarios(raw: dict) -> dict:
    """24.2 sets up as 24.1 with its own changes: copy scenario 1's set-up lists into scenario 2."""
    out = {k: dict(v) for k, v in raw["scenario"].items()}
    for key in ("japanese", "allied", "special"):
        out["2"].setdefault(key, out["1"][key])
    return out


@lru_cache(maxsize=16)
def _read(path: str, stamp: tuple[int, int]):
    """A data file read once while it stays as it is (`stamp`: its size and modification time): a position or a
    set of optional rules gives a game its own data, built from the same files."""
    return load_map(path) if path == str(data.MAP) else read_toml(path)


def _file(path) -> dict | GameMap:
    """The printed map (immutable) as read, or a TOML file's dict as a copy of the one read (the data built from it
    owns it)."""
    st = os.stat(path)
    found = _read(str(path), (st.st_size, st.st_mtime_ns))
    return found if isinstance(found, GameMap) else copy.deepcopy(found)


def load(options: Mapping | None = None) -> GameData:
    """The game's data for ``options`` (the printed reconstruction without a custom map)."""
    options = dict(options or {})
    problems = [f"unknown option {k!r}: Formosa takes a custom map ('map'), a position ('position') and optional "
                "rules ('optional')" for k in sorted(set(options) - {"map", "position", "optional"})]
    rules = options.get("optional", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        problems.append("'optional' is a list of optional rules (25.1-25.10)")
        rules = []
    problems += [f"unknown optional rule {r[:12]!r}: the optional rules are 25.1-25.10"
                 for r in rules if r not in OPTIONAL_RULES]
    problems += [f"optional rule {r} is named twice" for r in sorted({r for r in rules if rules.count(r) > 1})]
    if problems:
        raise DataError(problems)
    custom_map = options.get("map") or ""
    gmap = loads_map(custom_map, "custom map") if custom_map else _file(data.MAP)
    terrain = _file(data.TERRAIN)
    crt_raw = _file(data.CRT)
    charts = _file(data.CHARTS)
    raw_units = _file(data.UNITS)
    units = tuple(_unit(u) for u in raw_units["unit"])
    changes, problems = counter_values(options.get("position"), VALUES, {u.id for u in units})
    if problems:
        raise SetupError("position", problems)
    units = tuple(replace(u, **changes[u.id]) if u.id in changes else u for u in units)
    counters = tuple(Counter_(id=c["id"], side=c.get("side", ""), table=table, kind=c.get("kind", "gunfire"),
                              nationality=c.get("nationality", ""), front=c.get("front", 0), back=c.get("back", 0))
                     for table in ("air", "naval", "marker") for c in raw_units.get(table, ()))
    scen_raw = _file(data.SCENARIOS)
    displays = _file(data.DISPLAYS)
    movement, zoc, stacking, supply = _rules(terrain, charts)
    game = GameData(options, gmap, terrain, crt_raw, {side: CRT.from_dict(crt_table(crt_raw, side)) for side in SIDES},
                    _file(data.AIR), charts, units, counters, _scenarios(scen_raw),
                    {k: Hex.parse(v) for k, v in scen_raw.get("deployment", {}).items()},
                    displays["display"], displays["track"], movement, zoc, stacking, supply)
    if custom_map and _deployment_problems(game):
        game = replace(game, deployment={})  # ruling F103: the printed map's default set-up does not fit this one
    problems = _problems(game)
    if problems:
        raise DataError(problems)
    return game


# ---------------------------------------------------------------------------------------------------------
# Cross-checks: every way the files contradict each other or a fact of the text
# ---------------------------------------------------------------------------------------------------------
def _problems(game: GameData) -> list[str]:
    return _map_problems(game) + _table_problems(game) + _unit_problems(game) + _scenario_problems(game)


def _map_problems(game: GameData) -> list[str]:
    out: list[str] = []
    gmap, tec = game.map, game.terrain
    used = {gmap.terrain_of(h) for h in gmap.hexes()}
    out += [f"terrain.toml has no entry for map terrain {t!r}" for t in sorted(used - set(tec["terrain"]))]
    hexside_feats = {f for h in gmap.hexes() for n in gmap.neighbours(h) for f in gmap.hexside_features(h, n)}
    out += [f"terrain.toml has no entry for hexside {f!r}" for f in sorted(hexside_feats - set(tec["hexsides"]))]
    for feature in ("city", "town", "major-port", "minor-port", "airfield", "industry", "beach"):
        out += [f"{feature} {h} is not a land hex" for h in sorted(gmap.hexes_with(feature)) if not game.is_land(h)]
    out += [f"port {h} is not coastal (10.1, 21.0)" for h in sorted(game.ports()) if not game.is_coastal(h)]
    out += [f"beach {h} is not coastal (25.7)" for h in sorted(gmap.hexes_with("beach")) if not game.is_coastal(h)]
    out += [f"{h} is both a major and a minor port" for h in sorted(gmap.hexes_with("major-port")
                                                                   & gmap.hexes_with("minor-port"))]
    routes = set()
    for h in gmap.hexes():
        for n in gmap.neighbours(h):
            if gmap.has_road(h, n) or gmap.has_rail(h, n):
                routes.add(frozenset((h, n)))
                if not (game.is_land(h) and game.is_land(n)):
                    out.append(f"road or railroad {h}/{n} leaves the land")
    for h in gmap.hexes():
        for n in gmap.neighbours(h):
            if n < h:
                continue
            feats = gmap.hexside_features(h, n)
            on_route = frozenset((h, n)) in routes
            if "river" in feats and on_route:
                out.append(f"river {h}/{n} carries a road or railroad, so it is bridged (ruling F13)")
            if "bridged-river" in feats and not on_route:
                out.append(f"bridged river {h}/{n} carries no road or railroad (ruling F13)")
    boxes = set(gmap.boxes)
    if boxes and boxes != set(game.displays):  # ruling F103: a custom map without boxes draws no displays
        out.append(f"map boxes {sorted(boxes ^ set(game.displays))} are not the displays of displays.toml")
    return out


def _table_problems(game: GameData) -> list[str]:
    out: list[str] = []
    raw = game.crt_raw
    columns = raw["table"]["columns"]
    for side in SIDES:
        for die in DICE:
            row = raw[side].get(str(die), [])
            if len(row) != len(columns):
                out.append(f"crt.toml {side} die {die}: {len(row)} cells for {len(columns)} columns")
            out += [f"crt.toml {side} die {die}: unknown code {c!r}" for c in row if c not in raw["codes"]]
    out += [f"crt.toml named column {n!r} -> {c!r} is no column" for n, c in raw["table"]["named"].items()
            if c not in columns]
    for name in ("air_combat", "b29"):
        table = game.air[name]
        out += [f"air.toml {name} die {d}: needs one cell per column" for d in DICE
                if len(table.get(str(d), [])) != len(table["columns"])]
    b29_columns = set(game.air["b29"]["columns"])
    for group in ("terrain", "features"):
        out += [f"terrain.toml {group}.{k}: B-29 column {v['b29']!r} is not in air.toml"
                for k, v in game.terrain[group].items() if "b29" in v and v["b29"] not in b29_columns]
    out += [f"air.toml b29 die {d}: unknown code {c!r}" for d in DICE for c in game.air["b29"][str(d)]
            if c not in game.air["b29"]["codes"]]
    out += [f"charts.toml mobile_fleet {k}: one result per die roll" for k, row in game.charts["mobile_fleet"].items()
            if k.startswith("scenario_") and len(row) != len(DICE)]
    return out


def _unit_problems(game: GameData) -> list[str]:
    out: list[str] = []
    classes = game.terrain["classes"]
    typed = {t: cls for cls in ("mechanized", "non-mechanized", "static") for t in classes[cls]}
    ids = Counter(u.id for u in game.units) + Counter(c.id for c in game.counters)
    out += [f"id {i!r} is used {n} times" for i, n in sorted(ids.items()) if n > 1]
    chart_types = {side: {t for row in game.charts[f"{side}_lp"] for t in row["types"]} for side in SIDES}
    concealed = set()
    for u in game.units:
        where = f"units.toml {u.id}"
        if u.side not in SIDES or u.nationality not in NATIONALITIES.get(u.side, ()):
            out.append(f"{where}: side {u.side!r} / nationality {u.nationality!r}")
            continue
        if typed.get(u.type) != u.mobility:
            out.append(f"{where}: a {u.type} is {typed.get(u.type)!r} (2.4), not {u.mobility!r}")
        if u.static != (u.mf == 0) and u.type != "deception":
            out.append(f"{where}: static units, and only they, have movement factor 0")
        if u.lp_type not in chart_types[u.side] | {NOT_ON_CHART}:
            out.append(f"{where}: no {u.side} LP chart row lists {u.lp_type!r}")
        if u.indicator not in ("", "A", "D"):
            out.append(f"{where}: indicator {u.indicator!r} is not A or D (15.4.1)")
        if u.optional and u.optional not in OPTIONAL_RULES:
            out.append(f"{where}: optional rule {u.optional!r} is not 25.1-25.10")
        if u.side == "japanese":
            if u.concealed_mf is None:
                out.append(f"{where}: a Japanese unit has a concealed side (11.1)")
            else:
                concealed.add(u.concealed_mf)
        if (u.base_cf is not None) != (u.side == "allied" and u.type == "engineer"):
            out.append(f"{where}: Allied engineers, and only they, have a base side (20.0)")
    if len(concealed) > 1:
        out.append(f"Japanese concealed movement factors differ ({sorted(concealed)}): 11.1 gives one for all")
    total = len(game.units) + len(game.counters)
    if total != COUNTERS:
        out.append(f"the counter mix has {total} counters, not the {COUNTERS} of 2.0")
    return out


def _scenario_problems(game: GameData) -> list[str]:
    out: list[str] = []
    areas = {FORMOSA_AREA} | set(game.displays)
    for number, scen in sorted(game.scenarios.items()):
        for side in SIDES:
            for group in scen[side]:
                missing = [i for i in group["units"] if i not in game.by_id]
                out += [f"scenario {number} {side}: unknown unit {i!r}" for i in missing]
                if group["area"] not in areas:
                    out.append(f"scenario {number} {side}: unknown set-up area {group['area']!r}")
                if group.get("choose", len(group["units"])) > len(group["units"]):
                    out.append(f"scenario {number} {side}: choose {group['choose']} of {len(group['units'])}")
                out += [f"scenario {number}: {i} sets up but is banned" for i in group["units"]
                        if i in scen.get("banned", ())]
                out += [f"scenario {number}: {i} is not {side_unit(side)}" for i in group["units"]
                        if i in game.by_id and game.by_id[i].side != side]
        for i in list(scen.get("banned", ())) + [i for v in scen["special"].values() if isinstance(v, list)
                                                 for i in v]:
            if i not in game.by_id:
                out.append(f"scenario {number}: unknown unit {i!r}")
    out += _deployment_problems(game)
    return out


def _deployment_problems(game: GameData) -> list[str]:
    """The default Japanese deployment: scenario 1's at-start units, each group's count, on land, stacked legally,
    statics where 8.1 lets them deploy (ruling F33)."""
    out: list[str] = []
    if not game.deployment:
        return out
    for group in game.setup_groups(1, "japanese"):
        placed = [i for i in group["units"] if i in game.deployment]
        want = group.get("choose", len(group["units"]))
        if len(placed) != want:
            out.append(f"deployment: {len(placed)} of {group['units'][0]}'s group placed, the scenario sets up {want}")
    at_start = {i for g in game.setup_groups(1, "japanese") for i in g["units"]}
    caps = game.charts["stacking"]["japanese"]
    per_hex: dict[Hex, Counter] = {}
    for uid, h in game.deployment.items():
        if uid not in at_start or uid not in game.by_id:
            out.append(f"deployment: {uid} is not an at-start Japanese unit")
            continue
        if not game.map.on_map(h) or not game.is_land(h):
            out.append(f"deployment: {uid} in {h}, not a land hex")
            continue
        u = game.by_id[uid]
        per_hex.setdefault(h, Counter())["static" if u.static else "mobile"] += 1
        feats = game.map.features_of(h)
        if u.type == "coastal-defense" and not feats & {"major-port", "minor-port"}:
            out.append(f"deployment: coastal defense {uid} in {h}, not a port (8.1)")
        if u.type == "heavy-weapons" and not feats & {"city", "town"}:
            out.append(f"deployment: heavy weapons {uid} in {h}, not a city or town (8.1)")
    for h, count in sorted(per_hex.items()):
        out += [f"deployment: {count[k]} {k} units in {h}, over the limit of {caps[k]} (13.2)"
                for k in ("mobile", "static") if count[k] > caps[k]]
    return out
