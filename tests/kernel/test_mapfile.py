"""Map file loader and validator (docs/map-format.md)."""

from pathlib import Path

import pytest

from app.rules.kernel.hexgrid import Hex, Hexside
from app.rules.kernel.mapfile import MapError, Vocabulary, load_map, loads_map

SAMPLE = Path(__file__).parent / "data" / "sample_map.toml"
H = Hex.parse

HEADER = """
[map]
name = "test"
parity = "even-low"
cols = [1, 6]
rows = [1, 5]

[vocabulary]
terrain = ["clear", "marsh", "lake"]
hexside = ["river", "all-lake"]
features = ["city", "town"]
tags = ["landing", "victory"]

[terrain]
default = "clear"
"""


def load(extra: str = "", header: str = HEADER, **kw):
    return loads_map(header + extra, source="t.toml", **kw)


def problems(extra: str = "", header: str = HEADER, **kw) -> list[str]:
    with pytest.raises(MapError) as info:
        load(extra, header, **kw)
    assert info.value.source == "t.toml"
    return info.value.problems


# -- the sample map ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sample():
    return load_map(SAMPLE)


def test_sample_header_and_geometry(sample):
    assert sample.name == "Sample delta"
    assert sample.status == "reconstructed"
    assert "SNC 7.1" in sample.provenance
    assert sample.grid.parity == "even-low"
    assert not sample.on_map(H("3708"))  # absent
    assert H("3708") not in sample.neighbours(H("3608"))
    assert len(list(sample.hexes())) == 5 * 6 - 1


def test_sample_terrain_default_lists_override_and_rectangles(sample):
    assert sample.terrain_of(H("3512")) == "clear"
    assert sample.terrain_of(H("3310")) == "marsh"
    assert sample.terrain_of(H("3409")) == "woods"  # override beats the marsh list
    assert {sample.terrain_of(H(x)) for x in ("3308", "3408", "3508", "3608")} == {"yangtze"}
    with pytest.raises(KeyError, match="3708"):
        sample.terrain_of(H("3708"))


def test_sample_hexsides_pairs_and_between(sample):
    assert sample.hexside_features(H("3511"), H("3510")) == {"creek"}
    assert sample.hexside_features(H("3510"), H("3410")) == {"creek"}
    for other in ("3609", "3710", "3711"):
        assert sample.hexside_features(H("3610"), H(other)) == {"navigable-river"}
    assert sample.hexside_features(H("3610"), H("3611")) == frozenset()
    assert Hexside.of("3609", "3610") in sample.hexsides_with("navigable-river")


def test_sample_roads_follow_their_hexsides(sample):
    assert sample.has_road(H("3510"), H("3511")) and sample.has_road(H("3512"), H("3511"))
    assert not sample.has_road(H("3510"), H("3512"))  # not adjacent, not a road hexside
    assert sample.has_rail(H("3411"), H("3512"))
    assert not sample.has_road(H("3411"), H("3512"))
    assert sample.is_road_hex(H("3511")) and not sample.is_road_hex(H("3411"))
    assert sample.rail_hexes() == {H("3311"), H("3411"), H("3512")}
    assert sample.roads[0].name == "Wusong road"


def test_sample_features_names_tags_edges_boxes(sample):
    assert sample.cities() == {H("3512"), H("3513"), H("3611")}
    assert sample.is_city(H("3611")) and sample.is_town(H("3410")) and not sample.is_city(H("3410"))
    assert sample.name_of(H("3512")) == "Shanghai"
    assert sample.hex_named("shanghai") == H("3512")
    assert sample.name_of(H("3410")) is None
    assert sample.tags_of(H("3510")) == {"landing"}
    assert sample.hexes_tagged("victory") == {H("3512"), H("3611")}
    assert sample.hexes_tagged("neutral") == {H("3513")}
    assert sample.edge_hexes("north") == {H(f"{c}09") for c in range(33, 38)}
    assert sample.edge_hexes("south") == {H(f"{c}13") for c in range(33, 38)}
    assert sample.edges_of(H("3313")) == {"south", "west"}
    assert sample.boxes["staging"].adjacent == (H("3509"), H("3510"))


def test_a_loaded_map_lists_its_towns_apart_from_its_cities():
    loaded = load_map(SAMPLE)  # read inside the test, so the mutation run traces it (issue 19)
    assert loaded.towns() == {H("3410")}
    assert not loaded.towns() & loaded.cities()


def test_game_map_is_immutable(sample):
    with pytest.raises(AttributeError):
        sample.name = "x"
    with pytest.raises(TypeError):
        sample._terrain[H("3512")] = "marsh"


def test_vocabulary_can_come_from_the_game():
    header = HEADER.split("[vocabulary]")[0] + '[terrain]\ndefault = "clear"\n'
    vocab = Vocabulary(terrain=frozenset({"clear", "marsh"}), hexside=frozenset({"river"}))
    m = load('marsh = ["0202"]\n[hexsides]\nriver = ["0202/0203"]\n', header=header, vocabulary=vocab)
    assert m.terrain_of(H("0202")) == "marsh"
    assert m.hexside_features(H("0203"), H("0202")) == {"river"}
    assert any("no terrain types declared" in p for p in problems(header=header))


# -- one test per validation error ---------------------------------------------------------------------------
def test_unknown_terrain_names_hex_list_and_declared_words():
    found = problems('swamp = ["0202"]\n[terrain.override]\n"0303" = "jungle"\n')
    assert "[terrain] swamp: unknown terrain 'swamp' (declared: clear, lake, marsh)" in found
    assert any("0303" in p and "unknown terrain 'jungle'" in p for p in found)


def test_hexside_between_non_adjacent_hexes():
    (p,) = problems('[hexsides]\nriver = ["0202/0204"]\n')
    assert "hexside 0202/0204" in p and "not adjacent" in p


def test_parity_decides_adjacency_of_hexsides():
    # column 02 sits low on an even-low map, so 0202 touches 0303; on an odd-low map it does not
    assert load('[hexsides]\nriver = ["0202/0303"]\n').hexside_features(H("0202"), H("0303")) == {"river"}
    odd = HEADER.replace('"even-low"', '"odd-low"')
    (p,) = problems('[hexsides]\nriver = ["0202/0303"]\n', header=odd)
    assert "not adjacent" in p and "odd-low" in p


def test_duplicate_hex_in_terrain_lists():
    found = problems('marsh = ["0202", "0303"]\nlake = ["0202"]\n')
    assert found == ["[terrain] lake: hex 0202 is listed twice (already 'marsh')"]


def test_duplicate_hex_in_a_feature_list():
    (p,) = problems('[features]\ncity = ["0202", "0202"]\n')
    assert "[features] city: hex 0202 is listed twice" == p


def test_off_map_hex():
    found = problems('marsh = ["0709"]\n[names]\n"0006" = "nowhere"\n')
    assert any("hex 0709 is off the map (cols 01-06, rows 01-05)" in p for p in found)
    assert any("[names] 0006" in p and "off the map" in p for p in found)


def test_absent_hex_is_off_map_but_skipped_by_rectangles():
    header = HEADER.replace("rows = [1, 5]", 'rows = [1, 5]\nabsent = ["0101"]')
    m = load('marsh = ["0101..0202"]\n', header=header)
    assert m.hexes_of_terrain("marsh") == {H("0102"), H("0201"), H("0202")}
    (p,) = problems('marsh = ["0101"]\n', header=header)
    assert "0101" in p and "absent" in p


def test_road_that_is_not_contiguous():
    found = problems('[[roads]]\nname = "Burma road"\npath = ["0101", "0102", "0104"]\n'
                     '[[railroads]]\npath = ["0303", "0305"]\n')  # fmt: skip
    assert "road 'Burma road': 0102 and 0104 are not adjacent, so the road is not contiguous" in found
    assert any("[[railroads]] #1: 0303 and 0305 are not adjacent" in p for p in found)


def test_unknown_tag_when_the_game_declares_tags():
    (p,) = problems('[tags]\nbeach = ["0202"]\n')
    assert "unknown tag 'beach'" in p and "landing, victory" in p


def test_tags_are_open_when_not_declared():
    header = HEADER.replace('tags = ["landing", "victory"]\n', "")
    m = load('[tags]\nbeach = ["0202"]\n', header=header)
    assert m.hexes_tagged("beach") == {H("0202")}


def test_unknown_hexside_feature_and_hex_feature():
    found = problems('[hexsides]\nwall = ["0202/0203"]\n[features]\ncastle = ["0202"]\n')
    assert any("unknown hexside feature 'wall'" in p for p in found)
    assert any("unknown feature 'castle'" in p for p in found)


def test_all_problems_reported_together_and_printed_one_a_line():
    with pytest.raises(MapError) as info:
        load('swamp = ["0202"]\nmarsh = ["0909"]\n[hexsides]\nriver = ["0101/0105"]\n[tagz]\n')
    err = info.value
    assert len(err.problems) == 4
    text = str(err)
    assert text.splitlines()[0] == "t.toml: 4 problem(s) in map file"
    assert all(line.startswith("  t.toml: ") for line in text.splitlines()[1:])
    assert "unknown key 'tagz'" in text


def test_bad_header_and_bad_toml():
    found = problems(header='[map]\nname = "x"\nparity = "odd-q"\ncols = [1, 2]\nrows = [1]\n')
    assert any("rows: expected [first, last]" in p for p in found)
    bad_parity = '[map]\nname="x"\nparity="odd-q"\ncols=[1,2]\nrows=[1,2]\n'
    assert any("unknown grid parity 'odd-q'" in p for p in problems(header=bad_parity))
    assert any("not valid TOML" in p for p in problems(header="[map\n"))
    assert any("missing required key 'parity'" in p for p in problems(header='[map]\nname = "x"\n'))


def test_malformed_labels():
    found = problems('marsh = ["02-02"]\n[hexsides]\nriver = ["0202"]\n')
    assert any("invalid hex label '02-02'" in p for p in found)
    assert any("'0202' is not a hexside" in p for p in found)


def test_between_with_no_adjacent_pair_is_an_error():
    (p,) = problems('[[hexsides.between]]\nfeature = "river"\na = ["0101"]\nb = ["0505"]\n')
    assert "no hex in 'a' is adjacent" in p


def test_custom_edge_replaces_default():
    m = load('[edges]\nnorth = ["0201..0501"]\nsupply = ["0105"]\n')
    assert m.edge_hexes("north") == {H("0201"), H("0301"), H("0401"), H("0501")}
    assert m.edge_hexes("west") == {H(f"01{r:02d}") for r in range(1, 6)}
    assert m.edges_of(H("0105")) == {"west", "south", "supply"}
    with pytest.raises(KeyError, match="no map edge named 'up'"):
        m.edge_hexes("up")


def test_load_map_reports_missing_file(tmp_path):
    with pytest.raises(MapError, match="cannot read map file"):
        load_map(tmp_path / "nope.toml")


SHEET = HEADER.replace('cols = [1, 6]', 'cols = [1, 6]\nsheet = "w"')


def test_a_sheet_declares_its_prefix_and_every_label_carries_it():
    m = load('marsh = ["w0102..w0203"]\n[hexsides]\nriver = ["w0101/w0102"]\n[names]\n"w0305" = "Quay"', header=SHEET)
    assert m.grid.sheet == "w"
    assert m.terrain_of(H("w0202")) == "marsh" and m.terrain_of(H("w0101")) == "clear"
    assert m.hexside_features(H("w0102"), H("w0101")) == {"river"}
    assert m.hex_named("Quay") == H("w0305")
    assert all(h.sheet == "w" for h in m.hexes()) and not m.on_map(H("0101"))


def test_a_label_without_the_sheets_prefix_or_with_another_is_refused():
    found = problems('marsh = ["0102", "e0103", "0101..0202"]', header=SHEET)
    assert any("hex 0102 is not on this map sheet: its labels carry the prefix 'w'" in p for p in found)
    assert any("hex e0103 is not on this map sheet" in p for p in found)
    assert any("rectangle corner 0101 is not on this map sheet" in p for p in found)
    assert any("hex w0102 is not on this map sheet: the map declares no sheet prefix" in p
               for p in problems('marsh = ["w0102"]'))
    assert any("sheet prefix" in p for p in problems(header=HEADER.replace('cols', 'sheet = "W-1"\ncols')))
