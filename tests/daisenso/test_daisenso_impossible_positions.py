"""Dai Senso positions no play of the Combat Phase leaves (ruling D56, rules version 10): each refused with its case
named, while a game created under version 9 still starts from it as it did; and the states a position may now say
(a stack over the limit in the middle of a Combat Segment, CV Strikes in their Used Box), each played."""
from __future__ import annotations

import copy
import tomllib

import pytest

from app.rules.custom_setup import SetupError
from app.rules.daisenso import GAME, data
from tests.daisenso import helpers
from tests.daisenso.helpers import orders, step, when


def storm(change) -> dict:
    with open(data.SCENARIOS / "august-storm.toml", "rb") as f:
        raw = tomllib.load(f)
    raw = copy.deepcopy(raw)
    change(raw)
    return raw


def refused(raw: dict) -> str:
    """Every problem the position reader names, in one text; the same position starts a version 9 game."""
    with pytest.raises(SetupError) as err:
        GAME.initial_state("custom", {"position": raw})
    GAME.initial_state("custom", {"position": raw}, "9")  # a game created under version 9 is read as it was
    return "\n".join(err.value.problems)


@pytest.mark.parametrize("kind", ["detachment-soviet", "logistics-soviet"])
def test_d56_a_detachment_or_logistics_marker_in_a_hex_of_enemy_ground_units_is_refused(kind):
    """4.1.3.1, 4.2.2; rulings D42, D44, D46: every unit placed in a hex holding enemy Detachment or Logistics markers
    sends them to the Delay Box, so a Soviet marker never shares Hailar (e3411) with the Kwantung Army."""
    found = refused(storm(lambda r: r["marker"].append({"kind": kind, "hex": "e3411"})))
    assert "e3411 holds Detachment or Logistics markers beside another faction's pieces (axis ground units and " \
           "soviet markers)" in found and "(4.1.3.1, 4.2.2; rulings D42, D44, D46, D56)" in found
    beside = storm(lambda r: r["marker"].append({"kind": kind, "hex": "e3310"}))  # with the Japanese Detachment
    assert "e3310 holds Detachment or Logistics markers beside another faction's pieces (axis markers and soviet " \
           "markers)" in refused(beside)
    own = storm(lambda r: r["marker"].append({"kind": kind, "hex": "e3409"}))  # with its own Mongolian cavalry
    assert GAME.initial_state("custom", {"position": own}).markers_at("e3409", (kind,))


def test_d56_an_airdrop_marker_is_on_the_map_only_in_its_factions_blitz_segment():
    """4.1, 4.1.1, 4.1.4: Airdrop markers are placed in step 1 of their faction's Blitz Combat Segment, which only a
    faction with a Blitz marker on the map plays, and step 4 sends every one to the Delay Box."""
    def drop(raw, faction="soviet", **more):
        raw["marker"].append({"kind": f"airdrop-{faction}", "faction": faction, "hex": "e3310"})
        raw.update(more)

    blitz = GAME.initial_state("custom", {"position": storm(drop)})
    assert step(blitz) == "airdrop" and blitz.markers_at("e3310", ("airdrop-soviet",))
    for late in (storm(lambda r: drop(r, phase="regular")), storm(lambda r: drop(r, phase="marker")),
                 storm(lambda r: drop(r, "axis")),
                 storm(lambda r: (drop(r), r.update(marker=[m for m in r["marker"] if m["kind"] != "blitz"])))):
        assert "e3310: an Airdrop marker is on the map only in its own faction's Blitz Combat Segment" in refused(late)


def test_d56_cv_strikes_are_in_their_used_box_after_the_blitz_segment_and_a_position_says_so():
    """4.1.5 (ruling D38): every CV Strike in a hex goes to its Naval Zone's Used Box at the Blitz Combat Segment's
    end, so a position in the Regular Combat or Marker Segment holds it there, in [used_box], not in a hex."""
    def regular(raw, boxed=False):
        raw["phase"] = "regular"
        if boxed:
            raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
            raw["used_box"] = {"east-china-sea": ["us-cv"]}

    with open(data.SCENARIOS / "strait.toml", "rb") as f:
        strait = tomllib.load(f)
    late = copy.deepcopy(strait)
    regular(late)
    assert "[[unit]] us-tf-58: a CV Strike is in a hex only until 4.1.5 returns it" in refused(late)
    boxed = copy.deepcopy(strait)
    regular(boxed, True)
    state = GAME.initial_state("custom", {"position": boxed})
    assert step(state) == "regular-combat" and state.used_box == {"east-china-sea": ("us-cv",)}
    assert GAME.view(state, "axis")["used_box"] == {"east-china-sea": ["us-cv"]}
    boxed["used_box"] = {"east-china-sea": ["us-marine", "jp-cv"]}
    with pytest.raises(SetupError) as err:
        GAME.initial_state("custom", {"position": boxed})
    assert "[used_box] east-china-sea: 'us-marine' is not a CV Strike kind (units.toml); only CV Strikes go to a " \
           "Used Box (4.1.5)" in err.value.problems


def test_d56_no_attacks_made_under_pre_war_or_a_truce_and_no_axis_only_marker_in_another_factions_box():
    attacked = dict(phase="regular", attacked_hexes=["e3410"])
    pre_war = refused(storm(lambda r: r.update(pre_war=True, **attacked)))
    assert "attacks made (attacked_hexes, attacked, fought) while Pre-War is in effect: no unit attacks " \
           "(4.2.1.1, ruling D23)" in pre_war
    truce = refused(storm(lambda r: r.update(truce=[{"factions": ["axis", "soviet"]}], **attacked)))
    assert "between factions at truce: they do not attack each other (4.2.1.1, ruling D18)" in truce
    GAME.initial_state("custom", {"position": storm(lambda r: r.update(pre_war=True, phase="regular"))})
    def spent(raw):
        raw.update(phase="regular")
        next(u for u in raw["unit"] if u["id"] == "ru-transbaikal")["fought"] = True
    assert "[[unit]] fought: the hex of the combat it took part in is in attacked_hexes (4.2.1.2)" in refused(
        storm(spent))
    boxed = refused(storm(lambda r: r.update(delay_box={"soviet": {"totsugeki": 1}})))
    assert "[delay_box.soviet]: only axis have Totsugeki markers (ruling D56)" in boxed


def test_d56_a_stack_over_the_limit_in_the_middle_of_a_combat_segment_is_settled_at_its_end():
    """4.2.5.3 design note, 4.2.7: a retreat or an advance may leave a stack over the limit until the Combat Segment
    ends (ruling D15); a position after an attack may hold one, and its owner eliminates down to the limit when the
    segment ends. Before any attack a stack over the limit is refused, as it always was."""
    def crowded(raw, made=True):
        raw.update(phase="regular", phasing="soviet")
        raw["marker"] = [m for m in raw["marker"] if m["kind"] != "blitz"]
        raw["unit"] += [{"id": f"ru-x{n}", "kind": "ru-infantry", "hex": "e3409"} for n in range(3)]
        if made:
            raw["attacked_hexes"] = ["e3410"]

    with pytest.raises(SetupError) as err:
        GAME.initial_state("custom", {"position": storm(lambda r: crowded(r, made=False))})
    assert "e3409 holds 4 ground units; a hex holds 3 (ruling D15)" in err.value.problems
    state = GAME.initial_state("custom", {"position": storm(crowded)})
    assert step(state) == "regular-combat" and len(state.ground_at("e3409")) == 4
    _, ended = when(state, "next")
    assert step(ended) == "overstack" and "eliminate ru-x0" in orders(ended)
    _, settled = when(ended, "eliminate ru-x0")
    assert len(settled.ground_at("e3409")) == 3 and step(settled) != "overstack"


def test_d57_no_hq_gives_ranged_support_to_an_attack_on_markers_alone():
    """4.2.2: an attack on a hex of enemy Detachment or Logistics markers and no ground unit succeeds at once; the
    HQ declaration is step 1 of an attack on ground units, so an HQ named for it is refused, and stays free to
    support a later attack (4.2.1.2). A game of version 9 took the HQ in, spent."""
    def hq_near(raw):
        raw["unit"] += [{"id": "ru-tk", "kind": "ru-tank", "hex": "e3309", "blitz": True},
                        {"id": "ru-hq2", "kind": "ru-hq", "hex": "e3409", "blitz": True}]

    for version in (None, "9"):
        state = GAME.initial_state("custom", {"position": storm(hq_near)}, version)
        _, state = when(state, "next")
        offered = orders(state)
        assert "attack e3310 with ru-tk" in offered
        if version is None:
            assert not any(o.startswith("attack e3310") and " hq " in o for o in offered)
            assert helpers.refused(state, "attack e3310 with ru-tk hq ru-hq2", "Dai Senso 4.2.2").endswith(
                "no HQ gives it Ranged Support (steps 1-8 are for an attack on ground units)")
            _, state = when(state, "attack e3310 with ru-tk")
            assert not state.units["ru-hq2"].fought
        else:
            assert "attack e3310 with ru-tk hq ru-hq2" in offered
            _, state = when(state, "attack e3310 with ru-tk hq ru-hq2")
            assert state.units["ru-hq2"].fought


def test_d58_the_ig_hq_eliminated_at_sea_in_4_3_step_3_leaves_the_game():
    """4.2.6.2's exception: the Japanese IG HQ is removed from the game when eliminated; left at sea when 4.3 step 3
    takes the SNLF Beachhead-0 from under it, it leaves the game, not for the Axis Force Pool (version 9 put it
    there)."""
    def at_sea(raw):
        raw["marker"] += [{"kind": "snlf-beachhead-0", "faction": "axis", "hex": "w4626", "toward": "w4725"}]
        raw["unit"].append({"id": "jp-ig", "kind": "jp-ig-hq", "hex": "w4626"})
        raw["phase"] = "marker"

    with open(data.SCENARIOS / "zhejiang.toml", "rb") as f:
        raw = tomllib.load(f)
    at_sea(raw)
    for version, pool in ((None, 0), ("9", 1)):
        state = GAME.initial_state("custom", {"position": copy.deepcopy(raw)}, version)
        events, state = when(state, "next")
        assert "jp-ig" not in state.units and state.force_pool["axis"].get("jp-ig-hq", 0) == pool
        assert "jp-ig-hq" not in state.delay_box.get("axis", {})
