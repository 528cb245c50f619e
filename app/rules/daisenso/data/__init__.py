"""Dai Senso data files (TOML): map sheets, terrain effects, CRT, countries and unit kinds, scenario positions.
See docs/daisenso-data.md."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
MAP_SHEETS = (DATA_DIR / "map-west.toml", DATA_DIR / "map-east.toml")
TERRAIN = DATA_DIR / "terrain.toml"
CRT = DATA_DIR / "crt.toml"
UNITS = DATA_DIR / "units.toml"
SCENARIOS = DATA_DIR / "scenarios"
