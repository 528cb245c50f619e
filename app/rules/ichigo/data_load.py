"""Ichi-Go game data: map, TEC, CRT, order of battle and scenario loaded from app/rules/ichigo/data/, and the
kernel rule objects built from them (movement 10.x, stacking 6.x, odds and CRT 11.6-11.8, river halving 11.13,
concentric 11.15, supply trace 7.1). No game number lives in code: every value comes from the TOML files."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from app.rules.datafiles import read_toml
from app.rules.ichigo.data import CRT as CRT_FILE
from app.rules.ichigo.data import MAP, SCENARIO, TERRAIN, UNITS
from app.rules.kernel.concentric import ConcentricRule
from app.rules.kernel.crt import CRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, load_map, loads_map
from app.rules.kernel.movement import CostTable, MovementRules
from app.rules.kernel.paths import TraceRules
from app.rules.kernel.stacking import Incompatible, StackingRules, StackLimit
from app.rules.kernel.strength import HexsideModifiers, StrengthRule

H = Hex.parse



def _mp(value):
    return None if value == "prohibited" else float(value)


@dataclass(frozen=True)
class GameData:
    map: GameMap
    tec: dict
    units: tuple[dict, ...]
    markers: dict
    scenario: dict
    crt: CRT
    movement: MovementRules
    stacking: StackingRules
    hexsides: HexsideModifiers
    strength: StrengthRule
    concentric: ConcentricRule
    supply: TraceRules
    options: dict = field(default_factory=dict, compare=False)  # the game options it was built from (the map)
    _by_label: dict = field(default_factory=dict, compare=False, repr=False)  # `tagged`, `feature`: found once

    def tagged(self, tag: str) -> frozenset[str]:
        return self._labels(("tag", tag), lambda: self.map.hexes_tagged(tag))

    def feature(self, name: str) -> frozenset[str]:
        return self._labels(("feature", name), lambda: self.map.hexes_with(name))

    def _labels(self, key: tuple, hexes) -> frozenset[str]:
        """The labels of a set of the map's hexes, found once (the data never changes)."""
        found = self._by_label.get(key)
        if found is None:
            found = self._by_label[key] = frozenset(str(h) for h in hexes())
        return found

    @cached_property
    def gearr(self) -> tuple[str, ...]:
        """Ichi-Go 3.5: the GEARR, 1801 to 0925 in order (read once: the map never changes)."""
        return tuple(str(h) for h in self.map.railroads[0].path)

    @cached_property
    def tracked(self) -> frozenset[str]:
        """Ichi-Go 3.5: control matters in cities, on the GEARR and (7.1, ruling R29) on the north edge."""
        return self.feature("city") | frozenset(self.gearr) | self.north_edge()

    @cached_property
    def victory_hexes(self) -> tuple[str, ...]:
        """Hexes the victory conditions (4.1-4.5) turn on: the US airbases, the GEARR hexes, Chungking, Kunming,
        Shanghai, Wuhan and the 4.3 debit hexes."""
        v = self.scenario["victory"]
        named = {self.place(h) for h in (v["sudden_death_chungking"], v["kunming"], *v["allied_sudden"],
                                         *v["causeway"]["debit_hexes"])}
        hexes = set(self.feature("airbase")) | set(self.gearr) | named
        return tuple(sorted(h for h in hexes if self.map.on_map(H(h))))

    def place(self, label: str) -> str:
        """The hex on this map of a place the scenario names by its printed label: the one hex bearing the
        printed map's name for it. KeyError naming the place if the map has none, or several."""
        name = place_name(label)
        found = self.map.hexes_named(name)
        if len(found) != 1:
            raise KeyError(f"the map names {len(found) or 'no'} hex{'es' if len(found) > 1 else ''} {name!r} "
                           f"where the rules need one ({label} on the printed map)")
        return str(found[0])

    def places(self, labels) -> list[str]:
        return [self.place(h) for h in labels]

    def missing_places(self) -> list[str]:
        """Why this map cannot host the scenario: each place the scenario names that it lacks (or names twice)."""
        problems = []
        for label in scenario_places(self.scenario):
            try:
                self.place(label)
            except KeyError as e:
                problems.append(e.args[0])
        return problems

    def north_edge(self) -> frozenset[str]:
        return frozenset(str(h) for h in self.map.edge_hexes("north"))

    @cached_property
    def _land_by_label(self) -> dict[str, bool]:
        """`land`'s answers, by the label asked (the map never changes; a label that fails to parse is never kept)."""
        return {}

    def land(self, h: str) -> bool:
        """A hex on the map that is neither lake nor sea (asked hundreds of thousands of times a game: kept)."""
        found = self._land_by_label.get(h)
        if found is None:
            found = self._land_by_label[h] = self.map.on_map(H(h)) and self.map.terrain_of(H(h)) not in ("lake", "sea")
        return found

    def neighbours(self, h: str) -> tuple[str, ...]:
        return self.map.neighbour_labels(h)

    def distance(self, a: str, b: str) -> int:
        return self.map.distance(H(a), H(b))

    def terrain_shifts(self, h: str) -> list[tuple[int, str, str]]:
        """Ichi-Go 11.10-11.14: (columns left, case, reason) for a defender in hex h."""
        x = H(h)
        out = []
        terrain = self.map.terrain_of(x)
        n = int(self.tec["terrain"].get(terrain, {}).get("shift_left", 0))
        if n:
            out.append((n, "Ichi-Go 11.11" if terrain == "rough" else "Ichi-Go 11.12", terrain))
        if "city" in self.map.features_of(x):
            out.append((int(self.tec["features"]["city"]["shift_left"]), "Ichi-Go 11.14", "city"))
        return out


def scenario_places(sc: dict) -> tuple[str, ...]:
    """Every hex label the scenario names as a place (4.1-4.5, 5.3)."""
    v, c = sc["victory"], sc["causeway"]
    return (v["sudden_death_chungking"], v["kunming"], *v["allied_sudden"], *v["causeway"]["debit_hexes"],
            c["us_formosa_landing_hex"], *c["us_mainland_landing_ports"])


def place_name(label: str) -> str:
    """The printed map's name for one of its hexes (the label itself if unnamed)."""
    return _printed_map().name_of(H(label)) or label


@lru_cache(maxsize=1)
def phase_names() -> dict[str, str]:
    """Phase id -> its name (scenario.toml [[phase]], 5.1), for history lines, which have no game state: a
    custom set-up changes the map and the position, never the sequence of play."""
    return {p["id"]: p["name"] for p in read_toml(SCENARIO)["phase"]}


@lru_cache(maxsize=1)
def _printed_map() -> GameMap:
    return load_map(MAP)


def load(options: Mapping | None = None) -> GameData:
    """The game's data under its options: on the custom map they carry (`{"map": TOML text}`), else the printed
    one (app/rules/custom_setup.py). A game carries its data on its state (`State.data`); the rules read it
    there, never from here."""
    return _load(str((options or {}).get("map") or ""))


@lru_cache(maxsize=4)
def _load(custom_map: str) -> GameData:
    gmap = loads_map(custom_map, "custom map") if custom_map else _printed_map()
    tec = read_toml(TERRAIN)
    oob = read_toml(UNITS)
    sc = read_toml(SCENARIO)
    crt = CRT.from_dict(read_toml(CRT_FILE))
    terrain = {t: _mp(v["mp"]) for t, v in tec["terrain"].items()}
    hexside = {t: _mp(v["mp_extra"]) for t, v in tec["hexsides"].items()}
    table = CostTable(terrain=terrain, hexside=hexside, features={})
    movement = MovementRules(
        costs={"japanese": table, "chinese": table, "us": table},
        move_case="Ichi-Go 10.0", prohibited_case="Ichi-Go 10.10", enemy_case="Ichi-Go 6.0",
        road_needs_road_hexside=True, road_negates_hexside=False, ezoc_stop=False, ezoc_exit="free",
        minimum_move=bool(tec["rules"]["minimum_move"]),
    )
    st = sc["stacking"]
    stacking = StackingRules(
        limits=(
            StackLimit("Ichi-Go 6.2", side="japanese", max_total=float(st["japanese"]), label="Japanese units"),
            StackLimit("Ichi-Go 6.3", side="allied", nationalities=frozenset({"chinese"}),
                       max_total=float(st["chinese"]), label="Chinese units",
                       weights={"militia": 0.0 if not st["chinese_militia_counts"] else 1.0}),
            StackLimit("Ichi-Go 6.4", side="allied", nationalities=frozenset({"us"}), max_total=float(st["us"]),
                       label="US units"),
        ),
        incompatible=(Incompatible("Ichi-Go 6.3", frozenset({"chinese"}), frozenset({"us"})),),
    )
    factors = {}
    for k, v in tec["hexsides"].items():
        if v.get("attack") == "prohibited":
            factors[k] = None
        elif "attack_factor" in v:
            factors[k] = v["attack_factor"]
    hexsides = HexsideModifiers.from_dict({"case": "Ichi-Go 11.13", "factors": factors})
    strength = StrengthRule("up", "total", "Ichi-Go 11.13")
    conc = sc["combat"]["concentric_shift"]
    concentric = ConcentricRule.from_dict({"pattern": "opposite_or_alternating", "shifts": dict(conc),
                                           "case": "Ichi-Go 11.15", "denied_terrain": ["city"]})
    blocked = frozenset(k for k, v in tec["hexsides"].items() if v.get("blocks_supply"))
    prohibited = frozenset(k for k, v in terrain.items() if v is None)
    supply = TraceRules(case="Ichi-Go 7.1", blocked_hexsides=blocked, blocked_terrain=prohibited,
                        enemy_units_block=True, enemy_controlled_block=frozenset({"city"}))
    return GameData(gmap, tec, tuple(oob["unit"]), dict(oob.get("markers", {})), sc, crt, movement, stacking,
                    hexsides, strength, concentric, supply, {"map": custom_map} if custom_map else {})
