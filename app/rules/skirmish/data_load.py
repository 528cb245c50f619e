"""Skirmish data (SK 1, 2, 4, 5.3): the map and tables of app/rules/skirmish/data/, and the kernel's movement
rules built from them. A game gets its data passed in (`state.data`); nothing reads it from a global."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.rules.datafiles import read_toml
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, load_map
from app.rules.kernel.movement import CostTable, MovementRules

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class UnitSpec:
    side: str
    strength: int
    hex: str


@dataclass(frozen=True, eq=False)
class SkirmishData:
    options: Mapping
    map: GameMap
    movement: MovementRules
    allowance: int
    steps: int
    last_turn: int
    first_side: str
    stack_limit: int
    units: Mapping[str, UnitSpec]
    columns: tuple[str, ...]
    results: Mapping[int, tuple[str, ...]]
    value: Mapping[str, int]
    defence_multiplier: Mapping[str, int]
    village: str

    def terrain(self, hex_label: str) -> str:
        return self.map.terrain_of(Hex.parse(hex_label))

    def result(self, roll: int, column: str) -> str:
        """SK 5.3: the table's result for this die in this column."""
        return self.results[roll][self.columns.index(column)]


def load(options: Mapping) -> SkirmishData:
    """The standard data; skirmish takes no options (no custom maps or positions)."""
    if options:
        raise ValueError("skirmish takes no options")
    t = read_toml(DATA / "tables.toml")
    gmap = load_map(DATA / "map.toml")
    movement = MovementRules(
        costs={"unit": CostTable(terrain={k: float(v) for k, v in t["movement"]["cost"].items()})},
        move_case="SK 4.1", prohibited_case="SK 4.1", enemy_case="SK 4.2",
        ezoc_stop_case="SK 4.3", ezoc_exit_case="SK 4.3", ezoc_exit="non-ezoc",
    )
    return SkirmishData(
        options={}, map=gmap, movement=movement, allowance=int(t["movement"]["allowance"]),
        steps=int(t["units_common"]["steps"]), last_turn=int(t["game"]["last_turn"]),
        first_side=t["game"]["first_side"], stack_limit=int(t["game"]["stack_limit"]),
        units={uid: UnitSpec(u["side"], int(u["strength"]), u["hex"]) for uid, u in t["units"].items()},
        columns=tuple(t["combat"]["columns"]),
        results={int(die): tuple(row) for die, row in t["combat"]["results"].items()},
        value=dict(t["combat"]["value"]), defence_multiplier=dict(t["combat"]["defence_multiplier"]),
        village=str(next(iter(gmap.hexes_tagged("objective")))),
    )
