"""Operation Causeway: Formosa 1944 data files (TOML): map, terrain, the two CRTs, the air tables, the printed
charts, the counter mix, the scenarios and the displays. See docs/formosa-data.md."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
MAP = DATA_DIR / "map.toml"
TERRAIN = DATA_DIR / "terrain.toml"
CRT = DATA_DIR / "crt.toml"
AIR = DATA_DIR / "air.toml"
CHARTS = DATA_DIR / "charts.toml"
UNITS = DATA_DIR / "units.toml"
SCENARIOS = DATA_DIR / "scenarios.toml"
DISPLAYS = DATA_DIR / "displays.toml"
