"""Operation Olympic data files (TOML): map, CRT, terrain, doctrine, Tokko, priorities, units, scenario.
See docs/olympic-data.md."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
MAP = DATA_DIR / "map.toml"
CRT = DATA_DIR / "crt.toml"
TERRAIN = DATA_DIR / "terrain.toml"
DOCTRINE = DATA_DIR / "doctrine.toml"
TOKKO = DATA_DIR / "tokko.toml"
PRIORITIES = DATA_DIR / "priorities.toml"
UNITS = DATA_DIR / "units.toml"
SCENARIO = DATA_DIR / "scenario.toml"
