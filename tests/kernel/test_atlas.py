"""Several map sheets as one map (app/rules/kernel/atlas.py): Dai Senso's West and East maps."""

import pytest

from app.rules.kernel.atlas import Atlas
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import MapError, loads_map
from app.rules.kernel.retreat import RetreatState, farther_from, retreat_options

H = Hex.parse


def sheet(prefix: str, body: str = "", source: str = "") -> str:
    return loads_map(
        f'[map]\nname = "{prefix}"\nparity = "odd-low"\ncols = [1, 6]\nrows = [1, 6]\nsheet = "{prefix}"\n'
        '[vocabulary]\nterrain = ["clear", "sea"]\nhexside = ["mountain"]\nfeatures = ["city"]\n'
        f'[terrain]\ndefault = "clear"\n{body}',
        source=source or f"{prefix}.toml",
    )


WEST = sheet("w", 'sea = ["w0101"]\n[hexsides]\nmountain = ["w0303/w0302"]\n[features]\ncity = ["w0303"]\n'
                  '[names]\n"w0303" = "Chungking"')
EAST = sheet("e", '[features]\ncity = ["e0303"]\n[names]\n"e0303" = "Chita"')
ATLAS = Atlas.of([WEST, EAST])


def test_each_question_is_answered_by_the_sheet_the_hex_lies_on():
    assert ATLAS.terrain_of(H("w0101")) == "sea" and ATLAS.terrain_of(H("e0101")) == "clear"
    assert ATLAS.hexside_features(H("w0302"), H("w0303")) == {"mountain"}
    assert ATLAS.hexside_features(H("e0302"), H("e0303")) == frozenset()
    assert ATLAS.cities() == {H("w0303"), H("e0303")}
    assert ATLAS.hex_named("chita") == H("e0303") and ATLAS.name_of(H("w0303")) == "Chungking"
    assert sum(1 for _ in ATLAS.hexes()) == 72


def test_sheets_join_nowhere():
    """No distance joins two sheets, nor a sheet and a hex on none (ruling D74 in Dai Senso): no range reaches across
    and nothing raises (before: a ValueError, a KeyError for a sheet the atlas lacks, each a server error)."""
    assert all(n.sheet == "w" for n in ATLAS.neighbours(H("w0601")))
    assert not ATLAS.adjacent(H("w0303"), H("e0303")) and not ATLAS.adjacent(H("x0303"), H("x0304"))
    assert ATLAS.distance(H("w0303"), H("w0305")) == 2
    for a, b in ((H("w0303"), H("e0303")), (H("x0303"), H("x0304"))):
        far = ATLAS.distance(a, b)
        assert not far <= 2 and far > ATLAS.distance(H("w0101"), H("w0606")) and min(far, 3) == 3


def test_labels_off_every_sheet_are_named():
    assert ATLAS.parse("e0606") == H("e0606")
    with pytest.raises(ValueError, match=r"'w0707' is not on the map \(sheets: w0101-w0606, e0101-e0606\)"):
        ATLAS.parse("w0707")
    with pytest.raises(ValueError, match="'x0101' is not on the map"):
        ATLAS.parse("x0101")
    with pytest.raises(KeyError, match="no map sheet 'x'"):
        ATLAS.terrain_of(H("x0101"))


def test_kernel_retreat_runs_on_an_atlas():
    state = RetreatState(H("e0303"))
    level, options = retreat_options(ATLAS, state, lambda c, h, s: True, [farther_from(ATLAS, H("e0403"))])
    assert level == 0 and all(h.sheet == "e" for h in options) and options


def test_two_sheets_with_one_prefix_or_an_unprefixed_sheet_are_refused_and_one_sheet_is_replaceable():
    with pytest.raises(MapError, match="sheet 'w' is already w.toml"):
        Atlas.of([WEST, sheet("w", source="other.toml")])
    bare = loads_map('[map]\nname = "b"\nparity = "odd-low"\ncols = [1, 2]\nrows = [1, 2]\n'
                     '[vocabulary]\nterrain = ["clear"]\n[terrain]\ndefault = "clear"\n', source="bare.toml")
    with pytest.raises(MapError, match="declares its prefix"):
        Atlas.of([WEST, bare])
    mine = sheet("e", 'sea = ["e0101"]', source="mine.toml")
    assert ATLAS.replaced(mine).terrain_of(H("e0101")) == "sea"
    assert ATLAS.terrain_of(H("e0101")) == "clear"
    with pytest.raises(MapError, match="none of this game's sheets"):
        ATLAS.replaced(sheet("x"))
