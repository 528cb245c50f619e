"""Formosa 13.1, 13.2 and 2.5: air stacking counts air points, not counters, through the loader's rules."""
from __future__ import annotations

from app.rules.formosa.data_load import load
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import overstacked

G = load()


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
    assert overstacked([tac(1, "japanese", 1, "japanese")], G.stacking) == []
    (v,) = overstacked([tac(1, "japanese", 2, "japanese")], G.stacking)
    assert v.case == "Formosa 13.2"
