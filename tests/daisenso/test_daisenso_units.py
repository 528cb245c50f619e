"""Dai Senso countries, unit kinds and markers checked against what chapter 4 states, and the data loader's
cross-checks (every problem named)."""

from __future__ import annotations

import copy
import tomllib

import pytest

from app.rules.daisenso import data
from app.rules.daisenso.data_load import DataError, build, load

D = load()
K = D.kinds


def raw_files():
    def read(path):
        with open(path, "rb") as f:
            return tomllib.load(f)

    return read(data.TERRAIN), read(data.CRT), read(data.UNITS)


def test_4_2_6_1_and_4_2_6_2_us_7_6_2_three_step_mech_flips_to_a_4_4_1_two_step():
    mech = K["us-mech"]
    assert (mech.factors, mech.steps, mech.armor_type, mech.nations) == ("7-6-2", 3, True, ("usa",))
    back = K[mech.flip]
    assert (back.factors, back.steps, back.armor_type) == ("4-4-1", 2, False)


def test_4_2_6_2_a_two_step_without_a_one_step_side_breaks_down_from_the_force_pool():
    army = K["us-army"]
    assert army.flip is None and [k.id for k in D.class_members(army.breaks_to)] == ["us-infantry"]
    assert all(k.steps == 1 for k in D.class_members(army.breaks_to))


def test_4_2_5_3_the_kmt_hq_is_two_steps_and_breaks_down_to_a_kiangsu_res_infantry():
    hq = K["kmt-hq"]
    assert (hq.type, hq.steps, hq.flip) == ("hq", 2, None)
    assert "kiangsu-res" in {k.id for k in D.class_members(hq.breaks_to)}
    assert K["kiangsu-res"].steps == 1 and K["kiangsu-war-zone"].nations == ("kiangsu",)


def test_4_2_6_2_abda_holding_box_keeps_british_fe_or_nei():
    abda = K["abda-army"]
    assert abda.steps == 2 and set(abda.components) == {"br-fe-infantry", "nei-infantry"}
    assert {"britain", "nei"} <= set(abda.nations)


def test_4_2_6_2_the_japanese_ig_hq_leaves_the_game_and_delay_stripes_exist():
    assert K["jp-ig-hq"].leaves_game and [k for k in K.values() if k.leaves_game] == [K["jp-ig-hq"]]
    assert any(k.delay for k in K.values()) and not all(k.delay for k in K.values())


def test_4_2_8_russian_infantry_is_one_step():
    assert K["ru-infantry"].steps == 1 and K["ru-infantry"].nations == ("ussr",)


def test_4_1_4_airborne_flips_to_its_factions_airdrop_marker_and_the_western_one_is_british_or_us():
    for k in K.values():
        assert (k.type == "airborne") == (k.airdrop is not None), k.id
        if k.airdrop:
            assert D.faction_of_nations(D.markers[k.airdrop].nations) == D.faction_of_nations(k.nations)
    assert set(D.markers["airdrop-western"].nations) == {"britain", "usa"}
    for marker in ("airdrop-axis", "airdrop-western", "airdrop-soviet"):  # a non-elite infantry can land
        nations = set(D.markers[marker].nations)
        assert any(k.steps == 1 and k.type == "infantry" and not k.elite and set(k.nations) & nations
                   for k in K.values()), marker


def test_4_1_3_1_snlf_beachhead_0_is_axis_only_and_a_japanese_detachment_exists():
    assert D.markers["snlf-beachhead-0"].factions == ("axis",) and D.markers["snlf-beachhead-0"].points
    assert D.markers["detachment-japan"].nations == ("japan",)


def test_4_2_1_1_minor_countries_exp_units_and_kwantung():
    assert D.countries["siam"].kind == D.countries["hopeh"].kind == "minor"
    assert K["hopeh-exp"].exp and not K["hopeh-infantry"].exp and K["siam-infantry"].nations == ("siam",)
    assert K["kwantung-army"].kwantung and D.countries["manchukuo"].dependent_of == "japan"
    assert all(k.attack == 0 for k in K.values() if k.type == "fortress")


def test_4_2_1_2_chinese_hq_groups_and_the_multinational_cbi_hq():
    assert D.countries["china"].group == D.countries["kiangsu"].group == "nationalist-chinese"
    assert D.countries["ccp"].group == "communist-chinese" and D.countries["ccp"].faction == "soviet"
    assert K["cbi-hq"].type == "hq" and len(K["cbi-hq"].nations) > 1
    assert D.countries["ussr"].faction == "soviet" and D.countries["china"].faction == "western"


def test_the_loader_names_every_inconsistency_between_the_files():
    tec, crt, units = raw_files()
    units = copy.deepcopy(units)
    units["kind"]["us-mech"]["flip"] = "us-infantry"  # one step, not two
    units["kind"]["us-army"]["breaks_to"] = "nobody"
    units["kind"]["jp-army"]["nations"] = ["japan", "usa"]
    units["kind"]["ru-tank"]["steps"] = 4
    units["country"]["siam"]["faction"] = "neutral"
    tec = copy.deepcopy(tec)
    del tec["hexsides"]["lake"]
    with pytest.raises(DataError) as info:
        build(D.atlas, tec, crt, units)
    found = "\n".join(info.value.problems)
    for needle in ("[kind.us-mech]: its other side us-infantry must have one step fewer (2)",
                   "[kind.us-army]: breaks_to names no class of one-step kinds: 'nobody'",
                   "[kind.jp-army]: its nations belong to different factions",
                   "[kind.ru-tank]: ground units have 1 to 3 steps",
                   "[country.siam]: faction is one of axis, western, soviet",
                   "terrain.toml has no [hexsides.lake]"):
        assert needle in found
