"""Movement: costs, roads, prohibitions, EZOC, minimum move, stacks; worked examples cite their case."""

import pytest

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.movement import (
    CostTable,
    MovementRules,
    Mover,
    Situation,
    reach,
    step_cost,
    validate_path,
)
from app.rules.kernel.pieces import Piece
from tests.kernel.mapkit import H, hs, make_map

# ---------------------------------------------------------------------------------------------------------
# Game data as the games would give it (the kernel knows none of these words or numbers)
# ---------------------------------------------------------------------------------------------------------
SNC_RULES = MovementRules(
    costs={
        "japanese": CostTable(
            terrain={"clear": 1, "woods": 2, "marsh": 2, "paddy": 2, "yangtze": None},
            hexside={"river": 2, "creek": 1, "yangtze": None, "all-sea": None, "all-lake": None},
            features={"city": 1},
            road=0.5,
            rail=0.5,
        ),
        "chinese": CostTable(
            terrain={"clear": 1, "woods": 1, "marsh": 1, "paddy": 1, "yangtze": None},
            hexside={"river": 2, "creek": 1, "yangtze": None, "all-sea": None, "all-lake": None},
        ),
    },
    move_case="SNC 9.0",
    prohibited_case="SNC 9.4",
    enemy_case="SNC 9.0",
    ezoc_stop_case="SNC 7.2",
    ezoc_exit_case="SNC 7.2",
    cases={"neutral": "SNC 1.3"},
    road_needs_road_hexside=True,
    road_negates_hexside=False,
    prohibited_tags=frozenset({"neutral"}),
)

SNC_MAP = make_map(
    terrain={"marsh": ["0303", "0304"], "woods": ["0404", "0504"], "yangtze": ["0508"]},
    hexsides={"river": ["0202/0203", "0505/0506"], "creek": ["0302/0303"], "yangtze": ["0605/0606"]},
    features={"city": ["0707", "0706"]},
    tags={"neutral": ["0707"]},
    roads=[["0201", "0202", "0203", "0204", "0305"]],
)

ICHIGO_RULES = MovementRules(
    costs={
        "ground": CostTable(
            terrain={"clear": 1, "rough": 1, "mountain": 2, "lake": None, "sea": None},
            hexside={"river": 1, "lake": None, "sea": None},
        )
    },
    move_case="Ichi-Go 10.2",
    prohibited_case="Ichi-Go 10.10",
    enemy_case="Ichi-Go 10.0",
    ezoc_stop=False,
    ezoc_exit="free",
    minimum_move=False,
)
ICHIGO_MAP = make_map(
    terrain={"mountain": ["0505", "0606"], "rough": ["0404"], "lake": ["0808"]},
    hexsides={"river": ["0504/0505", "0202/0203"], "lake": ["0909/0910"]},
    rails=[["0201", "0202", "0203", "0204"]],
)

# Formosa's TEC is missing: only open 1 and river +1 are printed (12.1); the other numbers are illustrative.
FORMOSA_RULES = MovementRules(
    costs={
        "foot": CostTable(
            terrain={"open": 1, "rough": 2, "mountain": 3},
            hexside={"river": 1, "all-sea": None},
            road=0.5,
            rail=0.5,
        ),
        "mech": CostTable(
            terrain={"open": 1, "rough": 2, "mountain": 3},
            hexside={"river": 1, "all-sea": None},
            road=0.5,
            rail=0.5,
            road_only_terrain=frozenset({"mountain"}),
        ),
    },
    move_case="Formosa 12.0",
    prohibited_case="Formosa 12.2",
    enemy_case="Formosa 12.2",
    ezoc_stop_case="Formosa 14.1",
    ezoc_exit_case="Formosa 12.2",
    minimum_move_case="Formosa 12.3",
    road_only_case="Formosa 12.2",
    road_negates_hexside=True,
    minimum_move=True,
)
FORMOSA_MAP = make_map(
    default="open",
    terrain={"mountain": ["0505", "0506", "0606"], "rough": ["0303"]},
    hexsides={"river": ["0202/0203", "0404/0405"], "all-sea": ["0808/0809"]},
    roads=[["0201", "0202", "0203", "0204"], ["0504", "0505", "0506"]],
)


def jap(allowance=8):
    return Mover.single(H("0201"), allowance, "japanese")


# ---------------------------------------------------------------------------------------------------------
# Costs
# ---------------------------------------------------------------------------------------------------------
def test_ichigo_10_13_river_into_mountain_costs_three():
    """Ichi-Go 10.13 (catalog IG-7): 2 MP mountain + 1 MP river hexside."""
    m = Mover.single(H("0504"), 6, "ground")
    assert step_cost(ICHIGO_MAP, ICHIGO_RULES, m, H("0504"), H("0505")) == 3
    assert validate_path(ICHIGO_MAP, ICHIGO_RULES, m, hs("0504", "0505")) == 3


def test_ichigo_10_12_railroad_gives_no_rate_and_does_not_negate_rivers():
    m = Mover.single(H("0201"), 6, "ground")
    assert validate_path(ICHIGO_MAP, ICHIGO_RULES, m, hs("0201", "0202", "0203", "0204")) == 1 + 2 + 1


def test_formosa_12_1_unbridged_river_into_open_costs_two():
    """Formosa 12.1 example (catalog CF-1): 1 (open) + 1 (river)."""
    m = Mover.single(H("0404"), 4, "foot")
    assert step_cost(FORMOSA_MAP, FORMOSA_RULES, m, H("0404"), H("0405")) == 2


def test_snc_9_4_japanese_pay_terrain_chinese_pay_one_per_hex():
    jm = Mover.single(H("0403"), 8, "japanese")
    cm = Mover.single(H("0403"), 8, "chinese")
    assert step_cost(SNC_MAP, SNC_RULES, jm, H("0403"), H("0404")) == 2  # woods
    assert step_cost(SNC_MAP, SNC_RULES, cm, H("0403"), H("0404")) == 1
    # creek +1 and river +2 for both (the Chinese split is a game-data choice, SNC 9.4)
    assert step_cost(SNC_MAP, SNC_RULES, jm, H("0302"), H("0303")) == 2 + 1
    assert step_cost(SNC_MAP, SNC_RULES, cm, H("0505"), H("0506")) == 1 + 2


def test_snc_9_5_city_costs_one_mp():
    assert step_cost(SNC_MAP, SNC_RULES, jap(), H("0705"), H("0706")) == 1


# ---------------------------------------------------------------------------------------------------------
# Roads and railroads
# ---------------------------------------------------------------------------------------------------------
def test_snc_9_5_1_road_is_half_mp_and_does_not_negate_river():
    path = hs("0201", "0202", "0203", "0204")
    assert validate_path(SNC_MAP, SNC_RULES, jap(), path) == 0.5 + (0.5 + 2) + 0.5


def test_snc_9_5_1_road_rate_only_across_a_road_hexside():
    m = Mover.single(H("0103"), 8, "japanese")
    assert (
        step_cost(SNC_MAP, SNC_RULES, m, H("0103"), H("0203")) == 1
    )  # 0203 is a road hex, 0103/0203 no road
    loose = MovementRules(**{**SNC_RULES.__dict__, "road_needs_road_hexside": False})
    assert step_cost(SNC_MAP, loose, m, H("0103"), H("0203")) == 1  # 0103 is not a road hex either
    assert step_cost(SNC_MAP, SNC_RULES, jap(), H("0204"), H("0305")) == 0.5  # road into marsh


def test_between_two_roads_side_by_side_only_a_game_that_asks_no_road_hexside_gives_the_road_rate():
    """Two roads in neighbouring hexes, no road across the hexside between them: SNC 9.5.1 asks for the road's
    own hexside (full cost); a game whose data does not ask (docs/kernel-geometry.md) gives the road rate."""
    side_by_side = make_map(roads=[["0201", "0202"], ["0301", "0302"]])
    loose = MovementRules(**{**SNC_RULES.__dict__, "road_needs_road_hexside": False})
    assert step_cost(side_by_side, SNC_RULES, jap(), H("0202"), H("0302")) == 1
    assert step_cost(side_by_side, loose, jap(), H("0202"), H("0302")) == 0.5


def test_formosa_12_4_road_is_half_mp_whatever_the_hexside():
    m = Mover.single(H("0201"), 4, "foot")
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, m, hs("0201", "0202", "0203", "0204")) == 1.5


def test_formosa_12_2_mechanized_enter_mountains_only_along_a_road():
    mech = Mover.single(H("0504"), 6, "mech")
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, mech, hs("0504", "0505", "0506")) == 1
    m2 = Mover.single(H("0605"), 6, "mech")
    with pytest.raises(RuleViolation) as info:
        validate_path(FORMOSA_MAP, FORMOSA_RULES, m2, hs("0605", "0606"))
    assert info.value.case == "Formosa 12.2" and "only along a road" in info.value.message
    assert H("0606") not in reach(FORMOSA_MAP, FORMOSA_RULES, m2)


# ---------------------------------------------------------------------------------------------------------
# Prohibitions and enemy units
# ---------------------------------------------------------------------------------------------------------
def test_snc_9_4_yangtze_hexsides_and_hexes_are_prohibited():
    m = Mover.single(H("0605"), 8, "japanese")
    with pytest.raises(RuleViolation) as info:
        validate_path(SNC_MAP, SNC_RULES, m, hs("0605", "0606"))
    assert str(info.value) == "SNC 9.4: yangtze hexsides are prohibited (0605/0606)"
    with pytest.raises(RuleViolation, match=r"SNC 9\.4: yangtze hexes are prohibited \(0508\)"):
        validate_path(SNC_MAP, SNC_RULES, Mover.single(H("0507"), 8, "chinese"), hs("0507", "0508"))
    r = reach(SNC_MAP, SNC_RULES, m)
    assert H("0508") not in r
    assert H("0606") in r  # reached the long way round


def test_snc_1_3_international_settlement_is_never_entered():
    m = Mover.single(H("0706"), 8, "japanese")
    with pytest.raises(RuleViolation) as info:
        validate_path(SNC_MAP, SNC_RULES, m, hs("0706", "0707"))
    assert info.value.case == "SNC 1.3"
    assert H("0707") not in reach(SNC_MAP, SNC_RULES, m)


def test_ichigo_10_10_lake_hexes_and_hexsides_never_entered():
    m = Mover.single(H("0909"), 6, "ground")
    with pytest.raises(RuleViolation, match="Ichi-Go 10.10"):
        validate_path(ICHIGO_MAP, ICHIGO_RULES, m, hs("0909", "0910"))
    assert H("0808") not in reach(ICHIGO_MAP, ICHIGO_RULES, m)


def test_snc_9_0_enemy_occupied_hexes_are_never_entered():
    sit = Situation(enemy_occupied=frozenset({H("0202")}))
    with pytest.raises(RuleViolation) as info:
        validate_path(SNC_MAP, SNC_RULES, jap(), hs("0201", "0202"), sit)
    assert info.value.case == "SNC 9.0" and "enemy" in info.value.message
    assert H("0202") not in reach(SNC_MAP, SNC_RULES, jap(), sit)


def test_path_must_be_adjacent_steps_from_the_units_hex():
    with pytest.raises(RuleViolation, match="adjacent"):
        validate_path(SNC_MAP, SNC_RULES, jap(), hs("0201", "0203"))
    with pytest.raises(RuleViolation, match="must start in the unit's hex 0201"):
        validate_path(SNC_MAP, SNC_RULES, jap(), hs("0202", "0203"))


# ---------------------------------------------------------------------------------------------------------
# Allowance and minimum move
# ---------------------------------------------------------------------------------------------------------
def test_snc_9_0_static_units_never_move():
    garrison = Mover.stack(H("0201"), [Piece("g", "chinese", move_class="chinese", allowance=0)])
    assert reach(SNC_MAP, SNC_RULES, garrison).hexes() == frozenset()
    with pytest.raises(RuleViolation, match="no movement points"):
        validate_path(SNC_MAP, SNC_RULES, garrison, hs("0201", "0101"))


def test_ichigo_10_2_no_minimum_move():
    """Ichi-Go 10.2: a unit without the MP to pay for a hex may not enter it."""
    m = Mover.single(H("0504"), 2, "ground")
    assert H("0505") not in reach(ICHIGO_MAP, ICHIGO_RULES, m)  # 3 MP needed
    with pytest.raises(RuleViolation) as info:
        validate_path(ICHIGO_MAP, ICHIGO_RULES, m, hs("0504", "0505"))
    assert str(info.value) == "Ichi-Go 10.2: entering 0505 costs 3 MP but only 2 MP remain"
    zero = Mover.single(H("0504"), 0, "ground")  # a Chinese roll of 1 gives 0 MP (10.15)
    assert reach(ICHIGO_MAP, ICHIGO_RULES, zero).hexes() == frozenset()


def test_snc_9_0_a_move_that_runs_out_midway_names_the_mp_left_after_the_hexes_paid_for():
    with pytest.raises(RuleViolation) as info:
        validate_path(SNC_MAP, SNC_RULES, jap(3), hs("0201", "0301", "0302", "0303"))  # 1 + 1, then marsh + creek
    assert str(info.value) == "SNC 9.0: entering 0303 costs 3 MP but only 1 MP remain"


def test_formosa_12_3_minimum_move_of_one_hex_whatever_the_cost():
    m = Mover.single(H("0504"), 1, "foot")
    r = reach(FORMOSA_MAP, FORMOSA_RULES, m)
    assert r.cost[H("0506")] == 1  # along the road, 0.5 + 0.5: the normal rules
    assert r.cost[H("0604")] == 1  # open
    off_road = Mover.single(H("0405"), 1, "foot")
    r2 = reach(FORMOSA_MAP, FORMOSA_RULES, off_road)
    assert H("0505") in r2  # mountain (3 MP) with 1 MP
    assert r2.cost[H("0505")] == 1  # all MP spent: movement over
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, off_road, hs("0405", "0505")) == 1
    with pytest.raises(RuleViolation) as info:
        validate_path(FORMOSA_MAP, FORMOSA_RULES, off_road, hs("0405", "0505", "0506"))
    assert info.value.case == "Formosa 12.3"


def test_formosa_12_3_minimum_move_never_into_prohibited_terrain_or_ezoc_to_ezoc():
    m = Mover.single(H("0808"), 1, "foot")
    assert H("0809") not in reach(FORMOSA_MAP, FORMOSA_RULES, m)  # all-sea hexside
    sit = Situation(ezoc=frozenset({H("0808"), H("0708")}))
    r = reach(FORMOSA_MAP, FORMOSA_RULES, m, sit)
    assert H("0708") not in r and H("0908") in r
    with pytest.raises(RuleViolation) as info:
        validate_path(FORMOSA_MAP, FORMOSA_RULES, m, hs("0808", "0708"), sit)
    assert info.value.case == "Formosa 12.2"


def test_snc_9_0_no_minimum_move_half_mp_left_cannot_enter_clear():
    assert validate_path(SNC_MAP, SNC_RULES, jap(8), hs("0201", "0202")) == 0.5
    with pytest.raises(RuleViolation, match="SNC 9.0"):
        validate_path(SNC_MAP, SNC_RULES, jap(1.5), hs("0201", "0202", "0203"))


# ---------------------------------------------------------------------------------------------------------
# Enemy zones of control
# ---------------------------------------------------------------------------------------------------------
EZOC = Situation(ezoc=frozenset(hs("0303", "0401", "0402")), friendly_occupied=frozenset(hs("0401")))


def test_snc_7_2_entering_an_ezoc_stops_movement():
    m = Mover.single(H("0302"), 8, "chinese")
    r = reach(SNC_MAP, SNC_RULES, m, EZOC)
    assert {H("0401"), H("0402")} <= r.stops
    assert r.cost[H("0402")] == 1
    with pytest.raises(RuleViolation) as info:
        validate_path(SNC_MAP, SNC_RULES, m, hs("0302", "0402", "0502"), EZOC)
    assert str(info.value) == "SNC 7.2: movement must stop on entering an enemy zone of control at 0402"


def test_snc_7_2_a_friendly_unit_does_not_negate_the_ezoc():
    m = Mover.single(H("0302"), 8, "chinese")
    with pytest.raises(RuleViolation, match="SNC 7.2"):
        validate_path(SNC_MAP, SNC_RULES, m, hs("0302", "0401", "0501"), EZOC)


def test_dai_senso_4_2_8_friendly_unit_negates_ezoc_when_the_game_says_so():
    """Dai Senso 4.2.8: exploitation stops in an EZOC unless a friendly unit is there."""
    rules = MovementRules(
        **{**SNC_RULES.__dict__, "friendly_negates_ezoc": True, "ezoc_stop_case": "DS 4.2.8"}
    )
    m = Mover.single(H("0302"), 8, "chinese")
    assert validate_path(SNC_MAP, rules, m, hs("0302", "0401", "0501"), EZOC) == 2
    with pytest.raises(RuleViolation, match="DS 4.2.8"):
        validate_path(SNC_MAP, rules, m, hs("0302", "0402", "0502"), EZOC)


def test_snc_7_2_leaving_an_ezoc_only_into_a_hex_free_of_ezoc():
    m = Mover.single(H("0303"), 8, "chinese")
    r = reach(SNC_MAP, SNC_RULES, m, EZOC)
    assert len(r.path_to(H("0402"))) == 3  # not directly: only after first stepping out to 0302
    assert r.path_to(H("0403")) == hs("0303", "0403")  # EZOC-free hexes are fine
    assert H("0503") in r  # after the exit the unit moves normally
    with pytest.raises(RuleViolation) as info:
        validate_path(SNC_MAP, SNC_RULES, m, hs("0303", "0402"), EZOC)
    assert info.value.case == "SNC 7.2" and "first hex entered" in info.value.message


def test_ezoc_exit_options_free_and_never():
    free = MovementRules(**{**SNC_RULES.__dict__, "ezoc_exit": "free"})
    never = MovementRules(**{**SNC_RULES.__dict__, "ezoc_exit": "never"})
    m = Mover.single(H("0303"), 8, "chinese")
    assert reach(SNC_MAP, free, m, EZOC).path_to(H("0402")) == hs("0303", "0402")
    assert reach(SNC_MAP, never, m, EZOC).hexes() == frozenset()
    with pytest.raises(ValueError, match="ezoc_exit"):
        MovementRules(**{**SNC_RULES.__dict__, "ezoc_exit": "sometimes"})


# ---------------------------------------------------------------------------------------------------------
# Stacks, per-move restrictions and surcharges
# ---------------------------------------------------------------------------------------------------------
def test_stack_moves_at_lowest_allowance_and_highest_cost():
    stack = [
        Piece("a", "japanese", move_class="japanese", allowance=8),
        Piece("b", "chinese", move_class="chinese", allowance=3),
    ]
    m = Mover.stack(H("0403"), stack)
    assert m.allowance == 3
    assert step_cost(SNC_MAP, SNC_RULES, m, H("0403"), H("0404")) == 2  # woods: the costlier class pays
    assert validate_path(SNC_MAP, SNC_RULES, m, hs("0403", "0404")) == 2
    with pytest.raises(RuleViolation):
        validate_path(SNC_MAP, SNC_RULES, m, hs("0403", "0404", "0504"))
    with pytest.raises(ValueError):
        Mover.stack(H("0403"), [])


def test_stack_cannot_go_where_any_member_is_prohibited():
    stack = [Piece("f", "a", move_class="foot", allowance=6), Piece("m", "a", move_class="mech", allowance=6)]
    m = Mover.stack(H("0605"), stack)
    assert H("0606") not in reach(FORMOSA_MAP, FORMOSA_RULES, m)
    assert H("0606") in reach(FORMOSA_MAP, FORMOSA_RULES, Mover.single(H("0605"), 6, "foot"))


def test_ichigo_10_17_strategic_move_never_adjacent_to_enemy_units():
    enemy = H("0707")
    near = {h: "Ichi-Go 10.17" for h in ICHIGO_MAP.neighbours(enemy)}
    sit = Situation(enemy_occupied=frozenset({enemy}), forbidden=near)
    m = Mover.single(H("0202"), 12, "ground")
    r = reach(ICHIGO_MAP, ICHIGO_RULES, m, sit)
    assert not (r.hexes() & set(near))
    with pytest.raises(RuleViolation, match="Ichi-Go 10.17"):
        validate_path(
            ICHIGO_MAP, ICHIGO_RULES, Mover.single(H("0705"), 12, "ground"), hs("0705", "0706"), sit
        )


def test_formosa_16_4_interdiction_adds_mp_even_along_roads():
    m = Mover.single(H("0201"), 4, "foot")
    sit = Situation(surcharge={H("0202"): 2})
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, m, hs("0201", "0202"), sit) == 2.5


def test_ichigo_8_4_airpower_range_adds_one_per_hex_and_per_river_crossed():
    in_range = set(hs("0202", "0203"))

    def air(a, b):
        if b not in in_range:
            return 0
        return 1 + ("river" in ICHIGO_MAP.hexside_features(a, b))

    m = Mover.single(H("0201"), 6, "ground")
    sit = Situation(extra_cost=air)
    assert validate_path(ICHIGO_MAP, ICHIGO_RULES, m, hs("0201", "0202", "0203"), sit) == (1 + 1) + (2 + 2)


def test_reach_gives_cheapest_costs_and_paths_that_validate():
    r = reach(SNC_MAP, SNC_RULES, jap(8))
    assert r.path_to(H("0202")) == hs("0201", "0202") and r.cost[H("0202")] == 0.5
    # SNC 9.5.1: the road does not negate the river, so stepping off the road round the ford is cheaper
    assert r.path_to(H("0305")) == hs("0201", "0202", "0103", "0203", "0204", "0305")
    assert r.cost[H("0305")] == 3.5
    assert validate_path(SNC_MAP, SNC_RULES, jap(8), hs("0201", "0202", "0203", "0204", "0305")) == 4
    assert H("0201") not in r.hexes()
    with pytest.raises(KeyError):
        reach(SNC_MAP, SNC_RULES, jap(1)).path_to(H("0305"))


def test_reach_on_a_40_by_30_map_finds_every_hex_at_its_cheapest_cost():
    # speed is measured by bench/movement.py, not here
    big = make_map(
        cols=(1, 40),
        rows=(1, 30),
        terrain={"woods": ["0501..1020"], "marsh": ["2001..2530"]},
        hexsides={"river": [f"30{r:02d}/31{r:02d}" for r in range(1, 31)]},
        roads=[[f"{c:02d}15" for c in range(1, 41)]],
    )
    r = reach(big, SNC_RULES, Mover.single(H("0115"), 40, "japanese"))
    assert len(r.hexes()) == 40 * 30 - 1
    # along the road: half an MP a hex (SNC 9.5.1)
    assert r.cost[H("3015")] == 29 * 0.5
    assert r.path_to(H("3015")) == [H(f"{c:02d}15") for c in range(1, 31)]
    # the road does not negate the river on 3015/3115 (0.5 + 2 = 2.5 more): leaving the road at 2915 for clear
    # 3014 and crossing the plain hexside 3014/3115 costs 1 + 1 and is cheaper
    assert r.cost[H("3115")] == 28 * 0.5 + 1 + 1
    assert r.path_to(H("3115"))[-3:] == [H("2915"), H("3014"), H("3115")]
    # off the road into the woods costs 2 (SNC 9.4): from 0415 on the road (3 road hexes, 1.5) into woods 0516
    assert r.cost[H("0516")] == 3 * 0.5 + 2


# ---------------------------------------------------------------------------------------------------------
# Per-mover flags: infiltration (Formosa 22.0 rangers, 25.9 Takasago) and route-only (Formosa 22.0 motorized)
# ---------------------------------------------------------------------------------------------------------
WALL = Situation(ezoc=frozenset(hs("0302", "0303", "0304")))


def test_formosa_22_0_a_ranger_ignores_the_first_ezoc_it_enters_and_moves_on():
    ranger = Mover.single(H("0202"), 6, "foot", ignore_first_ezoc=True)
    r = reach(FORMOSA_MAP, FORMOSA_RULES, ranger, WALL)
    assert H("0302") not in r.stops and H("0502") in r
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, ranger, hs("0202", "0302", "0402", "0502"), WALL) == 3
    foot = Mover.single(H("0202"), 6, "foot")
    assert H("0302") in reach(FORMOSA_MAP, FORMOSA_RULES, foot, WALL).stops
    with pytest.raises(RuleViolation, match="Formosa 14.1"):
        validate_path(FORMOSA_MAP, FORMOSA_RULES, foot, hs("0202", "0302", "0402"), WALL)


def test_formosa_22_0_a_ranger_treats_the_second_ezoc_normally():
    ranger = Mover.single(H("0202"), 6, "foot", ignore_first_ezoc=True)
    # F60: out of the ignored EZOC straight into another is allowed, and there it stops
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, ranger, hs("0202", "0302", "0303"), WALL) == 3  # 0303 is rough
    with pytest.raises(RuleViolation, match="Formosa 14.1: movement must stop .* at 0303"):
        validate_path(FORMOSA_MAP, FORMOSA_RULES, ranger, hs("0202", "0302", "0303", "0403"), WALL)
    double = Situation(ezoc=frozenset(hs(*(f"0{c}0{r}" for c in (3, 4) for r in range(1, 7)))))
    r = reach(FORMOSA_MAP, FORMOSA_RULES, Mover.single(H("0202"), 3, "foot", ignore_first_ezoc=True), double)
    assert H("0402") in r.stops and H("0502") not in r  # through one EZOC, never two
    r = reach(FORMOSA_MAP, FORMOSA_RULES, ranger, WALL)
    for h in r.hexes():  # every offered path validates at its cost, the whole route kept
        assert validate_path(FORMOSA_MAP, FORMOSA_RULES, ranger, r.path_to(h), WALL) == r.cost[h]


def test_formosa_22_0_a_ranger_leaving_an_ezoc_may_enter_another_once():
    start = H("0303")
    ranger = Mover.single(start, 6, "foot", ignore_first_ezoc=True)
    assert validate_path(FORMOSA_MAP, FORMOSA_RULES, ranger, [start, H("0304"), H("0305")], WALL) == 2
    foot = Mover.single(start, 6, "foot")
    with pytest.raises(RuleViolation, match="Formosa 12.2"):
        validate_path(FORMOSA_MAP, FORMOSA_RULES, foot, [start, H("0304")], WALL)


def test_formosa_22_0_motorized_movement_never_leaves_the_road():
    rules = MovementRules(**{**FORMOSA_RULES.__dict__, "route_only_case": "Formosa 22.0"})
    motor = Mover.single(H("0201"), 4, "mech", route_only=True)
    r = reach(FORMOSA_MAP, rules, motor)
    assert r.hexes() == frozenset(hs("0202", "0203", "0204"))
    assert validate_path(FORMOSA_MAP, rules, motor, hs("0201", "0202", "0203", "0204")) == 1.5
    with pytest.raises(RuleViolation) as info:
        validate_path(FORMOSA_MAP, rules, motor, hs("0201", "0202", "0302"))
    assert info.value.case == "Formosa 22.0" and "road or railroad" in info.value.message
    # a mover without the flag leaves the road freely
    assert H("0302") in reach(FORMOSA_MAP, rules, Mover.single(H("0201"), 4, "mech"))
