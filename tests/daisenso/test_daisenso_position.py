"""Dai Senso positions (docs/daisenso-data.md "Positions"): the shipped scenarios load, and a bad position is
refused with every problem named."""

from __future__ import annotations

import copy
import tomllib

import pytest

from app.rules.custom_setup import SetupError
from app.rules.daisenso import data
from app.rules.daisenso.data_load import load
from app.rules.daisenso.position import position_from_dict, read_position
from app.rules.kernel.hexgrid import Hex

D = load()
H = Hex.parse
SCENARIOS = sorted(data.SCENARIOS.glob("*.toml"))


def raw(name: str) -> dict:
    with open(data.SCENARIOS / f"{name}.toml", "rb") as f:
        return tomllib.load(f)


def problems(position: dict) -> list[str]:
    with pytest.raises(SetupError) as info:
        position_from_dict(position, D)
    return info.value.problems


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_loads_with_two_factions_an_end_and_a_victory(path):
    p = read_position(path, D)
    assert len(p.factions) == 2 and p.phasing in p.factions and p.combat_phases >= 1
    assert p.victory.faction in p.factions and p.victory.otherwise in p.factions and p.victory.hold
    assert {u.faction for u in p.units} == set(p.factions)


def test_three_scenarios_ship_a_marine_assault_a_blitz_and_retreats_through_zoc():
    assert [p.stem for p in SCENARIOS] == ["august-storm", "strait", "zhejiang"]


def test_the_strait_scenario_holds_what_its_case_needs():
    p = read_position(data.SCENARIOS / "strait.toml", D)
    by_id = {u.id: u for u in p.units}
    marine = by_id["us-3-mac"]
    assert D.kinds[marine.kind].type == "marine" and marine.blitz and marine.supplied
    assert D.atlas.hexside_features(marine.hex, H("w4324")) == {"strait"}  # 4.2.3.6 across a Strait
    assert D.hexside_flag(by_id["us-6-mar"].hex, H("w4324"), "all_sea")  # 4.2.1.3 Marine Assault
    assert D.atlas.distance(by_id["us-hq-pac"].hex, H("w4324")) == 2  # 4.2.1.2 within two hexes
    beachhead = next(m for m in p.markers if m.kind == "beachhead")
    assert (beachhead.hex, beachhead.toward) == (H("w4325"), H("w4324")) and not D.is_land(beachhead.hex)
    assert by_id["us-tf-58"].zone == "east-china-sea" and p.convoys[0].used == 1  # 4.1.5, 4.3 step 1


def test_the_august_storm_scenario_has_a_blitz_armor_airborne_mud_snow_and_a_lone_detachment():
    p = read_position(data.SCENARIOS / "august-storm.toml", D)
    assert any(m.kind == "blitz" and m.faction == "soviet" for m in p.markers)
    blitz = [D.kinds[u.kind] for u in p.units if u.blitz]
    assert any(k.armor_type for k in blitz) and any(k.airdrop for k in blitz)
    assert p.weather == {H("e3311"): "mud", H("e3412"): "snow"}
    lone = next(m for m in p.markers if m.kind == "detachment-japan")
    assert not any(u.hex == lone.hex for u in p.units)


def test_the_zhejiang_scenario_stands_where_the_4_2_5_3_and_4_2_5_1_examples_do():
    p = read_position(data.SCENARIOS / "zhejiang.toml", D)
    at = {u.id: u.hex for u in p.units}
    assert at["cn-9-war-zone"] == H("w4624") and at["cn-3-hq"] == H("w4623")
    assert at["jp-15-army"] == H("w4520") and at["cn-chungking-hq"] == H("w4620")
    assert not any(m.kind == "blitz" for m in p.markers)  # 4.1: only the CV Strike step
    assert p.weather == {H("w4522"): "mud"}


def test_a_bad_position_is_refused_with_every_problem_named():
    bad = copy.deepcopy(raw("strait"))
    bad["phase"] = "movement"
    bad["factions"] = ["western", "axis"]
    bad["unit"][0]["kind"] = "us-battleship"
    bad["unit"][1]["hex"] = "w9999"
    bad["unit"][2]["hex"] = "w4326"  # at sea, no Beachhead there
    bad["unit"].append({"id": "ru-x", "kind": "ru-infantry", "hex": "w4424"})
    bad["unit"].append({"id": "us-6-mar", "kind": "us-infantry", "hex": "w4423"})
    bad["unit"].append({"id": "us-air-2", "kind": "us-air", "hex": "w4426"})  # next to us-14-af in w4425
    bad["unit"][5].pop("zone")
    bad["marker"][1]["toward"] = "w4424"
    bad["weather"] = {"mud": ["w4324"], "snow": ["w4324"], "hail": []}
    bad["force_pool"]["axis"]["us-infantry"] = 1
    bad["neutral"] = ["china"]
    bad["victory"]["faction"] = "soviet"
    bad["units"] = {"x": "w4324"}
    found = "\n".join(problems(bad))
    for needle in (
        "'phase' is the segment play starts in: blitz, regular, marker",
        "[[unit]] us-3-mac: no unit kind 'us-battleship'",
        "[[unit]] us-6-mar: hex 'w9999' is not on the map",
        "[[unit]] us-10-army: w4326 is not a Land hex",
        "[[unit]] ru-x: a Russian infantry fights for the soviet faction, which is not in this scenario",
        "[[unit]] us-6-mar: the id us-6-mar is used by 2 units",
        "Air units us-14-af and us-air-2 are in the same or adjacent hexes",
        "[[unit]] us-tf-58: a CV Strike names its Naval Zone",
        "its arrow points across one hexside to a Land hex next to w4325, not w4424",
        "[weather] w4324 has both mud and snow",
        "[weather]: unknown key 'hail'",
        "[force_pool.axis]: us-infantry belongs to the western faction",
        "'neutral': Nationalist China is not a Minor Country",
        "[victory]: faction is one of the scenario's factions (western, axis), not 'soviet'",
        "'units' is not a Dai Senso key",
    ):
        assert needle in found, needle


def test_units_in_a_neutral_country_two_factions_in_a_hex_and_overstacking_are_refused():
    bad = copy.deepcopy(raw("zhejiang"))
    bad["unit"].append({"id": "cn-tibet", "kind": "kmt-army", "hex": "w4614"})
    bad["unit"].append({"id": "cn-in-hangchow", "kind": "kmt-army", "hex": "w4625"})
    bad["unit"] += [{"id": f"cn-{i}", "kind": "hunan-res", "hex": "w4522"} for i in range(4)]
    found = "\n".join(problems(bad))
    assert "[[unit]] cn-tibet: w4614 is in Tibet, a Neutral Minor Country (13.4)" in found
    assert "w4625 holds ground units of axis and western" in found
    assert "w4522 holds 4 ground units; a hex holds 3 (ruling D15)" in found


def test_a_holding_box_unit_must_say_what_waits_in_its_box():
    base = copy.deepcopy(raw("strait"))
    base["unit"].append({"id": "abda", "kind": "abda-army", "hex": "w4423"})
    assert any("its Holding Box holds one of br-fe-infantry, nei-infantry" in p for p in problems(base))
    base["unit"][-1]["holding"] = ["nei-infantry"]
    p = position_from_dict(base, D)
    assert next(u for u in p.units if u.id == "abda").holding == ("nei-infantry",)


def test_a_file_that_is_not_toml_or_not_there_is_named(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("turn = = 1", encoding="utf-8")
    with pytest.raises(SetupError, match="broken.toml: not valid TOML"):
        read_position(broken, D)
    with pytest.raises(SetupError, match="cannot read"):
        read_position(tmp_path / "absent.toml", D)


def test_d35_a_what_if_unit_attacks_with_its_own_values():
    import re
    from pathlib import Path

    from app.rules.daisenso import GAME

    text = Path("docs/custom-positions.md").read_text(encoding="utf-8")
    section = text[text.index("### Dai Senso"):text.index("### Operation Causeway")]
    block = re.findall(r"```toml\n(.*?)```", section, re.S)[0]  # the what-if (the next: an attack under way)
    position = tomllib.loads(block)
    state = GAME.initial_state("custom", {"position": position})
    side = GAME.prompt(state).side
    shown = GAME.preview(state, GAME.parse("attack w4324 with us-3-mac", side, state))
    assert shown["attack"] == 6 and state.kind(state.units["us-3-mac"]).defense == 4
    offered = {o["order"] for o in GAME.legal_orders(state, side)}
    assert not any(o.startswith("attack w4224") for o in offered)  # attacked_hexes: once a segment (4.2.1)
    assert not any("hq us-hq-pac" in o for o in offered)  # fought: no Ranged Support after it (4.2.1.2)
    assert state.units["us-6-mar"].attacked
    assert state.used_box == {"east-china-sea": ("us-cv",)}  # Task Force 58 after 4.1.5 (ruling D56)
    printed = copy.deepcopy(position)
    del printed["unit"][0]["values"]
    plain = GAME.initial_state("custom", {"position": printed})
    assert GAME.preview(plain, GAME.parse("attack w4324 with us-3-mac", side, plain))["attack"] == \
        D.kinds["us-marine-corps"].attack
    bad = copy.deepcopy(position)
    bad["unit"][0]["values"] = {"attack": -2, "steps": 3}
    with pytest.raises(SetupError) as err:
        GAME.initial_state("custom", {"position": bad})
    assert "attack is a whole number from 0 to 99" in str(err.value) and "'steps' is not a value" in str(err.value)


def test_d36_a_position_in_the_middle_of_a_combat_segment_says_who_attacked_and_which_hex():
    from app.rules.daisenso import GAME
    from tests.daisenso.helpers import refused, scenario

    def midway(r):
        for u in r["unit"]:
            if u["id"] == "jp-china-hq":
                u["fought"] = True
            if u["id"] == "jp-15-army":
                u["attacked"] = True
        r["attacked_hexes"] = ["w4620"]

    z = scenario("zhejiang", midway)
    assert z.units["jp-china-hq"].fought and z.units["jp-15-army"].attacked and z.attacked_hexes == ("w4620",)
    assert "already took part in a combat" in refused(
        z, "attack w4624 with jp-13-army hq jp-china-hq", "Dai Senso 4.2.1.2")
    refused(z, "attack w4620 with jp-22-div", "Dai Senso 4.2.1")
    assert not any(o["order"].startswith("attack w4620") for o in GAME.legal_orders(z, GAME.prompt(z).side))
    bad = raw("zhejiang")
    bad["unit"][0]["fought"] = True
    bad["unit"][0]["attacked"] = True
    found = problems({**bad, "phase": "marker"})
    assert any("belong to a Combat Segment" in p for p in found)
    assert any("'fought' marks an HQ" in p for p in found)
    assert any("the hex it attacked is in attacked_hexes" in p for p in found)


def test_a_position_file_that_cannot_be_read_is_refused_naming_it(tmp_path):
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(SetupError) as err:
        read_position(missing, D)
    assert str(err.value).startswith(f"{missing}: cannot read")


def test_the_unit_and_marker_kinds_are_built_from_units_toml_with_every_problem_named():
    from app.rules.daisenso.data_load import build
    from app.rules.datafiles import read_toml
    from app.rules.kernel.atlas import load_atlas

    atlas, tec, crt = load_atlas(data.MAP_SHEETS), read_toml(data.TERRAIN), read_toml(data.CRT)
    units = read_toml(data.UNITS)
    built = build(atlas, tec, crt, units)
    assert (built.kinds["jp-army"].type, built.kinds["us-marine"].type) == ("infantry", "marine")
    assert built.markers["beachhead"].name == units["marker"]["beachhead"]["name"]
    bad = copy.deepcopy(units)
    bad["marker"]["beachhead"]["factions"] = ["martians"]
    with pytest.raises(Exception) as err:
        build(atlas, tec, crt, bad)
    assert "no faction 'martians'" in str(err.value)


def test_more_problems_of_a_position_each_named_and_none_hiding_another():
    bad = copy.deepcopy(raw("strait"))
    # each entry is checked, whatever the one before it got wrong
    bad["force_pool"]["western"] = {"us-infantry": -1, "us-flying-boat": 1, "us-marine": -2}
    bad["pre_war"] = "yes"
    bad["mobilizing"] = [{"country": "siam", "faction": "axis", "colour": "red"}]
    bad["marker"].append({"kind": "beachhead", "faction": "western", "hex": "w4424", "toward": "w4324"})
    found = "\n".join(problems(bad))
    for needle in ("[force_pool.western]: no unit or marker kind 'us-flying-boat'",
                   "[force_pool.western]: us-infantry is a count (0 or more)",
                   "[force_pool.western]: us-marine is a count (0 or more)",
                   "position: pre_war is true or false", "[[mobilizing]] #1: unknown key 'colour' (keys: country, "
                                                          "faction)",
                   "a Beachhead marker lies in an All-Sea hex (4.1.3, 4.2.5), not in w4424"):
        assert needle in found, needle
    assert not any("unknown key 'country'" in p for p in problems(bad))
    del bad["victory"]
    assert "[victory] says who wins at the end: faction, hold = [hexes]" in problems(bad)


def test_a_marker_of_a_position_may_be_unsupplied():
    storm = copy.deepcopy(raw("august-storm"))
    storm["marker"].append({"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3310", "supplied": False})
    placed = position_from_dict(storm, D)
    [drop] = [m for m in placed.markers if m.kind == "airdrop-soviet"]
    assert drop.supplied is False
    assert drop.airborne == "ru-airborne"  # the unit on its other side, the one Soviet airborne kind (4.1.1)


def test_an_airdrop_marker_of_a_position_names_only_an_airborne_kind_that_carries_it():
    storm = copy.deepcopy(raw("august-storm"))
    storm["marker"] += [{"kind": "airdrop-soviet", "faction": "soviet", "hex": "e3310", "airborne": "us-airborne"},
                        {"kind": "blitz", "faction": "soviet", "hex": "e3409", "airborne": "ru-airborne"}]
    found = problems(storm)
    assert "[[marker]] #3 (airdrop-soviet): airborne names the unit on the marker's other side: one of " \
           "ru-airborne" in found
    assert "[[marker]] #4 (blitz): only an Airdrop marker has an airborne unit on its other side" in found
