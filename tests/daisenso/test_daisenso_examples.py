"""Dai Senso chapter 4's worked examples, computed from the game's data (maps, CRT, TEC, unit kinds, the
scenario positions) and the rules kernel alone. Test names carry the case and the catalog id (DS-n, seed
catalog 3.5). The examples that need the engine's own rules (DS-15's Holding Box choice, DS-18's minor-country
mix) are listed in docs/daisenso-engine-plan.md.

The retreat predicates below stand in for the engine's: 4.2.5.2's restrictions from the TEC
(`GameData.retreat_crosses`) and enemy units, 4.2.5.1's priorities with the kernel's `farther_from` and ZOC.
"""

from __future__ import annotations

import copy
import tomllib

import pytest

from app.rules.daisenso import data
from app.rules.daisenso.data_load import load
from app.rules.daisenso.position import kernel_positions, position_from_dict
from app.rules.kernel.advance import check_exploitation, exploitation_distance
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.results import apply_step_losses
from app.rules.kernel.retreat import RetreatState, farther_from, retreat, retreat_options
from app.rules.kernel.shifts import Shift, hexside_shift, net_shifts
from app.rules.kernel.zoc import enemy_zoc

D = load()
A = D.atlas
H = Hex.parse


def scenario(name: str, change=None):
    with open(data.SCENARIOS / f"{name}.toml", "rb") as f:
        raw = tomllib.load(f)
    if change:
        raw = copy.deepcopy(raw)
        change(raw)
    return position_from_dict(raw, D)


def retreat_rules(position, faction: str, origin: Hex):
    """(allowed, priorities) for ``faction``'s force retreating from a combat at ``origin`` (4.2.5.1-4.2.5.2)."""
    pieces = kernel_positions(position, D)
    ezoc = enemy_zoc(A, pieces, faction, D.zoc)
    enemy = {h for h, ps in pieces.items() if any(p.side != faction for p in ps)}
    friends = {h for h, ps in pieces.items() if any(p.side == faction for p in ps)}
    far = farther_from(A, origin)

    def allowed(current, candidate, state):
        return candidate not in enemy and D.retreat_crosses(current, candidate)

    return allowed, [lambda h, s: far(h, s) and h not in ezoc, lambda h, s: far(h, s) and h in friends]


def shift(amount: int, case: str, reason: str) -> Shift:
    return Shift(amount, f"Dai Senso {case}", reason)


# -- 4.2.2 odds and the design note ---------------------------------------------------------------------------
def test_ds1_ds2_4_2_2_defender_4_attacker_11_is_2_1_and_one_more_factor_makes_3_1():
    assert preview_attack(D.crt, 11, 4).column_label == "2-1"
    assert preview_attack(D.crt, 12, 4).column_label == "3-1"


def test_ds3_4_2_2_design_note_3_1_with_three_right_shifts_is_resolved_on_9_1():
    shifts = [shift(D.shift("air"), "4.2.3.1", "air"), shift(D.shift("hq"), "4.2.3.5", "HQ"),
              shift(D.shift("marines"), "4.2.3.6", "marines")]
    assert preview_attack(D.crt, 9, 3, shifts).column_label == "9-1"
    assert preview_attack(D.crt, 40, 2, [shift(-D.shift("fortress"), "4.2.3.4", "fortress")]).column_label == "6-1"


def test_ds19_4_2_1_1_no_attack_below_a_raw_1_3_whatever_the_shifts():
    refused = preview_attack(D.crt, 3, 10, [shift(3, "4.2.3.1", "air")])
    assert not refused.allowed and refused.results is None and "Dai Senso 4.2.1.1" in refused.odds.refusal
    assert preview_attack(D.crt, 4, 12).allowed


# -- 4.2.3 shifts on the map ------------------------------------------------------------------------------------
def test_ds4_4_2_3_6_a_marine_attacking_across_the_amoy_taihoku_all_sea_hexside_nets_one_left():
    terrain = -D.hexside_shift(H("w4323"), H("w4324"))
    assert net_shifts([shift(D.shift("marines"), "4.2.3.6", "marines"),
                       shift(terrain, "4.2.3.8", "all-sea hexside")]).net == -1


def test_ds5_4_2_3_8_a_clear_hex_attacked_across_a_river_and_a_mountain_hexside_gets_one_left():
    defender = H("w4722")
    across = [-D.hexside_shift(H(a), defender) for a in ("w4622", "w4822")]
    assert sorted(across) == [-2, -1]  # river 1L, mountain 2L
    assert D.hex_shift(defender)[0] - hexside_shift(across, plain_counts=False) == 1


def test_ds6_4_2_3_8_the_same_in_a_city_chungking_gets_two_left():
    defender = H("w4620")
    across = [-D.hexside_shift(H(a), defender) for a in ("w4720", "w4519")]  # river, mountain
    assert D.hex_shift(defender) == (1, "city")
    assert D.hex_shift(defender)[0] - hexside_shift(across, plain_counts=False) == 2


def test_ds7_4_2_4_1_mud_storms_or_snow_turn_dr3_dr2_dr1_into_dr2_dr1_ex():
    codes = {(c, die): D.crt.lookup(c, die).code for c in range(len(D.crt.columns())) for die in D.crt.dice}
    for (c, die), code in codes.items():
        weathered = D.crt.lookup(c, die, conversion="weather").code.split()
        expected = [{"Dr3": "Dr2", "Dr2": "Dr1", "Dr1": "Ex"}.get(t, t) for t in code.split()]
        assert weathered == expected


# -- 4.2.5 retreats on the map ------------------------------------------------------------------------------
def test_ds8_4_2_5_1_the_15th_army_ad_at_chungking_cannot_fall_back_to_the_no_hexes():
    z = scenario("zhejiang")
    chungking, attacker = H("w4620"), H("w4520")
    pieces = kernel_positions(z, D)
    ezoc = enemy_zoc(A, pieces, "axis", D.zoc)
    assert not ({H("w4519"), H("w4621")} & ezoc)  # no EZOC there: the mountain hexsides
    allowed, priorities = retreat_rules(z, "axis", chungking)
    level, options = retreat_options(A, RetreatState(attacker), allowed, priorities)
    assert (level, sorted(map(str, options))) == (0, ["w4420", "w4421", "w4521"])


def test_ds9_4_2_5_1_akyab_dr3_the_third_hex_must_be_farther_than_dacca():
    akyab = H("w4114")

    def change(raw):
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "jp-15-army"]
        raw["unit"].append({"id": "br-akyab", "kind": "br-army", "hex": "w4114"})

    allowed, priorities = retreat_rules(scenario("zhejiang", change), "western", akyab)
    state = RetreatState(akyab, (H("w4214"), H("w4313")))
    _, options = retreat_options(A, state, allowed, priorities)
    assert sorted(map(str, options)) == ["w4312", "w4413", "w4414"]  # not Calcutta w4213 nor w4314
    assert A.distance(akyab, H("w4213")) == A.distance(akyab, H("w4313")) == 2


def test_ds10_4_2_5_2_from_taihoku_a_retreat_may_cross_the_strait_to_foochow_not_the_sea_to_amoy():
    taihoku = H("w4324")
    assert D.retreat_crosses(taihoku, H("w4424")) and not D.retreat_crosses(taihoku, H("w4323"))
    def axis_only(raw):
        raw["unit"] = [u for u in raw["unit"] if u["kind"].startswith("jp-")]
        raw["factions"], raw["phasing"], raw["victory"]["faction"] = ["axis", "western"], "axis", "axis"

    allowed, priorities = retreat_rules(scenario("strait", axis_only), "axis", taihoku)
    _, options = retreat_options(A, RetreatState(taihoku), allowed, priorities)
    assert sorted(map(str, options)) == ["w4224", "w4424"]  # Takao by land, Foochow across the Strait


def test_ds11_4_2_5_3_a_dr3_that_enters_an_hq_hex_converts_its_last_hex_to_a_step_loss():
    def change(raw):
        for u in raw["unit"]:
            if u["id"] == "cn-3-hq":
                u["hex"] = "w4722"

    z = scenario("zhejiang", change)
    hq_hexes = {u.hex for u in z.units if D.kinds[u.kind].type == "hq"}
    allowed, priorities = retreat_rules(z, "western", H("w4624"))
    path = iter([H("w4723"), H("w4722")])
    out = retreat(A, H("w4624"), 3, allowed, priorities, lambda options, state: next(path), "convert",
                  can_retreat=lambda state: state.current not in hq_hexes)
    assert out.path == (H("w4723"), H("w4722")) and (out.converted, out.eliminated) == (1, False)


def test_ds12_4_2_5_3_the_9th_war_zone_breaks_its_hq_then_retreats_w4623_or_w4723_then_w4722_or_w4522():
    z = scenario("zhejiang")
    allowed, priorities = retreat_rules(z, "western", H("w4624"))
    seen = []

    def choose(options, state):
        seen.append(sorted(map(str, options)))
        return H("w4623") if H("w4623") in options else options[0]

    # The KMT HQ gave Ranged Support, so the force holds an HQ: the first hex is converted (the HQ breaks
    # down to a one-step Kiangsu Res, kinds kmt-hq -> nationalist-res), then the War Zone retreats.
    out = retreat(A, H("w4624"), 3, allowed, priorities, choose, "convert",
                  can_retreat=lambda state: state.converted >= 1)
    assert "kiangsu-res" in {k.id for k in D.class_members(D.kinds["kmt-hq"].breaks_to)}
    assert out.converted == 1 and len(out.path) == 2
    assert seen == [["w4623", "w4723"], ["w4522", "w4722"]]  # not w4622 across the lake


def test_4_2_5_1_priority_two_only_when_no_hex_free_of_ezoc_is_farther():
    def japanese_at(*hexes):
        def change(raw):
            raw["unit"] += [{"id": f"jp-{h}", "kind": "jp-division", "hex": h} for h in hexes]
        return change

    allowed, priorities = retreat_rules(scenario("zhejiang", japanese_at("w4724")), "western", H("w4624"))
    assert retreat_options(A, RetreatState(H("w4624")), allowed, priorities) == (0, [H("w4623")])
    allowed, priorities = retreat_rules(scenario("zhejiang", japanese_at("w4724", "w4523")), "western", H("w4624"))
    assert retreat_options(A, RetreatState(H("w4624")), allowed, priorities) == (1, [H("w4623")])  # the KMT HQ


# -- 4.2.6 losses --------------------------------------------------------------------------------------------
def test_ds13_4_2_6_1_on_a_beachhead_ad_1_0_takes_an_armor_step_first_then_any():
    mech, army = D.kinds["us-mech"], D.kinds["us-army"]
    result = D.crt.notation.parse("Ad 1/0")
    force = {"us-mech": mech.steps, "us-army": army.steps}
    due = result.attacker.retreat + result.attacker.losses  # a Beachhead force cannot retreat: Ad is a step

    def armor_first(unit, steps):
        if steps == force and not D.kinds[unit].armor_type:
            return "the first step lost must be an armor step (Dai Senso 4.2.6.1)"
        return None

    with pytest.raises(RuleViolation, match="armor step"):
        apply_step_losses(force, due, ["us-army", "us-mech"], "Dai Senso 4.2.6.1", armor_first)
    out = apply_step_losses(force, due, ["us-mech", "us-army"], "Dai Senso 4.2.6.1", armor_first)
    assert out.steps == {"us-mech": 2, "us-army": 1}


def test_ds14_4_2_6_2_a_7_6_2_losing_a_step_shows_its_4_4_1_two_step_side_an_armor_step_lost():
    mech = D.kinds["us-mech"]
    after = D.kinds[mech.flip]
    assert (mech.factors, mech.armor_type) == ("7-6-2", True)
    assert (after.factors, after.steps, after.armor_type) == ("4-4-1", mech.steps - 1, False)


# -- 4.2.8 exploitation ------------------------------------------------------------------------------------
def test_ds16_4_2_8_a_one_step_unit_with_dr3_0_1_retreats_three_then_dies_distance_3():
    result = D.crt.notation.parse("Dr3 0/1")
    losses = apply_step_losses({"ru-infantry": D.kinds["ru-infantry"].steps}, result.defender.losses,
                               ["ru-infantry"], "Dai Senso 4.2.6")
    assert losses.eliminated == ("ru-infantry",)
    assert exploitation_distance(result.defender.retreat, losses.unsatisfied, movement_allowance=9) == 3


def test_ds17_4_2_8_chita_dr1_0_1_converted_in_a_city_leaves_one_attrition_unsatisfied_distance_1():
    chita = A.hex_named("Chita")
    assert A.is_city(chita) and D.tec["features"]["city"]["voluntary_conversion"]
    result = D.crt.notation.parse("Dr1 0/1")
    unit = {"ru-infantry": D.kinds["ru-infantry"].steps}
    converted = apply_step_losses(unit, result.defender.retreat, ["ru-infantry"], "Dai Senso 4.2.5.3")
    attrition = apply_step_losses(converted.steps, result.defender.losses, [], "Dai Senso 4.2.6")
    assert attrition.unsatisfied == 1
    assert exploitation_distance(0, attrition.unsatisfied, movement_allowance=D.kinds["ru-tank-army"].ma) == 1


def test_ds21_4_2_8_design_note_the_distance_is_capped_at_the_units_movement_allowance():
    tank = D.kinds["ru-tank-army"]
    assert tank.ma == 2 and exploitation_distance(3, 0, movement_allowance=tank.ma) == 2
    assert D.kinds["ru-fortress"].ma == 0 and exploitation_distance(3, 0, D.kinds["ru-fortress"].ma) == 0


def test_4_2_8_an_exploiting_tank_stops_across_the_khingan_and_never_enters_mud():
    storm = scenario("august-storm")
    mud = {h for h, w in storm.weather.items() if w == "mud"}

    def enterable(h, prev):
        return D.is_land(h) and h not in mud

    def stops(h, prev):
        return any(D.tec["hexsides"][f].get("stops_exploitation") for f in A.hexside_features(prev, h))

    manchouli, hailar = H("e3410"), H("e3411")
    assert check_exploitation(A, H("e3510"), manchouli, [manchouli, H("e3310")], 2, enterable, stops, "4.2.8")
    with pytest.raises(RuleViolation, match="e3311 cannot be entered"):
        check_exploitation(A, H("e3510"), hailar, [hailar, H("e3311")], 2, enterable, stops, "4.2.8")
    with pytest.raises(RuleViolation, match="starts in the defending hex"):
        check_exploitation(A, H("e3510"), manchouli, [H("e3310")], 2, enterable, stops, "4.2.8")
    with pytest.raises(RuleViolation, match="must stop in e3412"):
        check_exploitation(A, H("e3510"), hailar, [hailar, H("e3412"), H("e3413")], 3, enterable, stops, "4.2.8")


# -- ranges ----------------------------------------------------------------------------------------------------
def test_ds20_4_1_1_and_4_2_1_2_ranges_count_the_target_hex_not_the_origin():
    strait = scenario("strait")
    hq = next(u for u in strait.units if u.id == "us-hq-pac")
    assert A.distance(hq.hex, H("w4324")) == 2  # Ranged Support reaches Taihoku
    storm = scenario("august-storm")
    para = next(u for u in storm.units if u.id == "ru-1-abde")
    reach = {h for h in A.hexes() if h.sheet == "e" and A.distance(para.hex, h) <= 2}
    assert para.hex in reach and H("e3411") in reach and H("e3312") not in reach
