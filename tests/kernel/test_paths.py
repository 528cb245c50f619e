"""Supply and LoC tracing with per-game blockers (Ichi-Go 7.x, Formosa 14.3/19.x, SNC 8.2)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.kernel.hexgrid import Grid, Hexside
from app.rules.kernel.paths import TraceRules, TraceSituation, linked, trace
from tests.kernel.mapkit import H, hs, make_map

# Ichi-Go 7.1 as data: any length; no all-lake/all-sea hexsides; no enemy-controlled cities; no enemy units.
ICHIGO_SUPPLY = TraceRules(
    case="Ichi-Go 7.1",
    blocked_hexsides=frozenset({"lake", "sea"}),
    blocked_terrain=frozenset({"lake", "sea"}),
    enemy_controlled_block=frozenset({"city"}),
)
ICHIGO = make_map(
    cols=(1, 12),
    rows=(1, 12),
    features={"city": ["0505", "0606"]},
    hexsides={"lake": ["0303/0304", "0403/0404", "0203/0204", "0103/0104"]},
)
NORTH = ICHIGO.edge_hexes("north")


def test_ichigo_7_1_path_of_any_length_to_the_north_edge():
    path = trace(ICHIGO, H("0612"), NORTH, ICHIGO_SUPPLY)
    assert path is not None and path[0] == H("0612") and path[-1] in NORTH
    assert len(path) - 1 == 11  # as far as it takes
    assert all(ICHIGO.adjacent(a, b) for a, b in zip(path, path[1:], strict=False))


def test_ichigo_7_1_never_across_all_lake_hexsides():
    # 0104..0404 are walled off northward by lake hexsides; the path must go round by 0504
    path = trace(ICHIGO, H("0204"), NORTH, ICHIGO_SUPPLY)
    assert path is not None
    sides = {frozenset(p) for p in zip(path, path[1:], strict=False)}
    assert not sides & {frozenset(hs("0203", "0204")), frozenset(hs("0303", "0304"))}
    no_lake_rule = TraceRules()
    assert len(trace(ICHIGO, H("0204"), NORTH, no_lake_rule)) < len(path)


def test_ichigo_7_1_enemy_controlled_city_blocks_even_when_empty_and_enemy_units_block():
    wall = frozenset(H(f"{c:02d}06") for c in range(1, 13)) - {H("0606")}
    sit = TraceSituation(enemy_occupied=wall, enemy_controlled=frozenset({H("0606")}))
    assert trace(ICHIGO, H("0610"), NORTH, ICHIGO_SUPPLY, sit) is None
    friendly_city = TraceSituation(enemy_occupied=wall)
    assert H("0606") in trace(ICHIGO, H("0610"), NORTH, ICHIGO_SUPPLY, friendly_city)


def test_ichigo_7_1_path_may_run_adjacent_to_enemy_units():
    sit = TraceSituation(
        enemy_occupied=frozenset(hs("0502", "0704")), ezoc=frozenset(ICHIGO.neighbours(H("0603")))
    )
    assert trace(ICHIGO, H("0603"), NORTH, ICHIGO_SUPPLY, sit) == hs("0603", "0602", "0601")


# Formosa 19.0/19.1/14.3 as data (MF 4 unit); mechanized variant for 19.0 item 4
FORMOSA_LOS = TraceRules(
    case="Formosa 19.1",
    max_length=4,
    blocked_hexsides=frozenset({"all-sea"}),
    blocked_terrain=frozenset({"sea"}),
    ezoc_blocks=True,
    friendly_negates_ezoc=False,
)
FORMOSA = make_map(
    cols=(1, 10),
    rows=(1, 10),
    default="open",
    terrain={"mountain": ["0303..0307"], "sea": ["0901..1010"]},
    hexsides={"all-sea": ["0505/0605", "0505/0604"]},
    roads=[["0205", "0305", "0405"], ["0410", "0510", "0610", "0710", "0810"]],
)


def test_formosa_19_1_los_is_at_most_the_units_movement_factor_in_hexes():
    port = {H("0105")}
    path = trace(FORMOSA, H("0505"), port, FORMOSA_LOS)
    assert path is not None and len(path) - 1 == 4 and path[-1] == H("0105")
    assert trace(FORMOSA, H("0605"), port, FORMOSA_LOS) is None  # 5 hexes away


def test_formosa_19_0_los_never_crosses_all_sea_hexsides():
    rules = TraceRules(max_length=1, blocked_hexsides=frozenset({"all-sea"}))
    assert trace(FORMOSA, H("0505"), {H("0605")}, rules) is None
    assert trace(FORMOSA, H("0505"), {H("0605")}, TraceRules(max_length=1)) == hs("0505", "0605")


def test_formosa_14_3_no_los_through_ezoc_even_if_friendly_occupied():
    ezoc = frozenset(hs("0405", "0404", "0406"))
    sit = TraceSituation(ezoc=ezoc, friendly_occupied=ezoc)
    path = trace(FORMOSA, H("0505"), {H("0105")}, FORMOSA_LOS, sit)
    assert path is None  # every 4-hex route runs through the screen
    negating = TraceRules(**{**FORMOSA_LOS.__dict__, "friendly_negates_ezoc": True})
    assert trace(FORMOSA, H("0505"), {H("0105")}, negating, sit) is not None


def test_formosa_14_3_unit_in_ezoc_traces_out_but_source_in_ezoc_supplies_only_its_hex():
    sit = TraceSituation(ezoc=frozenset(hs("0505", "0105")))
    assert trace(FORMOSA, H("0505"), {H("0205")}, FORMOSA_LOS, sit) is not None
    assert trace(FORMOSA, H("0505"), {H("0105")}, FORMOSA_LOS, sit) is None
    assert trace(FORMOSA, H("0105"), {H("0105")}, FORMOSA_LOS, sit) == [H("0105")]


def test_formosa_19_0_mechanized_not_through_mountains_except_along_roads():
    mech = TraceRules(**{**FORMOSA_LOS.__dict__, "road_only_terrain": frozenset({"mountain"})})
    assert trace(FORMOSA, H("0405"), {H("0205")}, mech) == hs("0405", "0305", "0205")  # road through 0305
    assert trace(FORMOSA, H("0404"), {H("0204")}, FORMOSA_LOS) == hs("0404", "0304", "0204")
    detour = trace(FORMOSA, H("0404"), {H("0204")}, mech)
    assert detour is not None and not set(detour) & set(FORMOSA.hexes_of_terrain("mountain")) - {H("0305")}


def test_formosa_19_2_hq_traces_to_a_road_then_unlimited_along_it():
    hq = TraceRules(max_length=2, road_unlimited=True)
    port = {H("0810")}
    path = trace(FORMOSA, H("0408"), port, hq)
    assert path is not None and path[-1] == H("0810")
    off_road = [(a, b) for a, b in zip(path, path[1:], strict=False) if not FORMOSA.has_road(a, b)]
    assert len(off_road) <= 2 and len(path) - 1 > 2
    assert trace(FORMOSA, H("0408"), port, TraceRules(max_length=2)) is None
    # the free leg runs along the road to the port: no stepping off the road again at the far end
    # (0910 is 5 hexes from 0407; 3 hexes to the road + 1 off its end would fit a mixed count of 4)
    unlimited = TraceRules(max_length=4, road_unlimited=True)
    assert trace(FORMOSA, H("0407"), {H("0810")}, unlimited) is not None
    assert trace(FORMOSA, H("0407"), {H("0910")}, unlimited) is None


# SNC 8.2 b) / 1.3 as data: along the rail net to a west/south edge rail hex, free of Japanese units and ZOC
SNC_LOC = TraceRules(case="SNC 8.2", along="rail", ezoc_blocks=True, blocked_tags=frozenset({"neutral"}))
SNC = make_map(
    cols=(1, 10),
    rows=(1, 10),
    rails=[
        ["0101", "0201", "0302", "0402", "0503", "0603", "0604"],
        ["0604", "0605", "0606", "0607", "0608"],
    ],
    tags={"neutral": ["0605"]},
)
RAIL_EDGE = (SNC.edge_hexes("west") | SNC.edge_hexes("south")) & SNC.rail_hexes()


def test_snc_8_2_loc_runs_only_along_the_rail_net():
    assert RAIL_EDGE == {H("0101")}
    assert trace(SNC, H("0604"), RAIL_EDGE, SNC_LOC) == hs(
        "0604", "0603", "0503", "0402", "0302", "0201", "0101"
    )
    assert trace(SNC, H("0705"), RAIL_EDGE, SNC_LOC) is None  # not on the rail net


def test_snc_8_2_loc_free_of_japanese_units_and_zoc():
    assert trace(SNC, H("0604"), RAIL_EDGE, SNC_LOC, TraceSituation(ezoc=frozenset({H("0302")}))) is None
    assert (
        trace(SNC, H("0604"), RAIL_EDGE, SNC_LOC, TraceSituation(enemy_occupied=frozenset({H("0402")})))
        is None
    )


def test_snc_1_3_no_loc_through_the_international_settlement():
    assert trace(SNC, H("0608"), RAIL_EDGE, SNC_LOC) is None  # the rail passes through neutral 0605
    open_rules = TraceRules(along="rail")
    assert trace(SNC, H("0608"), RAIL_EDGE, open_rules) is not None


def test_dai_senso_4_2_1_2_hq_range_counts_the_target_not_the_origin_and_crosses_enemy_units():
    """Dai Senso 4.2.1.2: ranged support within 2 hexes; the path may cross enemy units and all-sea."""
    m = make_map(cols=(40, 48), rows=(18, 26), parity="odd-low", hexsides={"all-sea": ["4623/4624"]})
    rng = TraceRules(max_length=2, enemy_units_block=False)
    sit = TraceSituation(enemy_occupied=frozenset({H("4624")}))
    assert trace(m, H("4623"), {H("4625")}, rng, sit) is not None
    assert trace(m, H("4623"), {H("4626")}, rng, sit) is None


def test_ichigo_9_1_rail_path_through_friendly_controlled_rail_hexes_only():
    """Ichi-Go 9.1: rail reinforcements trace friendly-controlled railroad back to 1801."""
    m = make_map(cols=(15, 20), rows=(1, 8), rails=[["1801", "1802", "1803", "1804"]])
    friendly = {H("1801"), H("1802"), H("1803"), H("1804")}
    rules = TraceRules(along="rail")
    assert (
        trace(m, H("1804"), {H("1801")}, rules, TraceSituation(blocked=lambda h: h not in friendly))
        is not None
    )
    friendly.discard(H("1802"))
    assert (
        trace(m, H("1804"), {H("1801")}, rules, TraceSituation(blocked=lambda h: h not in friendly)) is None
    )


def test_trace_rejects_unknown_along_option_and_handles_empty_sources():
    with pytest.raises(ValueError, match="along"):
        TraceRules(along="canal")
    assert trace(SNC, H("0604"), [], SNC_LOC) is None


# `linked`: every start `trace` finds a path from, in one search back from the sources
LINK_GRID = Grid("even-low", (1, 7), (1, 7))
LINK_HEXES = list(LINK_GRID.hexes())
LINK_SIDES = sorted({Hexside(h, n) for h in LINK_HEXES for n in LINK_GRID.neighbours(h)})
LINK_RULES = [
    SNC_LOC,
    ICHIGO_SUPPLY,
    TraceRules(along="road-or-rail", enemy_units_block=False, ezoc_blocks=True, friendly_negates_ezoc=True),
    TraceRules(road_only_terrain=frozenset({"mountain"}), blocked_terrain=frozenset({"lake"}),
               enemy_controlled_block=frozenset({"city"})),
]


@st.composite
def link_worlds(draw):
    def walk():
        path = [draw(st.sampled_from(LINK_HEXES))]
        for _ in range(draw(st.integers(0, 12))):
            nxt = draw(st.sampled_from(LINK_GRID.neighbours(path[-1])))
            if nxt not in path:
                path.append(nxt)
        return [str(h) for h in path] if len(path) > 1 else None

    terrain: dict[str, list[str]] = {}
    for h in LINK_HEXES:
        t = draw(st.sampled_from(["clear", "clear", "mountain", "lake"]))
        if t != "clear":
            terrain.setdefault(t, []).append(str(h))
    sides = [str(s) for s in draw(st.lists(st.sampled_from(LINK_SIDES), max_size=10, unique=True))]
    roads, rails = [p for p in (walk(), walk()) if p], [p for p in (walk(), walk()) if p]
    gmap = make_map(cols=(1, 7), rows=(1, 7), terrain=terrain, hexsides={"lake": sides} if sides else {},
                    features={"city": [str(draw(st.sampled_from(LINK_HEXES)))]}, tags={"neutral": [
                        str(draw(st.sampled_from(LINK_HEXES)))]}, roads=roads, rails=rails)
    some = st.lists(st.sampled_from(LINK_HEXES), max_size=6)
    sit = TraceSituation(enemy_occupied=frozenset(draw(some)), ezoc=frozenset(draw(some)),
                         friendly_occupied=frozenset(draw(some)), enemy_controlled=frozenset(draw(some)))
    return gmap, frozenset(draw(st.lists(st.sampled_from(LINK_HEXES), min_size=1, max_size=4))), sit


@settings(max_examples=80, deadline=None)
@given(link_worlds(), st.sampled_from(LINK_RULES))
def test_linked_holds_exactly_the_starts_trace_finds_a_path_from(world, rules):
    gmap, sources, sit = world
    assert linked(gmap, sources, rules, sit) == {h for h in LINK_HEXES if trace(gmap, h, sources, rules, sit)}


def test_linked_refuses_rules_where_a_paths_length_matters():
    for rules in (TraceRules(max_length=3), TraceRules(road_unlimited=True)):
        with pytest.raises(ValueError, match="use trace"):
            linked(SNC, RAIL_EDGE, rules)
