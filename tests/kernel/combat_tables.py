"""Game combat data used by the kernel combat tests.

Only Olympic prints its CRT in the seed text (Olympic 8.8); it is the game's shipped table. For Ichi-Go, SNC
and Formosa the tables were printed on the maps: the column headings below are the ones the rules
name, with the unnamed middle columns RECONSTRUCTED (marked), and only the cells the rules text states are
filled; every other cell is None (unknown).
"""

from __future__ import annotations

from app.rules.olympic.data_load import crt_table
from app.rules.olympic.data_load import load as load_olympic

DICE = (1, 6)


def _unknown_grid(width: int, known: dict[tuple[int, int], str] | None = None) -> dict[str, list]:
    grid: dict[str, list] = {str(d): [None] * width for d in range(1, 7)}
    for (die, col), cell in (known or {}).items():
        grid[str(die)][col] = cell
    return grid


# Ichi-Go 11.8: "≤1:5" .. "≥10:1"; the columns in between are RECONSTRUCTED as every n:1 and 1:n.
ICHIGO_COLUMNS = [
    "≤1:5",
    "1:4",
    "1:3",
    "1:2",
    "1:1",
    "2:1",
    "3:1",
    "4:1",
    "5:1",
    "6:1",
    "7:1",
    "8:1",
    "9:1",
    "≥10:1",
]
ICHIGO_NOTATION = {"pair": "losses", "tokens": {"DE": {"defender": {"eliminated": True}}}}
ICHIGO_CRT = {
    "name": "Ichi-Go CRT (partial)",
    "case": "Ichi-Go 11.8",
    "odds": {"method": "ratio", "rounding": "integer", "case": "Ichi-Go 11.6-11.7"},
    "dice": DICE,
    "notation": ICHIGO_NOTATION,
    # 11.8: each attacker uses its own line; whether the lines share one grid is unknown, so each line
    # gets its own grid and only the Japanese 2:1 / 6 cell (11.19) is known.
    "lines": {
        "japanese": {
            "columns": ICHIGO_COLUMNS,
            "results": _unknown_grid(len(ICHIGO_COLUMNS), {(6, ICHIGO_COLUMNS.index("2:1")): "2/4"}),
        },
        "chinese": {"columns": ICHIGO_COLUMNS, "results": _unknown_grid(len(ICHIGO_COLUMNS))},
        "us": {"columns": ICHIGO_COLUMNS, "results": _unknown_grid(len(ICHIGO_COLUMNS))},
    },
}
ICHIGO_RIVER = {"case": "Ichi-Go 11.13", "factors": {"river": "1/2", "lake": None}}
ICHIGO_STRENGTH = {"rounding": "up", "granularity": "total", "case": "Ichi-Go 11.13"}
ICHIGO_CONCENTRIC = {
    "pattern": "opposite_or_alternating",
    "shifts": {"japanese": 1, "us": 2},
    "case": "Ichi-Go 11.15",
    "denied_terrain": ["city"],
}

# SNC 10.3.1: 1:3 .. 6:1 (every column in between is named by the rules or the example of play).
SNC_COLUMNS = ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
SNC_CRT = {
    "name": "SNC CRT (partial)",
    "case": "SNC 10.5",
    # "extend": SNC 10.3.1 clamps the *final* odds (ruling in docs/rulings/combat-kernel.md).
    "odds": {"method": "ratio", "rounding": "integer", "case": "SNC 10.3", "beyond_ends": "extend"},
    "dice": DICE,
    "columns": SNC_COLUMNS,
    "notation": {"pair": "losses"},
    "results": _unknown_grid(
        len(SNC_COLUMNS),
        {
            (3, SNC_COLUMNS.index("3:1")): "1/2",  # 10.5 example
            (6, SNC_COLUMNS.index("5:1")): "0/4",  # map errata
            (2, SNC_COLUMNS.index("3:1")): "2/1",  # 12.0 GT 3, Loudian
            (3, SNC_COLUMNS.index("2:1")): "1/1",  # 12.0 GT 3, 3410
            (4, SNC_COLUMNS.index("5:1")): "0/3",  # 12.0 GT 3, 3511 (1:1, concentric 1R, 3R: SNC ruling R3)
        },
    ),
}
SNC_HEXSIDES = {
    "case": "SNC 10.4.1",
    "factors": {"creek": "1/2", "river": "1/3", "all-sea": None, "all-lake": None},
}
SNC_STRENGTH = {"rounding": "down", "granularity": "total", "case": "SNC 10.4.1"}
SNC_CONCENTRIC = {
    "pattern": "opposite_or_alternating",
    "shifts": {"japanese": 1},
    "case": "SNC 10.4.2",
    "denied_terrain": ["city"],
}
SNC_CAPS = {"terrain": {"left": 2, "case": "SNC 10.4.1"}}

# Formosa 15.3-15.4: "≤49%", "50-99%", "300%", "400%", "600-699%", "≥700%" are named; the 100-point bands in
# between are RECONSTRUCTED.
FORMOSA_COLUMNS = [
    "≤49%",
    "50-99%",
    "100-199%",
    "200-299%",
    "300-399%",
    "400-499%",
    "500-599%",
    "600-699%",
    "≥700%",
]
FORMOSA_NOTATION = {
    "pair": None,
    "tokens": {
        "A1": {"attacker": {"losses": 1}},
        "AE": {"attacker": {"eliminated": True}},
        "AR": {"attacker": {"retreat": 1}},
        "B1": {"attacker": {"losses": 1}, "defender": {"losses": 1}},
        "BB": {"markers": ["bloodbath"]},
        "CA": {"markers": ["counterattack"]},
        "D1": {"defender": {"losses": 1}},
        "DR": {"defender": {"retreat": 1}},
        "DE": {"defender": {"eliminated": True}},
    },
}
FORMOSA_CRT = {
    "name": "Formosa Allied Attacking CRT (cells unknown)",
    "case": "Formosa 15.2",
    "odds": {"method": "percentage", "percent_rounding": "down", "case": "Formosa 15.2"},
    "dice": DICE,
    "columns": FORMOSA_COLUMNS,
    "loss_unit": "unit",
    "notation": FORMOSA_NOTATION,
    "results": _unknown_grid(len(FORMOSA_COLUMNS)),
}
FORMOSA_CONCENTRIC = {
    "pattern": "all_six_covered",
    "shifts": {"allied": 1, "japanese": 1},
    "case": "Formosa 15.4.1",
}

# Olympic 8.8 is printed in full in the text, so the kernel tests read the game's own transcription
# (app/rules/olympic/data/crt.toml) instead of keeping a copy; test_combat_examples_olympic.py checks it
# against a second, column-by-column transcription. Cells: result, then casualty points "left/right"
# (note 4: left when the Americans attack, right when the Japanese attack).
_OLYMPIC = load_olympic()
OLYMPIC_CRT = crt_table(_OLYMPIC.crt_raw)
OLYMPIC_RETREAT_HEXES = {t: v["retreat_hexes"] for t, v in _OLYMPIC.terrain.items() if "retreat_hexes" in v}

