"""What a loaded map, and Formosa's data over it, find once and keep (CI time, bench/whole_games.py): every answer is
the one a fresh reading of the map file gives, for each map on its own (a custom map is its own map), hexes off the
map and absent hexes refused as before."""
from __future__ import annotations

import pytest

from app.rules.formosa.data_load import load as formosa_data
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import loads_map

H = Hex.parse

HEADER = """
[map]
name = "test"
parity = "even-low"
cols = [1, 4]
rows = [1, 3]
absent = ["0101"]

[vocabulary]
terrain = ["clear", "marsh"]
hexside = ["river"]
features = ["city"]

[terrain]
default = "{default}"
marsh = ["0202", "0303"]
"""


def _fresh(gmap, h: Hex) -> str | None:
    """A hex's terrain read from the map's own fields, as the map file states it (None: off the map)."""
    if not gmap.grid.on_map(h) or h in gmap.absent:
        return None
    return gmap._terrain.get(h, gmap.default_terrain)


def test_each_map_answers_on_map_terrain_and_hexes_from_its_own_file():
    """Two maps of one grid, their default terrain apart: each answers for its own hexes; the absent hex 0101 and
    a hex past the edge are off both, and asking their terrain is refused as before."""
    clear, marsh = (loads_map(HEADER.format(default=d), source=f"{d}.toml") for d in ("clear", "marsh"))
    probes = [Hex(c, r) for c in range(0, 6) for r in range(0, 5)] + [Hex(2, 2, "w")]
    for gmap in (clear, marsh, clear):
        assert list(gmap.hexes()) == [h for h in gmap.grid.hexes() if h not in gmap.absent]
        assert list(gmap.hexes()) == list(gmap.hexes())  # each call a new walk over every hex
        for h in probes:
            want = _fresh(gmap, h)
            assert gmap.on_map(h) is (want is not None), h
            if want is None:
                with pytest.raises(KeyError, match="not on the map"):
                    gmap.terrain_of(h)
            else:
                assert gmap.terrain_of(h) == want, h
    assert clear.terrain_of(H("0102")) == "clear" and marsh.terrain_of(H("0102")) == "marsh"
    assert clear.hexes_of_terrain("marsh") == {H("0202"), H("0303")} != marsh.hexes_of_terrain("marsh")


ISLAND = """
[map]
name = "an island"
parity = "even-low"
cols = [1, 6]
rows = [1, 6]
[vocabulary]
terrain = ["sea", "open", "rough", "mountain", "peak", "mud-flats"]
hexside = ["river", "bridged-river", "all-sea"]
features = ["city", "town", "major-port", "minor-port", "airfield", "industry", "beach"]
[terrain]
default = "sea"
open = [{open}]
rough = [{rough}]
[features]
major-port = ["0303"]
"""


def _island(open_hexes: list[str], rough: list[str]) -> str:
    return ISLAND.format(open=", ".join(f'"{h}"' for h in open_hexes), rough=", ".join(f'"{h}"' for h in rough))


def _formosa_fresh(data) -> dict:
    """Land, coast and ports read from the map and terrain.toml directly (ruling F11, 10.1 item 1)."""
    kinds, gmap = data.terrain["terrain"], data.map
    hexes = [h for h in gmap.grid.hexes() if h not in gmap.absent]
    land = {h for h in hexes if kinds[gmap._terrain.get(h, gmap.default_terrain)].get("land")}
    coastal = {h for h in land if any(n not in land for n in gmap.grid.neighbours(h) if n not in gmap.absent)}
    return {"land": land, "coastal": coastal,
            "open_coastal": {h for h in coastal if gmap._terrain.get(h) == "open"},
            "ports": {h for h in hexes if gmap._features.get(h, set()) & {"major-port", "minor-port"}}}


def test_formosa_land_coast_and_ports_are_each_map_s_own():
    """Formosa's land, coastal and open coastal hexes (where an amphibious marker lands unopposed, 10.1 item 1) and
    ports, for the printed map and two custom maps of one grid, asked in turn: each is its map's, as read fresh;
    a coastal rough hex is coastal but not open; a hex off the map is refused (KeyError) as before."""
    small = formosa_data({"map": _island(["0303", "0304", "0403"], ["0404"])})
    large = formosa_data({"map": _island(["0303", "0304", "0403", "0203", "0204", "0305"], ["0404", "0405"])})
    printed = formosa_data()
    for data in (small, large, printed, small, large):
        want = _formosa_fresh(data)
        assert data.land() == want["land"] and data.open_coastal() == want["open_coastal"]
        assert data.ports() == want["ports"]
        for h in data.map.hexes():
            assert data.is_land(h) is (h in want["land"]) and data.is_coastal(h) is (h in want["coastal"]), h
        for off in (Hex(0, 0), Hex(99, 99)):
            with pytest.raises(KeyError):
                data.is_land(off)
            with pytest.raises(KeyError):
                data.is_coastal(off)
    assert small.land() == {H("0303"), H("0304"), H("0403"), H("0404")} != large.land()
    assert H("0404") in small.land() - small.open_coastal() and H("0404") in {h for h in small.land()
                                                                               if small.is_coastal(h)}
    assert printed.land() - small.land() and len(printed.open_coastal()) > len(large.open_coastal())
