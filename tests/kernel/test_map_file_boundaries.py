"""A map file at its limits and with several mistakes: the largest map accepted and the next refused, every
mistake named at once, names kept (docs/map-format.md; found missing by the mutation run, issue 19)."""
from pathlib import Path

import pytest

from app.rules.kernel.mapfile import MapError, load_map, loads_map
from tests.kernel.test_map_limits import SMALL

# test_map_limits's small map, with a hexside feature declared
MAP = SMALL.replace('terrain = ["clear", "woods"]\n', 'terrain = ["clear", "woods"]\nhexside = ["river"]\n')


def small(cols: int = 3, rows: int = 3, more: str = "") -> str:
    return MAP.replace("COLS", str(cols)).replace("ROWS", str(rows)) + more


def problems(text: str) -> list[str]:
    with pytest.raises(MapError) as caught:
        loads_map(text, "custom map")
    return [line.strip() for line in str(caught.value).splitlines()[1:]]


@pytest.mark.parametrize(("cols", "rows"), [(100, 60), (60, 100)])
def test_a_map_of_exactly_the_most_hexes_and_columns_is_read(cols, rows):
    assert len(list(loads_map(small(cols, rows), "custom map").hexes())) == 6000


@pytest.mark.parametrize(("cols", "rows"), [(100, 61), (101, 1)])
def test_one_hex_row_or_column_more_is_refused(cols, rows):
    assert problems(small(cols, rows)) == [
        f"custom map: [map]: {cols} columns by {rows} rows is too large a map: at most 100 columns, 100 rows and "
        "6000 hexes (nothing else was read)"]


def test_every_unknown_word_is_named_not_only_the_first():
    more = '[terrain.override]\n"0101" = "lava"\n"0102" = "ice"\n' \
           '[[hexsides.between]]\nfeature = "rivers"\na = ["0101"]\nb = ["0102"]\n' \
           '[[hexsides.between]]\nfeature = "river"\na = ["0101"]\nb = ["0909"]\n'
    assert problems(small(more=more)) == [
        "custom map: [terrain.override] 0101: unknown terrain 'lava' (declared: clear, woods)",
        "custom map: [terrain.override] 0102: unknown terrain 'ice' (declared: clear, woods)",
        "custom map: [[hexsides.between]] #1: unknown hexside feature 'rivers' (declared: river)",
        "custom map: [[hexsides.between]] #2 b: hex 0909 is off the map (cols 01-03, rows 01-03)",
    ]


@pytest.mark.parametrize("sides", ['a = ["0101"]\n', 'b = ["0102"]\n', 'a = ["0101"]\nb = []\n'])
def test_a_hexside_between_needs_hexes_on_both_sides(sides):
    """A river 'between' one side and nothing was read as no river at all, silently (mutant kernel.mapfile
    _hexsides 154): the map's author is told instead."""
    assert problems(small(more=f'[[hexsides.between]]\nfeature = "river"\n{sides}')) == [
        "custom map: [[hexsides.between]] #1: needs the hexes on both sides, 'a' and 'b', for 'river' to lie "
        "between them"]


def test_a_box_name_is_plain_text_and_a_road_keeps_its_name():
    said = problems(small(more='[[boxes]]\nid = "s"\nname = "<b>x</b>"\nadjacent = ["0101"]\n'))
    assert said == ["custom map: [[boxes]] #1: name '<b>x</b>' is not plain text: letters, digits, spaces and "
                    ". , ' ( ) / : - & only, at most 60 characters"]
    sample = load_map(Path(__file__).parent / "data" / "sample_map.toml")
    assert [r.name for r in sample.roads] == ["Wusong road"]


def test_a_box_or_a_between_that_is_not_a_table_is_refused_by_its_place():
    text = 'boxes = ["s"]\n' + small(more='[hexsides]\nbetween = ["0101"]\n')
    assert problems(text) == ["custom map: [[hexsides.between]] #1: must be a table",
                              "custom map: [[boxes]] #1: must be a table"]


def test_every_bad_box_is_named_not_only_the_first():
    """A box without an id, or with a bad one, stopped the reading of the boxes after it (mutants kernel.mapfile
    _boxes 44, 70)."""
    said = problems(small(more='[[boxes]]\nname = "Depot"\n[[boxes]]\nid = "Supply"\n'
                               '[[boxes]]\nid = "s"\nedge = "North Edge"\n[[boxes]]\nid = "t"\nname = "<i>"\n'))
    assert [p.split(" is not ")[0] for p in said] == [
        "custom map: [[boxes]] #1: missing 'id'",
        "custom map: [[boxes]] #2: box id 'Supply'",
        "custom map: [[boxes]] #3: edge 'North Edge'",
        "custom map: [[boxes]] #4: name '<i>'",
    ]


def test_a_bad_hex_on_the_a_side_of_a_between_is_named_with_its_side():
    said = problems(small(more='[[hexsides.between]]\nfeature = "river"\na = ["0409"]\nb = ["0101"]\n'))
    assert said == ["custom map: [[hexsides.between]] #1 a: hex 0409 is off the map (cols 01-03, rows 01-03)"]


def test_a_word_of_a_kind_the_map_declares_none_of_says_none_is_declared():
    assert problems(small(more='[features]\ncity = ["0101"]\n')) == [
        "custom map: [features] city: unknown feature 'city' (declared: none declared)"]
    assert problems(MAP.replace("COLS", "3").replace("ROWS", "3").replace('terrain = ["clear", "woods"]\n', "")) == [
        "custom map: [vocabulary]: no terrain types declared (declare them here or pass a Vocabulary)"]


def test_a_loaded_map_holds_each_route_with_its_kind_and_name():
    loaded = loads_map(small(more='[[roads]]\nname = "Burma Road"\npath = ["0101", "0102"]\n'
                                  '[[railroads]]\npath = ["0201", "0202"]\n'), "custom map")
    assert [(r.kind, r.name, [str(h) for h in r.path]) for r in loaded.roads] == [
        ("road", "Burma Road", ["0101", "0102"])]
    assert [(r.kind, r.name, [str(h) for h in r.path]) for r in loaded.railroads] == [
        ("railroad", "", ["0201", "0202"])]


def test_a_map_file_too_many_bytes_is_refused_naming_its_size(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(small(more="# " + "x" * 140_000 + "\n"), encoding="utf-8")
    with pytest.raises(MapError) as caught:
        load_map(path)
    size = path.stat().st_size
    assert caught.value.problems == [
        f"the map file is {size} bytes; a map file may have at most 131072 (nothing was read further)"]


def test_a_default_terrain_the_map_does_not_declare_is_refused():
    assert problems(MAP.replace("COLS", "3").replace("ROWS", "3").replace('default = "clear"', 'default = "lava"')) \
        == ["custom map: [terrain] default: unknown terrain 'lava' (declared: clear, woods)"]


def test_a_hexside_between_hexes_that_do_not_touch_is_named_with_its_feature():
    assert problems(small(more='[hexsides]\nriver = ["0101/0303"]\n')) == [
        "custom map: [hexsides] river: hexside 0101/0303 joins hexes that are not adjacent (even-low)"]
