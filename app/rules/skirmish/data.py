"""Skirmish data: map, units and combat table (SK 1, SK 2, SK 5.3)."""
from __future__ import annotations

from app.rules.kernel.hexgrid import Grid

GRID = Grid("even-low", cols=(1, 7), rows=(1, 5))
WOODS = frozenset({"0202", "0303", "0502", "0504", "0604"})
VILLAGE = "0403"
TERRAIN_COST = {"clear": 1, "woods": 2, "village": 1}
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
    if hex_label == VILLAGE:
        return "village"
    return "woods" if hex_label in WOODS else "clear"
