"""What Ichi-Go's game data finds once and keeps (CI time, bench/whole_games.py): whether a hex is land, and the
GEARR's labels, are the answers a fresh reading of that game's own map gives (a custom map is its own map), a hex
off the map is not land and a label that is no hex is refused as before."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.rules.ichigo.data_load import load
from app.rules.kernel.hexgrid import Hex

PRINTED = Path("app/rules/ichigo/data/map.toml").read_text(encoding="utf-8")
# Taihu (2906) dried out and a lake at 0101; the GEARR stops at 0924
CUSTOM = PRINTED.replace('"1711..1712", "2310..2311", "2906",', '"1711..1712", "2310..2311", "0101",').replace(
    '"1023", "0924", "0925",', '"1023", "0924",')


def fresh_land(gmap, label: str) -> bool:
    h = Hex.parse(label)
    return gmap.grid.on_map(h) and h not in gmap.absent and gmap._terrain.get(h, gmap.default_terrain) not in (
        "lake", "sea")


def test_land_and_the_gearr_are_each_maps_own():
    printed, custom = load(), load({"map": CUSTOM})
    assert CUSTOM != PRINTED
    labels = [f"{c:02d}{r:02d}" for c in range(0, 38) for r in range(0, 27)]
    for data in (printed, custom, printed):
        for label in labels:
            assert data.land(label) is fresh_land(data.map, label), label
            assert data.land(label) is fresh_land(data.map, label), label  # asked again: the same
        assert data.gearr == tuple(str(h) for h in data.map.railroads[0].path)
    assert (printed.land("2906"), custom.land("2906")) == (False, True)
    assert (printed.land("0101"), custom.land("0101")) == (True, False)
    assert printed.gearr[-1] == "0925" and custom.gearr[-1] == "0924"
    assert not printed.land("3601") and not printed.land("3701")  # sea, and past the map's edge


def test_a_label_that_is_no_hex_is_refused_each_time_and_never_kept():
    data = load()
    for _ in range(2):
        with pytest.raises(ValueError):
            data.land("north")
