"""Zones of control driven by per-game data."""

from app.rules.kernel.pieces import Piece
from app.rules.kernel.zoc import OccupiedException, ZocRules, enemy_zoc, exerts_zoc, zoc_hexes, zoc_of_side
from tests.kernel.mapkit import H, hs, make_map

# SNC 7.1 as data
SNC_ZOC = ZocRules(
    case="SNC 7.1",
    blocked_features=frozenset({"city"}),
    blocked_hexsides=frozenset({"all-sea", "all-lake", "navigable-river"}),
    occupied_exceptions=(OccupiedException(side="chinese", tag="ngf-coastal", case="SNC 7.1"),),
)
# Formosa 14.0 as data
FORMOSA_ZOC = ZocRules(case="Formosa 14.0", exempt=frozenset({"guerrilla"}))
ICHIGO_ZOC = ZocRules(enabled=False)

SHANGHAI = make_map(
    cols=(33, 37),
    rows=(8, 13),
    features={"city": ["3512", "3513", "3611"]},
    hexsides={"navigable-river": ["3610/3609", "3610/3710", "3610/3711"], "river": ["3610/3511"]},
    tags={"ngf-coastal": ["3510"]},
)


def chinese(i="c1", **kw):
    return Piece(i, "chinese", **kw)


def japanese(i="j1", **kw):
    return Piece(i, "japanese", **kw)


def test_snc_7_1_example_no_zoc_into_city_or_across_the_huangpu():
    """SNC 7.1 example (unit in 3610, catalog SN-6): no ZOC into 3611 (city) nor 3609/3710/3711 (Huangpu)."""
    assert set(SHANGHAI.neighbours(H("3610"))) == set(hs("3609", "3710", "3711", "3611", "3511", "3510"))
    assert zoc_hexes(SHANGHAI, H("3610"), [chinese()], SNC_ZOC) == set(hs("3510", "3511"))


def test_snc_7_1_example_no_chinese_zoc_into_japanese_held_coastal_hex_3510():
    positions = {H("3610"): [chinese()], H("3510"): [japanese()]}
    assert zoc_hexes(SHANGHAI, H("3610"), [chinese()], SNC_ZOC, positions) == {H("3511")}
    # the exception is Chinese-only: a Japanese unit in 3610 would still project into a Chinese-held 3510
    positions = {H("3610"): [japanese()], H("3510"): [chinese()]}
    assert H("3510") in zoc_hexes(SHANGHAI, H("3610"), [japanese()], SNC_ZOC, positions)


def test_snc_7_1_zoc_extends_across_river_hexsides():
    assert H("3511") in zoc_hexes(SHANGHAI, H("3610"), [chinese()], SNC_ZOC)


def test_snc_7_0_static_units_project_zoc_too():
    garrison = chinese("g", kind="garrison", tags=frozenset({"static"}))
    assert zoc_hexes(SHANGHAI, H("3410"), [garrison], SNC_ZOC) == set(SHANGHAI.neighbours(H("3410")))


def test_formosa_14_0_guerrillas_air_naval_and_markers_exert_no_zoc():
    assert not exerts_zoc(Piece("g", "japanese", kind="guerrilla"), FORMOSA_ZOC)
    assert not exerts_zoc(Piece("a", "allied", category="air"), FORMOSA_ZOC)
    assert not exerts_zoc(Piece("n", "allied", category="naval"), FORMOSA_ZOC)
    assert not exerts_zoc(Piece("m", "allied", category="marker"), FORMOSA_ZOC)
    assert exerts_zoc(Piece("s", "japanese", kind="coastal-defense", tags=frozenset({"static"})), FORMOSA_ZOC)


def test_formosa_14_0_zoc_extends_into_enemy_occupied_hexes():
    m = make_map()
    positions = {H("0505"): [Piece("a", "allied")], H("0504"): [Piece("j", "japanese")]}
    assert H("0504") in zoc_of_side(m, positions, "allied", FORMOSA_ZOC)
    closed = ZocRules(into_enemy_occupied=False)
    assert H("0504") not in zoc_of_side(m, positions, "allied", closed)


def test_ichigo_has_no_zoc():
    """Ichi-Go: no ZOC rules at all (catalog 1.6)."""
    m = make_map()
    positions = {H("0505"): [Piece("j", "japanese")]}
    assert enemy_zoc(m, positions, "chinese", ICHIGO_ZOC) == frozenset()


def test_enemy_zoc_is_the_other_sides_zoc():
    m = make_map()
    positions = {H("0505"): [japanese()], H("0202"): [chinese()]}
    assert enemy_zoc(m, positions, "chinese", SNC_ZOC) == set(m.neighbours(H("0505")))
    assert enemy_zoc(m, positions, "japanese", SNC_ZOC) == set(m.neighbours(H("0202")))


def test_dai_senso_4_2_5_1_mountain_hexsides_keep_chungking_zoc_out():
    """Dai Senso 4.2.5.1 example: the hexes by Chungking w4620 behind mountain hexsides hold no EZOC."""
    m = make_map(
        cols=(44, 47), rows=(18, 22), parity="odd-low", hexsides={"mountain": ["4620/4519", "4620/4621"]}
    )
    rules = ZocRules(blocked_hexsides=frozenset({"mountain"}))
    z = zoc_hexes(m, H("4620"), [Piece("hq", "western", kind="hq")], rules)
    assert H("4519") not in z and H("4621") not in z
    assert H("4520") in z
