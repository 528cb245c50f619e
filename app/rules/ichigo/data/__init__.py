"""Ichi-Go data files (TOML): map, terrain effects, CRT, order of battle, scenario. See docs/ichigo-data.md."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
MAP = DATA_DIR / "map.toml"
TERRAIN = DATA_DIR / "terrain.toml"
CRT = DATA_DIR / "crt.toml"
UNITS = DATA_DIR / "units.toml"
SCENARIO = DATA_DIR / "scenario.toml"
