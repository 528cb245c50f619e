"""Ichi-Go rules version 12 (docs/rulings/ichigo-engine.md E46, E47): a US reinforcement landing at a beachhead
moves no unit out of it, and no position puts a Japanese unit in a US beachhead hex. Each from a position file
(docs/custom-positions.md)."""
import pytest
from ichigo_given import RULES, of, then, when

from app.rules.custom_setup import SetupError
from app.rules.ichigo import GAME
from app.rules.ichigo import events as ev
from app.rules.legal import legal_orders
from tests.fuzzing import refusal

MAINLAND = "1922"   # Canton, a mainland landing port (5.3 item 12, ruling R10)


def turn_9_us_movement(units: dict, version: str | None = None):
    """Turn 9, the US Movement Phase (Phase II, move-fight): both beachheads ashore, Canton held by the Allies (4.4),
    the US divisions not named still waiting to land (9.8)."""
    pos = {"turn": 9, "phase": "II", "causeway": True, "plans": {"us": "move-fight"},
           "beachheads": {"formosa": "3221", "mainland": MAINLAND}, "units": {"us-1c": "3221", **units},
           "control": {"allied": [MAINLAND]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


def test_9_8_e46_a_us_reinforcement_landing_onto_chinese_units_at_a_beachhead_is_refused_by_6_4():
    """The Chinese regular C01 stands in the mainland beachhead; the 24th Division lands there: refused (6.4), with
    or without a hex to move C01 to, and C01 stays where it is."""
    s = turn_9_us_movement({"cn-reg-02": MAINLAND})
    said = ("Ichi-Go 6.4: chinese and us units may not stack together in 1922: a US reinforcement landing moves no "
            "unit out of the beachhead (only the mainland landing of 5.3 item 12 does)")
    assert refusal(RULES, s, "allied", f"land us-24th at {MAINLAND}") == said
    assert refusal(RULES, s, "allied", f"land us-24th at {MAINLAND} displace 2021") == said
    assert refusal(RULES, s, "allied", "land us-11ab at 1922") == said          # 8.11: as an infantry reinforcement
    assert [u.id for u in s.at(MAINLAND)] == ["C01"]
    assert [o["order"] for o in legal_orders(RULES, s, "allied") if o["action"] == "land"] == \
        ["land us-11ab us-24th us-25th us-27th us-31st us-32nd us-33rd at 3221"]   # seven more fit Formosa's (6.4)
    after = then(s, "allied", "land us-24th at 3221")                   # the other beachhead takes it
    assert after.units["us-24th"].hex == "3221"


def test_9_8_e46_a_us_reinforcement_lands_at_a_beachhead_the_chinese_have_left():
    s = turn_9_us_movement({"cn-reg-02": "2021"})
    [landed] = of(when(s, "allied", f"land us-24th at {MAINLAND}"), ev.USLanded)
    assert (landed.hex, landed.displaced) == (MAINLAND, [])


def test_9_8_e46_a_game_created_under_version_11_pushes_the_chinese_out_as_it_did():
    s = turn_9_us_movement({"cn-reg-02": MAINLAND}, "11")
    after = then(s, "allied", f"land us-24th at {MAINLAND} displace 2021")
    assert after.units["C01"].hex == "2021" and after.units["us-24th"].hex == MAINLAND


def test_5_3_item_12_e46_the_mainland_landing_still_moves_the_chinese_out_of_its_port():
    """Turn 8, Phase I: the landing that brings the mainland beachhead ashore moves the units in the port out."""
    pos = {"turn": 8, "phase": "I", "causeway": True, "beachheads": {"formosa": "3221"},
           "units": {"us-1c": "3221", "cn-reg-02": MAINLAND}}
    s = GAME.initial_state("campaign", {"position": pos})
    after = then(s, "allied", f"land us-24th us-25th at {MAINLAND} displace 2021")
    assert after.units["C01"].hex == "2021" and after.beachheads["mainland"] == MAINLAND


def test_4_4_e47_a_position_with_a_japanese_unit_in_a_us_beachhead_hex_is_refused():
    with pytest.raises(SetupError) as refused:
        turn_9_us_movement({"jp-cea-110div": MAINLAND})
    assert refused.value.problems == \
        ["jp-cea-110div: a Japanese unit in the US beachhead hex 1922 has already won the game (4.4, 7.5)"]
    s = turn_9_us_movement({"jp-cea-110div": MAINLAND}, "11")               # read as given under version 11
    assert [u.id for u in s.at(MAINLAND)] == ["jp-cea-110div"]
