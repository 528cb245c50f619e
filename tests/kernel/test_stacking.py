"""Stacking limits as data (SNC 6.2, Ichi-Go 6.2-6.5, Formosa 13.0-13.2)."""

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import Incompatible, StackingRules, StackLimit, overstacked, overstacked_map

SNC = StackingRules(
    limits=(
        StackLimit(
            case="SNC 6.2", side="japanese", max_total=5, max_outside_main_formation=1, label="Japanese"
        ),
        StackLimit(
            case="SNC 6.2",
            side="chinese",
            max_total=3,
            weights={
                "regular-brigade": 0.5,
                "elite-brigade": 1.0,
                "regular-division": 1.0,
                "elite-division": 1.5,
            },
            label="Chinese division equivalents",
        ),
    ),
    free=frozenset({"marker", "fire-support"}),
)


def jap(i, kind="regiment", formation=""):
    return Piece(i, "japanese", kind=kind, formation=formation)


def chi(i, kind):
    return Piece(i, "chinese", kind=kind)


def test_snc_6_2_example_elite_division_regular_division_and_regular_brigade_fit():
    """SNC 6.2 example (catalog SN-4): 1.5 + 1.0 + 0.5 = 3.0 DE is legal."""
    stack = [chi("a", "elite-division"), chi("b", "regular-division"), chi("c", "regular-brigade")]
    assert overstacked(stack, SNC) == []


def test_snc_6_2_a_fourth_unit_of_half_a_de_overstacks_the_chinese():
    stack = [chi("a", "elite-division"), chi("b", "regular-division"), chi("c", "regular-brigade")]
    (v,) = overstacked([*stack, chi("d", "regular-brigade")], SNC, Hex(24, 10))
    assert v.case == "SNC 6.2"
    assert str(v) == "SNC 6.2: Chinese division equivalents: 3.5 stacked in 2410, limit 3"
    assert v.excess == 0.5


def test_snc_6_2_japanese_four_regiments_of_a_division_plus_one_garrison():
    """SNC 6.2 (catalog SN-5): a division's four regiments and one garrison or regiment."""
    division = [jap(f"r{i}", formation="3rd") for i in range(4)]
    assert overstacked([*division, jap("g", kind="garrison")], SNC) == []
    assert overstacked([*division, jap("x", formation="11th")], SNC) == []
    too_many = overstacked([*division, jap("g", kind="garrison"), jap("x", formation="11th")], SNC)
    assert [v.case for v in too_many] == ["SNC 6.2", "SNC 6.2"]  # six units, and two outside the 3rd Division
    assert "6 stacked" in too_many[0].message


def test_snc_6_2_two_half_divisions_do_not_make_a_legal_japanese_stack():
    stack = [jap("a1", formation="3rd"), jap("a2", formation="3rd"), jap("a3", formation="3rd")]
    stack += [jap("b1", formation="11th"), jap("b2", formation="11th")]
    (v,) = overstacked(stack, SNC)
    assert "2 units outside formation 3rd, limit 1" in v.message


def test_snc_6_2_units_of_no_formation_are_named_so_not_as_outside_a_formation_of_none():
    (v,) = overstacked([jap("d1", kind="detachment"), jap("d2", kind="detachment")], SNC)
    assert "2 units of no formation, limit 1" in v.message and "formation -" not in v.message


def test_snc_6_2_four_snlf_battalions_count_as_a_division():
    snlf = [jap(f"snlf{i}", kind="battalion", formation="snlf") for i in range(1, 5)]
    assert overstacked([*snlf, jap("g", kind="garrison")], SNC) == []


def test_snc_6_1_fire_support_markers_have_no_stacking_value():
    division = [jap(f"r{i}", formation="3rd") for i in range(4)] + [jap("g", kind="garrison")]
    markers = [Piece(f"m{i}", "japanese", kind="fire-support", category="marker") for i in range(3)]
    assert overstacked(division + markers, SNC) == []


ICHIGO = StackingRules(
    limits=(
        StackLimit(case="Ichi-Go 6.2", side="japanese", max_total=5),
        StackLimit(
            case="Ichi-Go 6.3", nationalities=frozenset({"chinese"}), max_total=4, weights={"static": 0}
        ),
        StackLimit(case="Ichi-Go 6.4", nationalities=frozenset({"us"}), max_total=8),
    ),
    incompatible=(Incompatible(case="Ichi-Go 6.3", a=frozenset({"us"}), b=frozenset({"chinese"})),),
)


def allied(i, nat, **kw):
    return Piece(i, "allied", nationality=nat, **kw)


def test_ichigo_6_2_japanese_five_units_whatever_their_strength():
    stack = [Piece(f"j{i}", "japanese", kind="division") for i in range(5)]
    assert overstacked(stack, ICHIGO) == []
    (v,) = overstacked([*stack, Piece("b", "japanese", kind="brigade")], ICHIGO)
    assert v.case == "Ichi-Go 6.2"


def test_ichigo_6_3_chinese_four_non_static_units_militia_free():
    regulars = [allied(f"c{i}", "chinese") for i in range(4)]
    militia = allied("ym", "chinese", kind="militia", tags=frozenset({"static"}))
    assert overstacked([*regulars, militia], ICHIGO) == []
    (v,) = overstacked([*regulars, allied("c5", "chinese")], ICHIGO)
    assert v.case == "Ichi-Go 6.3"


def test_ichigo_6_4_us_eight_units_and_never_with_chinese():
    us = [allied(f"u{i}", "us") for i in range(8)]
    assert overstacked(us, ICHIGO) == []
    assert [v.case for v in overstacked([*us, allied("u9", "us")], ICHIGO)] == ["Ichi-Go 6.4"]
    (v,) = overstacked([us[0], allied("c", "chinese")], ICHIGO)
    assert v.case == "Ichi-Go 6.3" and "may not stack together" in v.message



def test_an_incompatibility_of_several_nationalities_names_each_in_its_refusal():
    """A rule set may bar several nationalities from stacking with others (the kernel's Incompatible takes sets):
    the refusal names every one of them."""
    rules = StackingRules(incompatible=(Incompatible("X 1.0", frozenset({"us", "cw"}), frozenset({"chinese"})),))
    (v,) = overstacked([allied("u", "us"), allied("w", "cw"), allied("c", "chinese")], rules)
    assert v.case == "X 1.0" and v.message.startswith("cw/us and chinese units may not stack together")

FORMOSA = StackingRules(
    limits=(
        StackLimit(case="Formosa 13.1", side="allied", per_class={"mobile": 4, "static": 1}),
        StackLimit(
            case="Formosa 13.1",
            side="allied",
            category="air",
            weights={"tac-2": 2},
            per_class={"tac": 2, "air-supply": 1},
            alone=frozenset({"b29"}),
        ),
        StackLimit(case="Formosa 13.1", side="allied", category="naval", max_total=2),
        StackLimit(case="Formosa 13.2", side="japanese", per_class={"mobile": 3, "static": 1}),
        StackLimit(case="Formosa 13.2", side="japanese", category="air", max_total=1),
    ),
    incompatible=(
        Incompatible(
            case="Formosa 13.1",
            a=frozenset({"us"}),
            b=frozenset({"cw"}),
            categories=frozenset({"ground", "air"}),
        ),
    ),  # fmt: skip
)


def us(i, **kw):
    return Piece(i, "allied", nationality="us", **kw)


MOBILE = frozenset({"mobile"})
STATIC = frozenset({"static"})


def test_formosa_13_1_separate_ground_air_and_naval_limits_do_not_affect_each_other():
    stack = [us(f"m{i}", tags=MOBILE) for i in range(4)] + [us("s", tags=STATIC)]
    stack += [
        us("t", category="air", kind="tac-2", tags=frozenset({"tac"})),
        us("as", category="air", kind="air-supply"),
    ]
    stack += [us(f"ngf{i}", category="naval", kind="ngf") for i in range(2)]
    assert overstacked(stack, FORMOSA) == []


def test_formosa_13_1_fifth_mobile_unit_third_tac_point_third_gunfire_unit():
    stack = [us(f"m{i}", tags=MOBILE) for i in range(5)]
    stack += [us("t2", category="air", kind="tac-2", tags=frozenset({"tac"}))]
    stack += [us("t1", category="air", kind="tac-1", tags=frozenset({"tac"}))]
    stack += [us(f"ngf{i}", category="naval") for i in range(3)]
    found = {v.message.split(":")[1].strip() for v in overstacked(stack, FORMOSA)}
    assert found == {"5 mobile, limit 4", "3 tac, limit 2", "3 stacked, limit 2"}


def test_formosa_13_1_b29_stacks_with_no_other_air_unit():
    b29 = us("b29", category="air", kind="b29")
    assert overstacked([b29, us("g", tags=MOBILE)], FORMOSA) == []
    (v,) = overstacked([b29, us("as", category="air", kind="air-supply")], FORMOSA)
    assert "b29 must stand alone" in v.message and v.case == "Formosa 13.1"


def test_formosa_13_1_us_and_commonwealth_never_stack():
    cw = Piece("cw", "allied", nationality="cw", tags=MOBILE)
    (v,) = overstacked([us("u", tags=MOBILE), cw], FORMOSA)
    assert v.case == "Formosa 13.1"


def test_formosa_13_2_japanese_three_mobile_one_static_one_tac_point():
    j = [Piece(f"j{i}", "japanese", tags=MOBILE) for i in range(3)] + [Piece("s", "japanese", tags=STATIC)]
    assert overstacked(j + [Piece("a", "japanese", category="air")], FORMOSA) == []
    bad = j + [Piece("j4", "japanese", tags=MOBILE), Piece("s2", "japanese", tags=STATIC)]
    assert len(overstacked(bad, FORMOSA)) == 2


def test_terrain_dependent_limit_and_map_wide_check():
    rules = StackingRules(limits=(StackLimit(case="X 1.1", max_total=3, terrain_max={"mountain": 1}),))
    two = [Piece("a", "s"), Piece("b", "s")]
    positions = {Hex(1, 1): two, Hex(2, 2): two}
    found = overstacked_map(positions, rules, terrain_of=lambda h: "mountain" if h == Hex(2, 2) else "clear")
    assert [(v.hex, v.excess) for v in found] == [(Hex(2, 2), 1)]


def test_formosa_13_1_air_points_not_counters_a_two_point_counter_fills_the_hex():
    """Formosa 13.1 and 2.5 Important: the limit counts the points printed on each counter (`valued`)."""
    rules = StackingRules(limits=(StackLimit(case="Formosa 13.1", category="air", per_class={"tac": 2},
                                             valued=frozenset({"tac"})),))
    two = us("t2", category="air", kind="tac", points=2)
    one = us("t1", category="air", kind="tac", points=1)
    assert overstacked([two], rules) == []
    assert overstacked([one, us("t1b", category="air", kind="tac", points=1)], rules) == []
    (v,) = overstacked([two, one], rules)
    assert "3 tac" in v.message and v.excess == 1


# -- answers kept (CI time) ----------------------------------------------------------------------------------
KEPT = StackingRules(
    limits=(
        StackLimit(case="K1", side="red", max_total=2, weights={"tank": 2.0}, per_class={"static": 0},
                   terrain_max={"mountain": 1}, label="red ground"),
        StackLimit(case="K2", side="red", category="air", max_total=2, valued=frozenset({"air"}), label="red air"),
        StackLimit(case="K3", side="red", max_outside_main_formation=0, label="red formations"),
        StackLimit(case="K5", side="blue", max_total=0, label="blue"),
    ),
    incompatible=(Incompatible("K4", frozenset({"red"}), frozenset({"ally"}), frozenset({"ground"})),),
)


H = Hex.parse


def red(i, **kw):
    return Piece(i, "red", **{"formation": "f1", **kw})


def test_each_stack_gets_its_own_answer_whatever_was_asked_before():
    """Answers are kept by everything a limit reads: stacks differing in one piece's side, kind, category,
    nationality, formation, tags or printed points, or in their hex, terrain or rules, each get the answer a
    fresh check gives, asked in any order; a list given back and changed changes nothing kept."""
    from app.rules.kernel.stacking import _overstacked

    base = [red("a"), red("b"), red("air", category="air")]
    other = StackingRules(limits=(StackLimit(case="K1", side="red", max_total=0),))
    asks = [(base + [red("c")], KEPT, H("0101"), None)]
    for change in ({"side": "blue", "nationality": "red"}, {"kind": "tank"}, {"category": "marker"},
                   {"nationality": "ally"}, {"formation": "f2"}, {"tags": {"static"}}):
        asks.append((base + [Piece("c", **{"side": "red", "formation": "f1", **change})], KEPT, H("0101"), None))
    asks.append((base[:2] + [red("air", category="air", points=3)], KEPT, H("0101"), None))
    asks += [(asks[0][0], KEPT, H("0102"), None), (asks[0][0], KEPT, H("0101"), "mountain"),
             (asks[0][0], other, H("0101"), None), (asks[0][0], KEPT, None, None)]
    answers = []
    for pieces, rules, at, terrain in asks + asks[::-1] + asks:
        got = overstacked(pieces, rules, at, terrain)
        assert got == _overstacked(pieces, rules, at, terrain), (pieces, at, terrain)
        answers.append(tuple(got))
        got.clear()
    assert len(set(answers[:len(asks)])) == len(asks)  # every ask its own answer
    assert overstacked(asks[0][0], KEPT, H("0101")) == _overstacked(asks[0][0], KEPT, H("0101"), None) != []
