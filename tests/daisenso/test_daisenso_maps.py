"""Dai Senso map sheets checked against every hex fact chapter 4 states (seed catalog 0.2 and 3.2).

The expected values come from the rules text (the case in each test name); the map files are the reconstruction
under test (app/rules/daisenso/data/map-west.toml, map-east.toml; rulings D1-D5 in docs/rulings/daisenso.md).
"""

from __future__ import annotations

import pytest

from app.rules.daisenso.data_load import load
from app.rules.kernel.hexgrid import Hex

D = load()
A = D.atlas
H = Hex.parse


def hexes(*labels: str) -> set[Hex]:
    return {H(x) for x in labels}


def land(*labels: str) -> bool:
    return all(D.is_land(H(x)) for x in labels)


def test_d1_both_sheets_put_the_odd_columns_low_and_carry_their_prefix():
    assert {p: m.grid.parity for p, m in A.sheets.items()} == {"w": "odd-low", "e": "odd-low"}
    assert A.parse("w4520").sheet == "w" and A.parse("e3609").sheet == "e"
    assert not A.adjacent(H("w3610"), H("w3711"))  # even-low would make these neighbours


def test_4_2_5_1_chungking_example_the_no_hexes_are_w4519_and_w4621_behind_mountain_hexsides():
    chungking, attacker = A.hex_named("Chungking"), H("w4520")
    assert chungking == H("w4620") and A.is_city(chungking)
    no_hexes = {h for h in A.neighbours(attacker) if A.adjacent(h, chungking)}
    assert no_hexes == hexes("w4519", "w4621")
    assert all(A.hexside_features(chungking, h) == {"mountain"} for h in no_hexes)
    farther = {h for h in A.neighbours(attacker) if A.distance(h, chungking) == 2}
    assert farther == hexes("w4420", "w4421", "w4521") and land("w4420", "w4421", "w4521", "w4520")


def test_4_2_5_1_akyab_example_distances_and_the_all_sea_hexside_to_calcutta():
    akyab, dacca, calcutta = (A.hex_named(n) for n in ("Akyab", "Dacca", "Calcutta"))
    assert (akyab, dacca, calcutta) == (H("w4114"), H("w4313"), H("w4213"))
    assert all(A.is_city(h) for h in (akyab, dacca, calcutta))
    path = [akyab, H("w4214"), dacca]
    assert all(A.adjacent(a, b) for a, b in zip(path, path[1:], strict=False)) and land("w4214", "w4313")
    assert [A.distance(akyab, h) for h in path] == [0, 1, 2]
    assert A.distance(akyab, calcutta) == A.distance(akyab, H("w4314")) == 2
    assert A.adjacent(dacca, calcutta) and A.adjacent(dacca, H("w4314"))
    assert {h for h in A.neighbours(dacca) if A.distance(akyab, h) == 3} == hexes("w4312", "w4413", "w4414")
    assert land("w4312", "w4413", "w4414", "w4314", "w4213")
    assert "all-sea" in A.hexside_features(calcutta, H("w4214"))  # "despite the All-Sea hexside"


def test_4_2_5_2_taihoku_example_foochow_across_a_strait_amoy_across_all_sea():
    taihoku, foochow, amoy = (A.hex_named(n) for n in ("Taihoku", "Foochow", "Amoy"))
    assert (taihoku, foochow, amoy) == (H("w4324"), H("w4424"), H("w4323"))
    assert A.hexside_features(taihoku, foochow) == {"strait"}
    assert A.hexside_features(taihoku, amoy) == {"all-sea"}
    assert not D.hexside_flag(taihoku, foochow, "all_sea") and D.hexside_flag(taihoku, amoy, "all_sea")
    assert D.tec["hexsides"]["strait"]["retreat"] and not D.tec["hexsides"]["all-sea"]["retreat"]


def test_4_2_5_3_kiangsu_example_retreat_hexes_and_the_lake_hexside():
    start, hq = H("w4624"), H("w4623")
    assert A.adjacent(start, H("w4723")) and A.adjacent(start, hq)
    second = {h for h in A.neighbours(hq) if A.distance(start, h) == 2}
    assert second == hexes("w4722", "w4522", "w4622")
    assert A.hexside_features(hq, H("w4622")) == {"lake"} and D.hexside_flag(hq, H("w4622"), "all_sea")
    assert not D.tec["hexsides"]["lake"]["retreat"]
    assert land("w4624", "w4623", "w4723", "w4722", "w4522", "w4622")


def test_4_2_8_chita_example_chita_is_a_russian_city_on_the_east_map():
    chita = A.hex_named("Chita")
    assert chita == H("e3609") and A.is_city(chita) and D.country_of(chita).id == "ussr"


@pytest.mark.parametrize("label", ["w4520", "w4214", "w4314", "w4312", "w4413", "w4414", "w4623", "w4723",
                                   "w4722", "w4522", "w4622", "w4624"])
def test_d4_hexes_the_text_gives_by_number_only_hold_no_city(label):
    assert not A.is_city(H(label)) and A.name_of(H(label)) is None


def test_4_2_3_8_example_terrain_a_clear_hex_and_a_city_each_with_river_and_mountain_hexsides():
    clear = H("w4722")
    assert A.terrain_of(clear) == "clear" and not A.is_city(clear)
    assert A.hexside_features(clear, H("w4622")) == {"river"} and A.hexside_features(clear, H("w4822")) == {"mountain"}
    chungking = H("w4620")
    assert A.hexside_features(chungking, H("w4720")) == {"river"}
    assert A.hexside_features(chungking, H("w4519")) == {"mountain"}


def test_every_land_hex_belongs_to_one_country_and_sea_to_none():
    for h in A.hexes():
        assert (D.country_of(h) is None) == (not D.is_land(h)), h


def test_the_soviet_manchukuo_border_is_the_argun_and_amur_but_at_manchouli():
    border = {
        frozenset((a, b))
        for a in A.hexes_tagged("country-ussr")
        for b in A.neighbours(a)
        if b in A.hexes_tagged("country-manchukuo")
    }
    dry = {s for s in border if "river" not in A.hexside_features(*s)}
    assert dry == {frozenset(hexes("e3410", "e3509")), frozenset(hexes("e3410", "e3510"))}
