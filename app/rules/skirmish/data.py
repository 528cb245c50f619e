"""Skirmish data: map, units, movement and combat tables (SK 1, SK 2, SK 4, SK 5.3)."""
from __future__ import annotations

from pathlib import Path

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import load_map
from app.rules.kernel.movement import CostTable, MovementRules

MAP = load_map(Path(__file__).with_name("map.toml"))
GRID = MAP.grid
VILLAGE = str(next(iter(MAP.hexes_tagged("objective"))))
TERRAIN_COST = {"clear": 1, "woods": 2, "village": 1}
MOVEMENT = MovementRules(
    costs={"unit": CostTable(terrain=TERRAIN_COST)},
    move_case="SK 4.1", prohibited_case="SK 4.1", enemy_case="SK 4.2",
    ezoc_stop_case="SK 4.3", ezoc_exit_case="SK 4.3", ezoc_exit="non-ezoc",
)
LAST_TURN = 6
STACK_LIMIT = 2

# id: (side, strength, hex)
UNITS = {
    "R1": ("red", 4, "0102"), "R2": ("red", 3, "0103"), "R3": ("red", 2, "0104"),
    "B1": ("blue", 4, "0702"), "B2": ("blue", 3, "0703"), "B3": ("blue", 2, "0704"),
}
MOVEMENT_ALLOWANCE = 3
STEPS = 2

COLUMNS = ("1:2", "1:1", "2:1", "3:1", "4:1")
CRT = {  # die -> result per column (SK 5.3)
    1: ("AE", "A1", "A1", "NE", "D1"),
    2: ("A1", "A1", "NE", "D1", "D1"),
    3: ("A1", "NE", "D1", "D1", "D2"),
    4: ("NE", "D1", "D1", "D2", "DE"),
    5: ("NE", "D1", "D2", "DE", "DE"),
    6: ("D1", "D2", "DE", "DE", "DE"),
}


def terrain(hex_label: str) -> str:
    return MAP.terrain_of(Hex.parse(hex_label))
