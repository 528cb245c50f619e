"""Hex geometry: properties plus adjacency/distance facts from the rulebooks (seed catalog 0.2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.kernel.hexgrid import DIRECTIONS, Grid, Hex, Hexside

SNC = Grid("even-low", (1, 40), (1, 30))  # Ichi-Go and SNC share this parity
DAI = Grid("odd-low", (1, 60), (1, 40))  # Dai Senso w-map
GRIDS = st.sampled_from([SNC, DAI])


def H(label: str) -> Hex:
    return Hex.parse(label)


def hexes_of(grid: Grid):
    return st.builds(Hex, st.integers(grid.cols[0], grid.cols[1]), st.integers(grid.rows[0], grid.rows[1]))


any_hex = st.builds(Hex, st.integers(1, 40), st.integers(1, 30))


# -- parse / print ------------------------------------------------------------------------------------------
def test_parse_and_print_xxyy():
    assert Hex.parse("3512") == Hex(35, 12)
    assert Hex.parse("0202") == Hex(2, 2)
    assert str(Hex(2, 2)) == "0202"
    assert str(Hex(35, 12)) == "3512"
    assert Hex.parse("101203") == Hex(101, 203)


@pytest.mark.parametrize("junk", ["", "35", "351", "35a2", "4520w", "w452", "w-4520", "w", "12345", "35 12", "-512"])
def test_parse_rejects_junk_with_clear_message(junk):
    with pytest.raises(ValueError, match="hex label"):
        Hex.parse(junk)


@given(st.integers(0, 999), st.integers(0, 999))
def test_label_round_trip(col, row):
    h = Hex(col, row)
    assert Hex.parse(str(h)) == h


def test_each_hex_keeps_its_own_label():
    """A hex's label is found once and kept (CI time): every hex keeps its own, sheet and width included, asked
    in any order; a hex whose label was asked equals, sorts and hashes as one never asked."""
    hexes = [Hex(2, 2), Hex(2, 3), Hex(3, 2), Hex(2, 2, "w"), Hex(101, 3), Hex(3, 101, "e"), Hex(-1, 2), Hex(0, 0)]
    want = ["0202", "0203", "0302", "w0202", "101003", "e003101", "(-1,2)", "0000"]
    for _ in range(2):
        assert [str(h) for h in hexes] == want
        assert [str(h) for h in reversed(hexes)] == want[::-1]
    fresh = [Hex(h.col, h.row, h.sheet) for h in hexes]
    assert fresh == hexes and {hash(a) for a in fresh} == {hash(b) for b in hexes}
    assert sorted(fresh) == sorted(hexes) and repr(hexes[3]) == "Hex(col=2, row=2, sheet='w')"
    assert Hex.parse(str(hexes[3])) is Hex.parse("w0202") == hexes[3]


def test_hexes_order_by_column_then_row():
    assert sorted([H("3512"), H("0202"), H("0203")]) == [H("0202"), H("0203"), H("3512")]


# -- hexsides -----------------------------------------------------------------------------------------------
def test_hexside_is_unordered_and_round_trips():
    s = Hexside.of(H("3511"), H("3510"))
    assert s == Hexside.of("3510", "3511")
    assert str(s) == "3510/3511"
    assert Hexside.parse("3511/3510") == s
    assert len({s, Hexside.of("3510", "3511")}) == 1
    assert s.other(H("3510")) == H("3511")


def test_hexside_rejects_same_hex_and_junk():
    with pytest.raises(ValueError):
        Hexside.of("3510", "3510")
    with pytest.raises(ValueError, match="XXYY/XXYY"):
        Hexside.parse("3510-3511")


def test_grid_hexside_requires_adjacency():
    assert SNC.hexside(H("3610"), H("3711")) == Hexside.of("3610", "3711")
    with pytest.raises(ValueError, match="not adjacent"):
        SNC.hexside(H("3610"), H("3712"))


# -- properties ---------------------------------------------------------------------------------------------
@given(GRIDS, any_hex, any_hex)
def test_distance_symmetric(grid, a, b):
    assert grid.distance(a, b) == grid.distance(b, a)


@given(GRIDS, any_hex, any_hex, any_hex)
def test_distance_triangle_inequality(grid, a, b, c):
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@given(GRIDS, any_hex, any_hex)
def test_distance_zero_iff_same_hex(grid, a, b):
    assert (grid.distance(a, b) == 0) == (a == b)


@given(GRIDS, st.integers(2, 39), st.integers(2, 29))
def test_interior_hex_has_six_neighbours_at_distance_one(grid, col, row):
    h = Hex(col, row)
    ns = grid.neighbours(h)
    assert len(ns) == 6 and len(set(ns)) == 6
    assert all(grid.distance(h, n) == 1 for n in ns)
    assert all(grid.adjacent(n, h) for n in ns)


@given(GRIDS, any_hex)
def test_all_neighbours_distance_one_and_directions_opposite(grid, h):
    for i, n in enumerate(grid.all_neighbours(h)):
        assert grid.distance(h, n) == 1
        assert grid.direction(h, n) == i
        assert grid.direction(n, h) == (i + 3) % 6


@given(GRIDS, st.integers(-50, 80), st.integers(-50, 80))
def test_cube_round_trip(grid, col, row):
    h = Hex(col, row)
    q, r, s = grid.to_cube(h)
    assert q + r + s == 0
    assert grid.from_cube(q, r, s) == h


@given(GRIDS, any_hex, st.integers(0, 4))
def test_ring_and_within_match_distance(grid, h, r):
    ring = grid.ring(h, r)
    assert all(grid.distance(h, x) == r for x in ring)
    expected = {x for x in grid.hexes() if grid.distance(h, x) <= r}
    assert set(grid.within(h, r)) == expected


@given(GRIDS, any_hex, any_hex)
def test_line_is_a_chain_of_adjacent_hexes(grid, a, b):
    line = grid.line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == grid.distance(a, b) + 1
    assert all(grid.adjacent(x, y) for x, y in zip(line, line[1:], strict=False))


def test_direction_order_is_n_ne_se_s_sw_nw():
    assert DIRECTIONS == ("N", "NE", "SE", "S", "SW", "NW")
    # 3512 is an odd column (sits high on an even-low map)
    assert SNC.all_neighbours(H("3512")) == [H(x) for x in ("3511", "3611", "3612", "3513", "3412", "3411")]
    # 3610 is an even column (sits low)
    assert SNC.all_neighbours(H("3610")) == [H(x) for x in ("3609", "3710", "3711", "3611", "3511", "3510")]
    assert SNC.direction(H("3512"), H("3514")) is None


def test_edges_and_off_map_neighbours():
    g = Grid("even-low", (14, 36), (1, 25))
    assert g.edge_sides(H("1401")) == {"north", "west"}
    assert g.edge_sides(H("2001")) == {"north"}
    assert g.edge_sides(H("3625")) == {"south", "east"}
    assert not g.is_edge(H("2010"))
    assert g.edge_sides(H("4001")) == frozenset()  # off the map
    assert len(g.neighbours(H("1701"))) == 3  # odd column on the north edge loses N, NE, NW
    assert len(g.all_neighbours(H("1701"))) == 6
    assert sum(1 for _ in g.hexes()) == 23 * 25


def test_grid_rejects_unknown_parity():
    with pytest.raises(ValueError, match="parity"):
        Grid("odd-q", (1, 10), (1, 10))


# -- SNC / Ichi-Go facts (seed catalog 0.2) -----------------------------------------------------------------
@pytest.mark.parametrize("other", ["3411", "3412", "3611", "3612"])
def test_snc_3512_shanghai_adjacent_to(other):
    """SNC set-up/example-of-play facts: 3512 touches 3411/3412/3611/3612."""
    assert SNC.adjacent(H("3512"), H(other))


def test_snc_3610_adjacent_to_3711_and_2806_to_2707():
    assert SNC.adjacent(H("3610"), H("3711"))
    assert SNC.adjacent(H("2806"), H("2707"))


def test_ichigo_11_15_north_edge_hex_1701_has_three_on_map_neighbours():
    """Ichi-Go 11.15: attackers in 1601, 1702, 1801 are all adjacent to 1701 and are all it has on the map."""
    g = Grid("even-low", (1, 36), (1, 25))
    assert set(g.neighbours(H("1701"))) == {H("1601"), H("1702"), H("1801")}
    assert g.edge_sides(H("1701")) == {"north"}


def test_ichigo_11_2_2610_and_2711_both_adjacent_to_2611():
    assert SNC.adjacent(H("2611"), H("2610"))
    assert SNC.adjacent(H("2611"), H("2711"))


# -- map sheets (Dai Senso's West and East maps: "w4520", "e3609") ----------------------------------------
def test_a_sheet_prefix_parses_prints_and_orders_apart_from_bare_labels():
    assert Hex.parse("w4520") == Hex(45, 20, "w")
    assert Hex.parse(" W4520 ") == Hex(45, 20, "w")
    assert str(Hex(36, 9, "e")) == "e3609"
    assert Hex.parse("w4520") != Hex.parse("4520") != Hex.parse("e4520")


def test_a_sheets_neighbours_stay_on_it_and_no_distance_joins_two_sheets():
    west = Grid("odd-low", (1, 60), (1, 40), sheet="w")
    h = Hex.parse("w4520")
    assert west.on_map(h) and not west.on_map(Hex.parse("4520")) and not west.on_map(Hex.parse("e4520"))
    assert {str(n) for n in west.neighbours(h)} == {"w4519", "w4521", "w4420", "w4421", "w4620", "w4621"}
    assert all(west.distance(h, n) == 1 for n in west.neighbours(h))
    assert all(n.sheet == "w" for n in west.ring(h, 2) + west.line(h, Hex.parse("w4124")))
    assert not west.adjacent(h, Hex.parse("e4521"))
    with pytest.raises(ValueError, match="different map sheets"):
        west.distance(h, Hex.parse("e4520"))
    with pytest.raises(ValueError, match="sheet prefix"):
        Grid("odd-low", (1, 2), (1, 2), sheet="W1")


def test_parities_differ_on_the_same_labels():
    # 3610-3711 adjacent on SNC's even-low map, not on Dai Senso's odd-low one
    assert not DAI.adjacent(H("3610"), H("3711"))
    assert DAI.adjacent(H("3610"), H("3709"))
