"""The kernel mechanisms Formosa needs, as the loader configures them on the reconstructed map: air stacking by
points (13.1, 13.2, 2.5), motorized movement and infiltration (22.0, 25.9; ruling F60), and attacks from the sea
with no hexside shift (10.2.2; ruling F65)."""
from __future__ import annotations

import pytest

from app.rules.formosa.data_load import load
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, validate_path
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import overstacked

G = load()
M = G.map
H = Hex.parse


def tac(i: int, side: str, points: int, nationality: str) -> Piece:
    return Piece(f"tac{i}", side, kind="tac", category="air", nationality=nationality, points=points)


def test_13_1_two_allied_tac_points_and_the_air_supply_unit_a_two_point_counter_counts_two_cf_10():
    """CF-10 (16.0): a 2-point counter and two 1-point counters fill the same two-point limit."""
    supply = Piece("as", "allied", kind="air-supply", category="air", nationality="us")
    assert overstacked([tac(1, "allied", 2, "us"), supply], G.stacking) == []
    assert overstacked([tac(1, "allied", 1, "us"), tac(2, "allied", 1, "us"), supply], G.stacking) == []
    (v,) = overstacked([tac(1, "allied", 2, "us"), tac(2, "allied", 1, "us")], G.stacking)
    assert v.case == "Formosa 13.1" and "3 tac" in v.message


def test_13_1_two_naval_gunfire_units_and_us_and_cw_air_apart():
    gunfire = [Piece(f"g{i}", "allied", kind="gunfire", category="naval", nationality="us") for i in range(3)]
    assert overstacked(gunfire[:2], G.stacking) == []
    assert [v.case for v in overstacked(gunfire, G.stacking)] == ["Formosa 13.1"]
    mixed = [tac(1, "allied", 1, "us"), tac(2, "allied", 1, "cw")]
    assert any("5.1" in v.case for v in overstacked(mixed, G.stacking))  # 16.1 Important


def test_13_2_one_japanese_tac_point_a_hex():
    stacking = load().stacking  # the limits read inside the test, where mutation testing traces the loading
    assert overstacked([tac(1, "japanese", 1, "japanese")], stacking) == []
    (v,) = overstacked([tac(1, "japanese", 2, "japanese")], stacking)
    assert v.case == "Formosa 13.2"


def test_22_0_motorized_movement_doubles_the_allowance_but_every_step_keeps_to_road_or_rail():
    start = H("0916")  # on the western railroad
    motor = Mover.single(start, 2 * 4, "mechanized", route_only=True)  # an armor group's 4 MF doubled
    r = reach(M, G.movement, motor)
    assert r.hexes() and all(M.has_road(r.parent[h], h) or M.has_rail(r.parent[h], h) for h in r.hexes())
    off = next(n for n in M.neighbours(start)
               if G.is_land(n) and not (M.has_road(start, n) or M.has_rail(start, n)))
    with pytest.raises(RuleViolation, match="Formosa 22.0"):
        validate_path(M, G.movement, motor, [start, off])


def test_22_0_25_9_rangers_and_the_takasago_unit_slip_through_the_first_ezoc_ruling_f60():
    start, first, beyond = H("1016"), H("1017"), H("1018")
    sit = Situation(ezoc=frozenset({first}))
    ranger = Mover.single(start, 4, "non-mechanized", ignore_first_ezoc=True)
    assert validate_path(M, G.movement, ranger, [start, first, beyond], sit) <= 4
    with pytest.raises(RuleViolation, match="Formosa 14.1"):
        validate_path(M, G.movement, Mover.single(start, 4, "non-mechanized"), [start, first, beyond], sit)


def test_10_2_2_an_assault_from_the_sea_gets_no_hexside_shift_ruling_f65():
    coast = H("0816")  # a river hexside to the east, the sea to the west
    river = next(n for n in M.neighbours(coast) if G.is_land(n) and "river" in M.hexside_features(coast, n))
    sea = [n for n in M.neighbours(coast) if not G.is_land(n)]
    assert G.hexside_shift(coast, [river], "japanese") == 1  # across the river from the land: one left
    assert G.hexside_shift(coast, sea, "japanese") == 0
    assert G.hexside_shift(coast, sea, "allied") == 0
