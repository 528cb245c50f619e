"""SNC game data: the map, TEC, CRT and order of battle loaded from app/rules/snc/data/, and the kernel
rule objects built from them (movement costs 9.4-9.5, ZOC 7.1, stacking 6.2, CRT 10.3-10.5).

Nothing here is a game number in code: every cost, shift, strength and schedule comes from the TOML files,
which a player who owns the printed game may replace (docs/rulings/snc.md).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from app.rules.datafiles import read_toml
from app.rules.kernel.concentric import ConcentricRule
from app.rules.kernel.crt import CRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, load_map, loads_map
from app.rules.kernel.movement import CostTable, MovementRules
from app.rules.kernel.paths import TraceRules
from app.rules.kernel.shifts import Cap
from app.rules.kernel.stacking import StackingRules, StackLimit
from app.rules.kernel.strength import HexsideModifiers, StrengthRule
from app.rules.kernel.zoc import OccupiedException, ZocRules

DATA = Path(__file__).parent / "data"
SIDES = ("chinese", "japanese")


def _flagged(tec: dict, table: str, flag: str) -> frozenset[str]:
    return frozenset(k for k, v in tec[table].items() if v.get(flag))


def _mp(value, side: str):
    if value == "prohibited":
        return None
    return float(value)


@dataclass(frozen=True)
class GameData:
    map: GameMap
    tec: dict
    units: tuple[dict, ...]
    markers: tuple[dict, ...]
    crt: CRT
    movement: MovementRules
    zoc: ZocRules
    stacking: StackingRules
    hexsides: HexsideModifiers
    strength: StrengthRule
    concentric: ConcentricRule
    caps: dict
    loc: TraceRules
    rail_loc: TraceRules
    params: dict                     # the scenario numbers the rules use (data/scenario.toml), see _params
    options: dict = field(default_factory=dict, compare=False)  # the game options it was built from

    @property
    def map_text(self) -> str:
        """The custom map's TOML text, or "" for the printed map."""
        return str(self.options.get("map") or "")

    def flagged(self, table: str, flag: str) -> frozenset[str]:
        """The terrain types (``table="terrain"``) or hexside features (``"hexsides"``) whose TEC entry sets
        ``flag`` (terrain.toml: no_combat, water, coast, blocks_zoc)."""
        return _flagged(self.tec, table, flag)

    def terrain_shift(self, hex_label: str, defender_side: str) -> list[tuple[int, str]]:
        """SNC 10.4.1: (columns left, reason) for a defender in this hex; the 2L cap is applied by the kernel."""
        h = Hex.parse(hex_label)
        feats = self.map.features_of(h)
        if "city" in feats:
            return [(int(self.tec["features"]["city"]["shift_left"]), "city")]
        out = []
        terrain = self.map.terrain_of(h)
        n = int(self.tec["terrain"].get(terrain, {}).get("shift_left", 0))
        if n:
            out.append((n, terrain))
        if "town" in feats:
            town = self.tec["features"]["town"]
            n = int(town.get(f"shift_left_{defender_side}", 0))
            if n:
                # ruling R1: the town's shift adds to the terrain's; `adds_to_terrain_shift = false` reads the
                # errata inside 10.4.1 instead (the town's 1L whatever the terrain)
                if not town.get("adds_to_terrain_shift", True):
                    out = []
                out.append((n, f"town ({defender_side} defender)"))
        return out


def _cost_table(tec: dict, side: str) -> CostTable:
    key = f"mp_{side}"
    terrain = {t: _mp(v[key], side) for t, v in tec["terrain"].items()}
    hexside = {t: _mp(v[key], side) for t, v in tec["hexsides"].items() if key in v}
    features = {"city": float(tec["features"]["city"][key])}
    road = tec["features"]["road"][key]
    rail = tec["features"]["railroad"][key]
    # SNC 9.4: the Chinese pay 1 MP whatever the terrain, so a road rate equal to it is no benefit at all.
    return CostTable(terrain=terrain, hexside=hexside, features=features,
                     road=float(road) if side == "japanese" else None,
                     rail=float(rail) if side == "japanese" else None)


def _params(sc: dict) -> dict:
    """The scenario numbers the rules use, read from data/scenario.toml (the snc-data file)."""
    v = sc["victory"]
    return {
        "game": {"last_turn": sc["game"]["turns"], "mobile_mf": sc["movement"]["mobile_mf"],
                 "first_side": sc["game"]["first_side"], "japanese_control": sc["control"]["japanese_at_start"]},
        "victory": {"shanghai": v["chinese_sudden_death"]["control_hex"],
                    "adjacent_win_from_turn": v["chinese_sudden_death"]["occupy_from_turn"],
                    "sudden_defeat_until_turn": v["chinese_sudden_defeat"]["to_turn"],
                    "neutral_city": v["neutral_city"], "cities": v["city_hexes"]},
        "replacements": {"japanese_from_turn": sc["replacements"]["japanese"]["from_turn"],
                         "japanese_steps": sc["replacements"]["japanese"]["steps_per_turn"],
                         "snlf_loc_hexes": sc["replacements"]["japanese"]["snlf_loc_hexes"],
                         "elite_return_hex": sc["replacements"]["chinese_elite_return"]["return_hex"]},
        "reinforcements": {"rail_from_turn": sc["reinforcements"]["chinese"]["rail_placement_from_turn"],
                           "rail_origins": sc["reinforcements"]["chinese"]["rail_movement_origins"],
                           "interdiction_from_turn": sc["air"]["japanese_interdiction"]["from_turn"],
                           "landing_divisor": sc["reinforcements"]["japanese"]["landing_attack_divisor"],
                           "landing_extra_step": sc["reinforcements"]["japanese"]["extra_step_if_defenders_remain"],
                           "army_advance_hexes": sc["reinforcements"]["japanese"]["ten_army_advance_hexes"]},
        "stacking": sc["stacking"],
    }


def load(options: Mapping | None = None) -> GameData:
    """The game's data under its options: on the custom map they carry (`{"map": TOML text}`), else the printed
    one (app/rules/custom_setup.py). Passed in through the state (`state.data`), never read as a global."""
    return _load(str((options or {}).get("map") or ""))


@lru_cache(maxsize=4)
def _load(custom_map: str) -> GameData:
    gmap = loads_map(custom_map, "custom map") if custom_map else load_map(DATA / "map.toml")
    tec = read_toml(DATA / "terrain.toml")
    crt_raw = read_toml(DATA / "crt.toml")
    oob = read_toml(DATA / "units.toml")
    columns = crt_raw["table"]["columns"]
    crt = CRT.from_dict({
        "name": "SNC CRT", "case": "SNC 10.5",
        "odds": {"method": "ratio", "rounding": "integer", "case": "SNC 10.3", "beyond_ends": "extend"},
        "dice": (1, 6), "columns": columns, "notation": {"pair": "losses"},
        "results": {k: list(v) for k, v in crt_raw["results"].items()},
    })
    movement = MovementRules(
        costs={"japanese": _cost_table(tec, "japanese"), "chinese": _cost_table(tec, "chinese")},
        move_case="SNC 9.0", prohibited_case="SNC 9.4", enemy_case="SNC 9.0",
        ezoc_stop_case="SNC 7.2", ezoc_exit_case="SNC 7.2", cases={"neutral": "SNC 1.3"},
        road_needs_road_hexside=True, road_negates_hexside=False, ezoc_exit="non-ezoc",
        friendly_negates_ezoc=False, minimum_move=False, prohibited_tags=frozenset({"neutral"}),
    )
    zoc = ZocRules(case="SNC 7.1", blocked_features=frozenset({"city"}),
                   blocked_hexsides=_flagged(tec, "hexsides", "blocks_zoc"),
                   blocked_terrain=_flagged(tec, "terrain", "blocks_zoc"),
                   occupied_exceptions=(OccupiedException("chinese", "ngf-coast", "SNC 7.1"),))
    scenario = read_toml(DATA / "scenario.toml")
    st = scenario["stacking"]
    jp, cn = st["japanese"], st["chinese"]
    stacking = StackingRules(limits=(
        StackLimit("SNC 6.2", side="japanese", max_total=float(jp["max_units"]),
                   max_outside_main_formation=int(jp["max_units"]) - int(jp["max_same_division"]),
                   label="Japanese units"),
        StackLimit("SNC 6.2", side="chinese", max_total=float(cn["max_de"]), label="Chinese division equivalents",
                   weights={"garrison": float(cn["garrison"]), "elite-division": float(cn["elite_division"]),
                            "elite-brigade": float(cn["elite_brigade"]), "division": float(cn["regular_division"]),
                            "brigade": float(cn["regular_brigade"])}),
    ))
    factors = {k: (None if v.get("no_combat") else f"1/{v['attack_divisor']}")
               for k, v in tec["hexsides"].items() if "attack_divisor" in v or v.get("no_combat")}
    hexsides = HexsideModifiers.from_dict({"case": "SNC 10.4.1", "factors": factors})
    strength = StrengthRule("down", "total", "SNC 10.4.1")
    concentric = ConcentricRule.from_dict({"pattern": "opposite_or_alternating", "shifts": {"japanese": 1},
                                           "case": "SNC 10.4.2", "denied_terrain": ["city"]})
    caps = {"terrain": Cap(left=int(tec["limits"]["max_terrain_shift_left"]), case="SNC 10.4.1")}
    no_trace = frozenset(k for k, v in tec["hexsides"].items() if v.get("mp_japanese") == "prohibited")
    prohibited_terrain = frozenset(k for k, v in tec["terrain"].items() if v.get("mp_japanese") == "prohibited")
    loc = TraceRules(case="SNC 8.3", blocked_hexsides=no_trace, blocked_terrain=prohibited_terrain,
                     blocked_tags=frozenset({"neutral"}), enemy_units_block=True, ezoc_blocks=True)
    rail_loc = TraceRules(case="SNC 8.2", blocked_hexsides=no_trace, blocked_terrain=prohibited_terrain,
                          blocked_tags=frozenset({"neutral"}), enemy_units_block=True, ezoc_blocks=True,
                          along="rail")
    return GameData(gmap, tec, tuple(oob["unit"]), tuple(oob.get("marker", ())), crt, movement, zoc, stacking,
                    hexsides, strength, concentric, caps, loc, rail_loc, _params(scenario),
                    {"map": custom_map} if custom_map else {})
