"""Rows of docs/cases/daisenso.md whose mapped tests passed with the row's own code broken (issue 30's per-case
mutation report, `bench/mutation.py --report --cases`, session part 16, rules version 18): each test holds its
row's rule where a player or a position's author reads it, the refusal or the problem read whole with its case.
Each was checked by switching its row's mutant on in `mutants/` and seeing it fail (docs/mutation-survivors.md)."""
from __future__ import annotations

from app.rules.daisenso.events import CombatResolved
from tests.daisenso.helpers import position, preview, refused, scenario, unit, when
from tests.daisenso.test_daisenso_under_way import ds12, problems, raw_of


def test_4_2_7_a_position_at_the_overstack_step_with_no_attack_made_is_refused_naming_why_whole():
    """A position that starts at the Combat Segment's overstack step before any attack is made: an overstack there
    is one the segment's retreats or advances (4.2.7) left, so the position's author reads the whole problem, with
    what it lacks (`attacked_hexes`)."""
    def crowded(raw):
        raw.update(phase="regular", step="overstack", used_box={"east-china-sea": ["us-cv"]})
        raw["unit"] = [u for u in raw["unit"] if u["id"] != "us-tf-58"]
        raw["unit"] += [{"id": f"us-x{n}", "kind": "us-infantry", "hex": "w4424"} for n in range(3)]

    assert ("'step' overstack: a stack over the limit at a Combat Segment's end is one a retreat or an advance of "
            "the segment left (4.2.5.3 design note, 4.2.7; ruling D15): the segment's attacks are made "
            "(attacked_hexes)") in problems(raw_of("strait", crowded)).splitlines()


def test_4_2_2_an_hq_among_the_attackers_and_a_second_one_giving_ranged_support_is_refused_naming_4_2_2():
    """Step 2 of 4.2.2: the attacker may add an HQ's Ranged Support, but not to an attack an HQ already makes as one
    of the attacking units: refused with its case and why, and the order changes nothing."""
    z = scenario("zhejiang", lambda r: unit(r, "jp-hq-2", "jp-hq", "w4625"))
    assert refused(z, "attack w4624 with jp-13-army jp-hq-2 hq jp-china-hq", "Dai Senso 4.2.2") == (
        "Dai Senso 4.2.2: the attacking units already include an HQ")


def test_4_2_1_2_a_position_whose_defender_hq_is_the_attackers_is_refused_naming_4_2_1_2_whole():
    """Ranged Support for the defender (4.2.1.2) comes from the defender's own HQ: a position whose attack under way
    names the attacker's China HQ as the defender's support is refused, naming the case and the HQ."""
    raw = ds12({"hex": "w4624", "attackers": ["jp-22-div"], "defender_hq": "jp-china-hq", "stage": "roll"})
    assert "defender_hq jp-china-hq is not the defender's (Dai Senso 4.2.1.2, ruling D60)" in problems(raw)


def test_4_2_5_a_position_whose_attacker_stands_away_from_the_hex_it_attacked_from_is_refused_whole():
    """An attacker leaves the hex it attacked from only by the one-hex retreat of an Ad or Ex (4.2.4.1, 4.2.5): a
    position at the die roll whose 40th Division attacked from w4625 but stands in w4524 is refused, naming both
    hexes, the results that could have moved it and the key that says so."""
    raw = ds12({"hex": "w4624", "attackers": ["jp-40-div"], "from": {"jp-40-div": "w4625"}, "stage": "roll"})
    assert ('jp-40-div stands in w4524, not w4625: an attacker leaves the hex it attacked from only by its one-hex '
            'retreat after an Ad or Ex (attacker_result = "retreat") (Dai Senso 4.2.5, ruling D60)') in problems(raw)


def test_4_1_5_a_position_at_a_step_that_takes_no_order_is_refused_naming_the_steps_that_do():
    """The CV Strike Returns step (4.1.5) takes no order and follows by itself, so a position cannot start in it:
    the problem names the Blitz Combat Segment's steps a position may start in, and why that one is not among them."""
    raw = raw_of("strait", lambda r: r.update(phase="blitz", step="cv-strike-returns"))
    assert ("'step' is a step of the blitz segment a player gives orders in: airdrop, blitz-combat, landing, "
            "airdrop-landing, overstack (4.1-4.3; 4.1.5 and 4.3 steps 2-3 take no order and follow by themselves)"
            ) in problems(raw).splitlines()


def test_4_2_4_the_preview_reads_each_dies_result_off_the_table_with_the_weathers_conversion():
    """4.2.4 with 4.2.4.1's weather: 12 against 4 is 3-1 in a clear hex, where a 6 is the printed Dr3 0/1; the same
    attack into a hex under Storms (no shift) reads the converted Dr2 0/1, die by die in the preview."""
    attackers = [("jp-a", "jp-army", "w4220"), ("jp-b", "jp-army", "w4320"), ("jp-c", "jp-army", "w4321")]
    defenders = [("cn-army", "kmt-army", "w4221"), ("cn-res", "kiangsu-res", "w4221")]
    order = "attack w4221 with jp-a jp-b jp-c"
    fair = preview(position("axis", "western", attackers + defenders), order)
    storms = preview(position("axis", "western", attackers + defenders, weather={"storms": ["w4221"]}), order)
    assert fair["column"] == storms["column"] == "3-1"
    assert (fair["by_roll"][6], storms["by_roll"][6]) == ("Dr3 0/1", "Dr2 0/1")


def test_4_2_6_1_the_refused_first_loss_names_every_marine_that_may_give_it():
    """Two marines (one across the strait) and an infantry attack Taihoku at 1-2 and roll Ad 1/0: the first step
    lost must be a marine's (4.2.6.1), so the infantry's step is refused naming both marines that may give it."""
    state = position("western", "axis", [("us-mar", "us-marine", "w4424"), ("us-m2", "us-marine", "w4224"),
                                         ("us-inf", "us-infantry", "w4424"), ("jp-a", "jp-army", "w4324")],
                     hold="w4324")
    events, state = when(state, "attack w4324 with us-mar us-m2 us-inf", [1])
    assert next(e for e in events if isinstance(e, CombatResolved)).result == "Ad 1/0"
    assert refused(state, "lose us-inf", "Dai Senso 4.2.6.1") == (
        "Dai Senso 4.2.6.1: the attacking force's first step loss must be a marine step: us-mar, us-m2; open: "
        "lose us-mar, lose us-m2")
